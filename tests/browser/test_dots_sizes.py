"""Dots on other field sizes in a real browser: a KataGoDots 12x12 record
opened with the note on its rules, and a custom 10x14 game from the
new-game dialog played against the bot and resumed after a reload.

Clicks are computed from the canvas's published geometry (``data-geometry``),
as in ``test_app_dots.py``.
"""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from conftest import emulate  # noqa: E402

from tessera.games.dots.sgf import from_sgf  # noqa: E402

BOARD = "canvas.tessera-board"

# A KataGoDots self-play record on 12x12 (its layout: KM and RU in the root,
# the cross as AB/AW, an evaluation comment per move), here with komi and
# suicide forbidden, so two notes are due.
KATAGO_12 = (
    "(;FF[4]AP[katago]GM[40]SZ[12]PB[dotsgame-s4718592-d401127]PW[dotsgame-s4456448-d387002]"
    "KM[0.5]RU[dotsCaptureEmptyBase0sui0]AB[ff][gg]AW[gf][fg]C[startTurnIdx=0,initTurnNum=4,gtype=normal]"
    ";B[fh]C[0.57 0.43 0.00 1.3 v=160];W[ed]C[0.61 0.39 0.00 1.4 v=165];B[eg]C[0.65 0.35 0.00 1.6 v=155]"
    ";W[gj]C[0.69 0.31 0.00 1.8 v=158];B[ge]C[0.72 0.28 0.00 1.9 v=157];W[cf]C[0.71 0.29 0.00 1.8 v=162]"
    ";B[hf]C[0.75 0.25 0.00 2.0 v=161];W[eh]C[0.76 0.24 0.00 2.1 v=164];B[ei]C[0.76 0.24 0.00 2.0 v=158]"
    ";W[hh]C[0.77 0.23 0.00 2.1 v=157];B[dh]C[0.82 0.18 0.00 2.3 v=161];W[ch]C[0.81 0.19 0.00 2.2 v=156]"
    ";B[dg]C[0.80 0.20 0.00 2.2 v=164];W[hc]C[0.81 0.19 0.00 2.2 v=157];B[fe]C[0.79 0.21 0.00 2.1 v=155]"
    ";W[ia]C[0.78 0.22 0.00 2.1 v=158];B[cg]C[0.83 0.17 0.00 2.3 v=157])"
)


def moves(page: Page) -> list[str]:
    return page.eval_on_selector_all("button.move .move-text", "els => els.map(e => e.textContent)")


def geometry(page: Page) -> dict:
    return json.loads(page.get_attribute(BOARD, "data-geometry"))


def field_rows(page: Page) -> list[str]:
    """The rows of the board's position string, top row first."""
    return page.get_attribute(BOARD, "data-position").split()[0].split("/")


def click_point(page: Page, x: int, y: int, height: int) -> None:
    geo = geometry(page)
    box = page.locator(BOARD).bounding_box()
    page.mouse.click(box["x"] + geo["x"] + (x - 1) * geo["spacing"],
                     box["y"] + geo["y"] + (height - y) * geo["spacing"])


def wait_board(page: Page) -> None:
    page.wait_for_selector(BOARD)
    page.wait_for_function(f"JSON.parse(document.querySelector('{BOARD}')?.dataset.geometry || '{{}}').spacing > 0")


def open_imported(page: Page, text: str, count: int) -> None:
    """Paste a record into the import dialog of a fresh hot-seat game and wait for its own screen."""
    page.click("button[data-action=new-game][data-game=dots]")
    page.click("label[for='ng-opponent-human']")
    page.click("dialog button[data-action=start]")
    wait_board(page)
    page.click("button[data-action=import]")
    page.fill("#record-paste", text)
    before = page.evaluate("location.hash")
    page.click("dialog button[data-action=open-record]")
    page.wait_for_function("([before, count]) => location.hash !== before && document.querySelector('.play') "
                           "&& location.hash.endsWith('/' + document.querySelector('.play')?.dataset.session) "
                           "&& document.querySelectorAll('button.move').length === count "
                           "&& !document.querySelector('dialog[open]')", arg=[before, count])
    wait_board(page)


