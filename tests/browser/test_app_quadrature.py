"""The app in a real browser: play Quadrature against the bot, save, resume, offline.

Clicks are computed from the board geometry the canvas publishes
(``data-geometry``) and the view's own ``square_center``, so the test
follows the board's drawing rather than guessing pixels.
"""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from tessera.games.quadrature import Quadrature  # noqa: E402
from tessera.games.quadrature.rules import move_from, parse_square  # noqa: E402
from tessera.games.quadrature.view import square_center  # noqa: E402

BOARD = "canvas.tessera-board"

# Long tasks and the periods while the bot thinks (<html data-bot="thinking">).
MONITOR = """
window.__longTasks = [];
window.__botThinking = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({start: e.startTime, duration: e.duration});
  }).observe({type: "longtask", buffered: true});
} catch (e) { window.__longTasks = null; }
window.__frames = [];   // long animation frames: which script ran, to say what a long task was
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__frames.push({start: e.startTime, duration: e.duration,
      scripts: e.scripts.map(s => `${s.invoker} ${Math.round(s.duration)} ms (layout ${Math.round(s.forcedStyleAndLayoutDuration)} ms)`)});
  }).observe({type: "long-animation-frame", buffered: true});
} catch (e) { }
document.addEventListener("DOMContentLoaded", () => {
  let since = null;
  new MutationObserver(() => {
    const thinking = document.documentElement.dataset.bot === "thinking";
    if (thinking && since === null) since = performance.now();
    if (!thinking && since !== null) { window.__botThinking.push([since, performance.now()]); since = null; }
  }).observe(document.documentElement, {attributes: true, attributeFilter: ["data-bot"]});
});
"""


def moves(page: Page) -> list[str]:
    return page.eval_on_selector_all("button.move .move-text", "els => els.map(e => e.textContent)")


def click_square(page: Page, name: str) -> None:
    geometry = json.loads(page.get_attribute(BOARD, "data-geometry"))
    box = page.locator(BOARD).bounding_box()
    x, y = square_center(parse_square(name), geometry["width"], geometry["height"], geometry["flipped"])
    page.mouse.click(box["x"] + x, box["y"] + y)


def wait_bot_done(page: Page, plies: int) -> None:
    page.wait_for_function(
        "n => !document.documentElement.dataset.bot && document.querySelectorAll('button.move').length >= n",
        arg=plies, timeout=60_000)


def start_game(page: Page, opponent: str = "bot:hard", side: str = "white") -> None:
    page.click("button[data-action=new-game][data-game=quadrature]")
    page.click(f"label[for='ng-opponent-{opponent.replace(':', '')}'], label[for='ng-opponent-{opponent}']")
    if opponent != "human":
        page.click(f"label[for='ng-side-{side}']")
    page.click("dialog button[data-action=start]")
    page.wait_for_selector(BOARD)
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.geometry")


def open_with_one_move(page: Page, site_url: str, wait_ready) -> None:
    """Open the site and play e9-e8 in a new two-player game on this device: a saved game of one move."""
    page.goto(site_url)
    wait_ready(page)
    start_game(page, "human")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")


def a_legal_move(page: Page) -> str:
    game = Quadrature(setup=page.get_attribute(BOARD, "data-position"))
    return game.move_text(sorted(game.legal_moves(), key=move_from)[0])


