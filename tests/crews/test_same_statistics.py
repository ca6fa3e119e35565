"""A person's statistics are the same whether worked out from online matches, score
sheets or both: both keep their rounds as score-sheet entries (a table records each round's
hands, a sheet what was typed), and the crew's figures read those entries alone.

The same rounds are played both ways by the same three people (one Player row each): on a
sheet, typed as counts of pips and doubles; at an online table, as the tiles left in hand.
House rules that weigh doubles, the double-blank and going out on a double are on, so a
count that lost a double, or a round read another way, would show."""

import uuid

import pytest

from crews.results import results
from crews.standings import game_nights, head_to_head, standings
from games.engine.rules import Rules
from games.engine.scoring import HandCount
from scoring import services
from scoring.entries import EntryValue
from scoring.models import Match

pytestmark = pytest.mark.django_db

RULES = Rules(rounds=2, double_blank_value=50, double_penalty=10, out_on_double=-10)
NAMES = ["Ana", "Ben", "Cy"]
OUT, OUT_ON_A_DOUBLE = "out", "out on a double"

# Two rounds each, a cell a seat: the tiles left in hand, or how the seat went out.
# Two rounds count down to the blank: round 1 is the double-1's, round 2 the double-blank's.
BEN_WINS = [
    [OUT, [(1, 2), (5, 5)], [(0, 0), (3, 4)]],  # 0, 13 + 10, 7 + 50 + 10
    [[(6, 6)], OUT_ON_A_DOUBLE, [(2, 3)]],  # 12 + 10, -10, 5
]  # totals 22, 13, 72
ANA_AND_CY_LEVEL = [
    [[(2, 3)], [(4, 4)], OUT],  # 5, 8 + 10, 0
    [OUT, [(1, 1)], [(1, 4)]],  # 0, 2 + 10, 5
]  # totals 5, 30, 5: Ana and Cy share the win


def typed(cell) -> EntryValue:
    """The cell as somebody at a real table types it: the count of the hand."""
    if cell in (OUT, OUT_ON_A_DOUBLE):
        return EntryValue.out(on_double=cell == OUT_ON_A_DOUBLE)
    hand = HandCount.of(cell)
    return EntryValue.count(hand.pips, hand.doubles, hand.double_blank, hand.blanks)


def on_a_sheet(rounds, known=()) -> Match:
    match = services.create_match(NAMES, RULES, by="Ana", known=known)
    for number, row in enumerate(rounds, start=1):
        for seat, cell in enumerate(row):
            outcome = services.record_entry(
                match, number, seat, typed(cell), base_version=0, client_id=uuid.uuid4(), by="Ana"
            )
            assert outcome.status == services.APPLIED
    return match


def at_a_table(rounds, known=()) -> Match:
    """As the online table records its rounds (games.services.commit.commit): a round's hands at
    once when it ends, None for whoever went out."""
    match = services.create_match(NAMES, RULES, by="Ana", kind=Match.Kind.ONLINE, known=known)
    for number, row in enumerate(rounds, start=1):
        hands = {
            seat: None if cell in (OUT, OUT_ON_A_DOUBLE) else cell for seat, cell in enumerate(row)
        }
        on_double = {seat for seat, cell in enumerate(row) if cell == OUT_ON_A_DOUBLE}
        services.record_round(match, number, hands, by="the table", on_double=on_double)
    return match


@pytest.fixture
def people():
    """The three people, as Player rows made once: every match below seats these."""
    first = services.create_match(NAMES, RULES, by="Ana")
    return [seat.player for seat in first.seats.order_by("position")]


def figures(table):
    """Each standing without the match its best and worst total come from (a match of the
    other kind has another id)."""
    return [
        (
            s.person,
            s.name,
            s.matches,
            s.wins,
            s.rounds,
            s.points,
            s.outs,
            s.points_a_round,
            s.best.total,
            s.worst.total,
        )
        for s in table
    ]


