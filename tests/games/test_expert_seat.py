"""The expert at a table: offered in the lobby, it plays its turns over the socket, and its
decision, made without the table's lock, is dropped when the table moved on meanwhile."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import selectors, services
from games.engine import Rules
from games.forms import parse_intent
from games.models import Move, Table
from tests.games.tables import first_legal_move, intent, view_message

from .conftest import Player, make_table


@pytest.mark.django_db
def test_the_lobby_offers_an_expert_bot_by_that_name():
    table, host = services.create_table(rules=Rules(), seat_count=4, host_name="Ana")
    lobby = view_message(table.code, host.token, table.host_token)
    assert "Add an expert bot" in lobby and "Add a strategic bot" in lobby
    seat = services.add_bot(table.code, host_token=table.host_token, level="expert")
    assert (seat.name, seat.bot_level) == ("Expert bot 1", "expert")


@pytest.mark.django_db(transaction=True)
async def test_an_expert_bot_plays_its_turns_of_a_round_over_the_socket():
    code, _, tokens = await database_sync_to_async(make_table)(
        humans=("Ana",),
        bots=("expert",),
        seed=7,  # no first turn of Ana's ends the round
    )
    ana = Player(code, tokens["Ana"])
    view = await ana.connect()
    while not view["game"]["round_over"]:  # Ana plays her first legal action on her turns
        game = view["game"]
        if game["turn"] == 0 and game["legal"]:
            await ana.send(intent(game["legal"][0], view["version"]))
        view = await ana.next_view(timeout=10)
    by_expert = await database_sync_to_async(
        Move.objects.filter(table__code=code, record__type="action", record__seat=1).count
    )()
    assert by_expert > 0
    await ana.close()


@pytest.mark.django_db
def test_a_bot_move_decided_before_the_table_moved_on_is_not_made():
    code, _, tokens = make_table(humans=("Ana",), bots=("greedy",), seed=7)
    services.connect(code, token=tokens["Ana"], host_token="", channel="socket-0")
    table = Table.objects.get(code=code)
    while table.game().round.turn == 0:  # Ana plays until it is the bot's turn
        services.act(
            code, token=tokens["Ana"], intent=parse_intent(first_legal_move(table, tokens["Ana"]))
        )
        table.refresh_from_db()
    turn = selectors.bot_turn(code)
    assert turn is not None and turn.level == "greedy"
    decided = turn.decide()
    assert services.play_bot_turn(code) is not None  # the table moves on meanwhile
    moves = Move.objects.filter(table__code=code).count()
    version = Table.objects.get(code=code).version

    outcome = services.make_bot_move(code, turn=turn, action=decided)
    assert outcome.version == version
    assert Move.objects.filter(table__code=code).count() == moves  # nothing made
