"""The sheet's services: what is entered, what is derived, history, undo, stale and repeated
edits, and the refusals that keep an implausible entry off the sheet."""

import re
import uuid

import pytest

from games.engine.rules import Rules
from scoring import live, services
from scoring.entries import BLANK, OUT, EntryValue, Refused
from scoring.models import Change, Entry, Match

from .conftest import enter, enter_seed_rounds


def totals(match: Match) -> tuple[int, ...]:
    return services.compute_sheet(match).totals


def row_scores(match: Match, number: int) -> list[int | None]:
    return [cell.score for cell in services.compute_sheet(match).rows[number - 1].cells]


# -- the seeds' worked examples ----------------------------------------------------------


def test_the_worked_round_gives_13_20_23(seed_match):
    enter(seed_match, 1, 0, [(4, 1), (6, 6), (3, 0)])
    enter(seed_match, 1, 1, [(12, 11)])
    enter(seed_match, 1, 2, None)
    enter(seed_match, 1, 3, [(2, 2), (5, 4)])
    assert row_scores(seed_match, 1) == [20, 23, 0, 13]


def test_four_rounds_total_69_72_82_57_and_dev_leads(seed_match):
    enter_seed_rounds(seed_match)
    sheet = services.compute_sheet(seed_match)
    assert sheet.totals == (69, 72, 82, 57)
    assert [cell.running for cell in sheet.rows[1].cells] == [51, 38, 27, 21]
    assert sheet.leaders == (3,)
    assert sheet.winners == ()  # nine rounds still to play
    assert sheet.rounds_scored == 4
    assert seed_match.status == Match.Status.IN_PROGRESS


def test_a_hand_of_6_4_3_3_5_0_scores_21_or_71_with_a_50_penalty(seed_match):
    enter(seed_match, 1, 0, [(6, 4), (3, 3), (5, 0)])
    assert row_scores(seed_match, 1)[0] == 21
    services.change_setting(seed_match, "double_penalty", 50, was=0, by="Ana")
    assert row_scores(seed_match, 1)[0] == 71


# -- house rules recompute everything ----------------------------------------------------


@pytest.fixture
def ruled_match(db) -> Match:
    """Two rounds with a double-blank, doubles and a player out in each.

    Round 1: A holds 0-0, 3-3, 6-4 (16 pips, 2 doubles, the double-blank); B out; C 7 pips.
    Round 2: A 10 pips; B 20 pips with one double; C out. Totals by default: 26, 20, 7."""
    match = services.create_match(["A", "B", "C"], Rules(), by="Ana")
    enter(match, 1, 0, [(0, 0), (3, 3), (4, 6)])
    enter(match, 1, 1, None)
    enter(match, 1, 2, 7)
    enter(match, 2, 0, 10)
    services.record_entry(
        match, 2, 1, EntryValue.count(20, 1), base_version=0, client_id=None, by="Ana"
    )
    enter(match, 2, 2, None)
    return match


@pytest.mark.parametrize(
    ("setting", "value", "was", "expected"),
    [
        ("double_blank_value", 50, 0, (76, 20, 7)),
        ("double_penalty", 25, 0, (76, 45, 7)),
        ("out_score", -10, 0, (26, 10, -3)),
        ("rounds", 1, 13, (16, 0, 7)),
        ("blank_value", 25, 0, (76, 20, 7)),  # the 0-0's two blank halves: 50
        ("out_on_double", 50, 0, (26, 20, 7)),  # nobody went out on a double
        ("round_engines", "from_highest", "to_blank", (26, 20, 7)),
        ("tie_break", "rounds_out", "share", (26, 20, 7)),
    ],
)
def test_each_house_rule_recomputes_the_totals_and_is_recorded(
    ruled_match, setting, value, was, expected
):
    assert totals(ruled_match) == (26, 20, 7)
    change = services.change_setting(ruled_match, setting, value, was=was, by="Ben")
    assert totals(ruled_match) == expected
    assert (change.setting, change.old, change.new, change.by) == (setting, was, value, "Ben")
    # Nothing entered changed: only the derived scores did.
    assert Entry.objects.filter(round__match=ruled_match).count() == 6
    undo = services.undo(ruled_match, change.pk, by="Ben")
    assert (undo.undoes, undo.new) == (change, was)
    assert totals(ruled_match) == (26, 20, 7)


