"""Dots in a real browser: capture on the canvas, land, SGF, zoom, bot, resume.

Clicks are computed from the geometry the canvas publishes
(``data-geometry``: the top-left point's centre and the spacing, with the
zoom and pan already applied), so the test follows the drawing.
"""

from __future__ import annotations

import json
import re
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

BOARD = "canvas.tessera-board"


def moves(page: Page) -> list[str]:
    return page.eval_on_selector_all("button.move .move-text", "els => els.map(e => e.textContent)")


def geometry(page: Page) -> dict:
    return json.loads(page.get_attribute(BOARD, "data-geometry"))


def click_point(page: Page, x: int, y: int, height: int = 20) -> None:
    geo = geometry(page)
    box = page.locator(BOARD).bounding_box()
    px = geo["x"] + (x - 1) * geo["spacing"]
    py = geo["y"] + (height - y) * geo["spacing"]
    assert 0 <= px <= box["width"] and 0 <= py <= box["height"], f"{x}-{y} is off the canvas"
    page.mouse.click(box["x"] + px, box["y"] + py)


def score(page: Page, seat: int) -> str:
    return page.text_content(f".player-panel[data-seat='{seat}'] .stat-score dd")


def start_dots(page: Page, opponent: str = "human", side: str = "blue", size: str = "20x20") -> None:
    page.click("button[data-action=new-game][data-game=dots]")
    page.click(f"label[for='ng-opponent-{opponent}']")
    if opponent != "human":
        page.click(f"label[for='ng-side-{side}']")
    page.click(f"label[for='ng-size-{size}']")
    page.click("dialog button[data-action=start]")
    page.wait_for_selector(BOARD)
    page.wait_for_function(f"JSON.parse(document.querySelector('{BOARD}')?.dataset.geometry || '{{}}').spacing > 0")


