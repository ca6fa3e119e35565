"""The shared score sheet in Chromium: two phones on one sheet, live, and one of them offline.

Each test creates its own match through the pages, against daphne (asgi_server), so the
websocket that keeps phones in step is the real one.
"""

import re

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from scoring.models import Change, Entry, Match

pytestmark = pytest.mark.browser

SCREENSHOT = settings.BASE_DIR / "docs" / "screenshots" / "score-sheet-phone.png"
SEEDS = ["Alice", "Ben", "Cara", "Dev"]


def create_match(page: Page, url: str, names: list[str]) -> str:
    """Create a match with the default rules through the page; returns its join link. The
    phone that created it is the first name typed, and is not asked who it is."""
    page.goto(f"{url}/s/new/")
    for number, name in enumerate(names, start=1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_role("button", name="Start the score sheet").click()
    expect(page.get_by_text(f"You are {names[0]}")).to_be_visible()
    expect(page.locator("#live")).to_have_attribute("data-connection", "open")
    return page.url


def join(page: Page, link: str, name: str) -> None:
    """Open the link and say once who this phone is; wait until the socket is live."""
    page.goto(link)
    page.get_by_role("radio", name=name, exact=True).check()
    page.get_by_role("button", name="That's me").click()
    expect(page.get_by_text(f"You are {name}")).to_be_visible()
    expect(page.locator("#live")).to_have_attribute("data-connection", "open")


def cell(page: Page, round_number: int, seat: int):
    return page.locator(f"#cell-{round_number}-{seat}")


def enter_pips(page: Page, round_number: int, seat: int, pips: int) -> None:
    cell(page, round_number, seat).click()
    editor = page.locator("#editor")
    editor.get_by_label("Pips left in hand").fill(str(pips))
    editor.get_by_role("button", name="Save count").click()
    expect(editor).to_be_hidden()


def went_out(page: Page, round_number: int, seat: int) -> None:
    cell(page, round_number, seat).click()
    page.locator("#editor").get_by_role("button", name="Went out").click()


def pick_tiles(page: Page, round_number: int, seat: int, tiles: list[str]) -> None:
    """Tap the tiles held in the picker, e.g. ``["2-2", "5-4"]`` (high end first)."""
    cell(page, round_number, seat).click()
    editor = page.locator("#editor")
    editor.get_by_text("Or tap the tiles you hold").click()
    for name in tiles:
        editor.get_by_role("button", name=name, exact=True).click()
    editor.get_by_role("button", name="Save tiles").click()


def expect_totals(page: Page, totals: list[int]) -> None:
    expect(page.locator("#sheet tfoot td")).to_have_text([str(t) for t in totals])


def test_two_phones_enter_the_seed_rounds_and_both_follow_live(asgi_server, phone, server_db):
    ana, ben = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, SEEDS)
    join(ben, link, "Ben")

    # The worked round of the seeds, tiles picked on Alice's phone: 20, 23, out, 13.
    pick_tiles(ana, 1, 0, ["4-1", "6-6", "3-0"])
    expect(cell(ben, 1, 0).locator(".score")).to_have_text("20")  # no reload on Ben's phone
    pick_tiles(ben, 1, 1, ["12-11"])
    expect(cell(ana, 1, 1).locator(".score")).to_have_text("23")  # before Alice taps again
    went_out(ana, 1, 2)
    expect(cell(ben, 1, 2).locator(".score")).to_have_text("0")
    pick_tiles(ben, 1, 3, ["2-2", "5-4"])
    for page in (ana, ben):
        expect(page.locator("#sheet tbody tr").first.locator(".score")).to_have_text(
            ["20", "23", "0", "13"]
        )

    # Three more rounds, typed on either phone: totals 69, 72, 82, 57 and Dev leads.
    rounds = [(31, 15, 27, 8), (None, 22, 14, 36), (18, 12, 41, None)]
    for number, row in enumerate(rounds, start=2):
        for seat, pips in enumerate(row):
            page, other = (ana, ben) if seat % 2 == 0 else (ben, ana)
            if pips is None:
                went_out(page, number, seat)
            else:
                enter_pips(page, number, seat, pips)
            # The other phone shows it before anyone taps there: a tap that lands while a
            # live update redraws the sheet is lost, as a person's would be (they tap again).
            expect(cell(other, number, seat).locator(".score")).to_have_text(str(pips or 0))
    for page in (ana, ben):
        expect_totals(page, [69, 72, 82, 57])
        expect(page.locator("#standing")).to_contain_text("After 4 of 13 rounds: Dev leads on 57.")
        expect(page.locator("#outbox")).to_be_hidden()

    code = link.split("/")[-2]
    assert Entry.objects.using(server_db).filter(round__match__code=code).count() == 16
    assert ana.evaluate("document.documentElement.scrollWidth") <= 390
    ana.screenshot(path=SCREENSHOT)


