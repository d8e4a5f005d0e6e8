"""The app on the platform's edges: a sub-path, a full storage quota, time controls."""

from __future__ import annotations

import re
import sys
from urllib.parse import urlsplit

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from test_app_quadrature import click_square, moves, start_game  # noqa: E402

SAVES_JS = """() => Object.keys(localStorage).filter(k => k.startsWith('tessera/v1/session/'))
    .map(k => JSON.parse(localStorage.getItem(k)))"""
FULL_STORAGE_JS = """() => {
    window.__setItemCalls = 0;
    Storage.prototype.setItem = function () {
        window.__setItemCalls += 1;
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
}"""


def clock_text(page: Page, seat: int) -> str:
    return page.text_content(f".player-panel[data-seat='{seat}'] .player-clock .clock-main") or ""


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def test_the_site_works_under_a_sub_path(page: Page, page_log, subpath_site_url: str, wait_ready) -> None:
    """Served under /games/tessera/, the app boots, plays a move and never fetches outside it."""
    assert urlsplit(subpath_site_url).path == "/games/tessera/"
    page.goto(subpath_site_url)
    wait_ready(page)
    start_game(page, "human")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    assert moves(page) == ["e9-e8"]
    page.reload()
    wait_ready(page)
    page.wait_for_selector("button.move")
    assert moves(page) == ["e9-e8"] and "#/play/quadrature/" in page.url
    page_log.assert_same_origin(subpath_site_url)
    outside = [url for url in page_log.requests
               if not url.startswith(("data:", "blob:", "about:")) and not url.startswith(subpath_site_url)]
    assert not outside, f"requests outside {subpath_site_url}: {outside}"
    page_log.assert_no_errors()


def test_a_full_storage_is_reported_and_play_goes_on(page: Page, page_log, site_url: str, wait_ready) -> None:
    """When localStorage refuses to save, the page says so once, keeps the old save and play continues."""
    page.goto(site_url)
    wait_ready(page)
    start_game(page, "human")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function(f"() => ({SAVES_JS})().some(s => s.record.moves.length === 1)")
    page.evaluate(FULL_STORAGE_JS)

    click_square(page, "e3")
    click_square(page, "e4")
    page.wait_for_selector(".notice-error")
    assert "full" in page.text_content(".notice-error").lower()
    assert page.evaluate("window.__setItemCalls") >= 1
    click_square(page, "d9")
    click_square(page, "d8")
    page.wait_for_function("document.querySelectorAll('button.move').length === 3")
    assert moves(page) == ["e9-e8", "e3-e4", "d9-d8"]
    assert page.locator(".notice-error").count() == 1  # told once, not after every move
    saves = page.evaluate(SAVES_JS)
    assert [save["record"]["moves"] for save in saves] == [["e9-e8"]]  # the old save is kept
    page_log.assert_no_errors()


def test_clocks_tick_resume_and_flag(page: Page, page_log, site_url: str, wait_ready) -> None:
    """A 10-second move limit: no clock runs before a side's first move (waiting 12 s
    loses nothing), then the clocks tick, a reload keeps the time used, the flag ends
    the game; the next new-game dialog offers the same time control again.  The page's clock is
    Playwright's: waits are jumps in its time, not seconds of the test's."""
    page.clock.install()
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrature]")
    page.click("label[for='ng-opponent-human']")
    assert page.is_checked("#ng-time_total-off") and page.is_checked("#ng-time_move-off")  # off by default
    page.click("label[for='ng-time_move-10']")
    page.click("dialog button[data-action=start]")
    page.wait_for_selector(".player-panel[data-seat='0'] .player-clock:not([hidden])")
    page.clock.fast_forward(12_000)                  # longer than a move may take: nobody has moved yet
    assert page.locator(".player-clock.is-running").count() == 0 and clock_text(page, 0) == "0:10"
    assert page.locator("dialog.dialog-over").count() == 0
    click_square(page, "e9")
    click_square(page, "e8")
    page.clock.fast_forward(1_500)
    assert page.locator(".player-clock.is-running").count() == 0, "Black has not moved yet"
    click_square(page, "e3")
    click_square(page, "e4")
    page.wait_for_selector(".player-panel[data-seat='0'] .player-clock.is-running")
    assert clock_text(page, 1) == "0:10" and page.is_visible(".player-panel[data-seat='1'] .player-clock")

    page.clock.fast_forward(2_500)
    page.wait_for_function("t => document.querySelector(\".player-panel[data-seat='0'] .clock-main\")"
                           ".textContent <= t", arg="0:08", timeout=15_000)
    used = 10 - seconds(clock_text(page, 0))
    page.reload()
    wait_ready(page)
    page.wait_for_selector(".player-clock.is-running")
    # The time already used stays used (a reload does not give a fresh move).
    assert seconds(clock_text(page, 0)) <= 10 - used + 1

    page.clock.fast_forward(10_000)
    page.wait_for_selector("dialog.dialog-over", timeout=15_000)
    assert "ran out of time" in page.text_content("dialog.dialog-over")
    assert page.locator(".player-panel[data-seat='0'] .player-clock.is-out").count() == 1
    assert re.search(r"Black wins", page.text_content("#play-status"))
    page.keyboard.press("Escape")
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#play-status.is-over")
    assert "ran out of time" in page.text_content("#play-status")
    page.click("button[data-action=new-game]")
    page.wait_for_selector("dialog[open]")
    assert page.is_checked("#ng-time_move-10"), "the dialog offers the last time control again"
    page_log.assert_no_errors()


def test_each_page_load_draws_new_random_numbers(page: Page, site_url: str, wait_ready) -> None:
    """Python starts from a memory snapshot, yet two page loads (nothing saved before either)
    give their new games different seeds."""
    seeds = []
    for load in range(2):
        if load:
            page.evaluate("localStorage.clear()")
            page = page.context.new_page()
        page.goto(site_url)
        wait_ready(page)
        start_game(page, opponent="human")
        saved = page.evaluate("""() => Object.keys(localStorage)
            .filter(k => k.startsWith('tessera/v1/session/'))
            .map(k => JSON.parse(localStorage.getItem(k)))""")
        assert len(saved) == 1
        seeds.append(saved[0]["record"]["seed"])
    assert seeds[0] != seeds[1]
