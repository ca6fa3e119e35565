"""The table's websocket: a whole round, refusals, races, reconnects and what each seat sees."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db.models import F

from games import services
from games.engine import replay
from games.models import Move, Table
from scoring.models import Entry
from scoring.services import compute_sheet

from .conftest import Player, make_table
from .tables import intent

pytestmark = pytest.mark.django_db(transaction=True)


async def play_round(players: dict[int, Player], choose=lambda legal: legal[0]):
    """Each person plays their turns as the views come, until the round is over."""

    async def seat_loop(seat: int, player: Player):
        acted = set()
        while True:
            view = await player.next_view(timeout=10)
            game = view["game"]
            if game["round_over"]:
                return view
            if game["turn"] == seat and game["legal"] and view["version"] not in acted:
                acted.add(view["version"])
                await player.send(intent(choose(game["legal"]), view["version"]))

    return await asyncio.gather(*(seat_loop(s, p) for s, p in players.items()))


async def test_a_whole_round_between_two_people_and_two_bots_ends_on_the_score_sheet():
    code, _, tokens = await database_sync_to_async(make_table)()
    ana, ben = Player(code, tokens["Ana"]), Player(code, tokens["Ben"])
    await ana.connect()
    await ben.connect()
    final = await play_round({0: ana, 1: ben})
    game = final[0]["game"]
    assert game["round_over"] and len(game["scores"]) == 1

    table = await database_sync_to_async(Table.objects.get)(code=code)
    sheet = await database_sync_to_async(lambda: compute_sheet(table.match))()
    entries = await database_sync_to_async(Entry.objects.filter(round__match=table.match).count)()
    assert entries == 4
    assert list(sheet.totals) == game["scores"][0]
    await ana.close()
    await ben.close()


async def test_every_accepted_action_is_in_the_move_log_and_replaying_it_gives_the_state():
    code, _, tokens = await database_sync_to_async(make_table)()
    ana, ben = Player(code, tokens["Ana"]), Player(code, tokens["Ben"])
    await ana.connect()
    await ben.connect()
    await play_round({0: ana, 1: ben})
    records = await database_sync_to_async(
        lambda: list(Move.objects.filter(table__code=code).values_list("record", flat=True))
    )()
    states = replay(records)
    view = ana.view["game"]
    assert states[-1].scores == tuple(tuple(s) for s in view["scores"])
    assert [list(t) for t in states[-1].round.hands[0]] == view["hand"]
    numbers = await database_sync_to_async(
        lambda: list(Move.objects.filter(table__code=code).values_list("number", flat=True))
    )()
    assert numbers == list(range(1, len(numbers) + 1))  # no gap
    await ana.close()
    await ben.close()


async def test_an_illegal_action_is_refused_with_the_rule_and_changes_nothing():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    view = await ana.connect()
    hand = view["game"]["hand"]
    await ana.send({"type": "play", "version": view["version"], "tile": hand[0], "train": 1})
    error = await ana.next_message()
    assert error["type"] == "error" and error["code"] == "refused"
    assert "closed to you" in error["message"] or "does not match" in error["message"]
    assert "Ben" in error["message"] or "does not match" in error["message"]
    assert await ana.socket.receive_nothing(timeout=0.2)
    table = await database_sync_to_async(Table.objects.get)(code=code)
    assert table.version == view["version"]
    await ana.close()


async def test_an_action_out_of_turn_or_for_another_seat_is_refused():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana, ben = Player(code, tokens["Ana"]), Player(code, tokens["Ben"])
    await ana.connect()
    view = await ben.connect()
    assert view["game"]["turn"] == 0
    await ben.send({"type": "draw", "version": view["version"]})
    error = await ben.next_message()
    assert error["message"] == "It is not your turn: Ana is to play."
    # A message cannot name another seat: the seat is the socket's own, whatever it says.
    await ben.send({"type": "draw", "version": view["version"], "seat": 0})
    assert (await ben.next_message())["message"] == "It is not your turn: Ana is to play."
    spectator = Player(code, None)
    await spectator.connect()
    await spectator.send({"type": "draw", "version": view["version"]})
    assert (await spectator.next_message())["code"] == "spectator"
    table = await database_sync_to_async(Table.objects.get)(code=code)
    assert table.version == view["version"]
    for p in (ana, ben, spectator):
        await p.close()


async def test_two_actions_sent_at_once_for_the_same_turn_apply_exactly_once():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    first, second = Player(code, tokens["Ana"]), Player(code, tokens["Ana"])
    view = await first.connect()
    legal = view["game"]["legal"][0]
    await second.connect()  # the same seat on a second screen (the first one is replaced)
    await second.drain()
    message = intent(legal, view["version"])
    await asyncio.gather(second.send(message), second.send(message))
    # How many views arrive depends on timing (a view already sent is not sent again, and
    # the replaced screen's leaving is a change of its own): wait for the move's view.
    before = len(second.received)

    def errors() -> list[dict]:
        return [m for m in second.received[before:] if m["type"] == "error"]

    while not (errors() and second.view["version"] == view["version"] + 1):
        await second.next_message()
    await second.drain()
    [error] = errors()
    assert error["code"] in ("stale", "refused")
    table = await database_sync_to_async(Table.objects.get)(code=code)
    assert table.version == view["version"] + 1
    await second.close()


async def test_a_second_screen_replaces_the_first_which_stops_and_says_why():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    first, second = Player(code, tokens["Ana"]), Player(code, tokens["Ana"])
    await first.connect()
    await second.connect()
    while True:
        message = await first.next_message()
        if message["type"] == "replaced":
            break
    assert "another screen" in message["message"]
    output = await first.socket.receive_output(timeout=1)
    assert output == {"type": "websocket.close", "code": 4409}
    await second.close()


async def test_a_reconnecting_seat_gets_the_current_view():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana, ben = Player(code, tokens["Ana"]), Player(code, tokens["Ben"])
    view = await ana.connect()
    await ben.connect()
    await ben.close()
    await ana.send(intent(view["game"]["legal"][0], view["version"]))
    moved = await ana.next_view()
    while moved["version"] == view["version"]:  # a view for Ben leaving came first
        moved = await ana.next_view()
    back = Player(code, tokens["Ben"])
    again = await back.connect()
    assert again["version"] >= moved["version"]
    assert again["game"]["hand_sizes"] == moved["game"]["hand_sizes"]
    await ana.close()
    await back.close()


async def test_a_plain_group_send_from_outside_reaches_every_socket_of_the_table():
    """The stock Channels idiom, as a view, a command, the admin or a shell would use it: a
    message to the table's group, with or without more in it, has every socket send its
    seat the view, and the sockets go on working."""
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana, ben, watcher = Player(code, tokens["Ana"]), Player(code, tokens["Ben"]), Player(code, None)
    for player in (ana, ben, watcher):
        await player.connect()
    for player in (ana, ben, watcher):
        await player.drain()

    layer = get_channel_layer()
    await layer.group_send(f"table-{code}", {"type": "table.changed"})
    await layer.group_send(f"table-{code}", {"type": "table.changed", "why": "an admin's edit"})

    for player in (ana, ben, watcher):
        assert (await player.next_view())["type"] == "view"
        assert (await player.next_view())["type"] == "view"
    view = ana.view
    await ana.send(intent(view["game"]["legal"][0], view["version"]))
    assert (await ben.next_view())["version"] == view["version"] + 1
    for player in (ana, ben, watcher):
        await player.close()


async def test_a_socket_that_missed_a_change_gets_the_view_when_its_page_pings():
    """A change whose message never reached the socket (the channel layer drops messages
    to a socket far behind): the page pings after a silence, and gets the view then."""
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    view = await ana.connect()
    await ana.drain()
    await database_sync_to_async(
        lambda: Table.objects.filter(code=code).update(revision=F("revision") + 1)
    )()
    await ana.send({"type": "ping"})
    assert (await ana.next_message())["type"] == "pong"
    assert (await ana.next_message())["version"] == view["version"]
    await ana.send({"type": "ping"})  # nothing new since: only the pong
    assert (await ana.next_message())["type"] == "pong"
    assert await ana.socket.receive_nothing(timeout=0.2)
    await ana.close()


async def test_a_stale_action_is_refused_and_the_current_view_sent():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    view = await ana.connect()
    await ana.send(intent(view["game"]["legal"][0], view["version"] - 1))
    error = await ana.next_message()
    assert error["code"] == "stale"
    fresh = await ana.next_view()
    assert fresh["version"] == view["version"]
    await ana.close()


# Every drawn domino carries its tile in a data attribute or its SVG's label.
TILE_IN_HTML = re.compile(r'(?:data-tile|aria-label)="(\d+)-(\d+)"')
LAID_IN_HTML = re.compile(r'tile--laid[^"]*"(?: data-last-by="\d+")? data-tile="(\d+)-(\d+)"')


def tiles_shown(message: dict) -> set[tuple[int, int]]:
    """Every tile a message shows: in its data and in its HTML."""
    found = set()
    game = message.get("game") or {}
    for key in ("hand",):
        found.update((min(t), max(t)) for t in game.get(key) or [])
    if game.get("drawn"):
        found.add(tuple(sorted(game["drawn"])))
    for action in game.get("legal", []):
        if action.get("tile"):
            found.add(tuple(sorted(action["tile"])))
    for a, b in TILE_IN_HTML.findall(message.get("html", "")):
        found.add((min(int(a), int(b)), max(int(a), int(b))))
    for hand in hands_laid_down(message).values():
        found.update(hand)
    return found


# The round's card lays each hand down once the round is over: a row per seat, a span a tile.
HELD_ROW = re.compile(r'data-held-by="(\d+)">(.*?)</tr>', re.S)
HELD_TILE = re.compile(r'data-held="(\d+)-(\d+)"')


def hands_laid_down(message: dict) -> dict[int, list[tuple[int, int]]]:
    """The hands a message's round card shows, by seat, each tile low end first."""
    return {
        int(seat): [(min(int(a), int(b)), max(int(a), int(b))) for a, b in HELD_TILE.findall(row)]
        for seat, row in HELD_ROW.findall(message.get("html", ""))
    }


