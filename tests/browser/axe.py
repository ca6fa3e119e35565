"""axe-core in the browser tests: the vendored static/vendor/axe.min.js (4.14.1, see
static/vendor/README.md), added to the page by Playwright and run over the whole document.

It is added by its URL, as a static file of the site being tested: the pages' Content-Security-
Policy (script-src 'self') refuses the inline script that Playwright's ``path=`` would write,
and bypassing the policy for the test would hide a page that breaks it."""

from __future__ import annotations

from urllib.parse import urljoin

from django.conf import settings
from playwright.sync_api import Page

AXE = "vendor/axe.min.js"
BLOCKING = ("serious", "critical")


def violations(page: Page) -> list[str]:
    """Every serious or critical violation on the page as it stands, one line each: the
    rule, the impact and the elements it found, so a failing test names what to fix."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(url=urljoin(page.url, settings.STATIC_URL + AXE))
    found = page.evaluate("async () => (await window.axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in found
        if v["impact"] in BLOCKING
    ]


def assert_accessible(page: Page) -> None:
    problems = violations(page)
    assert not problems, f"{page.url}:\n" + "\n".join(problems)
