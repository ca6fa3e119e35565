"""A deal nobody chooses, and anybody can check afterwards: commit, then reveal.

The server picks a secret when a table opens and shows only its SHA-256 (the commitment);
each seat adds a contribution of its own. Each round's tiles are put in order from the
secret and every contribution, through HMAC-SHA256 with the round's number. Before the
match ends nobody but the server knows the secret, so no player can foresee a deal; the
server committed to it before any contribution came, so it cannot steer one. Once the
match is over the secret is revealed, and :func:`check` deals every round again from the
revealed values and compares it with what was played.

The recipe is written out in docs/engine.md ("A deal anybody can check") so that it can be
done again in another language; it uses only SHA-256 and HMAC-SHA256 over ASCII text, and
a shuffle of its own rather than Python's ``random`` (whose generator other languages lack).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .rules import Rules
from .setup import deal
from .state import Deal, Game
from .tiles import Tile

VALUE_LENGTH = 64  # a secret or a contribution: 32 random bytes as lowercase hex
HEX = frozenset("0123456789abcdef")


def new_value() -> str:
    """A fresh secret or server-made contribution: 32 random bytes, as 64 hex digits."""
    return secrets.token_hex(VALUE_LENGTH // 2)


def is_value(text: str) -> bool:
    """Whether ``text`` is a secret or contribution as the recipe takes it: 64 lowercase
    hex digits (what a browser's ``crypto.getRandomValues`` gives, written out)."""
    return len(text) == VALUE_LENGTH and set(text) <= HEX


def digest(value: str) -> str:
    """The SHA-256 of a value's ASCII text, in hex: the commitment of a secret, and the
    hash shown beside a seat's name for its contribution."""
    return hashlib.sha256(value.encode("ascii")).hexdigest()


def round_key(secret: str, contributions: Sequence[str], number: int) -> bytes:
    """The round's key: HMAC-SHA256 keyed by the secret, of ``round <number>:`` followed
    by the contributions in seat order, joined by ``:``."""
    message = f"round {number}:" + ":".join(contributions)
    return hmac.new(secret.encode("ascii"), message.encode("ascii"), hashlib.sha256).digest()


def _words(key: bytes) -> Iterator[int]:
    """The key's stream of 32-bit numbers: block k is HMAC-SHA256(key, k as 4 bytes,
    big-endian), k = 0, 1, 2, ..., read 4 bytes at a time, big-endian."""
    block = 0
    while True:
        data = hmac.new(key, block.to_bytes(4, "big"), hashlib.sha256).digest()
        for start in range(0, 32, 4):
            yield int.from_bytes(data[start : start + 4], "big")
        block += 1


def shuffled(tiles: Sequence[Tile], key: bytes) -> list[Tile]:
    """Fisher-Yates from the last place down, each place's pick uniform and unbiased: a
    number from the stream at or above the largest multiple of the choices is skipped."""
    order = list(tiles)
    words = _words(key)
    for i in range(len(order) - 1, 0, -1):
        choices = i + 1
        limit = 2**32 - 2**32 % choices
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % choices
        order[i], order[j] = order[j], order[i]
    return order


@dataclass(frozen=True)
class Committed:
    """A match's deals from a secret and every seat's contribution: the engine's ``order``
    (``new_game(..., order=...)``, ``next_round``, ``records.deal_step``)."""

    secret: str
    contributions: tuple[str, ...]

    def __call__(self, tiles: list[Tile], number: int) -> list[Tile]:
        return shuffled(tiles, round_key(self.secret, self.contributions, number))

    @property
    def commitment(self) -> str:
        return digest(self.secret)

    def match_fields(self, by_server: Sequence[bool]) -> dict[str, Any]:
        """What a record's match line says of the deal (docs/records.md): the commitment,
        the contributions in seat order, and which of them the server made."""
        return {
            "deal": {
                "commitment": self.commitment,
                "contributions": list(self.contributions),
                "by_server": list(by_server),
            }
        }


# -- checking a match's deals ---------------------------------------------------------------


@dataclass(frozen=True)
class RoundCheck:
    """One round's deal dealt again from the revealed values, beside the one played."""

    number: int
    matches: bool


@dataclass(frozen=True)
class DealCheck:
    """What checking a match's deals found: whether the secret is the one committed to,
    and round by round whether the deal is the one the values give."""

    commitment_kept: bool
    rounds: tuple[RoundCheck, ...]

    @property
    def first_difference(self) -> int | None:
        """The first round whose deal is not the one the values give (None: none)."""
        return next((r.number for r in self.rounds if not r.matches), None)

    @property
    def holds(self) -> bool:
        return self.commitment_kept and bool(self.rounds) and self.first_difference is None


def check(
    game: Game, *, commitment: str, committed: Committed, played: Sequence[Deal]
) -> DealCheck:
    """Deal each round of ``played`` again from the revealed secret and contributions (in
    ``game``'s match: its rules, players and first seat) and compare."""
    rounds = tuple(
        RoundCheck(dealt.number, _dealt_again(game, dealt.number, committed) == dealt)
        for dealt in played
    )
    return DealCheck(commitment_kept=digest(committed.secret) == commitment, rounds=rounds)


def _dealt_again(game: Game, number: int, committed: Committed) -> Deal | None:
    if not 1 <= number <= game.rules.round_count:
        return None  # a round the match never had cannot have been dealt
    return deal(game, number, committed)


class NotCommitted(ValueError):
    """A record whose deals were not committed to (a plain seed, an import), or whose
    secret has not been revealed yet (a match still being played)."""


def check_record(records: Sequence[dict[str, Any]]) -> DealCheck:
    """Check the deals of a game record (docs/records.md): the commitment and
    contributions from its ``match`` line, the secret from its ``match_end`` line."""
    if not records or records[0].get("type") != "match":
        raise NotCommitted("A record starts with its match line.")
    match = records[0]
    committed_to = match.get("deal")
    if not isinstance(committed_to, dict):
        raise NotCommitted(
            "This match was not dealt by commit and reveal: its deals come from a plain "
            "seed, which the server chose."
        )
    ending = next((r for r in records if r.get("type") == "match_end"), None)
    secret = ending.get("secret") if ending else None
    if not isinstance(secret, str):
        raise NotCommitted("The secret is revealed when the match ends: this one has not.")
    contributions = committed_to.get("contributions")
    commitment = committed_to.get("commitment")
    if (
        not isinstance(commitment, str)
        or not isinstance(contributions, list)
        or not all(isinstance(c, str) for c in contributions)
    ):
        raise NotCommitted("The match line's deal holds no commitment and contributions.")
    game = Game(
        rules=Rules.from_dict(match["rules"]),
        players=match["players"],
        first_seat=match.get("first_seat", 0),
    )
    played = [_played(r) for r in records if r.get("type") == "deal"]
    return check(
        game,
        commitment=commitment,
        committed=Committed(secret, tuple(contributions)),
        played=played,
    )


def _played(record: dict[str, Any]) -> Deal:
    def tiles(values: list) -> tuple[Tile, ...]:
        return tuple((min(v), max(v)) for v in values)

    return Deal(
        number=record["round"],
        engine=record["engine"],
        first_seat=record["first_seat"],
        hands=tuple(tiles(hand) for hand in record["hands"]),
        boneyard=tiles(record["boneyard"]),
    )
