"""Started tables and legal moves for the online-play tests, built through the services."""

from __future__ import annotations

from games import screens, services
from games.engine import Rules
from games.forms import parse_intent as parse
from games.models import Table, TableSeat


def view_message(code: str, token: str | None, host_token: str = "") -> str:
    """The view message a socket of the seat of ``token`` (in a session with ``host_token``)
    sends, read from the database."""
    seat = TableSeat.objects.filter(table__code=code, token=token).first() if token else None
    table = Table.objects.get(code=code)
    is_host = bool(host_token) and host_token == table.host_token
    viewer = screens.Viewer(seat.pk if seat else None, is_host)
    return screens.view_message(code, viewer)[0]


def started_table(seed: int | None = None) -> tuple[Table, dict[int, str]]:
    """A two-seat short match (Ana hosts, Ben joins), started (its deal from ``seed`` if
    given): the table and seat tokens."""
    table, host = services.create_table(
        rules=Rules(highest_double=6, rounds=2), seat_count=2, host_name="Ana"
    )
    ben = services.join(table.code, name="Ben")
    if seed is not None:
        Table.objects.filter(pk=table.pk).update(deal_secret="", deal_commitment="", seed=seed)
    services.start(table.code, host_token=table.host_token)
    table.refresh_from_db()
    return table, {0: host.token, 1: ben.token}


def intent(action: dict, version: int) -> dict:
    """The message a browser sends for one of its legal actions."""
    message = {"type": action["kind"], "version": version}
    if action["kind"] == "play":
        message.update(tile=action["tile"], train=action["train"], end=action["end"])
    return message


def first_legal_move(table: Table, token: str) -> dict:
    """The message for the first legal action in the seat's view at the table's version."""
    view = screens.screen(table.code, token).data
    return intent(view["game"]["legal"][0], table.version)


def play_to_round_end(table: Table, tokens: dict[int, str]) -> Table:
    """Play each seat's first legal move until the round is over; the table as it then is."""
    while True:
        table.refresh_from_db()
        game = screens.screen(table.code, None).data["game"]
        if game["round_over"]:
            return table
        seat = tokens[game["turn"]]
        services.act(table.code, token=seat, intent=parse(first_legal_move(table, seat)))
