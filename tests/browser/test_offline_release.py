"""A score sheet reloaded with no signal, as a release serves it: daphne with DEBUG=0, the
static files collected and named by their hashes, whitenoise serving them. The service
worker must install there, keep the sheet, and show it again offline (the front page
promises that the sheet keeps working when the wifi drops)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import serve_release

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Iterator[str]:
    """The address of daphne serving a release, on a SQLite file of its own."""
    with serve_release(tmp_path_factory.mktemp("offline-release")) as url:
        yield url


def test_a_sheet_reloaded_offline_shows_the_sheet(phone, release):
    context = phone()
    page = context.new_page()
    page.goto(f"{release}/s/new/")
    for number, name in enumerate(["Ana", "Ben"], start=1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_role("button", name="Start the score sheet").click()
    expect(page.get_by_text("You are Ana")).to_be_visible()
    expect(page.locator("#live")).to_have_attribute("data-connection", "open")  # the socket
    # The worker has installed, taken the page and kept a copy of it (sheet.js marks it).
    expect(page.locator("#live")).to_have_attribute("data-offline", "ready")

    context.set_offline(True)
    reloaded = page.reload()
    assert reloaded is not None and reloaded.from_service_worker
    expect(page.get_by_role("heading", name="Score sheet")).to_be_visible()
    expect(page.get_by_text("You are Ana")).to_be_visible()
    expect(page.locator("#sheet")).to_contain_text("Ben")
    # Styled from the worker's cache: the stylesheet's hashed URL was kept and answered.
    assert page.evaluate("document.styleSheets[0].cssRules.length") > 0
