"""Saved state that used to stop the app, stored before the page starts, then reloaded.

Each test is one repro of issue 22: a value in ``localStorage``, a route
opened, a reload.  The app must reach a working screen every time, say in
plain words what it did with the bad value (and tell the truth when storage
is too full to copy it aside), and leave the other saves as they were.
"""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402
from saves import storage_script  # noqa: E402

from tessera.core.session import Seat, Session  # noqa: E402
from tessera.games.abatis import Abatis  # noqa: E402
from tessera.games.quadrature import Quadrature  # noqa: E402

BOARD = "canvas.tessera-board"
PREFIX = "tessera/v1/session/"
CORRUPT = "tessera/v1/corrupt/"


def quadrature_save(session_id: str, finished: bool = False) -> dict:
    """A hot-seat Quadrature game one move in (resigned by Black when ``finished``)."""
    session = Session(Quadrature(), [Seat("human"), Seat("human")], session_id)
    session.play_text("e9-e8")
    meta = {"updated": 2.0, "ply": 1, "to_move": 1, "side_names": ["white", "black"], "created": 1.0}
    if finished:
        session.resign(1)
        meta.update({"over": True, "ended": 3.0, "result": {"winner": 0, "reason": "resign"}})
    session.meta.update(meta)
    return session.to_save()


def raw(save: dict) -> str:
    return json.dumps(save, separators=(",", ":"))


def stored(page: Page, key: str) -> str | None:
    return page.evaluate("key => localStorage.getItem(key)", key)


def aside_keys(page: Page) -> list[str]:
    return page.evaluate(f"Object.keys(localStorage).filter(k => k.startsWith('{CORRUPT}'))")


def stored_once(items: dict[str, str]) -> str:
    """An init script that stores ``items`` on the tab's first page load only, as
    a player's browser had them: later starts see what the app made of them."""
    return ("if (location.protocol.startsWith('http') && !sessionStorage.getItem('stored')) {"
            " sessionStorage.setItem('stored', '1'); " + storage_script(items, overwrite=True) + " }")


def open_twice(page: Page, url: str, wait_ready, check) -> None:
    """Open ``url`` and ``check``; open it again from another page, and reload:
    a bad value must not win on any later start either."""
    for again in (False, True, True):
        if again and page.url.startswith("about:"):
            page.goto(url)
        elif again:
            page.reload()
        else:
            page.goto(url)
        wait_ready(page)
        check()
        if not again:
            page.goto("about:blank")


def test_a_turn_with_no_side_names_lists_the_game(page: Page, page_log, site_url: str, wait_ready) -> None:
    """"to_move": 0 without side_names (missing, or not a list): the home screen lists the game, on every start."""
    missing = quadrature_save("nonames")
    del missing["meta"]["side_names"]
    missing["meta"]["to_move"] = 0
    odd = quadrature_save("oddnames")
    odd["meta"].update({"side_names": "white", "to_move": 0})
    page.add_init_script(stored_once({PREFIX + "nonames": raw(missing), PREFIX + "oddnames": raw(odd)}))

    def check() -> None:
        page.wait_for_selector(".resume-card")
        cards = page.eval_on_selector_all(".resume-card", "els => els.map(e => e.getAttribute('href')).sort()")
        assert cards == ["#/play/quadrature/nonames", "#/play/quadrature/oddnames"]
        assert page.locator(".recovery").count() == 0
    open_twice(page, site_url, wait_ready, check)
    page.click("a.resume-card[href$='/nonames']")
    page.wait_for_selector(f".play[data-session=nonames] {BOARD}[data-draws]")
    assert not page_log.page_errors