def test_a_settings_change_recalculates_both_phones(asgi_server, phone):
    """The count editor asks about doubles and the double-blank only while the house rules
    give them a value; a rule changed on one phone recalculates both."""
    ana, ben = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben", "Cy"])
    join(ben, link, "Ben")
    editor = ana.locator("#editor")
    doubles = editor.get_by_label("Doubles held")
    double_blank = editor.get_by_label("The double-blank is in the hand")
    cell(ana, 1, 0).click()
    expect(editor.get_by_label("Pips left in hand")).to_be_visible()
    for question in (doubles, double_blank, editor.get_by_label("Blank halves on the other tiles")):
        expect(question).to_be_hidden()
    editor.get_by_label("Pips left in hand").fill("30")
    editor.get_by_role("button", name="Save count").click()
    went_out(ben, 1, 1)
    enter_pips(ben, 1, 2, 7)
    expect_totals(ben, [30, 0, 7])

    ana.get_by_text("House rules").click()
    ana.get_by_label("Double-blank is worth").select_option("50")
    for page in (ana, ben):
        expect(page.locator("#activity")).to_contain_text(
            "Double-blank is worth 50, changed by Ana"
        )
    cell(ana, 1, 0).click()
    expect(doubles).to_be_hidden()
    double_blank.check()
    editor.get_by_role("button", name="Save count").click()
    for page in (ana, ben):
        expect_totals(page, [80, 0, 7])

    ben.get_by_text("House rules").click()
    ben.get_by_label("The player who goes out scores").select_option("-10")
    ben.get_by_label("Penalty per unplayed double").select_option("25")
    for page in (ana, ben):
        expect_totals(page, [105, -10, 7])  # the double-blank is a double
        expect(page.get_by_label("Penalty per unplayed double")).to_have_value("25")
    cell(ana, 1, 0).click()
    expect(doubles).to_have_value("1")
    editor.get_by_role("button", name="Close").click()

    # Undo, one tap on the phone that changed it: the penalty goes back to none, on both.
    ben.get_by_role("button", name=re.compile("^Undo: Penalty per unplayed double: 25")).click()
    for page in (ana, ben):
        expect_totals(page, [80, -10, 7])


def test_undo_takes_back_your_own_count_and_asks_before_somebody_elses(asgi_server, phone):
    """Issue 36: one tap on a newcomer's phone wiped Cy's count. Undo is this phone's own
    last entry; somebody else's is a second step, in a question that names whose it is."""
    ana, cy = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben", "Cy"])
    join(cy, link, "Cy")
    enter_pips(ana, 1, 0, 20)
    enter_pips(cy, 1, 2, 23)
    expect(cell(ana, 1, 2).locator(".score")).to_have_text("23")

    ana.get_by_role("button", name="Undo Cy's entry: Round 1, Cy: blank → 23 pips…").click()
    question = ana.locator("#notices .notice")
    expect(question).to_contain_text("Take back Cy's count of 23 pips in round 1?")
    question.get_by_role("button", name="Keep it").click()
    expect(question).to_have_count(0)
    expect(cell(cy, 1, 2).locator(".score")).to_have_text("23")

    ana.get_by_role("button", name="Undo Cy's entry: Round 1, Cy: blank → 23 pips…").click()
    question.get_by_role("button", name="Take it back").click()
    expect(question).to_have_count(0)
    for page in (ana, cy):
        expect(cell(page, 1, 2).locator(".score")).to_have_text("+")
        expect(cell(page, 1, 0).locator(".score")).to_have_text("20")

    ana.get_by_role("button", name="Undo: Round 1, Ana: blank → 20 pips").click()
    for page in (ana, cy):
        expect(cell(page, 1, 0).locator(".score")).to_have_text("+")


