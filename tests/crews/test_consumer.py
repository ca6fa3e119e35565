"""The crew page's socket through config.asgi: a member's page is pushed its live region
when a match of the crew finishes; a device that is nobody in the crew is refused.

transaction=True: the consumer runs its queries in another thread, which sees only
committed rows."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from config.asgi import application
from crews import services
from games.engine.rules import Rules
from scoring import services as sheets
from scoring.entries import EntryValue
from tests.sockets import close_sockets, track_sockets

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 10  # seconds to wait at most: a frame arrives in milliseconds, later on a loaded machine


@pytest.fixture(autouse=True)
async def sockets_closed(monkeypatch):
    opened = track_sockets(monkeypatch)
    yield
    await close_sockets(opened)


@database_sync_to_async
def device_session(device: str) -> str:
    session = SessionStore()
    session["device"] = device
    session.save()
    return session.session_key


async def connect(code: str, device: str, query: str = "") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    headers.append((b"cookie", f"sessionid={await device_session(device)}".encode()))
    return WebsocketCommunicator(application, f"/ws/crew/{code}/{query}", headers=headers)


async def test_a_member_page_is_pushed_the_standings_when_a_match_finishes():
    crew, _ = await database_sync_to_async(services.create_crew)("Thursday", "Ana", "dev-ana")
    match = await database_sync_to_async(services.open_sheet)(
        crew, ["Ana", "Ben"], Rules(rounds=1), by="Ana"
    )
    page = await connect(crew.code, "dev-ana")
    connected, _ = await page.connect()
    assert connected

    def enter(seat, value):
        sheets.record_entry(match, 1, seat, value, base_version=0, client_id=None, by="Ana")

    await database_sync_to_async(enter)(0, EntryValue.out())
    assert await page.receive_nothing(0.2)  # the match is still in play: nothing to redraw
    await database_sync_to_async(enter)(1, EntryValue.count(9))
    frame = await page.receive_from(TIMEOUT)
    assert 'id="crew-live"' in frame and "Standings" in frame and "9.0" in frame


async def test_a_page_showing_an_earlier_season_is_pushed_that_season():
    crew, _ = await database_sync_to_async(services.create_crew)("Thursday", "Ana", "dev-ana")
    await database_sync_to_async(services.new_season)(crew, "Spring")
    earlier = await connect(crew.code, "dev-ana", "?season=1")
    current = await connect(crew.code, "dev-ana", "?season=%C2%B2")  # not a number: the current
    for page in (earlier, current):
        connected, _ = await page.connect()
        assert connected

    await database_sync_to_async(services.join)(crew, "Ben", "dev-ben")
    frame = await earlier.receive_from(TIMEOUT)
    assert "Standings · Season 1" in frame and "Spring" not in frame
    assert "Standings · Spring" in await current.receive_from(TIMEOUT)


async def test_a_device_that_is_nobody_in_the_crew_is_refused():
    crew, _ = await database_sync_to_async(services.create_crew)("Thursday", "Ana", "dev-ana")
    for code, device in ((crew.code, "dev-stranger"), ("nope", "dev-ana")):
        socket = await connect(code, device)
        await socket.connect()
        assert await socket.receive_output(TIMEOUT) == {"type": "websocket.close", "code": 4403}
