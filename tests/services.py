"""Is an outside service there? Tests that need one call `require(...)` through a fixture.

A missing service skips the test on a developer's machine, but fails it when
REQUIRE_SERVICES=1 (set by .ci/run), so CI can never go green by skipping.
"""

import functools
import os
from pathlib import Path

import pytest

POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/0"
CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT = 2  # seconds; both services answer in milliseconds when they are up


@functools.cache
def postgres_available(url: str = POSTGRES_URL) -> bool:
    """True when PostgreSQL accepts a login and runs a query."""
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=TIMEOUT) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True


@functools.cache
def redis_available(url: str = REDIS_URL) -> bool:
    """True when Redis answers PING."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except redis.RedisError:
        return False


def chromium_available(path: Path = CHROMIUM) -> bool:
    """True when Debian's chromium is installed (Playwright's own browsers are not used)."""
    return path.is_file() and os.access(path, os.X_OK)


def services_required() -> bool:
    return os.environ.get("REQUIRE_SERVICES") == "1"


def require(name: str, available: bool, hint: str) -> None:
    """Skip (or, with REQUIRE_SERVICES=1, fail) the calling test when `name` is missing."""
    if available:
        return
    message = f"{name} is not available: {hint}"
    if services_required():
        pytest.fail(f"{message} (REQUIRE_SERVICES=1 forbids skipping)", pytrace=False)
    pytest.skip(message)
