"""Every message a player reads is in their language, and typed moves are read leniently.

In Russian: two corrupt saves give ONE notice in plain Russian (no storage
key, no parser text); an illegal move, a malformed and an empty typed move,
a broken record and a broken SGF are all worded in Russian.  Typed moves are
accepted as people type them (``E9 E8``, ``e3e4``; Dots ``15 15``, ``16,16``).
Screenshots go to /tmp/tessera-ru-*.png (desktop and phone).
"""

from __future__ import annotations

import json
import re
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from conftest import emulate  # noqa: E402
from saves import storage_script  # noqa: E402

BOARD = "canvas.tessera-board"
PREFIX = "tessera/v1/session/"
LATIN_WORDS = re.compile(r"\b(?:not|valid|is|the|move|record|illegal|error|expected|Expecting|line|column|"
                         r"tessera/v1|corrupt|session|Error)\b")
"""What a Russian message must not contain: parser English ("not valid JSON"), storage
keys, type names.  (Notation such as e9-e8, 'zz', W[aa], land, GM[40] and the names
of formats, JSON and SGF, are not words to translate.)"""


def moves(page: Page) -> list[str]:
    return page.eval_on_selector_all("button.move .move-text", "els => els.map(e => e.textContent)")


def russian_page(page: Page, site_url: str, wait_ready, items: dict[str, str] | None = None) -> None:
    page.add_init_script(storage_script({"tessera/v1/lang": "ru", **(items or {})}, overwrite=True))
    page.goto(site_url)
    wait_ready(page)
    page.wait_for_function("document.documentElement.lang === 'ru'")


def start_hot_seat(page: Page, game: str, size: str | None = None) -> None:
    page.click(f"button[data-action=new-game][data-game={game}]")
    page.click("label[for='ng-opponent-human']")
    if size:
        page.click(f"label[for='ng-size-{size}']")
    page.click("dialog button[data-action=start]")
    page.wait_for_selector(BOARD)
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.geometry")


def type_move(page: Page, text: str) -> str:
    """Type ``text`` in the move box and press Enter (the page answers in the
    same task); the error shown ("" if none)."""
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")
    return (page.text_content("#move-error") or "").strip()


def play_typed(page: Page, typed: str, expected: str) -> None:
    """A move typed the way people do is played, in the game's notation."""
    count = len(moves(page))
    assert type_move(page, typed) == "", typed
    page.wait_for_function("n => document.querySelectorAll('button.move').length === n", arg=count + 1)
    assert moves(page)[-1] == expected, (typed, moves(page))
    assert page.input_value("#move-input") == ""


def assert_russian(text: str) -> None:
    assert re.search("[а-яё]", text, re.I), f"not Russian: {text!r}"
    assert not LATIN_WORDS.search(text), f"English left in: {text!r}"


