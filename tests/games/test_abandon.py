"""A table nobody plays is closed as abandoned (services.close_abandoned, called with the
clock's ``now``): a live table after a day without a move, one at its own pace after a
month, a lobby after as long without a change. Its rounds stay on its score sheet, which
stays unfinished, so a crew's standings and ratings and the staff's statistics leave it out;
its page and its socket say why it was closed and offer no move."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from crews import live as crew_pages
from crews import services as crews
from crews.page import crew_context
from crews.ratings import ratings, recompute, season_matches
from crews.results import results
from crews.standings import standings
from games import review, screens, selectors, services, sessions
from games.engine import Rules
from games.forms import parse_intent
from games.models import Pace, Table, TableSeat
from scoring.models import Match, Round
from scoring.services import compute_sheet
from tests.crews.played import crew_sheet

from .conftest import Player, make_table
from .tables import first_legal_move, intent, play_to_round_end, started_table

pytestmark = pytest.mark.django_db

DAY, MONTH = timedelta(hours=24), timedelta(days=30)
SECOND = timedelta(seconds=1)
LIMITS = {Pace.LIVE: DAY, Pace.OWN: MONTH}


def at_pace(code: str, pace: str) -> Table:
    """The table set to ``pace`` (at its own pace, with the turn clock it needs)."""
    Table.objects.filter(code=code).update(pace=pace, turn_limit=3600 if pace == Pace.OWN else None)
    return Table.objects.get(code=code)


def idle_since(table: Table) -> datetime:
    """What its idle time runs from: the last move or deal, a lobby's last change."""
    return table.moved_at or table.updated_at


def one_round_played() -> tuple[Table, dict[int, str]]:
    """A two-round match between Ana and Ben, its first round over (on the sheet)."""
    table, tokens = started_table()
    return play_to_round_end(table, tokens), tokens


def second_round_on() -> tuple[Table, dict[int, str]]:
    """The same match with its second round dealt: the first on the sheet, a turn on."""
    table, tokens = one_round_played()
    for token in tokens.values():
        services.ready(table.code, token=token)
    table.refresh_from_db()
    assert table.game().round.number == 2 and table.game().round.result is None
    return table, tokens


def closed(table: Table) -> Table:
    """``table`` closed by the clock a moment after its pace's limit."""
    assert services.close_abandoned(now=idle_since(table) + table.abandoned_after + SECOND) == [
        table.code
    ]
    return Table.objects.get(pk=table.pk)


def test_the_limits_are_a_day_live_and_a_month_at_ones_own_pace():
    table, _ = started_table()
    assert at_pace(table.code, Pace.LIVE).abandoned_after == DAY
    assert at_pace(table.code, Pace.OWN).abandoned_after == MONTH


def test_the_limits_are_settings(settings):
    settings.ABANDON_LIVE_AFTER = 3600
    table, _ = started_table()
    moved = idle_since(table)
    assert services.close_abandoned(now=moved + timedelta(minutes=59)) == []
    assert services.close_abandoned(now=moved + timedelta(minutes=61)) == [table.code]


@pytest.mark.parametrize("pace", [Pace.LIVE, Pace.OWN])
def test_a_table_unplayed_past_its_paces_limit_is_closed_and_not_a_second_sooner(pace):
    started, _ = started_table()
    table = at_pace(started.code, pace)
    moved, limit = idle_since(table), LIMITS[pace]
    assert services.close_abandoned(now=moved + limit - SECOND) == []
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert services.close_abandoned(now=moved + limit + SECOND) == [table.code]
    after = Table.objects.get(pk=table.pk)
    assert after.status == Table.Status.ABANDONED
    assert (after.next_round_at, after.turn_due_at) == (None, None)  # nothing due at it now
    assert services.close_abandoned(now=moved + 2 * limit) == []  # closed once


@pytest.mark.parametrize("pace", [Pace.LIVE, Pace.OWN])
def test_a_lobby_nobody_starts_is_closed_after_as_long(pace):
    opened, _ = services.create_table(rules=Rules(highest_double=6), seat_count=2, host_name="Ana")
    lobby = at_pace(opened.code, pace)
    changed, limit = idle_since(lobby), LIMITS[pace]
    assert services.close_abandoned(now=changed + limit - SECOND) == []
    assert services.close_abandoned(now=changed + limit + SECOND) == [lobby.code]
    assert Table.objects.get(pk=lobby.pk).status == Table.Status.ABANDONED


def test_each_pace_has_its_own_limit():
    live, _ = started_table()
    own = at_pace(started_table()[0].code, Pace.OWN)
    a_day_and_more = max(idle_since(live), idle_since(own)) + DAY + SECOND
    assert services.close_abandoned(now=a_day_and_more) == [live.code]
    assert Table.objects.get(pk=own.pk).status == Table.Status.PLAYING


