"""Load benchmark: tables of four websocket players at a brisk human pace, and the capacity.

    python benchmarks/load.py [--modes sqlite,postgres,postgres-2,postgres-2-spread]
                              [--ladder 25,50,100,150] [--seconds 20] [--turns 3]
                              [--profile N] [--experts K] [--json results.json]

For each mode it prepares a fresh database, starts the app as daphne processes (as in
docker-compose.yml: the embedded SQLite + in-memory layer in one process, or PostgreSQL +
Redis in one or two), creates tables of four seats and connects four websocket players to
each. With two processes, "postgres-2" puts all four sockets of a table on one process, as
deploy/nginx.conf's table affinity does; "postgres-2-spread" spreads each table's seats over
both, the worst case (a proxy without affinity, or tables that reconnected after a
failover), where every process follows and renders every table's moves. Each table acts once
a second (the tables out of step), the seat on turn playing a real move from its own view
(the heaviest legal tile, as the greedy bot does, or draw/pass/done), and the benchmark
times each action from its sending to the moment every seat of that table holds the new
view; the clock starts a few seconds after every socket has its first view (how long
connecting took is printed too). It prints actions per second and the latency's median, 95th
and 99th percentiles for each number of tables, the capacity (the most tables whose 99th
percentile stays under 100 ms), and, in the same run, the floor: a trivial echo consumer
through the same stack (config/echo.py) with as many sockets at the same pace. The game and
the echo take turns (--turns, each turn a fresh set of sockets), so that both are measured
through the same stretches of a shared machine; each turn's medians are printed too, and
the ratio of the game's median to the echo's. --profile N samples the first daphne with
py-spy (the `bench` extra) during the first turn of the ladder's N-table step. --experts K
keeps K more tables playing beside the measured ones, each one person and three expert bots
(whose search runs in a thread of the process that serves the table): what a thinking
expert costs the other tables.

This is a benchmark, not a test: it asserts nothing, and the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import orjson

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_DATABASE = "mexican_train_load"
REDIS_URL = "redis://127.0.0.1:6379/13"
LIMIT_MS = 100.0
WARM_UP = 3.0  # seconds of each step not measured: connections settle, tables get going

# routing: which process each socket goes to (see route): "table", all of a table's on one
# process, as the proxy sends them; "spread", a table's seats over the processes in turn.
MODES = {
    "sqlite": {"processes": 1, "database": "sqlite", "routing": "table"},
    "postgres": {"processes": 1, "database": "postgres", "routing": "table"},
    "postgres-2": {"processes": 2, "database": "postgres", "routing": "table"},
    "postgres-2-spread": {"processes": 2, "database": "postgres", "routing": "spread"},
}


def route(urls: list[str], routing: str, group: int, seat: int) -> str:
    """The process (its base URL) for seat ``seat`` of table or echo group ``group``. By
    "table", group k goes to process k % processes, whole: the proxy hashes the table's code,
    so a table's sockets share a process. By "spread", seat i goes to process i %
    processes, as a round-robin proxy would, so every process holds a seat of every table.
    The game and the echo route alike, so the floor has the game's topology."""
    return urls[(group if routing == "table" else seat) % len(urls)]


# -- the app under load -------------------------------------------------------------------


def environment(mode: str, workdir: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "load-benchmark-only",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_COOKIES": "0",
        "BOT_TURN_DELAY": "0",
        "NEXT_ROUND_COUNTDOWN": "3600",
        "LOAD_TEST_ECHO": "1",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        **({"PYTHONASYNCIODEBUG": "1"} if os.environ.get("LOAD_ASYNCIO_DEBUG") else {}),
    }
    if MODES[mode]["database"] == "sqlite":
        env["DATABASE_URL"] = f"sqlite:///{workdir / 'load.sqlite3'}"
        env.pop("REDIS_URL", None)
    else:
        env["DATABASE_URL"] = f"postgresql://postgres@127.0.0.1:5432/{PG_DATABASE}"
        env["REDIS_URL"] = REDIS_URL
    return env


