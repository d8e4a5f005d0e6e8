"""The settings menu, themes, coordinates, colour-blind shapes, and what the canvas really shows.

* The gear in the header opens one menu; touch confirmation is offered only
  on touch screens; every choice is stored and survives a reload.
* The theme follows the system by default and can be forced; the board is
  drawn with its palette (read back from the canvas pixels).
* The marks a player must see reach WCAG's 3:1 against the board as drawn:
  the contrast is measured on the canvas, in both themes.
* The 20x20 Dots game fits above the fold at 1366x800.
"""

from __future__ import annotations

import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from board_display import (BOARD, close_to, geometry, hex_colour, new_game, pixel, shot,  # noqa: E402
                           square_xy, wait_board)
from conftest import emulate, wait_ready  # noqa: E402
from tessera.core.contrast import ratio  # noqa: E402
from tessera.games.dots import view as dots_view  # noqa: E402
from tessera.games.quadrature import view as quadrature_view  # noqa: E402


def open_settings(page: Page) -> None:
    page.click("#settings-button")
    page.wait_for_selector("dialog[open] .settings-form")


def close_dialog(page: Page) -> None:
    page.click("dialog[open] [data-action=close]")
    page.wait_for_selector("dialog[open]", state="detached")


def board_ground(page: Page) -> tuple[int, int, int]:
    """A pixel of the board plate between two points (no line, no label)."""
    x1, y1 = square_xy(page, "f6")
    x2, y2 = square_xy(page, "g5")
    return pixel(page, (x1 + x2) / 2, (y1 + y2) / 2)


def test_settings_menu_on_a_desktop(page: Page, site_url: str, wait_ready) -> None:
    page.goto(site_url)
    wait_ready(page)
    assert page.get_attribute("#settings-button", "aria-label") == "Settings"
    open_settings(page)
    for name in ("setting-theme-auto", "setting-theme-light", "setting-theme-dark",
                 "setting-coordinates", "setting-shapes"):
        assert page.is_visible(f"label[for='{name}']"), name
    assert page.query_selector("#setting-confirm-touch") is None       # no touch screen here
    assert page.is_checked("#setting-theme-auto")
    shot(page, "settings-desktop-en")
    close_dialog(page)
    assert page.evaluate("document.activeElement.id") == "settings-button"


