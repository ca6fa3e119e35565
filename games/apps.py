from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Online play: tables, seats, bots and match records, driven by games.engine."""

    name = "games"
    verbose_name = "Games"