def prepare(mode: str, env: dict[str, str]) -> None:
    """A fresh database with the schema, an empty Redis database, and collected static."""
    if MODES[mode]["database"] == "postgres":
        import psycopg
        import redis

        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{PG_DATABASE}"')
        redis.Redis.from_url(REDIS_URL).flushdb()
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [*manage, "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def make_tables(env: dict[str, str], count: int, bots: str = "") -> list[dict]:
    """Create ``count`` started tables of four people, or with ``bots`` one person and
    three bots of that level (in a child process, which has the mode's settings); returns
    each table's code and its people's seat tokens."""
    done = subprocess.run(
        [sys.executable, __file__, "--make-tables", str(count), "--bots", bots],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)


def _make_tables_here(count: int, bots: str) -> None:
    import django

    django.setup()
    from games import services
    from games.engine import Rules

    tables = []
    for _ in range(count):
        table, host = services.create_table(rules=Rules(), seat_count=4, host_name="Player 1")
        tokens = [host.token]
        for i in range(2, 5):
            if bots:
                services.add_bot(table.code, host_token=table.host_token, level=bots)
            else:
                tokens.append(services.join(table.code, name=f"Player {i}").token)
        services.start(table.code, host_token=table.host_token)
        tables.append({"code": table.code, "tokens": tokens})
    print(json.dumps(tables))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.port = free_port()
        self.log = (log_dir / f"daphne-{self.port}.log").open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
             "config.asgi:application"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1)
                return
            time.sleep(0.2)
        raise RuntimeError(f"daphne on {self.port} did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


# -- the players --------------------------------------------------------------------------


@dataclass
class Pending:
    sent: float
    target: int  # the version the action makes
    seen: set[int] = field(default_factory=set)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    failed: bool = False


@dataclass
class Step:
    latencies: list[float] = field(default_factory=list)  # ms
    errors: int = 0
    connected: float = 0.0  # seconds until every socket had its first answer
    started: float = 0.0  # when the measured seconds begin: WARM_UP after every socket is in
    cpu: dict[str, float] = field(default_factory=dict)  # share of one core while measured
    measuring: asyncio.Event = field(default_factory=asyncio.Event)

    def all_connected(self, since: float) -> float:
        """Every socket is in: the measured seconds start WARM_UP from now (the connecting
        itself, a burst of views with their score sheets, is not what this measures).
        Returns when they stop."""
        now = asyncio.get_running_loop().time()
        self.connected = round(now - since, 1)
        self.started = now + WARM_UP
        self.measuring.set()
        return self.started


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


SERVICES = {"postgres": "postgres", "redis": "redis-server"}  # name in the table: command


def service_cpu() -> dict[str, dict[int, float]]:
    """CPU seconds so far of every PostgreSQL and Redis process, by pid (a connection's
    backend is a process of its own)."""
    found: dict[str, dict[int, float]] = {name: {} for name in SERVICES}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            command = (proc / "comm").read_text().strip()
            for name, wanted in SERVICES.items():
                if command == wanted:
                    found[name][int(proc.name)] = cpu_seconds(int(proc.name))
    return found


def machine_busy() -> float:
    """Busy CPU seconds of the whole machine so far, all cores (Linux /proc/stat)."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = (
        int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]
    )
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


async def measure_cpu(step: Step, pids: list[int], seconds: float) -> None:
    """How busy the servers, this load generator, PostgreSQL, Redis and the whole machine
    (its two cores: at most 2.0) were during the measured seconds."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, step.started - loop.time()))
    servers, client = [cpu_seconds(p) for p in pids], time.process_time()
    services, machine = service_cpu(), machine_busy()
    await asyncio.sleep(seconds)
    for i, (pid, before) in enumerate(zip(pids, servers, strict=True)):
        step.cpu[f"server{i + 1}"] = round((cpu_seconds(pid) - before) / seconds, 2)
    step.cpu["client"] = round((time.process_time() - client) / seconds, 2)
    for name, now in service_cpu().items():
        used = sum(t - services[name].get(pid, 0.0) for pid, t in now.items())
        step.cpu[name] = round(used / seconds, 2)
    step.cpu["machine"] = round((machine_busy() - machine) / seconds, 2)


OPENING_AT_ONCE = 50  # handshakes in flight: a few hundred at once overran daphne's 5 s
CONNECT_ATTEMPTS = 5


async def open_socket(url: str, opening: asyncio.Semaphore):
    """A websocket to ``url``, opened at most OPENING_AT_ONCE at a time and tried again
    after a failed handshake, as the table page does (with backoff)."""
    import websockets

    origin = url.replace("ws://", "http://").split("/ws/")[0]
    failed = 0
    while True:
        try:
            async with opening:
                return await websockets.connect(url, origin=origin, max_size=2**22)
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
            failed += 1
            if failed == CONNECT_ATTEMPTS:
                raise
            await asyncio.sleep(0.5 * 2 ** (failed - 1))


class Seat:
    def __init__(self, table: Table, index: int, url: str) -> None:
        self.table, self.index, self.url = table, index, url
        self.view: dict | None = None
        self.ready = asyncio.Event()

    async def run(self, opening: asyncio.Semaphore) -> None:
        from websockets.exceptions import ConnectionClosedOK

        async with await open_socket(self.url, opening) as ws:
            self.socket = ws
            while True:
                # The frame's bytes, read by orjson as they came: four views of 20 KB a move
                # decoded and parsed by the standard library took a tenth of a core at 100
                # tables, on the cores the server under test shares with this process.
                try:
                    frame = await ws.recv(decode=False)
                except ConnectionClosedOK:
                    return
                message = orjson.loads(frame)
                if message["type"] == "view":
                    self.view = message
                    self.ready.set()
                    self.table.seen(self.index, message["version"])
                elif message["type"] == "error":
                    self.table.refused(message)


class Table:
    """Four seats; once a second the seat on turn plays from its own view."""

    def __init__(self, code: str, tokens: list[str], urls: list[str], step: Step) -> None:
        """``urls``: each seat's process (see route)."""
        self.step = step
        self.seats = [
            Seat(self, i, f"{url}/ws/table/{code}/?seat={token}")
            for i, (token, url) in enumerate(zip(tokens, urls, strict=True))
        ]
        self.pending: Pending | None = None

    def seen(self, seat: int, version: int) -> None:
        pending = self.pending
        if pending is not None and version >= pending.target:
            pending.seen.add(seat)
            if len(pending.seen) == len(self.seats):
                pending.done.set()

    def refused(self, message: dict) -> None:
        if self.pending is not None:
            self.pending.failed = True
            self.pending.done.set()

    async def play(self, pace: float, stop: float) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(s.ready.wait() for s in self.seats))
        await asyncio.sleep(random.random() / pace)  # tables out of step
        tick = loop.time()
        while loop.time() < stop:
            tick += 1 / pace
            await self._act(loop)
            await asyncio.sleep(max(0.0, tick - loop.time()))

    async def _act(self, loop) -> None:
        newest = max(s.view["version"] for s in self.seats)
        views = [s.view for s in self.seats]
        game = next(v for v in views if v["version"] == newest)["game"]
        if game["over"]:
            return
        if game["round_over"]:  # everybody ready: not timed, it is no move
            for seat in self.seats:
                await seat.socket.send('{"type": "ready"}')
            return
        seat = self.seats[game["turn"]]
        if seat.view["version"] != newest:
            return  # its view is on its way; try next tick
        message = choose(seat.view)
        self.pending = Pending(sent=loop.time(), target=newest + 1)
        await seat.socket.send(json.dumps(message))
        try:
            await asyncio.wait_for(self.pending.done.wait(), 10)
        except TimeoutError:
            self.pending.failed = True
        if self.pending.failed:
            self.step.errors += 1
        elif self.pending.sent >= self.step.started:
            self.step.latencies.append((loop.time() - self.pending.sent) * 1000)
        self.pending = None


