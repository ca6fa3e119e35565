"""A train's row of the board (templates/games/regions/lane.html): what the page's script
reads from it (static/games/table.js) and what a screen reader says."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from types import SimpleNamespace

from django.template.loader import render_to_string

from games.engine.state import Branch, Train
from games.screens import _lanes

VOID = {"use", "input"}


class Tags(HTMLParser):
    """The start tags with their attributes, and whether every element was closed."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.started: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.started.append((tag, dict(attrs)))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.started.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        assert self.open.pop() == tag

    def having(self, cls: str) -> list[dict[str, str | None]]:
        return [a for _, a in self.started if cls in (a.get("class") or "").split()]


def lane_html(
    trains: tuple[Train, ...],
    players: int,
    names: dict[int, str],
    index: int,
    hands: tuple[int, ...] = (),
) -> str:
    """The board drawn for these trains (each player holding ``hands``, seven tiles unless
    told), and the row of train ``index`` in it."""
    view = SimpleNamespace(trains=trains, players=players, hand_sizes=hands or (7,) * players)
    lanes = _lanes(view, names)
    return render_to_string("games/regions/lane.html", {"lane": lanes[index]})


def test_a_marked_train_with_a_double_owed_and_a_branch_shows_both_ends():
    train = Train(
        owner=1,
        branches=(Branch(((6, 5), (5, 5)), 5, owed=True), Branch(((5, 3),), 3, parent=0, at=1)),
        marked=True,
    )
    empty = Train(0, (Branch((), 12),))
    html = lane_html((empty, empty, train), 3, {1: "<b>Ana</b>"}, 2)
    tags = Tags(html)
    assert not tags.open  # every element closed

    (lane,) = tags.having("lane")
    assert lane["class"].split() == ["lane", "lane--owed", "lane--marked"]
    assert (lane["data-train"], lane["data-owner"]) == ("2", "1")
    assert "&lt;b&gt;Ana&lt;/b&gt;" in html and "<b>" not in html
    assert "marker: open to all" in html and "double to cover" in html and "3 laid" in html

    rows = tags.having("lane__row")
    assert [r["data-row"] for r in rows] == ["2-0", "2-1"]
    assert rows[0]["aria-label"] == "<b>Ana</b>, open end 5"
    assert rows[1]["aria-label"] == "<b>Ana</b>, branch, open end 3"
    slots = tags.having("slot")
    assert [(s["data-train"], s["data-end"], s["data-open"]) for s in slots] == [
        ("2", "0", "5"),
        ("2", "1", "3"),
    ]
    assert "slot--owed" in slots[0]["class"] and "slot--owed" not in slots[1]["class"]
    assert slots[0]["aria-label"].endswith(", a double to cover")
    assert all("disabled" in s for s in slots)  # the page's script lights the reachable ones
    assert len(tags.having("tile--laid")) == 3 and len(tags.having("tile--double")) == 1


def test_a_public_train_has_no_owner_and_counts_one_tile():
    empty = Train(0, (Branch((), 12),))
    public = Train(None, (Branch(((12, 4),), 4),))
    html = lane_html((empty, empty, empty, empty, public), 4, {}, 4)
    (lane,) = Tags(html).having("lane")
    assert lane["class"].split() == ["lane", "lane--public"] and "data-owner" not in lane
    assert "1 laid<" in html and "marker" not in html and "tag--owed" not in html
    assert "in hand" not in html  # nobody's hand: a public train


def text(html: str) -> str:
    """What the lane's head reads, its tags stripped and its spaces closed up, without the
    "(you)" every lane carries for the page to show on the seat's own."""
    head = html.split('<div class="lane__row"')[0]
    return " ".join(re.sub(r"<[^>]+>", " ", head).split()).replace(" ,", ",").replace(" (you)", "")


def test_a_lane_says_its_owners_hand_apart_from_its_length_and_marks_one_nearly_out():
    """Issue 36: a bot's "18 tiles" was its train; it held 2 tiles and went out soon after.
    Each seat's lane says how many tiles its owner holds, and marks in words an owner down
    to two tiles or one, where everyone looks."""
    long = Train(1, (Branch(tuple((n % 7, (n + 1) % 7) for n in range(18)), 4),))
    trains = (Train(0, (Branch((), 12),)), long, Train(2, (Branch((), 12),)))
    trains += (Train(None, (Branch((), 12),)),)
    hands = (7, 2, 1)
    names = {0: "Ana", 1: "Greedy bot 1", 2: "Ben"}
    said = [text(lane_html(trains, 3, names, i, hands)) for i in range(3)]
    assert said[0] == "Ana 7 in hand, 0 laid"
    assert said[1] == "Greedy bot 1 nearly out 2 in hand, 18 laid"
    assert said[2] == "Ben last tile 1 in hand, 0 laid"
    assert "tag--out" not in lane_html(trains, 3, names, 0, hands)
