"""A socket's view message: the page's own data, with the regions drawn for that seat."""

from __future__ import annotations

import json
import re
from unittest.mock import patch

import pytest

from games import models, screens, services
from games.engine import Rules
from games.forms import parse_intent as parse
from tests.games.tables import first_legal_move, started_table, view_message

pytestmark = pytest.mark.django_db

NAMES = ['Zoë "the train"', "<b>Ana</b>", "Ren 🚂", "O'Neil\\"]


def test_a_view_message_is_the_json_of_the_whole_view_whatever_the_names_hold():
    """Names with quotes, markup, backslashes and characters outside ASCII come through
    the view's JSON and its regions exactly, escaped in the HTML."""
    table, host = services.create_table(
        rules=Rules(highest_double=6, rounds=2), seat_count=4, host_name=NAMES[0]
    )
    tokens = [host.token] + [services.join(table.code, name=name).token for name in NAMES[1:]]
    services.start(table.code, host_token=table.host_token)

    for token in [*tokens, None]:
        text = view_message(table.code, token)
        view = json.loads(text)
        assert 'id="table-board"' in view["html"]  # a region all seats share
        assert 'id="table-dock"' in view["html"]  # and one of the seat's own
        assert "Zoë &quot;the train&quot;" in view["html"]
        assert "&lt;b&gt;Ana&lt;/b&gt;" in view["html"]
        assert [s["name"] for s in view["seats"]] == NAMES
        page = screens.screen(table.code, token).data
        assert view["whole"] is True  # a view drawn for no socket holds every region
        assert {key: value for key, value in view.items() if key not in ("html", "whole")} == page


def test_a_view_message_holds_the_same_data_as_the_page_through_a_round_and_its_end():
    """After each move, each seat's message (and a spectator's) says what the page's data
    says, and the round's end brings the score sheet."""
    table, tokens = started_table()
    over = False
    while not over:
        table.refresh_from_db()
        views = []
        for token in [*tokens.values(), None]:
            view = json.loads(view_message(table.code, token))
            page = screens.screen(table.code, token).data
            assert view["whole"] is True  # a view drawn for no socket holds every region
            assert {
                key: value for key, value in view.items() if key not in ("html", "whole")
            } == page
            assert view["game"] is None or view["game"]["seat"] == page["seat"]
            views.append(view)
        over = views[-1]["game"]["round_over"]  # the spectator's
        if not over:
            seat = tokens[views[-1]["game"]["turn"]]
            services.act(table.code, token=seat, intent=parse(first_legal_move(table, seat)))
    # The round's end, with its score sheet: the round's scores and the totals.
    sheet = re.search(r'<section id="table-sheet".*?</section>', views[0]["html"], re.S).group(0)
    assert "<tfoot>" in sheet and all(s["name"] in sheet for s in views[0]["seats"])


def test_a_refused_action_leaves_the_stand_in_as_it_was():
    """A person back from a stand-in bot gets the seat back as they act; when the action is
    refused, that rolls back, and the screens go on showing the bot standing in."""
    table, host = services.create_table(
        rules=Rules(highest_double=6, rounds=2), seat_count=2, host_name="Ana"
    )
    ben = services.join(table.code, name="Ben")
    services.start(table.code, host_token=table.host_token)
    services.hand_to_bot(table.code, host_token=table.host_token, position=ben.position)
    table.refresh_from_db()

    out_of_turn = parse({"type": "draw", "version": table.version})
    with pytest.raises(services.Refused, match="not your turn"):
        services.act(table.code, token=ben.token, intent=out_of_turn)

    ben.refresh_from_db()
    assert ben.stand_in == "greedy"
    view = json.loads(view_message(table.code, host.token))
    assert "a bot plays for now" in view["html"]
    assert next(s for s in view["seats"] if s["name"] == "Ben")["stand_in"] is True


def test_the_host_is_offered_a_bot_for_each_other_person_away():
    table, tokens = started_table()  # nobody has a socket open: Ana (host) and Ben are away
    host, guest = _players(table, tokens[0], table.host_token), _players(table, tokens[1])
    assert host.count("Let a bot play for") == 1 and "Let a bot play for Ben" in host
    assert "Let a bot play for" not in guest

    table.seats.update(channel_name="a-socket")  # both connected
    host, guest = _players(table, tokens[0], table.host_token), _players(table, tokens[1])
    assert host == guest and "Let a bot play for" not in host


def _players(table, token: str, host_token: str = "") -> str:
    """The players region of a seat's view message, as a session with ``host_token`` sees it."""
    html = json.loads(view_message(table.code, token, host_token))["html"]
    return re.search(r'<section id="table-players".*?</section>', html, re.S).group(0)


def test_a_view_drawn_from_an_announcement_is_the_view_read_from_the_database(
    django_capture_on_commit_callbacks,
):
    """A service's announcement carries the table as it committed it: through a round and
    its end, with seats coming, going and standing in, every seat's view drawn from it is
    the view a read of the database gives."""
    table, tokens = started_table()
    services.hand_to_bot(table.code, host_token=table.host_token, position=1)
    seats = {s.pk: s for s in table.seats.all()}
    viewers = [screens.Viewer(pk, is_host) for pk in [*seats, None] for is_host in (True, False)]
    over = False
    while not over:
        table.refresh_from_db()
        seat = tokens[json.loads(view_message(table.code, None))["game"]["turn"]]
        move = parse(first_legal_move(table, seat))
        with django_capture_on_commit_callbacks() as announced:
            services.act(table.code, token=seat, intent=move)
        shown = _announced_table(announced)
        for viewer in viewers:
            carried = screens.view_message(table.code, viewer, shown=shown)
            assert carried == screens.view_message(table.code, viewer)
        over = json.loads(carried[0])["game"]["round_over"]
    with django_capture_on_commit_callbacks() as announced:
        services.ready(table.code, token=tokens[0])
    for viewer in viewers:
        carried = screens.view_message(table.code, viewer, shown=_announced_table(announced))
        assert carried == screens.view_message(table.code, viewer)