def test_fewer_rounds_keep_the_later_ones_uncounted_and_relabel_the_doubles(ruled_match):
    services.change_setting(ruled_match, "rounds", 1, was=13, by="Ana")
    sheet = services.compute_sheet(ruled_match)
    assert [(row.number, row.double, row.counted) for row in sheet.rows] == [
        (1, 0, True),
        (2, None, False),
    ]
    assert [cell.value.kind for cell in sheet.rows[1].cells] == ["count", "count", OUT]
    assert sheet.finished and sheet.winners == (1,)
    assert ruled_match.status == Match.Status.FINISHED
    services.change_setting(ruled_match, "rounds", 13, was=1, by="Ana")
    assert ruled_match.get_rules().rounds is None  # one round per double: the default
    assert services.compute_sheet(ruled_match).rows[1].double == 11
    assert ruled_match.status == Match.Status.IN_PROGRESS


def test_a_setting_someone_just_changed_is_not_overwritten(ruled_match):
    services.change_setting(ruled_match, "double_penalty", 25, was=0, by="Ana")
    with pytest.raises(Refused, match="Ana set “Penalty per unplayed double: 25”"):
        services.change_setting(ruled_match, "double_penalty", 50, was=0, by="Ben")
    # A different rule, changed from a page that had not caught up yet, still applies.
    services.change_setting(ruled_match, "out_score", -10, was=0, by="Ben")
    rules = Match.objects.get(pk=ruled_match.pk).get_rules()
    assert (rules.double_penalty, rules.out_score) == (25, -10)


@pytest.mark.parametrize(
    ("setting", "value", "was", "message"),
    [
        ("double_penalty", 7, 0, "0 to 100 in steps of 5, not 7"),
        ("rounds", 14, 13, "a double-12 set plays 1 to 13 rounds, not 14"),
        ("highest_double", 9, 12, "Only the house rules can be changed"),
        ("out_score", -10, -10, "It changed while you were choosing"),
    ],
)
def test_an_impossible_setting_is_refused_and_changes_nothing(
    ruled_match, setting, value, was, message
):
    before = Match.objects.get(pk=ruled_match.pk).rules
    with pytest.raises(Refused, match=message):
        services.change_setting(ruled_match, setting, value, was=was, by="Ana")
    assert Match.objects.get(pk=ruled_match.pk).rules == before
    assert not ruled_match.changes.filter(kind=Change.Kind.SETTING).exists()


# -- stale and repeated edits -------------------------------------------------------------


def test_a_stale_edit_is_not_applied_and_reports_the_other_value(seed_match):
    first = enter(seed_match, 2, 1, 15, by="Ben", base_version=0)
    stale = enter(seed_match, 2, 1, 13, by="Ana", base_version=0)
    assert (first.status, stale.status) == (services.APPLIED, services.STALE)
    assert (stale.entry.value, stale.entry.entered_by) == (EntryValue.count(15), "Ben")
    assert stale.attempted == EntryValue.count(13)
    entry = Entry.objects.get(round__number=2, seat__position=1)
    assert (entry.pips, entry.version) == (15, 1)
    assert entry.history.count() == 1
    based_on_it = enter(seed_match, 2, 1, 13, by="Ana", base_version=1)
    assert based_on_it.status == services.APPLIED


def test_a_retried_edit_is_applied_once(seed_match):
    client_id = uuid.uuid4()

    def send(pips, by):
        return services.record_entry(
            seed_match, 1, 0, EntryValue.count(pips), base_version=0, client_id=client_id, by=by
        )

    assert send(20, "Ana").status == services.APPLIED
    enter(seed_match, 1, 0, 25, by="Ben", base_version=1)  # somebody corrects it meanwhile
    retry = send(20, "Ana")  # the first send's answer was lost; the phone sends again
    assert retry.status == services.DUPLICATE
    entry = Entry.objects.get(round__number=1, seat__position=0)
    assert (entry.pips, entry.version, entry.history.count()) == (25, 2, 2)


