"""Playing a finished match again at the same link (services.play_again): one rematch for
however many press at once, the same people and rules with a new deal, the finished
match's move log and score sheet kept, and the finished table's link and sockets leading
to the new one."""

from __future__ import annotations

import threading

import pytest
from channels.db import database_sync_to_async
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse

from games import services, sessions
from games.engine import Rules
from games.forms import parse_intent
from games.models import Table, TableSeat
from scoring.models import Match

from .conftest import Player
from .tables import first_legal_move

RULES = Rules(highest_double=6, rounds=1)


def seats(table: Table) -> list[tuple[int, str, str]]:
    return list(table.seats.order_by("position").values_list("position", "name", "kind"))


def play_to_the_end(code: str) -> Table:
    """Play every turn (the people's first legal move, the bots' own) until the match is
    over; a person is marked connected, since bots play only while somebody watches."""
    TableSeat.objects.filter(table__code=code, position=0).update(channel_name="watching")
    while (table := Table.objects.get(code=code)).status == Table.Status.PLAYING:
        game = table.game()
        seat = table.seats.get(position=game.round.turn)
        if seat.is_bot:
            services.play_bot_turn(code)
        else:
            services.act(
                code, token=seat.token, intent=parse_intent(first_legal_move(table, seat.token))
            )
    TableSeat.objects.filter(table__code=code).update(channel_name="")
    return table


def finished_match(
    bots: tuple[str, ...] = ("greedy",), seat_count: int | None = None
) -> tuple[Table, dict[str, str]]:
    """Ana (the host), Ben and the bots play a one-round match to its end: the finished
    table and the people's seat tokens by name."""
    table, ana = services.create_table(
        rules=RULES, seat_count=seat_count or 2 + len(bots), host_name="Ana"
    )
    ben = services.join(table.code, name="Ben")
    for level in bots:
        services.add_bot(table.code, host_token=table.host_token, level=level)
    services.start(table.code, host_token=table.host_token)
    return play_to_the_end(table.code), {"Ana": ana.token, "Ben": ben.token}


# -- the service ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_first_to_play_again_opens_the_next_match_with_the_same_rules_and_bots():
    finished, tokens = finished_match()
    moves, match = finished.moves.count(), finished.match

    rematch, seat = services.play_again(finished.code, token=tokens["Ben"])

    assert (seat.position, seat.name, seat.table) == (1, "Ben", rematch)
    assert rematch.status == Table.Status.LOBBY and rematch.rematch_of == finished
    assert rematch.code != finished.code and rematch.seed != finished.seed
    assert (rematch.rules, rematch.seat_count) == (finished.rules, finished.seat_count)
    assert rematch.host_token == finished.host_token  # the host is still the host
    assert seats(rematch) == [(1, "Ben", "human"), (2, "Greedy bot 1", "bot")]
    finished.refresh_from_db()  # the finished match is as it was
    assert finished.status == Table.Status.FINISHED and finished.match == match
    assert finished.moves.count() == moves and finished.newest() == rematch


@pytest.mark.django_db
def test_each_player_takes_their_seat_at_the_one_rematch_and_the_host_starts_a_new_sheet():
    finished, tokens = finished_match()
    rematch, ben = services.play_again(finished.code, token=tokens["Ben"])
    again, ana = services.play_again(finished.code, token=tokens["Ana"])

    assert again == rematch and Table.objects.filter(rematch_of=finished).count() == 1
    assert (ana.position, ana.name) == (0, "Ana")
    services.start(rematch.code, host_token=rematch.host_token)
    rematch.refresh_from_db()
    finished.refresh_from_db()
    assert rematch.status == Table.Status.PLAYING
    assert rematch.match != finished.match
    assert list(rematch.match.seats.values_list("player__name", flat=True)) == [
        "Ana",
        "Ben",
        "Greedy bot 1",
    ]
    assert finished.match.status == Match.Status.FINISHED  # the old sheet is kept, finished


@pytest.mark.django_db
def test_a_person_who_does_not_play_again_leaves_a_seat_the_host_can_give_a_bot():
    finished, tokens = finished_match(bots=())
    rematch, _ = services.play_again(finished.code, token=tokens["Ana"])
    services.add_bot(rematch.code, host_token=rematch.host_token, level="random")
    services.start(rematch.code, host_token=rematch.host_token)
    rematch.refresh_from_db()
    assert seats(rematch) == [(0, "Ana", "human"), (1, "Random bot 1", "bot")]
    with pytest.raises(services.Refused, match="The next match has started without you"):
        services.play_again(finished.code, token=tokens["Ben"])


@pytest.mark.django_db
def test_playing_again_twice_is_refused_and_changes_nothing():
    finished, tokens = finished_match()
    rematch, _ = services.play_again(finished.code, token=tokens["Ben"])
    before = (seats(rematch), rematch.revision)
    with pytest.raises(services.Refused, match="^Ben already has a seat at the next match.$"):
        services.play_again(finished.code, token=tokens["Ben"])
    rematch.refresh_from_db()
    assert (seats(rematch), rematch.revision) == before


