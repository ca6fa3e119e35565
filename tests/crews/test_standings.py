"""Standings, the bots' lines, head-to-head and game nights, on hand-made results: the
figures a crew page shows are worked out from these values alone, so each is checked here
against sums done by hand."""

import datetime

import pytest

from crews.results import Placing, Result
from crews.standings import (
    MatchTotal,
    Meeting,
    bot_standings,
    game_nights,
    head_to_head,
    standings,
)

ANA, BEN, CARA, DEE, FINN = 1, 2, 3, 4, 5
MAR_1, MAR_8 = datetime.date(2024, 3, 1), datetime.date(2024, 3, 8)
MAR_15 = datetime.date(2024, 3, 15)


def seat(person, name, rounds, *, won=0.0, outs=0, bot=""):
    return Placing(
        person=person,
        name=name,
        bot=bot,
        total=sum(rounds),
        rounds=tuple(rounds),
        outs=outs,
        won=won,
    )


def match(number, night, *placings, finished=True, hour=20):
    started = datetime.datetime.combine(night, datetime.time(hour), tzinfo=datetime.UTC)
    return Result(
        match=number,
        code=f"code{number}",
        kind="sheet",
        night=night,
        started_at=started + datetime.timedelta(minutes=number),
        finished=finished,
        placings=placings,
    )


# Match 1: Ana wins alone, a greedy bot between the people.
# Match 2: Ana and Ben level on 10 share the win; Cara last.
# Match 3: Ben wins; Dee plays this match only; a random bot last.
# Match 4: unfinished: it counts for nobody (Finn played only there).
# Match 5: Ana and Cara level on 10, the tie broken for Ana (rounds out).
RESULTS = [
    match(
        1,
        MAR_1,
        seat(ANA, "Ana", (5, 0), won=1.0, outs=1),
        seat(BEN, "Ben", (10, 3)),
        seat(99, "Greedy bot 1", (2, 7), bot="greedy", outs=0),
    ),
    match(
        2,
        MAR_1,
        seat(ANA, "Ana", (4, 6), won=0.5),
        seat(BEN, "Ben", (7, 3), won=0.5),
        seat(CARA, "Cara", (20, 1)),
    ),
    match(
        3,
        MAR_8,
        seat(ANA, "Ana", (8, 8)),
        seat(BEN, "Ben", (0, 4), won=1.0, outs=1),
        seat(DEE, "Dee", (9, 9)),
        seat(98, "Random bot 1", (1, 30), bot="random", outs=1),
    ),
    match(
        4,
        MAR_8,
        seat(ANA, "Ana", (0,), outs=1),
        seat(BEN, "Ben", (50,)),
        seat(FINN, "Finn", (3,)),
        finished=False,
    ),
    match(
        5,
        MAR_8,
        seat(ANA, "Ana", (0, 10), won=1.0, outs=1),
        seat(CARA, "Cara", (5, 5)),
    ),
]


def by_person(lines):
    return {line.person: line for line in lines}


def test_people_are_ranked_by_wins_then_the_lower_average():
    table = standings(RESULTS)
    # Ana 2.5 wins, Ben 1.5; Cara and Dee none, Cara's 31 points in 4 rounds (7.75) being
    # better than Dee's 18 in 2 (9).
    assert [s.name for s in table] == ["Ana", "Ben", "Cara", "Dee"]
    assert all(s.bot == "" for s in table)


def test_a_persons_figures_sum_their_finished_matches():
    ana = by_person(standings(RESULTS))[ANA]
    assert (ana.matches, ana.wins, ana.rounds, ana.points, ana.outs) == (4, 2.5, 8, 41, 2)
    assert ana.points_a_round == 41 / 8
    assert ana.best == MatchTotal(1, "code1", 5)
    assert ana.worst == MatchTotal(3, "code3", 16)


def test_a_shared_win_counts_its_share():
    ben = by_person(standings(RESULTS))[BEN]
    assert (ben.matches, ben.wins, ben.points, ben.outs) == (3, 1.5, 27, 1)
    assert ben.points_a_round == 4.5
    assert ben.best == MatchTotal(3, "code3", 4)
    assert ben.worst == MatchTotal(1, "code1", 13)


