"""The engine's speed work must not change a single game: seeded matches under random house
rules, every variant, digested and compared with the digest the engine gave before it was
made faster (0ec0242). A change of behaviour, however small, changes a bot's choices, a
record or a score, and the digest with it.

If the rules themselves change on purpose (a ruling in RULES.md), the digest is recomputed
with ``digest_of_matches()`` and pinned again in the same commit as the ruling.
"""

from __future__ import annotations

import hashlib
import json
import random

from games.bots import make_bot
from games.engine import Rules, apply, new_game, next_round, view_for
from games.simulate import play_match, random_rules

# Many short matches with the simulator's checks off, each one whole record (deals, every
# action, every round's end) hashed; then a few with every invariant checked after every
# action, and every view the seat on turn was shown hashed too.
MATCHES = 90
CHECKED = 6
PINNED = "b33bdf4858ea8fe9f950f56ac280dd32e4d493331c3a785fcd183baeade8c8ef"


def table(number: int) -> tuple[Rules, tuple[str, ...]]:
    """The rules and the bots of match ``number``: two to six seats, any level in any seat."""
    rng = random.Random(f"same-games/{number}")
    players = rng.randint(2, 6)
    rules = random_rules(rng, players, {"rounds": rng.randint(1, 3)})
    bots = tuple(rng.choice(("random", "greedy", "strategic")) for _ in range(players))
    return rules, bots


def match_digest(number: int, check: bool) -> str:
    rules, bots = table(number)
    result = play_match(
        rules, bots, seed=number, first_seat=number % len(bots), check=check, record=True
    )
    assert result.violations == []
    text = json.dumps(
        [result.round_scores, result.actions, result.totals, result.winners, result.records]
    )
    return hashlib.sha256(text.encode()).hexdigest()


def views_digest(number: int) -> str:
    """Every view shown to the seat on turn, and to a spectator, through a whole match."""
    rules, bots = table(number)
    seats = [make_bot(level, f"{number}/{seat}") for seat, level in enumerate(bots)]
    digest = hashlib.sha256()
    game = new_game(rules, len(bots), seed=number)
    while True:
        rnd = game.round
        while rnd.result is None:
            view = view_for(game, rnd.turn)
            digest.update(repr(view).encode())
            digest.update(repr(view_for(game, None)).encode())
            game = apply(game, seats[rnd.turn](view))
            rnd = game.round
        digest.update(repr(view_for(game, 0)).encode())
        if game.is_over:
            return digest.hexdigest()
        game = next_round(game)


def digest_of_matches() -> str:
    whole = hashlib.sha256()
    for number in range(MATCHES):
        whole.update(match_digest(number, check=number < CHECKED).encode())
    for number in range(CHECKED):
        whole.update(views_digest(number).encode())
    return whole.hexdigest()


def test_seeded_matches_play_exactly_as_before_the_engine_was_made_faster():
    assert digest_of_matches() == PINNED
