"""The move list in blocks of 50 rows (``ui/play/move_list.py``): a move that starts a
block adds one, an undo takes it away, an old move clicked is marked and brought
into sight, and a screen reader still finds one list of rows."""

from __future__ import annotations

import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402
from saves import QUIET, long_dots_save, save_script  # noqa: E402
from test_hardening import click_point, move_count  # noqa: E402

from tessera.games.dots import Dots  # noqa: E402

BOARD = "canvas.tessera-board"
LIST = ".move-list"


def blocks(page: Page) -> list[int]:
    """Rows in each block, in order."""
    return page.eval_on_selector_all(f"{LIST} > div.move-block", "els => els.map(b => b.querySelectorAll('li.move-row').length)")


def open_save(page: Page, site_url: str, plies: int, name: str) -> None:
    route, script = save_script(long_dots_save(plies, name))
    page.add_init_script(QUIET)
    page.add_init_script(script)
    page.goto(site_url + route)
    page.wait_for_selector(f"{BOARD}[data-draws]")
    page.wait_for_function(f"document.querySelectorAll('button.move').length === {plies}")


def test_a_move_that_starts_a_block_adds_one_and_undo_takes_it_away(page: Page, page_log, site_url: str) -> None:
    open_save(page, site_url, 100, "blocks100")
    assert blocks(page) == [50]
    moves = page.get_by_role("list", name="Moves")
    assert moves.count() == 1 and moves.get_by_role("listitem").count() == 50   # the blocks are not items
    game = Dots(setup=page.get_attribute(BOARD, "data-position"))
    x, y = game.xy(game.placements()[len(game.placements()) // 2])
    click_point(page, x, y)
    page.wait_for_function("document.querySelectorAll('button.move').length === 101")
    assert blocks(page) == [50, 1]
    assert page.text_content(f"{LIST} > div.move-block:last-child .move-number") == "51."
    assert page.text_content(f"{LIST} button.move[data-ply='101'] .move-text") == f"{x}-{y}"
    assert moves.get_by_role("listitem").count() == 51
    page.click("button[data-action=undo]")
    page.wait_for_function("document.querySelectorAll('button.move').length === 100")
    assert blocks(page) == [50]
    assert page.text_content(f"{LIST} > div.move-block:last-child .move-row:last-child .move-number") == "50."
    assert not page_log.page_errors


def test_an_old_move_clicked_is_marked_and_brought_into_sight(page: Page, page_log, site_url: str) -> None:
    open_save(page, site_url, 1000, "blocks1000")
    assert blocks(page) == [50] * 10
    numbers = page.eval_on_selector_all(f"{LIST} .move-number", "els => els.map(e => e.textContent)")
    assert numbers == [f"{n}." for n in range(1, 501)]
    in_sight = """ply => {
      const box = document.querySelector('.moves-scroll').getBoundingClientRect();
      const button = document.querySelector(`button.move[data-ply="${ply}"]`).getBoundingClientRect();
      return button.top >= box.top && button.bottom <= box.bottom;
    }"""
    page.wait_for_function(in_sight, arg=1000)   # scrolled at the frame after the last slice
    assert not page.evaluate(in_sight, 151)
    # Scroll the list to its start, then click move 151 (block 2, row 76).
    page.eval_on_selector(".moves-scroll", "box => { box.scrollTop = 0; }")
    page.wait_for_function(in_sight, arg=1)
    page.eval_on_selector(f"{LIST} button.move[data-ply='151']", "b => b.scrollIntoView({block: 'center'})")
    page.click(f"{LIST} button.move[data-ply='151']")
    page.wait_for_selector(f"{LIST} button.move[data-ply='151'][aria-current=step]")
    assert move_count(page) == 1000 and page.locator("[aria-current=step]").count() == 1
    # The step buttons move the mark across a block's edge, and keep it in sight.
    for _ in range(2):
        page.click("button[data-nav=prev]")
    page.wait_for_selector(f"{LIST} button.move[data-ply='149'][aria-current=step]")
    page.click("button[data-nav=first]")
    page.click("button[data-nav=next]")
    page.wait_for_selector(f"{LIST} button.move[data-ply='1'][aria-current=step]")
    page.wait_for_function(in_sight, arg=1)
    page.screenshot(path="/tmp/tessera-move-list-start.png")
    page.click("button[data-nav=last]")
    page.wait_for_function(in_sight, arg=1000)
    assert page.locator(f"{LIST} button.move[data-ply='1'][aria-current=step]").count() == 0
    assert not page_log.page_errors
