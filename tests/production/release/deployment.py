"""A release as it is deployed: DEBUG=0, the static files collected and named by the hash of
their content, whitenoise serving them. Every step runs in a fresh interpreter with the
environment a deployment has, so the settings are read from it as at a server's start
(config/settings.py reads them at import, and picks the static storage by DEBUG).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# Variables of a developer's or CI's shell (or set by the browser tests' conftest) that
# would make the release something else.
PROJECT_VARIABLES = (
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "SECURE_COOKIES",
    "HSTS_SECONDS", "BEHIND_PROXY", "STATIC_ROOT", "DJANGO_ALLOW_ASYNC_UNSAFE",
)  # fmt: skip

# The static storage as settings pick it with DEBUG=0, and where collectstatic put the files.
COLLECT = """
import json, django
from django.conf import settings
from django.core.management import call_command
django.setup()
call_command("collectstatic", interactive=False, verbosity=0)
print(json.dumps({"STORAGES": settings.STORAGES, "STATIC_ROOT": str(settings.STATIC_ROOT)}))
"""


def release_environment(folder: Path) -> dict[str, str]:
    """The environment of a DEBUG=0 process with its own SQLite file and static files in
    ``folder``, serving plain HTTP on 127.0.0.1 (SECURE_COOKIES=0, as on a LAN: a Secure
    cookie would not come back over http://)."""
    clean = {k: v for k, v in os.environ.items() if k not in PROJECT_VARIABLES}
    return {
        **clean,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "a-release-under-test-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SECURE_COOKIES": "0",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "STATIC_ROOT": str(folder / "static"),
    }


def collect_static(env: dict[str, str]) -> dict:
    """Run collectstatic as deploy/serve.sh does; the settings it ran with (STORAGES and
    STATIC_ROOT), for a test process to take the same."""
    done = subprocess.run(
        [sys.executable, "-c", COLLECT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def migrate(env: dict[str, str]) -> None:
    command = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(command, cwd=ROOT, env=env, check=True, timeout=120)


def start_daphne(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    """daphne serving config.asgi with ``env``, once its /healthz answers."""
    with log.open("w") as output:
        daphne = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            + ["config.asgi:application"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if daphne.poll() is not None:
            raise RuntimeError(f"daphne exited with {daphne.returncode}:\n{log.read_text()}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
            return daphne
        except OSError:
            time.sleep(0.1)  # polling a port: there is nothing to wait on instead
    daphne.kill()
    raise RuntimeError(f"daphne did not answer within 30 s:\n{log.read_text()}")
