"""Corners in a real browser: a whole game against the bot by clicking (a
tilted capture, the final round), and a hot-seat match through both games
with a reload in between.

Clicks follow the board the canvas publishes (``data-geometry``,
``data-position``) and the view's own ``cell_center``; the test reads each
position with the engine to choose its clicks, as a player reads the board.
"""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from saves import QUIET  # noqa: E402
from tessera.games.corners import Corners  # noqa: E402
from tessera.games.corners.geometry import CAPTURE_BASE, PASS, RECTANGLES, cell_name  # noqa: E402
from tessera.games.corners.rules import parse_cell  # noqa: E402
from tessera.games.corners.view import candidates, cell_center  # noqa: E402

BOARD = "canvas.tessera-board"


def click_cell(page: Page, name: str) -> None:
    geometry = json.loads(page.get_attribute(BOARD, "data-geometry"))
    box = page.locator(BOARD).bounding_box()
    x, y = cell_center(parse_cell(name), geometry["width"], geometry["height"], geometry["flipped"])
    page.mouse.click(box["x"] + x, box["y"] + y)


def shown_game(page: Page) -> Corners:
    return Corners(setup=page.get_attribute(BOARD, "data-position"))


def plies(page: Page) -> int:
    return page.eval_on_selector_all("button.move", "els => els.length")


def wait_plies(page: Page, count: int) -> None:
    page.wait_for_function(
        "n => !document.documentElement.dataset.bot && document.querySelectorAll('button.move').length >= n",
        arg=count, timeout=60_000)


def capture_by_clicks(page: Page, move: int) -> None:
    """Pick two opposite corners (a third when more rectangles fit them: the
    board then previews the one), then confirm on a corner."""
    corners = RECTANGLES[move - CAPTURE_BASE].corners
    game = shown_game(page)
    click_cell(page, cell_name(corners[0]))
    click_cell(page, cell_name(corners[2]))
    if len(candidates(game, (corners[0], corners[2]))) > 1:
        click_cell(page, cell_name(corners[1]))
    click_cell(page, cell_name(corners[0]))


def next_placement(game: Corners, target: tuple[int, ...]) -> int:
    """A free corner of the tilted target rectangle, else the first free cell."""
    for cell in target:
        if game.piece_at(cell) is None:
            return cell
    return next(m for m in game.legal_moves() if m < CAPTURE_BASE)


def test_a_whole_game_against_the_bot_by_clicking(page: Page, page_log, site_url: str, wait_ready) -> None:
    page.add_init_script(QUIET)
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=corners]")
    page.click("label[for='ng-opponent-botmedium'], label[for='ng-opponent-bot:medium']")
    page.click("label[for='ng-format-single']")
    page.click("label[for='ng-side-circles']")
    page.click("dialog button[data-action=start]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")

    tilted_done = final_seen = False
    target: tuple[int, ...] = ()
    for _ in range(80):
        game = shown_game(page)
        if game.is_over():
            break
        count = plies(page)
        tilted = [m for m in game.legal_moves() if CAPTURE_BASE <= m < PASS and RECTANGLES[m - CAPTURE_BASE].tilted]
        if game.final_left is not None:
            final_seen = True
            expect(page.locator("#play-status")).to_contain_text("Final round")
            if tilted or any(CAPTURE_BASE <= m < PASS for m in game.legal_moves()):
                capture_by_clicks(page, (tilted or [m for m in game.legal_moves() if m != PASS])[0])
            else:
                page.click("button[data-action=pass]")
        elif tilted and not tilted_done:
            capture_by_clicks(page, tilted[0])
            tilted_done = True
        else:
            if not target or any(game.piece_at(c) not in (None, (0, False), (0, True)) for c in target):
                free = [r for r in RECTANGLES if r.tilted
                        and all(game.piece_at(c) in (None, (0, False), (0, True)) for c in r.corners)]
                target = free[0].corners if free and not tilted_done else ()
            click_cell(page, cell_name(next_placement(game, target)))
        wait_plies(page, count + 1)
        page.wait_for_function("n => document.querySelectorAll('button.move').length >= n", arg=count + 1)
        if not shown_game(page).is_over():
            wait_plies(page, count + 2)
    game = shown_game(page)
    assert game.is_over(), game.position()
    assert tilted_done and final_seen
    texts = page.eval_on_selector_all("button.move .move-text", "els => els.map(e => e.textContent)")
    assert any(text.startswith("x") for text in texts)
    expect(page.locator("dialog.dialog-over")).to_be_visible()
    page.screenshot(path="/tmp/tessera-corners-bot-game.png")
    page_log.assert_no_errors()


