"""Fixtures shared by the whole suite.

require_postgres / require_redis / require_chromium give a test the service it needs, or skip
it when the service is missing (fail instead under REQUIRE_SERVICES=1, as in CI).
"""

import pytest

from tests import services


@pytest.fixture(scope="session")
def require_postgres() -> str:
    """The URL of a PostgreSQL server that answers (user postgres, trust auth)."""
    services.require(
        "PostgreSQL",
        services.postgres_available(),
        f"nothing answers at {services.POSTGRES_URL}",
    )
    return services.POSTGRES_URL


@pytest.fixture(scope="session")
def require_redis() -> str:
    """The URL of a Redis server that answers."""
    services.require(
        "Redis", services.redis_available(), f"nothing answers at {services.REDIS_URL}"
    )
    return services.REDIS_URL


@pytest.fixture(scope="session")
def require_chromium() -> str:
    """The path of Debian's chromium, which the browser tests drive through Playwright."""
    services.require(
        "Chromium",
        services.chromium_available(),
        f"{services.CHROMIUM} is missing (apt-get install -y chromium)",
    )
    return str(services.CHROMIUM)


def pytest_collection_modifyitems(items):
    """Run browser tests last. Playwright's sync API keeps an event loop running in the main
    thread from its first use until the session ends, so any asyncio test (channels
    consumers, async views) that ran after it would fail with "Runner.run() cannot be called
    from a running event loop". The sort is stable: other tests keep their order."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(scope="session", autouse=True)
def no_session_left_on_the_test_database(request, django_db_blocker):
    """On PostgreSQL, end the sessions that the tests' worker threads left open on the test
    database before pytest-django drops it: a dropped database with a session still on it
    is only a warning at the end of the run, but the next run then finds it still there."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return
    request.getfixturevalue("django_db_setup")  # so that this ends before the database does
    yield
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def fresh_socket_budgets():
    """Every test's sockets start with full budgets (common.sockets keeps them per process,
    by sender, and the test client's address is the same for all)."""
    from common import sockets

    sockets.budgets.clear()
    yield
    sockets.budgets.clear()


@pytest.fixture(autouse=True)
def coach_asleep(monkeypatch):
    """The coach is not woken by a round's end: in the embedded default it would review in
    a thread of its own, still querying while the test's database is emptied. The coach's
    own tests call ``games.coach.work`` (and its worker) themselves."""
    from games import coach

    monkeypatch.setattr(coach, "wake", lambda: None)


@pytest.fixture(autouse=True)
def clock_poll_off(monkeypatch):
    """No poll for due tables (games.waker) in the test process: each test runs its own
    event loop, where a poll would outlive the test. The daphne processes of the production
    and browser tests poll as in production. (Not pytest-django's ``settings`` fixture: a
    test may name a parameter ``settings`` of its own.)"""
    from django.conf import settings

    monkeypatch.setattr(settings, "CLOCK_POLL", 0)
