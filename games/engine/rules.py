"""The rules object: every setting of docs/rules.md in one validated, immutable value.

Play and scoring both read this one object, so a table's house rules can never disagree
between the engine, the bots and the score sheet. A combination that makes no sense is
refused when the object is built, with a :class:`RulesError` naming the setting.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .tiles import SUPPORTED_SETS, set_size

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MAX_PUBLIC_TRAINS = 3

FIRST_TURNS = ("line", "one_tile")
DOUBLE_SCOPES = ("table", "own_train")
VARIANTS = ("standard", "chicken_foot", "cuban")
DOUBLE_BLANK_VALUES = (0, 50)
OUT_SCORES = (0, -10)
ROUND_ENGINES = ("to_blank", "from_highest")
BLANK_VALUES = (0, 25)
TIE_BREAKS = ("share", "rounds_out")
OWN_TRAIN_FIRST = ("off", "first_turn", "until_started")
ENGINE_HUNTS = ("in_turn", "together")

# Hand sizes for a double-12 set and a double-9 set, by the largest table each row covers.
_HANDS_DOUBLE_12 = ((4, 15), (6, 12), (8, 10), (10, 8))
_HANDS_DOUBLE_9 = ((4, 8), (6, 7), (8, 6), (10, 5))


class RulesError(ValueError):
    """A setting (named in ``setting``) has a value that cannot be played."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(f"{setting}: {message}")
        self.setting = setting
        self.reason = message  # the sentence alone, for a form that shows it by the field


