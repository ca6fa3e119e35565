"""A socket's view message, built from cached pieces: it must still be the view's own JSON."""

from __future__ import annotations

import json
import re

import orjson
import pytest

from config import broadcast
from games import live, movelog, render, screens, services
from games.engine import Rules
from games.intents import parse
from games.models import Table
from games.movelog import NotCached
from tests.games.tables import first_legal_move, play_to_round_end, started_table

pytestmark = pytest.mark.django_db

NAMES = ['Zoë "the train"', "<b>Ana</b>", "Ren 🚂", "O'Neil\\"]


def test_a_view_message_is_the_json_of_the_whole_view_whatever_the_names_hold():
    """The regions all seats share are encoded once per version and joined to each seat's
    own; names with quotes, markup, backslashes and characters outside ASCII must come
    through that join exactly as one encoding of the whole view would give them."""
    table, host = services.create_table(Rules(highest_double=6, rounds=2), 4, NAMES[0])
    tokens = [host.token] + [services.join(table.code, name).token for name in NAMES[1:]]
    services.start(table.code, table.host_token)
    table.refresh_from_db()

    for token in [*tokens, None]:
        text = screens.message(table.code, token, table.version, table.revision)
        view = json.loads(text)
        assert text == orjson.dumps(view).decode()
        assert 'id="table-board"' in view["html"]  # a region all seats share
        assert 'id="table-dock"' in view["html"]  # and one of the seat's own
        assert "Zoë &#34;the train&#34;" in view["html"]  # escaped as Jinja2 escapes
        assert "&lt;b&gt;Ana&lt;/b&gt;" in view["html"]
        assert [s["name"] for s in view["seats"]] == NAMES
        page = screens.screen(table.code, token, table.version, table.revision).data
        assert {key: value for key, value in view.items() if key != "html"} == page


def test_a_view_message_holds_the_same_data_as_the_page_through_a_round_and_its_end(
    django_capture_on_commit_callbacks,
):
    """The parts every seat shares are encoded once and joined to each seat's own: after
    each move, each seat's message (and a spectator's) says what the page's data says."""
    table, tokens = started_table()
    over = False
    while not over:
        table.refresh_from_db()
        views = _same_data(table, tokens)
        over = views[-1]["game"]["round_over"]  # the spectator's
        if not over:
            seat = tokens[views[-1]["game"]["turn"]]
            with django_capture_on_commit_callbacks(execute=True):
                services.act(table.code, seat, parse(first_legal_move(table, seat)))
    assert "table-sheet" in views[0]["html"]  # the round's end, with its score sheet


def _same_data(table, tokens: dict[int, str]) -> list[dict]:
    views = []
    for token in [*tokens.values(), None]:
        view = json.loads(screens.message(table.code, token, table.version, table.revision))
        page = screens.screen(table.code, token, table.version, table.revision).data
        assert {key: value for key, value in view.items() if key != "html"} == page
        assert view["game"] is None or view["game"]["seat"] == page["seat"]
        views.append(view)
    return views


def test_a_refused_action_leaves_the_seats_this_process_shows_as_the_database_has_them():
    """``act`` takes the seats from this process's cache: a person back from a stand-in bot
    gets the seat back as they act, but when the action is refused, that rolls back, and
    the screens must go on showing the bot standing in."""
    table, host = services.create_table(Rules(highest_double=6, rounds=2), 2, "Ana")
    ben = services.join(table.code, "Ben")
    services.start(table.code, table.host_token)
    services.hand_to_bot(table.code, table.host_token, ben.position)
    table.refresh_from_db()
    screens.message(table.code, host.token, table.version, table.revision)  # cached now

    out_of_turn = parse({"type": "draw", "version": table.version})
    with pytest.raises(services.Refused, match="not your turn"):
        services.act(table.code, ben.token, out_of_turn)

    ben.refresh_from_db()
    assert ben.stand_in == "greedy"
    view = json.loads(screens.message(table.code, host.token, table.version, table.revision))
    assert "a bot plays for now" in view["html"]
    assert next(s for s in view["seats"] if s["name"] == "Ben")["stand_in"] is True