async def test_over_a_whole_game_no_seat_sees_another_hand_or_the_boneyard():
    import random

    code, _, tokens = await database_sync_to_async(make_table)()
    ana, ben = Player(code, tokens["Ana"]), Player(code, tokens["Ben"])
    watcher = Player(code, None)
    await ana.connect()
    await ben.connect()
    await watcher.connect()
    rng = random.Random(5)
    await play_round({0: ana, 1: ben}, choose=rng.choice)
    await watcher.drain()
    table = await database_sync_to_async(Table.objects.get)(code=code)
    moves = await database_sync_to_async(list)(table.moves.values_list("record", flat=True))
    held = {r["round"]: r["hands"] for r in moves if r["type"] == "round_end"}
    assert table.deal_secret and not table.revealed_secret  # a round of two: not over
    # What each seat could never rightly see: the tiles the others held and the boneyard, at
    # any moment, less the tiles that had reached the table by then; once the round is
    # over, every hand is laid down, exactly as the engine holds it.
    cards = 0
    for seat, player in ((0, ana), (1, ben), (None, watcher)):
        for message in player.received:
            assert table.deal_secret not in json.dumps(message)  # revealed only at the end
            if message["type"] != "view" or not message.get("game"):
                continue
            laid_down = hands_laid_down(message)
            if message["game"]["round_over"]:
                hands = held[message["game"]["round"]]
                assert laid_down == {s: [tuple(t) for t in hand] for s, hand in enumerate(hands)}
                cards += 1
                continue
            assert laid_down == {}
            shown = tiles_shown(message)
            on_table = {  # the tiles laid in the lanes this message draws
                (min(int(a), int(b)), max(int(a), int(b)))
                for a, b in LAID_IN_HTML.findall(message["html"])
            }
            own = {tuple(t) for t in message["game"]["hand"] or []}
            if seat is None:
                assert message["game"]["hand"] is None
                assert own == set()
            assert own <= shown  # the parsing sees the tiles that are there
            # Each round's double is public: the score sheet labels its rows with them.
            round_doubles = {(d, d) for d in range(message["game"]["rounds"])}
            assert shown <= on_table | own | round_doubles
    assert cards >= 3  # each seat and the spectator saw the round's card
    await ana.close()
    await ben.close()
    await watcher.close()