@dataclass(frozen=True)
class Rules:
    """Every house rule and variant, with the defaults of docs/rules.md."""

    highest_double: int = 12
    rounds: int | None = None  # None: one round per double, N+1
    hand_size: int | None = None  # None: by the table in docs/rules.md
    public_trains: int = 1
    unstarted_trains_open: bool = False
    first_turn: str = "line"
    draw_before_passing: bool = True
    doubles_must_be_covered: bool = True
    double_scope: str = "table"
    double_plays_again: bool = False
    engine_from_hand: bool = False
    variant: str = "standard"
    double_blank_value: int = 0
    double_penalty: int = 0
    out_score: int = 0
    round_engines: str = "to_blank"
    blank_value: int = 0
    out_on_double: int = 0
    tie_break: str = "share"
    own_train_first: str = "off"
    draw_on_first_turn: bool = True
    optional_draw: bool = False
    extra_play_optional: bool = False
    dead_doubles_free: bool = False
    engine_replacement: bool = False
    engine_hunt: str = "in_turn"
    everyone_first_turn: bool = False

    def __post_init__(self) -> None:
        self._check_types()
        self._check_values()

    # -- validation ------------------------------------------------------------------------

    def _check_types(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            wanted = _TYPES[f.name]
            if value is None and f.name in ("rounds", "hand_size"):
                continue
            # bool is a subclass of int: refuse True where a number is meant and vice versa.
            if type(value) is not wanted:
                raise RulesError(f.name, f"expected {wanted.__name__}, got {value!r}.")

    def _check_values(self) -> None:
        n = self.highest_double
        if n not in SUPPORTED_SETS:
            sets = ", ".join(f"double-{s}" for s in SUPPORTED_SETS)
            raise RulesError("highest_double", f"double-{n} is not a supported set ({sets}).")
        if self.rounds is not None and not 1 <= self.rounds <= n + 1:
            raise RulesError(
                "rounds", f"a double-{n} set plays 1 to {n + 1} rounds, not {self.rounds}."
            )
        if self.hand_size is not None and self.hand_size < 1:
            raise RulesError("hand_size", f"a hand needs at least one tile, not {self.hand_size}.")
        if not 0 <= self.public_trains <= MAX_PUBLIC_TRAINS:
            raise RulesError(
                "public_trains",
                f"0 to {MAX_PUBLIC_TRAINS} public trains, not {self.public_trains}.",
            )
        _check_choice("first_turn", self.first_turn, FIRST_TURNS)
        _check_choice("double_scope", self.double_scope, DOUBLE_SCOPES)
        _check_choice("variant", self.variant, VARIANTS)
        _check_choice("double_blank_value", self.double_blank_value, DOUBLE_BLANK_VALUES)
        _check_choice("out_score", self.out_score, OUT_SCORES)
        if not (0 <= self.double_penalty <= 100 and self.double_penalty % 5 == 0):
            raise RulesError(
                "double_penalty", f"0 to 100 in steps of 5, not {self.double_penalty}."
            )
        _check_choice("round_engines", self.round_engines, ROUND_ENGINES)
        _check_choice("blank_value", self.blank_value, BLANK_VALUES)
        if not (-50 <= self.out_on_double <= 100 and self.out_on_double % 5 == 0):
            raise RulesError(
                "out_on_double", f"-50 to 100 in steps of 5, not {self.out_on_double}."
            )
        _check_choice("tie_break", self.tie_break, TIE_BREAKS)
        _check_choice("own_train_first", self.own_train_first, OWN_TRAIN_FIRST)
        _check_needs(self, "optional_draw", "draw_before_passing", "drawing at all")
        _check_needs(self, "extra_play_optional", "double_plays_again", "an extra play")
        _check_needs(self, "engine_replacement", "engine_from_hand", "an engine from a hand")
        _check_choice("engine_hunt", self.engine_hunt, ENGINE_HUNTS)
        if self.engine_hunt != "in_turn" and not self.engine_from_hand:
            raise RulesError(
                "engine_hunt",
                f"only means something with {LABELS['engine_from_hand'].lower()} on "
                "(a hunt for the engine).",
            )
        if self.double_scope == "own_train" and not self.covers_owed:
            raise RulesError(
                "double_scope",
                "'own_train' only means something when doubles are owed a cover "
                "(doubles_must_be_covered on, and not the Cuban variant).",
            )

    # -- derived values --------------------------------------------------------------------

    @property
    def round_count(self) -> int:
        return self.rounds if self.rounds is not None else self.highest_double + 1

    @property
    def covers_owed(self) -> bool:
        """Whether a laid double must be covered (or branched, in Chicken Foot) before play
        goes on: the duty setting, except under Cuban where doubles fork instead."""
        return self.doubles_must_be_covered and self.variant != "cuban"

    def round_double(self, number: int) -> int:
        """The double that starts round ``number`` (1-based): counted down so that the last
        round is the double-blank, or (``round_engines: from_highest``) from the highest
        double down, however many rounds are played. With one round a double both agree."""
        if not 1 <= number <= self.round_count:
            raise RulesError("rounds", f"there is no round {number} of {self.round_count}.")
        if self.round_engines == "from_highest":
            return self.highest_double + 1 - number
        return self.round_count - number

    @property
    def double_blank_points(self) -> int:
        """What the double-blank adds to a hand: its house value, or its two blank halves
        at ``blank_value`` if that is more (it is never counted both ways)."""
        return max(self.double_blank_value, 2 * self.blank_value)

    def hand_size_for(self, players: int) -> int:
        """Tiles dealt to each of ``players``; refuses a table that does not fit the set."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(
                "players",
                f"Mexican Train is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.",
            )
        size = (
            self.hand_size
            if self.hand_size is not None
            else _default_hand(self.highest_double, players)
        )
        dealt_from = set_size(self.highest_double) - (0 if self.engine_from_hand else 1)
        if size * players > dealt_from:
            setting = "hand_size" if self.hand_size is not None else "players"
            raise RulesError(
                setting,
                f"{players} hands of {size} need {size * players} tiles, but a double-"
                f"{self.highest_double} set deals only {dealt_from}.",
            )
        return size

    # -- serialisation ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Build rules from a dict of settings; unknown settings are refused, missing ones
        take their defaults (so records written before a new setting still load)."""
        if not isinstance(data, dict):
            raise RulesError("rules", f"expected an object of settings, got {data!r}.")
        unknown = sorted(set(data) - set(_TYPES))
        if unknown:
            raise RulesError(unknown[0], "is not a setting of this game.")
        return cls(**data)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        return cls.from_dict(json.loads(text))

    def changed(self, **settings: Any) -> Rules:
        """A copy with some settings changed, validated like a new object."""
        unknown = sorted(set(settings) - set(_TYPES))
        if unknown:
            raise RulesError(unknown[0], "is not a setting of this game.")
        return replace(self, **settings)

    def differences(self, other: Rules) -> dict[str, tuple[Any, Any]]:
        """Settings that differ from ``other``, as ``{name: (ours, theirs)}``."""
        return {
            f.name: (getattr(self, f.name), getattr(other, f.name))
            for f in fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        }


_TYPES: dict[str, type] = {
    "highest_double": int,
    "rounds": int,
    "hand_size": int,
    "public_trains": int,
    "unstarted_trains_open": bool,
    "first_turn": str,
    "draw_before_passing": bool,
    "doubles_must_be_covered": bool,
    "double_scope": str,
    "double_plays_again": bool,
    "engine_from_hand": bool,
    "variant": str,
    "double_blank_value": int,
    "double_penalty": int,
    "out_score": int,
    "round_engines": str,
    "blank_value": int,
    "out_on_double": int,
    "tie_break": str,
    "own_train_first": str,
    "draw_on_first_turn": bool,
    "optional_draw": bool,
    "extra_play_optional": bool,
    "dead_doubles_free": bool,
    "engine_replacement": bool,
    "engine_hunt": str,
    "everyone_first_turn": bool,
}


def _check_choice(setting: str, value: Any, choices: tuple[Any, ...]) -> None:
    if value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise RulesError(setting, f"{value!r} is not one of {options}.")


def _check_needs(rules: Rules, setting: str, needed: str, what: str) -> None:
    """A setting that changes how another one plays means nothing while that one is off."""
    if getattr(rules, setting) and not getattr(rules, needed):
        raise RulesError(
            setting, f"only means something with {LABELS[needed].lower()} on ({what})."
        )


def _default_hand(highest_double: int, players: int) -> int:
    """The hand-size table of docs/rules.md; other sets scale the double-12 row by tile count."""
    if highest_double == 9:
        return _lookup(_HANDS_DOUBLE_9, players)
    size = _lookup(_HANDS_DOUBLE_12, players)
    if highest_double == 12:
        return size
    return max(3, size * set_size(highest_double) // set_size(12))


def _lookup(table: tuple[tuple[int, int], ...], players: int) -> int:
    return next(size for most, size in table if players <= most)


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "family": Rules(double_blank_value=50, double_plays_again=True),
    "short": Rules(rounds=10),
    "one_tile": Rules(first_turn="one_tile"),
    "no_public_train": Rules(public_trains=0),
    "chicken_foot": Rules(variant="chicken_foot"),
    "cuban": Rules(variant="cuban"),
    "home_first": Rules(own_train_first="first_turn", draw_on_first_turn=False),
    "easy_going": Rules(
        double_plays_again=True,
        extra_play_optional=True,
        optional_draw=True,
        dead_doubles_free=True,
    ),
}

PRESET_NAMES: dict[str, str] = {
    "standard": "Standard",
    "family": "Family",
    "short": "Short evening",
    "one_tile": "One tile a turn",
    "no_public_train": "No public train",
    "chicken_foot": "Chicken Foot",
    "cuban": "Cuban Train",
    "home_first": "Start at home",
    "easy_going": "Easy going",
}

PRESET_DESCRIPTIONS: dict[str, str] = {
    "standard": "Every rule at its default: 13 rounds, doubles covered, first-turn lines.",
    "family": "The double-blank costs 50, and laying a double earns another play.",
    "short": "Ten rounds, from the double-nine down: an evening's game.",
    "one_tile": "One tile a turn, the first included: slower and less down to the shuffle.",
    "no_public_train": "No Mexican train: every tile goes on your own train or a marked one.",
    "chicken_foot": "Every double is branched three ways before play goes on.",
    "cuban": "Doubles fork their train instead of being covered.",
    "home_first": "Your first turn stays on your own train, and nobody draws in it.",
    "easy_going": (
        "A double earns another play you may skip, you may draw instead of playing, "
        "and a double nobody can cover any more closes nothing."
    ),
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise RulesError("preset", f"{name!r} is not a preset ({known}).") from None


def preset_name(rules: Rules) -> str | None:
    """The name of the preset these rules are exactly, if any."""
    return next((name for name, p in PRESETS.items() if p == rules), None)


LABELS: dict[str, str] = {
    "highest_double": "Set",
    "rounds": "Rounds to play",
    "hand_size": "Tiles in each hand",
    "public_trains": "Public (Mexican) trains",
    "unstarted_trains_open": "Unstarted trains are open to all",
    "first_turn": "First turn",
    "draw_before_passing": "Draw before passing",
    "doubles_must_be_covered": "Doubles must be covered",
    "double_scope": "An uncovered double closes",
    "double_plays_again": "Playing a double earns another play",
    "engine_from_hand": "Whoever holds the double starts",
    "variant": "Variant",
    "double_blank_value": "Double-blank is worth",
    "double_penalty": "Penalty per unplayed double",
    "out_score": "The player who goes out scores",
    "round_engines": "Rounds start from",
    "blank_value": "A blank half is worth",
    "out_on_double": "Going out on a double adds",
    "tie_break": "A tie for the lowest total",
    "own_train_first": "Tiles go on your own train first",
    "draw_on_first_turn": "Drawing in your first turn",
    "optional_draw": "You may draw instead of playing",
    "extra_play_optional": "The extra play after a double may be skipped",
    "dead_doubles_free": "A double nobody can cover any more counts as covered",
    "engine_replacement": "Whoever places the engine draws a tile for it",
    "engine_hunt": "When nobody holds the double",
    "everyone_first_turn": "Everyone has a first turn before a round can end",
}

VALUE_WORDS: dict[str, dict[Any, str]] = {
    "first_turn": {"line": "a line of tiles on your own train", "one_tile": "one tile"},
    "double_scope": {"table": "the whole table", "own_train": "its own train only"},
    "variant": {
        "standard": "Mexican Train",
        "chicken_foot": "Chicken Foot",
        "cuban": "Cuban Train",
    },
    "round_engines": {
        "to_blank": "the double that ends on the double-blank",
        "from_highest": "the highest double, counting down",
    },
    "tie_break": {"share": "is shared", "rounds_out": "goes to whoever went out more often"},
    "engine_hunt": {
        "in_turn": "seats draw in turn until it turns up",
        "together": "every seat draws in each pass, until a pass turns it up",
    },
    "own_train_first": {
        "off": "never",
        "first_turn": "in your first turn",
        "until_started": "until your train has a tile",
    },
}


# The labels that make a sentence with their value (``Double-blank is worth 50``), and
# what joins the two; every other label is followed by a colon (``Variant: Chicken Foot``).
SENTENCES = dict.fromkeys(
    (
        "double_scope",
        "double_blank_value",
        "out_score",
        "round_engines",
        "blank_value",
        "out_on_double",
        "tie_break",
    ),
    " ",
) | {"engine_hunt": ", "}


def describe(setting: str, value: Any) -> str:
    """A setting and its value as a sentence fragment: ``Double-blank is worth 50``."""
    label = LABELS[setting]
    if setting == "draw_on_first_turn":
        return f"{label}: {'allowed' if value else 'not allowed'}"
    if isinstance(value, bool):
        return f"{label}: {'on' if value else 'off'}"
    if setting == "highest_double":
        return f"{label}: double-{value}"
    if value is None:
        default = {"rounds": "one per double", "hand_size": "by the number of players"}[setting]
        return f"{label}: {default}"
    words = VALUE_WORDS.get(setting, {}).get(value, value)
    return f"{label}{SENTENCES.get(setting, ': ')}{words}"
