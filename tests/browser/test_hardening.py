"""No stored value bricks the app, and a game of 1000 moves plays like a new one.

The first test stores values Python itself rejects (JSON nested 20,000
deep, which kills Pyodide's interpreter if parsed; numbers past float
range; wrong container types) before the app starts, and checks that the
app starts, says what it put aside, keeps those values, and still opens
the usable games.  The second opens a 39x32 Dots game 1000 moves in and
plays, undoes and reloads it: the move list changes a row at a time.
"""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402
from saves import long_dots_save, save_script, storage_script  # noqa: E402

from tessera.core.session import Seat, Session  # noqa: E402
from tessera.games.dots import Dots  # noqa: E402
from tessera.games.quadrature import Quadrature  # noqa: E402

BOARD = "canvas.tessera-board"
PREFIX = "tessera/v1/session/"


def quadrature_save(session_id: str) -> dict:
    session = Session(Quadrature(), [Seat("human"), Seat("human")], session_id)
    session.play_text("e9-e8")
    session.meta.update({"updated": 2.0, "ply": 1, "to_move": 1, "side_names": ["white", "black"]})
    return session.to_save()


def raw(save: dict) -> str:
    return json.dumps(save, separators=(",", ":"))


def test_values_python_rejects_never_stop_the_app(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Deep nesting, huge numbers and wrong types are put aside with a notice; usable games still open."""
    huge = raw(quadrature_save("huge")).replace('"updated":2.0', '"updated":1' + "0" * 400)
    odd_names = quadrature_save("names")
    odd_names["meta"]["side_names"] = 5
    wrong_game = quadrature_save("wrong")
    wrong_game["record"]["game"] = ["quadrature"]
    bad_clock = quadrature_save("clock")
    bad_clock["clock"] = {"control": {"total": 60}, "remaining": [1, 1], "running": 0, "move_spent": 0}
    clock_text = raw(bad_clock).replace('"remaining":[1,1]', '"remaining":[1' + "0" * 400 + ",1]")
    page.add_init_script(storage_script({
        PREFIX + "deep": "[" * 20_000 + "]" * 20_000,
        PREFIX + "huge": huge,
        PREFIX + "names": raw(odd_names),
        PREFIX + "wrong": raw(wrong_game),
        PREFIX + "clock": clock_text,
    }))
    page.goto(site_url)
    wait_ready(page)
    page.wait_for_selector(".notice[data-problems='2']")   # deep and wrong: one notice for both
    assert "2 saved games could not be opened" in page.text_content("#notices")
    assert page.locator(".game-card[data-game=quadrature]").is_visible()
    listed = page.eval_on_selector_all(".resume-card", "els => els.map(e => e.getAttribute('href'))")
    assert sorted(listed) == ["#/play/quadrature/clock", "#/play/quadrature/huge", "#/play/quadrature/names"]
    kept = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tessera/v1/corrupt/'))")
    assert len(kept) == 2
    assert page.evaluate(f"localStorage.getItem('{PREFIX}deep')") is None

    page.click("a.resume-card[href$='/clock']")           # its clock cannot be used: aside, back home
    page.wait_for_selector(".notice[data-problems='3']")   # the same notice counts it
    page.wait_for_selector(".game-card[data-game=quadrature]")
    assert page.evaluate(f"localStorage.getItem('{PREFIX}clock')") is None

    for session_id in ("huge", "names"):                  # odd details, but playable games
        page.goto(f"{site_url}#/play/quadrature/{session_id}")
        page.wait_for_function(f"document.querySelector('.play[data-session={session_id}] {BOARD}[data-draws]')")
        assert page.eval_on_selector_all("button.move", "els => els.length") == 1
    page.screenshot(path="/tmp/tessera-hardening.png")
    assert not page_log.page_errors


def move_count(page: Page) -> int:
    return page.eval_on_selector_all("button.move", "els => els.length")


def click_point(page: Page, x: int, y: int, height: int = 32) -> None:
    geo = json.loads(page.get_attribute(BOARD, "data-geometry"))
    box = page.locator(BOARD).bounding_box()
    page.mouse.click(box["x"] + geo["x"] + (x - 1) * geo["spacing"],
                     box["y"] + geo["y"] + (height - y) * geo["spacing"])


def test_a_thousand_move_game_plays_undoes_and_resumes(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Dots 39x32 at move 1000: a click adds one row, undo removes it, a reload shows all 1000 again."""
    save = long_dots_save(1000, "long1000")
    route, script = save_script(save)
    page.add_init_script(script)
    page.goto(site_url + route)
    wait_ready(page)
    page.wait_for_selector(f"{BOARD}[data-draws]")
    assert move_count(page) == 1000
    assert page.text_content(".move-list .move-block:last-child .move-row:last-child .move-number") == "500."
    before = Dots(setup=page.get_attribute(BOARD, "data-position"))
    free = before.placements()
    x, y = before.xy(free[len(free) // 2])
    click_point(page, x, y)
    page.wait_for_function("document.querySelectorAll('button.move').length === 1001")
    assert page.text_content(".move-list button.move[data-ply='1001'] .move-text") == f"{x}-{y}"
    assert Dots(setup=page.get_attribute(BOARD, "data-position")).point_state(x, y)[0] == before.to_move
    page.click("button[data-action=undo]")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1000")
    page.reload()
    wait_ready(page)
    page.wait_for_selector(f"{BOARD}[data-draws]")
    assert move_count(page) == 1000
    page.screenshot(path="/tmp/tessera-long-game.png")
    assert not page_log.page_errors


def test_an_oversized_file_is_refused_before_it_is_read(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Import refuses a 3 MB file by its size, says so, and the app goes on."""
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrature]")
    page.click("label[for='ng-opponent-human']")
    page.click("dialog button[data-action=start]")
    page.wait_for_selector(f"{BOARD}[data-draws]")
    page.click("button[data-action=import]")
    page.set_input_files("#record-file", files=[{"name": "huge.json", "mimeType": "application/json",
                                                 "buffer": b"[" * 3_000_000}])
    page.wait_for_selector(".record-error:not([hidden])")
    assert "3 MB" in page.text_content(".record-error")
    assert page.input_value("#record-paste") == ""
    assert not page_log.page_errors