def placings(result):
    return [(p.person, p.name, p.bot, p.total, p.rounds, p.outs, p.won) for p in result.placings]


def test_both_kinds_of_match_are_finished_and_seat_the_same_people(people):
    sheet, online = on_a_sheet(BEN_WINS, people), at_a_table(BEN_WINS, people)
    for match in (sheet, online):
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert [s.player for s in match.seats.order_by("position")] == people
    assert (sheet.kind, online.kind) == (Match.Kind.SHEET, Match.Kind.ONLINE)


def test_a_sheet_and_a_table_of_the_same_rounds_give_the_same_result(people):
    sheet, online = results([on_a_sheet(BEN_WINS, people), at_a_table(BEN_WINS, people)])
    assert (sheet.kind, online.kind) == ("sheet", "online")
    assert sheet.finished and online.finished
    assert placings(sheet) == placings(online)
    ana, ben, cy = (p.pk for p in people)
    assert placings(sheet) == [
        (ana, "Ana", "", 22, (0, 22), 1, 0.0),
        (ben, "Ben", "", 13, (23, -10), 1, 1.0),
        (cy, "Cy", "", 72, (67, 5), 0, 0.0),
    ]


def test_a_persons_statistics_are_the_same_from_a_sheet_or_a_table(people):
    from_sheet = standings(results([on_a_sheet(BEN_WINS, people)]))
    from_table = standings(results([at_a_table(BEN_WINS, people)]))
    assert figures(from_sheet) == figures(from_table)
    assert [s.name for s in from_sheet] == ["Ben", "Ana", "Cy"]


def test_both_together_give_the_sums_and_the_same_means(people):
    sheet, online = on_a_sheet(BEN_WINS, people), at_a_table(BEN_WINS, people)
    alone = {s.person: s for s in standings(results([sheet]))}
    both = standings(results([sheet, online]))
    assert len(both) == len(alone) == 3
    for s in both:
        one = alone[s.person]
        assert (s.matches, s.wins, s.rounds, s.points, s.outs) == (
            2 * one.matches,
            2 * one.wins,
            2 * one.rounds,
            2 * one.points,
            2 * one.outs,
        )
        assert s.points_a_round == one.points_a_round
        assert (s.best.total, s.worst.total) == (one.best.total, one.worst.total)
        assert s.best.match == sheet.pk  # the earlier of two equal totals


def test_mixing_the_kinds_either_way_gives_the_same_figures(people):
    """Ben's win on a sheet and the shared win at a table, or the other way round: every
    figure of the crew page is the same."""
    one_way = results([on_a_sheet(BEN_WINS, people), at_a_table(ANA_AND_CY_LEVEL, people)])
    other_way = results([at_a_table(BEN_WINS, people), on_a_sheet(ANA_AND_CY_LEVEL, people)])
    assert figures(standings(one_way)) == figures(standings(other_way))
    assert head_to_head(one_way).meetings == head_to_head(other_way).meetings
    assert [n.lines for n in game_nights(one_way)] == [n.lines for n in game_nights(other_way)]
    ana, ben, cy = (p.pk for p in people)
    by_person = {s.person: s for s in standings(one_way)}
    assert (by_person[ana].wins, by_person[ben].wins, by_person[cy].wins) == (0.5, 1.0, 0.5)
    assert (by_person[ana].points, by_person[ana].rounds) == (27, 4)
    assert (by_person[cy].best.total, by_person[cy].worst.total) == (5, 72)


def test_results_are_read_in_a_fixed_number_of_queries(people, django_assert_num_queries):
    few = [on_a_sheet(BEN_WINS, people), at_a_table(BEN_WINS, people)]
    many = few + [on_a_sheet(ANA_AND_CY_LEVEL, people), at_a_table(ANA_AND_CY_LEVEL, people)]
    with django_assert_num_queries(2):  # the entries, then the seats with their players
        results(few)
    with django_assert_num_queries(2):
        assert len(results(many)) == 4
