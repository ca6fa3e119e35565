"""A crew's stored ratings are always what its season's match list gives from scratch: the
score sheet's signal makes the crew work them out again after every committed change, so
an edit to a finished match, a match becoming unfinished again, or a new season leaves no
trace of an older calculation. People only: bots are never rated, and a match with one
person in it moves nobody."""

import contextlib
import threading
import time
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from crews import services as crews
from crews.models import Rating
from crews.ratings import MODEL, ratings, recompute, season_matches
from crews.results import results
from games.engine.rules import Rules
from scoring import services
from scoring.entries import EntryValue
from scoring.models import Entry, Match

pytestmark = pytest.mark.django_db

RULES = Rules(rounds=2)


@pytest.fixture
def crew():
    crew, _ = crews.create_crew("Friday dominoes", "Ana", "device-ana")
    for name in ("Ben", "Cy", "Dee"):
        crews.join(crew, name, f"device-{name.lower()}")
    return crew


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what waits for the commit (the score sheet's signal, the crew's recompute) at
    the end of each block, as a real request's commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def enter(match, number, seat, pips, *, base_version=0):
    """A cell typed on the sheet: pips held, or None for going out."""
    value = EntryValue.out() if pips is None else EntryValue.count(pips)
    outcome = services.record_entry(
        match, number, seat, value, base_version=base_version, client_id=uuid.uuid4(), by="Ana"
    )
    assert outcome.status == services.APPLIED
    return outcome


def play(crew, committed, names, rounds, *, rules=RULES):
    """A sheet opened for the crew and played to its end, round by round."""
    with committed():
        match = crews.open_sheet(crew, names, rules, by=names[0])
    with committed():
        for number, row in enumerate(rounds, start=1):
            for seat, pips in enumerate(row):
                enter(match, number, seat, pips)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def stored(season):
    return {r.player_id: (r.mu, r.sigma, r.matches) for r in Rating.objects.filter(season=season)}


def from_scratch(season):
    return ratings(results(season_matches(season)))


def person(crew, name):
    return crew.members.get(player__name=name).player_id


def test_stored_ratings_are_the_match_lists_from_scratch(crew, committed):
    play(crew, committed, ["Ana", "Ben", "Cy"], [[None, 10, 20], [5, None, 12]])  # Ana 5
    play(crew, committed, ["Ben", "Dee"], [[None, 8], [3, None]])  # Ben 3, Dee 8
    play(crew, committed, ["Cy", "Dee", "Ana"], [[4, None, 9], [None, 7, 2]])  # Cy 4
    season = crew.current_season()
    worked_out = from_scratch(season)
    assert stored(season) == worked_out
    assert set(worked_out) == {person(crew, n) for n in ("Ana", "Ben", "Cy", "Dee")}
    assert {n: worked_out[person(crew, n)][2] for n in ("Ana", "Ben", "Cy", "Dee")} == {
        "Ana": 2,
        "Ben": 2,
        "Cy": 2,
        "Dee": 2,
    }
    recompute(season)
    assert stored(season) == worked_out
    # the same match list read in another order gives the same ratings: they are taken
    # in the order the matches were started
    assert ratings(results(reversed(season_matches(season)))) == worked_out


def test_the_winner_goes_up_and_the_last_goes_down(crew, committed):
    play(crew, committed, ["Ana", "Ben", "Cy"], [[None, 10, 20], [5, None, 12]])
    rated = stored(crew.current_season())
    start = MODEL.rating().mu
    ana, ben, cy = (rated[person(crew, n)][0] for n in ("Ana", "Ben", "Cy"))
    assert ana > start > cy
    assert ana > ben > cy


def test_a_tie_shares_a_place(crew, committed):
    play(crew, committed, ["Ana", "Ben"], [[None, 6], [6, None]])  # 6 each: a shared win
    rated = stored(crew.current_season())
    ana, ben = rated[person(crew, "Ana")], rated[person(crew, "Ben")]
    assert ana == ben
    assert ana[0] == pytest.approx(MODEL.rating().mu)
    assert ana[1] < MODEL.rating().sigma  # a level match still tells something


def test_a_tie_broken_by_rounds_out_is_a_win(crew, committed):
    rules = Rules(rounds=3, tie_break="rounds_out")
    # 8 each, Ana out twice and Ben once: Ana wins the tie.
    play(crew, committed, ["Ana", "Ben"], [[None, 4], [None, 4], [8, None]], rules=rules)
    rated = stored(crew.current_season())
    assert rated[person(crew, "Ana")][0] > rated[person(crew, "Ben")][0]
    assert stored(crew.current_season()) == from_scratch(crew.current_season())


def test_bots_get_no_rating_and_a_match_with_one_person_moves_nobody(crew, committed):
    play(crew, committed, ["Ana", "Ben"], [[None, 6], [2, None]])
    season = crew.current_season()
    before = stored(season)
    with committed():
        # as an online table opened for the crew seats a bot (games.services.start)
        match = services.create_match(
            ["Ana", "Greedy bot 1"],
            RULES,
            by="Ana",
            kind=Match.Kind.ONLINE,
            known=crews.people_of(crew),
            bots=["", "greedy"],
        )
        crews.count_for(crew, match, by="Ana")
    with committed():
        services.record_round(match, 1, {0: [(3, 4)], 1: None}, by="the table")
        services.record_round(match, 2, {0: None, 1: [(5, 6)]}, by="the table")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    bot = match.seats.get(position=1).player_id
    assert bot not in stored(season)
    assert stored(season) == before  # Ana alone with a bot: nobody moved
    assert stored(season) == from_scratch(season)


