"""Each seat's last move (games.screens.last_moves): the sentence every screen shows and a
screen reader hears, the tiles marked on the board, and the markers the sentences say
went on or came off, worked out from the engine's public log."""

from __future__ import annotations

import json
import random
import re
from itertools import product

import pytest
from channels.db import database_sync_to_async

from games import screens, services
from games.engine import Event, Rules, apply, legal_actions, new_game, view_for
from games.forms import parse_intent as parse
from tests.games.conftest import Player, make_table
from tests.games.tables import intent, started_table, view_message

NAMES = {0: "Cara", 1: "Dev", 2: "Eli"}


def seen(log: list[Event], turn: int, *, players: int = 3, rules: Rules | None = None):
    """A spectator's view of a fresh game with ``log`` as its round's public log."""
    view = view_for(new_game(rules or Rules(highest_double=6), players, seed=1), None)
    return view._replace(log=tuple(log), turn=turn)


def said(view) -> dict[int, str]:
    return {move.seat: move.text for move in screens.last_moves(view, NAMES)}


def test_a_tile_on_the_mexican_train_is_said_with_the_tile_read_high_first():
    (move,) = screens.last_moves(seen([Event(0, "play", (3, 7), 3, 0)], turn=1), NAMES)
    assert move.text == "Cara played 7-3 on the Mexican train."
    assert move.tiles == ((3, 7),) and move.at == 0


def test_a_draw_that_does_not_play_passes_and_puts_the_marker_on():
    view = seen([Event(0, "play", (3, 7), 3, 0), Event(1, "draw", ends=(6, 7))], turn=2)
    assert said(view)[1] == "Dev drew and passed: a marker is on Dev's train."


def test_a_draw_whose_tile_is_still_to_be_played_says_only_the_draw():
    view = seen([Event(1, "draw", ends=(6,))], turn=1)
    assert said(view)[1] == "Dev drew a tile."


def test_a_drawn_tile_played_on_another_train_leaves_the_marker_unsaid():
    view = seen(
        [
            Event(1, "pass"),
            Event(2, "play", (1, 6), 3, 0),
            Event(1, "draw"),
            Event(1, "play", (1, 5), 2, 0),
        ],
        turn=2,
    )
    assert said(view)[1] == "Dev drew and played 5-1 on Eli's train."


def test_a_pass_puts_the_marker_on_and_a_tile_on_ones_own_train_takes_it_off():
    passed = [Event(0, "play", (2, 6), 3, 0), Event(1, "pass", ends=(6, 2))]
    assert said(seen(passed, turn=2))[1] == "Dev passed: a marker is on Dev's train."
    later = passed + [Event(2, "play", (2, 4), 3, 0), Event(0, "play", (5, 6), 0, 0)]
    off = later + [Event(1, "play", (3, 6), 1, 0)]
    assert said(seen(off, turn=2))[1] == "Dev played 6-3 on their own train: Dev's marker is off."


def test_a_tile_on_ones_own_unmarked_train_says_nothing_of_a_marker():
    view = seen([Event(1, "play", (3, 6), 1, 0)], turn=2)
    assert said(view)[1] == "Dev played 6-3 on their own train."


def test_a_first_turn_line_is_one_sentence_and_each_of_its_tiles_is_marked():
    line = [Event(0, "play", (1, 6), 0, 0), Event(0, "play", (1, 4), 0, 0)]
    line += [Event(0, "play", (4, 4), 0, 0), Event(0, "play", (2, 4), 3, 0)]
    (move,) = screens.last_moves(seen(line, turn=1), NAMES)
    assert (
        move.text
        == "Cara played 6-1, 4-1 and 4-4 on their own train and played 4-2 on the Mexican train."
    )
    assert move.tiles == ((1, 6), (1, 4), (4, 4), (2, 4))


def test_hunting_for_the_engine_puts_no_marker_on():
    rules = Rules(highest_double=6, engine_from_hand=True)
    log = [Event(0, "draw"), Event(1, "draw"), Event(2, "draw"), Event(0, "draw")]
    log += [Event(0, "place_engine", (6, 6))]
    assert said(seen(log, turn=1, rules=rules)) == {
        0: "Cara drew a tile and placed the engine 6-6.",
        1: "Dev drew a tile.",
        2: "Eli drew a tile.",
    }


def test_each_seat_has_its_latest_turn_only_the_newest_first():
    log = [Event(0, "play", (1, 6), 3, 0), Event(1, "play", (1, 2), 3, 0)]
    log += [Event(2, "play", (2, 3), 3, 0), Event(0, "play", (3, 4), 3, 0)]
    moves = screens.last_moves(seen(log, turn=1), NAMES)
    assert [(m.seat, m.at, m.tiles) for m in moves] == [
        (0, 3, ((3, 4),)),
        (2, 2, ((2, 3),)),
        (1, 1, ((1, 2),)),
    ]