def test_a_cell_changed_while_the_editor_was_open_shows_both_values(asgi_server, phone):
    ana, ben = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben"])
    join(ben, link, "Ben")
    cell(ana, 1, 1).click()  # Ana starts typing Ben's count...
    ana.locator("#editor").get_by_label("Pips left in hand").fill("13")
    enter_pips(ben, 1, 1, 15)  # ...while Ben enters his own
    expect(ana.locator("#editor")).to_contain_text("Now: 15 pips")
    ana.locator("#editor").get_by_role("button", name="Save count").click()

    notice = ana.locator("#notices .notice")
    expect(notice).to_contain_text("Round 1, Ben: Ben entered 15 pips; you entered 13 pips.")
    expect(cell(ana, 1, 1).locator(".score")).to_have_text("15")
    notice.get_by_role("button", name="Use 13 pips").click()
    for page in (ana, ben):
        expect(cell(page, 1, 1).locator(".score")).to_have_text("13")
    expect(notice).to_have_count(0)

    # Nothing entered is lost: the cell's history, on demand, has both.
    cell(ben, 1, 1).click()
    ben.locator("#editor").get_by_role("button", name="History").click()
    expect(ben.locator("#cell-history li")).to_have_text(
        [
            re.compile(r"Ana: Round 1, Ben: 15 pips → 13 pips$"),
            re.compile(r"Ben: Round 1, Ben: blank → 15 pips$"),
        ]
    )


def test_an_entry_made_offline_arrives_once_when_back_online(asgi_server, phone, server_db):
    ana_phone, ben_phone = phone(), phone()
    ana, ben = ana_phone.new_page(), ben_phone.new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben"])
    code = link.split("/")[-2]
    join(ben, link, "Ben")

    # The service worker has kept a copy of the sheet page to open it with no signal.
    expect(ben.locator("#live")).to_have_attribute("data-offline", "ready")
    ben_phone.set_offline(True)
    expect(ben.locator("#connection")).to_be_visible()
    enter_pips(ben, 1, 1, 13)
    expect(cell(ben, 1, 1)).to_have_attribute("data-pending", "13")
    expect(ben.locator("#outbox")).to_have_text("1 entry waiting to be sent")
    # Kept on the phone, not sent: the server and the other phone know nothing of it.
    ben.reload()
    expect(ben.locator("#outbox")).to_have_text("1 entry waiting to be sent")
    expect(cell(ben, 1, 1)).to_have_attribute("data-pending", "13")
    assert not Entry.objects.using(server_db).filter(round__match__code=code).exists()
    expect(cell(ana, 1, 1).locator(".score")).to_have_text("+")

    ben_phone.set_offline(False)
    expect(cell(ana, 1, 1).locator(".score")).to_have_text("13")
    expect(ben.locator("#outbox")).to_be_hidden()
    expect(cell(ben, 1, 1)).not_to_have_attribute("data-pending", re.compile(".*"))
    expect(cell(ben, 1, 1).locator(".score")).to_have_text("13")

    # Returning to the tab resends nothing twice: the entry is in the database once.
    ben.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(cell(ana, 1, 1).locator(".running")).to_have_text("13")
    changes = Change.objects.using(server_db).filter(entry__round__match__code=code)
    assert [(c.by, c.new) for c in changes] == [
        ("Ben", {"kind": "count", "pips": 13, "doubles": 0, "double_blank": False})
    ]


