"""The sheet's websocket through config.asgi (origin check, sessions, routing): phones that
joined edit, every open sheet gets each committed change, the TV link only watches.

transaction=True: the consumer runs its queries in another thread, which sees only
committed rows."""

import json
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from config.asgi import application
from games.engine.rules import Rules
from scoring import services, sessions
from scoring.models import Change, Entry, Match

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3  # seconds; a frame arrives in milliseconds


@database_sync_to_async
def new_match(names=("Ana", "Ben", "Cy")) -> Match:
    return services.create_match(list(names), Rules(), by="Ana")


@database_sync_to_async
def session_for(match: Match, name: str, seat: int | None) -> str:
    """A device that said who it is, as the join page leaves it: its session cookie."""
    session = SessionStore()
    sessions.join(session, match.code, name, seat)
    session.save()
    return session.session_key


async def connect(path: str, session_key: str | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def phone(match: Match, name: str, seat: int | None) -> WebsocketCommunicator:
    """A joined phone, connected, with the first frame (the whole sheet) read."""
    communicator = await connect(f"/ws/sheet/{match.code}/", await session_for(match, name, seat))
    connected, _ = await communicator.connect()
    assert connected
    first = await communicator.receive_from(TIMEOUT)
    assert 'id="sheet"' in first and 'id="settings"' in first
    return communicator


async def frames(communicator: WebsocketCommunicator, count: int) -> list[str]:
    return [await communicator.receive_from(TIMEOUT) for _ in range(count)]


def entry(round_number: int, seat: int, value: dict, *, base_version=0, client_id=None) -> dict:
    return {
        "action": "entry",
        "client_id": str(client_id or uuid.uuid4()),
        "round": round_number,
        "seat": seat,
        "base_version": base_version,
        "value": value,
    }


def acks(received: list[str]) -> list[dict]:
    return [json.loads(frame) for frame in received if frame.startswith("{")]


def html(received: list[str]) -> str:
    return "".join(frame for frame in received if not frame.startswith("{"))


@database_sync_to_async
def history(match: Match) -> list[tuple[str, object, object]]:
    return [(c.by, c.old, c.new) for c in Change.objects.filter(match=match)]


async def test_an_entry_reaches_every_phone_and_the_tv():
    match = await new_match()
    ana, ben = await phone(match, "Ana", 0), await phone(match, "Ben", 1)
    tv = await connect(f"/ws/sheet/view/{match.viewer_code}/")
    assert (await tv.connect())[0]
    assert 'id="sheet"' in await tv.receive_from(TIMEOUT)

    await ana.send_json_to(entry(1, 1, {"kind": "count", "pips": 13}))
    from_ana = await frames(ana, 2)  # the ack, and the change like everybody else
    assert acks(from_ana) == [{"ack": acks(from_ana)[0]["ack"], "outcome": "applied"}]
    for received in (html(from_ana), await ben.receive_from(TIMEOUT)):
        assert 'id="cell-1-1"' in received
        assert (
            '"visually-hidden">Round 1, Ben: 13 pips, scores </span><span class="score">13</span>'
            '<span class="visually-hidden">, total </span><span class="running">13<'
        ) in received
        assert "Round 1, Ben: blank → 13 pips, entered by Ana" in received
    on_tv = await tv.receive_from(TIMEOUT)
    assert '<span class="cell" id="cell-1-1"><span class="score">13</span>' in on_tv
    assert "ws-send" not in on_tv
    for communicator in (ana, ben, tv):
        assert await communicator.receive_nothing()
        await communicator.disconnect()


async def test_a_stale_edit_shows_both_values_and_who_entered_the_other():
    match = await new_match()
    ana, ben = await phone(match, "Ana", 0), await phone(match, "Ben", 1)
    await ben.send_json_to(entry(2, 0, {"kind": "count", "pips": 15}))
    await frames(ben, 2)
    await ana.receive_from(TIMEOUT)  # Ben's change, pushed
    # Ana's phone had opened the cell before that push: her edit is based on version 0.
    await ana.send_json_to(entry(2, 0, {"kind": "out"}))
    notice, ack = await frames(ana, 2)
    assert json.loads(ack)["outcome"] == "stale"
    assert 'hx-swap-oob="beforeend:#notices"' in notice
    assert (
        "Round 2, Ana: Ben entered <strong>15 pips</strong>; you entered <strong>went out" in notice
    )
    assert '"base_version":1' in notice.replace("&quot;", '"')  # "Use went out" retries on top
    assert await ben.receive_nothing()
    assert await history(match) == [
        (
            "Ben",
            {"kind": "blank"},
            {"kind": "count", "pips": 15, "doubles": 0, "double_blank": False},
        )
    ]
    await ana.disconnect()
    await ben.disconnect()


async def test_a_repeated_edit_is_applied_once():
    match = await new_match()
    ana, ben = await phone(match, "Ana", 0), await phone(match, "Ben", 1)
    message = entry(1, 2, {"kind": "tiles", "tiles": [[6, 6], [1, 2]]})
    await ana.send_json_to(message)
    await frames(ana, 2)
    await ana.send_json_to(message)  # the phone never saw the ack, and sends it again
    assert json.loads(await ana.receive_from(TIMEOUT)) == {
        "ack": message["client_id"],
        "outcome": "duplicate",
    }
    assert await ana.receive_nothing()
    assert 'scores </span><span class="score">15<' in await ben.receive_from(TIMEOUT)
    assert await ben.receive_nothing()  # one change, one push
    assert len(await history(match)) == 1
    await ana.disconnect()
    await ben.disconnect()


async def test_a_settings_change_recalculates_every_phone_and_says_who():
    match = await new_match()
    ana, ben = await phone(match, "Ana", 0), await phone(match, "Ben", 1)
    await ana.send_json_to(
        entry(1, 0, {"kind": "count", "pips": 12, "doubles": 1, "double_blank": True})
    )
    await frames(ana, 2)
    await ben.receive_from(TIMEOUT)
    setting = {
        "action": "setting",
        "setting": "double_blank_value",
        "value": "50",
        "was": "0",
        "HEADERS": {},
    }
    await ben.send_json_to(setting)
    for communicator in (ana, ben):
        received = await communicator.receive_from(TIMEOUT)
        assert 'scores </span><span class="score">62<' in received
        assert "Double-blank is worth 50, changed by Ben" in received
        assert '<option value="50" selected>50 pips</option>' in received
    undo = await database_sync_to_async(services.last_undoable)(match)
    await ben.send_json_to({"action": "undo", "change": str(undo.pk)})
    for communicator in (ana, ben):
        assert 'scores </span><span class="score">12<' in await communicator.receive_from(TIMEOUT)
    await ana.disconnect()
    await ben.disconnect()


async def test_undo_is_one_tap_for_your_own_count_and_asks_for_somebody_elses():
    """Issue 36: "Undo: Round 1, Cy: blank → 23 pips" on Ana's phone wiped Cy's count in
    one tap. Ana's one-tap Undo is for her own entry; Cy's is offered apart, and taking it
    back without the confirmation is refused with the question, changing nothing."""
    match = await new_match()
    ana, cy = await phone(match, "Ana", 0), await phone(match, "Cy", 2)
    await ana.send_json_to(entry(1, 0, {"kind": "count", "pips": 20}))
    await frames(ana, 2)
    await cy.receive_from(TIMEOUT)
    await cy.send_json_to(entry(1, 2, {"kind": "count", "pips": 23}))
    await frames(cy, 2)
    on_ana = await ana.receive_from(TIMEOUT)
    cys = (await history(match))[-1]
    assert "Undo: Round 1, Ana: blank → 20 pips</button>" in on_ana
    assert "Undo Cy's entry: Round 1, Cy: blank → 23 pips…</button>" in on_ana
    cys_change = await database_sync_to_async(services.last_undoable)(match)

    await ana.send_json_to({"action": "undo", "change": str(cys_change.pk)})
    question = await ana.receive_from(TIMEOUT)
    assert "Take back Cy&#x27;s count of 23 pips in round 1?" in question
    assert (
        f'data-undo="{{&quot;action&quot;:&quot;undo&quot;,&quot;change&quot;:{cys_change.pk}'
        in (question)
    )
    assert await cy.receive_nothing()
    assert (await history(match))[-1] == cys

    await ana.send_json_to({"action": "undo", "change": str(cys_change.pk), "confirm": True})
    for communicator in (ana, cy):
        pushed = await communicator.receive_from(TIMEOUT)
        assert '"visually-hidden">Round 1, Cy: not entered' in pushed
    assert (await history(match))[-1] == ("Ana", cys[2], {"kind": "blank"})
    await ana.disconnect()
    await cy.disconnect()


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ("not json", "That message could not be read"),
        (entry(1, 0, {"kind": "count", "pips": -3}), "Pips cannot be negative."),
        (entry(1, 0, {"kind": "count", "pips": 2000}), "2000 pips is more than a hand"),
        (entry(1, 7, {"kind": "out"}), "That seat is not at this match."),
        ({"action": "entry", "round": 1}, "That entry could not be read"),
        (
            {"action": "setting", "setting": "double_penalty", "value": "7", "was": "0"},
            "0 to 100 in steps of 5",
        ),
        (
            {"action": "setting", "setting": "highest_double", "value": "9", "was": "12"},
            "Only the house rules",
        ),
        ({"action": "undo", "change": "1"}, "There is nothing to undo."),
        ({"action": "shuffle"}, "That message could not be read"),
    ],
)
async def test_a_bad_message_changes_nothing_and_says_why(message, says):
    match = await new_match()
    ana = await phone(match, "Ana", 0)
    if isinstance(message, dict):
        await ana.send_json_to(message)
    else:
        await ana.send_to(text_data=message)
    received = html(await frames(ana, 2 if message != "not json" else 1))
    assert says in received
    assert await ana.receive_nothing()
    assert await history(match) == []
    assert not await database_sync_to_async(Entry.objects.exists)()
    await ana.disconnect()


