"""A view after a socket's first sends only what changed (games.wire): the page built from
the first view and the diffs after it is, region by region, the page drawn whole."""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser

import pytest

from games import screens, services
from games.engine import Rules
from games.engine.rules import VARIANTS
from games.forms import parse_intent
from games.models import TableSeat
from games.wire import Drawn, Region, Sent

from .tables import intent

pytestmark = pytest.mark.django_db

VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Node:
    """An element of a page, as the browser's parser would hold it (enough for these
    regions: elements, attributes, text)."""

    def __init__(self, tag: str, attrs: list[tuple[str, str | None]]):
        self.tag, self.attrs, self.children = tag, dict(attrs), []
        self.parent: Node | None = None

    def html(self) -> str:
        attrs = "".join(f' {k}="{v}"' if v is not None else f" {k}" for k, v in self.attrs.items())
        inner = "".join(c if isinstance(c, str) else c.html() for c in self.children)
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"

    def find(self, id_: str) -> Node | None:
        if self.attrs.get("id") == id_:
            return self
        for child in self.children:
            if isinstance(child, Node) and (found := child.find(id_)) is not None:
                return found
        return None

    def kept(self) -> list[Node]:
        """The placeholders (data-keep) inside, for elements the page keeps."""
        found = [self] if "data-keep" in self.attrs else []
        for child in self.children:
            if isinstance(child, Node):
                found += child.kept()
        return found

    def replace(self, new: Node) -> None:
        siblings = self.parent.children
        siblings[siblings.index(self)] = new
        new.parent = self.parent


class Tree(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=False)
        self.root = self.at = Node("root", [])
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs)
        node.parent = self.at
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.at = self.at.parent

    def handle_endtag(self, tag):
        if tag not in VOID:
            self.at = self.at.parent

    def handle_data(self, data):
        self.at.children.append(data)

    def handle_entityref(self, name):
        self.at.children.append(f"&{name};")

    def handle_charref(self, name):
        self.at.children.append(f"&#{name};")


def regions(html: str) -> list[Node]:
    return [c for c in Tree(html).root.children if isinstance(c, Node)]


class Page:
    """What the page's script does with a view's regions (static/games/table.js, swap):
        each replaces the element of its id, keeping the elements its placeholders stand for (a
    dock's hand), and new log lines go on top."""

    def __init__(self, html: str):
        self.root = Tree(html).root

    def swap(self, html: str) -> None:
        for region in regions(html):
            old = self.root.find(region.attrs["id"])
            if old is None:
                continue
            if "data-prepend" in region.attrs:
                for line in reversed(region.children):
                    line.parent = old
                    old.children.insert(0, line)
                del old.children[int(region.attrs["data-prepend"]) :]
                continue
            for spot in region.kept():
                spot.replace(self.root.find(spot.attrs["id"]))
            old.replace(region)


def play_watching(rules: Rules, seed: int, skip: float) -> tuple[int, int]:
    """A random match of three people, watched by Ana's seat and a spectator as sockets
    would send them views (some versions skipped, as a slow socket's are): after each view,
    each page rebuilt from the views is the whole drawing. The views and whole ones sent."""
    rng = random.Random(seed)
    table, host = services.create_table(rules=rules, seat_count=3, host_name="Ana")
    tokens = [host.token] + [services.join(table.code, name=n).token for n in ("Ben", "Cy")]
    services.start(table.code, host_token=table.host_token)
    seat = TableSeat.objects.get(token=host.token)
    viewers = [screens.Viewer(seat.pk, True), screens.Viewer()]
    sent = [Sent(), Sent()]
    pages: list[Page | None] = [None, None]
    views = wholes = 0
    while True:
        for i, viewer in enumerate(viewers):
            if pages[i] is not None and rng.random() < skip:
                continue  # a message the channel layer dropped
            # A socket's first view carries the score sheet, as the page it opens for does.
            drawn, _ = screens.draw(table.code, viewer, with_sheet=pages[i] is None)
            view = json.loads(sent[i].message(drawn))
            views += 1
            wholes += view["whole"]
            if pages[i] is None:
                pages[i] = Page(view["html"])
            else:
                pages[i].swap(view["html"])
            whole = json.loads(Sent().message(drawn))["html"]  # the page drawn whole
            for region in regions(whole):
                held = pages[i].root.find(region.attrs["id"])
                assert held is not None and held.html() == region.html(), region.attrs["id"]
        game = screens.screen(table.code, None).data["game"]
        if game["over"]:
            return views, wholes
        if game["round_over"]:
            for token in tokens:
                services.ready(table.code, token=token)
            continue
        token = tokens[game["turn"]]
        legal = screens.screen(table.code, token).data["game"]["legal"]
        version = screens.screen(table.code, token).data["version"]
        services.act(
            table.code, token=token, intent=parse_intent(intent(rng.choice(legal), version))
        )


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_page_built_from_the_diffs_is_the_page_drawn_whole_after_every_view(variant):
    rules = Rules(highest_double=6, rounds=2, variant=variant)
    views, wholes = play_watching(rules, seed=len(variant), skip=0.1)
    assert wholes < views / 2  # most views are diffs (the check is not of whole views alone)
    assert wholes > 2  # and the skipped versions brought whole ones


def test_a_container_sent_again_keeps_the_inner_regions_the_page_holds():
    """A container that changed comes whole, with a placeholder for each inner region the
    page holds as it is (whatever spacing the template left around it), and the page
    built from it is the container drawn whole."""

    def drawn(title: str, row: str) -> Drawn:
        lane = Region("lane-0", '\n<div id="lane-0" class="lane">4-4</div>\n')
        member = Region("member-1", f'    <li id="member-1" class="member">{row}</li>\n')
        html = f'<section id="c"><h2>{title}</h2>{lane.html}<ul>{member.html}</ul></section>'
        return Drawn({"version": 1}, (Region("c", html, (lane, member)),))

    sent = Sent()
    page = Page(json.loads(sent.message(drawn("Round 1", "Ben")))["html"])
    diff = json.loads(sent.message(drawn("Round 2", "Ben")))["html"]
    assert diff.count("data-keep") == 2 and "4-4" not in diff and "Ben" not in diff
    page.swap(diff)
    whole = Page(json.loads(Sent().message(drawn("Round 2", "Ben")))["html"])
    assert page.root.find("c").html() == whole.root.find("c").html()