def test_a_table_moved_recently_is_not_closed():
    table, tokens = started_table()
    long_ago = timezone.now() - 2 * DAY
    Table.objects.filter(pk=table.pk).update(moved_at=long_ago)
    table.refresh_from_db()
    services.act(
        table.code, token=tokens[0], intent=parse_intent(first_legal_move(table, tokens[0]))
    )
    assert services.close_abandoned(now=timezone.now()) == []
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_finished_table_is_untouched():
    table, host = services.create_table(
        rules=Rules(highest_double=6, rounds=1), seat_count=2, host_name="Ana"
    )
    ben = services.join(table.code, name="Ben")
    services.start(table.code, host_token=table.host_token)
    finished = play_to_round_end(Table.objects.get(pk=table.pk), {0: host.token, 1: ben.token})
    assert finished.status == Table.Status.FINISHED
    assert services.close_abandoned(now=timezone.now() + 2 * MONTH) == []
    after = Table.objects.get(pk=table.pk)
    assert (after.status, after.revision) == (Table.Status.FINISHED, finished.revision)


def test_the_rounds_played_stay_on_the_score_sheet_which_stays_unfinished():
    table, _ = one_round_played()
    before = compute_sheet(table.match)
    after = closed(table)
    sheet = compute_sheet(after.match)
    assert Round.objects.filter(match=after.match).count() == 1
    assert list(sheet.totals) == list(before.totals) and any(sheet.totals)
    assert not sheet.finished
    assert Match.objects.get(pk=after.match_id).status == Match.Status.IN_PROGRESS


def test_nothing_more_is_played_at_a_closed_table():
    table, tokens = started_table()
    token = tokens[table.game().round.turn]
    move = parse_intent(first_legal_move(table, token))
    after = closed(table)
    assert after.version == table.version + 1  # a move drawn before the close is stale
    with pytest.raises(services.Refused, match="not being played"):
        services.act(table.code, token=token, intent=replace(move, version=after.version))
    assert Table.objects.get(pk=table.pk).move_count == table.move_count


def test_nobody_gets_ready_for_a_next_round_at_a_closed_table():
    table, tokens = one_round_played()
    after = closed(table)
    for token in tokens.values():
        with pytest.raises(services.Refused, match="not being played"):
            services.ready(table.code, token=token)
    assert Table.objects.get(pk=table.pk).move_count == after.move_count, "no round dealt"


def test_a_bots_turn_read_before_the_close_is_not_played():
    code, _, tokens = make_table(humans=("Ana",), bots=("greedy",))
    TableSeat.objects.filter(table__code=code, position=0).update(channel_name="watching")
    while (turn := selectors.bot_turn(code)) is None:  # Ana plays until the bot is on turn
        table = Table.objects.get(code=code)
        legal = screens.screen(code, tokens["Ana"]).data["game"]["legal"]
        done = next((a for a in legal if a["kind"] == "end_turn"), legal[0])  # not a long line
        services.act(code, token=tokens["Ana"], intent=parse_intent(intent(done, table.version)))
    table = Table.objects.get(code=code)
    closed(table)
    services.make_bot_move(code, turn=turn, action=turn.decide())
    assert Table.objects.get(code=code).move_count == table.move_count


def test_a_closed_lobby_refuses_seats_and_the_start():
    opened, _ = services.create_table(rules=Rules(highest_double=6), seat_count=2, host_name="Ana")
    closed(opened)
    with pytest.raises(services.Refused, match="closed for lack of play"):
        services.join(opened.code, name="Ben")
    with pytest.raises(services.Refused, match="closed for lack of play"):
        services.start(opened.code, host_token=opened.host_token)
    assert Table.objects.get(pk=opened.pk).seats.count() == 1


# -- what players see ----------------------------------------------------------------------


def page_of(code: str, token: str | None = None) -> str:
    client = Client()
    if token:
        session = client.session
        sessions.remember_seat(session, code, token)
        session.save()
    response = client.get(reverse("games:table", args=[code]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(("pace", "said"), [(Pace.LIVE, "24 hours"), (Pace.OWN, "30 days")])
def test_the_page_says_why_and_after_how_long_the_table_was_closed(pace, said):
    table, tokens = second_round_on()
    table = at_pace(table.code, pace)
    closed(table)
    page = page_of(table.code, tokens[table.game().round.turn])  # the seat on turn
    words = f"Nobody played for {said}, so this table was closed before the match was over."
    assert f'id="table-status">{words}</p>' in page  # the status line
    assert f"<p>{words} The rounds played stay on its score sheet" in page  # the card
    assert "This table was closed</h2>" in page and "Total so far" in page
    sheet = page.split('id="table-sheet"')[1].split("</section>")[0]
    totals = compute_sheet(table.match).totals
    assert all(f">{total}<" in sheet for total in totals)  # the rounds played, the totals
    view = json.loads(page.split('id="table-view" type="application/json">')[1].split("<")[0])
    assert view["status"] == "abandoned" and view["game"]["legal"] == []
    assert "data-intent=" not in page and "tile--hand" not in page  # no move, no hand to play
    assert "Ready for round" not in page and "Play again" not in page
    assert "Invite friends" not in page  # nobody is asked to a closed table


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(86400, "24 hours"), (36 * 3600, "36 hours"), (2 * 86400, "2 days"), (5400, "90 minutes")],
)
def test_the_limit_is_said_as_people_say_it(settings, seconds, said):
    settings.ABANDON_LIVE_AFTER = seconds
    table = Table(status=Table.Status.ABANDONED, pace=Pace.LIVE)
    assert screens.closed_words(table, started=True).startswith(f"Nobody played for {said},")


