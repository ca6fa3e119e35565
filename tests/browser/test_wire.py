"""Views after the first carry only what changed (games.wire), in Chromium: a seat's page
and a spectator's, built from a first view and the diffs after it, show what the page
drawn whole shows (after a reload), and so do they after their socket was dropped and the
page connected again."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from games.engine import replay
from games.models import Move, Table

from .test_fixes import open_table_with_bots
from .test_table import take_turn, until_live

pytestmark = pytest.mark.browser

# Each region as a person reads it: its text, the tiles' and controls' labels and the
# tiles; the lanes in table order, whatever order the page's script put them in.
REGIONS = """() => {
  const read = (el) => [
    el.textContent.replace(/\\s+/g, ' ').trim(),
    Array.from(el.querySelectorAll('[aria-label]')).map((e) => e.getAttribute('aria-label')),
    Array.from(el.querySelectorAll('[data-tile]')).map((e) => e.dataset.tile),
  ]
  const shown = {}
  for (const id of ['table-top', 'table-log', 'table-players', 'table-round', 'table-dock']) {
    shown[id] = read(document.getElementById(id))
  }
  document.querySelectorAll('.lane').forEach((lane) => {
    shown['lane ' + lane.dataset.train] = read(lane)
  })
  return shown
}"""


class Wire:
    """The page's table sockets, passed through to the server: the frames they carried,
    and a way to drop the connection as a network would."""

    def __init__(self, page: Page):
        self.routes: list[WebSocketRoute] = []
        self.frames: list[str] = []
        page.route_web_socket("**/ws/table/**", self.route)

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: (self.frames.append(message), ws.send(message)))
        self.routes.append(ws)

    def drop(self) -> None:
        self.routes[-1].close(code=1001, reason="gone")


def play_turns(ana: Page, watcher: Page, turns: int) -> None:
    """Ana takes ``turns`` turns against the bot; each time the table waits for her again,
    and the spectator's page shows the same moves."""
    for _ in range(turns):
        expect(ana.locator("#table-dock.dock--mine")).to_be_visible()
        expect(ana.locator("#table.is-busy")).to_have_count(0)
        # A turn where nothing plays leaves the hand as it was: the dock comes without it,
        # and the page keeps the hand it holds.
        expect(ana.locator(".tile--hand").first).to_be_visible()
        while not take_turn(ana):
            ana.wait_for_timeout(100)
    expect(ana.locator("#table-dock.dock--mine")).to_be_visible()
    expect(ana.locator("#table.is-busy")).to_have_count(0)
    moves = ana.locator("#table-log li").all_text_contents()
    expect(watcher.locator("#table-log li")).to_have_text(moves)


def same_as_drawn_whole(page: Page, code: str, server_db: str) -> None:
    """What the page built from diffs shows equals what it shows drawn whole after a
    reload, with the table still: read once it is Ana's turn (no bot moves then) and the
    page shows the table's version, and again if a move came between the two reads."""
    for _ in range(3):
        version = quiet_version(page, code, server_db)
        built = page.evaluate(REGIONS)
        until_live(page, page.reload)
        if Table.objects.using(server_db).get(code=code).version == version:
            assert page.evaluate(REGIONS) == built
            return
    raise AssertionError("the table never stood still long enough to compare")


def quiet_version(page: Page, code: str, server_db: str) -> int:
    """The table's version once Ana (a person: nothing moves until she does) is on turn
    and the page has shown that version's last moves."""
    deadline = time.monotonic() + 30
    while True:
        table = Table.objects.using(server_db).get(code=code)
        moves = Move.objects.using(server_db).filter(table=table).order_by("number")
        game = replay(moves.values_list("record", flat=True))[-1]
        if game.round.result is None and game.round.turn == 0:
            page.wait_for_timeout(500)  # the view of that version reaches the page
            if Table.objects.using(server_db).get(code=code).version == table.version:
                return table.version
        assert time.monotonic() < deadline, "it never came to Ana's turn"
        page.wait_for_timeout(100)


def test_pages_built_from_diffs_show_what_the_whole_page_shows(asgi_server, browser, server_db):
    ana = browser.new_page()
    ana_wire = Wire(ana)
    code = open_table_with_bots(ana, asgi_server.url, server_db, seats=3, tiles="6")
    watcher = browser.new_context().new_page()
    watcher_wire = Wire(watcher)
    until_live(watcher, lambda: watcher.goto(f"{asgi_server.url}/t/{code}/"))

    play_turns(ana, watcher, 4)
    assert any('"whole":false' in frame for frame in ana_wire.frames)  # diffs came
    assert any('"whole":false' in frame for frame in watcher_wire.frames)
    same_as_drawn_whole(watcher, code, server_db)
    same_as_drawn_whole(ana, code, server_db)

    with watcher.expect_websocket():  # the spectator's connection drops; the page connects again
        watcher_wire.drop()
    play_turns(ana, watcher, 2)
    with ana.expect_websocket():
        ana_wire.drop()
    expect(ana.locator("#table-dock.dock--mine")).to_be_visible()
    play_turns(ana, watcher, 2)
    same_as_drawn_whole(watcher, code, server_db)
    same_as_drawn_whole(ana, code, server_db)
