from django.apps import AppConfig


class CrewsConfig(AppConfig):
    """The same friends across game nights: people, crews, seasons, standings and ratings."""

    name = "crews"
    verbose_name = "Crews"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the score sheet's signal)
