"""The security headers, and pages that keep to their Content-Security-Policy.

- HSTS with DEBUG=0 and Secure cookies, for HSTS_SECONDS (a year unless set); none with
  SECURE_COOKIES=0, with HSTS_SECONDS=0, or in development.
- X-Forwarded-Proto makes a request HTTPS only with BEHIND_PROXY=1: anyone can send it.
- Every page carries the policy and has no inline script and no inline event handler, which
  the policy would block; in Chromium, the table and the score sheet run without a violation.

The production settings are read at import, so they are tried in a fresh interpreter with
the environment a DEBUG=0 deployment has (as tests/test_skeleton.py does).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import services as tables
from games.engine import Rules
from scoring import services as sheets

# The browser tests' launch of Debian's Chromium, for pytest-playwright's `browser` here too.
from tests.browser.conftest import browser_type_launch_args, free_port, stop  # noqa: F401
from tests.review.conftest import play_online_match
from tests.scoring.conftest import SEED_PLAYERS, enter_seed_rounds

YEAR = 365 * 24 * 3600
PROJECT_VARIABLES = (
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "SECURE_COOKIES",
    "HSTS_SECONDS", "BEHIND_PROXY",
)  # fmt: skip

# One request in a fresh interpreter: the response's headers, and whether Django takes the
# same request for HTTPS. /healthz needs no collected static files (DEBUG=0 wants them).
REQUEST = """
import json, sys, django
django.setup()
from django.test import Client, RequestFactory
extra = json.loads(sys.argv[1])
response = Client().get("/healthz", **extra)
secure = RequestFactory().get("/healthz", **extra).is_secure()
print(json.dumps({"headers": dict(response.headers), "secure": secure}))
"""


def deployed(tmp_path: Path, extra: dict | None = None, **env: str) -> dict:
    """GET /healthz as a DEBUG=0 deployment with ``env`` answers it."""
    clean = {k: v for k, v in os.environ.items() if k not in PROJECT_VARIABLES}
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "x" * 50,
        "ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", REQUEST, json.dumps(extra or {})],
        cwd=settings.BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


# --- HSTS ---------------------------------------------------------------------------------


def test_https_responses_in_production_carry_hsts_for_a_year(tmp_path):
    answer = deployed(tmp_path, {"secure": True})
    assert answer["headers"]["Strict-Transport-Security"] == f"max-age={YEAR}"


def test_hsts_lasts_as_long_as_hsts_seconds_says(tmp_path):
    answer = deployed(tmp_path, {"secure": True}, HSTS_SECONDS="300")
    assert answer["headers"]["Strict-Transport-Security"] == "max-age=300"


@pytest.mark.parametrize("env", [{"SECURE_COOKIES": "0"}, {"HSTS_SECONDS": "0"}])
def test_no_hsts_when_plain_http_is_allowed_or_it_is_turned_off(tmp_path, env):
    answer = deployed(tmp_path, {"secure": True}, **env)
    assert "Strict-Transport-Security" not in answer["headers"]


def test_no_hsts_in_development(client):
    assert "Strict-Transport-Security" not in client.get("/", secure=True).headers


# --- X-Forwarded-Proto --------------------------------------------------------------------


def test_a_forwarded_proto_from_anyone_does_not_make_a_request_https(tmp_path):
    answer = deployed(tmp_path, {"HTTP_X_FORWARDED_PROTO": "https"})
    assert answer["secure"] is False
    assert "Strict-Transport-Security" not in answer["headers"]


def test_behind_a_proxy_its_forwarded_proto_makes_a_request_https(tmp_path):
    answer = deployed(tmp_path, {"HTTP_X_FORWARDED_PROTO": "https"}, BEHIND_PROXY="1")
    assert answer["secure"] is True
    assert answer["headers"]["Strict-Transport-Security"] == f"max-age={YEAR}"
    plain = deployed(tmp_path, {"HTTP_X_FORWARDED_PROTO": "http"}, BEHIND_PROXY="1")
    assert plain["secure"] is False


# --- Content-Security-Policy on every page ------------------------------------------------

POLICY = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'"},
    "connect-src": {"'self'"},
    "object-src": {"'none'"},
    "frame-ancestors": {"'none'"},
    "base-uri": {"'self'"},
    "form-action": {"'self'"},
}
DATA_SCRIPTS = {"application/json", "application/ld+json"}  # data blocks, never run


def policy(header: str) -> dict[str, set[str]]:
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: set(sources) for name, *sources in directives}


class InlineCode(HTMLParser):
    """What the policy would block on a page: a <script> with no src (a JSON data block is
    no script), an on...= attribute, a javascript: link, a <style> element. (Style
    attributes are allowed: config/settings.py says why.)"""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script" and not found.get("src") and found.get("type") not in DATA_SCRIPTS:
            self.found.append(f"<script> at line {self.getpos()[0]}")
        if tag == "style":
            self.found.append(f"<style> at line {self.getpos()[0]}")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=> at line {self.getpos()[0]}")
            if name in {"href", "src", "action"} and (value or "").strip().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}=javascript:> at line {self.getpos()[0]}")


def assert_keeps_the_policy(response) -> None:
    assert response.status_code == 200, response.status_code
    assert "Content-Security-Policy" in response.headers, "no Content-Security-Policy header"
    directives = policy(response.headers["Content-Security-Policy"])
    for name, sources in POLICY.items():
        assert directives.get(name) == sources, (name, directives.get(name))
    assert InlineCode(response.content.decode()).found == []


@pytest.fixture
def table_at_play(db) -> tuple[Client, str]:
    """A started two-seat table and the host's browser at it."""
    table, host = tables.create_table(
        rules=Rules(highest_double=6, rounds=2), seat_count=2, host_name="Ana"
    )
    tables.add_bot(table.code, host_token=table.host_token, level="greedy")
    tables.start(table.code, host_token=table.host_token)
    browser = Client()
    browser.get(reverse("games:rejoin", args=[table.code, host.token]))
    return browser, table.code


