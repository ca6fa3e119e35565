"""Tests that only mean something on a real deployment: they run in the PostgreSQL + Redis
pass (tests/services_pass.py) and are skipped, saying so, in the embedded default pass."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from tests.games.conftest import quick_bots, stop_table_tasks  # noqa: F401  (the same fixtures)


@pytest.fixture(autouse=True)
def on_postgres_and_redis():
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if connection.vendor != "postgresql" or "redis" not in backend.lower():
        pytest.skip("runs in the PostgreSQL + Redis pass (python -m tests.services_pass)")
