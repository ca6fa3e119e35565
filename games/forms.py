"""What a browser may send a table, checked for shape before anything else: the pages'
forms (create a table, take a seat, the host's seat controls) and the socket's intents.

Every rule of a new table is validated by building the engine's ``Rules`` from the fields,
so the page refuses exactly what the engine would, and the error is shown on the field of
the setting the engine names.

A socket's message is a JSON object with a ``type``. Game intents carry the ``version`` of
the view they were based on, so an intent sent from an out-of-date screen (or replayed
after a reconnect) is refused as stale instead of being applied to a table that has moved
on. The shapes are documented, with examples, in docs/protocol.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django import forms

from games.engine import Action
from games.engine.actions import DRAW, END_TURN, PASS, PLACE_ENGINE, PLAY
from games.engine.rules import (
    BLANK_VALUES,
    DOUBLE_BLANK_VALUES,
    DOUBLE_SCOPES,
    FIRST_TURNS,
    LABELS,
    MAX_PLAYERS,
    MAX_PUBLIC_TRAINS,
    MIN_PLAYERS,
    OUT_SCORES,
    OWN_TRAIN_FIRST,
    PRESET_DESCRIPTIONS,
    PRESET_NAMES,
    PRESETS,
    ROUND_ENGINES,
    TIE_BREAKS,
    VALUE_WORDS,
    VARIANTS,
    Rules,
    RulesError,
)
from games.engine.tiles import SUPPORTED_SETS

from .models import BOT_LEVELS, NAME_LENGTH

# The rules most tables talk about first; the rest fold away under "More rules".
COMMON_RULES = (
    "highest_double",
    "rounds",
    "variant",
    "first_turn",
    "public_trains",
    "doubles_must_be_covered",
    "double_blank_value",
)
MORE_RULES = (
    "hand_size",
    "unstarted_trains_open",
    "draw_before_passing",
    "double_scope",
    "double_plays_again",
    "engine_from_hand",
    "double_penalty",
    "out_score",
    "round_engines",
    "blank_value",
    "out_on_double",
    "tie_break",
    "own_train_first",
    "draw_on_first_turn",
    "optional_draw",
    "extra_play_optional",
    "dead_doubles_free",
    "engine_replacement",
)
# Settings added after pages were drawn: a page drawn before them posts none, and the
# table gets their defaults rather than a refusal (or, for a box, a silent "off").
OPTIONAL_RULES = (
    "round_engines",
    "blank_value",
    "out_on_double",
    "tie_break",
    "own_train_first",
    "draw_on_first_turn",
)


def _choices(setting: str, values: tuple[Any, ...]) -> list[tuple[str, str]]:
    words = VALUE_WORDS.get(setting, {})
    return [(str(v), _sentence(str(words.get(v, v)))) for v in values]


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:]


class TableForm(forms.Form):
    """A new table: the host's name, how many seats, and every setting of the rules."""

    host_name = forms.CharField(label="Your name", max_length=NAME_LENGTH)
    seat_count = forms.TypedChoiceField(
        label="Seats",
        choices=[(str(n), str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        coerce=int,
        initial="4",
        help_text="People and bots together; empty seats are closed up at the start.",
    )
    preset = forms.ChoiceField(
        label="Start from",
        choices=[(key, PRESET_NAMES[key]) for key in PRESETS],
        initial="standard",
        required=False,
    )
    highest_double = forms.TypedChoiceField(
        label=LABELS["highest_double"],
        choices=[(str(n), f"Double-{n}") for n in SUPPORTED_SETS],
        coerce=int,
    )
    rounds = forms.IntegerField(
        label=LABELS["rounds"],
        required=False,
        min_value=1,
        help_text="Leave empty for one round per double, from the highest down to 0-0.",
    )
    variant = forms.ChoiceField(label=LABELS["variant"], choices=_choices("variant", VARIANTS))
    first_turn = forms.ChoiceField(
        label=LABELS["first_turn"], choices=_choices("first_turn", FIRST_TURNS)
    )
    public_trains = forms.TypedChoiceField(
        label=LABELS["public_trains"],
        choices=_choices("public_trains", tuple(range(MAX_PUBLIC_TRAINS + 1))),
        coerce=int,
    )
    doubles_must_be_covered = forms.BooleanField(
        label=LABELS["doubles_must_be_covered"], required=False
    )
    double_blank_value = forms.TypedChoiceField(
        label=LABELS["double_blank_value"],
        choices=[(str(v), f"{v} pips") for v in DOUBLE_BLANK_VALUES],
        coerce=int,
    )
    hand_size = forms.IntegerField(
        label=LABELS["hand_size"],
        required=False,
        min_value=1,
        help_text="Leave empty for the usual number for the set and the players.",
    )
    unstarted_trains_open = forms.BooleanField(
        label=LABELS["unstarted_trains_open"], required=False
    )
    draw_before_passing = forms.BooleanField(label=LABELS["draw_before_passing"], required=False)
    double_scope = forms.ChoiceField(
        label=LABELS["double_scope"], choices=_choices("double_scope", DOUBLE_SCOPES)
    )
    double_plays_again = forms.BooleanField(label=LABELS["double_plays_again"], required=False)
    engine_from_hand = forms.BooleanField(label=LABELS["engine_from_hand"], required=False)
    double_penalty = forms.TypedChoiceField(
        label=LABELS["double_penalty"],
        choices=[(str(v), "None" if v == 0 else str(v)) for v in range(0, 101, 5)],
        coerce=int,
    )
    out_score = forms.TypedChoiceField(
        label=LABELS["out_score"],
        choices=[(str(v), "0" if v == 0 else f"{v} (a bonus)") for v in OUT_SCORES],
        coerce=int,
    )
    round_engines = forms.ChoiceField(
        label=LABELS["round_engines"],
        choices=_choices("round_engines", ROUND_ENGINES),
        required=False,
        help_text="Matters only when fewer rounds than doubles are played.",
    )
    blank_value = forms.TypedChoiceField(
        label=LABELS["blank_value"],
        choices=[(str(v), "Nothing" if v == 0 else f"{v} pips") for v in BLANK_VALUES],
        coerce=int,
        required=False,
        empty_value=None,
        help_text="When a hand is counted: a 6-0 then counts 31.",
    )
    out_on_double = forms.TypedChoiceField(
        label=LABELS["out_on_double"],
        choices=[(str(v), "Nothing" if v == 0 else f"{v:+d}") for v in range(-50, 101, 5)],
        coerce=int,
        required=False,
        empty_value=None,
        help_text="Added to the score of a player whose last tile was a double.",
    )
    tie_break = forms.ChoiceField(
        label=LABELS["tie_break"], choices=_choices("tie_break", TIE_BREAKS), required=False
    )
    own_train_first = forms.ChoiceField(
        label=LABELS["own_train_first"],
        choices=_choices("own_train_first", OWN_TRAIN_FIRST),
        required=False,
        help_text="A cover owed elsewhere may always be laid.",
    )
    # A choice, not a box: on by default, and a page drawn before it must not turn it off.
    draw_on_first_turn = forms.TypedChoiceField(
        label=LABELS["draw_on_first_turn"],
        choices=[("on", "Allowed"), ("off", "Not allowed: who cannot play passes")],
        coerce=lambda value: value == "on",
        required=False,
        empty_value=None,
    )
    optional_draw = forms.BooleanField(
        label=LABELS["optional_draw"],
        required=False,
        help_text="At the start of a turn, while the boneyard lasts (with draw before passing).",
    )
    extra_play_optional = forms.BooleanField(
        label=LABELS["extra_play_optional"],
        required=False,
        help_text="With a double earning another play: end the turn instead, no draw.",
    )
    dead_doubles_free = forms.BooleanField(label=LABELS["dead_doubles_free"], required=False)
    engine_replacement = forms.BooleanField(
        label=LABELS["engine_replacement"],
        required=False,
        help_text="With whoever holds the double starting: from a dealt hand only.",
    )

    @staticmethod
    def initial_for(preset_name: str, host_name: str = "") -> dict[str, Any]:
        """The fields as a preset sets them: what is shown is what will be played."""
        rules = PRESETS.get(preset_name, Rules())
        initial: dict[str, Any] = {
            setting: "" if value is None else value for setting, value in rules.to_dict().items()
        }
        initial["draw_on_first_turn"] = "on" if rules.draw_on_first_turn else "off"
        return {**initial, "preset": preset_name, "host_name": host_name, "seat_count": 4}

    def common_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in COMMON_RULES]

    def more_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in MORE_RULES]

    def more_has_errors(self) -> bool:
        return any(self[name].errors for name in MORE_RULES)

    def preset_description(self) -> str:
        return PRESET_DESCRIPTIONS.get(str(self["preset"].value()), "")

    def clean(self) -> dict[str, Any]:
        """Build the Rules (which refuses a nonsense combination, naming the setting) and
        check that the set deals a hand to every seat."""
        data = super().clean()
        if self.errors:
            return data
        settings = {
            name: data[name]
            for name in (*COMMON_RULES, *MORE_RULES)
            if not (name in OPTIONAL_RULES and data[name] in (None, ""))
        }
        try:
            rules = Rules(**settings)
            rules.hand_size_for(data["seat_count"])
        except RulesError as error:
            field = {"players": "seat_count"}.get(error.setting, error.setting)
            label = LABELS.get(error.setting, "Seats")
            self.add_error(field if field in self.fields else None, f"{label}: {error.reason}")
            return data
        data["rules"] = rules
        return data