def test_play_against_the_bot_save_resume_offline(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Click and type moves, undo, reload and go offline: the game stays, the page stays responsive."""
    page.add_init_script(MONITOR)
    page.goto(site_url)
    wait_ready(page)
    start_game(page, "bot:hard", "white")

    click_square(page, "e9")
    click_square(page, "e8")
    wait_bot_done(page, 2)
    assert moves(page)[0] == "e9-e8"
    expect(page.locator("#announcer")).not_to_have_text("")  # the bot's reply was announced

    typed = a_legal_move(page)
    page.fill("#move-input", typed)
    page.press("#move-input", "Enter")
    wait_bot_done(page, 4)
    assert moves(page)[2] == typed

    page.fill("#move-input", "e9e8x")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-error")).to_contain_text("e9-e8")  # a notation error shows the form to use

    page.click("button[data-action=undo]")
    page.wait_for_function("document.querySelectorAll('button.move').length === 2")
    before = moves(page)

    thinking = page.evaluate("window.__botThinking")
    long_tasks = page.evaluate("window.__longTasks")
    assert thinking, "the bot never set data-bot=thinking"
    if long_tasks is not None:
        blocking = [task for task in long_tasks if task["duration"] >= 50 and any(
            task["start"] < end and task["start"] + task["duration"] > start for start, end in thinking)]
        frames = [frame for frame in page.evaluate("window.__frames") if any(
            frame["start"] <= task["start"] + task["duration"] and frame["start"] + frame["duration"] >= task["start"]
            for task in blocking)]
        assert not blocking, f"main-thread tasks >= 50 ms while the bot thought: {blocking}, in frames {frames}"

    page.reload()
    wait_ready(page)
    page.wait_for_selector("button.move")
    assert moves(page) == before

    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.context.set_offline(True)
    try:
        page.reload()
        wait_ready(page)
        page.wait_for_selector("button.move")
        assert moves(page) == before
    finally:
        page.context.set_offline(False)
    page_log.assert_same_origin(site_url)
    assert not page_log.page_errors


def test_corrupt_saves_are_reported_and_kept_aside(page: Page, site_url: str, wait_ready) -> None:
    """A broken save never stops the app: it is moved under a corrupt/ key, one notice says so in
    plain words (counting up as more are found), the details go to the console."""
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    page.goto(site_url)
    wait_ready(page)
    page.evaluate("""() => {
        localStorage.setItem('tessera/v1/session/bad1', '{not json');
        localStorage.setItem('tessera/v1/session/bad2', JSON.stringify({
            format: 'tessera-session/1', id: 'bad2', seats: [{kind: 'human'}, {kind: 'human'}],
            record: {format: 'tessera/1', game: 'quadrature', moves: ['e9-e5']}}));
    }""")
    page.reload()
    wait_ready(page)
    page.wait_for_selector(".notice")
    assert "A saved game could not be opened" in page.text_content("#notices")
    assert "tessera/v1/corrupt/session/bad1@" not in page.text_content("#notices")
    assert any("tessera/v1/corrupt/session/bad1@" in text for text in warnings)
    assert page.locator(".game-card[data-game=quadrature]").is_visible()
    page.goto(site_url + "#/play/quadrature/bad2")
    page.wait_for_selector(".notice[data-problems='2']")
    assert page.locator(".notice").count() == 1 and "2 saved games" in page.text_content("#notices")
    assert any("bad2@" in text and "move 1" in text for text in warnings)
    kept = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tessera/v1/corrupt/'))")
    assert len(kept) == 2
    assert page.evaluate("localStorage.getItem('tessera/v1/session/bad1')") is None
    assert page.locator(".game-card[data-game=quadrature]").is_visible()


def test_language_switch_is_remembered(page: Page, site_url: str, wait_ready) -> None:
    """Russian changes the whole UI and survives a reload."""
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-lang=ru]")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    assert page.text_content("h1") == "Редкие абстрактные игры"
    page.reload()
    wait_ready(page)
    assert page.text_content("h1") == "Редкие абстрактные игры"
    start_game(page, "human")
    assert page.text_content("#play-status") == "Ходят белые"


def test_hot_seat_draw_and_bad_import(page: Page, site_url: str, wait_ready) -> None:
    """Two players agree a draw; a bad record import explains itself and changes nothing."""
    open_with_one_move(page, site_url, wait_ready)

    page.click("button[data-action=import]")
    page.fill("#record-paste", '{"format": "tessera/1", "game": "quadrature", "moves": ["e9-e5"]}')
    page.click("dialog button[data-action=open-record]")
    error = page.locator(".record-error")
    error.wait_for()
    assert "move 1" in error.text_content() and "e9-e5" in error.text_content()
    page.keyboard.press("Escape")
    assert moves(page) == ["e9-e8"]

    page.click("button[data-action=draw]")
    page.click("dialog button[data-action=accept]")
    page.wait_for_selector("dialog.dialog-over")
    assert "Draw" in page.text_content("dialog.dialog-over")
    assert "agreed" in page.text_content("#play-status")
