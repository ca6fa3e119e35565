"""/healthz under ordinary load: does a healthy process ever answer it with a 503?

    python benchmarks/healthz.py [--calls 1000] [--rate 10] [--tables 20] [--pace 0.5]
                                 [--json results.json]

It starts the app as one daphne process on PostgreSQL and Redis (DEBUG=0, as load.py
does, but on a database and a Redis database of its own, so it can run beside load.py or
abuse.py), creates ``--tables`` tables of four websocket players (load.py's players) and
plays them, each table at ``--pace`` moves a second. Once every socket has its first view,
it calls /healthz ``--calls`` times, ``--rate`` calls a second, one at a time, as a load
balancer or docker's healthcheck does, while the tables play on.

It prints how many answers were not 200 (and what they said), the latency percentiles of
the calls, and the moves' median and errors over the same time, so the load is shown to
have been there. Nothing is faulty during the run: any 503 is a false alarm. Then it waits
for the closed sockets' seats to be released before it stops daphne (a stop in the middle
of their disconnects can hang daphne's exit), and says how daphne exited.

A benchmark, not a test: it asserts nothing, and the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import ROOT, Server, Step, environment, game_step, make_tables, run_step  # noqa: E402

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_DATABASE = "mexican_train_healthz"
REDIS_URL = "redis://127.0.0.1:6379/12"  # load.py uses 13; each run flushes its own
TIMEOUT = 5.0  # seconds; docker's healthcheck (deploy/healthcheck.py) gives up after 4


def prepare(env: dict[str, str]) -> None:
    """A fresh database with the schema, an empty Redis database, and collected static."""
    import psycopg
    import redis

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{PG_DATABASE}"')
    redis.Redis.from_url(REDIS_URL).flushdb()
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([*manage, *command, "-v", "0"], cwd=ROOT, env=env, check=True)


def call(url: str) -> tuple[int, float, str]:
    """One GET of /healthz: its status, its time in ms, and its body when not 200."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            status, body = response.status, ""
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read().decode(errors="replace")
    except OSError as error:  # no answer in TIMEOUT, or the connection failed
        status, body = 0, f"{type(error).__name__}: {error}"
    return status, (time.perf_counter() - started) * 1000, body


async def probe(url: str, calls: int, rate: float, step: Step) -> list[tuple[int, float, str]]:
    """``calls`` calls at ``rate`` a second, from the moment every socket is in."""
    await step.measuring.wait()
    loop = asyncio.get_running_loop()
    results, tick = [], loop.time()
    for _ in range(calls):
        results.append(await asyncio.to_thread(call, url))
        tick += 1 / rate
        await asyncio.sleep(max(0.0, tick - loop.time()))
    return results


async def under_load(tables: list[dict], server: Server, args: argparse.Namespace) -> tuple:
    step = Step()
    seconds = args.calls / args.rate + 5  # the tables play on a little past the last call
    url = f"http://127.0.0.1:{server.port}/healthz"
    game = asyncio.create_task(
        game_step(
            tables, [f"ws://127.0.0.1:{server.port}"], "table", seconds, args.pace,
            [server.process.pid], step,
        )
    )  # fmt: skip
    results = await probe(url, args.calls, args.rate, step)
    await game
    return results, step


def seats_released(within: float = 10.0) -> float | None:
    """Seconds until every seat of the players' closed sockets is released (their
    consumers' disconnects done), or None if some are not within ``within`` seconds."""
    import psycopg

    started = time.monotonic()
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{PG_DATABASE}") as conn:
        while time.monotonic() - started < within:
            held = conn.execute("SELECT count(*) FROM games_tableseat WHERE channel_name <> ''")
            if held.fetchone()[0] == 0:
                return round(time.monotonic() - started, 2)
            conn.rollback()  # a fresh snapshot for the next look
            time.sleep(0.05)
    return None


def stop(server: Server) -> str:
    """Stop daphne: "exited", or "killed" if it did not exit within load.py's 10 s."""
    try:
        server.stop()
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
        server.log.close()
        return "killed"
    return "exited"


def percentile(values: list[float], q: int) -> float:
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 1)


def report(results: list[tuple[int, float, str]], step: Step) -> dict:
    times = sorted(ms for _, ms, _ in results)
    failed = [(status, body) for status, _, body in results if status != 200]
    moves = sorted(step.latencies)
    return {
        "calls": len(results),
        "not_200": len(failed),
        "answers": dict(collections.Counter(str(status) for status, _, _ in results)),
        "failures": dict(collections.Counter(f"{s} {b}"[:200] for s, b in failed)),
        "healthz_ms": {
            "median": round(statistics.median(times), 1),
            "p95": percentile(times, 95),
            "p99": percentile(times, 99),
            "max": round(times[-1], 1),
        },
        "moves": len(moves),
        "move_median_ms": round(statistics.median(moves), 1) if moves else None,
        "move_errors": step.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=10.0, help="healthz calls a second")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--pace", type=float, default=0.5, help="moves a second per table")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="healthz-"))
    env = environment("postgres", workdir)
    env["DATABASE_URL"] = f"postgresql://postgres@127.0.0.1:5432/{PG_DATABASE}"
    env["REDIS_URL"] = REDIS_URL
    print("preparing…", flush=True)
    prepare(env)
    tables = make_tables(env, args.tables)
    server = Server(env, workdir)
    try:
        print(
            f"{args.calls} calls at {args.rate}/s, {args.tables} tables at {args.pace} moves/s",
            flush=True,
        )
        results, step = run_step(under_load(tables, server, args))
    finally:
        released = seats_released()
        exited = stop(server)
        log = Path(server.log.name).read_text()
        shutil.rmtree(workdir, ignore_errors=True)
    figures = report(results, step)
    figures["seats_released_s"] = released
    figures["daphne_exit"] = exited
    figures["daphne_log_tracebacks"] = log.count("Traceback")
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