class JoinForm(forms.Form):
    """Take a seat: a display name, and a free seat or the next one."""

    name = forms.CharField(
        label="Your name",
        max_length=NAME_LENGTH,
        error_messages={"required": "Type your name to join."},
    )
    position = forms.TypedChoiceField(label="Seat", coerce=int, empty_value=None, required=False)

    def __init__(self, *args: Any, free: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["position"].choices = [("", "The next free seat")] + [
            (str(p), f"Seat {p + 1}") for p in free
        ]


class SeatForm(forms.Form):
    """A host's control aimed at one seat (remove it, or let a bot play it)."""

    position = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1)


class BotForm(forms.Form):
    """The host puts a bot in a seat (the next free one when no seat is named), or in for an
    absent player."""

    level = forms.ChoiceField(choices=[(b, b.title()) for b in BOT_LEVELS])
    position = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1, required=False)


# -- the socket's intents -------------------------------------------------------------------

GAME_INTENTS = ("play", "line", "draw", "pass", "end_turn", "place_engine")
TABLE_INTENTS = ("ready", "ping")
# Asking for a seat back from another screen (a lost phone), and the answer to it.
SEAT_INTENTS = ("ask_seat", "cancel_ask", "answer_seat")
MAX_LINE = 40  # no hand in any set holds more tiles than this in one line