def test_bots_are_left_out_of_a_match_between_people(crew, committed):
    with committed():
        match = services.create_match(
            ["Ana", "Ben", "Strategic bot 1"],
            RULES,
            by="Ana",
            kind=Match.Kind.ONLINE,
            known=crews.people_of(crew),
            bots=["", "", "strategic"],
        )
        crews.count_for(crew, match, by="Ana")
    with committed():
        services.record_round(match, 1, {0: [(3, 4)], 1: [(2, 2)], 2: None}, by="the table")
        services.record_round(match, 2, {0: None, 1: [(5, 6)], 2: [(0, 1)]}, by="the table")
    season = crew.current_season()
    rated = stored(season)
    assert set(rated) == {person(crew, "Ana"), person(crew, "Ben")}
    # the bot won; between the people Ana (7) finished ahead of Ben (4 + 11)
    assert rated[person(crew, "Ana")][0] > rated[person(crew, "Ben")][0]
    assert rated == from_scratch(season)


def test_editing_a_finished_match_changes_the_stored_ratings(crew, committed):
    match = play(crew, committed, ["Ana", "Ben"], [[None, 6], [2, None]])  # Ana 2, Ben 6
    play(crew, committed, ["Ben", "Cy"], [[None, 9], [1, None]])
    season = crew.current_season()
    before = stored(season)
    assert before[person(crew, "Ana")][0] > before[person(crew, "Ben")][0]
    with committed():
        enter(match, 2, 0, 20, base_version=1)  # Ana held 20, not 2: Ben wins the first
    after = stored(season)
    assert after != before
    assert after[person(crew, "Ana")][0] < after[person(crew, "Ben")][0]
    assert after == from_scratch(season)


def test_a_finished_match_made_unfinished_again_stops_counting(crew, committed):
    match = play(crew, committed, ["Ana", "Ben"], [[None, 6], [2, None]])
    play(crew, committed, ["Cy", "Dee"], [[None, 9], [1, None]])
    season = crew.current_season()
    with committed():
        services.record_entry(
            match, 2, 1, EntryValue(), base_version=1, client_id=uuid.uuid4(), by="Ben"
        )  # a cell cleared: the match is being played again
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    rated = stored(season)
    assert set(rated) == {person(crew, "Cy"), person(crew, "Dee")}
    assert rated == from_scratch(season)


def test_an_unfinished_match_moves_nobody(crew, committed):
    with committed():
        match = crews.open_sheet(crew, ["Ana", "Ben"], RULES, by="Ana")
    with committed():
        enter(match, 1, 0, None)
        enter(match, 1, 1, 12)
    assert stored(crew.current_season()) == {}
    assert Entry.objects.filter(round__match=match).count() == 2


def test_a_new_season_starts_from_scratch(crew, committed):
    play(crew, committed, ["Ana", "Ben"], [[None, 6], [2, None]])
    first = crew.current_season()
    before = stored(first)
    second = crews.new_season(crew, "Spring")
    play(crew, committed, ["Ana", "Ben"], [[6, None], [None, 2]])  # Ben wins this time
    assert stored(first) == before
    rated = stored(second)
    assert rated[person(crew, "Ben")][0] > rated[person(crew, "Ana")][0]
    assert {n for _, _, n in rated.values()} == {1}
    assert rated == from_scratch(second)


def on_night(match, days_ago):
    """The match as started ``days_ago`` days before today: its game night."""
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(days_ago))


def test_the_ratings_before_the_latest_night_are_stored_beside_them(crew, committed):
    """The page says how the latest game night moved each place: what the ratings were
    before it is stored with them, and is the season replayed up to that night."""
    first = play(crew, committed, ["Ana", "Ben"], [[None, 6], [2, None]])
    on_night(first, 7)
    play(crew, committed, ["Ben", "Cy"], [[None, 6], [2, None]])  # today: Cy's first
    season = crew.current_season()
    before = {p: (mu, sigma) for p, (mu, sigma, _) in ratings(results([first])).items()}
    kept = {
        r.player_id: (r.mu_before, r.sigma_before) for r in Rating.objects.filter(season=season)
    }
    assert kept == {**before, person(crew, "Cy"): (None, None)}
    assert stored(season) == from_scratch(season)


def test_on_the_first_night_nobody_was_rated_before(crew, committed):
    play(crew, committed, ["Ana", "Ben"], [[None, 6], [2, None]])
    assert {r.ordinal_before for r in Rating.objects.all()} == {None}


# -- two recomputes at once ----------------------------------------------------------------


def in_thread(work, errors: list) -> threading.Thread:
    def run():
        try:
            work()
        except Exception as error:  # noqa: BLE001 - the test reports what the thread got
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True)
def test_two_recomputes_of_a_season_at_once_both_succeed(crew):
    """Two matches of a season committed at once each recompute its ratings after their
    commit: the second waits for the first (the season's row lock) instead of writing a
    second set of rows beside the first. Row locks are PostgreSQL's: SQLite has one writer
    at a time anyway."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: runs on PostgreSQL (DATABASE_URL)")
    play(crew, contextlib.nullcontext, ["Ana", "Ben"], [[None, 6], [2, None]])
    season = crew.current_season()
    first_done = threading.Event()

    def slow():
        with transaction.atomic():
            recompute(season)
            first_done.set()
            time.sleep(0.5)  # still holding what it wrote when the second one starts

    errors: list = []
    first = in_thread(slow, errors)
    assert first_done.wait(timeout=10)
    second = in_thread(lambda: recompute(season), errors)
    for thread in (first, second):
        thread.join(timeout=30)
    assert errors == []
    assert stored(season) == from_scratch(season)
