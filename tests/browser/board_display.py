"""Helpers for the display tests: start games, read a board's pixels and geometry.

Positions come from the geometry the canvas publishes (``data-geometry``)
and the views' own functions, so a test reads the pixel where the view says
a point is; colours are compared with the palettes and the WCAG formula of
``tessera.core.contrast``.
"""

from __future__ import annotations

import json

from playwright.sync_api import Page

from tessera.core.contrast import ratio
from tessera.games.quadrature.rules import parse_square
from tessera.games.quadrature.view import square_center

BOARD = "canvas.tessera-board"
SHOTS = "/tmp/tessera-display-shots"
"""Where the display tests leave their screenshots for a person to look at."""


def shot(page: Page, name: str) -> None:
    import os
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png")


def new_game(page: Page, game: str, opponent: str = "human", side: str | None = None,
             options: dict[str, str] | None = None) -> None:
    """Open the new-game dialog from the home screen and start with these choices."""
    page.click(f"button[data-action=new-game][data-game={game}]")
    page.wait_for_selector("dialog[open]")
    page.click(f"label[for='ng-opponent-{opponent}']")
    if side is not None:
        page.click(f"label[for='ng-side-{side}']")
    for key, value in (options or {}).items():
        page.click(f"label[for='ng-{key}-{value}']")
    page.click("dialog[open] button[data-action=start]")
    wait_board(page)


def wait_board(page: Page, selector: str = BOARD) -> None:
    """Wait until the canvas ``selector`` (which may be inside a ``<tessera-board>``'s
    shadow root: Playwright's selectors reach into open ones) has its geometry."""
    canvas = page.wait_for_selector(selector)
    page.wait_for_function("canvas => canvas.isConnected && canvas.dataset.geometry", arg=canvas)


def geometry(page: Page, selector: str = BOARD) -> dict:
    return json.loads(page.get_attribute(selector, "data-geometry"))


def square_xy(page: Page, name: str, selector: str = BOARD) -> tuple[float, float]:
    """CSS pixel of a Quadrature point inside the canvas ``selector``."""
    g = geometry(page, selector)
    return square_center(parse_square(name), g["width"], g["height"], g["flipped"])


def pixel(page: Page, x: float, y: float, selector: str = BOARD, index: int = 0) -> tuple[int, int, int]:
    """The canvas pixel (r, g, b) at CSS pixel (x, y) of the ``index``-th canvas matching ``selector``."""
    return tuple(page.locator(selector).nth(index).evaluate(
        """(canvas, [x, y]) => {
            const scale = canvas.width / canvas.getBoundingClientRect().width;
            const d = canvas.getContext('2d').getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data;
            return [d[0], d[1], d[2]];
        }""", [x, y]))


def hex_colour(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def close_to(rgb: tuple[int, int, int], colour: str, tolerance: int = 6) -> bool:
    want = int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
    return all(abs(a - b) <= tolerance for a, b in zip(rgb, want))


def lightness(rgb: tuple[int, int, int]) -> float:
    """Contrast of the pixel against black: big for light pixels."""
    return ratio(hex_colour(rgb), "#000000")


def live_text(page: Page) -> str:
    """What the board last said to screen readers."""
    return page.text_content(".board-live") or ""
