"""Every table service and selector takes the table's code (or the table) first, and the
rest by keyword: a call says which token, seat or channel it passes, so two strings can
never be passed in each other's place."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest

from games import selectors, services

SELECTORS = [selectors.due, selectors.bot_turn, selectors.hint, selectors.seat_for_host]
SERVICES = [
    getattr(services, name)
    for name in services.__all__
    if inspect.isfunction(getattr(services, name))
]


@pytest.mark.parametrize("function", SERVICES + SELECTORS, ids=lambda f: f.__name__)
def test_a_table_service_takes_the_code_and_then_keywords(function: Callable) -> None:
    first, *rest = inspect.signature(function).parameters.values()
    if function in (services.create_table, services.close_abandoned):  # no one table
        rest.insert(0, first)
    else:
        assert first.name == "code"
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in rest), rest
