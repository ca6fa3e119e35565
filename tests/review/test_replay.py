"""The replay of a round, step by step from the game record: its last step is the stored end
of the round (the round_end record, the sheet, the table's own state), and what the page
draws at each step is the replayed state, every hand included."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games import review
from games.engine import replay
from games.models import Table
from scoring.services import compute_sheet

pytestmark = pytest.mark.django_db


class Drawing(HTMLParser):
    """The tiles a replay frame draws: each hand's (by seat) and each train's (by index)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.hands: dict[int, list[tuple[int, int]]] = {}
        self.trains: dict[int, list[tuple[int, int]]] = {}
        self._in: dict[int, list[tuple[int, int]]] | None = None
        self._key = 0
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        found = dict(attrs)
        if "data-hand" in found:
            self._in, self._key = self.hands, int(found["data-hand"])
        elif "data-train" in found:
            self._in, self._key = self.trains, int(found["data-train"])
        elif "data-tile" in found and self._in is not None:
            a, b = map(int, found["data-tile"].split("-"))
            self._in.setdefault(self._key, []).append((a, b))
        elif tag == "details":
            self._in = None  # the boneyard is drawn too, but in no hand or train


def frame(admin_client, match, number: int, step: int | str) -> str:
    url = reverse("admin:scoring_match_replay", args=[match.pk, number])
    response = admin_client.get(url, {"step": step, "frame": 1})
    assert response.status_code == 200
    return response.content.decode()


def round_end(records: list[dict], number: int) -> dict:
    return next(r for r in records if r["type"] == "round_end" and r["round"] == number)


def test_the_last_step_of_each_round_is_the_stored_end_of_that_round(admin_client, online_match):
    records = review.records_of(online_match)
    every_state = replay(records)
    sheet = compute_sheet(online_match)
    for number in review.rounds_in(records):
        frames = review.round_frames(records, number)
        actions = [r for r in records if r["type"] == "action" and r["round"] == number]
        assert len(frames) == 1 + len(actions)
        last = frames[-1].game
        assert last == [g for g in every_state if g.round.number == number][-1]
        end = round_end(records, number)
        assert [list(map(list, hand)) for hand in last.round.result.hands] == end["hands"]
        assert list(last.round.result.scores) == end["scores"]
        assert [cell.score for cell in sheet.rows[number - 1].cells] == end["scores"]

        drawing = Drawing(frame(admin_client, online_match, number, len(actions)))
        for seat, hand in enumerate(end["hands"]):
            assert drawing.hands.get(seat, []) == [tuple(t) for t in hand]
        laid = sum(len(tiles) for tiles in drawing.trains.values())
        assert laid == sum(train.tile_count for train in last.round.trains)

    table = Table.objects.get(match=online_match)
    assert table.game() == frames[-1].game  # the table's state at its end


def test_each_step_draws_the_state_after_that_action_with_every_hand(admin_client, online_match):
    records = review.records_of(online_match)
    frames = review.round_frames(records, 2)
    for step in (0, 1, len(frames) // 2):
        rnd = frames[step].game.round
        drawing = Drawing(frame(admin_client, online_match, 2, step))
        assert drawing.hands == {seat: list(hand) for seat, hand in enumerate(rnd.hands) if hand}
        for index, train in enumerate(rnd.trains):
            tiles = [t for branch in train.branches for t in branch.tiles]
            assert drawing.trains.get(index, []) == tiles
    deal = next(r for r in records if r["type"] == "deal" and r["round"] == 2)
    first = frame(admin_client, online_match, 2, 0)
    assert f"Step 0 of {len(frames) - 1}." in first
    assert f"Round 2 is dealt: the engine is {deal['engine']}-{deal['engine']}" in first
    assert Drawing(first).hands == {
        seat: [tuple(t) for t in hand] for seat, hand in enumerate(deal["hands"])
    }


def test_the_replay_is_drawn_from_the_record_not_from_the_table(admin_client, online_match):
    middle = len(review.round_frames(review.records_of(online_match), 3)) // 2
    before = frame(admin_client, online_match, 3, middle)
    assert "Ana" in before and "data-hand" in before
    table = Table.objects.get(match=online_match)
    table.seats.update(name="Somebody else")
    Table.objects.filter(pk=table.pk).update(
        deal_secret="", deal_commitment="", seed=1, rules={"highest_double": 9}, version=0
    )
    assert frame(admin_client, online_match, 3, middle) == before


def test_the_page_has_first_previous_next_last_and_a_slider(admin_client, online_match):
    last = len(review.round_frames(review.records_of(online_match), 1)) - 1
    url = reverse("admin:scoring_match_replay", args=[online_match.pk, 1])
    html = admin_client.get(url, {"step": 2}).content.decode()
    for control in [
        'data-go="first" href="?step=0"',
        'data-go="previous" href="?step=1"',
        'data-go="next" href="?step=3"',
        f'data-go="last" href="?step={last}"',
        f'type="range" name="step" id="replay-step" min="0" max="{last}" value="2"',
    ]:
        assert control in html
    assert f"Step 2 of {last}." in html
    assert f"Step {last} of {last}." in admin_client.get(url, {"step": 10_000}).content.decode()
    assert "Step 0 of" in admin_client.get(url, {"step": "later"}).content.decode()


def test_a_round_never_dealt_is_not_found_and_a_sheet_has_nothing_to_replay(
    admin_client, online_match, sheet_match
):
    url = reverse("admin:scoring_match_replay", args=[online_match.pk, 4])
    assert admin_client.get(url).status_code == 404
    url = reverse("admin:scoring_match_replay", args=[sheet_match.pk, 1])
    response = admin_client.get(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse(
        "admin:scoring_match_change", args=[sheet_match.pk]
    )
    assert "has no game record" in response.content.decode()
