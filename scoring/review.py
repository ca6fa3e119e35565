"""A match's rules and score sheet as staff review them, for any match: a sheet kept at a
real table or an online table's (whose review, from its game record, is ``games.review``).

The rules are told in words through the engine's own descriptions, and the sheet is derived
by ``scoring.services``, never stored: what staff read is what the players' sheet shows.
"""

from __future__ import annotations

from django.db.models import Prefetch

from games.engine.rules import LABELS, Rules, RulesError, describe, preset_name

from .models import Entry, Match
from .services import Sheet, sheet_from

# What a list of matches prefetches so that :func:`sheet_of` derives each sheet without a
# query of its own.
SHEET_PREFETCH = (
    "seats__player",
    Prefetch("rounds__entries", queryset=Entry.objects.select_related("seat")),
)

# Presets are written on the default set; a preset played with another set is still it.
DEFAULT_SET = Rules().highest_double


def preset_of(rules: Rules) -> str | None:
    """The preset these rules are, whatever the set: a family game on a double-9 set is
    still the family preset."""
    try:
        return preset_name(rules.changed(highest_double=DEFAULT_SET))
    except RulesError:  # more rounds than the default set has: no preset plays that
        return None


def rules_summary(rules: Rules) -> str:
    """The set, then its preset or what differs from the defaults, in one line:
    ``double-12, family`` or ``double-9, Double-blank is worth 50; Rounds to play: 7``."""
    where = f"double-{rules.highest_double}"
    preset = preset_of(rules)
    if preset is not None:
        return f"{where}, {preset}"
    defaults = Rules(highest_double=rules.highest_double)
    changed = rules.differences(defaults)
    return f"{where}, " + "; ".join(describe(s, ours) for s, (ours, _) in changed.items())


def rules_lines(rules: Rules) -> list[str]:
    """Every setting in words, in the order the rules define them."""
    return [describe(setting, getattr(rules, setting)) for setting in LABELS]


def sheet_of(match: Match) -> Sheet:
    """The match's score sheet from rows loaded with :data:`SHEET_PREFETCH`, derived once
    per match object: a list shows its winners and rounds from the same sheet."""
    if not hasattr(match, "_review_sheet"):
        entries = [entry for rnd in match.rounds.all() for entry in rnd.entries.all()]
        match._review_sheet = sheet_from(match, match.seats.all(), entries)
    return match._review_sheet
