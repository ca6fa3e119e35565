"""The turn clock, on a fake clock: a turn's deadline is a column of the table's row, and
whoever claims a due turn plays it once (games.services.clock)."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.engine import Rules, legal_actions, new_game
from games.forms import Intent
from games.models import Move, Pace, Table, TableSeat
from games.services import clock

from .tables import view_message

pytestmark = pytest.mark.django_db

HOUR = 3600


RULES = Rules(highest_double=6, rounds=2)


def a_table(*, pace: str = Pace.OWN, turn_limit: int | None = HOUR, seed: int | None = 1) -> Table:
    """Ana (host, first to play) and Ben, started, with the given clock and deal (seed 1:
    a deal where no first turn ends the round)."""
    table, _ = services.create_table(
        rules=RULES,
        seat_count=2,
        host_name="Ana",
        pace=pace,
        turn_limit=turn_limit,
    )
    services.join(table.code, name="Ben")
    if seed is not None:
        Table.objects.filter(pk=table.pk).update(deal_secret="", deal_commitment="", seed=seed)
    services.start(table.code, host_token=table.host_token)
    table.refresh_from_db()
    return table


def seat(table: Table, position: int) -> TableSeat:
    return TableSeat.objects.get(table=table, position=position)


def later(table: Table, seconds: float = 1) -> timezone.datetime:
    """A moment ``seconds`` past the table's turn deadline."""
    table.refresh_from_db()
    return table.turn_due_at + timedelta(seconds=seconds)


def test_a_persons_turn_is_due_at_the_end_of_the_clock_and_not_before():
    before = timezone.now()
    table = a_table()
    assert table.turn_due_at is not None
    assert (
        before + timedelta(seconds=HOUR)
        <= table.turn_due_at
        <= timezone.now() + timedelta(seconds=HOUR)
    )
    assert clock.claim(table.code, now=table.turn_due_at - timedelta(seconds=1)) is None
    table.refresh_from_db()
    assert table.version == 1, "nothing was played before the deadline"


def test_no_clock_no_deadline():
    table = a_table(pace=Pace.LIVE, turn_limit=None)
    assert table.turn_due_at is None
    assert clock.claim(table.code, now=timezone.now() + timedelta(days=30)) is None


def test_a_timed_out_turn_is_played_once_by_the_bot_and_the_seat_stays_the_persons():
    table = a_table()
    version = table.version
    claimed = clock.claim(table.code, now=later(table))
    assert claimed is not None and claimed.done is not None and claimed.turn is None
    table.refresh_from_db()
    assert table.version == version + 1
    lines = [m.record for m in Move.objects.filter(table=table, version=table.version)]
    actions = [line for line in lines if line["type"] == "action"]
    assert actions and all(a["seat"] == 0 and a["by"] == "clock" for a in actions)
    ana = seat(table, 0)
    assert (ana.timeouts, ana.stand_in) == (1, ""), "one timed-out turn: the seat is Ana's"
    # The turn passed to Ben, whose own clock starts now; the same deadline is not played twice.
    assert table.game().round.turn == 1 and table.turn_due_at > timezone.now()
    assert clock.claim(table.code, now=timezone.now() + timedelta(seconds=60)) is None


def test_two_timed_out_turns_in_a_row_leave_the_bot_until_the_person_is_back():
    table = a_table()
    clock.claim(table.code, now=later(table))  # Ana's first turn
    clock.claim(table.code, now=later(table))  # Ben's
    assert seat(table, 0).timeouts == 1 and seat(table, 1).timeouts == 1
    clock.claim(table.code, now=later(table))  # Ana's second in a row
    ana = seat(table, 0)
    assert (ana.timeouts, ana.stand_in) == (2, "strategic")
    services.connect(table.code, token=ana.token, host_token="", channel="ana-back")
    ana.refresh_from_db()
    assert (ana.timeouts, ana.stand_in) == (0, ""), "back: the seat is hers again"


def play_own_turn(table: Table, position: int) -> None:
    """The person at ``position`` plays their whole turn themselves (first legal actions)."""
    token = seat(table, position).token
    table.refresh_from_db()
    while table.game().round.turn == position and table.game().round.result is None:
        action = legal_actions(table.game(), position)[0]
        plays = ((action.tile, action.train, action.end),) if action.kind == "play" else ()
        services.act(table.code, token=token, intent=Intent(action.kind, table.version, plays))
        table.refresh_from_db()


def test_a_turn_played_by_the_person_starts_the_count_again():
    table = a_table()
    clock.claim(table.code, now=later(table))  # Ana's time ran out
    assert seat(table, 0).timeouts == 1
    play_own_turn(table, 1)  # Ben plays
    play_own_turn(table, 0)  # and Ana, herself
    assert seat(table, 0).timeouts == 0


