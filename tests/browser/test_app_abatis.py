"""Abatis in a real browser: levels played by clicking queue chips in each
mode, undo back to the level start, reload and resume, the Hint button,
Stop with the high-score table, and a corrupt table put aside.

Clicks follow the board the canvas publishes (``data-geometry``,
``data-position``) and the view's own ``place_center``; the test reads each
position with the engine and lets the hint search choose, as a player
would read the board and think.
"""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from saves import QUIET, caught_up_save, save_script, storage_script  # noqa: E402
from tessera.core.session import Seat, Session  # noqa: E402
from tessera.games.abatis import Abatis  # noqa: E402
from tessera.games.abatis.hint import AbatisHintBot  # noqa: E402
from tessera.games.abatis.rules import KNOCKOUT_FLAG  # noqa: E402
from tessera.games.abatis.view import place_center  # noqa: E402

BOARD = "canvas.tessera-board"


def shown_game(page: Page, mode: str) -> Abatis:
    return Abatis({"mode": mode}, setup=page.get_attribute(BOARD, "data-position"))


def saved_game(page: Page) -> Abatis:
    """The page's game as its save holds it: its seed too, so the chips to
    come are the page's.  The page's Hint reads the game so; one read from
    the position string draws other chips, and on some layouts the hint then
    shuffles the same chips to and fro without end."""
    return Session.from_save(caught_up_save(page)).game


def plies(page: Page) -> int:
    return page.eval_on_selector_all("button.move", "els => els.length")


def click_move(page: Page, move: int) -> None:
    """Click the queue chip that plays ``move`` (the outer chip for a Mixed ``*`` move)."""
    geometry = json.loads(page.get_attribute(BOARD, "data-geometry"))
    box = page.locator(BOARD).bounding_box()
    side, lane = divmod(move % KNOCKOUT_FLAG, 8)
    x, y = place_center((side, lane, 1 if move >= KNOCKOUT_FLAG else 0), geometry["width"], geometry["height"])
    before = plies(page)
    page.mouse.click(box["x"] + x, box["y"] + y)
    page.wait_for_function("n => document.querySelectorAll('button.move').length > n", arg=before, timeout=20_000)


def panel_value(page: Page, kind: str) -> str:
    return page.inner_text(f".player-bottom .stat-{kind} dd")


def start_game(page: Page, site_url: str, wait_ready, mode: str) -> None:
    page.add_init_script(QUIET)
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=abatis]")
    expect(page.locator("dialog[open] fieldset[data-name=opponent]")).to_have_count(0)   # no opponent to pick
    page.click(f"label[for='ng-mode-{mode}']")
    page.click("dialog button[data-action=start]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")


MOVES_TO_CLEAR = 300
"""The hint clears level 1 in 20-85 moves on most layouts (100 seeded Mixed
games in CPython; 400 seeded Knockout games each took fewer than 100); the
page's seed is its own, so the cap leaves room for a slow layout rather
than fail on one."""


@pytest.mark.parametrize("mode", ["knockout", "mixed"])
def test_a_level_played_by_clicking(page: Page, page_log, site_url: str, wait_ready, mode: str) -> None:
    start_game(page, site_url, wait_ready, mode)
    expect(page.locator(".player-top")).to_be_hidden()
    expect(page.locator("button[data-action=draw]")).to_be_hidden()
    expect(page.locator("button[data-action=resign]")).to_have_text("Stop the game")
    thinker = AbatisHintBot(1, 0)
    starred = 0
    for _ in range(MOVES_TO_CLEAR):
        game = saved_game(page)
        assert game.position() == shown_game(page, mode).position()
        assert panel_value(page, "score") == str(game.score)
        if page.inner_text(".player-bottom .stat-level dd") == "2":
            break
        move = thinker.choose(game)
        starred += move >= KNOCKOUT_FLAG
        expected = game.copy()
        expected.push(move)
        click_move(page, move)
        assert page.get_attribute(BOARD, "data-position") == expected.position()
    else:
        raise AssertionError(f"level 1 not cleared in {MOVES_TO_CLEAR} moves")
    assert mode != "mixed" or starred, "the hint never chose a Knockout move in Mixed"
    status = page.inner_text("#play-status")
    assert "Level 2" in status and "0 of 64 blocks" in status
    assert int(panel_value(page, "score")) > 0
    page_log.assert_no_errors()


