"""Moves animate and sound, the bot's reply cannot be missed, clocks with increment and in bot games.

The canvas counts the frames of the move animating (``data-anim-frames``)
and keeps the slowest (``data-anim-max-ms``); ``tesseraSound.played`` lists
the sounds asked for.  No assertion is about time: a frame's cost is printed
(run with ``-s`` to see it), not judged.
"""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from saves import long_dots_save, save_script  # noqa: E402
from tessera.core.session import Session  # noqa: E402
from test_app_quadrature import click_square, moves, open_with_one_move, start_game  # noqa: E402

BOARD = "canvas.tessera-board"


def anim_frames(page: Page) -> int:
    return int(page.get_attribute(BOARD, "data-anim-frames") or 0)


def clock_text(page: Page, seat: int) -> str:
    return page.text_content(f".player-panel[data-seat='{seat}'] .player-clock .clock-main") or ""


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def open_settings(page: Page) -> None:
    page.locator("#settings-button").dispatch_event("click")
    page.wait_for_selector("dialog.dialog-settings")


def test_the_bots_reply_animates_sounds_and_is_announced(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Your move and the bot's reply both animate; after the reply your panel lights up, the screen
    reader hears "Your move", and each move asked for its sound."""
    page.goto(site_url)
    wait_ready(page)
    start_game(page, "bot:easy", "white")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length >= 2 && !document.documentElement.dataset.bot",
                           timeout=60_000)
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.animFrames > 1")
    expect(page.locator("#announcer")).to_contain_text("Your move")
    expect(page.locator(".player-panel[data-seat='0']")).to_have_attribute("data-attention", "")
    expect(page.locator("#play-status")).to_have_attribute("data-attention", "")
    assert page.evaluate("tesseraSound.played.filter(k => k === 'move' || k === 'capture').length") >= 2
    page_log.assert_no_errors()


def test_stepping_through_the_moves_animates_each_step(page: Page, page_log, site_url: str, wait_ready) -> None:
    """One step forward in the move list animates that move; a jump does not."""
    page.goto(site_url)
    wait_ready(page)
    start_game(page, "human")
    for a, b in (("e9", "e8"), ("e3", "e4")):
        click_square(page, a)
        click_square(page, b)
    page.wait_for_function("document.querySelectorAll('button.move').length === 2")
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.animCount === '2'")
    page.click("button[data-nav=first]")
    page.click("button[data-nav=next]")
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.animCount === '3'")
    page.click("button[data-nav=first]")
    page.click("button.move[data-ply='2']")
    page.wait_for_timeout(300)  # a jump: nothing may start (not a timing assertion: nothing should ever come)
    assert page.get_attribute(BOARD, "data-anim-count") == "3"
    page_log.assert_no_errors()


HIDDEN_TAB = """
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: () => window.__hidden});
"""


def test_a_background_tab_says_your_move_in_its_title(page: Page, page_log, site_url: str, wait_ready) -> None:
    """The bot replies while the page is in a background tab: the title says so until the tab is shown."""
    page.add_init_script(HIDDEN_TAB)
    page.goto(site_url)
    wait_ready(page)
    title = page.title()
    start_game(page, "bot:easy", "white")
    click_square(page, "e9")
    page.evaluate("window.__hidden = true")   # the player turns away as they move
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length >= 2", timeout=60_000)
    page.wait_for_function("document.title.startsWith('Your move')")
    assert page.title() == f"Your move · {title}"
    page.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("t => document.title === t", arg=title)
    page_log.assert_no_errors()


def test_settings_switch_animation_and_sound(page: Page, page_log, site_url: str, wait_ready) -> None:
    """The settings menu offers animation speed and move sounds; "off" stops both."""
    page.goto(site_url)
    wait_ready(page)
    open_settings(page)
    assert page.is_checked("#setting-animation-normal") and page.is_checked("#setting-sound")
    page.click("label[for='setting-animation-off']")
    page.click("label[for='setting-sound']")
    page.click("dialog.dialog-settings button[data-action=close]")
    start_game(page, "human")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    assert anim_frames(page) == 0 and page.evaluate("tesseraSound.played.length") == 0
    page.reload()
    wait_ready(page)
    open_settings(page)
    assert page.is_checked("#setting-animation-off") and not page.is_checked("#setting-sound")
    page_log.assert_no_errors()


def test_reduced_motion_means_no_animation_until_chosen(page: Page, site_url: str) -> None:
    from conftest import emulate, wait_ready

    emulate(page, viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    open_with_one_move(page, site_url, wait_ready)
    assert anim_frames(page) == 0
    open_settings(page)
    assert page.is_checked("#setting-animation-off")
    page.click("label[for='setting-animation-fast']")
    page.click("dialog.dialog-settings button[data-action=close]")
    click_square(page, "e3")
    click_square(page, "e4")
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.animFrames > 1")


LONG_TASKS = """
window.__longTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({start: e.startTime, duration: e.duration});
  }).observe({type: "longtask", buffered: true});
} catch (e) { window.__longTasks = null; }
"""


def capturing_point(save: dict) -> tuple[int, int]:
    """A free point where the side to move closes a region in the saved game."""
    session = Session.from_save(save)
    game = session.game
    for cell in game.legal_moves():
        if cell < 0:
            continue
        trial = game.copy()
        trial.push(cell)
        if len(trial.field.regions) > len(game.field.regions):
            return game.field.xy(cell)
    raise AssertionError("no capturing move in the saved game")


def test_a_region_closing_on_a_39x32_field(page: Page, page_log, site_url: str, wait_ready) -> None:
    """On the default 39x32 field 300 moves in, a move that surrounds dots animates (dot, chain, fill);
    the slowest frame's drawing time is printed for the report."""
    save = long_dots_save(300, "anim39")
    x, y = capturing_point(save)
    hash_, script = save_script(save)
    page.add_init_script(script)
    page.add_init_script(LONG_TASKS)
    page.goto(site_url + hash_)
    wait_ready(page)
    page.wait_for_function(f"JSON.parse(document.querySelector('{BOARD}')?.dataset.geometry || '{{}}').spacing > 0")
    geo = json.loads(page.get_attribute(BOARD, "data-geometry"))
    box = page.locator(BOARD).bounding_box()
    page.wait_for_timeout(1000)  # start-up work done first, so the figures are the animation's
    clicked = page.evaluate("performance.now()")
    page.mouse.click(box["x"] + geo["x"] + (x - 1) * geo["spacing"], box["y"] + geo["y"] + (32 - y) * geo["spacing"])
    page.wait_for_function("document.querySelectorAll('button.move').length === 301")
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.animFrames > 5")
    page.wait_for_timeout(2500)  # let it end (not an assertion: the figures below are only printed)
    frames, slowest = anim_frames(page), page.get_attribute(BOARD, "data-anim-max-ms")
    still = page.get_attribute(BOARD, "data-draw-ms")
    long_tasks = page.evaluate("t => (window.__longTasks || []).filter(e => e.start >= t).map(e => e.duration)",
                               clicked)
    print(f"\n39x32 region animation: {frames} frames, slowest {slowest} ms, still frame {still} ms, "
          f"main-thread tasks of 50 ms or more since the click: {long_tasks}")
    assert "capture" in page.evaluate("tesseraSound.played")
    # The move list, 151 rows long, shows its end: the new move (scrolled at the frame after the move).
    at_end = """() => { const box = document.querySelector('.moves-scroll');
        return box.scrollHeight > 2 * box.clientHeight && box.scrollTop + box.clientHeight >= box.scrollHeight - 2; }"""
    page.wait_for_function(at_end, timeout=5_000)
    page_log.assert_no_errors()


