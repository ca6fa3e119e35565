"""Several daphne processes serving the same tables, on PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.parse
import urllib.request

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.sessions.backends.db import SessionStore

from games import sessions
from games.engine import replay
from games.engine.rules import Rules
from games.models import Move, Table
from tests.games.conftest import make_table

from .processes import Daphne, SocketPlayer, distinct_versions

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def two_servers(tmp_path):
    servers = [Daphne(tmp_path).start(), Daphne(tmp_path).start()]
    yield servers
    for server in servers:
        server.stop()


def four_people() -> tuple[str, dict[str, str]]:
    code, _, tokens = make_table(
        humans=("Ana", "Ben", "Cy", "Di"), bots=(), rules=Rules(highest_double=9, rounds=1)
    )
    return code, tokens


def log_of(view: dict) -> list:
    """What every seat's view at a version shows alike of the game (the log itself is in
    the regions' HTML, which a socket sends only where it changed)."""
    game = view["game"]
    keys = ("turn", "hand_sizes", "boneyard", "last_moves", "scores", "round")
    return [game[key] for key in keys]


async def test_four_clients_on_two_processes_see_the_moves_in_order(two_servers):
    code, tokens = await database_sync_to_async(four_people)()
    a, b = two_servers
    servers = (a, b, a, b)  # two players on each process
    names = ("Ana", "Ben", "Cy", "Di")
    players = [SocketPlayer(s, code, tokens[n]) for s, n in zip(servers, names, strict=True)]
    for player in players:
        await player.connect()
    finals = await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), timeout=120)
    table = await database_sync_to_async(Table.objects.get)(code=code)
    assert all(f["version"] == table.version for f in finals)

    # Every view is the whole table as it is now: a socket may skip a version that a newer
    # one overtook, but never goes back (docs/protocol.md).
    for seen in (distinct_versions(p.views) for p in players):
        assert seen == sorted(seen) and seen[-1] == table.version, "out of order"
    # Every client saw the same moves in the same order: the log at each version agrees.
    by_version = {}
    for player in players:
        for view in player.views:
            by_version.setdefault(view["version"], []).append(log_of(view))
    for version, logs in by_version.items():
        assert all(log == logs[0] for log in logs), f"clients disagree at version {version}"
    for player in players:
        await player.close()


async def test_a_killed_process_comes_back_and_the_game_goes_on_with_nothing_lost(two_servers):
    code, tokens = await database_sync_to_async(four_people)()
    a, b = two_servers
    on_a = [SocketPlayer(a, code, tokens[n]) for n in ("Ana", "Cy")]
    on_b = [SocketPlayer(b, code, tokens[n]) for n in ("Ben", "Di")]
    players = on_a + on_b
    for player in players:
        await player.connect()

    # Play until a dozen moves are acknowledged, then crash server B mid-round.
    def twelve_in(view):
        return view["version"] >= 13 or view["game"]["round_over"]

    await asyncio.wait_for(asyncio.gather(*(p.play(until=twelve_in) for p in players)), 60)
    acknowledged = max(p.views[-1]["version"] for p in players)
    hands = {p.token: p.views[-1]["game"]["hand"] for p in on_b}
    b.kill()
    for player in on_b:
        with pytest.raises(Exception):  # noqa: B017, PT011 - the socket died with its server
            await player.next_view(timeout=5)
    b.start()  # the same port, a fresh process: nothing but the database remembers the game

    for player in on_b:
        await player.connect()
        view = await player.next_view()
        assert view["version"] == acknowledged, "the state is not the last acknowledged one"
        assert view["game"]["hand"] == hands[player.token]
    await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), timeout=120)

    records = await database_sync_to_async(
        lambda: list(Move.objects.filter(table__code=code).values_list("number", "record"))
    )()
    numbers = [n for n, _ in records]
    assert numbers == list(range(1, len(numbers) + 1)), "a gap in the move log"
    final = replay([r for _, r in records])[-1]
    assert final.round.result is not None
    assert [list(t) for t in final.round.hands[0]] == on_a[0].views[-1]["game"]["hand"]
    for player in players:
        await player.close()