def test_the_same_client_id_in_two_matches_records_both_edits(seed_match):
    """A client id makes a retry apply once within its match: the same id arriving at
    another match (another phone's id, a copied outbox) is a new edit there, not a retry."""
    other = services.create_match(["Eve", "Finn"], Rules(), by="Eve")
    client_id = uuid.uuid4()
    outcomes = [
        services.record_entry(
            match, 1, 0, EntryValue.count(pips), base_version=0, client_id=client_id, by="Ana"
        )
        for match, pips in ((seed_match, 20), (other, 7))
    ]
    assert [o.status for o in outcomes] == [services.APPLIED, services.APPLIED]
    assert Entry.objects.get(round__match=other, seat__position=0).pips == 7
    assert Change.objects.filter(client_id=client_id).count() == 2
    retry = services.record_entry(
        other, 1, 0, EntryValue.count(7), base_version=0, client_id=client_id, by="Ana"
    )
    assert retry.status == services.DUPLICATE  # within one match it is still a retry


def test_a_change_is_announced_after_commit_and_a_refusal_never(
    seed_match, django_capture_on_commit_callbacks, monkeypatch
):
    announced = []
    monkeypatch.setattr(live, "announce", lambda match_id, parts: announced.append(parts))
    with django_capture_on_commit_callbacks(execute=True):
        enter(seed_match, 1, 0, 10)
        with pytest.raises(Refused):
            enter(seed_match, 1, 1, -1)
    assert announced == [(live.SHEET,)]


# -- what is entered: blank is not 0, and history keeps everything -------------------------


def test_blank_differs_from_zero_and_clearing_keeps_the_history(seed_match):
    enter(seed_match, 1, 0, 0)
    sheet = services.compute_sheet(seed_match)
    assert [cell.score for cell in sheet.rows[0].cells] == [0, None, None, None]
    services.record_entry(
        seed_match, 1, 0, EntryValue(BLANK), base_version=1, client_id=None, by="Ben"
    )
    cell = services.compute_sheet(seed_match).rows[0].cells[0]
    assert (cell.value.is_blank, cell.score, cell.version) == (True, None, 2)
    history = services.cell_history(seed_match, 1, 0)
    assert [change.describe() for change in history] == [
        "Round 1, Alice: 0 pips → blank",
        "Round 1, Alice: blank → 0 pips",
    ]
    assert [change.by for change in history] == ["Ben", "Ana"]


def test_undo_walks_back_a_persons_own_changes_one_at_a_time(seed_match):
    enter(seed_match, 1, 0, 10, by="Dev")
    services.change_setting(seed_match, "double_blank_value", 50, was=0, by="Dev")
    enter(seed_match, 1, 1, 5, by="Cara")
    enter(seed_match, 1, 3, 7, by="Dev")
    last = services.last_undoable(seed_match, by="Dev")
    assert last.describe() == "Round 1, Dev: blank → 7 pips"
    services.undo(seed_match, last.pk, by="Dev")
    setting = services.last_undoable(seed_match, by="Dev")
    assert setting.describe() == "Double-blank is worth 50"
    with pytest.raises(Refused, match="was undone already by Dev"):
        services.undo(seed_match, last.pk, by="Dev")  # a second tap on an old button
    services.undo(seed_match, setting.pk, by="Dev")
    services.undo(seed_match, services.last_undoable(seed_match, by="Dev").pk, by="Dev")
    assert services.last_undoable(seed_match, by="Dev") is None
    with pytest.raises(Refused, match="nothing to undo"):
        services.undo(seed_match, 0, by="Dev")
    assert row_scores(seed_match, 1) == [None, 5, None, None]  # Cara's count stands
    assert Match.objects.get(pk=seed_match.pk).get_rules().double_blank_value == 0
    assert seed_match.changes.count() == 7  # four changes and three undos: nothing lost