def test_a_closed_lobby_says_nobody_started_it_and_offers_no_seat():
    opened, host = services.create_table(
        rules=Rules(highest_double=6), seat_count=3, host_name="Ana"
    )
    session_client = Client()
    session = session_client.session
    sessions.remember_host(session, opened.code, opened.host_token)
    sessions.remember_seat(session, opened.code, host.token)
    session.save()
    closed(opened)
    for page in (
        session_client.get(reverse("games:table", args=[opened.code])).content.decode(),
        page_of(opened.code),
    ):
        assert "Nobody started the match for 24 hours, so this table was closed." in page
        assert "Start the match" not in page and "Fill the next free seat" not in page
        assert 'action="' + reverse("games:join", args=[opened.code]) not in page


@pytest.mark.django_db(transaction=True)
async def test_a_socket_is_told_of_the_close_and_one_connecting_later_is_served_it():
    """At its own pace, which the announcement carries, the view says so from it too."""
    table, tokens = await database_sync_to_async(second_round_on)()
    table = await database_sync_to_async(at_pace)(table.code, Pace.OWN)
    turn = (await database_sync_to_async(table.game)()).round.turn
    on_turn = Player(table.code, tokens[turn])
    assert (await on_turn.connect())["game"]["legal"]
    await database_sync_to_async(closed)(table)
    told = await on_turn.next_view()
    later = Player(table.code, tokens[1 - turn])
    served = await later.connect()
    for view in (told, served):
        assert view["status"] == "abandoned" and view["game"]["legal"] == []
        assert "Nobody played for 30 days, so this table was closed" in view["html"]
        assert 'data-intent="ready"' not in view["html"]
    await on_turn.close()
    await later.close()


def test_the_admin_lists_abandoned_tables_apart(admin_client):
    gone = closed(started_table()[0])
    playing, _ = started_table()
    listing = admin_client.get(
        reverse("admin:games_table_changelist") + "?status__exact=abandoned"
    ).content.decode()
    assert gone.code in listing and playing.code not in listing
    assert re.search(r"<a[^>]*>Abandoned</a>", listing)  # the filter offers it
    matches = admin_client.get(
        reverse("admin:scoring_match_changelist") + "?played=abandoned"
    ).content.decode()
    assert matches.count("Online table, abandoned unfinished") == 1  # its match, apart
    assert f"/admin/scoring/match/{gone.match_id}/" in matches
    assert f"/admin/scoring/match/{playing.match_id}/" not in matches


# -- crews and statistics count it unfinished ------------------------------------------------


def crew_table(crew) -> tuple[Table, dict[int, str]]:
    """A crew's two-round table between its members Ana and Ben, its first round played."""
    table, host = services.create_table(
        rules=Rules(highest_double=6, rounds=2), seat_count=2, host_name="Ana", crew=crew
    )
    ben = services.join(table.code, name="Ben")
    services.start(table.code, host_token=table.host_token)
    tokens = {0: host.token, 1: ben.token}
    return play_to_round_end(Table.objects.get(pk=table.pk), tokens), tokens


def test_a_crews_standings_and_ratings_leave_an_abandoned_table_out(
    django_capture_on_commit_callbacks,
):
    crew, _ = crews.create_crew("Friday dominoes", "Ana", "device-ana")
    crews.join(crew, "Ben", "device-ben")
    crew_sheet(crew, ["Ana", "Ben"], [[None, 10], [5, None]])  # finished: Ana 5, Ben 10
    table, _ = crew_table(crew)
    layer = get_channel_layer()
    crew_page = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(crew_pages.group_name(crew.code), crew_page)
    with django_capture_on_commit_callbacks(execute=True):
        closed(table)
    told = async_to_sync(asyncio.wait_for)(layer.receive(crew_page), timeout=2)
    assert told == {"type": "crew.changed"}  # its pages redraw
    season = crew.current_season()
    recompute(season)
    found = results(season_matches(season))
    assert [r.finished for r in found] == [True, False]
    assert {line.name: line.matches for line in standings(found)} == {"Ana": 1, "Ben": 1}
    assert {matches for _, _, matches in ratings(found).values()} == {1}
    assert set(season.ratings.values_list("matches", flat=True)) == {1}
    ben = crew.members.get(player__name="Ben")
    pushed = render_to_string("crews/partials/live.html", crew_context(crew, season, ben))
    assert "<em>abandoned unfinished</em>" in pushed and "<em>playing</em>" not in pushed


def test_the_statistics_leave_an_abandoned_table_out():
    table, _ = one_round_played()
    closed(table)
    assert not review.reviewed_matches().filter(pk=table.match_id).exists()
    people, bots = review.statistics(review.reviewed_matches())
    assert (people, bots) == ([], [])