@pytest.mark.parametrize("bad_id", ["", " "])
@pytest.mark.parametrize("route", ["#/play/quadrature/", "#/play/quadrature"])
def test_an_empty_id_never_loops_the_router(page: Page, page_log, site_url: str, wait_ready,
                                            bad_id: str, route: str) -> None:
    """A save under an empty or blank id is put aside; #/play/<game> opens the real newest game, or home."""
    bad = quadrature_save("x")
    bad["id"] = bad_id
    good = quadrature_save("good1")
    page.add_init_script(stored_once({PREFIX + bad_id: raw(bad), PREFIX + "good1": raw(good)}))

    def check() -> None:
        page.wait_for_selector(f".play[data-session=good1] {BOARD}[data-draws]")
    open_twice(page, site_url + route, wait_ready, check)
    assert stored(page, PREFIX + bad_id) is None
    assert len(aside_keys(page)) == 1
    assert json.loads(stored(page, PREFIX + "good1"))["record"] == good["record"]
    page.goto(site_url)
    wait_ready(page)
    assert not [error for error in page_log.page_errors + page_log.console_errors if "Recursion" in error]
    assert not page_log.page_errors


def test_an_end_time_past_javascripts_dates_keeps_the_archive(page: Page, page_log, site_url: str,
                                                              wait_ready) -> None:
    """"ended": 1e308: the archive lists the game, replays it, downloads it and deletes it."""
    save = raw(quadrature_save("far", finished=True)).replace('"ended":3.0', '"ended":1e308') \
        .replace('"created":1.0', '"created":1e308')
    other = quadrature_save("near", finished=True)
    page.add_init_script(stored_once({PREFIX + "far": save, PREFIX + "near": raw(other)}))

    def check() -> None:
        page.wait_for_selector(".archive-card[data-session=far]")
        # no such date: the archive dates it by its last save instead
        assert page.get_attribute(".archive-card[data-session=far] time", "datetime") == "1970-01-01T00:00:00.002Z"
    open_twice(page, site_url + "#/archive", wait_ready, check)
    with page.expect_download() as download:
        page.click(".archive-item:has([data-session=far]) button[data-action=export-saved]")
    record = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert record["moves"] == ["e9-e8"] and download.value.suggested_filename.startswith("tessera-quadrature-")
    page.click(".archive-card[data-session=far]")
    page.wait_for_selector(f".play.is-review[data-session=far] {BOARD}[data-draws]")
    page.click("button[data-action=delete-game]")
    page.click("dialog[open] button[data-action=confirm]")
    page.wait_for_selector(".archive-card[data-session=near]")
    assert page.locator(".archive-card[data-session=far]").count() == 0
    assert not page_log.page_errors


