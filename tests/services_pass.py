"""Run the online-play, crews, score-sheet and production tests again on PostgreSQL and Redis.

`make test` runs the whole suite on the embedded default (SQLite, the in-memory channel
layer), then this pass: the same consumer and service tests, plus the tests that only mean
something on a real deployment (row locks, several daphne processes, a crash), against
PostgreSQL at 127.0.0.1:5432 and channels-redis at 127.0.0.1:6379. Without those servers the
pass is skipped, unless REQUIRE_SERVICES=1 (CI), where that is a failure.

    python -m tests.services_pass [test paths and pytest options; default: the suites]
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests import services

DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/mexican_train"
REDIS_URL = "redis://127.0.0.1:6379/14"  # a database of its own, away from a developer's data
SUITES = ("tests/games", "tests/crews", "tests/scoring", "tests/production")


def main(argv: list[str]) -> int:
    missing = [
        name
        for name, up in (
            ("PostgreSQL", services.postgres_available()),
            ("Redis", services.redis_available()),
        )
        if not up
    ]
    if missing:
        message = f"{' and '.join(missing)} not answering: the PostgreSQL + Redis pass"
        if services.services_required():
            print(f"{message} cannot run, and REQUIRE_SERVICES=1 forbids skipping it.")
            return 1
        print(f"{message} is skipped.")
        return 0
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "DB_CONN_MAX_AGE": "0",  # no session left open on the test database at teardown
    }
    print(f"--- the PostgreSQL + Redis pass: {' '.join(SUITES)}", flush=True)
    pytest = [sys.executable, "-m", "pytest", "-m", "not browser", "-p", "no:cacheprovider"]
    return subprocess.call([*pytest, *(argv or SUITES)], env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