def test_a_person_in_one_match_only_has_that_match_as_best_and_worst():
    dee = by_person(standings(RESULTS))[DEE]
    assert (dee.matches, dee.wins, dee.rounds, dee.points, dee.outs) == (1, 0, 2, 18, 0)
    assert dee.best == dee.worst == MatchTotal(3, "code3", 18)


def test_an_unfinished_match_counts_for_nobody():
    assert FINN not in by_person(standings(RESULTS))
    assert by_person(standings(RESULTS[:3]))[ANA] == by_person(standings(RESULTS[:4]))[ANA]


def test_nobody_finished_nothing_to_show():
    assert standings([]) == []
    assert standings([RESULTS[3]]) == []
    assert bot_standings([RESULTS[3]]) == []


def test_shares_of_a_win_add_up_exactly():
    """Six people level six times have one win each: exactly, not 0.9999999999999999, so
    they rank level with somebody who won once (and then by average, then by name)."""
    six = [(10 + n, f"P{n}") for n in range(6)]
    ties = [
        match(number, MAR_1, *(seat(p, name, (3,), won=1 / 6) for p, name in six))
        for number in range(1, 7)
    ]
    once = match(7, MAR_8, seat(20, "Zed", (3,), won=1.0), seat(21, "Yan", (4,)))
    table = standings([*ties, once])
    assert {s.wins for s in table if s.person in dict(six)} == {1.0}
    assert [s.name for s in table] == ["P0", "P1", "P2", "P3", "P4", "P5", "Zed", "Yan"]


def test_equal_wins_and_average_go_by_name_whatever_the_case():
    level = match(1, MAR_1, seat(1, "ben", (5,), won=0.5), seat(2, "Ana", (5,), won=0.5))
    assert [s.name for s in standings([level])] == ["Ana", "ben"]


def test_a_renamed_player_reads_as_their_latest_name():
    renamed = match(6, MAR_15, seat(ANA, "Anabel", (1,), won=1.0), seat(BEN, "Ben", (2,)))
    assert by_person(standings([*RESULTS, renamed]))[ANA].name == "Anabel"


def test_bots_are_listed_apart_one_line_a_level():
    assert all(s.person != 99 and s.person != 98 for s in standings(RESULTS))
    bots = bot_standings(RESULTS)
    assert [(s.name, s.bot, s.person) for s in bots] == [
        ("Greedy bot", "greedy", None),
        ("Random bot", "random", None),
    ]
    greedy, random = bots
    assert (greedy.matches, greedy.wins, greedy.points, greedy.outs) == (1, 0, 9, 0)
    assert greedy.points_a_round == 4.5
    assert (random.matches, random.points, random.outs) == (1, 31, 1)
    assert random.best == random.worst == MatchTotal(3, "code3", 31)


def test_bots_of_one_level_from_several_tables_share_a_line():
    first = match(
        1, MAR_1, seat(1, "Ana", (3,)), seat(50, "Greedy bot 1", (1,), bot="greedy", won=1.0)
    )
    second = match(
        2, MAR_8, seat(1, "Ana", (2,), won=1.0), seat(51, "Greedy bot 1", (6,), bot="greedy")
    )
    (greedy,) = bot_standings([first, second])
    assert (greedy.matches, greedy.wins, greedy.points) == (2, 1.0, 7)
    assert (greedy.best.total, greedy.worst.total) == (1, 6)


# -- head to head ------------------------------------------------------------------------


def test_head_to_head_counts_ahead_behind_and_level():
    grid = head_to_head(RESULTS)
    # Ana v Ben: ahead in match 1, level (and sharing the win) in 2, behind in 3.
    assert grid.meetings[(ANA, BEN)] == Meeting(ahead=1, behind=1, level=1)
    assert grid.meetings[(BEN, ANA)] == Meeting(ahead=1, behind=1, level=1)
    # Ana v Cara: ahead on total in match 2, and on the tie break at equal totals in 5.
    assert grid.meetings[(ANA, CARA)] == Meeting(ahead=2, behind=0, level=0)
    assert grid.meetings[(CARA, ANA)] == Meeting(ahead=0, behind=2, level=0)
    assert grid.meetings[(BEN, DEE)] == Meeting(1, 0, 0)
    assert grid.meetings[(DEE, ANA)] == Meeting(0, 1, 0)