def test_a_draw_offer_in_a_one_player_game_opens_it(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Abatis with "draw_offer": 0 is a readable game: it opens and plays, and nothing is put aside."""
    session = Session(Abatis(), [Seat("human")], "alone1")
    session.play(session.game.legal_moves()[0])
    session.meta.update({"updated": 2.0, "ply": 1, "to_move": 0, "side_names": ["player"]})
    save = session.to_save()
    save["draw_offer"] = 0
    page.add_init_script(stored_once({PREFIX + "alone1": raw(save)}))

    def check() -> None:
        page.wait_for_selector(f".play[data-session=alone1] {BOARD}[data-draws]")
        assert page.eval_on_selector_all("button.move", "els => els.length") == 1
        assert page.locator("dialog[open]").count() == 0
    open_twice(page, site_url + "#/play/abatis/alone1", wait_ready, check)
    assert aside_keys(page) == [] and page.locator(".notice[data-problems]").count() == 0
    assert not page_log.page_errors


FILL_STORAGE = """
(() => {
  if (!location.protocol.startsWith('http') || sessionStorage.getItem('filled')) return;
  sessionStorage.setItem('filled', '1');
  const chunk = 'x'.repeat(256 * 1024);
  for (let i = 0; ; i++) {
    try { localStorage.setItem('filler/' + i, chunk); } catch (e) { break; }
  }
  for (let size = 128 * 1024; size >= 1; size = Math.floor(size / 2)) {
    for (let j = 0; ; j++) {
      try { localStorage.setItem('filler/' + size + '/' + j, 'x'.repeat(size)); } catch (e) { break; }
    }
  }
})();
"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_full_storage_is_said_truthfully(page: Page, page_log, site_url: str, wait_ready, lang: str) -> None:
    """When storage is full a bad save cannot be copied aside: the notice says it stays as it was, and it does."""
    bad = "{not json"
    good = quadrature_save("good2")
    page.add_init_script(stored_once({PREFIX + "bad": bad, PREFIX + "good2": raw(good), "tessera/v1/lang": lang}))
    page.add_init_script(FILL_STORAGE)
    said = {"en": ("could not be set aside", "stays as it was"),
            "ru": ("отложить её не получилось", "осталась как была")}[lang]

    def check() -> None:
        page.wait_for_selector(".notice[data-problems='1']")
        text = page.text_content("#notices")
        assert all(words in text for words in said), text
        assert "was set aside" not in text and "поэтому она отложена" not in text
        page.wait_for_selector("a.resume-card[href$='/good2']")
    open_twice(page, site_url, wait_ready, check)
    assert stored(page, PREFIX + "bad") == bad and aside_keys(page) == []
    page.screenshot(path=f"/tmp/tessera-storage-full-{lang}.png")
    assert not page_log.page_errors


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_bad_save_is_set_aside_with_a_notice(page: Page, page_log, site_url: str, wait_ready, lang: str) -> None:
    """With room to spare, a bad save is copied aside (kept exactly) and the notice says so, in the player's
    language; the next start has nothing to say."""
    bad = raw(quadrature_save("cut"))[:-40]
    page.add_init_script(stored_once({PREFIX + "cut": bad, PREFIX + "fine": raw(quadrature_save("fine")),
                                      "tessera/v1/lang": lang}))
    said = {"en": "A saved game could not be opened, so it was set aside",
            "ru": "Одну сохранённую партию не удалось открыть, поэтому она отложена"}[lang]
    page.goto(site_url)
    wait_ready(page)
    page.wait_for_selector(".notice[data-problems='1']")
    assert said in page.text_content("#notices")
    page.screenshot(path=f"/tmp/tessera-set-aside-{lang}.png")
    for start in range(2):
        page.wait_for_selector("a.resume-card[href$='/fine']")
        assert stored(page, PREFIX + "cut") is None
        assert [stored(page, key) for key in aside_keys(page)] == [bad]
        page.reload()
        wait_ready(page)
    assert page.locator(".notice[data-problems]").count() == 0
    assert not page_log.page_errors


def test_a_game_at_the_move_cap_opens_and_says_it_is_full(page: Page, page_log, site_url: str, wait_ready) -> None:
    """An Abatis game of MAX_RECORD_MOVES moves opens (its list filled a slice a task) and refuses the next
    move in words; Stop still ends it with its score."""
    from tessera.core.record import MAX_RECORD_MOVES
    from tessera.core.rng import SeededRandom
    game = Abatis({"mode": "knockout"}, seed=3)
    rng = SeededRandom(5)
    while game.ply < MAX_RECORD_MOVES:
        game.push_unchecked(rng.choice(game.legal_moves()))
    session = Session(game, [Seat("human")], "full1")
    session.meta.update({"updated": 2.0, "ply": game.ply, "to_move": 0, "side_names": ["player"]})
    page.add_init_script(stored_once({PREFIX + "full1": raw(session.to_save())}))
    page.goto(site_url + "#/play/abatis/full1")
    wait_ready(page)
    page.wait_for_selector(f".play[data-session=full1] {BOARD}[data-draws]")
    page.wait_for_function(f"document.querySelectorAll('button.move').length === {MAX_RECORD_MOVES}")
    assert page.get_attribute(f"button.move[data-ply='{MAX_RECORD_MOVES}']", "aria-current") == "step"
    page.fill("#move-input", game.move_text(game.legal_moves()[0]))
    page.press("#move-input", "Enter")
    page.wait_for_selector(".move-error:not([hidden])")
    assert f"reached {MAX_RECORD_MOVES} moves" in page.text_content(".move-error")
    assert page.eval_on_selector_all("button.move", "els => els.length") == MAX_RECORD_MOVES
    page.click("button[data-action=resign]")
    page.click("dialog[open] button[data-action=confirm]")
    page.wait_for_selector(".play-status.is-over")
    assert not page_log.page_errors
