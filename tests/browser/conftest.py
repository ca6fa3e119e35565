"""Browser tests drive Debian's chromium through pytest-playwright.

Playwright's sync API runs an event loop in the test thread, which makes Django refuse ORM
calls there (SynchronousOnlyOperation); allowing it is safe here because the test thread
only drives the browser. It is set in this conftest alone, as the notes on channels advise.

pytest-django's live_server speaks WSGI only, so pages that need websockets are tested
against ``asgi_server``: daphne in a subprocess, on a SQLite file of its own. A test reads
that database through ``server_db``, a connection alias, with the ORM as usual.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections
from playwright.sync_api import expect


@pytest.fixture(scope="session", autouse=True)
def allow_orm_beside_playwright():
    """Playwright's sync API runs an event loop in the test thread, so Django would refuse
    the ORM there. Allowed from the first browser test on (they run last, see
    tests/conftest.py), never before: set at import, it would hide a consumer that touches
    the database from async code in every other test."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


STARTUP_TIMEOUT = 30  # seconds; daphne answers in about one
SERVER_DB = "asgi_server"
# Playwright's expect() waits 5 s by default; a Chromium just installed, starting cold on a
# busy 2-core machine, has been seen to need more for its first live update.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, require_chromium):
    """Use /usr/bin/chromium (Playwright's own browser downloads are not available), with
    the flags it needs to run headless as root in a container. Without the background
    networking flags Chromium keeps dialling Google's hosts, which this closed network refuses."""
    return {
        **browser_type_launch_args,
        "executable_path": require_chromium,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@dataclass(frozen=True)
class AsgiServer:
    url: str  # http://127.0.0.1:<port>, no trailing slash
    database: str  # connection alias of the server's database, for .using(...)
    log: Path


def free_port() -> int:
    """A port nobody listens on now (others run tests on this machine at the same time)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def asgi_server(tmp_path_factory, django_db_blocker) -> Iterator[AsgiServer]:
    """daphne serving config.asgi (HTTP and websockets) on a free port, with its own
    migrated SQLite file and the in-memory channel layer, for the whole session."""
    folder = tmp_path_factory.mktemp("asgi-server")
    database = folder / "db.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1"}
    # The coach weighs a decision with a few playouts (a review in seconds, the same on any
    # machine) and marks any that cost something, so a short round has decisions to step through.
    # An expert bot thinks a tenth of a second a decision.
    env.update(COACH_PLAYOUTS="4", COACH_MARK="0.5", EXPERT_BUDGET="0.1")
    env.pop("REDIS_URL", None)
    root = settings.BASE_DIR
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=root, env=env, check=True
    )
    port = free_port()
    log = folder / "daphne.log"
    with log.open("w") as output:
        daphne = subprocess.Popen(
            [Path(sys.executable).with_name("daphne"), "-b", "127.0.0.1", "-p", str(port)]
            + ["config.asgi:application"],
            cwd=root,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(daphne, url, log)
        connections.settings[SERVER_DB] = {**connections.settings["default"], "NAME": database}
        yield AsgiServer(url=url, database=SERVER_DB, log=log)
    finally:
        with django_db_blocker.unblock():
            connections[SERVER_DB].close()
        stop(daphne)


@contextmanager
def serve_release(folder: Path, **env: str) -> Iterator[str]:
    """The address of daphne serving a release (DEBUG=0, static files collected and named by
    their hashes) on a SQLite file of its own in ``folder``, with ``env`` over its settings."""
    from tests.production.release.deployment import (
        collect_static,
        migrate,
        release_environment,
        start_daphne,
    )

    environment = {**release_environment(folder), **env}
    migrate(environment)
    collect_static(environment)
    port = free_port()
    daphne = start_daphne(environment, port, folder / "daphne.log")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(daphne)


def stop(daphne: subprocess.Popen) -> None:
    """Stop a test's daphne: asked first, then killed, as on SIGTERM it waits up to its
    application close timeout (10 s) for open sockets' consumers to finish."""
    daphne.terminate()
    try:
        daphne.wait(timeout=5)
    except subprocess.TimeoutExpired:
        daphne.kill()
        daphne.wait()


def _wait_until_up(daphne: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if daphne.poll() is not None:
            pytest.fail(f"daphne exited with {daphne.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)  # polling a port: there is nothing to wait on instead
    pytest.fail(f"daphne did not answer within {STARTUP_TIMEOUT}s:\n{log.read_text()}")


@pytest.fixture
def server_db(asgi_server, django_db_blocker) -> Iterator[str]:
    """The alias of the server's database, readable with the ORM for this test."""
    with django_db_blocker.unblock():
        yield asgi_server.database


@pytest.fixture
def phone(browser, browser_context_args):
    """Open a new phone (a browser context at 390x844, touch, its own cookies)."""
    contexts = []

    def open_phone():
        context = browser.new_context(
            **{**browser_context_args, "viewport": {"width": 390, "height": 844}},
            has_touch=True,
            is_mobile=True,
        )
        contexts.append(context)
        return context

    yield open_phone
    for context in contexts:
        context.close()
