"""A table's deal anybody can check: committed when the table opens, a share from every
seat, the secret kept from every page until the match ends, then revealed and checked."""

from __future__ import annotations

import hashlib
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games import screens, services
from games.engine import Rules
from games.engine.deal_seed import Committed, check_record
from games.engine.records import dumps
from games.models import Table, TableSeat
from games.review import export_record
from games.simulate import play_match
from tests.games.test_pages import RULES

pytestmark = pytest.mark.django_db

BROWSER_SHARE = "ab" * 32


def open_table(client) -> Table:
    """A table opened from the new table's form, with the share its page's script adds."""
    form = {**RULES, "host_name": "Ana", "seat_count": "3", "contribution": BROWSER_SHARE}
    answer = client.post(reverse("games:new"), form)
    assert answer.status_code == 302
    return Table.objects.get(code=answer.url.strip("/").split("/")[-1])


def play_to_the_end(table: Table) -> None:
    """Ben joins, a bot sits down, and bots play every seat to the match's end."""
    host = table.seats.get(position=0)
    services.add_bot(table.code, host_token=table.host_token, level="greedy")
    services.start(table.code, host_token=table.host_token)
    services.connect(table.code, token=host.token, host_token="", channel="a-browser")
    for seat in table.seats.filter(kind=TableSeat.Kind.HUMAN):
        services.hand_to_bot(
            table.code, host_token=table.host_token, position=seat.position, level="greedy"
        )
    for _ in range(10_000):
        if services.play_bot_turn(table.code) is not None:
            continue
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return
        services.ready(table.code, token=host.token)
    raise AssertionError("the match never finished")


def test_a_table_commits_to_its_secret_and_takes_each_seats_share(client):
    table = open_table(client)
    assert table.deal_commitment == hashlib.sha256(table.deal_secret.encode()).hexdigest()
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert table.deal_commitment in page and table.deal_secret not in page
    host = table.seats.get(position=0)
    assert host.contribution == BROWSER_SHARE and not host.contribution_by_server
    assert host.contribution_hash[:16] in page and "from their browser" in page
    # A page without JavaScript sends no share: the server makes one, and says so.
    ben = services.join(table.code, name="Ben")
    assert ben.contribution_by_server and len(ben.contribution) == 64
    assert ben.contribution != host.contribution


def test_a_share_of_another_shape_is_refused_and_seats_nobody(client):
    table = open_table(client)
    other = client.__class__()
    answer = other.post(
        reverse("games:join", args=[table.code]), {"name": "Ben", "contribution": "not hex"}
    )
    assert answer.status_code == 400
    assert "64 hex digits" in answer.content.decode()
    assert table.seats.count() == 1


def test_every_round_is_dealt_from_the_secret_and_the_shares_and_revealed_at_the_end(client):
    table = open_table(client)
    secret = table.deal_secret
    services.join(table.code, name="Ben")
    deal_page = reverse("games:deal", args=[table.code])
    play_to_the_end(table)
    table.refresh_from_db()
    records = list(table.moves.order_by("number").values_list("record", flat=True))
    seats = list(table.seats.order_by("position"))
    assert records[0]["deal"] == {
        "commitment": table.deal_commitment,
        "contributions": [s.contribution for s in seats],
        "by_server": [s.contribution_by_server for s in seats],
    }
    assert records[0]["deal"]["by_server"] == [False, True, True]
    assert records[-1]["type"] == "match_end" and records[-1]["secret"] == secret
    found = check_record(records)
    assert found.holds and len(found.rounds) == 2
    # The rounds were dealt from the secret and the shares, not from the seed.
    order = Committed(secret, tuple(s.contribution for s in seats))
    assert order == table.deal_order(seats)
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert secret in page and deal_page in page
    checked = client.get(deal_page).content.decode()
    assert secret in checked
    assert "Every round's deal is the one the secret and the shares give." in checked
    assert checked.count("the same hands and boneyard as played") == 2


def test_before_the_end_the_secret_is_in_no_page_message_or_record(client, admin_client):
    table = open_table(client)
    secret = table.deal_secret
    services.join(table.code, name="Ben")
    services.add_bot(table.code, host_token=table.host_token, level="greedy")
    services.start(table.code, host_token=table.host_token)
    table.refresh_from_db()
    seats = list(table.seats.all())
    pages = [
        client.get(reverse("games:table", args=[table.code])),
        client.get(reverse("games:deal", args=[table.code])),
        admin_client.get(reverse("admin:games_table_change", args=[table.pk])),
        admin_client.get(reverse("admin:games_table_changelist")),
    ]
    for page in pages:
        assert page.status_code == 200
        assert secret not in page.content.decode()
    for seat in [*seats, None]:
        viewer = screens.Viewer(seat.pk if seat else None, False)
        assert secret not in screens.view_message(table.code, viewer)[0]
    assert secret not in json.dumps(screens.snapshot(table, seats))
    assert secret not in export_record(table.match)
    assert secret not in json.dumps(list(table.moves.values_list("record", flat=True)))


def test_verify_deal_checks_a_record_and_names_the_first_round_that_differs(client, tmp_path):
    table = open_table(client)
    services.join(table.code, name="Ben")
    play_to_the_end(table)
    table.refresh_from_db()
    text = export_record(table.match)
    good = tmp_path / "match.jsonl"
    good.write_text(text)
    out = StringIO()
    call_command("verify_deal", str(good), stdout=out)
    assert "round 1: dealt again, the deal played" in out.getvalue()
    assert "every deal (2 rounds)" in out.getvalue()

    lines = [json.loads(line) for line in text.splitlines()]
    lines[0]["deal"]["contributions"][1] = "cd" * 32
    changed = tmp_path / "changed.jsonl"
    changed.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(CommandError, match="round 1 was not dealt"):
        call_command("verify_deal", str(changed), stdout=StringIO())

    lines = [json.loads(line) for line in text.splitlines()]
    lines[-1]["secret"] = "0" * 64
    changed.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(CommandError, match="not the commitment"):
        call_command("verify_deal", str(changed), stdout=StringIO())


def test_verify_deal_says_plainly_that_a_seeded_record_was_not_dealt_this_way(tmp_path):
    played = play_match(Rules(highest_double=6, rounds=1), ["random", "random"], 3, record=True)
    path = tmp_path / "seeded.jsonl"
    path.write_text(dumps(played.records))
    with pytest.raises(CommandError, match="not dealt by commit and reveal"):
        call_command("verify_deal", str(path), stdout=StringIO())


def test_a_match_whose_shares_are_all_the_servers_says_so_plainly(client):
    """Bots alone (and pages without JavaScript) bring no share of their own: the check
    does not claim that nobody could choose the deal."""
    table, _ = services.create_table(
        rules=Rules(highest_double=6, rounds=1), seat_count=2, host_name="Ana"
    )
    page = client.get(reverse("games:deal", args=[table.code])).content.decode()
    assert "Every share was made by the server" in page
    mine = open_table(client)
    page = client.get(reverse("games:deal", args=[mine.code])).content.decode()
    assert "Every share was made by the server" not in page