def test_taking_back_somebody_elses_count_asks_first_and_names_whose_it_is(seed_match):
    """Issue 36: one tap on another phone wiped Carl's count. Without the confirmation the
    service refuses, with the question, and changes nothing."""
    carls = enter(seed_match, 1, 2, 23, by="Cara")
    change = services.last_undoable(seed_match)
    assert services.last_undoable(seed_match, by="Ana") is None  # Ana has nothing of hers
    with pytest.raises(services.AskFirst) as asked:
        services.undo(seed_match, change.pk, by="Ana")
    assert str(asked.value) == "Take back Cara's count of 23 pips in round 1?"
    assert asked.value.change == change
    assert row_scores(seed_match, 1)[2] == 23
    assert seed_match.changes.count() == 1
    undo = services.undo(seed_match, change.pk, by="Ana", confirmed=True)
    assert (undo.undoes, undo.by, undo.new) == (change, "Ana", {"kind": "blank"})
    assert row_scores(seed_match, 1)[2] is None
    assert carls.entry.pk == undo.entry.pk


@pytest.mark.parametrize(
    ("first", "then", "by", "question"),
    [
        (None, 23, "Ana", "Take back Cara's count of 23 pips in round 1? Ana entered it."),
        (None, None, "Cara", "Take back Cara's “went out” in round 1?"),
        (
            23,
            "blank",
            "Cara",
            "Take back the clearing of Cara's count in round 1 (it was 23 pips)?",
        ),
    ],
)
def test_the_question_says_what_is_taken_back(seed_match, first, then, by, question):
    if first is not None:
        enter(seed_match, 1, 2, first, by="Cara")
    base = 1 if first is not None else 0
    value = EntryValue(BLANK) if then == "blank" else None
    if value is None:
        enter(seed_match, 1, 2, then, by=by, base_version=base)
    else:
        services.record_entry(seed_match, 1, 2, value, base_version=base, client_id=None, by=by)
    with pytest.raises(services.AskFirst, match=re.escape(question)):
        services.undo(seed_match, services.last_undoable(seed_match).pk, by="Dev")


def test_a_keeper_undoes_every_count_they_entered_in_one_tap(seed_match):
    """A sheet kept by one phone for the whole table: what the keeper entered is theirs,
    whoever's column it is in."""
    for seat, pips in enumerate((20, 23, 0, 13)):
        enter(seed_match, 1, seat, pips, by="Zoe")
    for _ in range(4):
        services.undo(seed_match, services.last_undoable(seed_match, by="Zoe").pk, by="Zoe")
    assert row_scores(seed_match, 1) == [None, None, None, None]


def test_an_undo_never_takes_back_a_count_somebody_changed_since(seed_match):
    """Ana's own last entry is in Cara's cell, and Cara has corrected it since: Ana's Undo
    skips it (it no longer stands), and an old button for it is refused."""
    enter(seed_match, 1, 0, 10, by="Ana")
    mine = enter(seed_match, 1, 2, 23, by="Ana")
    enter(seed_match, 1, 2, 25, by="Cara", base_version=1)
    ana_last = services.last_undoable(seed_match, by="Ana")
    assert ana_last.describe() == "Round 1, Alice: blank → 10 pips"
    old_button = seed_match.changes.get(entry=mine.entry, by="Ana")
    with pytest.raises(Refused, match="Cara changed it since .“Round 1, Cara: 23 pips → 25"):
        services.undo(seed_match, old_button.pk, by="Ana", confirmed=True)
    assert row_scores(seed_match, 1) == [10, None, 25, None]


# -- implausible entries are refused with a sentence --------------------------------------


@pytest.mark.parametrize(
    ("round_number", "entered", "message"),
    [
        (1, EntryValue.count(1069), "1069 pips is more than a hand from a double-12 set can"),
        (1, EntryValue.count(937), "with 0 doubles \\(at most 936\\)"),
        (1, EntryValue.count(4, 2), "2 doubles carry at least 6 pips, more than 4"),
        (1, EntryValue.count(200, 13), "holds at most 12 doubles this round"),
        (1, EntryValue.count(200, 12), "12 doubles means the double-blank is one of them"),
        (13, EntryValue.count(50, 1, True), "double-blank is in the middle of the table"),
        (1, EntryValue.held([(12, 12)]), "The 12-12 is in the middle of the table"),
        (1, EntryValue.held([(13, 2)]), "13-2 is not in a double-12 set"),
        (14, EntryValue(OUT), "This match plays 13 rounds, so there is no round 14"),
    ],
)
def test_an_implausible_entry_is_refused_and_nothing_changes(
    seed_match, round_number, entered, message
):
    with pytest.raises(Refused, match=message):
        services.record_entry(
            seed_match, round_number, 0, entered, base_version=0, client_id=None, by="Ana"
        )
    assert not Entry.objects.exists()
    assert not Change.objects.exists()


