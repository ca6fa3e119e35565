"""Only staff reach the review: every admin page and custom view answers a staff client,
sends an anonymous visitor and a logged-in non-staff member to the login page, and refuses
(403) a staff account that was granted no permission."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import review
from games.models import Move, Table
from scoring.models import Entry, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages(online_match, sheet_match) -> list[str]:
    """Every admin page of the review, for a finished online match and a finished sheet."""
    table = review.table_of(online_match)
    entry = Entry.objects.filter(round__match=sheet_match).first()
    return [
        reverse("admin:scoring_match_changelist"),
        reverse("admin:scoring_match_change", args=[online_match.pk]),
        reverse("admin:scoring_match_change", args=[sheet_match.pk]),
        reverse("admin:scoring_match_replay", args=[online_match.pk, 1]),
        reverse("admin:scoring_match_replay", args=[online_match.pk, 2]) + "?step=3&frame=1",
        reverse("admin:scoring_match_export", args=[online_match.pk]),
        reverse("admin:scoring_match_import"),
        reverse("admin:scoring_player_changelist"),
        reverse("admin:scoring_player_statistics"),
        reverse("admin:scoring_entry_changelist"),
        reverse("admin:scoring_entry_change", args=[entry.pk]),
        reverse("admin:games_table_changelist"),
        reverse("admin:games_table_change", args=[table.pk]),
    ]


def test_staff_reach_every_page(admin_client, pages):
    for url in pages:
        assert admin_client.get(url).status_code == 200, url


@pytest.mark.parametrize("visitor", ["client", "member_client"])
def test_anonymous_visitors_and_members_are_sent_to_the_login_page(request, visitor, pages):
    browser = request.getfixturevalue(visitor)
    for url in pages:
        response = browser.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("admin:login")), url
        assert b"jsonl" not in response.content and b"data-hand" not in response.content


def test_staff_without_permissions_are_refused_every_review_view(bare_staff_client, pages):
    for url in pages:
        assert bare_staff_client.get(url).status_code == 403, url


@pytest.mark.parametrize("visitor", ["client", "member_client", "bare_staff_client"])
def test_only_staff_with_the_right_can_import_a_record(request, visitor, online_match):
    browser = request.getfixturevalue(visitor)
    text = review.export_record(online_match)
    counts = (Match.objects.count(), Table.objects.count(), Move.objects.count())
    upload = SimpleUploadedFile("match.jsonl", text.encode())
    response = browser.post(reverse("admin:scoring_match_import"), {"record": upload})
    assert response.status_code in (302, 403)
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("admin:login"))
    assert (Match.objects.count(), Table.objects.count(), Move.objects.count()) == counts