def test_a_view_drawn_from_memory_reads_nothing(
    django_capture_on_commit_callbacks, django_assert_num_queries
):
    """A socket draws an announced move on the event loop, without a thread hop, only when
    the view needs no read (the process holds the game at that version and no score sheet is
    due): drawn so, every seat's view comes without a single query, and it is the view a
    read gives. A round's end, which brings the score sheet, is read."""
    table, tokens = started_table()
    viewers = [screens.Viewer(s.pk) for s in table.seats.all()] + [screens.Viewer()]
    from_memory = 0
    while True:
        table.refresh_from_db()
        seat = tokens[json.loads(view_message(table.code, None))["game"]["turn"]]
        move = parse(first_legal_move(table, seat))
        with django_capture_on_commit_callbacks() as announced:
            services.act(table.code, token=seat, intent=move)
        shown = _announced_table(announced)
        if not screens.drawn_from_memory(shown, with_sheet=False):
            break
        from_memory += 1
        assert not screens.drawn_from_memory(shown, with_sheet=True)
        for viewer in viewers:
            with django_assert_num_queries(0):
                carried = screens.view_message(table.code, viewer, shown=shown)
            assert carried == screens.view_message(table.code, viewer)
    assert from_memory > 0
    assert json.loads(view_message(table.code, None))["game"]["round_over"]


def _announced_table(callbacks) -> dict:
    """The table an announcement carries, from the callbacks a commit would run."""
    sent = []

    async def group_send(group: str, message: dict) -> None:
        sent.append(message)

    with patch("games.services.commit.get_channel_layer") as layer:
        layer.return_value.group_send = group_send
        for callback in callbacks:
            callback()
    return sent[-1]["table"]


def test_the_lanes_and_hands_taken_again_from_the_version_before_are_what_is_drawn_afresh():
    """A lane or a hand a move leaves as it was is not drawn again (Table.drawn_whole):
    through a round, each seat's view is the one a process that holds nothing draws, and
    after a move most lanes are taken from the version before."""
    table, tokens = started_table(seed=7)
    drawn = []
    render = screens.render_to_string

    def counting(name, context=None, *args, **kwargs):
        drawn.append(name)
        return render(name, context, *args, **kwargs)

    over, moves = False, 0
    while not over:
        drawn.clear()
        with patch.object(screens, "render_to_string", counting):
            kept = [view_message(table.code, token) for token in [*tokens.values(), None]]
        if moves:  # a move changes one train, or two: the others come from before
            assert drawn.count(screens.LANE) <= 3
        with patch.object(models, "_versions", models._Versions()):  # a fresh process
            assert kept == [view_message(table.code, token) for token in [*tokens.values(), None]]
        view = json.loads(kept[-1])
        over = view["game"]["round_over"]
        if not over:
            seat = tokens[view["game"]["turn"]]
            services.act(table.code, token=seat, intent=parse(first_legal_move(table, seat)))
            table.refresh_from_db()
            moves += 1
    assert moves > 5


def test_the_match_end_card_lists_the_players_by_their_totals():
    """A round's card lists the round's best first; the match's last card, its winners
    first. The deal of seed 5 ends two rounds with Ana best in the last round (0 points)
    and the random bot best overall (4 in all, against Ana's 8)."""
    table, ana = services.create_table(
        rules=Rules(highest_double=6, rounds=2), seat_count=3, host_name="Ana"
    )
    services.add_bot(table.code, host_token=table.host_token, level="greedy")
    services.add_bot(table.code, host_token=table.host_token, level="random")
    models.Table.objects.filter(code=table.code).update(deal_secret="", deal_commitment="", seed=5)
    services.start(table.code, host_token=table.host_token)
    models.TableSeat.objects.filter(pk=ana.pk).update(channel_name="watching")  # bots play
    while (table := models.Table.objects.get(code=table.code)).status == "playing":
        game = table.game()
        if game.round.result is not None:
            services.ready(table.code, token=ana.token)
        elif game.round.turn == 0:
            services.act(
                table.code, token=ana.token, intent=parse(first_legal_move(table, ana.token))
            )
        else:
            services.play_bot_turn(table.code)
    html = json.loads(screens.view_message(table.code, screens.Viewer(ana.pk))[0])["html"]
    card = html.split('class="results"')[1].split("</table>")[0]
    rows = re.findall(r'<th scope="row">([^<(]+).*?<td>(-?\d+)</td><td>(-?\d+)</td>', card)
    assert [(name.strip(), int(points), int(total)) for name, points, total in rows] == [
        ("Random bot 1", 4, 4),
        ("Ana", 0, 8),
        ("Greedy bot 1", 7, 26),
    ]


def test_every_count_of_a_hand_says_in_hand_and_no_train_length_says_tiles():
    """Issue 36: "N tiles" beside a name was read as a hand. The players' rows and the
    lanes' heads say "N in hand" for a hand, and a train's length is "N laid"."""
    table, tokens = started_table()
    view = json.loads(view_message(table.code, tokens[0]))
    html, sizes = view["html"], view["game"]["hand_sizes"]
    players = html.split('id="table-players"')[1].split("</section>")[0]
    lanes = html.split('id="table-board"')[1].split("</section>")[0]
    for size in sizes:
        assert f">{size} in hand</span>" in players and f">{size} in hand</span>" in lanes
    assert not re.search(r"\d+ tiles?<", players + lanes)
    assert lanes.count(" laid</span>") == len(table.game().round.trains)