async def test_two_players_out_in_a_round_is_refused_with_a_notice():
    match = await new_match()
    ana = await phone(match, "Ana", 0)
    await ana.send_json_to(entry(3, 1, {"kind": "out"}))
    await frames(ana, 2)
    await ana.send_json_to(entry(3, 2, {"kind": "out"}))
    notice, ack = await frames(ana, 2)
    said = "Ben already went out in round 3: only one player goes out in a round."
    assert said in notice
    assert json.loads(ack) == {"ack": json.loads(ack)["ack"], "outcome": "refused", "message": said}
    await ana.disconnect()


async def test_a_count_too_large_for_the_set_is_refused_with_its_sentence_in_the_ack():
    match = await new_match()
    ana = await phone(match, "Ana", 0)
    await ana.send_json_to(entry(1, 0, {"kind": "count", "pips": 99999}))
    notice, ack = await frames(ana, 2)
    said = "99999 pips is more than a hand from a double-12 set can hold with 0 doubles"
    assert said in notice and said in json.loads(ack)["message"]
    assert json.loads(ack)["outcome"] == "refused"
    assert not await database_sync_to_async(Entry.objects.exists)()
    await ana.disconnect()


async def test_a_reconnecting_phone_gets_the_current_sheet():
    match = await new_match()
    ana = await phone(match, "Ana", 0)
    await ana.disconnect()
    await database_sync_to_async(services.record_round)(
        match, 1, {0: None, 1: [(3, 4)], 2: [(0, 0)]}, by="table"
    )
    again = await phone(match, "Ana", 0)  # phone() checks the whole sheet comes first
    await again.send_json_to({"action": "sync"})
    assert (
        '"visually-hidden">Round 1, Ben: 4-3, scores </span><span class="score">7</span>'
        '<span class="visually-hidden">, total </span><span class="running">7<'
    ) in await again.receive_from(TIMEOUT)
    await again.disconnect()


async def test_who_may_connect():
    match = await new_match()
    for path, session_key in (
        (f"/ws/sheet/{match.code}/", None),  # has the link, has not said who they are
        ("/ws/sheet/nope/", await session_for(match, "Ana", 0)),
        ("/ws/sheet/view/nope/", None),
    ):
        communicator = await connect(path, session_key)
        await communicator.connect()
        assert await communicator.receive_output(TIMEOUT) == {
            "type": "websocket.close",
            "code": 4403,
        }
    tv = await connect(f"/ws/sheet/view/{match.viewer_code}/")
    await tv.connect()
    await tv.receive_from(TIMEOUT)
    await tv.send_json_to(entry(1, 0, {"kind": "out"}))
    assert "This is the read-only sheet" in await tv.receive_from(TIMEOUT)
    assert not await database_sync_to_async(Entry.objects.exists)()
    await tv.disconnect()