@pytest.mark.parametrize("locale, words", [
    ("en-US", ["other rules than Tessera's", "komi is 0.5", "dotsCaptureEmptyBase0sui0", "forbid"]),
    ("ru-RU", ["по другим правилам", "Коми в файле — 0.5", "dotsCaptureEmptyBase0sui0", "запрещают"]),
])
def test_a_katagodots_12x12_record_opens_with_a_note_on_its_rules(
        page: Page, site_url: str, wait_ready, locale: str, words: list[str]) -> None:
    """The 12x12 SGF is drawn at its own size and its position; a notice names the komi and the rules that differ."""
    emulate(page, viewport={"width": 1280, "height": 900}, locale=locale)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(site_url)
    wait_ready(page)
    open_imported(page, KATAGO_12, 17)
    expected, _ = from_sgf(KATAGO_12)
    assert page.get_attribute(BOARD, "data-position") == expected.position()
    assert len(field_rows(page)) == 12
    geo = geometry(page)
    assert geo["x"] + 11 * geo["spacing"] <= geo["width"], "all 12 columns are on the canvas"
    notice = page.locator(".notice-warning")
    expect(notice).to_be_visible()
    for word in words:
        expect(notice).to_contain_text(word)
    page.click(".notice-warning .notice-close")
    expect(notice).to_have_count(0)
    assert not errors


def test_a_custom_10x14_game_against_the_bot_resumes_after_reload(page: Page, page_log, site_url: str,
                                                                   wait_ready) -> None:
    """Custom size in the dialog (four crosses greyed out, bad numbers refused), play the bot, reload, go on."""
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=dots]")
    page.click("label[for='ng-opponent-bot:easy']")
    page.click("label[for='ng-side-blue']")
    page.click("label[for='ng-start-four_crosses']")
    expect(page.locator("#ng-size-width")).to_be_hidden()
    page.click("label[for='ng-size-custom']")
    page.fill("#ng-size-width", "10")
    page.fill("#ng-size-height", "14")
    assert page.is_disabled("#ng-start-four_crosses") and page.is_checked("#ng-start-cross")
    expect(page.locator("[data-unavailable=start]")).to_contain_text("16 × 16")

    page.fill("#ng-size-width", "4")
    page.click("dialog button[data-action=start]")
    expect(page.locator("#ng-size-error")).to_contain_text("from 5 to 52")
    assert page.get_attribute("#ng-size-width", "aria-invalid") == "true"
    expect(page.locator("dialog.dialog-newgame")).to_be_visible()
    page.fill("#ng-size-width", "10")
    page.click("dialog button[data-action=start]")
    wait_board(page)
    rows = field_rows(page)
    assert len(rows) == 14 and rows[0] == "10"
    assert rows[14 - 8] == "4BR4" and rows[14 - 7] == "4RB4", "the cross in the middle: blue 5-8 and 6-7"

    click_point(page, 2, 3, 14)
    page.wait_for_function("!document.documentElement.dataset.bot && "
                           "document.querySelectorAll('button.move').length >= 2", timeout=60_000)
    click_point(page, 9, 12, 14)
    page.wait_for_function("!document.documentElement.dataset.bot && "
                           "document.querySelectorAll('button.move').length >= 4", timeout=60_000)
    played = moves(page)
    assert played[0] == "2-3" and played[2] == "9-12"
    position = page.get_attribute(BOARD, "data-position")

    page.reload()
    wait_ready(page)
    page.wait_for_selector("button.move")
    wait_board(page)
    assert moves(page) == played
    assert page.get_attribute(BOARD, "data-position") == position
    assert page.get_attribute("html", "data-turn") == "0"
    click_point(page, 1, 14, 14)                  # the top-left corner of the 10x14 field
    page.wait_for_function("document.querySelectorAll('button.move').length >= 5", timeout=60_000)
    assert moves(page)[4] == "1-14"

    page.click("button[data-action=new-game]")
    assert page.is_checked("#ng-size-custom"), "the next game's dialog starts from the last choice"
    assert page.input_value("#ng-size-width") == "10" and page.input_value("#ng-size-height") == "14"
    assert not page_log.page_errors
