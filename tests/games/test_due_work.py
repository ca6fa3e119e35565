"""What a committed change leaves due (a bot's turn, the next round's countdown) starts
whoever made the change: a socket's move, a page, the admin or a shell. Every announcement
says what is due, and the table's sockets start it (games.consumers.after)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client

from games import services, sessions
from games.models import Move, Table, TableSeat

from .conftest import Player, make_table

pytestmark = pytest.mark.django_db(transaction=True)


def host_client(code: str, host_token: str) -> Client:
    client = Client()
    session = client.session
    sessions.remember_host(session, code, host_token)
    session.save()
    client.cookies["sessionid"] = session.session_key
    return client


async def two_at_the_table() -> tuple[str, str, Player, Player]:
    """Ana (the host, first to play) and Bea, each at a socket, Ana's turn."""
    code, host_token, tokens = await database_sync_to_async(make_table)(
        humans=("Ana", "Bea"), bots=()
    )
    ana, bea = Player(code, tokens["Ana"]), Player(code, tokens["Bea"])
    for player in (ana, bea):
        first = await player.connect()
    assert first["game"]["turn"] == 0, "Ana plays first"
    return code, host_token, ana, bea


async def a_move_for_ana(watcher: Player, code: str, version: int) -> None:
    """Wait for a view past ``version`` (moves alone change it), then check that the moves
    it shows were Ana's, made by the bot in her seat."""
    view = await watcher.next_view()
    while view["version"] == version:
        view = await watcher.next_view(timeout=2)
    made = await database_sync_to_async(
        lambda: [m.record for m in Move.objects.filter(table__code=code, version__gt=version)]
    )()
    actions = [line for line in made if line["type"] == "action"]
    assert actions and all(line["seat"] == 0 for line in actions), made


async def test_a_stand_in_put_in_from_the_page_on_the_persons_turn_plays_it(settings):
    settings.BOT_TURN_DELAY = 0.2
    code, host_token, ana, bea = await two_at_the_table()
    version = (await bea.drain())["version"]
    host = await database_sync_to_async(host_client)(code, host_token)

    response = await sync_to_async(host.post)(
        f"/t/{code}/stand-in/", {"position": "0", "level": "greedy"}
    )
    assert response.status_code == 302

    # The announcement of the stand-in, then the bot's move for Ana, with no socket acting.
    await a_move_for_ana(bea, code, version)
    assert (
        await database_sync_to_async(
            lambda: TableSeat.objects.get(table__code=code, position=0).stand_in
        )()
        == "greedy"
    )


async def test_a_stand_in_put_in_from_a_shell_with_a_plain_announcement_plays(settings):
    """The admin or a shell may change a row and send the stock group message alone: the
    sockets read what is due."""
    code, _, ana, bea = await two_at_the_table()
    version = (await bea.drain())["version"]
    await database_sync_to_async(
        lambda: TableSeat.objects.filter(table__code=code, position=0).update(stand_in="greedy")
    )()
    await get_channel_layer().group_send(f"table-{code}", {"type": "table.changed"})

    await a_move_for_ana(bea, code, version)


async def test_the_next_rounds_countdown_is_kept_by_a_socket_that_hears_of_the_round_end(
    settings,
):
    """A round ended by a service that no socket called (here, a shell playing the bots'
    turns) still deals the next round when its countdown runs out."""
    settings.NEXT_ROUND_COUNTDOWN = 0.3
    code, _, tokens = await database_sync_to_async(make_table)(
        humans=("Ana",), bots=("greedy",), start=True
    )
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    await database_sync_to_async(
        lambda: TableSeat.objects.filter(table__code=code, position=0).update(stand_in="greedy")
    )()

    def play_the_round_from_a_shell() -> None:
        while (outcome := services.play_bot_turn(code)) is not None and outcome.bot_next:
            pass

    await database_sync_to_async(play_the_round_from_a_shell)()
    table = await database_sync_to_async(Table.objects.get)(code=code)
    assert table.next_round_at is not None, "the shell's moves ended the round"
    await ana.drain()
    view = ana.view
    while view["game"]["round"] == 1:
        view = await ana.next_view(timeout=3)
    assert view["game"]["round"] == 2
