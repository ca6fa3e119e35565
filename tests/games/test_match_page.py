"""The match's page: once the match is over, anybody with the table's link replays it
move by move, every hand shown, and takes its record; before, it does not open."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import coach, services
from games.engine import replay
from games.engine.records import loads
from games.models import Table
from games.review import export_record
from tests.games.test_deal import open_table, play_to_the_end

pytestmark = pytest.mark.django_db


def test_the_match_page_opens_once_the_match_is_over(client):
    table = open_table(client)
    client.post(reverse("games:join", args=[table.code]), {"name": "Ben"})
    services.add_bot(table.code, host_token=table.host_token, level="greedy")
    services.start(table.code, host_token=table.host_token)
    assert client.get(reverse("games:match", args=[table.code, 1])).status_code == 404
    assert client.get(reverse("games:match-record", args=[table.code])).status_code == 404


def test_a_finished_match_replays_move_by_move_with_every_hand(client):
    table = open_table(client)
    play_to_the_end(table)
    table.refresh_from_db()
    visitor = client.__class__()  # anybody with the link: a spectator
    page = visitor.get(reverse("games:match", args=[table.code, 1]))
    assert page.status_code == 200
    text = page.content.decode()
    states = replay(loads(export_record(table.match)))
    dealt = states[0].round.hands
    for hand in dealt:  # step 0 is the deal: every hand as dealt
        for tile in hand:
            assert f'data-tile="{tile[0]}-{tile[1]}"' in text
    step = visitor.get(reverse("games:match", args=[table.code, 1]), {"step": 1, "frame": 1})
    assert step.status_code == 200 and "Step 1 of" in step.content.decode()
    assert "<html" not in step.content.decode()
    assert visitor.get(reverse("games:match", args=[table.code, 9])).status_code == 404
    record = visitor.get(reverse("games:match-record", args=[table.code]))
    assert record.content.decode() == export_record(table.match)
    assert table.deal_secret in record.content.decode()
    end = visitor.get(reverse("games:table", args=[table.code])).content.decode()
    assert reverse("games:match", args=[table.code, 1]) in end


def test_the_coachs_marks_are_the_viewers_own_and_nobody_elses(client, settings):
    settings.COACH_PLAYOUTS = 4
    settings.COACH_MARK = -1000  # every decision marked
    settings.COACH_IN_PROCESS = True
    table = open_table(client)  # this client holds Ana's seat
    services.join(table.code, name="Ben")
    # A fixed deal (no first turn ends round 1, so every seat decides something in it).
    Table.objects.filter(pk=table.pk).update(deal_secret="", deal_commitment="", seed=1)
    play_to_the_end(table)
    while coach.work():
        pass
    review = table.reviews.get(round_number=1)
    ana = review.decisions.filter(seat=0, marked=True).count()
    others = review.decisions.exclude(seat=0).count()
    assert ana and others
    url = reverse("games:match", args=[table.code, 1])
    mine = client.get(url).content.decode()
    assert mine.count(">Move ") == ana and "The coach's marks" in mine
    assert "you played" in mine
    assert "The coach" not in client.__class__().get(url).content.decode()  # a spectator
