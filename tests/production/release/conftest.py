"""The release's tests run in every pass, unlike the multi-process tests of tests/production:
DEBUG=0 and the collected static files break a page on SQLite as they do on PostgreSQL.

``production_mode`` gives a test this process's settings as a release has them: DEBUG off,
the static storage that DEBUG=0 picks (content-hashed names from collectstatic's manifest),
and the files collected once a session into a folder of their own.
"""

from __future__ import annotations

import pytest

from tests.production.release.deployment import collect_static, release_environment


@pytest.fixture(autouse=True)
def on_postgres_and_redis():
    """The parent's guard, lifted: these tests mean something on any database."""


@pytest.fixture(scope="session")
def released_settings(tmp_path_factory) -> dict:
    """The static files collected as a DEBUG=0 deployment collects them, and the settings
    (STORAGES, STATIC_ROOT) that process had."""
    folder = tmp_path_factory.mktemp("release")
    return collect_static(release_environment(folder))


@pytest.fixture
def production_mode(settings, released_settings) -> None:
    """This process serves as the release does: whitenoise serves the collected files, and
    ``{% static %}`` names them from the manifest, failing for a name it does not hold."""
    settings.DEBUG = False
    settings.STORAGES = released_settings["STORAGES"]
    settings.STATIC_ROOT = released_settings["STATIC_ROOT"]
