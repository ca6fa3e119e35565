""" "Your tables" (/tables/): every table this browser holds a seat at, newest first, each
with its pace, whose turn, the time left, the round and the totals; the finished ones apart
with their results; and the tables of the person a crew knows this device as, taken on
another device, which lead to the table's page (where the seat is asked back), never
hand the seat over."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from crews import services as crews
from games import selectors, services
from games.engine import Rules
from games.forms import parse_intent
from games.models import Table
from games.templatetags.tables import time_left
from tests.crews.played import crew_of
from tests.games.conftest import make_table
from tests.games.tables import first_legal_move, play_to_round_end

pytestmark = pytest.mark.django_db


def sitting(client: Client, seats: dict[str, str]) -> Client:
    """The browser of ``client`` holding each seat token (code -> token), as a rejoin
    link leaves it."""
    for code, token in seats.items():
        assert client.get(f"/t/{code}/rejoin/{token}/").status_code == 302
    return client


def take_turn(code: str, token: str) -> None:
    """The seat of ``token`` makes its first legal moves until the turn passes on (a
    first turn's line, or a double laid, takes more than one)."""
    seat = Table.objects.get(code=code).seats.get(token=token).position
    while (table := Table.objects.get(code=code)).game().round.turn == seat:
        services.act(code, token=token, intent=parse_intent(first_legal_move(table, token)))


def test_the_tables_are_listed_newest_first_with_their_turn_round_pace_and_clock():
    older, _, older_seats = make_table(bots=())
    newer, _, newer_seats = make_table(humans=("Cy", "Ana"), bots=("greedy",))
    due = timezone.now() + timedelta(hours=2, minutes=5, seconds=30)
    Table.objects.filter(code=newer).update(pace="own", turn_limit=8 * 3600, turn_due_at=due)
    lobby, _, lobby_seats = make_table(humans=("Ana", "Dee"), start=False)
    tokens = {older: older_seats["Ana"], newer: newer_seats["Ana"], lobby: lobby_seats["Ana"]}

    rows = selectors.your_tables(tokens)
    assert [row.table.code for row in rows] == [lobby, newer, older]
    waiting, at_own_pace, live = rows
    assert waiting.turn.startswith("Waiting for players") and waiting.round_number is None
    assert (live.turn, live.round_number, live.rounds, live.due_at) == ("Your turn.", 1, 2, None)
    assert at_own_pace.turn == "Cy to play." and at_own_pace.due_at == due
    assert at_own_pace.table.get_pace_display() == "At your own pace"
    assert live.table.get_pace_display() == "Live"

    take_turn(older, older_seats["Ana"])  # the turn moves on: the row follows
    assert selectors.your_table(older, token=older_seats["Ana"]).turn == "Ben to play."

    page = sitting(Client(), tokens).get("/tables/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index(f'id="your-table-{newer}"') < text.index(f'id="your-table-{older}"')
    assert "At your own pace" in text and "Cy to play." in text and "Ben to play." in text
    assert f'data-due="{due.isoformat()}"' in text and "2 hours 5 minutes left" in text
    assert "Round 1 of 2" in text and "Finished" not in text
    assert 'ws-connect="/ws/tables/"' in text and "/static/games/time_left.js" in text


def test_a_bots_turn_shows_no_time_left():
    code, _, seats = make_table(humans=("Ana",), bots=("greedy",))
    due = timezone.now() + timedelta(hours=1)
    Table.objects.filter(code=code).update(pace="own", turn_limit=3600, turn_due_at=due)
    assert selectors.your_table(code, token=seats["Ana"]).due_at == due
    take_turn(code, seats["Ana"])  # nobody is connected: the bot on turn waits
    row = selectors.your_table(code, token=seats["Ana"])
    assert row.turn == "Greedy bot 1 to play." and row.due_at is None


def test_a_finished_match_is_listed_apart_with_its_totals_and_winner():
    code, _, seats = make_table(bots=(), rules=Rules(highest_double=6, rounds=1))
    table = play_to_round_end(Table.objects.get(code=code), dict(enumerate(seats.values())))
    assert table.status == Table.Status.FINISHED
    game = table.game()
    (row,) = selectors.your_tables({code: seats["Ben"]})
    assert row.finished and row.totals == list(zip(["Ana", "Ben"], game.totals(), strict=True))
    assert row.winners == [["Ana", "Ben"][s] for s in game.winners()]

    text = sitting(Client(), {code: seats["Ben"]}).get("/tables/").content.decode()
    finished = text[text.index("Finished</h2>") :]
    assert f"Won by {' and '.join(row.winners)}." in finished
    assert "Final totals: " + ", ".join(f"{n} {t}" for n, t in row.totals) in finished
    assert f'href="/t/{code}/match/1/">The match, move by move' in finished
    assert "No table of yours is under way." in text


def test_totals_show_once_a_round_is_scored():
    code, _, seats = make_table(bots=())
    (row,) = selectors.your_tables({code: seats["Ana"]})
    assert row.totals == []
    play_to_round_end(Table.objects.get(code=code), dict(enumerate(seats.values())))
    (row,) = selectors.your_tables({code: seats["Ana"]})
    assert [name for name, _ in row.totals] == ["Ana", "Ben"]
    assert row.turn == "Round 1 is over: press Ready for the next."
    services.ready(code, token=seats["Ana"])
    (row,) = selectors.your_tables({code: seats["Ana"]})
    assert row.turn == "Round 1 is over: waiting for the others to be ready."


def test_a_seat_freed_by_the_host_leaves_the_list():
    code, host, seats = make_table(start=False, bots=())
    services.remove_seat(code, host_token=host, position=1)
    assert selectors.your_tables({code: seats["Ben"]}) == []


def test_a_crews_person_sees_the_tables_of_their_seat_on_another_device_and_only_a_link():
    crew, members = crew_of("Ana", "Ben")
    table, host = services.create_table(
        rules=Rules(rounds=1), seat_count=2, host_name="Ana", crew=crew
    )
    ben_seat = services.join(table.code, name="Ben")
    services.start(table.code, host_token=table.host_token)
    stranger, _, _ = make_table(humans=("Ana", "Zed"), bots=())  # another Ana, not the crew's

    ben = Client()  # Ben's second device, which the crew knows as Ben, holds no seat token
    session = ben.session
    session["device"] = members["Ben"].device
    session.save()
    (row,) = selectors.your_tables({}, device=members["Ben"].device)
    assert (row.table.code, row.seat.name, row.elsewhere) == (table.code, "Ben", True)
    again = selectors.your_table(table.code, token=None, device=members["Ben"].device)
    assert (again.seat.name, again.elsewhere) == ("Ben", True)  # the socket's row, alike
    assert selectors.your_tables({}, device="a device nobody knows") == []
    assert [r.table.code for r in selectors.your_tables({}, device=members["Ana"].device)] == [
        table.code
    ]

    text = ben.get("/tables/").content.decode()
    assert f'href="/t/{table.code}/"' in text and "You took this seat on another device." in text
    assert ben_seat.token not in text and "/rejoin/" not in text  # the seat is not handed over
    assert stranger not in text
    assert ben.session.get("table_seats", {}) == {}
    # The device holding the seat lists it as its own, once.
    (own,) = selectors.your_tables({table.code: ben_seat.token}, device=members["Ben"].device)
    assert not own.elsewhere
    crews.leave(crew, members["Ben"].device)  # a member who left is nobody there now
    assert selectors.your_tables({}, device=members["Ben"].device) == []


def test_a_browser_without_tables_is_told_so_and_the_home_page_links_the_list():
    text = Client().get("/tables/").content.decode()
    assert "No table of yours is under way." in text
    code, _, seats = make_table(bots=())
    home = sitting(Client(), {code: seats["Ana"]}).get("/").content.decode()
    assert 'href="/tables/"' in home and "Your turn." in home
    table_page = Client().get(f"/t/{code}/").content.decode()
    assert 'href="/tables/"' in table_page


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (3 * 86400 + 5, "3 days left"),
        (86400 + 3600 * 2 + 59, "1 day 2 hours left"),
        (3600 + 30, "1 hour left"),
        (125, "2 minutes 5 seconds left"),
        (1, "1 second left"),
        (-5, "Time is up"),
    ],
)
def test_the_time_left_is_said_in_the_two_largest_units(seconds, said):
    assert time_left(timezone.now() + timedelta(seconds=seconds, milliseconds=500)) == said
    assert time_left(None) == ""