def test_two_players_out_or_one_tile_in_two_hands_is_refused(seed_match):
    enter(seed_match, 1, 2, None)
    with pytest.raises(Refused, match="Cara already went out in round 1"):
        enter(seed_match, 1, 0, None)
    enter(seed_match, 1, 1, [(6, 6), (1, 2)])
    with pytest.raises(Refused, match="Ben already holds the 6-6 in this round"):
        enter(seed_match, 1, 3, [(3, 4), (6, 6)])
    assert Entry.objects.count() == 2


def test_a_hand_of_most_pips_possible_is_accepted(seed_match):
    outcome = services.record_entry(
        seed_match, 1, 0, EntryValue.count(1068, 12, True), base_version=0, client_id=None, by="A"
    )
    assert outcome.status == services.APPLIED


# -- creating a match, and a round from an online table -----------------------------------


def test_a_match_seats_its_players_in_order_and_reuses_remembered_ones(db):
    first = services.create_match(["Ana", "Ben"], Rules(), by="Ana")
    ana = first.seats.get(position=0).player
    second = services.create_match(["Cy", "ana"], Rules(), known=[ana])
    assert [seat.player for seat in second.seats.all()][1] == ana
    assert [seat.player.name for seat in second.seats.all()] == ["Cy", "Ana"]
    assert second.kind == Match.Kind.SHEET and second.code != second.viewer_code
    third = services.create_match(["\u0410na", "Dee\u200b"], Rules(), known=[ana])
    assert third.seats.get(position=0).player == ana  # Cyrillic А: it reads as Ana
    assert third.seats.get(position=1).player.name == "Dee"  # shown without the invisible


@pytest.mark.parametrize(
    ("names", "rules", "message"),
    [
        (["Ana"], Rules(), "A match has 2 to 10 players, not 1"),
        (["Ana", "ANA "], Rules(), "Ana is named twice"),
        (["Ana", "A\u200bna"], Rules(), "Ana is named twice"),  # a zero-width space inside
        (["Ana", "\u0410na"], Rules(), "Ana is named twice"),  # a Cyrillic capital A
        (["Ana", "\uff21\uff4e\uff41"], Rules(), "Ana is named twice"),  # full width
        (["\u200b\u200b", "Ben"], Rules(), "Type a name with letters or digits in it"),
        ([str(n) for n in range(10)], Rules(highest_double=6), "10 hands of 3 need 30 tiles"),
    ],
)
def test_a_match_that_cannot_be_played_is_refused(db, names, rules, message):
    with pytest.raises(Refused, match=message):
        services.create_match(names, rules)
    assert not Match.objects.exists()


def test_an_online_table_records_a_whole_round_with_the_tiles_held(db):
    match = services.create_match(["Ann", "Bot", "Cy"], Rules(), kind=Match.Kind.ONLINE)
    services.record_round(match, 1, {0: [(0, 0), (5, 6)], 1: None, 2: [(12, 11)]}, by="table")
    assert row_scores(match, 1) == [11, 0, 23]
    services.change_setting(match, "double_blank_value", 50, was=0, by="Ann")
    assert row_scores(match, 1) == [61, 0, 23]
    assert {e.entered_by for e in Entry.objects.all()} == {"table"}
    with pytest.raises(Refused, match="needs an entry for every seat"):
        services.record_round(match, 2, {0: None}, by="table")
    with pytest.raises(Refused, match="Ann already went out in round 2"):
        services.record_round(match, 2, {0: None, 1: None, 2: [(1, 1)]}, by="table")
    assert not match.rounds.filter(number=2).exists()


