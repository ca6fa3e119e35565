"""The site's own 404 and 500 pages, as a release serves them (DEBUG=0): in the site's
look, saying in words what happened, with a way to start a table or a score sheet. A link
cut short or mistyped is the common case: a table's, a sheet's or a crew's link whose code
matches nothing, or an address with no page at all."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

WAYS_ON = ('href="/t/new/"', 'href="/s/new/"')


def assert_in_the_sites_look(html: str) -> None:
    assert 'class="topbar"' in html and 'href="/"' in html
    assert 'href="/static/css/app.' in html  # the stylesheet, by its hashed name
    for link in WAYS_ON:
        assert link in html


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("/t/no-such-code/", "No table at this link"),
        ("/s/no-such-code/", "No score sheet at this link"),
        ("/w/no-such-code/", "No score sheet at this link"),
        ("/c/no-such-code/", "No crew at this link"),
        ("/t/", "There is no page at this address"),
    ],
)
def test_a_dead_link_says_what_it_was_for_and_how_to_start_again(production_mode, url, said):
    response = Client().get(url)
    assert response.status_code == 404
    html = response.content.decode()
    assert said in html
    assert_in_the_sites_look(html)


@pytest.mark.urls("tests.production.release.with_a_fault")
def test_a_failing_view_answers_with_the_sites_error_page(production_mode):
    browser = Client(raise_request_exception=False)
    response = browser.get("/fails/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on our side" in html
    assert_in_the_sites_look(html)