def test_the_moves_said_agree_with_the_markers_the_engine_puts_on_and_takes_off():
    """Over whole rounds played at random in every variant, a marker that went on or came off
    in a move is said in that move's sentence, and a sentence never says one that did not."""
    variants = (
        Rules(highest_double=9),
        Rules(highest_double=9, variant="chicken_foot"),
        Rules(highest_double=9, variant="cuban", draw_before_passing=False),
        Rules(highest_double=6, engine_from_hand=True, first_turn="one_tile"),
    )
    for rules, seed in product(variants, (11, 12, 13)):
        chance = random.Random(seed)
        game = new_game(rules, 3, seed=seed)
        while not game.round.is_over:
            seat = game.round.turn
            before = [t.marked for t in game.round.trains]
            game = apply(game, chance.choice(legal_actions(game, seat)))
            after = [t.marked for t in game.round.trains]
            text = said(view_for(game, None))[seat]
            who = NAMES[seat]
            assert (f"a marker is on {who}'s train" in text) == (
                after[seat] and (not before[seat] or "passed" in text)
            ), text
            assert (f"{who}'s marker is off" in text) == (before[seat] and not after[seat]), text
            assert before[:seat] + before[seat + 1 :] == after[:seat] + after[seat + 1 :]


@pytest.mark.django_db
def test_every_screen_shows_the_last_moves_and_marks_their_tiles_alike():
    """The last moves are in the regions every seat shares and in the view's data; each
    screen is sent every seat's, its own included, for its page to leave that one out."""
    table, tokens = started_table()
    while True:  # the first legal moves until one lays a tile
        game = screens.screen(table.code, None).data["game"]
        mover = game["turn"]
        legal = screens.screen(table.code, tokens[mover]).data["game"]["legal"]
        action = next((a for a in legal if a["kind"] == "play"), legal[0])
        services.act(table.code, token=tokens[mover], intent=parse(intent(action, table.version)))
        table.refresh_from_db()
        if action["kind"] == "play":
            break

    data = screens.screen(table.code, None).data["game"]
    move = data["last_moves"][0]
    assert move["seat"] == mover and move["tiles"]
    assert re.fullmatch(r"(Ana|Ben) (drew and )?played \d+-\d+ on .+\.", move["text"])
    for token in [*tokens.values(), None]:
        view = json.loads(view_message(table.code, token))
        assert view["game"]["last_moves"] == data["last_moves"]
        lines = re.findall(r'<li class="last-move" data-seat="(\d)">([^<]*)</li>', view["html"])
        assert lines[0] == (str(mover), move["text"].replace("'", "&#x27;"))
        assert len(lines) == len(data["last_moves"])
        marked = re.findall(
            r'class="tile tile--laid[^"]* tile--last" data-last-by="(\d)"', view["html"]
        )
        assert marked == [str(mover)] * len(move["tiles"])


@pytest.mark.django_db(transaction=True)
async def test_over_the_socket_a_bots_move_reaches_a_seat_and_a_spectator_as_its_last_move():
    # A fixed deal: in about one double-six deal in fifteen, Ana's first-turn line takes
    # her whole hand and the bot never moves.
    code, _, tokens = await database_sync_to_async(make_table)(
        humans=("Ana",), bots=("greedy",), seed=0
    )
    ana, watcher = Player(code, tokens["Ana"]), Player(code, None)
    view = await ana.connect()
    await watcher.connect()
    while not _bot_moved(view):  # Ana's turn (a line, a draw) until the bot has moved
        game = view["game"]
        if game["turn"] == 0 and game["legal"]:
            await ana.send(intent(game["legal"][0], view["version"]))
        view = await ana.next_view(timeout=10)
    for player in (ana, watcher):
        seen = player.view
        while not _bot_moved(seen):
            seen = await player.next_view(timeout=10)
        moves = seen["game"]["last_moves"]
        assert [m["seat"] for m in moves] == [1, 0]
        assert moves[0]["text"].startswith("Greedy bot 1 ")
        top = re.search(r'<header id="table-top".*?</header>', seen["html"], re.S).group(0)
        assert [text for _, text in re.findall(r'data-seat="(\d)">([^<]*)<', top)] == [
            m["text"].replace("'", "&#x27;") for m in moves
        ]
    await ana.close()
    await watcher.close()


def _bot_moved(view: dict) -> bool:
    moves = view["game"]["last_moves"]
    return bool(moves) and moves[0]["seat"] == 1
