"""The home page in a real browser on a small phone."""

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


def test_home_page_fits_a_360px_phone(live_server, page):
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Mexican Train dominoes, with friends"
    assert page.locator(".card h2").all_inner_texts() == [
        "Play online",
        "Score sheet for real tiles",
        "Crews: the same friends, every game night",
    ]
    # Nothing may push the page sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The stylesheet and the vendored htmx loaded.
    assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith("system-ui")
    assert page.evaluate("typeof window.htmx") == "object"