class BadMessage(ValueError):
    """A message that is not one of the protocol's shapes; the text says what is wrong."""


@dataclass(frozen=True)
class Intent:
    type: str
    version: int | None = None
    plays: tuple[tuple[tuple[int, int], int, int], ...] = field(default=())  # tile, train, end
    position: int | None = None  # the seat asked for, or whose request is answered
    approve: bool = False  # the answer to a request for a seat

    def actions(self, seat: int) -> list[Action]:
        """The engine actions this intent asks for, taken by ``seat``. A line is its plays;
        the service ends the turn after them if the line is still open."""
        if self.type in ("play", "line"):
            return [Action(PLAY, seat, tile, train, end) for tile, train, end in self.plays]
        kind = {"draw": DRAW, "pass": PASS, "end_turn": END_TURN, "place_engine": PLACE_ENGINE}
        return [Action(kind[self.type], seat)]


def parse_intent(message: Any) -> Intent:
    """Read a socket's message; raises :class:`BadMessage` with what is wrong."""
    if not isinstance(message, dict):
        raise BadMessage("A message is a JSON object with a type.")
    kind = message.get("type")
    if kind in TABLE_INTENTS:
        return Intent(kind)
    if kind in SEAT_INTENTS:
        return _seat_intent(kind, message)
    if kind not in GAME_INTENTS:
        known = ", ".join(GAME_INTENTS + TABLE_INTENTS + SEAT_INTENTS)
        raise BadMessage(f"Unknown message type {kind!r}: expected one of {known}.")
    version = message.get("version")
    if type(version) is not int or version < 0:
        raise BadMessage("A move must say which version of the table it was based on.")
    if kind == "play":
        return Intent(kind, version, (_play(message),))
    if kind == "line":
        plays = message.get("plays")
        if not isinstance(plays, list) or not 1 <= len(plays) <= MAX_LINE:
            raise BadMessage(f"A line is a list of 1 to {MAX_LINE} plays.")
        return Intent(kind, version, tuple(_play(p) for p in plays))
    return Intent(kind, version)


def _seat_intent(kind: str, message: dict[str, Any]) -> Intent:
    if kind == "cancel_ask":
        return Intent(kind)
    position = message.get("position")
    if type(position) is not int or not 0 <= position < MAX_PLAYERS:
        raise BadMessage(f"A seat is named by its position, a number from 0 to {MAX_PLAYERS - 1}.")
    if kind == "ask_seat":
        return Intent(kind, position=position)
    approve = message.get("approve")
    if type(approve) is not bool:
        raise BadMessage("An answer to a request for a seat says approve: true or false.")
    return Intent(kind, position=position, approve=approve)


def _play(data: Any) -> tuple[tuple[int, int], int, int]:
    if not isinstance(data, dict):
        raise BadMessage("A play is an object with a tile, a train and an end.")
    tile, train, end = data.get("tile"), data.get("train"), data.get("end", 0)
    if (
        not isinstance(tile, list)
        or len(tile) != 2
        or not all(type(v) is int and 0 <= v <= 18 for v in tile)
    ):
        raise BadMessage("A tile is two numbers from 0 to 18, like [5, 12].")
    if type(train) is not int or type(end) is not int or train < 0 or end < 0:
        raise BadMessage("A play names a train and an open end by number.")
    return (min(tile), max(tile)), train, end