def test_hot_seat_with_increment(page: Page, page_log, site_url: str, wait_ready) -> None:
    """1 min + 5 s (room for a slow machine to make the move): a quick move leaves more than a minute, the clocks and the move box show the increment,
    and a reload keeps it."""
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrature]")
    page.click("label[for='ng-opponent-human']")
    assert page.is_disabled("#ng-time_increment-2"), "no increment without a total"
    page.click("label[for='ng-time_total-1']")
    page.click("label[for='ng-time_increment-5']")
    page.click("dialog button[data-action=start]")
    page.wait_for_selector(".player-panel[data-seat='0'] .player-clock:not([hidden])")
    expect(page.locator(".moves-clock")).to_have_text("Clock: 1 min +5 s.")
    expect(page.locator(".player-panel[data-seat='0'] .clock-increment")).to_have_text("+5 s")
    for start, end in (("e9", "e8"), ("e3", "e4")):   # each side's first move: the clocks start after
        click_square(page, start)
        click_square(page, end)
    page.wait_for_selector(".player-clock.is-running")
    click_square(page, "e8")
    click_square(page, "e7")
    page.wait_for_function("document.querySelectorAll('button.move').length === 3")
    assert seconds(clock_text(page, 0)) > 60, clock_text(page, 0)   # 60 - (under 5 s) + 5
    label = page.get_attribute(".player-panel[data-seat='0'] .player-clock", "aria-label")
    assert "5 s added after each move" in label
    page.reload()
    wait_ready(page)
    page.wait_for_selector(".player-clock.is-running")
    assert seconds(clock_text(page, 0)) > 60
    expect(page.locator(".moves-clock")).to_have_text("Clock: 1 min +5 s.")
    page_log.assert_no_errors()


