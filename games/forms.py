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

from games.bots import LEVELS, PLAYS_LIKE
from games.engine import Action
from games.engine.actions import DRAW, END_TURN, PASS, PLACE_ENGINE, PLAY
from games.engine.rules import (
    BLANK_VALUES,
    DOUBLE_BLANK_VALUES,
    DOUBLE_SCOPES,
    ENGINE_HUNTS,
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

from .models import NAME_LENGTH, TURN_LIMITS, Pace, duration_in_words

# The rules form in the groups a host thinks in, all folded under "House rules" (the standard
# game needs none of them); inside it, the first group is open and the others fold away.
RULE_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "The set and the deal",
        (
            "highest_double",
            "variant",
            "rounds",
            "round_engines",
            "hand_size",
            "public_trains",
            "engine_from_hand",
            "engine_hunt",
            "engine_replacement",
        ),
    ),
    (
        "The first turn",
        (
            "first_turn",
            "own_train_first",
            "draw_on_first_turn",
            "everyone_first_turn",
            "unstarted_trains_open",
        ),
    ),
    (
        "Doubles",
        (
            "doubles_must_be_covered",
            "double_scope",
            "double_plays_again",
            "extra_play_optional",
            "dead_doubles_free",
        ),
    ),
    ("Drawing", ("draw_before_passing", "optional_draw")),
    (
        "Scoring",
        ("double_blank_value", "blank_value", "double_penalty", "out_score", "out_on_double"),
    ),
    ("The end of the match", ("tie_break",)),
)
RULE_FIELDS = tuple(name for _, names in RULE_GROUPS for name in names)

# One plain sentence under each control: what the setting does at the table.
SENTENCES: dict[str, str] = {
    "highest_double": "The biggest double in the box: double-12 is the usual set.",
    "variant": "Chicken Foot branches every double three ways; Cuban forks it instead.",
    "rounds": "Leave empty for one round per double, from the highest down to 0-0.",
    "round_engines": "Matters only when fewer rounds than doubles are played.",
    "hand_size": "Leave empty for the usual number for the set and the players.",
    "public_trains": "Trains anybody may play on at any time.",
    "engine_from_hand": "The round's double is dealt like any tile; its holder starts.",
    "engine_replacement": "The holder draws one tile for the engine laid (not one hunted).",
    "engine_hunt": "Drawing in passes keeps everybody's hand the same size.",
    "first_turn": "A line lays as many matching tiles on your own train as you can.",
    "own_train_first": "A cover owed elsewhere may always be laid.",
    "draw_on_first_turn": "Whether a player with nothing to lay in their first turn may draw.",
    "unstarted_trains_open": "Anyone may play on a train its owner has not started.",
    "everyone_first_turn": "Who goes out early sits out until every seat has had a first turn.",
    "doubles_must_be_covered": "Nothing else is played until a double laid is covered.",
    "double_scope": "Whether an uncovered double stops the whole table or only its train.",
    "double_plays_again": "Laying a double earns one more tile, covering it if it is owed.",
    "extra_play_optional": "End the turn instead of the extra tile: no draw, no marker.",
    "dead_doubles_free": "Once no unplayed tile could cover a double, it closes nothing.",
    "draw_before_passing": "Who cannot play draws one tile before passing.",
    "optional_draw": "At the start of a turn, while the boneyard lasts.",
    "double_blank_value": "Points the 0-0 costs whoever still holds it.",
    "blank_value": "When a hand is counted: a 6-0 then counts 31.",
    "double_penalty": "Points added for each double still in hand.",
    "out_score": "A bonus for going out, below zero.",
    "out_on_double": "Added to the score of a player whose last tile was a double.",
    "tie_break": "Who wins when the lowest totals are equal.",
}

# A setting that changes how another one plays, shown only while that one is on
# (static/css/app.css hides it; the engine refuses it set without that one).
NEEDS = {
    "double_scope": "doubles_must_be_covered",
    "extra_play_optional": "double_plays_again",
    "optional_draw": "draw_before_passing",
    "engine_replacement": "engine_from_hand",
    "engine_hunt": "engine_from_hand",
}