def middle(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_tap_that_a_redraw_lands_in_is_not_lost(asgi_server, phone, server_db):
    """A push replaces the whole sheet, cell buttons and all. Ana presses her cell as Ben's
    entry redraws it under her finger, then taps tiles and types while more arrive: the
    press opens the editor, and what she tapped is what is saved."""
    ana, ben = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben", "Cy"])
    code = link.split("/")[-2]
    join(ben, link, "Ben")
    editor = ana.locator("#editor")

    # A mouse press (a laptop keeping score): down, Ben's entry redraws the sheet, up.
    ana.mouse.move(*middle(cell(ana, 1, 0)))
    ana.mouse.down()
    enter_pips(ben, 1, 1, 15)
    expect(cell(ana, 1, 1).locator(".score")).to_have_text("15")  # the redraw has landed
    ana.mouse.up()
    expect(editor).to_be_visible()
    expect(editor.locator("h2")).to_have_text("Round 1: Ana")

    # Tiles tapped in the open editor while another entry redraws the sheet behind it.
    editor.get_by_text("Or tap the tiles you hold").click()
    editor.get_by_role("button", name="4-1", exact=True).click()
    editor.get_by_role("button", name="6-6", exact=True).click()
    went_out(ben, 1, 2)
    expect(cell(ana, 1, 2).locator(".score")).to_have_text("0")
    editor.get_by_role("button", name="3-0", exact=True).click()
    editor.get_by_role("button", name="Save tiles").click()
    for page in (ana, ben):
        expect(cell(page, 1, 0).locator(".score")).to_have_text("20")

    # A finger (touch start, redraw, touch end) opens the editor once, and pips typed in it
    # while Ben's entry redraws the sheet are saved.
    touch = ana.context.new_cdp_session(ana)
    x, y = middle(cell(ana, 2, 0))
    touch.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
    )
    enter_pips(ben, 2, 1, 9)
    expect(cell(ana, 2, 1).locator(".score")).to_have_text("9")
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(editor.locator("h2")).to_have_text("Round 2: Ana")
    editor.get_by_label("Pips left in hand").fill("1")
    enter_pips(ben, 2, 2, 4)
    expect(cell(ana, 2, 2).locator(".score")).to_have_text("4")
    editor.get_by_label("Pips left in hand").press_sequentially("2")
    editor.get_by_role("button", name="Save count").click()
    for page in (ana, ben):
        expect_totals(page, [32, 24, 4])
        expect(page.locator("#outbox")).to_be_hidden()
    saved = Entry.objects.using(server_db).filter(round__match__code=code, seat__position=0)
    assert sorted((e.round.number, e.tiles, e.pips) for e in saved) == [
        (1, [[0, 3], [1, 4], [6, 6]], None),
        (2, None, 12),
    ]


def test_a_focused_cell_keeps_the_focus_through_a_redraw(asgi_server, phone):
    """Keyboard: a cell that has the focus when a push redraws the sheet still has it, so
    Enter opens it (the replaced button took the focus with it)."""
    ana, ben = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben"])
    join(ben, link, "Ben")
    cell(ana, 1, 0).focus()
    enter_pips(ben, 1, 1, 15)
    expect(cell(ana, 1, 1).locator(".score")).to_have_text("15")
    expect(cell(ana, 1, 0)).to_be_focused()
    ana.keyboard.press("Enter")
    expect(ana.locator("#editor h2")).to_have_text("Round 1: Ana")


