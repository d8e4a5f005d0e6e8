"""Hints drawn on the board in every two-player game, a Corners capture by
two opposite corners (and through the list of captures, with the tip the
first time), and each game's own keyboard help for screen readers."""

from __future__ import annotations

import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from saves import storage_script  # noqa: E402
from test_app_corners import click_cell  # noqa: E402

BOARD = "canvas.tessera-board"
GREEN_PIXELS = """() => {
    const canvas = document.querySelector('canvas.tessera-board');
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
        if (g > 90 && g - r > 55 && g - b > 25 && r < 120) count++;
    }
    return count;
}"""
"""Pixels of the hint's green (and of anything as green: counted before and after)."""
QUIET = storage_script({"tessera/v1/settings/animation": "off", "tessera/v1/settings/sound": "off",
                        "tessera/v1/settings/theme": "light"})


def hot_seat(page: Page, site_url: str, wait_ready, game: str) -> None:
    page.add_init_script(QUIET)
    page.goto(site_url)
    wait_ready(page)
    page.click(f"button[data-action=new-game][data-game={game}]")
    page.click("label[for='ng-opponent-human']")
    if page.locator("label[for='ng-format-single']").count():
        page.click("label[for='ng-format-single']")
    page.click("dialog button[data-action=start]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")


@pytest.mark.parametrize("game", ["quadrature", "dots", "corners", "quadrotone"])
def test_a_hint_is_drawn_on_the_board(page: Page, page_log, site_url: str, wait_ready, game: str) -> None:
    hot_seat(page, site_url, wait_ready, game)
    before = page.evaluate(GREEN_PIXELS)
    page.click("button[data-action=hint]")
    expect(page.locator("[data-hint=note]")).to_contain_text("Hint:", timeout=30_000)
    page.wait_for_timeout(300)
    after = page.evaluate(GREEN_PIXELS)
    assert after > before + 40, (game, before, after)
    page.screenshot(path=f"/tmp/tessera-hint-{game}.png")
    page_log.assert_no_errors()


def test_a_corners_capture_by_two_opposite_corners(page: Page, page_log, site_url: str, wait_ready) -> None:
    """The tip shows the first time; circles build a1 c1 c3 a3; two taps on
    opposite corners preview the square, a third on any corner captures; ]
    shows the captures one by one; the tip does not come back."""
    hot_seat(page, site_url, wait_ready, "corners")
    tip = page.locator("[data-tip=corners]")
    expect(tip).to_contain_text("two opposite corners")
    for name in ("a1", "h8", "c1", "h7", "c3", "h6", "a3", "h5"):
        count = page.locator("button.move").count()
        click_cell(page, name)
        if page.locator("[data-action=confirm]").count():
            page.click("[data-action=confirm]")
        page.wait_for_function("n => document.querySelectorAll('button.move').length > n", arg=count)
    note = page.locator("[data-draft=note]")
    expect(note).to_contain_text("You can make 1 capture")
    page.focus(BOARD)
    page.keyboard.press("]")
    expect(note).to_contain_text("Capture 1 of 1: a1–c1–c3–a3, paints 4 corners, fills 5 cells")
    page.keyboard.press("Escape")
    click_cell(page, "a1")
    click_cell(page, "c3")
    expect(note).to_contain_text("paints 4 corners")
    click_cell(page, "c1")
    page.wait_for_function("() => [...document.querySelectorAll('button.move .move-text')]"
                           ".some(node => node.textContent === 'xa1c1c3a3')")
    page.locator("[data-tip=corners] button").click()
    expect(tip).to_have_count(0)
    page.reload()
    wait_ready(page)
    page.wait_for_selector(BOARD)
    expect(page.locator("[data-tip=corners]")).to_have_count(0)
    page_log.assert_no_errors()


@pytest.mark.parametrize("game, words", [("quadrature", "checker"), ("dots", "dot"), ("corners", "capture"),
                                         ("quadrotone", "chip")])
def test_each_game_has_its_own_keyboard_help(page: Page, site_url: str, wait_ready, game: str, words: str) -> None:
    hot_seat(page, site_url, wait_ready, game)
    help_text = page.evaluate(f"document.getElementById(document.querySelector('{BOARD}')"
                              ".getAttribute('aria-describedby')).textContent")
    assert words in help_text, help_text
