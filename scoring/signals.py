"""What the score sheet tells apps above it, which it must not import (the crews count its
matches): Django's signals keep that dependency pointing one way."""

from django.dispatch import Signal

# Sent once a change to a match's entries, settings or status is committed, with
# ``match`` and ``status_changed`` (whether it just became finished, or stopped being).
match_changed = Signal()
