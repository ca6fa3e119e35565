"""The first-turn planner: the best line from a hand, exact against the plain search."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.planner import best_line, exhaustive_line, line_value
from games.engine.tiles import full_set
from tests.engine.positions import tiles


def assert_is_a_line(line, hand, start):
    """Every tile is from the hand, used once, and matches the end the previous one left."""
    assert len(set(line)) == len(line)
    assert set(line) <= set(hand)
    end = start
    for a, b in line:
        assert end in (a, b), f"{(a, b)} does not follow {end} in {line}"
        end = b if a == end else a


def test_the_line_through_a_known_hand():
    hand = tiles("12-3 3-5 5-5 5-8 8-1 12-7 7-2 9-10")
    assert best_line(hand, 12) == list(tiles("12-3 3-5 5-5 5-8 8-1"))


def test_a_loop_back_through_the_engine_number_comes_first():
    # Heaviest-first would run 6-4 4-9 and stop; the best line goes round 6-1 1-2 2-6 first.
    hand = tiles("6-4 4-9 6-1 1-2 2-6 4-4")
    line = best_line(hand, 6)
    assert_is_a_line(line, hand, 6)
    assert len(line) == 6
    assert line[-1] == (4, 9)


def test_equal_lengths_are_decided_by_pips():
    hand = tiles("12-1 12-11")
    assert best_line(hand, 12) == [(11, 12)]


def test_a_double_goes_in_where_the_line_first_passes_its_number():
    hand = tiles("9-4 4-7 4-4")
    assert best_line(hand, 9) == list(tiles("9-4 4-4 4-7"))


def test_a_double_of_the_open_end_is_laid_first():
    assert best_line(tiles("5-5 5-1"), 5) == list(tiles("5-5 5-1"))


def test_a_hand_with_nothing_to_play_gives_an_empty_line():
    assert best_line(tiles("1-2 3-4"), 12) == []
    assert best_line((), 12) == []


def test_the_line_ends_on_a_double_only_when_nothing_else_fits():
    line = best_line(tiles("12-3 3-3"), 12)
    assert line == list(tiles("12-3 3-3"))


@st.composite
def hands(draw):
    top = draw(st.sampled_from([6, 9, 12]))
    start = draw(st.integers(0, top))
    pool = [t for t in full_set(top) if t != (start, start) or draw(st.booleans())]
    size = draw(st.integers(0, min(14, len(pool))))
    hand = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    return hand, start


@settings(max_examples=300, deadline=None)
@given(hands())
def test_the_planner_finds_what_the_exhaustive_search_finds(case):
    hand, start = case
    line = best_line(hand, start)
    assert_is_a_line(line, hand, start)
    assert line_value(line) == line_value(exhaustive_line(hand, start))


def test_the_plain_search_gives_up_past_its_limit_of_lines():
    """The playouts try every line only while a hand has few: a hand of every tile of a
    double-5 set has millions (minutes to try), and the planner answers it instead."""
    assert exhaustive_line(full_set(5), 0, limit=1000) is None
    few = [(0, 1), (1, 2), (2, 2), (2, 7)]
    assert exhaustive_line(few, 0, limit=1000) == [(0, 1), (1, 2), (2, 2), (2, 7)]
