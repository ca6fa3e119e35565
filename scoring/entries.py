"""What one cell of the sheet holds: what a player entered for a round, never a score.

A cell is blank (nothing entered yet), "went out" (on a double or not), a count (pips,
doubles held, whether the double-blank is one of them, and the blank halves on the other
tiles), or the tiles held, picked one by one. The score is always
derived from this through the engine's ``score()``, so a house-rule change recomputes it.

This module also decides what is implausible for a hand from the match's set, so the same
sentences reach a phone whatever path the entry took (the sheet, a retry, an online table).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.rules import Rules
from games.engine.scoring import HandCount
from games.engine.tiles import Tile, full_set, name, tile

BLANK = "blank"
OUT = "out"
COUNT = "count"
TILES = "tiles"
KINDS = (BLANK, OUT, COUNT, TILES)

# Typed numbers beyond this are refused as typos before any arithmetic on them.
MAX_TYPED = 100_000


class Refused(ValueError):
    """An entry or change that is not applied; the message is shown to the person as is."""


@dataclass(frozen=True)
class EntryValue:
    """What was entered for one player in one round."""

    kind: str = BLANK
    pips: int | None = None
    doubles: int = 0
    double_blank: bool = False
    tiles: tuple[Tile, ...] | None = None
    blanks: int = 0  # blank halves on tiles other than the double-blank (``blank_value``)
    on_double: bool = False  # went out, and the last tile laid was a double (``out_on_double``)

    @classmethod
    def count(
        cls, pips: int, doubles: int = 0, double_blank: bool = False, blanks: int = 0
    ) -> EntryValue:
        return cls(COUNT, pips=pips, doubles=doubles, double_blank=double_blank, blanks=blanks)

    @classmethod
    def out(cls, on_double: bool = False) -> EntryValue:
        return cls(OUT, on_double=on_double)

    @classmethod
    def held(cls, tiles: Iterable[Tile]) -> EntryValue:
        return cls(TILES, tiles=tuple(sorted(tile(a, b) for a, b in tiles)))

    @property
    def is_blank(self) -> bool:
        return self.kind == BLANK

    def hand(self) -> HandCount | None:
        """The hand as the engine scores it; ``None`` means the player went out."""
        if self.kind == OUT:
            return None
        if self.kind == TILES:
            return HandCount.of(self.tiles or ())
        if self.kind == COUNT:
            return HandCount(self.pips or 0, self.doubles, self.double_blank, self.blanks)
        raise ValueError("A blank cell has no hand to score.")

    def to_json(self) -> dict[str, Any]:
        """The stored (and exported) form; only the fields that mean something for the kind
        (blank halves and going out on a double only when there are some: history written
        before those house rules reads the same)."""
        if self.kind == COUNT:
            data = {
                "kind": COUNT,
                "pips": self.pips,
                "doubles": self.doubles,
                "double_blank": self.double_blank,
            }
            return data | ({"blanks": self.blanks} if self.blanks else {})
        if self.kind == TILES:
            return {"kind": TILES, "tiles": [list(t) for t in self.tiles or ()]}
        if self.kind == OUT and self.on_double:
            return {"kind": OUT, "on_double": True}
        return {"kind": self.kind}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> EntryValue:
        """Read a stored value back (``None`` is a blank cell, as in a change's old value)."""
        if not data or data.get("kind") == BLANK:
            return cls()
        if data["kind"] == TILES:
            return cls.held(tuple(t) for t in data["tiles"])
        if data["kind"] == COUNT:
            return cls.count(
                data["pips"], data["doubles"], data["double_blank"], data.get("blanks", 0)
            )
        return cls.out(bool(data.get("on_double")))

    def __str__(self) -> str:
        if self.kind == BLANK:
            return "blank"
        if self.kind == OUT:
            return "went out on a double" if self.on_double else "went out"
        if self.kind == TILES:
            return ", ".join(name(t) for t in self.tiles or ())
        extra = []
        if self.doubles:
            extra.append(f"{self.doubles} double{'s' if self.doubles > 1 else ''}")
        if self.double_blank:
            extra.append("the double-blank among them")
        if self.blanks:
            extra.append(f"{self.blanks} blank {'half' if self.blanks == 1 else 'halves'}")
        return f"{self.pips} pips" + (f" ({', '.join(extra)})" if extra else "")


def parse(payload: Mapping[str, Any]) -> EntryValue:
    """Read an entry sent by a phone; a malformed one is refused with a sentence."""
    kind = payload.get("kind")
    if kind == BLANK:
        return EntryValue()
    if kind == OUT:
        return EntryValue.out(_ticked(payload.get("on_double")))
    if kind == COUNT:
        pips = _whole_number(payload.get("pips"), "Pips")
        doubles = _whole_number(payload.get("doubles") or 0, "Doubles held")
        double_blank = _ticked(payload.get("double_blank"))
        if double_blank and doubles < 1:
            raise Refused("The double-blank is a double: count it in the doubles held.")
        blanks = _whole_number(payload.get("blanks") or 0, "Blank halves")
        return EntryValue.count(pips, doubles, double_blank, blanks)
    if kind == TILES:
        raw = payload.get("tiles")
        if not isinstance(raw, list) or not raw:
            raise Refused("Pick the tiles you hold, or tap Went out.")
        try:
            tiles = [tile(int(a), int(b)) for a, b in raw]
        except (TypeError, ValueError):
            raise Refused("Those tiles could not be read; pick them again.") from None
        return EntryValue.held(tiles)
    raise Refused("Enter went out, a pip count or the tiles held.")


def _ticked(raw: Any) -> bool:
    return raw in (True, "true", "on", "1")


def _whole_number(raw: Any, label: str) -> int:
    try:
        number = int(str(raw).strip())
    except ValueError:
        raise Refused(f"{label} must be a whole number.") from None
    if number < 0:
        raise Refused(f"{label} cannot be negative.")
    if number > MAX_TYPED:
        raise Refused(f"{label} of {number} is far more than any hand holds.")
    return number


def check_plausible(value: EntryValue, rules: Rules, round_number: int) -> None:
    """Refuse a hand that no hand from this set, in this round, could be.

    The round's double sits in the middle of the table, so no hand holds it; everything
    else of the set could, in principle, end up in one hand."""
    top = rules.highest_double
    engine = rules.round_double(round_number)
    if value.kind == TILES:
        _check_tiles(value.tiles or (), top, engine)
    elif value.kind == COUNT:
        _check_count(value, top, engine)


def _check_tiles(tiles: tuple[Tile, ...], top: int, engine: int) -> None:
    if len(set(tiles)) != len(tiles):
        raise Refused("A tile was picked twice; every tile is in the set once.")
    for t in tiles:
        if t[1] > top or t[0] < 0:
            raise Refused(f"{name(t)} is not in a double-{top} set.")
        if t == (engine, engine):
            raise Refused(
                f"The {name(t)} is in the middle of the table this round: nobody holds it."
            )


def _check_count(value: EntryValue, top: int, engine: int) -> None:
    available = [t for t in full_set(top) if t != (engine, engine)]
    doubles = sorted(a + b for a, b in available if a == b and a > 0)  # the double-blank apart
    blank_available = engine != 0
    if value.double_blank and not blank_available:
        raise Refused("The double-blank is in the middle of the table this round: nobody holds it.")
    wanted = value.doubles - (1 if value.double_blank else 0)  # doubles other than the 0-0
    most_doubles = len(doubles) + (1 if blank_available else 0)
    if value.doubles > most_doubles:
        raise Refused(
            f"A hand from a double-{top} set holds at most {most_doubles} doubles this round."
        )
    if wanted > len(doubles):
        raise Refused(f"{value.doubles} doubles means the double-blank is one of them: tick it.")
    least = sum(doubles[:wanted])
    most = sum(a + b for a, b in available if a != b) + sum(doubles[len(doubles) - wanted :])
    held = f"{value.doubles} double{'' if value.doubles == 1 else 's'}"
    if value.pips is not None and value.pips > most:
        raise Refused(
            f"{value.pips} pips is more than a hand from a double-{top} set can hold "
            f"with {held} (at most {most})."
        )
    if value.pips is not None and value.pips < least:
        verb = "carries" if value.doubles == 1 else "carry"
        raise Refused(f"{held} {verb} at least {least} pips, more than {value.pips}.")
    if value.blanks > top:  # the 1-0 to the top-0: one blank half each
        raise Refused(
            f"A double-{top} set has {top} tiles with one blank half, not {value.blanks}: "
            "count the double-blank apart."
        )
