"""The project skeleton: pages, health check, ASGI wiring and settings read from the env."""

import json
import os
import re
import subprocess
import sys

import pytest
from channels.testing import HttpCommunicator
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from config import settings as project_settings
from config import views

ROOT = settings.BASE_DIR
ENV_VARS = ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter with only the given project variables set, so the
    settings module is read from scratch (as at server start) whatever this process has."""
    clean = {k: v for k, v in os.environ.items() if k not in ENV_VARS}
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


PRINT_BACKENDS = """
import django
from django.conf import settings
django.setup()
print(settings.DATABASES["default"]["ENGINE"])
print(settings.CHANNEL_LAYERS["default"]["BACKEND"])
"""


# --- pages --------------------------------------------------------------------------------


def test_every_template_comment_ends_on_its_own_line():
    """Django's ``{# #}`` comment cannot span lines: one that runs on to the next is drawn
    on the page as text, for every player to read. Longer notes take {% comment %}."""
    runs_on = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "templates").rglob("*"))
        if path.is_file()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\{#(?!.*#\})", line)
    ]
    assert runs_on == []


def test_home_page_describes_the_three_parts(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<meta name="viewport"' in html
    for heading in ("Play online", "Score sheet for real tiles"):
        assert heading in html
    assert "/static/vendor/htmx.min.js" in html
    assert "/static/vendor/ws.js" in html
    assert not re.search(r"lorem|todo|placeholder|coming soon", html, re.IGNORECASE)


def test_the_staff_review_is_a_footer_link_not_a_card(client):
    """Players are not offered a card for something only staff can open: the review of past
    matches is one link in the page's footer, saying it is for staff."""
    html = client.get("/").content.decode()
    assert "<h2>Review past matches</h2>" not in html
    footer = re.search(r"<footer>(.*?)</footer>", html, re.DOTALL)
    assert footer is not None
    link = f'<a href="{reverse("admin:index")}">Staff: review past matches</a>'
    assert link in footer.group(1)


def test_home_page_links_only_to_pages_that_exist(client):
    html = client.get("/").content.decode()
    links = set(re.findall(r'href="(/[^"]*)"', html))
    pages = {link for link in links if not link.startswith("/static/")}
    assert pages, "the home page should link at least to itself"
    for link in pages:
        assert client.get(link).status_code < 400, link
    static = {link.removeprefix("/static/") for link in links - pages}
    static |= set(re.findall(r'src="/static/([^"]*)"', html))
    for name in static:
        assert finders.find(name), f"static file {name} is referenced but missing"


async def test_asgi_application_serves_http():
    """The ProtocolTypeRouter in config.asgi hands HTTP to Django (daphne serves this app)."""
    from config.asgi import application

    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"testserver")])
    response = await communicator.get_response()
    assert response["status"] == 200
    assert b"Mexican Train" in response["body"]


# --- health check -------------------------------------------------------------------------