def choose(view: dict) -> dict:
    """The greedy bot's move, from the seat's own view: the heaviest tile that plays."""
    legal = view["game"]["legal"]
    plays = [a for a in legal if a["kind"] == "play"]
    action = max(plays, key=lambda a: sum(a["tile"])) if plays else legal[0]
    message = {"type": action["kind"], "version": view["version"]}
    if action["kind"] == "play":
        message.update(tile=action["tile"], train=action["train"], end=action["end"])
    return message


async def game_step(
    tables: list[dict],
    urls: list[str],
    routing: str,
    seconds: float,
    pace: float,
    pids: list[int],
    step: Step | None = None,
) -> Step:
    step = step or Step()
    loop = asyncio.get_running_loop()
    players = [
        Table(
            t["code"],
            t["tokens"],
            [route(urls, routing, k, i) for i, _ in enumerate(t["tokens"])],
            step,
        )
        for k, t in enumerate(tables)
    ]
    start = loop.time()
    opening = asyncio.Semaphore(OPENING_AT_ONCE)
    sockets = [asyncio.create_task(s.run(opening)) for p in players for s in p.seats]
    first_views = asyncio.gather(*(s.ready.wait() for p in players for s in p.seats))
    done, _ = await asyncio.wait([first_views, *sockets], return_when=asyncio.FIRST_COMPLETED)
    stopped = [task for task in done if task is not first_views]
    if stopped:  # a socket gave up connecting, or was closed, before its first view
        first_views.cancel()
        why = stopped[0].exception() or "the server closed it"
        raise RuntimeError(f"a socket stopped before its first view: {why}")
    stop = step.all_connected(since=start) + seconds
    cpu = asyncio.create_task(measure_cpu(step, pids, seconds))
    await asyncio.gather(*(p.play(pace, stop) for p in players))
    await cpu
    for task in sockets:
        task.cancel()
    await asyncio.gather(*sockets, return_exceptions=True)
    return step