def test_russian_errors_notices_and_lenient_input(page: Page, page_log, site_url: str, wait_ready) -> None:
    corrupt = {PREFIX + "broken1": "{not json", PREFIX + "broken2": json.dumps({"format": "tessera-session/1"})}
    russian_page(page, site_url, wait_ready, corrupt)

    # Two corrupt saves: one notice, in plain Russian, with no key and no parser text.
    page.wait_for_selector(".notice[data-problems='2']")
    assert page.locator(".notice").count() == 1
    notice = page.text_content(".notice .notice-text")
    assert notice.startswith("2 сохранённые партии не удалось открыть"), notice
    assert_russian(notice)
    kept = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tessera/v1/corrupt/'))")
    assert len(kept) == 2                          # kept aside, not deleted
    page.screenshot(path="/tmp/tessera-ru-notice.png")

    start_hot_seat(page, "quadrature")
    assert page.get_attribute("#move-input", "placeholder") == "например, e9-e8"

    error = type_move(page, "")                    # empty: says what to type
    assert error == "Введите ход как откуда-куда, например e9-e8."
    error = type_move(page, "e9")                  # malformed: says what is expected
    assert error == "'e9' — это не ход: пишите откуда-куда, например e9-e8."
    error = type_move(page, "z9-e8")
    assert "от a1 до k11" in error and error.endswith(".")
    error = type_move(page, "e5 e4")               # read leniently, but illegal: the engine's reason in Russian
    assert error == "Ход e5-e4 невозможен: на e5 нет шашки."
    assert_russian(error)
    page.screenshot(path="/tmp/tessera-ru-move-error.png")
    error = type_move(page, "e9-e7")
    assert "шашка ходит на один пункт вперёд" in error
    expect(page.locator("#move-input")).to_have_attribute("aria-invalid", "true")

    for typed, expected in (("E9 E8", "e9-e8"), ("e3e4", "e3-e4"), ("e8–e7", "e8-e7"), ("  E4 - E5 ", "e4-e5")):
        play_typed(page, typed, expected)

    # Importing a broken record and a broken SGF: the reasons in Russian.
    page.click("button[data-action=import]")
    record = json.dumps({"format": "tessera/1", "game": "quadrature", "moves": ["e9-e8", "e3-e4", "e8-e5"]})
    for text, words in (("{not json", "это не JSON (ошибка в строке 1, столбце 2)"),
                        (record, "ход 3 ('e8-e5') неверен: ход e8-e5 невозможен"),
                        ("(;GM[40]SZ[20];B[aa];W[aa])", "в этом пункте уже стоит точка"),
                        ("(;GM[1]SZ[19])", "это не запись игры в точки")):
        page.fill("#record-paste", text)
        page.click("dialog button[data-action=open-record]")
        shown = page.locator(".record-error")
        expect(shown).to_contain_text(words)
        message = shown.text_content()
        assert message.startswith("Эту запись открыть нельзя: ")
        assert_russian(re.sub(r"'[^']*'", "", message))
    page.screenshot(path="/tmp/tessera-ru-import-error.png")
    page.keyboard.press("Escape")
    assert not page_log.page_errors


def test_lenient_dots_points_in_russian(page: Page, page_log, site_url: str, wait_ready) -> None:
    russian_page(page, site_url, wait_ready)
    start_hot_seat(page, "dots", "20x20")
    assert page.get_attribute("#move-input", "placeholder") == "например, 10-9"
    assert type_move(page, "") == "Введите точку как x-y, например 10-9, или «заземление» (land)."
    error = type_move(page, "пять")
    assert error == "'пять' — это не ход: пишите точку как x-y, например 10-9, или «заземление» (land)."
    error = type_move(page, "21 3")
    assert error == "Точки 21-3 нет на поле 20x20 (x от 1 до 20, y от 1 до 20)."
    for typed, expected in (("15 15", "15-15"), ("16,16", "16-16"), ("3 - 4", "3-4"), ("(5, 6)", "5-6")):
        play_typed(page, typed, expected)
    error = type_move(page, "15,15")                 # taken: the reason, in Russian
    assert error == "Ход 15-15 невозможен: в этом пункте уже стоит точка (п. 2.9)."
    page.screenshot(path="/tmp/tessera-ru-dots-error.png")
    assert not page_log.page_errors


def test_phone_russian_notice_and_error(page: Page, site_url: str, wait_ready) -> None:
    """On a phone the stacked notice and the move error are readable (screenshot)."""
    emulate(page, viewport={"width": 390, "height": 844}, touch=True, mobile=True, device_scale_factor=2)
    corrupt = {PREFIX + f"broken{n}": "{" * n for n in range(1, 6)}
    russian_page(page, site_url, wait_ready, corrupt)
    page.wait_for_selector(".notice[data-problems='5']")
    assert page.text_content(".notice .notice-text").startswith("5 сохранённых партий не удалось открыть")
    page.screenshot(path="/tmp/tessera-ru-phone-notice.png", animations="disabled")
    page.click(".notice .notice-close")
    start_hot_seat(page, "quadrature")
    assert type_move(page, "e5-e4") == "Ход e5-e4 невозможен: на e5 нет шашки."
    page.locator("#move-error").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/tessera-ru-phone-error.png")
