"""Daphne processes and websocket players for the multi-process tests.

The processes serve the test database (PostgreSQL) and share Redis, exactly as replicas of
the web service do behind nginx in docker-compose.yml; the players are plain websocket
clients that act only on what their views say, as a browser does.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import websockets
from django.conf import settings
from django.db import connection

ROOT = Path(settings.BASE_DIR)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daphne:
    """One daphne process on its own port, on the test database and the test Redis."""

    def __init__(self, log_dir: Path, port: int | None = None, **env: str) -> None:
        self.port = port or free_port()
        self.env = env  # settings of this process, over the test's (e.g. CLOCK_POLL)
        self.log = log_dir / f"daphne-{self.port}.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Daphne:
        db = connection.settings_dict
        env = {
            **os.environ,
            "DATABASE_URL": f"postgresql://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "REDIS_URL": os.environ["REDIS_URL"],
            "DEBUG": "1",
            "BOT_TURN_DELAY": "0",
            **self.env,
        }
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                 "config.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        self._wait_until_up()
        return self

    def _wait_until_up(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"daphne on {self.port} did not come up")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no goodbye to the sockets, as in a crash."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class SocketPlayer:
    """A seat played over a real websocket: it takes the first legal action of each new view
    that says it is its turn, and keeps every view it was sent."""

    def __init__(self, server: Daphne, code: str, token: str) -> None:
        self.server, self.code, self.token = server, code, token
        self.views: list[dict] = []
        self.socket = None

    async def connect(self) -> None:
        uri = f"{self.server.url}/ws/table/{self.code}/?seat={self.token}"
        self.socket = await websockets.connect(uri, origin=f"http://127.0.0.1:{self.server.port}")

    async def next_view(self, timeout: float = 15) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
            if message["type"] == "view":
                self.views.append(message)
                return message

    async def play(self, until=lambda view: view["game"]["round_over"]) -> dict:
        """Play this seat's turns until ``until`` holds for a view (default: the round ends),
        starting from the last view this player was sent, as a page does after a reconnect."""
        acted: set[int] = set()
        view = self.views[-1] if self.views else await self.next_view()
        while True:
            game = view["game"]
            if until(view):
                return view
            if game["turn"] == view["seat"] and game["legal"] and view["version"] not in acted:
                acted.add(view["version"])
                await self.socket.send(json.dumps(intent(game["legal"][0], view["version"])))
            view = await self.next_view()

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


def intent(action: dict, version: int) -> dict:
    message = {"type": action["kind"], "version": version}
    if action["kind"] == "play":
        message.update(tile=action["tile"], train=action["train"], end=action["end"])
    return message


def distinct_versions(views: list[dict]) -> list[int]:
    """The versions a player saw, each once (a seat joining resends the current one)."""
    seen: list[int] = []
    for view in views:
        if not seen or view["version"] != seen[-1]:
            seen.append(view["version"])
    return seen