# Settings added after pages were drawn: a page drawn before them posts none, and the
# table gets their defaults rather than a refusal (or, for a box, a silent "off").
OPTIONAL_RULES = (
    "round_engines",
    "blank_value",
    "out_on_double",
    "tie_break",
    "own_train_first",
    "draw_on_first_turn",
    "engine_hunt",
)


def _choices(setting: str, values: tuple[Any, ...]) -> list[tuple[str, str]]:
    words = VALUE_WORDS.get(setting, {})
    return [(str(v), _sentence(str(words.get(v, v)))) for v in values]


LIVE_LIMITS = tuple(s for s in TURN_LIMITS[Pace.LIVE] if s is not None)


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:]


class TableForm(forms.Form):
    """A new table: the host's name, how many seats, and every setting of the rules."""

    host_name = forms.CharField(label="Your name", max_length=NAME_LENGTH)
    contribution = forms.CharField(
        required=False,
        max_length=64,
        widget=forms.HiddenInput(attrs={"data-contribution": ""}),
    )  # the browser's share in every deal (static/games/deal.js); none: the server makes one
    seat_count = forms.TypedChoiceField(
        label="Seats",
        choices=[(str(n), str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        coerce=int,
        initial="4",
        help_text="People and bots together; empty seats are closed up at the start, "
        "unless bots fill them.",
    )
    fill_seats = forms.BooleanField(
        label="Fill empty seats with bots",
        required=False,
        help_text="When you start the match, a bot sits in every seat nobody has taken. "
        "Until then, friends with the link can still take them.",
    )
    fill_level = forms.ChoiceField(
        label="The bots that fill them",
        choices=[(level, f"{level.title()}: {PLAYS_LIKE[level]}") for level in LEVELS],
        initial="greedy",
        required=False,
        widget=forms.RadioSelect,
    )
    pace = forms.ChoiceField(
        label="Pace",
        choices=[
            (Pace.LIVE, "Live: everyone plays now, together"),
            (
                Pace.OWN,
                "At your own pace: a turn can wait hours for its player, so a match can last days",
            ),
        ],
        initial=Pace.LIVE,
        required=False,  # a page drawn before the pace existed posts none: live
        widget=forms.RadioSelect,
    )
    live_clock = forms.TypedChoiceField(
        label="Turn clock",
        choices=[("", "Off"), *((str(s), f"{duration_in_words(s)} a turn") for s in LIVE_LIMITS)],
        coerce=int,
        empty_value=None,
        required=False,
        help_text="When a person's time runs out, a bot plays that one turn for them; the "
        "seat stays theirs.",
    )
    own_clock = forms.TypedChoiceField(
        label="Time for each turn",
        choices=[(str(s), duration_in_words(s)) for s in TURN_LIMITS[Pace.OWN]],
        coerce=int,
        required=False,
        help_text="Also the time to press Ready for the next round. When it runs out, a bot "
        "plays that one turn; the seat stays the person's.",
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
    )
    blank_value = forms.TypedChoiceField(
        label=LABELS["blank_value"],
        choices=[(str(v), "Nothing" if v == 0 else f"{v} pips") for v in BLANK_VALUES],
        coerce=int,
        required=False,
        empty_value=None,
    )
    out_on_double = forms.TypedChoiceField(
        label=LABELS["out_on_double"],
        choices=[(str(v), "Nothing" if v == 0 else f"{v:+d}") for v in range(-50, 101, 5)],
        coerce=int,
        required=False,
        empty_value=None,
    )
    tie_break = forms.ChoiceField(
        label=LABELS["tie_break"], choices=_choices("tie_break", TIE_BREAKS), required=False
    )
    own_train_first = forms.ChoiceField(
        label=LABELS["own_train_first"],
        choices=_choices("own_train_first", OWN_TRAIN_FIRST),
        required=False,
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
    )
    extra_play_optional = forms.BooleanField(
        label=LABELS["extra_play_optional"],
        required=False,
    )
    engine_hunt = forms.ChoiceField(
        label=LABELS["engine_hunt"],
        choices=_choices("engine_hunt", ENGINE_HUNTS),
        required=False,
    )
    everyone_first_turn = forms.BooleanField(label=LABELS["everyone_first_turn"], required=False)
    dead_doubles_free = forms.BooleanField(label=LABELS["dead_doubles_free"], required=False)
    engine_replacement = forms.BooleanField(
        label=LABELS["engine_replacement"],
        required=False,
    )

    @staticmethod
    def initial_for(preset_name: str, host_name: str = "") -> dict[str, Any]:
        """The fields as a preset sets them: what is shown is what will be played."""
        rules = PRESETS.get(preset_name, Rules())
        initial: dict[str, Any] = {
            setting: "" if value is None else value for setting, value in rules.to_dict().items()
        }
        initial["draw_on_first_turn"] = "on" if rules.draw_on_first_turn else "off"
        return {
            **initial,
            "preset": preset_name,
            "host_name": host_name,
            "seat_count": 4,
            "fill_level": "greedy",
            "pace": Pace.LIVE,
            "own_clock": str(24 * 3600),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in RULE_FIELDS:
            self.fields[name].help_text = SENTENCES[name]
            self.fields[name].needs = NEEDS.get(name, "")

    def rule_groups(self) -> list[tuple[str, list[forms.BoundField], bool]]:
        """Each group's title, its fields, and whether it opens (the first, or one with an
        error to show)."""
        return [
            (title, fields, index == 0 or any(f.errors for f in fields))
            for index, (title, names) in enumerate(RULE_GROUPS)
            for fields in [[self[name] for name in names]]
        ]

    def house_rules_open(self) -> bool:
        """Whether "House rules" opens: to show an error in it, or a table that is not the
        standard game (another preset was chosen). The standard game opens it folded."""
        if any(self[name].errors for name in RULE_FIELDS):
            return True
        return self.is_bound and str(self["preset"].value() or "standard") != "standard"

    def preset_name(self) -> str:
        return PRESET_NAMES.get(str(self["preset"].value()), PRESET_NAMES["standard"])

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
            for name in RULE_FIELDS
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
        data["pace"] = data["pace"] or Pace.LIVE
        if data["pace"] == Pace.OWN:
            if data["own_clock"] not in TURN_LIMITS[Pace.OWN]:
                self.add_error("own_clock", "Choose how long each turn may wait.")
            data["turn_limit"] = data["own_clock"]
        else:
            data["turn_limit"] = data["live_clock"]
        if not data["fill_seats"]:
            data["fill_level"] = ""
        elif data["fill_level"] not in LEVELS:
            self.add_error("fill_level", "Choose which bots fill the empty seats.")
        return data


class JoinForm(forms.Form):
    """Take a seat: a display name, and a free seat or the next one."""

    name = forms.CharField(
        label="Your name",
        max_length=NAME_LENGTH,
        error_messages={"required": "Type your name to join."},
    )
    position = forms.TypedChoiceField(label="Seat", coerce=int, empty_value=None, required=False)
    contribution = forms.CharField(
        required=False,
        max_length=64,
        widget=forms.HiddenInput(attrs={"data-contribution": ""}),
    )  # the browser's share in every deal (static/games/deal.js); none: the server makes one

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

    level = forms.ChoiceField(choices=[(b, b.title()) for b in LEVELS])
    position = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1, required=False)


# -- the socket's intents -------------------------------------------------------------------

GAME_INTENTS = ("play", "line", "draw", "pass", "end_turn", "place_engine")
TABLE_INTENTS = ("ready", "ping")
# Asking for a seat back from another screen (a lost phone), and the answer to it.
SEAT_INTENTS = ("ask_seat", "cancel_ask", "answer_seat")
# A seat's page says whether it is in sight: its person is then sent no alert (games/alerts).
PAGE_INTENTS = ("visibility",)
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
    visible: bool = False  # the page is in sight (a visibility message)

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
    if kind in PAGE_INTENTS:
        if type(message.get("visible")) is not bool:
            raise BadMessage("A visibility message says visible: true or false.")
        return Intent(kind, visible=message["visible"])
    if kind not in GAME_INTENTS:
        known = ", ".join(GAME_INTENTS + TABLE_INTENTS + SEAT_INTENTS + PAGE_INTENTS)
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