async def echo_step(
    count: int, urls: list[str], routing: str, seconds: float, pace: float, pids: list[int]
) -> Step:
    """The floor: groups of four echo sockets, one message a second per group."""

    step = Step()
    loop = asyncio.get_running_loop()
    tag = random.randrange(10**9)

    opening = asyncio.Semaphore(OPENING_AT_ONCE)

    async def connect(n: int) -> list:
        return [
            await open_socket(f"{route(urls, routing, n, i)}/ws/echo/{tag}-{n}/", opening)
            for i in range(4)
        ]

    async def group(sockets: list) -> None:
        await asyncio.sleep(random.random() / pace)
        tick = loop.time()
        while loop.time() < step.started + seconds:
            tick += 1 / pace
            sent = loop.time()
            await sockets[0].send(json.dumps({"sent": sent, "pad": "x" * 64}))
            try:
                await asyncio.wait_for(asyncio.gather(*(s.recv() for s in sockets)), 10)
            except TimeoutError:
                step.errors += 1
            else:
                if sent >= step.started:
                    step.latencies.append((loop.time() - sent) * 1000)
            await asyncio.sleep(max(0.0, tick - loop.time()))
        for s in sockets:
            await s.close()

    start = loop.time()
    groups = await asyncio.gather(*(connect(n) for n in range(count)))
    step.all_connected(since=start)
    cpu = asyncio.create_task(measure_cpu(step, pids, seconds))
    await asyncio.gather(*(group(sockets) for sockets in groups))
    await cpu
    return step


