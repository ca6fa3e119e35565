"""Web Push in the browser, as a release serves it (DEBUG=0, collected static files): the
table's page asks nothing on load; its button registers the tables' service worker; a push
message delivered to that worker (the DevTools Protocol's ServiceWorker.deliverPushMessage,
in the push service's place) is shown as a notification that leads to the seat."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from games.alerts.models import SeatAlerts
from games.engine import Replayer
from games.models import Pace, Table, TableSeat
from tests.browser.conftest import serve_release

pytestmark = pytest.mark.browser

VAPID_PRIVATE_KEY = "xPKwnVCdpgLZRrLZCxHCNgveql4ZzqYcReWSdx3y0PU"  # a test's key, never a site's
# Counts the page's permission prompts: it must never ask on load.
COUNT_PROMPTS = """
window.__prompts = 0
const ask = Notification.requestPermission.bind(Notification)
Notification.requestPermission = function () { window.__prompts += 1; return ask() }
"""


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Iterator[str]:
    """The address of daphne serving a release, on a SQLite file of its own."""
    with serve_release(
        tmp_path_factory.mktemp("alerts-release"), VAPID_PRIVATE_KEY=VAPID_PRIVATE_KEY
    ) as url:
        yield url


def test_a_push_to_the_tables_worker_shows_a_notification_that_leads_to_the_seat(phone, release):
    context = phone()
    context.add_init_script(COUNT_PROMPTS)
    page = context.new_page()
    page.goto(f"{release}/t/new/")
    page.get_by_label("Your name", exact=True).fill("Ana")
    page.get_by_role("button", name="Open the table").click()
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    page.get_by_text("Alerts when the table waits for you").click()
    button = page.get_by_role("button", name="Tell me on this device when it's my turn")
    expect(button).to_be_visible()
    assert page.evaluate("window.__prompts") == 0, "the page asked for alerts on load"
    assert page.evaluate("navigator.serviceWorker.getRegistration('/t/').then(r => !!r)") is False

    cdp = context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    context.grant_permissions(["notifications"], origin=release)
    button.click()  # subscribing needs the browser's push service, absent here: it registers
    assert page.evaluate("window.__prompts") == 1
    deadline = time.monotonic() + 15
    while not any(r["scopeURL"] == f"{release}/t/" for r in registrations):
        assert time.monotonic() < deadline, "the tables' worker was never registered"
        page.wait_for_timeout(100)
    registration = next(r for r in registrations if r["scopeURL"] == f"{release}/t/")
    active = "navigator.serviceWorker.getRegistration('/t/').then(r => r?.active?.state)"
    deadline = time.monotonic() + 15  # a push to a worker not yet active is dropped
    while page.evaluate(active) != "activated":
        assert time.monotonic() < deadline, "the tables' worker never became active"
        page.wait_for_timeout(100)

    alert = {
        "title": "Mexican Train",
        "body": "Your turn, Ana: round 1 waits for you.",
        "url": f"/t/{code}/rejoin/the-seat-token/",
        "tag": "turn",
    }
    shown = (
        "navigator.serviceWorker.getRegistration('/t/').then(r => r.getNotifications())"
        ".then(all => all.map(n => ({title: n.title, body: n.body, url: n.data.url})))"
    )
    notes: list = []
    for _ in range(3):  # a push the browser drops under load is pushed again (same tag)
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": release,
                "registrationId": registration["registrationId"],
                "data": json.dumps(alert),
            },
        )
        deadline = time.monotonic() + 10
        while not (notes := page.evaluate(shown)) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        if notes:
            break
    assert notes, "no notification was shown"
    assert notes == [
        {
            "title": "Mexican Train",
            "body": "Your turn, Ana: round 1 waits for you.",
            "url": f"{release}/t/{code}/rejoin/the-seat-token/",
        }
    ]


def test_the_table_page_tells_its_socket_it_is_in_sight(asgi_server, phone, server_db):
    """So a person looking at the table is sent no alert: the page says so when its socket
    opens, and again when it goes out of sight."""
    page = phone().new_page()
    page.goto(f"{asgi_server.url}/t/new/")
    page.get_by_label("Your name", exact=True).fill("Ana")
    page.get_by_role("button", name="Open the table").click()
    code = page.url.rstrip("/").rsplit("/", 1)[1]

    def sight() -> tuple[str, str]:
        seat = TableSeat.objects.using(server_db).get(table__code=code, position=0)
        record = SeatAlerts.objects.using(server_db).filter(seat=seat).first()
        return seat.channel_name, record.shown_on if record else ""

    deadline = time.monotonic() + 15
    while not (found := sight())[1]:
        assert time.monotonic() < deadline, "the page never said it is in sight"
        page.wait_for_timeout(100)
    assert found[0] == found[1], "in sight on a socket that does not hold the seat"

    # The phone is locked: the page goes out of sight.
    page.evaluate(
        "Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    deadline = time.monotonic() + 15
    while sight()[1]:
        assert time.monotonic() < deadline, "the page never said it is out of sight"
        page.wait_for_timeout(100)


def test_the_nudge_is_offered_to_whoever_waits_at_an_own_pace_table(asgi_server, phone, server_db):
    ana, ben = phone().new_page(), phone().new_page()
    ana.goto(f"{asgi_server.url}/t/new/")
    ana.get_by_label("Your name", exact=True).fill("Ana")
    ana.get_by_role("button", name="Open the table").click()
    link = ana.url
    code = link.rstrip("/").rsplit("/", 1)[1]
    ben.goto(link)
    ben.get_by_label("Your name", exact=True).fill("Ben")
    ben.get_by_role("button", name="Take the seat").click()
    Table.objects.using(server_db).filter(code=code).update(pace=Pace.OWN, turn_limit=24 * 3600)
    start = ana.get_by_role("button", name="Start the match with 2 players")
    expect(start).to_be_visible()
    start.click()
    for page in (ana, ben):  # the alerts card is open at an own-pace table
        expect(page.locator("#table-board")).to_be_visible()
    table = Table.objects.using(server_db).get(code=code)
    replayer = Replayer()
    for record in table.moves.using(server_db).values_list("record", flat=True):
        replayer.feed(record)
    on_turn = table.seats.using(server_db).get(position=replayer.game.round.turn).name
    waiting, playing = (ben, ana) if on_turn == "Ana" else (ana, ben)
    nudge = "Nudge the player on turn"
    expect(waiting.get_by_role("button", name=nudge)).to_be_visible()
    expect(playing.get_by_role("button", name=nudge)).to_be_hidden()
    looking = TableSeat.objects.using(server_db).get(table__code=code, name=on_turn)
    deadline = time.monotonic() + 15  # the server has heard that the page is in sight
    while not SeatAlerts.objects.using(server_db).filter(seat=looking).exclude(shown_on=""):
        assert time.monotonic() < deadline, f"{on_turn}'s page never said it is in sight"
        waiting.wait_for_timeout(100)
    waiting.get_by_role("button", name=nudge).click()  # the player on turn is looking
    expect(waiting.locator(".toast")).to_have_text(
        f"{on_turn} has the table open now: they can see it is their turn."
    )
    playing.close()
    waiting.get_by_role("button", name=nudge).click()
    expect(waiting.locator("#alerts-nudge-said")).to_have_text(f"{on_turn} has been nudged.")