def test_a_draw_keeps_the_persons_deadline():
    """A turn is one deadline: a draw that leaves the person on turn does not restart it."""
    seed = next(
        s
        for s in range(200)
        if [a.kind for a in legal_actions(new_game(RULES, 2, seed=s), 0)] == ["draw"]
    )
    table = a_table(seed=seed)
    deadline = table.turn_due_at
    services.act(table.code, token=seat(table, 0).token, intent=Intent("draw", table.version, ()))
    table.refresh_from_db()
    assert table.version == 2
    if table.game().round.turn == 0:  # the drawn tile plays: the same turn, the same clock
        assert table.turn_due_at == deadline
    else:  # it did not: Ben's turn, with a deadline of his own
        assert table.turn_due_at > deadline


def test_a_live_table_with_nobody_at_it_holds_its_clock():
    table = a_table(pace=Pace.LIVE, turn_limit=30)
    assert clock.claim(table.code, now=later(table)) is None, "nobody here: the clock waits"
    assert table.code not in selectors.due_tables(now=later(table))
    TableSeat.objects.filter(table=table, position=1).update(channel_name="ben-here")
    assert table.code in selectors.due_tables(now=later(table))
    assert clock.claim(table.code, now=later(table)).done is not None


def test_an_own_pace_table_deals_the_next_round_at_the_deadline():
    table = a_table()
    while table.game().round.result is None:  # nobody plays: the clock and the bots do
        claimed = clock.claim(table.code, now=later(table))
        if claimed.turn is not None:  # two timeouts in a row: a bot stands in
            services.make_bot_move(table.code, turn=claimed.turn, action=claimed.turn.decide())
        table.refresh_from_db()
    assert table.turn_due_at is None
    assert table.next_round_at >= timezone.now() + timedelta(seconds=HOUR - 60)
    assert clock.claim(table.code, now=table.next_round_at - timedelta(seconds=1)) is None
    assert clock.claim(table.code, now=table.next_round_at + timedelta(seconds=1)) is not None
    table.refresh_from_db()
    assert table.game().round.number == 2 and table.game().round.result is None


def test_a_bots_turn_is_due_at_once_and_claimed_by_one_waker_for_a_while():
    table = a_table(pace=Pace.LIVE, turn_limit=None)
    services.hand_to_bot(table.code, host_token=table.host_token, position=0)
    table.refresh_from_db()
    assert table.turn_due_at is not None and table.turn_due_at <= timezone.now()
    TableSeat.objects.filter(table=table, position=1).update(channel_name="ben-here")
    claimed = clock.claim(table.code)
    assert claimed.turn is not None and claimed.turn.level == "greedy"
    assert clock.claim(table.code) is None, "leased to the first waker"
    outcome = services.make_bot_move(table.code, turn=claimed.turn, action=claimed.turn.decide())
    assert outcome.version == table.version + 1


def test_every_screen_shows_whose_turn_it_is_and_the_time_left_from_the_deadline():
    table = a_table()
    for token in (seat(table, 0).token, seat(table, 1).token, None):  # both seats, a watcher
        message = json.loads(view_message(table.code, token))
        top = re.search(r'<header id="table-top".*?</header>', message["html"], re.S).group(0)
        assert "At your own pace: 1 hour a turn" in top
        clock = re.search(r'<p class="table-top__clock" role="timer">(.*?)</p>', top).group(1)
        assert clock.startswith("Ana: ") and f'data-due="{table.turn_due_at.isoformat()}"' in clock
        assert re.search(r">(59 minutes \d+ seconds|1 hour) left<", clock), clock


def test_a_bot_on_turn_shows_no_clock_and_the_lobby_says_the_pace():
    lobby, _ = services.create_table(
        rules=RULES, seat_count=2, host_name="Ana", pace=Pace.LIVE, turn_limit=30
    )
    page = json.loads(view_message(lobby.code, None))["html"]
    assert "Live: 30 seconds a turn" in page
    table = a_table(pace=Pace.LIVE, turn_limit=30)
    services.hand_to_bot(table.code, host_token=table.host_token, position=0)
    assert 'role="timer"' not in json.loads(view_message(table.code, None))["html"]


def test_everyone_is_told_in_words_that_the_time_ran_out_and_the_bot_played():
    table = a_table()
    clock.claim(table.code, now=later(table))
    moves = json.loads(view_message(table.code, seat(table, 1).token))["game"]["last_moves"]
    said = next(m["text"] for m in moves if m["seat"] == 0)
    assert said.startswith("Ana's time ran out, so the bot played for Ana: Ana "), said
    clock.claim(table.code, now=later(table))  # Ben's
    clock.claim(table.code, now=later(table))  # Ana's again: a bot stays
    moves = json.loads(view_message(table.code, None))["game"]["last_moves"]
    said = next(m["text"] for m in moves if m["seat"] == 0)
    assert said.startswith("Ana's time ran out twice in a row, so a bot plays until Ana is back")