def test_another_process_shows_a_move_from_its_announcement_as_if_read_from_the_database(
    django_capture_on_commit_callbacks,
):
    """A move's announcement carries its log lines and the table's changed columns: a
    process that did not commit it takes it in without reading, and every seat's view is
    the one a read of the database gives."""
    table, tokens = started_table()
    before = json.loads(screens.message(table.code, tokens[0], table.version, table.revision))
    turn = before["game"]["turn"]
    message = first_legal_move(table, tokens[turn])

    with (
        broadcast.collected() as announcements,
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.act(table.code, tokens[turn], parse(message))
    [(_, event)] = announcements
    version, revision = event["version"], event["revision"]
    forget(table.code, version, revision)  # the other process knows the table as it was
    with pytest.raises(NotCached):
        screens.message(table.code, tokens[0], version, revision, cached_only=True)

    assert screens.follow(table.code, event["move"])
    followed = from_cache(table.code, tokens, version, revision)
    assert followed == read_afresh(table.code, tokens, version, revision)


def test_a_ready_is_shown_from_what_the_service_kept_as_a_read_would_show_it(
    django_capture_on_commit_callbacks,
):
    """Ready takes the seats from this process's cache and keeps what it wrote, as a move
    does: every seat's view of it needs no read, and is the one a read of the database
    gives."""
    table, tokens = started_table()
    with django_capture_on_commit_callbacks(execute=True):
        table = play_to_round_end(table, tokens)
    for token in tokens.values():  # the round's end, as the sockets show it
        screens.message(table.code, token, table.version, table.revision)
    with (
        broadcast.collected() as announcements,
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.ready(table.code, tokens[0])
    [(_, event)] = announcements
    version, revision = event["version"], event["revision"]
    assert (version, revision) == (table.version, table.revision + 1)

    kept = from_cache(table.code, tokens, version, revision)
    assert kept == read_afresh(table.code, tokens, version, revision)
    assert "Waiting for Ben." in json.loads(kept[0])["html"]


def test_a_rounds_end_is_shown_with_the_sheet_the_service_worked_out_as_a_read_would_show_it(
    django_capture_on_commit_callbacks,
):
    """The move that ends a round records it on the score sheet, which works the sheet
    out: every seat's view of that version draws the same sheet without the database, and
    is the one a read of the database gives."""
    table, tokens = started_table()
    while True:
        game = screens.screen(table.code, None, table.version, table.revision).data["game"]
        seat = tokens[game["turn"]]
        with (
            broadcast.collected() as announcements,
            django_capture_on_commit_callbacks(execute=True),
        ):
            services.act(table.code, seat, parse(first_legal_move(table, seat)))
        table.refresh_from_db()
        if table.next_round_at is not None:  # that move ended the round
            break
    [event] = [message for group, message in announcements if group == live.group_name(table.code)]
    version, revision = event["version"], event["revision"]

    kept = from_cache(table.code, tokens, version, revision)
    assert kept == read_afresh(table.code, tokens, version, revision)
    assert all('id="table-sheet"' in json.loads(text)["html"] for text in kept)


def test_a_seats_regions_drawn_from_kept_docks_are_the_templates_drawn_afresh(
    django_capture_on_commit_callbacks,
):
    """A socket draws the dock once for every seat with the same prompt and puts each
    seat's hand in: through a round and its end, for the host (who may let a bot play for
    the absent player on turn) and for a guest, every seat's regions must be the round card
    and the dock drawn whole from their templates."""
    table, tokens = started_table()
    offered = 0  # views in which the host may let a bot play for the absent player
    over = False
    while not over:
        table.refresh_from_db()
        for token in [*tokens.values(), None]:
            for host_token in (table.host_token, ""):
                shown = screens.screen(
                    table.code, token, table.version, table.revision, host_token=host_token
                )
                context = shown.context
                whole = render.region("round", context) + render.region("dock", context)
                drawn = render.seat_regions(context)
                assert drawn == whole + context.get("sheet_region", "")
                offered += "Let a bot play for" in drawn
        game = shown.data["game"]
        over = game["round_over"]
        if not over:
            seat = tokens[game["turn"]]
            with django_capture_on_commit_callbacks(execute=True):
                services.act(table.code, seat, parse(first_legal_move(table, seat)))
    assert offered


def from_cache(code: str, tokens: dict[int, str], version: int, revision: int) -> list[str]:
    """Every seat's view from this process's caches alone, without the database."""
    return [
        screens.message(code, token, version, revision, cached_only=True)
        for token in tokens.values()
    ]


def read_afresh(code: str, tokens: dict[int, str], version: int, revision: int) -> list[str]:
    """Every seat's view as a process that held nothing of this version reads it."""
    forget(code, version, revision)
    return [screens.message(code, token, version, revision) for token in tokens.values()]


def forget(code: str, version: int, revision: int) -> None:
    """Drop what this process keeps of a table at a version and revision, as another
    process, which did not commit them, would not hold them."""
    screens._tables._entries.pop((code, revision))  # noqa: SLF001
    movelog._known[code].pop(version)  # noqa: SLF001


def test_the_host_shares_everybodys_players_region_unless_another_person_is_away():
    """The host's players region has a button for each other person away; with nobody away
    it is everybody's, and a process keeps one copy for both."""
    table, tokens = started_table()  # nobody has a socket open: Ana (host) and Ben are away
    host, guest = _players(table, tokens[0], table.host_token), _players(table, tokens[1], "")
    assert host.count("Let a bot play for") == 1 and "Let a bot play for Ben" in host
    assert "Let a bot play for" not in guest

    table.seats.update(channel_name="a-socket")  # both connected, at a new revision
    Table.objects.filter(pk=table.pk).update(revision=table.revision + 1)
    table.refresh_from_db()
    host, guest = _players(table, tokens[0], table.host_token), _players(table, tokens[1], "")
    assert host == guest and "Let a bot play for" not in host
    kept = [key for key in screens._players._entries if key[:2] == (table.code, table.revision)]  # noqa: SLF001
    assert len(kept) == 1


def _players(table: Table, token: str, host_token: str) -> str:
    """The players region of a seat's view message, as a session with ``host_token`` sees it."""
    text = screens.message(table.code, token, table.version, table.revision, host_token=host_token)
    html = json.loads(text)["html"]
    return re.search(r'<section id="table-players".*?</section>', html, re.S).group(0)