def test_hot_seat_capture_land_and_sgf(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Two players surround a dot by clicking, export SGF and open it again, then land with confirmation."""
    page.goto(site_url)
    wait_ready(page)
    start_dots(page)
    for x, y in ((10, 9), (5, 5), (9, 10)):       # blue closes a diamond round red's 10-10
        click_point(page, x, y)
    page.wait_for_function("document.querySelectorAll('button.move').length === 3")
    assert moves(page) == ["10-9", "5-5", "9-10"]
    assert (score(page, 0), score(page, 1)) == ("1", "0")
    expect(page.locator("#announcer")).to_contain_text("+1")  # written in a later task

    click_point(page, 9, 10)                      # taken: nothing happens
    assert len(moves(page)) == 3

    page.click("button[data-action=export]")
    page.click("label[for='record-format-sgf']")
    sgf = page.input_value("#record-export")
    assert sgf.startswith("(;FF[4]GM[40]") and "SZ[20]" in sgf
    page.keyboard.press("Escape")

    page.click("button[data-action=import]")
    page.fill("#record-paste", "(;GM[40]SZ[20];B[zz])")
    page.click("dialog button[data-action=open-record]")
    error = page.locator(".record-error")
    error.wait_for()
    assert "zz" in error.text_content()
    page.fill("#record-paste", sgf)
    before = page.evaluate("location.hash")
    page.click("dialog button[data-action=open-record]")
    # The record opens as a new game on its own route: wait for that screen,
    # not the old one, which also shows three moves until it is replaced.
    page.wait_for_function("before => location.hash !== before && document.querySelector('.play') && "
                           "location.hash.endsWith('/' + document.querySelector('.play')?.dataset.session) && "
                           "document.querySelectorAll('button.move').length === 3 && "
                           "!document.querySelector('dialog[open]')", arg=before)
    assert moves(page) == ["10-9", "5-5", "9-10"]
    assert score(page, 0) == "1"

    page.fill("#move-input", "20-")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-error")).to_contain_text("like 10-9, or land")  # an example on this 20x20 field

    page.click("button[data-action=land]")        # red lands: its lone dots go to blue
    dialog = page.locator("dialog.dialog-confirm")
    dialog.wait_for()
    assert "Blue" in dialog.text_content() and "Final score" in dialog.text_content()
    page.click("dialog button[data-action=confirm]")
    page.wait_for_selector("dialog.dialog-over")
    assert "Blue wins" in page.text_content("dialog.dialog-over")
    assert moves(page)[-1] == "land"
    assert int(score(page, 0)) > 1
    page.keyboard.press("Escape")
    # The export of a game the rules ended says how it ended, when and who played.
    page.click("button[data-action=export]")
    exported = json.loads(page.input_value("#record-export"))
    assert exported["result"]["winner"] == 0 and exported["result"]["reason"]
    assert exported["meta"]["players"] == {"blue": "Player 1", "red": "Player 2"}
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", exported["meta"]["date"])
    page.click("label[for='record-format-sgf']")
    sgf = page.input_value("#record-export")
    assert "RE[B+" in sgf and f"DT[{exported['meta']['date']}]" in sgf and "PB[Player 1]" in sgf
    page_log.assert_same_origin(site_url)
    assert not page_log.page_errors


def test_against_the_bot_zoom_and_resume(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Play against the easy bot on the canvas, zoom with the buttons, reload and continue."""
    page.goto(site_url)
    wait_ready(page)
    start_dots(page, "bot:easy", "blue")
    click_point(page, 4, 4)
    page.wait_for_function("!document.documentElement.dataset.bot && "
                           "document.querySelectorAll('button.move').length >= 2", timeout=60_000)
    assert moves(page)[0] == "4-4"

    before = geometry(page)
    page.click("button[data-action=zoom-in]")
    zoomed = geometry(page)
    assert zoomed["zoom"] > before["zoom"] and zoomed["spacing"] > before["spacing"]
    # Clicks still land on the right point when zoomed.  The easy bot answers with a random
    # point within two steps of a dot: 2-2 to 6-6 round 4-4, 8-8 to 13-13 round the start
    # cross.  4-9 is in neither, so it is always free.
    click_point(page, 4, 9)
    page.wait_for_function("!document.documentElement.dataset.bot && "
                           "document.querySelectorAll('button.move').length >= 4", timeout=60_000)
    assert moves(page)[2] == "4-9"
    page.click("button[data-action=zoom-fit]")
    assert geometry(page)["zoom"] == 1

    played = moves(page)
    page.reload()
    wait_ready(page)
    page.wait_for_selector("button.move")
    assert moves(page) == played
    assert page.get_attribute("html", "data-turn") == "0"
    assert not page_log.page_errors


HOLD_FRAMES = """() => {
  // No animation frame runs and no timer of 100 ms or more fires: what a move's own
  // task does shows alone (the rest of the page waits for the frame after it).
  window.__heldFrames = [];
  window.requestAnimationFrame = (callback) => { window.__heldFrames.push(callback); return 0; };
  const setTimer = window.setTimeout;
  window.setTimeout = (callback, ms, ...rest) => (ms >= 100 ? 0 : setTimer(callback, ms, ...rest));
  window.__runFrames = () => { const held = window.__heldFrames.splice(0); held.forEach((f) => f(performance.now())); };
}"""


def test_a_move_shows_on_the_board_first_and_a_reload_at_once_keeps_it(page: Page, page_log, site_url: str,
                                                                          wait_ready) -> None:
    """The board draws a move in the click's own task; the move list follows after the
    next frame; a page left before that frame saves the move all the same."""
    page.goto(site_url)
    wait_ready(page)
    start_dots(page)
    page.evaluate(HOLD_FRAMES)
    before = page.get_attribute(BOARD, "data-position")
    click_point(page, 5, 5)
    assert page.get_attribute(BOARD, "data-position") != before   # drawn
    assert moves(page) == []                                       # the page not yet
    page.evaluate("window.__runFrames()")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    assert moves(page) == ["5-5"] and page.get_attribute("html", "data-turn") == "1"

    click_point(page, 7, 7)
    assert moves(page) == ["5-5"]
    page.reload()   # before any frame: the page saves on its way out
    wait_ready(page)
    page.wait_for_function("document.querySelectorAll('button.move').length === 2")
    assert moves(page) == ["5-5", "7-7"]
    assert page.get_attribute("html", "data-turn") == "0"
    assert not page_log.page_errors


def canvas_picture(page: Page) -> str:
    return page.eval_on_selector(BOARD, "c => c.toDataURL()")


def test_threats_and_a_hint(page: Page, page_log, site_url: str, wait_ready) -> None:
    """'Show threats' rings the points where a side captures now; Hint
    suggests a move (the capture) and marks it; both are read again after a move."""
    page.goto(site_url)
    wait_ready(page)
    start_dots(page)
    for x, y in ((9, 10), (12, 10)):              # blue threatens 10-10 at 10-9, red 11-10 at 11-9
        click_point(page, x, y)
    page.wait_for_function("document.querySelectorAll('button.move').length === 2")
    plain = canvas_picture(page)
    toggle = page.locator("input[data-toggle=threats]")
    expect(page.locator("label[for='toggle-threats']")).to_contain_text("Show threats")
    toggle.check()
    page.wait_for_function("p => document.querySelector('canvas.tessera-board').toDataURL() !== p", arg=plain)
    page.screenshot(path="/tmp/tessera-dots-threats.png")
    page.click("button[data-action=hint]")
    note = page.locator("[data-hint=note]")
    expect(note).to_contain_text("10-9", timeout=20_000)   # the capture
    click_point(page, 10, 9)
    page.wait_for_function("document.querySelectorAll('button.move').length === 3")
    assert (score(page, 0), score(page, 1)) == ("1", "0")
    expect(note).to_be_hidden()
    toggle.uncheck()
    page_log.assert_same_origin(site_url)
    assert not page_log.page_errors


def test_the_master_level_plays_and_resumes(page: Page, page_log, site_url: str, wait_ready) -> None:
    """The top level, Master, is offered for Dots; it answers each move on
    the field and the game resumes after a reload with the Master seated."""
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=dots]")
    expect(page.locator("label[for='ng-opponent-bot:master']")).to_contain_text("Master")
    page.keyboard.press("Escape")
    start_dots(page, "bot:master", "blue")
    candidates = [(9, 12), (12, 12), (9, 9), (12, 9), (8, 11), (13, 10)]
    for turn in range(1, 4):
        x, y = next(point for point in candidates if f"{point[0]}-{point[1]}" not in moves(page))
        click_point(page, x, y)
        page.wait_for_function(f"!document.documentElement.dataset.bot && "
                               f"document.querySelectorAll('button.move').length >= {2 * turn}", timeout=60_000)
    played = moves(page)
    assert len(played) == 6 and played[0] == "9-12"
    page.screenshot(path="/tmp/tessera-dots-master.png")
    page.reload()
    wait_ready(page)
    page.wait_for_selector("button.move")
    assert moves(page) == played
    assert "Master" in page.text_content(".player-panel[data-seat='1']")
    assert not page_log.page_errors
