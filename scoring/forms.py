"""Forms and message parsers: everything a person sends is read here before a service runs.

Pages post Django forms (create a match, say who you are); the sheet's websocket sends JSON
messages (an entry, a setting, an undo), read by the ``parse_*`` functions into plain values
or refused with a sentence the phone shows.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms

from common import names as people
from games.engine.rules import (
    BLANK_VALUES,
    DOUBLE_BLANK_VALUES,
    LABELS,
    MAX_PLAYERS,
    OUT_SCORES,
    PRESET_NAMES,
    PRESETS,
    ROUND_ENGINES,
    TIE_BREAKS,
    VALUE_WORDS,
    Rules,
    RulesError,
    preset,
)
from games.engine.tiles import SUPPORTED_SETS

from .entries import EntryValue, Refused, parse
from .models import NAME_LENGTH
from .services import HOUSE_RULES, setting_shown

ON_OFF = [("on", "On"), ("off", "Off")]
PENALTIES = range(0, 101, 5)
OUT_ON_DOUBLE = range(-50, 101, 5)
WORDED = {"round_engines": ROUND_ENGINES, "tie_break": TIE_BREAKS}  # settings that are words
FIRST_PLAYERS = 4  # name fields shown at once; the rest fold away on a phone


def _on(value: str) -> bool:
    return value == "on"


def setting_choices(setting: str, highest_double: int) -> list[tuple[str, str]]:
    """The options a house rule offers, as (value, label); the same on both pages."""
    if setting == "rounds":
        top = highest_double + 1
        return [(str(n), f"{n} ({n - 1}-{n - 1} down to 0-0)") for n in range(top, 0, -1)]
    if setting == "double_blank_value":
        return [(str(v), f"{v} pips") for v in DOUBLE_BLANK_VALUES]
    if setting == "double_penalty":
        return [(str(v), "None" if v == 0 else str(v)) for v in PENALTIES]
    if setting == "out_score":
        return [(str(v), "0" if v == 0 else f"{v} (winner bonus)") for v in OUT_SCORES]
    if setting == "blank_value":
        return [(str(v), "Nothing" if v == 0 else f"{v} pips") for v in BLANK_VALUES]
    if setting == "out_on_double":
        return [(str(v), "Nothing" if v == 0 else f"{v:+d}") for v in OUT_ON_DOUBLE]
    if setting in WORDED:
        return [(v, VALUE_WORDS[setting][v]) for v in WORDED[setting]]
    return ON_OFF


def setting_value(rules: Rules, setting: str) -> str:
    """A rule's current value as its option in ``setting_choices``."""
    value = setting_shown(rules, setting)
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


class MatchForm(forms.Form):
    """Create a match: 2 to 10 names in seat order, the set, a preset and the house rules
    that change a score (``HOUSE_RULES``); the preset gives the rules of play."""

    highest_double = forms.TypedChoiceField(
        label="Set",
        choices=[(str(n), f"Double-{n}") for n in SUPPORTED_SETS],
        coerce=int,
        initial="12",
    )
    preset = forms.ChoiceField(
        label="Preset",
        choices=[(key, PRESET_NAMES[key]) for key in PRESETS],
        initial="standard",
    )
    rounds = forms.TypedChoiceField(
        label=LABELS["rounds"], choices=setting_choices("rounds", max(SUPPORTED_SETS)), coerce=int
    )
    double_blank_value = forms.TypedChoiceField(
        label=LABELS["double_blank_value"],
        choices=setting_choices("double_blank_value", 12),
        coerce=int,
    )
    double_penalty = forms.TypedChoiceField(
        label=LABELS["double_penalty"], choices=setting_choices("double_penalty", 12), coerce=int
    )
    out_score = forms.TypedChoiceField(
        label=LABELS["out_score"], choices=setting_choices("out_score", 12), coerce=int
    )
    # Added after the others: a page drawn before them posts none, and gets the preset's.
    round_engines = forms.ChoiceField(
        label=LABELS["round_engines"],
        choices=setting_choices("round_engines", 12),
        required=False,
    )
    blank_value = forms.TypedChoiceField(
        label=LABELS["blank_value"],
        choices=setting_choices("blank_value", 12),
        coerce=int,
        required=False,
        empty_value=None,
    )
    out_on_double = forms.TypedChoiceField(
        label=LABELS["out_on_double"],
        choices=setting_choices("out_on_double", 12),
        coerce=int,
        required=False,
        empty_value=None,
    )
    tie_break = forms.ChoiceField(
        label=LABELS["tie_break"], choices=setting_choices("tie_break", 12), required=False
    )
    everyone_first_turn = forms.TypedChoiceField(
        label=LABELS["everyone_first_turn"],
        choices=ON_OFF,
        coerce=_on,
        required=False,
        empty_value=None,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chosen = self.data.get("highest_double") or self.initial.get("highest_double")
        top = int(chosen) if str(chosen) in {str(n) for n in SUPPORTED_SETS} else 12
        self.fields["rounds"].choices = setting_choices("rounds", top)
        for number in range(1, MAX_PLAYERS + 1):
            self.fields[f"player_{number}"] = forms.CharField(
                label=f"Player {number}", max_length=NAME_LENGTH, required=False
            )

    @staticmethod
    def initial_for(preset_name: str, highest_double: int) -> dict[str, str]:
        """The house-rule fields as a preset sets them for a set (the page redraws them
        when either changes, so what is shown is what will be played)."""
        rules = PRESETS.get(preset_name, Rules())
        if rules.rounds is not None and rules.rounds > highest_double + 1:
            rules = rules.changed(rounds=None)
        rules = rules.changed(highest_double=highest_double)
        initial = {setting: setting_value(rules, setting) for setting in HOUSE_RULES}
        return {**initial, "preset": preset_name, "highest_double": str(highest_double)}

    def first_players(self) -> list[forms.BoundField]:
        return [self[f"player_{n}"] for n in range(1, FIRST_PLAYERS + 1)]

    def more_players(self) -> list[forms.BoundField]:
        return [self[f"player_{n}"] for n in range(FIRST_PLAYERS + 1, MAX_PLAYERS + 1)]

    def more_players_typed(self) -> bool:
        return any(field.value() for field in self.more_players())

    def rules_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("highest_double", "preset", *HOUSE_RULES)]

    def names(self) -> list[str]:
        """The names typed, in order, as shown (see ``clean``), with empty rows skipped."""
        typed = (self.cleaned_data.get(f"player_{n}", "") for n in range(1, MAX_PLAYERS + 1))
        return [name for name in typed if name]

    def clean(self) -> dict[str, Any]:
        """Each typed name as it will be shown (``common.names.clean``): a name that shows
        nothing, only zero-width spaces say, is refused on its own row with the reason.
        Names that read alike are refused by ``services.create_match``, which compares."""
        data = super().clean()
        for number in range(1, MAX_PLAYERS + 1):
            field = f"player_{number}"
            if data.get(field):  # a row left empty is skipped, not an error
                try:
                    data[field] = people.clean(data[field], NAME_LENGTH)
                except people.BadName as error:
                    self.add_error(field, str(error))
        if self.errors:
            return data
        if len(self.names()) < 2:
            raise forms.ValidationError("Type at least two player names.")
        house = {s: data[s] for s in HOUSE_RULES if data.get(s) not in (None, "")}
        top = data["highest_double"]
        if house.get("rounds") == top + 1:
            house["rounds"] = None  # one round per double, the engine's own default
        try:
            data["rules"] = preset(data["preset"]).changed(highest_double=top, **house)
        except RulesError as error:
            field = error.setting if error.setting in self.fields else None
            self.add_error(field, str(error).removeprefix(f"{error.setting}: "))
        return data


