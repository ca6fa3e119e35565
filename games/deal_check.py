"""The page that checks a finished match's deal: every round dealt again from the revealed
secret and the seats' contributions (games.engine.deal_seed), beside what was played.

It reads the table's move log, which is its game record, so the page, ``manage.py
verify_deal`` and anybody holding the record check the same thing the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Rules
from games.engine.deal_seed import DealCheck, NotCommitted, check_record, digest, round_key

from .models import Table, TableSeat


@dataclass(frozen=True)
class RoundShown:
    number: int
    engine: int
    key: str  # the round's HMAC-SHA256 key, in hex: the first step of the recipe
    matches: bool


@dataclass(frozen=True)
class Shares:
    name: str
    contribution: str  # shown only once the match is over
    digest: str
    by_server: bool
    is_bot: bool


def page_context(table: Table) -> dict[str, object]:
    """What the page shows: before the end only the commitment and the contributions'
    hashes; after it the secret, the contributions and each round's check."""
    seats: list[TableSeat] = list(table.seats.all())
    secret = table.revealed_secret
    context: dict[str, object] = {
        "table": table,
        "commitment": table.deal_commitment,
        "secret": secret,
        "shares": [
            Shares(
                name=s.name,
                contribution=s.contribution if secret else "",
                digest=digest(s.contribution),
                by_server=s.contribution_by_server,
                is_bot=s.is_bot,
            )
            for s in seats
        ],
    }
    # With every share the server's (bots, pages without JavaScript), only the server's
    # word stands behind the deal: the page says so rather than claim more.
    context["all_by_server"] = all(s.contribution_by_server for s in seats)
    if not secret:
        return context
    records = list(table.moves.order_by("number").values_list("record", flat=True))
    try:
        found: DealCheck = check_record(records)
    except NotCommitted as refused:
        context["not_committed"] = str(refused)
        return context
    contributions = records[0]["deal"]["contributions"]
    rules = Rules.from_dict(records[0]["rules"])
    context["check"] = found
    context["secret_digest"] = digest(secret)
    context["rounds"] = [
        RoundShown(
            number=r.number,
            engine=rules.round_double(r.number),
            key=round_key(secret, contributions, r.number).hex(),
            matches=r.matches,
        )
        for r in found.rounds
    ]
    return context