async def with_company(
    step: Coroutine[Any, Any, T], bot_tables: list[dict], urls: list[str], routing: str
) -> T:
    """Run ``step`` while a person sits at each of ``bot_tables`` (one person, three bots)
    and plays on: the bots there keep taking their turns, untimed, beside the tables the
    step measures."""
    stop = asyncio.Event()
    opening = asyncio.Semaphore(OPENING_AT_ONCE)

    async def sit(url: str) -> None:
        async with await open_socket(url, opening) as ws:
            while not stop.is_set():
                try:
                    message = orjson.loads(await asyncio.wait_for(ws.recv(decode=False), 0.5))
                except TimeoutError:
                    continue
                game = message.get("game") if message["type"] == "view" else None
                if game is None or game["over"]:
                    continue
                if game["round_over"]:
                    await ws.send('{"type": "ready"}')
                elif game["turn"] == 0 and game["legal"]:
                    await ws.send(json.dumps(choose(message)))

    company = [
        asyncio.create_task(
            sit(f"{route(urls, routing, k, 0)}/ws/table/{t['code']}/?seat={t['tokens'][0]}")
        )
        for k, t in enumerate(bot_tables)
    ]
    try:
        return await step
    finally:
        stop.set()
        await asyncio.gather(*company, return_exceptions=True)


# -- figures ------------------------------------------------------------------------------


def merged(steps: list[Step]) -> Step:
    """The turns of one kind (game or echo) of a step, as one: their latencies together,
    their CPU shares averaged."""
    step = Step(
        latencies=[ms for s in steps for ms in s.latencies],
        errors=sum(s.errors for s in steps),
        connected=max(s.connected for s in steps),
    )
    step.cpu = {key: round(statistics.mean(s.cpu[key] for s in steps), 2) for key in steps[0].cpu}
    return step


def summary(step: Step, seconds: float) -> dict:
    lat = sorted(step.latencies)
    if len(lat) < 2:
        return {"actions_per_s": 0, "median": None, "p95": None, "p99": None,
                "errors": step.errors, "connect_s": step.connected, "cpu": step.cpu}  # fmt: skip
    cuts = statistics.quantiles(lat, n=100, method="inclusive")
    return {
        "actions_per_s": round(len(lat) / seconds, 1),
        "median": round(statistics.median(lat), 1),
        "p95": round(cuts[94], 1),
        "p99": round(cuts[98], 1),
        "errors": step.errors,
        "connect_s": step.connected,
        "cpu": step.cpu,
    }


PY_SPY = Path(sys.executable).with_name("py-spy")


def profile(server: Server, seconds: float, out: Path) -> dict[str, list[tuple[str, float]]]:
    """Sample the server with py-spy (only while it holds the GIL: busy time, not idle).
    Returns two breakdowns, in per cent of the samples: ``ours``, our own functions
    inclusive (a function and everything it calls), and ``self``, where the samples were
    actually executing (the innermost frame), by area: the engine, the rest of our code,
    Django's templates and ORM, Channels, daphne and Twisted, asyncio, json..."""
    raw = Path(tempfile.gettempdir()) / f"{out.name}-{server.port}.txt"
    subprocess.run(
        [str(PY_SPY), "record", "--gil", "--nonblocking", "--rate", "250",
         "--pid", str(server.process.pid), "--duration", str(int(seconds)),
         "--format", "raw", "--output", str(raw)],
        check=True, capture_output=True,
    )  # fmt: skip
    return breakdown(raw.read_text())


def breakdown(raw: str) -> dict[str, list[tuple[str, float]]]:
    """The two breakdowns of py-spy's raw output (a line per stack: frames, then a count)."""
    ours: collections.Counter[str] = collections.Counter()
    areas: collections.Counter[str] = collections.Counter()
    samples = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():  # py-spy ends its output with a blank line
            continue
        n = int(count)
        samples += n
        frames = [_frame(f) for f in stack.split(";")]
        for key in {f"{path}:{name}" for name, path in frames if _area(path) == "our code"}:
            ours[key] += n
        areas[_area(frames[-1][1])] += n

    def shares(counter, top):
        return [(k, round(100 * v / samples, 1)) for k, v in counter.most_common(top)]

    return {"ours": shares(ours, 20), "self": shares(areas, 15)}