@pytest.mark.django_db
def test_healthz_ok_on_default_settings(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "channel_layer": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_names_the_failing_check(client, monkeypatch):
    async def broken():
        raise ConnectionError("redis is down")

    monkeypatch.setitem(views.CHECKS, "channel_layer", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "channel_layer": "failed: ConnectionError"}


@pytest.mark.services
def test_healthz_on_postgres_and_redis(require_postgres, require_redis):
    """The real production pair: one query on PostgreSQL and a round-trip through Redis."""
    code = """
import json, django
django.setup()
from django.test import Client
response = Client().get("/healthz", HTTP_HOST="localhost")
print(response.status_code, json.dumps(response.json()))
"""
    result = run_python(code, DATABASE_URL=require_postgres, REDIS_URL=require_redis)
    assert result.returncode == 0, result.stderr
    status, body = result.stdout.strip().split(" ", 1)
    assert (status, json.loads(body)) == ("200", {"database": "ok", "channel_layer": "ok"})


# --- settings from the environment --------------------------------------------------------


def test_nothing_set_means_sqlite_and_in_memory_layer():
    database = project_settings.databases({})["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == ROOT / "db.sqlite3"
    layer = project_settings.channel_layers({})["default"]
    assert layer["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_database_url_switches_to_postgresql():
    url = "postgresql://game:secret@db.example:5432/trains"
    database = project_settings.databases({"DATABASE_URL": url})["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["HOST"] == "db.example"
    assert (database["NAME"], database["USER"]) == ("trains", "game")
    assert database["CONN_MAX_AGE"] == 60
    assert database["CONN_HEALTH_CHECKS"] is True


def test_postgresql_keeps_the_urls_options():
    url = "postgresql://game:secret@db.example:5432/trains?sslmode=require"
    options = project_settings.databases({"DATABASE_URL": url})["default"]["OPTIONS"]
    assert options == {"sslmode": "require"}


def test_redis_url_switches_to_redis_layer_with_deliberate_limits():
    layer = project_settings.channel_layers({"REDIS_URL": "redis://cache:6379/2"})["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    config = layer["CONFIG"]
    host = config["hosts"][0]
    assert host["address"] == "redis://cache:6379/2"
    # Longer than channels-redis' 5 s blocking pop (redis-py 8 defaults to 5 s: #422).
    assert host["socket_timeout"] > 5
    assert config["capacity"] >= 100  # a socket this far behind has been stalled a minute
    assert config["expiry"] <= 60  # a message older than this describes a table gone by
    assert config["group_expiry"] >= 86400  # daphne's default websocket timeout


def test_environment_switches_backends_at_startup():
    default = run_python(PRINT_BACKENDS)
    assert default.returncode == 0, default.stderr
    assert default.stdout.split() == [
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
    ]
    switched = run_python(
        PRINT_BACKENDS,
        DATABASE_URL="postgresql://postgres@127.0.0.1:5432/postgres",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert switched.returncode == 0, switched.stderr
    assert switched.stdout.split() == [
        "django.db.backends.postgresql",
        "channels_redis.core.RedisChannelLayer",
    ]


def test_debug_off_without_secret_key_refuses_to_start():
    result = run_python("import django; django.setup()", DEBUG="0")
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set" in result.stderr


def test_debug_off_uses_production_defaults():
    code = """
import django
from django.conf import settings
django.setup()
print(settings.ALLOWED_HOSTS, settings.SESSION_COOKIE_SECURE, settings.SECURE_PROXY_SSL_HEADER)
print(settings.STORAGES["staticfiles"]["BACKEND"])
"""
    result = run_python(code, DEBUG="0", SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first == "[] True None"  # X-Forwarded-Proto trusted only with BEHIND_PROXY=1
    assert second == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_yes_no_variables_refuse_unknown_words():
    assert project_settings.env_bool({"DEBUG": "off"}, "DEBUG", default=True) is False
    assert project_settings.env_bool({}, "DEBUG", default=True) is True
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe'"):
        project_settings.env_bool({"DEBUG": "maybe"}, "DEBUG", default=True)


def test_lists_are_comma_separated():
    env = {"ALLOWED_HOSTS": " example.com, .example.org ,"}
    assert project_settings.env_list(env, "ALLOWED_HOSTS", []) == ["example.com", ".example.org"]
    assert project_settings.env_list({}, "ALLOWED_HOSTS", ["localhost"]) == ["localhost"]


# --- service helpers ----------------------------------------------------------------------


def test_missing_service_skips_locally_and_fails_in_ci(monkeypatch):
    from tests import services

    services.require("Thing", True, "present")  # no effect
    monkeypatch.delenv("REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="Thing is not available: gone"):
        services.require("Thing", False, "gone")
    monkeypatch.setenv("REQUIRE_SERVICES", "1")
    with pytest.raises(pytest.fail.Exception, match="REQUIRE_SERVICES=1"):
        services.require("Thing", False, "gone")
