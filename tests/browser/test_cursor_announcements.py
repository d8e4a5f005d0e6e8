"""Screen readers hear the board: every keyboard cursor move says the point and what is on it.

With a checker selected, the cursor on it lists its targets and on a target
says whose move it is.  The words come from the catalog, in English and
Russian, with the plural the number needs.  The home screen's buttons say
which game they belong to.
"""

from __future__ import annotations

import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from board_display import live_text, new_game  # noqa: E402
from conftest import emulate, wait_ready  # noqa: E402

SAYS = {
    "en": {"white": "white checker", "empty": "empty", "selected": "selected, can go to 4 points: ",
           "target": "a move for b9", "blue": "blue dot", "red": "red dot"},
    "ru": {"white": "белая шашка", "empty": "пусто", "selected": "выбрана, может пойти на 4 точки: ",
           "target": "сюда можно пойти с b9", "blue": "синяя точка", "red": "красная точка"},
}


@pytest.fixture(params=["en", "ru"])
def lang_page(request, page: Page, site_url: str):
    emulate(page, viewport={"width": 1280, "height": 900}, locale="ru-RU" if request.param == "ru" else "en-US")
    page.goto(site_url)
    wait_ready(page)
    return page, request.param


def press(page: Page, key: str) -> str:
    """Press ``key`` on the board and return what the board says then (the
    board's handler runs while the key event is dispatched)."""
    page.keyboard.press(key)
    return live_text(page)


def focus_board_by_keyboard(page: Page) -> str:
    """Tab onto the board (the cursor appears at once and is described)."""
    page.focus("#settings-button")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement === document.querySelector('canvas.tessera-board')")
    page.wait_for_function("document.querySelector('.board-live').textContent !== ''")
    return live_text(page)


def test_quadrature_cursor_says_point_piece_and_targets(lang_page) -> None:
    page, lang = lang_page
    says = SAYS[lang]
    new_game(page, "quadrature")                     # two players: White, seen from White's side
    assert focus_board_by_keyboard(page) == f"b9, {says['white']}"   # the first checker that can move
    assert press(page, "ArrowUp") == f"b8, {says['empty']}"
    assert press(page, "ArrowDown") == f"b9, {says['white']}"
    selected = press(page, "Enter")
    assert selected.startswith(f"b9, {says['white']}, {says['selected']}"), selected
    assert set(selected.split(": ", 1)[1].split(", ")) == {"a8", "b8", "c8", "a9"}
    assert press(page, "ArrowUp") == f"b8, {says['empty']}, {says['target']}"
    press(page, "Enter")                               # plays b9-b8
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    assert page.text_content("button.move .move-text") == "b9-b8"


def test_dots_cursor_says_point_and_dot(lang_page) -> None:
    page, lang = lang_page
    says = SAYS[lang]
    new_game(page, "dots", options={"size": "20x20"})
    start = focus_board_by_keyboard(page)            # the centre: the start cross's lower-left dot
    assert start in (f"10-10, {says['blue']}", f"10-10, {says['red']}"), start
    assert press(page, "ArrowLeft") == f"9-10, {says['empty']}"
    press(page, "Enter")                                # puts a dot there
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    assert page.text_content("button.move .move-text") == "9-10"
    assert press(page, "ArrowRight").startswith("10-10, ")
    assert press(page, "ArrowLeft") == f"9-10, {says['blue']}"


def test_buttons_say_which_game(lang_page) -> None:
    page, lang = lang_page
    names = {"en": ("Play Quadrature", "Rules of Dots"), "ru": ("Играть в игру «Квадратура»", "Правила игры «Точки»")}
    play, rules = names[lang]
    assert page.get_by_role("button", name=play, exact=True).count() == 1
    assert page.get_by_role("link", name=rules, exact=True).count() == 1
    labels = page.eval_on_selector_all("button[data-action=new-game]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(set(labels)) == len(labels)
