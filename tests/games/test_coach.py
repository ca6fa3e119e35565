"""The coach: a finished round of an online match is queued, weighed off the request path
by the expert's search, and read back by the seat that played it (and by staff); a review
queued before a restart is not lost; on a position whose best move is known, the coach
marks the other one and names the best."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest
from asgiref.sync import sync_to_async
from channels.testing import ApplicationCommunicator
from django.urls import reverse

from games import coach, services, sessions
from games.engine import Action, Branch, Rules, Train, view_for
from games.engine.actions import PLAY
from games.models import Decision, RoundReview, Table
from games.review import round_frames
from games.worker import CoachWorker
from tests.engine.positions import position, tiles

ONE_ROUND = Rules(rounds=1, highest_double=6)


@pytest.fixture(autouse=True)
def quick_coach(settings):
    """A few playouts a decision: the same review on any machine, in a second."""
    settings.COACH_PLAYOUTS = 4
    settings.COACH_IN_PROCESS = True


def play_round(seed: int = 7) -> tuple[Table, str]:
    """One round at a table of Ana and two bots; a stand-in plays Ana's turns, as the
    admin's review tests do. Returns the table and Ana's seat token."""
    table, ana = services.create_table(rules=ONE_ROUND, seat_count=3, host_name="Ana")
    Table.objects.filter(pk=table.pk).update(deal_secret="", deal_commitment="", seed=seed)
    services.add_bot(table.code, host_token=table.host_token, level="greedy")
    services.add_bot(table.code, host_token=table.host_token, level="random")
    services.start(table.code, host_token=table.host_token)
    services.connect(table.code, token=ana.token, host_token="", channel="a-browser")
    services.hand_to_bot(table.code, host_token=table.host_token, position=0, level="strategic")
    while services.play_bot_turn(table.code) is not None:
        pass
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table, ana.token


@pytest.mark.django_db
def test_a_finished_round_is_queued_then_weighed_for_its_people_only():
    table, _ = play_round()
    review = RoundReview.objects.get(table=table)
    assert (review.round_number, review.status) == (1, RoundReview.Status.QUEUED)
    assert coach.work() == 1
    review.refresh_from_db()
    assert review.status == RoundReview.Status.DONE
    assert review.decisions_total == review.decisions_done == review.decisions.count() > 0
    for decision in review.decisions.all():
        assert decision.seat == 0  # the bots' seats are nobody's to coach
        assert decision.expected_best <= decision.expected_chosen
        assert decision.marked == (decision.cost >= 5)
        assert (decision.reason == "") == (decision.best == decision.chosen)
    assert coach.work() == 0  # nothing left in the queue


@pytest.mark.django_db
def test_a_review_queued_before_a_restart_is_done_at_the_next_wake():
    table, _ = play_round()
    # The process died before the worker woke: the row is all that is left, and is enough.
    assert coach.work() == 1
    review = RoundReview.objects.get(table=table)
    stale = review.decisions_total
    RoundReview.objects.filter(pk=review.pk).update(
        status=RoundReview.Status.RUNNING, started_at=review.queued_at - coach.STALE
    )
    assert coach.work() == 1  # a worker that died mid-review: taken up again
    review.refresh_from_db()
    assert review.status == RoundReview.Status.DONE
    assert review.decisions.count() == stale  # weighed again, not twice
    RoundReview.objects.filter(pk=review.pk).update(status=RoundReview.Status.RUNNING)
    assert coach.work() == 0  # running now somewhere else: left alone


def stopped() -> ThreadPoolExecutor:
    """A pool as a process finds it once it is exiting: shut down."""
    pool = ThreadPoolExecutor()
    pool.shutdown()
    return pool


def killed() -> ProcessPoolExecutor:
    """A pool one of whose processes was killed."""
    pool = ProcessPoolExecutor(1)
    with contextlib.suppress(BrokenProcessPool):
        pool.submit(os._exit, 1).result()  # the process ends at once, as one killed does
    return pool


@pytest.mark.parametrize("gone", [stopped, killed])
@pytest.mark.django_db
def test_a_review_whose_processes_went_away_is_queued_again_not_failed(monkeypatch, gone):
    table, _ = play_round()
    monkeypatch.setattr(coach, "pool", functools.cache(gone))
    assert coach.work() == 0
    review = RoundReview.objects.get(table=table)
    assert review.status == RoundReview.Status.QUEUED
    monkeypatch.undo()
    assert coach.work() == 1
    review.refresh_from_db()
    assert review.status == RoundReview.Status.DONE


@pytest.mark.django_db
def test_the_player_reads_their_round_and_nobody_else_does(client, settings):
    settings.COACH_MARK = -1000  # every decision marked: the page steps through them all
    table, token = play_round()
    coach.work()
    status = reverse("games:coach-status", args=[table.code, 1])
    page = reverse("games:coach-review", args=[table.code, 1])
    assert client.get(status).status_code == 404 and client.get(page).status_code == 404
    session = client.session
    sessions.remember_seat(session, table.code, token)
    session.save()
    line = client.get(status).content.decode()
    review = RoundReview.objects.get(table=table)
    marked = review.decisions.filter(seat=0, marked=True).count()
    assert f"{marked} decision" in line and "see why" in line
    first = client.get(page).content.decode()
    assert f"Decision 1 of {marked}" in first and "Next decision" in first
    last = client.get(page, {"d": marked - 1}).content.decode()
    assert f"Decision {marked} of {marked}" in last and "Next decision" not in last
    # What the page shows is what the seat saw: no tile of another hand that was hidden.
    decision = review.decisions.filter(seat=0, marked=True).order_by("step").first()
    moment = next(m for m in coach.moments(table, 1) if m.step == decision.step)
    seen = set(moment.view.hand) | {
        (min(t), max(t)) for train in moment.view.trains for b in train.branches for t in b.tiles
    }
    frames = round_frames(list(table.moves.order_by("number").values_list("record", flat=True)), 1)
    hidden = {
        t
        for seat, hand in enumerate(frames[decision.step - 1].game.round.hands)
        if seat
        for t in hand
    } - seen
    for a, b in hidden:
        assert f'aria-label="{max(a, b)}-{min(a, b)}"' not in first.split("Decision 1 of")[1]


@pytest.mark.django_db
def test_the_coach_marks_a_light_tile_laid_while_a_heavy_one_waited():
    # Two players. Ana (seat 0) may lay 11-10 on her own train (open on 10) or 1-0 on the
    # Mexican train (open on 1). Ben has one tile left, and every tile Ana has not seen
    # carries a 12, the open end of Ben's own train: he goes out next turn, whatever he holds.
    game = position(["11-10 1-0", "12-3"], rules=Rules(), trains={0: "12-10", "public": "12-1"})
    seen = set(tiles("11-10 1-0 12-10 12-1"))
    elsewhere = tuple(
        (a, b) for a in range(13) for b in range(a, 13) if 12 not in (a, b) and (a, b) not in seen
    )
    table_tiles = Train(owner=None, branches=(Branch(elsewhere, -1),))
    game = game._replace(round=game.round._replace(trains=game.round.trains + (table_tiles,)))
    view = view_for(game, 0)
    public = next(a.train for a in view.legal if a.kind == PLAY and a.tile == (0, 1))
    chosen = Action(PLAY, 0, (0, 1), public, 0)
    points, best = coach.weigh(coach.Moment(1, view, chosen), seed="heavy")
    assert best.tile == (10, 11) and best.train == 0
    assert points[chosen] - points[best] >= 5  # marked: about 20 points
    teller = coach.Teller(["Ana", "Ben"], 1)
    assert coach.why(view, chosen, best, teller) == (
        "Lay 11-10 first: 21 pips out of your hand, not 1."
    )


@pytest.mark.django_db(transaction=True)
async def test_the_worker_reviews_what_is_queued_when_woken(settings):
    settings.COACH_IN_PROCESS = False  # the worker process's way: a message wakes it
    table, _ = await sync_to_async(play_round)()
    review = await RoundReview.objects.aget(table=table)
    assert review.status == RoundReview.Status.QUEUED
    worker = ApplicationCommunicator(
        CoachWorker.as_asgi(), {"type": "channel", "channel": coach.WORKER_CHANNEL}
    )
    await worker.send_input({"type": "coach.wake"})
    for _ in range(600):  # it works in a thread of its own: look until it is done
        review = await RoundReview.objects.aget(table=table)
        if review.status == RoundReview.Status.DONE:
            break
        await asyncio.sleep(0.1)
    with contextlib.suppress(asyncio.TimeoutError):
        await worker.wait(timeout=0.1)  # a worker never ends by itself: stopped here
    assert review.status == RoundReview.Status.DONE
    assert await Decision.objects.filter(review=review).acount() == review.decisions_total


@pytest.mark.django_db
def test_the_coach_at_work_says_so_only_when_asked(client, monkeypatch):
    """Issue 36: "The coach is looking at your decisions" stood on every round's card. While
    the coach works the card offers to show how far it has got, and says so once asked; it
    tells what it found once the review is ready."""
    table, token = play_round()
    monkeypatch.setattr(coach, "wake", lambda: None)  # the review stays queued until work()
    session = client.session
    sessions.remember_seat(session, table.code, token)
    session.save()
    status = reverse("games:coach-status", args=[table.code, 1])
    unasked = client.get(status).content.decode()
    assert "looking at your decisions" not in unasked
    assert "Ask the coach about my decisions" in unasked
    assert f'hx-get="{status}"' in unasked  # it asks again, quietly
    asked = client.get(status, {"asked": "1"}).content.decode()
    assert "The coach is looking at your decisions" in asked
    assert f'hx-get="{status}?asked=1"' in asked  # and keeps saying it
    coach.work()
    ready = client.get(status).content.decode()
    assert "looking at your decisions" not in ready and "Ask the coach" not in ready
    assert "cost you about" in ready or "found no decision" in ready
