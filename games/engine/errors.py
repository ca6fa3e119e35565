"""Errors the engine raises, each with a sentence a player can read."""


class IllegalAction(ValueError):
    """An action the rules forbid in this state; the message names the rule."""