def test_the_public_pages_carry_the_policy_and_no_inline_code(client, table_at_play):
    host, code = table_at_play
    match = sheets.create_match(SEED_PLAYERS, Rules(rounds=4), by="Ana")
    enter_seed_rounds(match)
    player = Client()
    player.post(reverse("scoring:join", args=[match.code]), {"seat": "0"})
    lobby, _ = tables.create_table(rules=Rules(), seat_count=4, host_name="Ben")

    pages = {
        "home": client.get("/"),
        "new table": client.get(reverse("games:new")),
        "table lobby": client.get(reverse("games:table", args=[lobby.code])),
        "table at play": host.get(reverse("games:table", args=[code])),
        "new score sheet": client.get(reverse("scoring:new")),
        "score sheet": player.get(reverse("scoring:sheet", args=[match.code])),
        "viewer": client.get(reverse("scoring:viewer", args=[match.viewer_code])),
    }
    assert "Who are you?" not in pages["score sheet"].content.decode()
    for name, response in pages.items():
        try:
            assert_keeps_the_policy(response)
        except AssertionError as failure:
            raise AssertionError(f"{name}: {failure}") from failure


def test_the_admin_review_pages_carry_the_policy_and_no_inline_code(admin_client):
    match = play_online_match()
    pages = {
        "match list": admin_client.get(reverse("admin:scoring_match_changelist")),
        "match": admin_client.get(reverse("admin:scoring_match_change", args=[match.pk])),
        "replay": admin_client.get(reverse("admin:scoring_match_replay", args=[match.pk, 1])),
        "statistics": admin_client.get(reverse("admin:scoring_player_statistics")),
    }
    for name, response in pages.items():
        try:
            assert_keeps_the_policy(response)
        except AssertionError as failure:
            raise AssertionError(f"{name}: {failure}") from failure


# --- in Chromium --------------------------------------------------------------------------

# Installed before any of the page's own scripts: every violation the browser reports, and
# every time htmx was refused an eval (htmx.config.allowEval is off: templates/base.html).
WATCH = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.violations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber}`);
});
window.evalRefused = [];
document.addEventListener("htmx:evalDisallowedError", (event) => {
  window.evalRefused.push(event.target.outerHTML.slice(0, 200));
});
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """daphne serving the app, HTTP and websockets, on a SQLite file of its own (as the
    browser tests' asgi_server, without the connection they read its database through)."""
    folder = tmp_path_factory.mktemp("csp-server")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}", "DEBUG": "1"}
    env.pop("REDIS_URL", None)
    manage = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(manage, cwd=settings.BASE_DIR, env=env, check=True)
    port = free_port()
    with (folder / "daphne.log").open("w") as log:
        daphne = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            + ["config.asgi:application"],
            cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while daphne.poll() is None and time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)  # polling a port: there is nothing to wait on instead
        else:
            pytest.fail(f"daphne did not start:\n{(folder / 'daphne.log').read_text()}")
        yield url
    finally:
        stop(daphne)


@pytest.fixture
def page(browser, server):
    context = browser.new_context(base_url=server)
    context.add_init_script(WATCH)
    yield context.new_page()
    context.close()


ADD_INLINE_SCRIPT = """() => {
  const script = document.createElement("script");
  script.textContent = "window.inlineRan = true";
  document.head.append(script);
}"""


def assert_an_inline_script_is_blocked(page) -> None:
    """The policy is in force on this page: an inline script added now does not run, and
    the browser reports it (so the watch above sees what it would block)."""
    page.evaluate(ADD_INLINE_SCRIPT)
    page.wait_for_function("window.violations.length > 0")  # reported after the fact
    assert page.evaluate("window.violations.splice(0)")[0].startswith("script-src")
    assert page.evaluate("window.inlineRan") is None


@pytest.mark.browser
def test_the_table_and_the_score_sheet_run_in_chromium_without_a_violation(page):
    from playwright.sync_api import expect

    page.goto("/t/new/")
    page.get_by_label("Your name", exact=True).fill("Ana")
    page.get_by_label("Seats", exact=True).select_option("2")
    page.get_by_role("button", name="Open the table").click()
    page.get_by_role("button", name="Add a greedy bot").click()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".tile--hand").first).to_be_visible()  # drawn by the live socket
    assert page.evaluate("window.violations") == []
    assert_an_inline_script_is_blocked(page)

    page.goto("/s/new/")
    for number, name in enumerate(["Ana", "Ben"], start=1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_role("button", name="Start the score sheet").click()  # the creator is Ana
    expect(page.get_by_text("You are Ana")).to_be_visible()
    expect(page.locator("#live")).to_have_attribute("data-connection", "open")
    assert page.evaluate("window.violations") == []
    assert_an_inline_script_is_blocked(page)


@pytest.mark.browser
@pytest.mark.parametrize("path", ["/t/new/", "/s/new/"])
def test_the_new_table_and_score_sheet_forms_need_no_eval(page, path):
    """Their rules are redrawn when the preset changes: an hx-trigger [filter] would need
    eval, and with eval refused htmx would let every change redraw them, losing what was
    typed ("change from:#id_preset" needs none)."""
    page.goto(path)
    assert page.evaluate("window.violations") == []
    assert page.evaluate("window.evalRefused") == []