async def test_an_idle_socket_still_gets_the_next_view_after_the_redis_read_timeout(two_servers):
    """redis-py 8 times a socket out after 5 s, as long as channels-redis blocks on Redis: an
    idle table must not lose its sockets (channels_redis#422; see config/settings.py)."""
    code, tokens = await database_sync_to_async(four_people)()
    a, _ = two_servers
    watcher = SocketPlayer(a, code, tokens["Ben"])
    mover = SocketPlayer(a, code, tokens["Ana"])
    await watcher.connect()
    first = await watcher.next_view()
    await asyncio.sleep(7)
    await mover.connect()  # Ana arriving is announced to every socket of the table
    assert (await watcher.next_view())["version"] == first["version"]
    await watcher.close()
    await mover.close()


async def test_a_plain_group_send_from_outside_reaches_every_socket_on_both_processes(
    two_servers,
):
    """The stock Channels idiom, as a view, a command or the admin would use it: a message
    to the table's group from any process reaches every socket of the table, each of which
    sends its seat the view."""
    code, tokens = await database_sync_to_async(four_people)()
    a, b = two_servers
    players = [SocketPlayer(a, code, tokens["Ana"]), SocketPlayer(b, code, tokens["Ben"])]
    for player in players:
        await player.connect()
        await player.next_view()
    await asyncio.sleep(0.5)  # the second arrival's views have gone out
    for player in players:
        while True:  # drop what is still on its way
            try:
                await player.next_view(timeout=0.5)
            except TimeoutError:
                break

    await get_channel_layer().group_send(f"table-{code}", {"type": "table.changed"})

    for player in players:
        view = await player.next_view(timeout=5)
        assert view["type"] == "view" and view["game"]["hand"]
    for player in players:
        await player.close()


def post_as_host(server: Daphne, code: str, host_token: str, path: str, data: dict) -> int:
    """POST one of the host's controls to a daphne, as the host's browser would: with a
    session that holds the host's token and a CSRF cookie and header."""
    session = SessionStore()
    sessions.remember_host(session, code, host_token)
    session.save()
    secret = "s" * 32  # a CSRF secret of the cookie's form, sent back as the header
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}{path}",
        data=urllib.parse.urlencode(data).encode(),
        headers={
            "Cookie": f"sessionid={session.session_key}; csrftoken={secret}",
            "X-CSRFToken": secret,
            "Origin": f"http://127.0.0.1:{server.port}",
        },
    )
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as answer:
        return answer.code


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


async def test_a_stand_in_put_in_from_a_page_on_another_process_plays_the_turn(two_servers):
    """The host hands their own seat to a bot on their turn, through a page served by the
    other process: the process whose sockets hear the announcement plays the turn."""
    code, host_token, tokens = await database_sync_to_async(make_table)(
        humans=("Ana", "Bea"), bots=(), rules=Rules(highest_double=9, rounds=1)
    )
    a, b = two_servers
    ana, bea = SocketPlayer(a, code, tokens["Ana"]), SocketPlayer(a, code, tokens["Bea"])
    for player in (ana, bea):
        await player.connect()
    view = await bea.next_view()
    assert view["game"]["turn"] == 0, "Ana plays first"
    await asyncio.sleep(0.5)  # the arrivals' views have gone out
    while True:
        try:
            view = await bea.next_view(timeout=0.5)
        except TimeoutError:
            break
    version = view["version"]

    status = await database_sync_to_async(post_as_host)(
        b, code, host_token, f"/t/{code}/stand-in/", {"position": "0", "level": "greedy"}
    )
    assert status == 302

    while view["version"] == version:  # the stand-in's announcement, then the bot's move
        view = await bea.next_view(timeout=10)
    made = await database_sync_to_async(
        lambda: [m.record for m in Move.objects.filter(table__code=code, version__gt=version)]
    )()
    actions = [line for line in made if line["type"] == "action"]
    assert actions and all(line["seat"] == 0 for line in actions), made
    for player in (ana, bea):
        await player.close()
