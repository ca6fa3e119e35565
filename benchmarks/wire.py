"""What a match costs on the wire: the bytes the table's socket sends one seat, and one
spectator, over a whole match.

    python benchmarks/wire.py [--seed 7]

On a fresh SQLite database in a temporary directory, one person and three strategic bots
play a four-seat, thirteen-round, double-twelve match (the deal from ``--seed``). The
person's moves are the strategic bot's, sent over the person's socket as a browser sends
them; the bots' turns are played one at a time by this script (the clock's wake is off), so
every socket sees every version and the figures are the same on every machine. A
spectator's socket watches beside it. Each socket is the real consumer, through the ASGI
application and the in-memory channel layer.

It prints, for the seat and for the spectator: the number of views, the first view's size,
the median and 95th percentile of a view after the first, and the bytes of every frame
the socket was sent over the match (UTF-8, as the frame carries them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORIGIN = (b"origin", b"http://localhost")


def setup_django(workdir: Path) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{workdir / 'wire.sqlite3'}",
        DEBUG="0",
        SECRET_KEY="wire-benchmark-only",
        BOT_TURN_DELAY="0",
        NEXT_ROUND_COUNTDOWN="3600",
        CLOCK_POLL="0",
        SEAT_AWAY_AFTER="0",
        ALLOWED_HOSTS="localhost",
    )
    os.environ.pop("REDIS_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    logging.getLogger("games.coach").setLevel(logging.ERROR)  # its queue's notices
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


@dataclass
class Socket:
    """One socket at the table, and every frame it was sent."""

    code: str
    token: str | None
    frames: list[str] = field(default_factory=list)
    views: list[dict] = field(default_factory=list)

    async def open(self) -> None:
        from channels.testing import WebsocketCommunicator

        from config.asgi import application

        query = f"?seat={self.token}" if self.token else ""
        self.socket = WebsocketCommunicator(
            application, f"/ws/table/{self.code}/{query}", headers=[ORIGIN]
        )
        connected, _ = await self.socket.connect()
        assert connected, "the socket was refused"

    async def receive(self, timeout: float) -> dict:
        text = await self.socket.receive_from(timeout=timeout)
        self.frames.append(text)
        message = json.loads(text)
        if message["type"] == "view":
            self.views.append(message)
        elif message["type"] == "error":
            raise SystemExit(f"the server refused a move: {message}")
        return message

    async def settle(self, version: int) -> None:
        """Read until a view of ``version`` (or later) has come, then whatever follows."""
        while not self.views or self.views[-1]["version"] < version:
            await self.receive(timeout=10)
        while not await self.socket.receive_nothing(timeout=0.02):
            await self.receive(timeout=1)

    def sizes(self) -> list[int]:
        """Each view's size in bytes, in the order they came."""
        return [len(text.encode()) for text in self.frames if json.loads(text)["type"] == "view"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    setup_django(Path(tempfile.mkdtemp(prefix="wire-")))
    asyncio.run(play(args.seed))


async def play(seed: int) -> None:
    from channels.db import database_sync_to_async as sync

    from games import services, waker
    from games.bots import decide
    from games.engine import Rules, view_for
    from games.models import Table

    waker.wake_in = lambda code, seconds: None  # the script plays the bots' turns itself

    def open_table() -> tuple[str, str]:
        table, host = services.create_table(
            rules=Rules(highest_double=12, rounds=13), seat_count=4, host_name="Ana"
        )
        for _ in range(3):
            services.add_bot(table.code, host_token=table.host_token, level="strategic")
        Table.objects.filter(pk=table.pk).update(seed=seed)
        services.start(table.code, host_token=table.host_token)
        return table.code, host.token

    def next_step(code: str) -> tuple[int, str, dict | None]:
        """The table's version, what comes next ('over', 'ready', 'bot', 'person'), and the
        person's move when it is theirs."""
        table = Table.objects.get(code=code)
        game = table.game()
        if game.is_over or table.status != Table.Status.PLAYING:
            return table.version, "over", None
        if game.round.result is not None:
            return table.version, "ready", {"type": "ready"}
        if game.round.turn != 0:
            return table.version, "bot", None
        action = decide("strategic", view_for(game, 0))
        message = {"type": action.kind, "version": table.version}
        if action.kind == "play":
            message.update(tile=list(action.tile), train=action.train, end=action.end)
        return table.version, "person", message

    code, token = await sync(open_table)()
    seat, spectator = Socket(code, token), Socket(code, None)
    await seat.open()
    await spectator.open()
    version = 0
    while True:
        version, step, message = await sync(next_step)(code)
        for socket in (seat, spectator):
            await socket.settle(version)
        if step == "over":
            break
        if step == "bot":
            await sync(services.play_bot_turn)(code)
        else:
            await seat.socket.send_to(text_data=json.dumps(message))
            for socket in (seat, spectator):
                await socket.settle(version + 1)
    for socket in (seat, spectator):
        await socket.socket.disconnect()

    print(f"One match, seed {seed}: 4 seats, 13 rounds, double-twelve, 3 strategic bots")
    print(f"{version} versions\n")
    print("| Socket | Views | First view, bytes | Median of the rest | p95 of the rest | Match |")
    print("|---|---|---|---|---|---|")
    for name, socket in (("seat", seat), ("spectator", spectator)):
        sizes = socket.sizes()
        rest = sorted(sizes[1:])
        p95 = rest[min(len(rest) - 1, int(0.95 * len(rest)))]
        total = sum(len(text.encode()) for text in socket.frames)
        print(
            f"| {name} | {len(sizes)} | {sizes[0]:,} | {statistics.median(rest):,.0f} "
            f"| {p95:,} | {total / 1e6:.2f} MB |"
        )


if __name__ == "__main__":
    main()