def test_ties_after_the_last_round_share_the_win(db):
    match = services.create_match(["Ann", "Bo", "Cy"], Rules(rounds=1), by="Ann")
    enter(match, 1, 0, 5)
    enter(match, 1, 1, 5)
    enter(match, 1, 2, 9)
    sheet = services.compute_sheet(match)
    assert (sheet.finished, sheet.winners) == (True, (0, 1))
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


# -- the scoring house rules from other tables -------------------------------------------


def test_blank_halves_typed_with_a_count_score_under_blank_value(seed_match):
    services.record_entry(
        seed_match, 1, 0, EntryValue.count(11, blanks=2), base_version=0, client_id=None, by="Ana"
    )
    enter(seed_match, 1, 1, [(6, 0), (5, 4)])
    assert row_scores(seed_match, 1)[:2] == [11, 15]
    services.change_setting(seed_match, "blank_value", 25, was=0, by="Ana")
    assert row_scores(seed_match, 1)[:2] == [61, 40]  # the 6-0 picked counts 31
    assert str(Entry.objects.get(round__number=1, seat__position=0).value) == (
        "11 pips (2 blank halves)"
    )


def test_going_out_on_a_double_adds_out_on_double_when_it_is_set(seed_match):
    services.record_entry(
        seed_match, 1, 0, EntryValue.out(on_double=True), base_version=0, client_id=None, by="Ana"
    )
    enter(seed_match, 1, 1, 9)
    assert row_scores(seed_match, 1)[:2] == [0, 9]
    services.change_setting(seed_match, "out_on_double", -50, was=0, by="Ana")
    assert row_scores(seed_match, 1)[:2] == [-50, 9]
    change = Change.objects.filter(kind=Change.Kind.ENTRY).first()
    assert change.new == {"kind": OUT, "on_double": True}
    assert change.describe().endswith("blank → went out on a double")


def test_a_table_records_who_went_out_on_a_double(db):
    rules = Rules(out_on_double=25)
    match = services.create_match(["Ann", "Bo"], rules, kind=Match.Kind.ONLINE)
    services.record_round(match, 1, {0: None, 1: [(5, 6)]}, by="table", on_double={0})
    assert row_scores(match, 1) == [25, 11]


def test_rounds_out_breaks_a_tie_on_the_sheet(db):
    """Ann and Bo tie on 3; Ann went out in round 1, Bo counted 0 in round 2 (not out)."""
    match = services.create_match(["Ann", "Bo", "Cy"], Rules(rounds=2), by="Ann")
    for number, row in ((1, [None, 3, 9]), (2, [3, 0, None])):
        for seat, entered in enumerate(row):
            enter(match, number, seat, entered)
    sheet = services.compute_sheet(match)
    assert (sheet.totals, sheet.winners) == ((3, 3, 9), (0, 1))
    services.change_setting(match, "tie_break", "rounds_out", was="share", by="Ann")
    assert services.compute_sheet(match).winners == (0,)


def test_old_history_reads_the_same_without_the_new_fields():
    assert EntryValue.from_json({"kind": OUT}) == EntryValue.out()
    count = {"kind": "count", "pips": 3, "doubles": 0, "double_blank": False}
    assert EntryValue.from_json(count).to_json() == count


def test_several_players_out_in_a_round_only_under_everyone_first_turn(seed_match):
    """At most one player goes out in a round (the services refuse a second), unless
    everyone has a first turn before a round can end: then each scores the out score."""
    enter(seed_match, 1, 0, None)
    with pytest.raises(Refused, match="only one player goes out in a round"):
        enter(seed_match, 1, 1, None)
    services.change_setting(seed_match, "everyone_first_turn", True, was=False, by="Ana")
    services.change_setting(seed_match, "out_score", -10, was=0, by="Ana")
    enter(seed_match, 1, 1, None)
    enter(seed_match, 1, 2, 9)
    assert row_scores(seed_match, 1)[:3] == [-10, -10, 9]
    with pytest.raises(Refused, match="Round 1 has more than one player out"):
        services.change_setting(seed_match, "everyone_first_turn", False, was=True, by="Ana")
