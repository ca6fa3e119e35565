"""What one move of an online table costs the server, piece by piece, without sockets.

    python benchmarks/move_cost.py [--tables 10] [--moves 300]

On a fresh SQLite database in a temporary directory, it starts tables of four people and
plays moves as the load benchmark's players do (the heaviest tile that plays, from the
seat's own view), calling what a daphne process calls for each move: the service that
applies it (``services.act``: the locked transaction, the engine, the move log; its
announcement, sent after the commit, is kept instead), then each of the four seats' views
of the table the announcement carries, as the JSON text a socket sends
(``screens.view_message``: the first draws the regions every seat sees alike, the other
three find them drawn). It
prints the median time of each piece per move, and the size of a view. The end of a round
is timed apart, as it costs several moves' worth in one block: the move that ends it (the
round is written to the score sheet) and its four views (with the score sheet), then each
seat's Ready and the four views after it (the last Ready deals the next round).
Last, the floor of the write: a move's three statements alone (the locked read of the table
and its seats, one line of the log, the table's update) in one transaction, on a table of
their own, with no engine, no announcement and no view.

benchmarks/load.py measures the whole stack under load; this one says where a move's time
goes, with far less noise, so a change to a piece can be judged on its own. Wall-clock time
in one thread: run it on a quiet machine, and compare figures from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIECES = ("act", "first view", "three other views")
ROUND_END = ("the move that ends a round", "its four views", "a Ready", "the four views after it")


def setup_django(workdir: Path) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{workdir / 'moves.sqlite3'}",
        DEBUG="0",
        SECRET_KEY="move-cost-benchmark-only",
        BOT_TURN_DELAY="0",
        NEXT_ROUND_COUNTDOWN="3600",
    )
    os.environ.pop("REDIS_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--moves", type=int, default=300, help="moves measured, in all")
    args = parser.parse_args()
    setup_django(Path(tempfile.mkdtemp(prefix="move-cost-")))
    from django.db import transaction

    from games import services
    from games.engine import Rules
    from games.forms import parse_intent as parse
    from games.models import Move, TableSeat, seated
    from games.screens import Viewer, view_message
    from games.services import commit
    from games.services.commit import MOVED

    announced: list[dict] = []

    class Layer:  # keeps what a service announces, as a socket would be sent it
        async def group_send(self, group: str, message: dict) -> None:
            announced.append(message)

    commit.get_channel_layer = Layer

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from load import choose  # the load benchmark's player: the same moves

    tables = []
    tokens: dict[Viewer, str] = {}  # each seat's, to act with
    for _ in range(args.tables):
        table, host = services.create_table(rules=Rules(), seat_count=4, host_name="Player 1")
        for i in (2, 3, 4):
            services.join(table.code, name=f"Player {i}")
        services.start(table.code, host_token=table.host_token)
        seats = TableSeat.objects.filter(table__code=table.code).order_by("position")
        tables.append((table.code, [Viewer(seat.pk) for seat in seats]))
        tokens.update({Viewer(seat.pk): seat.token for seat in seats})

    timings: dict[str, list[float]] = defaultdict(list)
    views: dict[str, list[dict]] = {}

    def move(code: str, viewers: list[Viewer]) -> bool:
        """One move at this table, timed piece by piece; False for a round's end (every seat
        presses Ready, which is no move) or a finished match."""
        seen = views.get(code) or [json.loads(view_message(code, v)[0]) for v in viewers]
        game = max(seen, key=lambda v: v["version"])["game"]
        if game["over"]:
            return False
        if game["round_over"]:
            for viewer in viewers:
                ready = timed(services.ready, code, token=tokens[viewer])
                timings["a Ready"].append(ready)
                timings["the four views after it"].append(sum(four_views(code, viewers)[1]))
            views.pop(code, None)
            return False
        seat = game["turn"]
        spent = [
            timed(services.act, code, token=tokens[viewers[seat]], intent=parse(choose(seen[seat])))
        ]
        texts, seconds = four_views(code, viewers)
        spent += [seconds[0], sum(seconds[1:])]
        views[code] = [json.loads(text) for text in texts]
        if views[code][0]["game"]["round_over"]:
            timings["the move that ends a round"].append(spent[0])
            timings["its four views"].append(sum(spent[1:]))
        else:
            for piece, ms in zip(PIECES, spent, strict=True):
                timings[piece].append(ms)
        return True

    def timed(service, *args, **kwargs) -> float:
        """The service's time in ms."""
        start = time.perf_counter()
        service(*args, **kwargs)
        return (time.perf_counter() - start) * 1000

    def four_views(code: str, viewers: list[Viewer]) -> tuple[list[str], list[float]]:
        """Each seat's view of the table the announcement carries, and its time in ms."""
        shown = announced[-1].get("table")
        texts, spent = [], []
        for viewer in viewers:
            start = time.perf_counter()
            texts.append(view_message(code, viewer, shown=shown)[0])
            spent.append((time.perf_counter() - start) * 1000)
        return texts, spent

    for code, viewers in tables:  # warm up: templates compiled, games cached
        move(code, viewers)
    timings.clear()
    while len(timings["act"]) < args.moves:
        before = len(timings["act"])
        for code, viewers in tables:
            move(code, viewers)
        if len(timings["act"]) == before and all(
            views.get(code) and views[code][0]["game"]["over"] for code, _ in tables
        ):
            break  # every match is over: more tables, or fewer moves

    medians = {piece: statistics.median(timings[piece]) for piece in PIECES}
    total = sum(medians.values())
    print(f"{len(timings['act'])} moves at {args.tables} tables of four, SQLite, one thread\n")
    print("| Piece of a move | Median ms | Share |")
    print("|---|---|---|")
    for piece, ms in medians.items():
        print(f"| {piece} | {ms:.2f} | {100 * ms / total:.0f}% |")
    print(f"| all | {total:.2f} | 100% |")
    sample = views[tables[0][0]]
    html = statistics.mean(len(v["html"]) for v in sample)
    encoded = statistics.mean(len(json.dumps(v, separators=(",", ":"))) for v in sample)
    print(f"\nA view: {encoded / 1024:.1f} KB of JSON, {html / 1024:.1f} KB of it HTML.\n")
    print("| At a round's end | Median ms | Times |")
    print("|---|---|---|")
    for piece in ROUND_END:
        if timings[piece]:
            ms = statistics.median(timings[piece])
            print(f"| {piece} | {ms:.2f} | {len(timings[piece])} |")

    def statements(code: str) -> None:
        """What any move writes through the ORM, and nothing else."""
        with transaction.atomic():
            table, _ = seated(code, lock=True)
            table.version += 1
            table.move_count += 1
            table.revision += 1
            Move.objects.bulk_create(
                [Move(table=table, number=table.move_count, version=table.version, record={})]
            )
            table.save(update_fields=MOVED)

    floor, _ = services.create_table(rules=Rules(), seat_count=4, host_name="Player 1")
    for i in (2, 3, 4):
        services.join(floor.code, name=f"Player {i}")
    spent = [timed(statements, floor.code) for _ in range(args.moves)]
    print(f"\nThe floor of the write, a move's three statements: {statistics.median(spent):.2f} ms")


if __name__ == "__main__":
    main()