class JoinForm(forms.Form):
    """Say once, on this device, who you are at this match."""

    seat = forms.TypedChoiceField(
        label="I am", coerce=int, empty_value=None, required=False, widget=forms.RadioSelect
    )
    name = forms.CharField(label="Your name", max_length=NAME_LENGTH, required=False)

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_names = dict(seats)
        self.fields["seat"].choices = [(str(p), n) for p, n in seats] + [
            ("", "Someone else (keeping score or watching)")
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        if data["seat"] is None:
            if not data["name"]:
                raise forms.ValidationError("Pick your name, or type the name you go by.")
            try:
                data["name"] = people.clean(data["name"], NAME_LENGTH)
            except people.BadName as error:
                self.add_error("name", str(error))
        else:
            data["name"] = self.seat_names[data["seat"]]
        return data


@dataclass(frozen=True)
class Edit:
    """One cell edit as a phone sends it."""

    client_id: uuid.UUID
    round: int
    seat: int
    base_version: int
    value: EntryValue


def parse_edit(message: Mapping[str, Any]) -> Edit:
    """Read an entry message: ``{"client_id", "round", "seat", "base_version", "value"}``."""
    try:
        client_id = uuid.UUID(str(message["client_id"]))
        round_number, seat = int(message["round"]), int(message["seat"])
        base_version = int(message["base_version"])
        value = message["value"]
    except (KeyError, TypeError, ValueError):
        raise Refused("That entry could not be read; open the cell and enter it again.") from None
    if not isinstance(value, Mapping) or base_version < 0:
        raise Refused("That entry could not be read; open the cell and enter it again.")
    return Edit(client_id, round_number, seat, base_version, parse(value))


def parse_setting(message: Mapping[str, Any]) -> tuple[str, Any, Any]:
    """Read a settings message (a form sent over the socket, so every value is a string):
    the setting, its new value, and the value the phone showed before (``was``)."""
    setting = message.get("setting")
    if setting not in HOUSE_RULES:
        raise Refused("Only the house rules can be changed once a match has started.")
    try:
        value, was = (_setting_value(setting, message[key]) for key in ("value", "was"))
    except (KeyError, TypeError, ValueError):
        raise Refused(f"Choose one of the options for {LABELS[setting]}.") from None
    return setting, value, was


def _setting_value(setting: str, raw: Any) -> Any:
    """An option of ``setting_choices`` back to its value: a word, on/off or a number."""
    text = str(raw).strip()
    if setting in WORDED:
        if text not in WORDED[setting]:
            raise ValueError(text)
        return text
    return _on(text) if text in ("on", "off") else int(text)


def parse_undo(message: Mapping[str, Any]) -> tuple[int, bool]:
    """Read an undo message: the id of the change the button named, and whether the person
    confirmed taking back somebody else's change (the question's answer)."""
    try:
        change = int(message["change"])
    except (KeyError, TypeError, ValueError):
        raise Refused("That undo could not be read; tap Undo again.") from None
    return change, message.get("confirm") is True
