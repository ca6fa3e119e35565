"""The database itself refuses what the services refuse: rows written past every form and
service (as a bug or a hand-written script would) still cannot break the sheet."""

import uuid

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from scoring.models import Change, Entry, Match, Player, Round, Seat


@pytest.fixture
def round_one(seed_match) -> Round:
    return Round.objects.create(match=seed_match, number=1)


def seat(match: Match, position: int) -> Seat:
    return match.seats.get(position=position)


def refused(**fields) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(**fields)


def test_one_entry_per_seat_and_round(round_one):
    Entry.objects.create(round=round_one, seat=seat(round_one.match, 0), kind="count", pips=3)
    refused(round=round_one, seat=seat(round_one.match, 0), kind="count", pips=5)


def test_pips_are_never_negative(round_one):
    refused(round=round_one, seat=seat(round_one.match, 0), kind="count", pips=-1)


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "count"},  # a count without pips
        {"kind": "out", "pips": 4},  # went out, yet holding pips
        {"kind": "tiles", "pips": 4, "tiles": [[1, 3]]},  # tiles carry their own pips
        {"kind": "blank", "tiles": [[1, 3]]},
        {"kind": "count", "pips": 0, "double_blank": True},  # the 0-0 is a double
        {"kind": "guess", "pips": 3},
    ],
)
def test_an_entry_holds_only_what_its_kind_means(round_one, fields):
    refused(round=round_one, seat=seat(round_one.match, 0), **fields)


def test_round_numbers_and_seats_are_unique_and_in_range(seed_match, round_one):
    for make in (
        lambda: Round.objects.create(match=seed_match, number=1),
        lambda: Round.objects.create(match=seed_match, number=0),
        lambda: Seat.objects.create(
            match=seed_match, player=Player.objects.create(name="X"), position=0
        ),
        lambda: Seat.objects.create(
            match=seed_match, player=seat(seed_match, 1).player, position=7
        ),
        lambda: Seat.objects.create(
            match=seed_match, player=Player.objects.create(name="Y"), position=10
        ),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            make()


def test_kind_and_status_are_known_values(seed_match):
    for field, value in (("kind", "tournament"), ("status", "abandoned")):
        with pytest.raises(IntegrityError), transaction.atomic():
            Match.objects.filter(pk=seed_match.pk).update(**{field: value})


def test_a_change_names_what_it_changed(seed_match):
    with pytest.raises(IntegrityError), transaction.atomic():
        Change.objects.create(match=seed_match, kind="setting", by="Ana", new=50)  # which one?
    with pytest.raises(IntegrityError), transaction.atomic():
        Change.objects.create(match=seed_match, kind="entry", by="Ana")  # which entry?


def test_a_client_id_is_unique_within_its_match_only(seed_match):
    other = Match.objects.create()
    client_id = uuid.uuid4()
    for match in (seed_match, other):
        Change.objects.create(
            match=match, kind="setting", setting="rounds", by="Ana", client_id=client_id
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Change.objects.create(
            match=other, kind="setting", setting="rounds", by="Ana", client_id=client_id
        )
    for _ in range(2):  # an edit without a client id (undo, a table's round) is never a retry
        Change.objects.create(match=other, kind="setting", setting="rounds", by="Ana")


def test_stored_rules_must_load_as_the_engines_rules(seed_match):
    seed_match.rules = {**seed_match.rules, "double_penalty": 7}
    with pytest.raises(ValidationError, match="double_penalty: 0 to 100 in steps of 5"):
        seed_match.full_clean()
    seed_match.rules = {"house_rule": 1}
    with pytest.raises(ValidationError, match="house_rule: is not a setting"):
        seed_match.full_clean()