def test_theme_follows_the_system_and_can_be_forced(page: Page, site_url: str) -> None:
    emulate(page, viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page.goto(site_url)
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    new_game(page, "quadrature")
    assert close_to(board_ground(page), quadrature_view.DARK.board)
    shot(page, "theme-dark-system-en")
    page.emulate_media(color_scheme="light")                  # the system changes: the board follows
    page.wait_for_function("document.documentElement.dataset.theme === 'light'")
    page.wait_for_function("s => document.querySelector(s)?.dataset.draws > 1", arg=BOARD)
    assert close_to(board_ground(page), quadrature_view.LIGHT.board)
    open_settings(page)
    page.click("label[for='setting-theme-dark']")             # forced dark, whatever the system says
    close_dialog(page)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert close_to(board_ground(page), quadrature_view.DARK.board)
    page.reload()
    wait_ready(page)
    wait_board(page)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert close_to(board_ground(page), quadrature_view.DARK.board)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(21, 23, 27)"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_marks_on_the_canvas_reach_three_to_one(page: Page, site_url: str, theme: str) -> None:
    """The last move's outline, a selected checker's ring and its targets, as
    drawn, against the board pixels next to them."""
    emulate(page, viewport={"width": 1280, "height": 900}, color_scheme=theme)
    page.goto(site_url)
    wait_ready(page)
    new_game(page, "quadrature")
    page.fill("#move-input", "e9-e8")
    page.press("#move-input", "Enter")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    page.wait_for_timeout(900)            # past any move animation
    palette = quadrature_view.PALETTES[theme]
    ground = board_ground(page)
    assert close_to(ground, palette.board)
    s = geometry(page)["spacing"]
    outline = max(1.5, 0.06 * s)
    x, y = square_xy(page, "e9")           # the emptied point: its outline's left edge, mid-height
    edge = pixel(page, x - 0.48 * s + outline / 2, y + 0.25 * s)
    assert ratio(hex_colour(edge), hex_colour(ground)) >= 3.0, (edge, ground)
    # Black selects d3: a ring round it, dots on its targets.
    x, y = square_xy(page, "d3")
    box = page.locator(BOARD).bounding_box()
    page.mouse.click(box["x"] + x, box["y"] + y)
    ring_width = max(1.5, 0.08 * s)
    radius = quadrature_view.CHECKER_RADIUS * s + ring_width * 0.9
    ring = pixel(page, x, y - radius)
    assert ratio(hex_colour(ring), hex_colour(ground)) >= 3.0, (ring, ground)
    tx, ty = square_xy(page, "d4")
    target = pixel(page, tx, ty)
    assert ratio(hex_colour(target), hex_colour(ground)) >= 3.0, (target, ground)
    shot(page, f"contrast-quadrature-{theme}")
    # Dots: the grid line between two points, and each side's dot.
    page.goto(site_url + "#/")
    new_game(page, "dots", options={"size": "20x20"})
    g = geometry(page)
    paper = dots_view.PALETTES[theme].paper
    sp = g["spacing"]
    line = pixel(page, g["x"] + 2 * sp, g["y"] + 2.5 * sp)
    cell = pixel(page, g["x"] + 2.5 * sp, g["y"] + 2.5 * sp)
    assert close_to(cell, paper)
    assert ratio(hex_colour(line), paper) >= 2.6, line     # a thin line, anti-aliased: near 3:1
    for x, y in ((10, 10), (11, 10)):                        # the start cross: one of each side
        dot = pixel(page, g["x"] + (x - 1) * sp, g["y"] + (20 - y) * sp)
        assert ratio(hex_colour(dot), paper) >= 3.0, dot
    shot(page, f"contrast-dots-{theme}")


def test_coordinates_and_shapes_settings(page: Page, site_url: str) -> None:
    emulate(page, device_scale_factor=2)
    page.goto(site_url)
    wait_ready(page)
    new_game(page, "dots", options={"size": "20x20"})
    coordinates_and_shapes(page)


def coordinates_and_shapes(page: Page) -> None:
    g = geometry(page)
    sp = g["spacing"]
    palette = dots_view.LIGHT
    radius = dots_view.DOT_RADIUS * sp

    def label_pixels() -> int:
        """Pixels of the number 1 under the field's first column."""
        found = 0
        for dx in range(-4, 5):
            for dy in range(-3, 4):
                rgb = pixel(page, g["x"] + dx, g["y"] + 19 * sp + 0.62 * sp + dy)
                found += not close_to(rgb, palette.paper, 30)
        return found

    def beyond_the_circle(x: float, y: float) -> int:
        """Red pixels on the diagonal just outside a round dot's edge (and
        inside a square one's corner, which reaches 1.22 radii)."""
        steps = (1.04, 1.08, 1.12)
        return sum(close_to(pixel(page, x + d * radius / 2 ** 0.5, y + d * radius / 2 ** 0.5), palette.red, 40)
                   for d in steps)

    assert label_pixels() > 0
    centres = [(g["x"] + (x - 1) * sp, g["y"] + (20 - y) * sp) for x, y in ((10, 10), (11, 10), (10, 11), (11, 11))]
    red = [c for c in centres if close_to(pixel(page, *c), palette.red, 12)]
    assert len(red) == 2                                           # the start cross: two red dots
    assert all(beyond_the_circle(*c) == 0 for c in red)            # round
    open_settings(page)
    page.click("label[for='setting-coordinates']")
    page.click("label[for='setting-shapes']")
    close_dialog(page)
    assert label_pixels() == 0
    assert all(beyond_the_circle(*c) == 3 for c in red)            # square
    assert page.evaluate("document.documentElement.dataset.shapes") == "on"
    assert page.evaluate("getComputedStyle(document.querySelector('.swatch-red')).borderRadius") == "3px"
    shot(page, "settings-dots-shapes-no-coordinates")
    page.reload()
    wait_ready(page)
    wait_board(page)
    assert label_pixels() == 0                                     # stored
    assert all(beyond_the_circle(*c) == 3 for c in red)


def test_quadrature_panel_numbers_are_explained(page: Page, site_url: str, wait_ready) -> None:
    page.goto(site_url)
    wait_ready(page)
    new_game(page, "quadrature")
    for kind in ("checkers", "reserve", "marker"):
        assert page.get_attribute(f".player-bottom .stat-{kind}", "title")
    page.click("details.stats-legend summary")
    text = page.text_content("details.stats-legend")
    assert "two or fewer" in text and "sideways" in text


def test_dots_20x20_fits_above_the_fold_at_1366x800(page: Page, site_url: str) -> None:
    emulate(page, viewport={"width": 1366, "height": 800})
    page.goto(site_url)
    wait_ready(page)
    new_game(page, "dots", options={"size": "20x20"})
    page.wait_for_timeout(300)
    bottom = page.locator(".player-bottom").bounding_box()
    toolbar = page.locator(".board-toolbar").bounding_box()
    assert bottom["y"] + bottom["height"] <= 800 and toolbar["y"] + toolbar["height"] <= 800
    shot(page, "dots-20x20-1366x800")
