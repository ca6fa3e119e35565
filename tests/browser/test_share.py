"""The invite's Share button in Chromium. Headless Chromium has no share sheet, so the
button copies the table's link and says "Copied"; a phone's share sheet, where there is
one, is handed the same link instead (a stand-in for navigator.share records what the
page hands it: the one part of that path the page decides)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_invite_copies_the_tables_link_or_hands_it_to_the_share_sheet(asgi_server, phone):
    device = phone()
    device.grant_permissions(["clipboard-read", "clipboard-write"], origin=asgi_server.url)
    ana = device.new_page()
    ana.goto(f"{asgi_server.url}/t/new/")
    ana.get_by_label("Your name", exact=True).fill("Ana")
    ana.get_by_role("button", name="Open the table").click()
    invite = ana.locator(".invite")
    expect(invite).to_contain_text(ana.url)  # the link, printed under its QR code

    invite.get_by_role("button", name="Copy the link").click()
    expect(invite.get_by_role("status")).to_have_text("Copied")
    assert ana.evaluate("navigator.clipboard.readText()") == ana.url

    sharing = device.new_page()
    sharing.add_init_script(
        "navigator.share = function (data) { window.shared = data; return Promise.resolve() }"
    )
    sharing.goto(ana.url)
    sharing.locator(".invite").get_by_role("button", name="Share the link").click()
    assert sharing.evaluate("window.shared.url") == ana.url
    expect(sharing.locator(".invite").get_by_role("status")).to_have_text("")  # nothing copied
