"""People's names as typed on a phone, and when two of them are the same name.

Two names are the same when a reader could not tell them apart: "Ana", "ANA", "Ａｎａ" (full
width), "A\u200bna" (a zero-width space inside) and "Аna" (a Cyrillic А) all read as Ana.
NFKC and case-folding settle the first ones; the Cyrillic and Greek letters drawn exactly as
Latin ones are mapped by the short table below (Unicode's full confusables list is far more
than a table of friends needs).
"""

from __future__ import annotations

import unicodedata

# Cyrillic and Greek letters whose capital (or small) form is drawn as a Latin letter, as
# they are after case-folding.
LOOKALIKES = str.maketrans(
    "авекмнорстхуіјѕαβεζηικμνορτυχ",
    "abekmhopctxyijsabezhikmnoptyx",
)


class BadName(ValueError):
    """A name nobody could read back: the message says what to type instead."""


def _shown(name: str) -> str:
    """Format and control characters (zero-width spaces, direction marks) removed, runs of
    white space made one space."""
    visible = "".join(ch for ch in str(name) if unicodedata.category(ch) not in ("Cf", "Cc"))
    return " ".join(visible.split())


def clean(name: str, max_length: int) -> str:
    """The name as shown (``_shown``). Refuses a name that leaves nothing visible."""
    shown = _shown(name)
    if not shown:
        raise BadName("Type a name with letters or digits in it: that one shows nothing.")
    if len(shown) > max_length:
        raise BadName(f"Give a name of 1 to {max_length} characters.")
    return shown


def key(name: str) -> str:
    """What two names are compared by: the shown name, NFKC-normalised and case-folded."""
    return unicodedata.normalize("NFKC", _shown(name)).casefold().translate(LOOKALIKES)