@pytest.mark.django_db
@pytest.mark.parametrize("token", [None, "", "not-a-seat"])
def test_a_spectator_cannot_play_again(token):
    finished, _ = finished_match()
    with pytest.raises(services.Refused, match="^Only the players of this match can play again"):
        services.play_again(finished.code, token=token)
    assert not Table.objects.filter(rematch_of=finished).exists()


@pytest.mark.django_db
def test_a_match_still_being_played_cannot_be_played_again():
    table, ana = services.create_table(rules=RULES, seat_count=2, host_name="Ana")
    services.join(table.code, name="Ben")
    for step in ("lobby", "playing"):
        with pytest.raises(services.Refused, match="^The match at this table is not over"):
            services.play_again(table.code, token=ana.token)
        if step == "lobby":
            services.start(table.code, host_token=table.host_token)
    assert Table.objects.count() == 1
    with pytest.raises(services.Refused, match="There is no table with that link"):
        services.play_again("no-such-code", token=ana.token)


@pytest.mark.django_db
def test_a_match_opened_from_a_game_record_cannot_be_played_again():
    finished, tokens = finished_match()
    Table.objects.filter(pk=finished.pk).update(imported=True)
    with pytest.raises(services.Refused, match="opened from a game record to review"):
        services.play_again(finished.code, token=tokens["Ana"])
    assert not Table.objects.filter(rematch_of=finished).exists()


