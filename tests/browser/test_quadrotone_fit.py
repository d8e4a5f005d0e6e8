"""Quadrotone's board fits the screens people use (a play-test found it
did not): at 1280 x 800 and 1366 x 768 the whole field, the hand, both
player panels and the buttons under the board are on screen with no
scrolling, and the hand's chips are 28 px or more; on a 390 x 844 phone
the sheet's chips are 44 px or more; names and bot levels are never cut;
the status says that the rules drew who starts; a draw may be offered once
per 10 minutes and the button says when.  Screenshots of each size, in
English and Russian, are left in ``board_display.SHOTS``."""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from board_display import shot  # noqa: E402
from conftest import emulate, tap  # noqa: E402
from saves import storage_script  # noqa: E402
from tessera.games.quadrotone.layout import BESIDE, layout, strip_center  # noqa: E402
from tessera.games.quadrotone.tray import SHEET_GAP, sheet_layout  # noqa: E402

BOARD = "canvas.tessera-board"
TRAY_DRAWN = 0.88
"""The part of its place a tray chip fills (``view._draw_tray``)."""


def open_game(page: Page, site_url: str, wait_ready, width: int, height: int, lang: str, phone: bool = False,
              opponent: str = "bot:medium") -> Page:
    emulate(page, viewport={"width": width, "height": height}, locale=lang, mobile=phone, touch=phone)
    page.add_init_script(storage_script({"tessera/v1/settings/animation": "off", "tessera/v1/settings/sound": "off",
                                         "tessera/v1/settings/lang": lang}))
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrotone]")
    page.click(f"label[for='ng-opponent-{opponent}']")
    page.click("dialog button[data-action=start]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")
    page.wait_for_function("() => !document.documentElement.dataset.bot")
    return page


def on_screen(page: Page, selector: str) -> bool:
    """Whether every element of ``selector`` lies wholly inside the window, the page not scrolled."""
    return page.evaluate("""selector => [...document.querySelectorAll(selector)].every(node => {
        const box = node.getBoundingClientRect();
        return box.width > 0 && box.top >= 0 && box.left >= 0
            && box.bottom <= window.innerHeight && box.right <= window.innerWidth; })""", selector)


NOT_CUT = """() => [...document.querySelectorAll('.player-side, .player-who')].every(
    node => node.scrollWidth <= node.clientWidth + 1)"""


@pytest.mark.parametrize("width, height", [(1280, 800), (1366, 768)])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_on_a_laptop_everything_is_in_sight_and_the_chips_are_big_enough(page: Page, site_url: str, wait_ready,
                                                                        width: int, height: int, lang: str) -> None:
    open_game(page, site_url, wait_ready, width, height, lang)
    assert page.evaluate("window.scrollY") == 0
    for selector in (BOARD, ".player-top", ".player-bottom", ".draft-bar .action-row", ".play-status"):
        assert on_screen(page, selector), selector
    geometry = json.loads(page.get_attribute(BOARD, "data-geometry"))
    found = layout(geometry["width"], geometry["height"], 4)
    assert found.hand == BESIDE and found.chip * TRAY_DRAWN >= 28, found
    assert page.evaluate(NOT_CUT)
    first = page.evaluate("JSON.parse(localStorage.getItem('tessera/v1/session/' + "
                          "document.querySelector('.play')?.dataset.session)).record.moves.length")
    status = page.locator(".play-status")
    expect(status).to_contain_text("Who starts is drawn" if lang == "en" else "решает жребий")
    shot(page, f"quadrotone-{lang}-{width}x{height}")
    assert first in (0, 1)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_on_a_phone_the_sheet_has_fingertip_chips_and_nothing_is_cut(page: Page, site_url: str, wait_ready,
                                                                     lang: str) -> None:
    open_game(page, site_url, wait_ready, 390, 844, lang, phone=True)
    assert page.evaluate(NOT_CUT), "a name or a bot level is cut"
    geometry = json.loads(page.get_attribute(BOARD, "data-geometry"))
    width, height = geometry["width"], geometry["height"]
    box = page.locator(BOARD).bounding_box()
    x, y = strip_center(width, height, 4)
    tap(page, (box["x"] + x, box["y"] + y))
    expect(page.locator("[data-draft=note]")).not_to_be_empty()
    sheet = sheet_layout((0.0, 0.0, width, height), 128)
    assert sheet.chip * (1 - 2 * SHEET_GAP) >= 44
    shot(page, f"quadrotone-{lang}-390x844-sheet")


def test_a_draw_offer_waits_ten_minutes_and_the_button_says_so(page: Page, site_url: str, wait_ready) -> None:
    """Between two people: an offer declined, the button counts down; after a
    reload it still does; ten minutes later (the page's clock moved on) it is back."""
    open_game(page, site_url, wait_ready, 1280, 800, "en", opponent="human")
    page.clock.install()
    draw = page.locator("button[data-action=draw]")
    expect(draw).to_be_enabled()
    draw.click()
    page.click("dialog[open] button:has-text('Decline')")
    expect(draw).to_be_disabled()
    expect(draw).to_contain_text("Offer a draw in 9:5")
    page.clock.fast_forward("05:00")
    expect(draw).to_contain_text("Offer a draw in 4:5")
    page.clock.fast_forward("05:01")
    expect(draw).to_be_enabled()
    expect(draw).to_have_text("Offer a draw")