def _frame(frame: str) -> tuple[str, str]:
    """A frame of py-spy's raw output, ``name (path:line)``, as (name, path): the path as
    py-spy shortens it, relative to its package's directory (``django/db/...``)."""
    name, _, where = frame.partition(" (")
    return name, where.rsplit(":", 1)[0].removeprefix(f"{ROOT}/")


AREAS = (
    ("games/engine/", "the engine"),
    ("games/", "our code"),
    ("scoring/", "our code"),
    ("config/", "our code"),
    ("django/template/", "Django templates"),
    ("django/db/", "Django ORM"),
    ("django/", "Django, other"),
    ("channels_redis/", "channels-redis"),
    ("redis/", "redis-py"),
    ("channels/", "Channels"),
    ("asgiref/", "asgiref"),
    ("daphne/", "daphne, Twisted, autobahn"),
    ("twisted/", "daphne, Twisted, autobahn"),
    ("autobahn/", "daphne, Twisted, autobahn"),
    ("asyncio/", "asyncio"),
    ("json/", "json"),
    ("sqlite3/", "sqlite3 (in C)"),
    ("psycopg/", "psycopg"),
)


def _area(path: str) -> str:
    return next((area for prefix, area in AREAS if path.startswith(prefix)), "other")


def run_step(step: Coroutine[Any, Any, T]) -> T:
    """One step of the players, with this process's cycle collector paused. The process
    holds every socket's last view (400 of 20 KB at 100 tables): collecting it stalled every
    player at once, for up to 200 ms (timed with a gc callback, not committed), and the
    moves waiting then were timed as the server's. Reference counting frees nearly all of
    it; the few cycles wait for the step's end. Game and echo steps alike."""
    gc.disable()
    try:
        return asyncio.run(step)
    finally:
        gc.enable()
        gc.collect()


def run_mode(
    mode: str,
    ladder: list[int],
    seconds: float,
    turns: int,
    pace: float,
    profile_at: int | None,
    experts: int = 0,
) -> dict:
    """Each step of the ladder: the game and the echo in ``turns`` turns each, one after the
    other, of ``seconds / turns`` measured seconds a turn. The machine is shared and its
    speed drifts from one half minute to the next (the echo's median alone went from 1.0 to
    2.0 ms in runs minutes apart): in turns, the game and its floor are measured through the
    same stretches of it."""
    window = seconds / turns
    workdir = Path(tempfile.mkdtemp(prefix=f"load-{mode}-"))
    env = environment(mode, workdir)
    print(f"\n== {mode}: preparing", flush=True)
    prepare(mode, env)
    tables = make_tables(env, max(ladder))
    bot_tables = make_tables(env, experts, bots="expert") if experts else []
    servers = [Server(env, workdir) for _ in range(MODES[mode]["processes"])]
    urls = [f"ws://127.0.0.1:{s.port}" for s in servers]
    routing = MODES[mode]["routing"]
    pids = [s.process.pid for s in servers]
    rows, capacity, failures = [], 0, 0
    try:
        for count in ladder:
            print(f"   {count} tables…", flush=True)
            games, echoes, prof = [], [], None
            for turn in range(turns):
                if count == profile_at and turn == 0:
                    game, prof = run_step(
                        _profiled_step(
                            tables[:count], urls, routing, window, pace, servers, workdir
                        )
                    )
                else:
                    game = run_step(
                        with_company(
                            game_step(tables[:count], urls, routing, window, pace, pids),
                            bot_tables,
                            urls,
                            routing,
                        )
                    )
                games.append(game)
                echoes.append(run_step(echo_step(count, urls, routing, window, pace, pids)))
            row = {
                "tables": count,
                "game": summary(merged(games), seconds),
                "echo": summary(merged(echoes), seconds),
                "turns": [
                    [summary(g, window)["median"], summary(e, window)["median"]]
                    for g, e in zip(games, echoes, strict=True)
                ],
            }
            if prof:
                row["profile"] = prof
            rows.append(row)
            print(f"   {json.dumps(row)[:300]}", flush=True)
            print(f"   medians in turns (game, echo): {row['turns']}", flush=True)
            p99 = row["game"]["p99"]
            if p99 is not None and p99 < LIMIT_MS and row["game"]["errors"] == 0:
                capacity, failures = count, 0
            else:
                failures += 1
                if failures >= 2:
                    break
    except Exception:
        for server in servers:  # what the servers said before the benchmark failed
            print(f"--- {server.log.name}:\n" + Path(server.log.name).read_text()[-3000:])
        raise
    finally:
        for server in servers:
            server.stop()
        if not os.environ.get("LOAD_KEEP"):
            shutil.rmtree(workdir, ignore_errors=True)
    return {
        "mode": mode,
        "processes": MODES[mode]["processes"],
        "routing": routing,
        "capacity": capacity,
        "steps": rows,
    }


