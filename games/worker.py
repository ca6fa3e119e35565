"""The coach's background worker: Channels' worker pattern. ``manage.py runworker coach``
consumes the ``coach`` channel; a message only wakes it, the queue is the database's
(games.coach), so a message lost with a restart loses no review."""

from __future__ import annotations

from typing import Any

from channels.consumer import SyncConsumer

from . import coach


class CoachWorker(SyncConsumer):
    def coach_wake(self, message: dict[str, Any]) -> None:
        coach.work()