def test_a_preset_redraws_the_house_rules_and_a_rule_chosen_stays(asgi_server, phone, server_db):
    """The set and the preset redraw the house rules (htmx); choosing a house rule must not:
    with eval forbidden by the Content-Security-Policy, a trigger filter no longer filters,
    and every choice redrew the rules back to the preset's."""
    page = phone().new_page()
    page.goto(f"{asgi_server.url}/s/new/")
    # A slow phone: htmx binds the redrawn fields' triggers when the swap settles, so a
    # field chosen before then was lost unless the fieldset settles at once.
    page.evaluate("htmx.config.defaultSettleDelay = 2000")
    page.get_by_label("Preset").select_option("family")
    expect(page.get_by_label("Double-blank is worth")).to_have_value("50")
    page.locator("#id_highest_double").select_option("9")  # a field drawn anew
    expect(page.get_by_label("Rounds to play")).to_have_value("10")
    expect(page.get_by_label("Double-blank is worth")).to_have_value("50")
    page.get_by_label("Penalty per unplayed double").select_option("25")
    page.wait_for_load_state("networkidle")  # a redraw, if one was asked for, has landed
    expect(page.get_by_label("Penalty per unplayed double")).to_have_value("25")
    for number, name in enumerate(["Ana", "Ben"], start=1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_role("button", name="Start the score sheet").click()
    expect(page.get_by_text("You are Ana")).to_be_visible()
    match = Match.objects.using(server_db).get(code=page.url.split("/")[-2])
    rules = match.get_rules()
    assert (rules.highest_double, rules.double_blank_value, rules.double_penalty) == (9, 50, 25)


def test_blank_halves_and_going_out_on_a_double_recalculate_both_phones(asgi_server, phone):
    """blank_value 25 and out_on_double 50: the editor asks for what they count only while
    they are set, and a change of either recalculates the match on every phone."""
    ana, ben = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben", "Cy"])
    join(ben, link, "Ben")
    # The picker's running total stays in sight, beside Save tiles, as tiles are tapped.
    cell(ana, 1, 0).click()
    picker = ana.locator("#editor .picker")
    picker.get_by_text("Or tap the tiles you hold").click()
    picker.get_by_role("button", name="12-11", exact=True).click()
    total, save = picker.locator(".picker-sum"), picker.get_by_role("button", name="Save tiles")
    expect(total).to_have_text("1 tile: 23 pips.")  # no double penalty: doubles go unsaid
    for shown in (total, save):
        expect(shown).to_be_in_viewport()
    total_box, save_box = total.bounding_box(), save.bounding_box()
    assert total_box["y"] < save_box["y"] + save_box["height"]  # one row
    assert save_box["y"] < total_box["y"] + total_box["height"]
    picker.get_by_role("button", name="12-11", exact=True).click()
    ana.locator("#editor").get_by_role("button", name="Close").click()
    pick_tiles(ana, 1, 0, ["6-0", "5-4"])  # 15 pips, one blank half
    cell(ben, 1, 1).click()
    editor = ben.locator("#editor")
    expect(editor.get_by_label("Went out on a double (the last tile laid)")).to_be_hidden()
    editor.get_by_role("button", name="Close").click()
    expect_totals(ben, [15, 0, 0])

    ana.get_by_text("House rules").click()
    ana.get_by_label("A blank half is worth").select_option("25")
    ana.get_by_label("Going out on a double adds").select_option("50")
    expect_totals(ben, [40, 0, 0])  # the 6-0 now counts 31
    expect(ben.get_by_label("Going out on a double adds")).to_have_value("50")

    cell(ben, 1, 1).click()
    editor.get_by_label("Went out on a double (the last tile laid)").check()
    editor.get_by_role("button", name="Went out").click()
    expect(editor).to_be_hidden()
    cell(ben, 1, 2).click()
    editor.get_by_label("Pips left in hand").fill("11")
    editor.get_by_label("Blank halves on the other tiles").fill("1")
    editor.get_by_role("button", name="Save count").click()
    for page in (ana, ben):
        expect_totals(page, [40, 50, 36])

    ben.get_by_text("House rules").click()
    ben.get_by_label("A blank half is worth").select_option("0")
    for page in (ana, ben):
        expect_totals(page, [15, 50, 11])