def test_a_hot_seat_match_through_both_games(page: Page, page_log, site_url: str, wait_ready) -> None:
    page.add_init_script(QUIET)
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=corners]")
    page.click("label[for='ng-opponent-human']")
    page.click("dialog button[data-action=start]")
    expect(page.locator("dialog.dialog-toss")).to_be_visible()
    page.click("dialog button[data-throw=rock]")
    page.click("dialog button[data-throw=rock]")          # a tie: again
    expect(page.locator("dialog.dialog-toss .toss-text")).to_contain_text("again")
    page.click("dialog button[data-throw=paper]")
    page.click("dialog button[data-throw=rock]")          # player 1 wins the toss
    page.screenshot(path="/tmp/tessera-corners-toss.png")
    page.click("dialog button[data-action=start-match]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")
    expect(page.locator(".match-box")).to_contain_text("Game 1 of 2")
    expect(page.locator(".match-box .match-note")).to_contain_text("Player 1 starts")

    def fill_the_board(stop_before: int | None = None) -> None:
        for _ in range(70):
            game = shown_game(page)
            count = plies(page)
            if game.final_left is not None or (stop_before is not None and count >= stop_before):
                return
            click_cell(page, cell_name(next(m for m in game.legal_moves() if m < CAPTURE_BASE)))
            wait_plies(page, count + 1)

    fill_the_board()
    page.click("button[data-action=pass]")
    page.click("button[data-action=pass]")
    expect(page.locator("dialog.dialog-over .match-table")).to_be_visible()
    expect(page.locator("dialog.dialog-over [data-action=next-game]")).to_contain_text("game 2")
    page.screenshot(path="/tmp/tessera-corners-match-1.png")
    page.click("dialog.dialog-over [data-action=next-game]")
    page.wait_for_function("document.querySelector('.match-box') && "
                           "document.querySelector('.match-box')?.dataset.matchGame === '2'")
    expect(page.locator(".match-box .match-note")).to_contain_text("Player 2 starts")
    # The players keep their numbers while the seats swap: Player 2 has circles now.
    expect(page.locator(".player-panel:has(.swatch-circles) .player-who")).to_have_text("Player 2")

    fill_the_board(stop_before=10)
    page.reload()
    wait_ready(page)
    page.wait_for_function("document.querySelector('.match-box') && "
                           "document.querySelector('.match-box')?.dataset.matchGame === '2'")
    assert plies(page) == 10
    fill_the_board()
    page.click("button[data-action=pass]")
    page.click("button[data-action=pass]")
    verdict = page.locator("dialog.dialog-over .match-verdict")
    expect(verdict).to_be_visible()
    assert page.get_attribute("dialog.dialog-over .match-over", "data-match-over") == "yes"
    points = page.eval_on_selector_all("dialog.dialog-over .match-table .match-points",
                                       "els => els.map(e => e.textContent)")
    assert len(points) == 2
    page.screenshot(path="/tmp/tessera-corners-match-2.png")
    page_log.assert_no_errors()


def test_a_match_against_the_bot_starts_with_a_drawn_toss_and_keys_play(page: Page, page_log, site_url: str,
                                                                         wait_ready) -> None:
    """The toss against the bot is drawn by chance and shown as a round; the
    winner has circles in game 1.  Arrow keys and Enter place a piece."""
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=corners]")
    page.click("label[for='ng-opponent-botmedium'], label[for='ng-opponent-bot:medium']")
    page.click("dialog button[data-action=start]")
    start = page.locator("dialog button[data-action=start-match]")
    expect(start).to_be_visible(timeout=10_000)
    winner = page.get_attribute("dialog.dialog-toss", "data-toss-winner")
    you_start = winner == "0"
    # The person is "You", with the verb to match: not "You wins".
    expect(page.locator("dialog.dialog-toss .toss-text")).to_contain_text(
        "You win the toss and start game 1 as Circles." if you_start
        else "Bot · Medium wins the toss and starts game 1 as Circles.")
    start.click()
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")
    expect(page.locator(".match-box")).to_contain_text("Game 1 of 2")
    expect(page.locator(".match-box .match-note")).to_have_text(
        "You start this game." if you_start else "Bot · Medium starts this game.")
    expect(page.locator(".player-panel:has(.swatch-circles) .player-who")).to_have_text(
        "You" if you_start else "Bot · Medium")
    if not you_start:
        wait_plies(page, 1)
    count = plies(page)
    page.focus(BOARD)
    game = shown_game(page)
    taken = [cell for cell in range(64) if game.piece_at(cell) is not None]
    start = taken[0] if taken else parse_cell("d4")   # the cursor starts on the last move, else d4
    flipped = json.loads(page.get_attribute(BOARD, "data-geometry"))["flipped"]
    top_row = (start // 8 if flipped else 7 - start // 8) == 0
    step = "ArrowDown" if top_row else "ArrowUp"       # to an empty neighbour on the screen
    page.keyboard.press("ArrowUp")      # the cursor appears
    page.keyboard.press(step)
    page.keyboard.press("Enter")
    wait_plies(page, count + 1)
    assert shown_game(page).pieces[0 if you_start else 1].bit_count() >= 1
    page_log.assert_no_errors()
