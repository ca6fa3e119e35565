from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """The shared score sheet for games played with real tiles at a real table."""

    name = "scoring"
    verbose_name = "Score sheets"
