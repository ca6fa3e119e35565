"""Shared fixtures of the score-sheet tests: matches made through the services, as a page
would make them, and the worked examples of the seeds."""

import itertools
import uuid

import pytest

from games.engine.rules import Rules
from scoring import services
from scoring.entries import OUT, EntryValue
from tests.sockets import close_sockets, track_sockets


@pytest.fixture(autouse=True)
async def sockets_closed(monkeypatch):
    """Every sheet socket a test opened is disconnected before its event loop ends."""
    opened = track_sockets(monkeypatch)
    yield
    await close_sockets(opened)


SEED_PLAYERS = ["Alice", "Ben", "Cara", "Dev"]

# The seeds' worked round (the round of the double-nine, tiles known) and the four rounds
# after it, typed as pips; None is "went out".
SEED_HANDS = [[(4, 1), (6, 6), (3, 0)], [(12, 11)], None, [(2, 2), (5, 4)]]
SEED_PIPS = [(31, 15, 27, 8), (None, 22, 14, 36), (18, 12, 41, None)]


def value(pips_or_tiles) -> EntryValue:
    """An entry as a phone sends it: None went out, an int is typed pips, a list is tiles."""
    if pips_or_tiles is None:
        return EntryValue(OUT)
    if isinstance(pips_or_tiles, int):
        return EntryValue.count(pips_or_tiles)
    return EntryValue.held(pips_or_tiles)


def enter(match, round_number, seat, entered, *, by="Ana", base_version=0):
    """Record one cell as a phone would: a fresh client id, based on the given version."""
    return services.record_entry(
        match,
        round_number,
        seat,
        value(entered),
        base_version=base_version,
        client_id=uuid.uuid4(),
        by=by,
    )


def enter_seed_rounds(match) -> None:
    rows = [SEED_HANDS, *SEED_PIPS]
    for (number, row), seat in itertools.product(enumerate(rows, start=1), range(4)):
        outcome = enter(match, number, seat, row[seat])
        assert outcome.status == services.APPLIED


@pytest.fixture
def seed_match(db):
    """The four players of the seeds, default rules (13 rounds of double-12)."""
    return services.create_match(SEED_PLAYERS, Rules(), by="Ana")