async def test_malformed_messages_get_a_clear_error_and_change_nothing():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    view = await ana.connect()
    for bad, expected in [
        ("not json", "JSON objects"),
        (json.dumps([1, 2]), "JSON object with a type"),
        (json.dumps({"type": "fly"}), "Unknown message type"),
        (json.dumps({"type": "draw"}), "which version"),
        (json.dumps({"type": "play", "version": 1, "tile": "12-5", "train": 0}), "two numbers"),
        (json.dumps({"type": "line", "version": 1, "plays": []}), "list of 1 to"),
    ]:
        await ana.socket.send_to(text_data=bad)
        error = await ana.next_message()
        assert error["code"] == "bad_message" and expected in error["message"], error
    await ana.socket.send_to(bytes_data=b"\x00\x01")
    assert "binary" in (await ana.next_message())["message"]
    table = await database_sync_to_async(Table.objects.get)(code=code)
    assert table.version == view["version"]
    await ana.close()


async def test_an_oversized_message_closes_the_socket():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    await ana.socket.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 10_000}))
    output = await ana.socket.receive_output(timeout=1)
    assert output == {"type": "websocket.close", "code": 4413}


async def test_a_flood_of_messages_closes_the_socket():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    for _ in range(60):
        await ana.socket.send_to(text_data='{"type": "ping"}')
    closed = None
    for _ in range(80):
        output = await ana.socket.receive_output(timeout=1)
        if output["type"] == "websocket.close":
            closed = output
            break
    assert closed == {"type": "websocket.close", "code": 4429}


