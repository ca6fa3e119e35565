"""Abuse benchmark: what one hostile client costs the other tables of a process.

    python benchmarks/abuse.py [--mode sqlite|postgres] [--tables 8] [--seconds 15]
                               [--pace 2] [--json results.json]
    python benchmarks/abuse.py --soak [--tables 100] [--minutes 10] [--pace 0.25]

It starts the app as one daphne process (DEBUG=0, as load.py does), creates tables of four
people and plays all but the first at ``--pace`` moves a second each, timing every move from
its sending until all four seats hold the new view. Then, in turn:

- quiet: nothing else happens (the move median every later phase is compared with);
- flood: a client in a process of its own opens a spectator's socket and writes ping frames
  as fast as the connection takes them, until the server drops it;
- storm: four clients reconnect to the first table's seat over and over, each time sending
  29 pings before hanging up, while a spectator of that table counts the views it receives;
- after each abusive phase, a quiet phase of the same length (the recovery).

It prints each phase's move median and 99th percentile, the ratio of each median to the
quiet one, the server's resident memory (VmRSS) at the start, at its peak and at the end of
each recovery, what the abusers managed to send, and errors in the daphne log.

--soak plays ``--tables`` tables for ``--minutes`` at ``--pace`` and prints the memory after
the first minute and at the end, and the errors (refused or lost moves, and tracebacks in
the daphne log). Tables whose match ends are replaced by new ones, so the load holds.

A benchmark, not a test: it asserts nothing, and the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402
from load import (  # noqa: E402
    ROOT,
    Server,
    Step,
    Table,
    environment,
    free_port,
    make_tables,
    open_socket,
    prepare,
    run_step,
)

STORM_CLIENTS = 4
STORM_PINGS = 29  # one under the socket's burst allowance, as the report's attacker sent


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


# -- the abusers, each in a process of its own ---------------------------------------------


def _frames(payload: bytes, count: int) -> bytes:
    """``count`` masked client text frames of ``payload`` (RFC 6455 5.2), ready to write."""
    mask = b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return (bytes([0x81, 0x80 | len(payload)]) + mask + masked) * count


def flood(url: str, seconds: float) -> dict:
    """One socket writes pings as fast as its connection takes them, until the server drops
    it or the time is up. (Reconnecting to go on is the storm's part.)"""
    from websockets.sync.client import connect

    burst = _frames(b'{"type":"ping"}', 2_000)
    sent = 0
    start = time.monotonic()
    origin = url.replace("ws://", "http://").split("/ws/")[0]
    with connect(url, origin=origin, open_timeout=5) as ws:
        raw: socket.socket = ws.socket
        raw.settimeout(1)
        try:
            while time.monotonic() - start < seconds:
                raw.sendall(burst)
                sent += 2_000
        except OSError:  # reset by the server, or it stopped reading (the timeout)
            pass
    dropped = time.monotonic() - start
    return {"frames_written": sent, "dropped_after_s": round(dropped, 2)}


def storm(url: str, seconds: float) -> dict:
    """Reconnect, send STORM_PINGS pings, hang up; again, as fast as the server allows."""
    from websockets.sync.client import connect

    sent = connections = closed_early = 0
    stop = time.monotonic() + seconds
    origin = url.replace("ws://", "http://").split("/ws/")[0]
    while time.monotonic() < stop:
        try:
            with connect(url, origin=origin, open_timeout=5) as ws:
                connections += 1
                for _ in range(STORM_PINGS):
                    ws.send('{"type":"ping"}')
                    sent += 1
        except Exception:  # refused or closed by the server
            closed_early += 1
    return {"messages_sent": sent, "connections": connections, "refused_or_closed": closed_early}


def abuser(kind: str, url: str, seconds: float) -> subprocess.Popen:
    """An abuser's process, at the lowest priority: an attacker writes from a machine of its
    own, and here its loop would otherwise take the cores the server and the players share."""
    return subprocess.Popen(
        ["nice", "-n", "19", sys.executable, __file__, f"--{kind}-client", url]
        + ["--seconds", str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )


class Nginx:
    """deploy/nginx.conf in front of one daphne, as docker-compose.yml runs it: the same
    limits per address, the upstream and the port rewritten for this machine."""

    def __init__(self, upstream_port: int, workdir: Path) -> None:
        self.port = free_port()
        site = (ROOT / "deploy" / "nginx.conf").read_text()
        site = re.sub(r"(?m)^resolver .*$", "", site)
        site = re.sub(r"(?m)^\s*server web-2:8000 resolve;$", "", site)
        site = site.replace("server web-1:8000 resolve;", f"server 127.0.0.1:{upstream_port};")
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        (workdir / "site.conf").write_text(site)
        temp = workdir / "nginx-temp"
        temp.mkdir()
        (workdir / "nginx.conf").write_text(
            f"daemon off; worker_processes 1; pid {workdir}/nginx.pid;\n"
            f"error_log {workdir}/nginx-error.log warn;\n"
            "events { worker_connections 4096; }\n"
            f"http {{ access_log off; client_body_temp_path {temp}; proxy_temp_path {temp};\n"
            f"  fastcgi_temp_path {temp}; uwsgi_temp_path {temp}; scgi_temp_path {temp};\n"
            f"  include {workdir}/site.conf; }}\n"
        )
        self.process = subprocess.Popen(
            ["nginx", "-p", str(workdir), "-c", str(workdir / "nginx.conf")]
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            time.sleep(0.1)
        raise RuntimeError("nginx did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


# -- the run ---------------------------------------------------------------------------------


def summary(step: Step, seconds: float, quiet: float | None = None) -> dict:
    """load.py's figures of a step (ms), with the moves counted and, given the quiet
    phase's median, this one's against it."""
    result = {"moves": len(step.latencies), **load.summary(step, seconds)}
    if quiet and result["median"]:
        result["median_vs_quiet"] = round(result["median"] / quiet, 2)
    return result


class Played(Table):
    """A table played as load.py plays one, whose refusals are counted by their code (its
    Ready to all four seats at a round's end draws "refused" from those already dealt in;
    an error is a refused or stale move, or one whose views did not all come within 10 s)."""

    def refused(self, message: dict) -> None:
        refusals[str(message.get("code"))] += 1
        super().refused(message)


refusals: collections.Counter[str] = collections.Counter()


class Spectator:
    """Counts the views a table's spectator receives."""

    def __init__(self) -> None:
        self.views = 0

    async def run(self, url: str) -> None:
        async with await open_socket(url, asyncio.Semaphore(1)) as ws:
            async for _ in ws:
                self.views += 1


async def abuse_run(
    tables: list[dict], url: str, abuser_url: str, pid: int, seconds: float, pace: float
) -> dict:
    """``url`` is daphne's, for the tables played; ``abuser_url`` the abusers' way in (the
    same, or nginx in front of it)."""
    loop = asyncio.get_running_loop()
    target, victims = tables[0], tables[1:]
    players = [Played(t["code"], t["tokens"], [url] * len(t["tokens"]), Step()) for t in victims]
    opening = asyncio.Semaphore(50)
    sockets = [asyncio.create_task(s.run(opening)) for p in players for s in p.seats]
    await asyncio.gather(*(s.ready.wait() for p in players for s in p.seats))
    phases = ["quiet", "flood", "after flood", "storm", "after storm"]
    # Played until the last phase ends: waiting for an abuser to exit lengthens a phase.
    playing = [asyncio.create_task(p.play(pace, math.inf)) for p in players]
    await asyncio.sleep(3)  # warm up
    spectator = Spectator()
    watching = asyncio.create_task(spectator.run(f"{url}/ws/table/{target['code']}/"))
    report: dict = {"rss_mb": {"start": round(rss_mb(pid), 1)}}
    quiet = None
    for phase in phases:
        step = Step(started=loop.time())
        for p in players:
            p.step = step
        child = None
        if phase == "flood":
            child = abuser("flood", f"{abuser_url}/ws/table/{target['code']}/", seconds)
        elif phase == "storm":
            views_before = spectator.views
            seat = f"{abuser_url}/ws/table/{target['code']}/?seat={target['tokens'][1]}"
            child = [abuser("storm", seat, seconds) for _ in range(STORM_CLIENTS)]
        peak = rss_mb(pid)
        end = loop.time() + seconds
        while loop.time() < end:
            await asyncio.sleep(0.5)
            peak = max(peak, rss_mb(pid))
        report[phase] = summary(step, seconds, quiet)
        if refusals:
            report[phase]["refusals"] = dict(refusals)
            refusals.clear()
        if phase == "quiet":
            quiet = report[phase]["median"]
        report["rss_mb"][f"peak {phase}"] = round(peak, 1)
        report["rss_mb"][f"end {phase}"] = round(rss_mb(pid), 1)
        if phase == "flood":
            report[phase]["abuser"] = json.loads((await asyncio.to_thread(child.communicate))[0])
        elif phase == "storm":
            outs = [json.loads((await asyncio.to_thread(c.communicate))[0]) for c in child]
            report[phase]["abusers"] = {k: sum(o[k] for o in outs) for k in outs[0]}
            report[phase]["spectator_views"] = spectator.views - views_before
    for task in [*playing, *sockets, watching]:
        task.cancel()
    await asyncio.gather(*playing, *sockets, watching, return_exceptions=True)
    return report


async def soak_run(
    env: dict[str, str], tables: list[dict], url: str, pid: int, minutes: float, pace: float
) -> dict:
    loop = asyncio.get_running_loop()
    step = Step(started=loop.time())
    opening = asyncio.Semaphore(50)
    stop = loop.time() + minutes * 60
    sockets: list[asyncio.Task] = []

    async def keep_playing(table: dict) -> None:
        """Play a table until the soak ends; when its match is over, open a new table."""
        while loop.time() < stop:
            player = Played(table["code"], table["tokens"], [url] * 4, step)
            seats = [asyncio.create_task(s.run(opening)) for s in player.seats]
            sockets.extend(seats)
            await asyncio.gather(*(s.ready.wait() for s in player.seats))
            while loop.time() < stop and not player.seats[0].view["game"]["over"]:
                await player.play(pace, min(stop, loop.time() + 30))
            for task in seats:
                task.cancel()
            if loop.time() < stop:
                table = (await asyncio.to_thread(make_tables, env, 1))[0]

    play = asyncio.gather(*(keep_playing(t) for t in tables))
    await asyncio.sleep(60)
    first_minute = rss_mb(pid)
    moves_first_minute = len(step.latencies)
    await play
    for task in sockets:
        task.cancel()
    await asyncio.gather(*sockets, return_exceptions=True)
    end = rss_mb(pid)
    return {
        "tables": len(tables),
        "minutes": minutes,
        "pace": pace,
        **summary(step, minutes * 60),
        "moves_first_minute": moves_first_minute,
        "rss_mb": {
            "after first minute": round(first_minute, 1),
            "end": round(end, 1),
            "change": f"{(end - first_minute) / first_minute:+.1%}",
        },
    }


def tracebacks(log: Path) -> dict:
    text = log.read_text(errors="replace")
    return {
        "tracebacks": text.count("Traceback (most recent call last)"),
        "closed_protocol": text.count("Attempt to send on a closed protocol"),
        "error_lines": sum(1 for line in text.splitlines() if " ERROR " in line),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", default="sqlite", choices=["sqlite", "postgres"])
    parser.add_argument("--tables", type=int)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--pace", type=float)
    parser.add_argument(
        "--nginx",
        action="store_true",
        help="the abusers come through deploy/nginx.conf (the tables played do not: they "
        "stand for other addresses, which nginx's limits per address leave alone)",
    )
    parser.add_argument("--soak", action="store_true")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep-log", type=Path, help="copy the daphne log here")
    parser.add_argument("--flood-client")
    parser.add_argument("--storm-client")
    args = parser.parse_args()
    if args.flood_client:
        print(json.dumps(flood(args.flood_client, args.seconds)))
        return
    if args.storm_client:
        print(json.dumps(storm(args.storm_client, args.seconds)))
        return
    count = args.tables or (100 if args.soak else 8)
    pace = args.pace or (0.25 if args.soak else 2.0)
    with tempfile.TemporaryDirectory(prefix="abuse-") as tmp:
        workdir = Path(tmp)
        env = environment(args.mode, workdir)
        prepare(args.mode, env)
        tables = make_tables(env, count)
        server = Server(env, workdir)
        url = f"ws://127.0.0.1:{server.port}"
        proxy = Nginx(server.port, workdir) if args.nginx else None
        abuser_url = f"ws://127.0.0.1:{proxy.port}" if proxy else url
        try:
            if args.soak:
                result = run_step(
                    soak_run(env, tables, url, server.process.pid, args.minutes, pace)
                )
            else:
                result = run_step(
                    abuse_run(tables, url, abuser_url, server.process.pid, args.seconds, pace)
                )
        finally:
            if proxy:
                proxy.stop()
            try:
                server.stop()
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()
                print("daphne did not stop within 10 s of SIGTERM: killed", file=sys.stderr)
        log = next(workdir.glob("daphne-*.log"))
        result["daphne_log"] = tracebacks(log)
        if args.keep_log:
            shutil.copy(log, args.keep_log)
        result["mode"] = args.mode + (" behind nginx" if args.nginx else "")
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
