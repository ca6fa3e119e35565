"""Forms of the table pages: create a table, take a seat, and the host's seat controls.

Every rule of a new table is validated by building the engine's ``Rules`` from the fields,
so the page refuses exactly what the engine would, and the error is shown on the field of
the setting the engine names.
"""

from __future__ import annotations

from typing import Any

from django import forms

from games.engine.rules import (
    DOUBLE_BLANK_VALUES,
    DOUBLE_SCOPES,
    FIRST_TURNS,
    LABELS,
    MAX_PLAYERS,
    MAX_PUBLIC_TRAINS,
    MIN_PLAYERS,
    OUT_SCORES,
    PRESET_DESCRIPTIONS,
    PRESET_NAMES,
    PRESETS,
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

    @staticmethod
    def initial_for(preset_name: str, host_name: str = "") -> dict[str, Any]:
        """The fields as a preset sets them: what is shown is what will be played."""
        rules = PRESETS.get(preset_name, Rules())
        initial: dict[str, Any] = {
            setting: "" if value is None else value for setting, value in rules.to_dict().items()
        }
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
        settings = {name: data[name] for name in (*COMMON_RULES, *MORE_RULES)}
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

    name = forms.CharField(label="Your name", max_length=NAME_LENGTH)
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
