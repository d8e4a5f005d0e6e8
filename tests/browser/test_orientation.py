"""Every text about sides and directions is true in the orientation the board is drawn in.

The new-game hint says where the player's side is; the board must draw it
there (read from the canvas pixels), whichever side the player takes.  The
rules page says from whose side its diagrams are seen, and says the other
side after "Turn the diagrams round".  English and Russian.
"""

from __future__ import annotations

import re
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from board_display import BOARD, geometry, lightness, pixel, shot, square_xy, wait_board  # noqa: E402
from conftest import emulate, wait_ready  # noqa: E402

WORDS = {
    # lang: (words the hint must hold, words no orientation text may use)
    "en": (("nearest to you",), ("top", "bottom")),
    "ru": (("с вашей стороны",), ("сверху", "снизу", "вверх", "вниз")),
}


def uses_any(text: str, words: tuple[str, ...]) -> bool:
    return any(re.search(rf"\b{word}\b", text.lower()) for word in words)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_new_game_hint_matches_the_board_for_either_side(page: Page, site_url: str, lang: str) -> None:
    must, never = WORDS[lang]
    emulate(page, viewport={"width": 1280, "height": 900}, locale="ru-RU" if lang == "ru" else "en-US")
    for side, white_near in (("white", True), ("black", False)):
        page.goto(site_url)
        wait_ready(page)
        page.click("button[data-action=new-game][data-game=quadrature]")
        hint = page.text_content("dialog[open] fieldset[data-name=first] + .dialog-hint")
        assert all(word in hint.lower() for word in must), hint
        assert not uses_any(hint, never), hint
        page.click("label[for='ng-opponent-bot:easy']")
        page.click(f"label[for='ng-side-{side}']")
        shot(page, f"orientation-dialog-{lang}-{side}")
        page.click("dialog[open] button[data-action=start]")
        wait_board(page)
        # Your side nearest to you: White near when you play White, far when you play Black.
        if side == "black":   # the bot (White) moves first: wait for its move, then look at the rows it kept
            page.wait_for_function("document.querySelectorAll('button.move').length >= 1", timeout=60_000)
        white_row_is_near_except_moved(page, white_near)
        shot(page, f"orientation-board-{lang}-{side}")


def white_row_is_near_except_moved(page, near: bool) -> None:
    """As ``white_row_is_near``, on the rows' checkers still at home after the first move."""
    from tessera.games.quadrature import Quadrature
    from tessera.games.quadrature.rules import parse_square
    game = Quadrature(setup=page.get_attribute(BOARD, "data-position"))
    g = geometry(page)
    for name, white in (("b9", True), ("e9", True), ("j9", True), ("b3", False), ("e3", False), ("j3", False)):
        if game.piece_at(parse_square(name)) != (0 if white else 1):
            continue
        x, y = square_xy(page, name)
        assert (y > g["height"] / 2) is (near if white else not near), (name, y, g)
        if white:
            assert lightness(pixel(page, x, y)) > 12, name
        else:
            assert lightness(pixel(page, x, y)) < 3, name


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_rules_page_says_from_whose_side_the_diagrams_are_seen(page: Page, site_url: str,
                                                                 lang: str) -> None:
    emulate(page, viewport={"width": 1280, "height": 900}, locale="ru-RU" if lang == "ru" else "en-US")
    page.goto(site_url + "#/rules/quadrature")
    wait_ready(page)
    diagram = ".rules-example[data-example=basic_move] canvas"
    wait_board(page, diagram)
    view = page.text_content(".rules-view")
    black, white = ("as Black sees it", "as White sees it") if lang == "en" else \
        ("как её видят чёрные", "как её видят белые")
    assert black in view
    board_text = page.text_content(".rules-section[data-section=board] > p")
    assert not uses_any(board_text, WORDS[lang][1]), board_text
    # Black's view: White's row 9 far (upper half), Black's row 3 near.
    g = geometry(page, diagram)
    assert g["flipped"] is True
    x, y = square_xy(page, "e9", diagram)
    assert y < g["height"] / 2 and lightness(pixel(page, x, y, diagram)) > 8
    x, y = square_xy(page, "a1", diagram)
    assert x < g["width"] / 2 and y > g["height"] / 2     # a1: left, near, as the text says
    shot(page, f"orientation-rules-{lang}-black")
    page.click("[data-action=turn]")
    page.wait_for_function("canvas => JSON.parse(canvas.dataset.geometry).flipped === false",
                           arg=page.query_selector(diagram))
    assert white in page.text_content(".rules-view")
    g = geometry(page, diagram)
    x, y = square_xy(page, "e9", diagram)
    assert y > g["height"] / 2 and lightness(pixel(page, x, y, diagram)) > 8
    x, y = square_xy(page, "a1", diagram)
    assert x > g["width"] / 2 and y < g["height"] / 2     # a1: right, far
    shot(page, f"orientation-rules-{lang}-white")
