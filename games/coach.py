"""The coach: after each round of an online match, every decision a person made in it is
weighed by the expert bot's search (``games.bots.expert.evaluate``): the round points the
seat could expect after the choice made, and after the best one. A decision that cost at
least ``COACH_MARK`` expected points is marked; the player reads the marked ones on the
round's review page, staff every one in the admin's replay.

Off the request path: a round's end queues a ``RoundReview`` row and wakes the worker. The
row is the queue, so nothing is lost when a process restarts: whatever wakes the worker
next (the next round's end, or a page asking for a review still queued) finds it. With
Redis the worker is Channels' background worker (``manage.py runworker coach``, a service
of docker-compose.yml); in the embedded default, a thread of the one process. Either way
the search itself runs in a process of ``games.bots.processes.pool``, below the priority of
the processes that serve the tables.

What the search sees is the seat's view at that moment, as the bot would: the others' hands
are sampled, never read, so the review shows the seat nothing it did not know.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone

from games.bots.expert import evaluate
from games.bots.processes import pool
from games.engine import Action, SeatView, view_for
from games.engine.actions import DRAW, END_TURN, PASS, PLAY
from games.engine.tiles import name

from .models import Decision, RoundReview, Table
from .review import Teller, round_frames

log = logging.getLogger(__name__)

WORKER_CHANNEL = "coach"  # the channel ``manage.py runworker coach`` consumes
# A review left running this long was held by a worker that died: it is taken up again.
STALE = timedelta(minutes=10)

_in_process = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach")


def queue_round(table: Table, number: int) -> None:
    """Queue the review of a round that just ended (inside the move's transaction), and
    wake the worker once it is committed."""
    RoundReview.objects.get_or_create(table=table, round_number=number)
    transaction.on_commit(wake)


def wake() -> None:
    """Have the worker go through the queue: a thread here, or the worker process."""
    if settings.COACH_IN_PROCESS:
        _in_process.submit(_work_in_thread)
    else:
        async_to_sync(get_channel_layer().send)(WORKER_CHANNEL, {"type": "coach.wake"})


class Interrupted(Exception):
    """The searching processes went away: this process is exiting, or one of them was
    killed. The review is not the coach's fault, so it goes back to the queue."""


def work() -> int:
    """Review every queued round, oldest first; the number reviewed."""
    reviewed = 0
    while (review := _claim()) is not None:
        try:
            analyse(review)
        except Interrupted:
            log.warning("The coach was interrupted on %s: it is queued again", review)
            RoundReview.objects.filter(pk=review.pk).update(status=RoundReview.Status.QUEUED)
            pool.cache_clear()  # the next wake starts new processes
            break
        except Exception:
            log.exception("The coach failed on %s", review)
            RoundReview.objects.filter(pk=review.pk).update(
                status=RoundReview.Status.FAILED, finished_at=timezone.now()
            )
        reviewed += 1
    return reviewed


def _work_in_thread() -> None:
    """The embedded default's worker: the thread's connection is nobody else's to close
    (the worker process's consumer has Channels close its own)."""
    try:
        work()
    finally:
        close_old_connections()


def _claim() -> RoundReview | None:
    """The oldest review waiting (or left running by a worker that died), now ours: the
    update is conditional, so two workers never take the same one."""
    now = timezone.now()
    waiting = Q(status=RoundReview.Status.QUEUED) | Q(
        status=RoundReview.Status.RUNNING, started_at__lt=now - STALE
    )
    for review in RoundReview.objects.filter(waiting).order_by("queued_at", "pk")[:5]:
        taken = RoundReview.objects.filter(waiting, pk=review.pk).update(
            status=RoundReview.Status.RUNNING, started_at=now, decisions_done=0
        )
        if taken:
            return RoundReview.objects.select_related("table").get(pk=review.pk)
    return None


@dataclass(frozen=True)
class Moment:
    """A decision as the seat faced it: the step in the round, the view, what it chose."""

    step: int
    view: SeatView
    chosen: Action


def moments(table: Table, number: int) -> list[Moment]:
    """Every decision of a person in round ``number``: each action of a seat that is not a
    bot, where more than one action was legal."""
    records = list(table.moves.order_by("number").values_list("record", flat=True))
    people = {s.position for s in table.seats.all() if not s.is_bot}
    frames = round_frames(records, number)
    found = []
    for before, after in zip(frames, frames[1:], strict=False):
        record = after.record
        if record["type"] != "action" or record["seat"] not in people:
            continue
        view = view_for(before.game, record["seat"])
        if len(view.legal) > 1:
            found.append(Moment(after.step, view, Action.from_dict(record)))
    return found


def analyse(review: RoundReview) -> None:
    """Weigh every decision of the round and keep them, with the progress as it goes."""
    table = review.table
    found = moments(table, review.round_number)
    RoundReview.objects.filter(pk=review.pk).update(decisions_total=len(found))
    teller = words(table)
    review.decisions.all().delete()
    for done, moment in enumerate(found, start=1):
        points, best = weigh(moment, seed=f"{table.seed}/{review.round_number}/{moment.step}")
        cost = points[moment.chosen] - points[best]
        Decision.objects.create(
            review=review,
            step=moment.step,
            seat=moment.view.seat,
            chosen=moment.chosen.to_dict(),
            best=best.to_dict(),
            expected_chosen=points[moment.chosen],
            expected_best=points[best],
            marked=cost >= settings.COACH_MARK,
            reason=why(moment.view, moment.chosen, best, teller) if best != moment.chosen else "",
        )
        RoundReview.objects.filter(pk=review.pk).update(decisions_done=done)
    RoundReview.objects.filter(pk=review.pk).update(
        status=RoundReview.Status.DONE, finished_at=timezone.now()
    )


def weigh(moment: Moment, *, seed: str) -> tuple[dict[Action, float], Action]:
    """The expected round points after each legal action of the moment, and the best."""
    try:  # refused once this process is exiting (shut down) or a process was killed (broken)
        search = pool().submit(
            evaluate,
            moment.view,
            seed=seed,
            playouts=settings.COACH_PLAYOUTS,
            budget=settings.COACH_BUDGET,
        )
    except RuntimeError as refused:
        raise Interrupted from refused
    try:
        estimates = search.result()
    except BrokenProcessPool as died:
        raise Interrupted from died
    points = {e.action: e.expected_points for e in estimates}
    return points, min(points, key=points.__getitem__)


def words(table: Table) -> Teller:
    """The table's names for its players and trains, as the move log tells them."""
    names = [s.name for s in table.seats.order_by("position")]
    return Teller(names, table.get_rules().public_trains)


def said(decision: Decision, teller: Teller) -> tuple[str, str]:
    """What was played and what the expert preferred, in words: "12-5 on the Mexican train"."""
    return (
        _said(Action.from_dict(decision.chosen), teller),
        _said(Action.from_dict(decision.best), teller),
    )


def _said(action: Action, teller: Teller) -> str:
    if action.kind == PLAY:
        assert action.train is not None
        return f"{_tile(action)} on {_where(teller, action, action.seat)}"
    return {DRAW: "draw", PASS: "pass", END_TURN: "end the turn"}.get(action.kind, action.kind)


def why(view: SeatView, chosen: Action, best: Action, teller: Teller) -> str:
    """One line on what the expert preferred, in the player's words."""
    seat = view.seat
    assert seat is not None
    if best.kind == PLAY and chosen.kind != PLAY:
        verb = {DRAW: "drawing", PASS: "passing", END_TURN: "ending your turn"}[chosen.kind]
        where = _where(teller, best, seat)
        return f"Play {_tile(best)} on {where} rather than {verb}: a tile laid is not held."
    if best.kind == DRAW:
        return "Draw instead: each play you had gave the others an easy answer."
    if best.kind == END_TURN:
        return "Stop here: what you laid after it gave the others a place to play."
    assert best.tile is not None and chosen.tile is not None
    if best.tile == chosen.tile:
        return f"The same tile, on {_where(teller, best, seat)}: it leaves the others less."
    pips_best, pips_chosen = sum(best.tile), sum(chosen.tile)
    if best.tile[0] == best.tile[1]:
        return f"Lay the double {_tile(best)} while it can go: doubles are hard to place later."
    if pips_best > pips_chosen:
        return f"Lay {_tile(best)} first: {pips_best} pips out of your hand, not {pips_chosen}."
    if best.train == seat:
        return f"Lay {_tile(best)} on your own train and keep {_tile(chosen)} for later."
    return f"Lay {_tile(best)} on {_where(teller, best, seat)}: your hand plays out easier."


def _tile(action: Action) -> str:
    assert action.tile is not None
    return name(action.tile)


def _where(teller: Teller, action: Action, seat: int) -> str:
    assert action.train is not None
    return "your own train" if action.train == seat else teller.where(action.train, seat)


@dataclass(frozen=True)
class Weighed:
    """A decision as staff read it in the replay."""

    decision: Decision
    player: str
    played: str
    preferred: str


def staff_review(table: Table | None, number: int, teller: Teller) -> dict[str, Any] | None:
    """The coach's review of a round for the admin's replay: every seat's decisions."""
    review = table.reviews.filter(round_number=number).first() if table else None
    if review is None:
        return None
    weighed = [Weighed(d, teller.names[d.seat], *said(d, teller)) for d in review.decisions.all()]
    return {"review": review, "decisions": weighed}


def summary(review: RoundReview | None, seat: int) -> dict[str, Any]:
    """What the round-end card says of a seat's round: the coach at work, or the marked
    decisions and what they cost together."""
    if review is None:
        return {"status": None}
    if review.status != RoundReview.Status.DONE:
        return {
            "status": review.status,
            "done": review.decisions_done,
            "total": review.decisions_total,
        }
    marked = list(review.decisions.filter(seat=seat, marked=True))
    return {
        "status": review.status,
        "marked": len(marked),
        "cost": sum(d.cost for d in marked),
    }