def test_a_bot_game_with_a_clock(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Against the bot only your clock runs; it stands still while the bot thinks and gains the increment."""
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrature]")
    page.click("label[for='ng-opponent-botmedium'], label[for='ng-opponent-bot:medium']")
    page.click("label[for='ng-side-white']")
    page.click("label[for='ng-time_total-3']")
    page.click("label[for='ng-time_increment-5']")
    page.click("dialog button[data-action=start]")
    page.wait_for_selector(".player-panel[data-seat='0'] .player-clock:not([hidden])")
    assert page.is_hidden(".player-panel[data-seat='1'] .player-clock")
    assert page.locator(".player-clock.is-running").count() == 0, "your clock starts with your first move"
    expect(page.locator(".moves-clock")).to_contain_text("The bot has no clock.")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length >= 2 && !document.documentElement.dataset.bot",
                           timeout=60_000)
    page.wait_for_selector(".player-panel[data-seat='0'] .player-clock.is-running")
    assert seconds(clock_text(page, 0)) == 180, "the first move earned nothing: its clock had not started"
    click_square(page, "e8")
    click_square(page, "e7")
    page.wait_for_function("document.querySelectorAll('button.move').length >= 4 && !document.documentElement.dataset.bot",
                           timeout=60_000)
    page.wait_for_selector(".player-panel[data-seat='0'] .player-clock.is-running")
    assert seconds(clock_text(page, 0)) > 180, "your move took under 5 s and earned 5 s"
    saves = page.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('tessera/v1/session/'))
        .map(k => JSON.parse(localStorage.getItem(k)))""")
    assert saves[0]["clock"]["control"] == {"total": 180, "per_move": None, "increment": 5}
    assert saves[0]["clock"]["remaining"][1] is None
    page_log.assert_no_errors()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_screenshots_of_the_clock_and_settings(page: Page, site_url: str, lang: str, tmp_path) -> None:
    """Screens to look at (saved under the test's tmp dir): the dialog with the increment, a game with
    the clock, and the settings menu, on desktop and phone."""
    from conftest import emulate, wait_ready
    from saves import storage_script

    for name, viewport, touch in (("desktop", {"width": 1280, "height": 900}, False),
                                  ("phone", {"width": 390, "height": 844}, True)):
        if touch:    # the phone: a new page of the lent context, its storage emptied
            page.evaluate("localStorage.clear()")
            page = page.context.new_page()
        emulate(page, viewport=viewport, mobile=touch, touch=touch)
        page.add_init_script(storage_script({"tessera/v1/lang": lang}))
        page.goto(site_url)
        wait_ready(page)
        page.click("button[data-action=new-game][data-game=quadrature]")
        page.click("label[for='ng-opponent-human']")
        page.click("label[for='ng-time_total-1']")
        page.click("label[for='ng-time_increment-2']")
        page.locator("fieldset[data-name=time]").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / f"dialog-{lang}-{name}.png"))
        page.click("dialog button[data-action=start]")
        page.wait_for_selector(".player-clock:not([hidden])")
        click_square(page, "e9")
        click_square(page, "e8")
        page.wait_for_function("document.querySelectorAll('button.move').length === 1")
        page.screenshot(path=str(tmp_path / f"game-{lang}-{name}.png"), full_page=True)
        open_settings(page)
        page.screenshot(path=str(tmp_path / f"settings-{lang}-{name}.png"))
        assert moves(page) == ["e9-e8"]
    print(f"\nscreenshots in {tmp_path}")