async def test_an_unknown_table_is_refused_for_good():
    spectator = Player("nosuchtable", None)
    connected, _ = await spectator.socket.connect()
    assert connected
    message = json.loads(await spectator.socket.receive_from())
    assert message["code"] == "refused"
    assert await spectator.socket.receive_output(timeout=1) == {
        "type": "websocket.close",
        "code": 4404,
    }


async def test_pages_reloading_as_the_match_starts_never_show_a_seat_as_away(settings):
    """Issue 36: when the host starts, every lobby page reloads into the game, closing its
    socket and opening another; the others read "who has lost the connection" (and a
    screen reader's log said it). A seat is told away only after SEAT_AWAY_AFTER, and not
    at all when its page is back by then; a page that stays gone is told away after it."""
    settings.SEAT_AWAY_AFTER = 0.5
    code, host_token, tokens = await database_sync_to_async(make_table)(bots=(), start=False)
    ana, ben = Player(code, tokens["Ana"]), Player(code, tokens["Ben"])
    await ana.connect()
    await ben.connect()
    await database_sync_to_async(services.start)(code, host_token=host_token)
    for page in (ana, ben):
        while (await page.next_view())["status"] != "playing":
            pass
    await ana.close()  # the host's page reloads first
    await ben.close()
    ben = Player(code, tokens["Ben"])
    await ben.connect()
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    await asyncio.sleep(1)  # past the grace: the old sockets' seats are taken again
    await ben.drain()
    seen = " ".join(view["html"] for view in ben.received if view["type"] == "view")
    assert "lost the connection" not in seen and 'aria-label="away"' not in seen
    assert all(seat["connected"] for seat in ben.view["seats"])

    await ana.close()  # gone for good: said once the grace is over
    await asyncio.sleep(1)
    await ben.drain()
    assert 'aria-label="away"' in ben.view["html"]
    assert [seat["connected"] for seat in ben.view["seats"]] == [False, True]
    await ben.close()