@pytest.mark.django_db
def test_a_finished_table_has_at_most_one_rematch():
    finished, tokens = finished_match()
    services.play_again(finished.code, token=tokens["Ana"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(rules=finished.rules, rematch_of=finished)


# -- the pages ------------------------------------------------------------------------------


def browser_of(token: str, code: str, host_token: str = "") -> Client:
    """A browser whose session holds the seat (and the host's token) at the table."""
    client = Client()
    session = client.session
    sessions.remember_seat(session, code, token)
    if host_token:
        sessions.remember_host(session, code, host_token)
    session.save()
    return client


@pytest.mark.django_db
def test_play_again_from_the_end_card_seats_the_browser_and_the_old_link_leads_there():
    finished, tokens = finished_match()
    ana = browser_of(tokens["Ana"], finished.code, finished.host_token)
    ben = browser_of(tokens["Ben"], finished.code)
    end = ana.get(f"/t/{finished.code}/")
    assert end.status_code == 200 and "Play again" in end.text

    response = ana.post(f"/t/{finished.code}/again/", HTTP_HX_REQUEST="true")
    rematch = Table.objects.get(rematch_of=finished)
    assert response.status_code == 200 and response["HX-Redirect"] == f"/t/{rematch.code}/"
    assert sessions.host_token(ana.session, rematch.code) == rematch.host_token
    lobby = ana.get(f"/t/{finished.code}/")  # the same link: the newest match
    assert lobby.status_code == 302 and lobby["Location"] == f"/t/{rematch.code}/"
    page = ana.get(f"/t/{rematch.code}/")
    assert "Ana (you)" in page.text and "Start the match with 2 players" in page.text
    sheet = f"/w/{finished.match.viewer_code}/"
    assert f'href="{sheet}"' in page.text and Client().get(sheet).status_code == 200

    # Ben, led to the new lobby, is offered his seat, not the join form.
    page = ben.get(f"/t/{rematch.code}/")
    assert "Play again as Ben" in page.text and "Take the seat" not in page.text
    assert ben.post(f"/t/{finished.code}/again/")["Location"] == f"/t/{rematch.code}/"
    assert sessions.host_token(ben.session, rematch.code) == ""  # Ben is not the host
    page = ben.get(f"/t/{rematch.code}/")
    assert "Ben (you)" in page.text and "Play again as Ben" not in page.text
    assert "Waiting for Ana (the host) to start the match." in page.text


@pytest.mark.django_db
def test_before_the_host_plays_again_the_lobby_waits_for_the_host_by_role():
    finished, tokens = finished_match()
    services.play_again(finished.code, token=tokens["Ben"])
    page = browser_of(tokens["Ben"], finished.code).get(f"/t/{finished.code}/", follow=True)
    assert "Waiting for the host to start the match." in page.text
    assert "Start the match" not in page.text


@pytest.mark.django_db
def test_a_refused_play_again_says_why_and_changes_nothing():
    finished, tokens = finished_match()
    watcher = Client()
    refused = watcher.post(f"/t/{finished.code}/again/", HTTP_HX_REQUEST="true")
    assert refused.status_code == 422
    assert refused.text == "Only the players of this match can play again: you were watching."
    followed = watcher.post(f"/t/{finished.code}/again/", follow=True)
    assert "Only the players of this match can play again" in followed.text
    assert "Play again</button>" not in followed.text  # a spectator's end card offers none
    assert not Table.objects.filter(rematch_of=finished).exists()
    assert Client().post("/t/no-such-code/again/").status_code == 404


# -- the sockets ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_the_finished_tables_sockets_are_sent_to_the_next_match():
    finished, tokens = await database_sync_to_async(finished_match)()
    ana, watcher = Player(finished.code, tokens["Ana"]), Player(finished.code, None)
    await ana.connect()
    await watcher.connect()

    rematch, _ = await database_sync_to_async(services.play_again)(
        finished.code, token=tokens["Ben"]
    )
    moved = {"type": "moved", "url": f"/t/{rematch.code}/", "by": "Ben"}  # Ben opened it
    assert await ana.next_message() == moved
    assert await watcher.next_message() == moved
    # The next to play again joins the rematch: the finished table's sockets hear no more.
    await database_sync_to_async(services.play_again)(finished.code, token=tokens["Ana"])
    assert await ana.socket.receive_nothing(timeout=0.2)

    # A page that was away when it happened is sent on as soon as it is back.
    late = Player(finished.code, tokens["Ben"])
    await late.connect()
    assert await late.next_message() == moved
    for player in (ana, watcher, late):
        await player.close()


@pytest.mark.django_db
def test_the_host_keeps_the_first_seat_and_a_player_whose_seat_was_taken_gets_a_free_one():
    finished, tokens = finished_match(bots=(), seat_count=4)
    services.play_again(finished.code, token=tokens["Ana"])
    rematch = Table.objects.get(rematch_of=finished)
    assert (
        services.join(rematch.code, name="Cy", position=1).position == 1
    )  # Ben's seat, while he waits
    _, ben = services.play_again(finished.code, token=tokens["Ben"])
    assert ben.position == 2

    finished, tokens = finished_match(bots=(), seat_count=4)
    services.play_again(finished.code, token=tokens["Ben"])
    rematch = Table.objects.get(rematch_of=finished)
    assert services.join(rematch.code, name="Cy").position == 0  # the next free seat: the host's
    _, ana = services.play_again(finished.code, token=tokens["Ana"])
    assert ana.position == 0
    assert seats(rematch) == [(0, "Ana", "human"), (1, "Ben", "human"), (2, "Cy", "human")]


@pytest.mark.django_db
def test_the_last_free_seat_waits_for_the_host_so_a_full_lobby_never_locks_them_out():
    """Ben plays again, the bots sit down again: one seat is free, and the host is not back.
    Somebody who was watching cannot take it (seat 1 or any), since only the host can start
    the match or make room; once the host is back, a seat freed is anyone's."""
    finished, tokens = finished_match(bots=("greedy", "random"), seat_count=4)
    services.play_again(finished.code, token=tokens["Ben"])
    rematch = Table.objects.get(rematch_of=finished)
    for position in (0, None):
        with pytest.raises(services.Refused, match="kept for the host"):
            services.join(rematch.code, name="Mallory", position=position)
    assert len(seats(rematch)) == 3  # Ben and the bots: nobody took the host's place
    _, ana = services.play_again(finished.code, token=tokens["Ana"])
    assert ana.position == 0
    services.remove_seat(rematch.code, host_token=rematch.host_token, position=3)
    assert services.join(rematch.code, name="Mallory").position == 3


@pytest.mark.django_db(transaction=True)
def test_two_players_pressing_at_once_open_one_rematch():
    """On PostgreSQL, whose row lock this is about (the PostgreSQL pass runs it): SQLite's
    shared in-memory test database refuses a second writer's thread outright."""
    if connection.vendor != "postgresql":
        pytest.skip("runs in the PostgreSQL + Redis pass (python -m tests.services_pass)")
    finished, tokens = finished_match()
    both = threading.Barrier(2)
    results: list = []

    def press(token: str) -> None:
        try:
            both.wait()
            results.append(services.play_again(finished.code, token=token))
        except Exception as error:  # noqa: BLE001 - the test inspects what each thread got
            results.append(error)
        finally:
            connection.close()  # this thread's own connection

    presses = [threading.Thread(target=press, args=(t,)) for t in tokens.values()]
    for thread in presses:
        thread.start()
    for thread in presses:
        thread.join(timeout=30)
    assert len(results) == 2 and all(isinstance(r, tuple) for r in results), results
    assert results[0][0] == results[1][0]
    assert Table.objects.filter(rematch_of=finished).count() == 1
    assert sorted(seat.position for _, seat in results) == [0, 1]


@pytest.mark.django_db
def test_staff_see_which_match_a_table_played_again_and_its_rematch(admin_client):
    finished, tokens = finished_match()
    rematch, _ = services.play_again(finished.code, token=tokens["Ben"])
    for table, other in ((finished, rematch), (rematch, finished)):
        page = admin_client.get(reverse("admin:games_table_change", args=[table.pk]))
        assert page.status_code == 200
        assert str(other) in page.content.decode()
