"""Notices as players expect them: one belongs to the screen that raised it
and goes with it, it is worded again when the language changes, it floats
over the page so the board, the clocks and the move list never move, and a
notice about the saves names the game."""

from __future__ import annotations

import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from saves import storage_script  # noqa: E402

BOARD = "canvas.tessera-board"


def test_a_notice_goes_with_its_screen_and_follows_the_language(page: Page, page_log, site_url: str,
                                                                wait_ready) -> None:
    page.goto(site_url + "#/play/quadrature")          # no game yet: home, with a notice saying so
    wait_ready(page)
    notice = page.locator("#notices .notice")
    expect(notice).to_have_count(1)
    english = notice.text_content()
    page.click("button[data-lang=ru]")
    expect(notice).to_have_count(1)
    assert notice.text_content() != english and any("а" <= ch <= "я" for ch in notice.text_content())
    page.click("button[data-action=new-game][data-game=quadrature]")
    page.click("label[for='ng-opponent-human']")
    page.click("dialog button[data-action=start]")
    page.wait_for_selector(BOARD)
    expect(notice).to_have_count(0)                      # another screen: the home's notice is gone
    page_log.assert_no_errors()


def test_a_notice_never_moves_the_board(page: Page, page_log, site_url: str, wait_ready) -> None:
    page.add_init_script(storage_script({"tessera/v1/settings/animation": "off"}))
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrature]")
    page.click("label[for='ng-opponent-human']")
    page.click("dialog button[data-action=start]")
    page.wait_for_selector(BOARD)
    before = page.locator(BOARD).bounding_box()
    side = page.locator(".play-side").bounding_box()
    page.click("button[data-action=draw]")
    page.click("dialog[open] button:has-text('Decline')")
    expect(page.locator("#notices .notice")).to_have_count(1)
    assert page.locator(BOARD).bounding_box() == before
    assert page.locator(".play-side").bounding_box() == side
    page.screenshot(path="/tmp/tessera-notice.png")
    page_log.assert_no_errors()


def test_a_broken_save_is_named_by_its_game(page: Page, site_url: str, wait_ready) -> None:
    page.add_init_script(storage_script({"tessera/v1/session/bad": '{"format": "tessera-session/1", "id": "bad", '
                                         '"record": {"format": "tessera/1", "game": "dots", "moves": 7}}'}))
    page.goto(site_url)
    wait_ready(page)
    expect(page.locator(".notice[data-problems='1']")).to_contain_text("The game: Dots.")
    page.click("button[data-lang=ru]")
    expect(page.locator(".notice[data-problems='1']")).to_contain_text("Игра: Точки.")