async def _profiled_step(tables, urls, routing, seconds, pace, servers, workdir):
    pids = [s.process.pid for s in servers]
    step = Step()
    task = asyncio.create_task(game_step(tables, urls, routing, seconds, pace, pids, step))
    await step.measuring.wait()
    await asyncio.sleep(WARM_UP + 1)
    prof = await asyncio.to_thread(profile, servers[0], seconds - 2, workdir / "profile")
    return await task, prof


def ratio(game: dict, echo: dict) -> str:
    """The game's median over the echo's (the second goal), as printed."""
    if not game["median"] or not echo["median"]:
        return "-"
    return f"{game['median'] / echo['median']:.1f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--modes", default="sqlite,postgres,postgres-2", help=f"of: {', '.join(MODES)}"
    )
    parser.add_argument("--ladder", default="25,50,75,100,125,150,200,250")
    parser.add_argument("--seconds", type=float, default=20, help="measured, per kind and step")
    parser.add_argument("--turns", type=int, default=3, help="game and echo taken in turns")
    parser.add_argument("--pace", type=float, default=1.0, help="actions a second per table")
    parser.add_argument("--profile", type=int, metavar="TABLES", help="py-spy at this step")
    parser.add_argument(
        "--experts",
        type=int,
        default=0,
        help="tables of one person and three expert bots playing beside the measured ones",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--make-tables", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--bots", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make_tables:
        _make_tables_here(args.make_tables, args.bots)
        return
    if args.profile and not PY_SPY.exists():
        parser.error(f"--profile needs py-spy at {PY_SPY}: pip install -e '.[bench]'")
    modes = args.modes.split(",")
    if unknown := [m for m in modes if m not in MODES]:
        parser.error(f"unknown mode {', '.join(unknown)}: modes are {', '.join(MODES)}")
    ladder = [int(n) for n in args.ladder.split(",")]
    results = [
        run_mode(mode, ladder, args.seconds, args.turns, args.pace, args.profile, args.experts)
        for mode in modes
    ]
    width = max(11, *(len(m) for m in modes))
    print(
        f"\n{'mode':<{width}} procs tables  connect  actions/s  median   p95    p99  "
        "| echo median  p99 | ratio | cpu"
    )
    for result in results:
        for row in result["steps"]:
            g, e = row["game"], row["echo"]
            print(
                f"{result['mode']:<{width}} {result['processes']:>5} {row['tables']:>6} "
                f"{g['connect_s']:>7}s {g['actions_per_s']:>10} "
                f"{g['median']!s:>7} {g['p95']!s:>6} {g['p99']!s:>6}  | "
                f"{e['median']!s:>10} {e['p99']!s:>6} | {ratio(g, e):>5} | {g['cpu']}"
            )
        print(f"{result['mode']}: capacity {result['capacity']} tables (p99 < {LIMIT_MS:.0f} ms)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