def classic_near_the_end() -> Session:
    """Level 1 of a Classic game with three chips left: d1 and d2 red; the
    N queue's inner chip of lane d is red, so Nd clears the board."""
    game = Abatis({"mode": "classic"}, seed=4)
    picture = game.position().split()[0].split("/")
    rows = []
    for index, row in enumerate(picture):
        cells = [row[i:i + 2] for i in range(0, 24, 2)]
        if 2 <= index <= 9:
            for col in range(8):
                cells[2 + col] = ".."
        if index == 1:
            cells[2 + 3] = "R."
        if index == 9:   # board row 1
            cells[2 + 3] = "R."
        if index == 8:   # board row 2
            cells[2 + 3] = "R."
        rows.append("".join(cells))
    setup = "/".join(rows) + " GBY 10 40 classic"
    session = Session(Abatis({"mode": "classic"}, seed=4, setup=setup), [Seat("human")], "abatisclassic1")
    return session


def test_classic_clears_the_board_and_a_reload_resumes(page: Page, page_log, site_url: str, wait_ready) -> None:
    session = classic_near_the_end()
    save = session.to_save()
    hash_, script = save_script(save)
    page.add_init_script(QUIET)
    page.add_init_script(script)
    page.goto(site_url + hash_)
    wait_ready(page)
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")
    assert panel_value(page, "score") == "40"
    click_move(page, 3)   # Nd: the red chip stops on d3, red d1-d3 is a block, the board is clear
    assert panel_value(page, "score") == str(40 + 1 + 32)
    assert page.inner_text(".player-bottom .stat-level dd") == "2"
    expect(page.locator("button.move .move-conv")).to_have_text("+33")
    expect(page.locator("button[data-action=undo]")).to_be_disabled()   # a new level: nothing to take back
    for _ in range(3):
        game = shown_game(page, "classic")
        click_move(page, AbatisHintBot(2, 0).choose(game))
    position = page.get_attribute(BOARD, "data-position")
    page.reload()
    wait_ready(page)
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")
    assert page.get_attribute(BOARD, "data-position") == position and plies(page) == 4
    # Undo goes back move by move to the start of level 2, and no further.
    for expected in (3, 2, 1):
        page.click("button[data-action=undo]")
        page.wait_for_function("n => document.querySelectorAll('button.move').length === n", arg=expected)
    expect(page.locator("button[data-action=undo]")).to_be_disabled()
    assert page.inner_text(".player-bottom .stat-level dd") == "2"
    page_log.assert_no_errors()


def test_hint_then_stop_enters_the_high_scores(page: Page, page_log, site_url: str, wait_ready) -> None:
    start_game(page, site_url, wait_ready, "classic")
    page.click("button[data-action=hint]")
    note = page.locator("[data-hint=note]")
    expect(note).to_contain_text("Hint: ", timeout=20_000)
    hinted = note.inner_text().split("Hint: ")[1].strip()
    game = shown_game(page, "classic")
    move = game.parse_move(hinted)
    assert move in game.legal_moves()
    click_move(page, move)
    expect(page.locator("button.move .move-text").last).to_have_text(hinted)   # not innerText: see test_app_quadrotone
    expect(note).to_be_hidden()
    # The statistics behind the panel.
    page.click(".player-bottom[data-action=details]")
    expect(page.locator("dialog[open].dialog-details")).to_contain_text("Moves")
    page.click("dialog[open] button.btn-primary")
    # Stop: the game ends with its score and enters the table under a name the player can change.
    page.click("button[data-action=resign]")
    page.click("dialog[open] button.btn-danger")
    over = page.locator("dialog[open].dialog-over")
    expect(over).to_contain_text("Game over")
    expect(over.locator(".high-score.is-new")).to_have_count(1)
    field = over.locator("input[data-action=score-name]")
    field.fill("Ann")
    field.press("Enter")
    field.blur()
    stored = page.evaluate("() => localStorage.getItem('tessera/v1/scores/abatis/classic-5-8-5')")
    assert json.loads(stored)["entries"][0]["name"] == "Ann"
    page.screenshot(path="/tmp/shots/a_over.png")
    page.click("dialog[open] button:has-text('All games')")
    page.click("button[data-action=high-scores][data-game=abatis]")
    expect(page.locator("dialog[open].dialog-scores")).to_contain_text("Ann")
    page_log.assert_no_errors()


def test_a_corrupt_table_is_put_aside(page: Page, page_log, site_url: str, wait_ready) -> None:
    page.add_init_script(storage_script({"tessera/v1/scores/abatis/classic-5-8-5": '{"version": 1, "entries": ['
                                         + "[" * 5000 + "]" * 5000 + "]}"}))
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=high-scores][data-game=abatis]")
    expect(page.locator(".notice-warning")).to_contain_text("high-score table could not be read")
    expect(page.locator("dialog[open].dialog-scores")).to_contain_text("No results yet")
    kept = page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('tessera/v1/corrupt/scores/'))")
    assert len(kept) == 1