def test_head_to_head_leaves_out_who_never_met_bots_and_unfinished_matches():
    grid = head_to_head(RESULTS)
    assert (CARA, DEE) not in grid.meetings and (DEE, CARA) not in grid.meetings
    assert all(98 not in pair and 99 not in pair for pair in grid.meetings)
    assert all(FINN not in pair for pair in grid.meetings)
    # match 4 (unfinished) would have been Ana ahead of Ben once more
    assert grid.meetings[(ANA, BEN)].matches == 3


def test_head_to_head_is_a_grid_in_standings_order():
    grid = head_to_head(RESULTS)
    assert grid.people == ((ANA, "Ana"), (BEN, "Ben"), (CARA, "Cara"), (DEE, "Dee"))
    rows = grid.rows()
    assert [person for person, _ in rows] == list(grid.people)
    (ana, ana_cells), *_, (dee, dee_cells) = rows
    assert ana_cells == [None, Meeting(1, 1, 1), Meeting(2, 0, 0), Meeting(1, 0, 0)]
    assert dee_cells == [Meeting(0, 1, 0), Meeting(0, 1, 0), None, None]


def test_every_meeting_mirrors_its_pair():
    grid = head_to_head(RESULTS)
    for (a, b), meeting in grid.meetings.items():
        assert grid.meetings[(b, a)] == Meeting(meeting.behind, meeting.ahead, meeting.level)


def test_a_person_who_only_met_bots_is_not_in_the_grid():
    alone = match(
        1, MAR_1, seat(1, "Ana", (3,), won=1.0), seat(50, "Greedy bot 1", (4,), bot="greedy")
    )
    grid = head_to_head([alone])
    assert grid.people == () and grid.meetings == {}


# -- game nights -------------------------------------------------------------------------


def test_game_nights_group_finished_matches_by_night_oldest_first():
    nights = game_nights(RESULTS)
    assert [(n.date, n.matches) for n in nights] == [(MAR_1, 2), (MAR_8, 2)]


def test_a_nights_figures_are_that_nights_alone():
    first, second = game_nights(RESULTS)
    ana = first.line(ANA)
    assert (ana.matches, ana.wins, ana.rounds, ana.points) == (2, 1.5, 4, 15)
    assert ana.points_a_round == 3.75
    ben = first.line(BEN)
    assert (ben.matches, ben.wins, ben.points_a_round) == (2, 0.5, 23 / 4)
    assert first.line(DEE) is None and first.winners == (ANA,)
    assert [line.person for line in first.lines] == [ANA, BEN, CARA]
    # 8 March: Ana and Ben one win each, Ben on fewer points a round (2 to 6.5).
    assert (second.line(ANA).wins, second.line(ANA).points_a_round) == (1.0, 6.5)
    assert (second.line(BEN).wins, second.line(BEN).points_a_round) == (1.0, 2.0)
    assert second.winners == (BEN,)
    assert second.line(FINN) is None  # his only match is unfinished


def test_a_night_level_on_wins_and_points_has_two_winners():
    level = match(6, MAR_15, seat(ANA, "Ana", (5, 5), won=0.5), seat(BEN, "Ben", (6, 4), won=0.5))
    night = game_nights([*RESULTS, level])[-1]
    assert night.date == MAR_15
    assert set(night.winners) == {ANA, BEN}


def test_a_match_past_midnight_stays_on_its_night():
    late = match(7, MAR_1, seat(ANA, "Ana", (1,), won=1.0), seat(BEN, "Ben", (2,)), hour=23)
    late = Result(**{**late.__dict__, "started_at": late.started_at + datetime.timedelta(hours=2)})
    assert [n.date for n in game_nights([late])] == [MAR_1]


def test_a_night_of_one_person_and_bots_is_theirs():
    alone = match(
        1, MAR_1, seat(1, "Ana", (9,)), seat(50, "Greedy bot 1", (4,), bot="greedy", won=1.0)
    )
    (night,) = game_nights([alone])
    assert night.winners == (1,)
    assert [line.person for line in night.lines] == [1]


def test_no_finished_match_no_night():
    assert game_nights([RESULTS[3]]) == []


@pytest.mark.parametrize("results", [RESULTS, list(reversed(RESULTS))])
def test_nights_come_oldest_first_whatever_the_order_given(results):
    assert [n.date for n in game_nights(results)] == [MAR_1, MAR_8]
