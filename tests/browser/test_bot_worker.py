"""Bots in the worker: the page's main thread only draws (issue 25).

A bot's move and a hint come from the bots' worker (``ui/think_worker.py``,
``assets/js/think-worker.js``); a move made while it thinks cancels the
request, which the worker acknowledges; where the worker cannot start, the
page thinks itself in slices and the game goes on.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from saves import finish_meta, save_script
from tessera.core.rng import SeededRandom
from tessera.core.session import Seat, Session
from tessera.games.dots import Dots

STATS = "window.tesseraThinker ? window.tesseraThinker.stats() : null"
NO_WORKER = """(() => {
  const Real = window.Worker;
  window.Worker = function (url, options) {
    if (String(url).includes("think-worker")) throw new Error("no workers in this test");
    return new Real(url, options);
  };
  window.Worker.prototype = Real.prototype;
})();"""


def dots_save(opponent: str, session_id: str) -> tuple[dict, list[str]]:
    """A 20x20 Dots game 40 random moves in, the player (Blue) to move, and some free points."""
    game = Dots({"size": "20x20"})
    game.random_fill(SeededRandom(3), 40)
    seats = [Seat("human"), Seat("bot", opponent.split(":")[1]) if opponent.startswith("bot:") else Seat("human")]
    free = [game.move_text(m) for m in game.legal_moves() if m != -1][:12:3]
    session = Session(game, seats, session_id, meta={"created": 0.0, "choice": {"opponent": opponent, "size": "20x20"}})
    return finish_meta(session), free


def open_save(page: Page, site_url: str, wait_ready, save: dict, *scripts: str) -> None:
    route, script = save_script(save)
    for extra in scripts:
        page.add_init_script(extra)
    page.add_init_script(script)
    page.goto(site_url + route)
    wait_ready(page)


def play(page: Page, move: str) -> None:
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")


def test_the_bot_moves_from_the_worker_and_ponders(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Against Master the reply comes from the worker, which then reads on the player's time."""
    save, free = dots_save("bot:master", "worker1")
    open_save(page, site_url, wait_ready, save)
    page.wait_for_function("document.documentElement.dataset.thinker === 'worker'", timeout=60_000)
    play(page, free[0])
    page.wait_for_function("document.querySelectorAll('button.move').length === 42", timeout=30_000)
    expect(page.locator(".play-status")).to_contain_text("Your move", timeout=10_000)
    stats = page.evaluate(STATS)
    assert stats["state"] == "ready" and stats["snapshot"] is True
    # The worker's Python needs no file of tessera.zip (its modules are in the snapshot): none written.
    assert stats["unpacked"] == {"short": 0, "general": 0, "deferred": 1}
    assert stats["answered"] == 1 and stats["fallbacks"] == 0 and stats["errors"] == 0
    assert stats["pondered"] == 1   # Master, the strongest level, reads on while the player thinks
    page_log.assert_same_origin(site_url)
    page_log.assert_no_errors()


def test_threats_and_a_hint_come_from_the_worker(page: Page, page_log, site_url: str, wait_ready) -> None:
    """'Show threats' is read in the worker and drawn when it comes; Hint asks the worker and names a point."""
    save, _ = dots_save("human", "worker2")
    open_save(page, site_url, wait_ready, save)
    plain = page.evaluate("document.querySelector('canvas.tessera-board').toDataURL()")
    page.locator("input[data-toggle=threats]").check()
    page.wait_for_function("window.tesseraThinker.stats().answered === 1", timeout=60_000)
    page.wait_for_function("p => document.querySelector('canvas.tessera-board').toDataURL() !== p", arg=plain)
    page.click("button[data-action=hint]")
    note = page.locator("[data-hint=note]")
    expect(note).to_contain_text("Hint:", timeout=60_000)
    stats = page.evaluate(STATS)
    assert stats["state"] == "ready" and stats["answered"] == 2 and stats["fallbacks"] == 0
    page_log.assert_no_errors()


def test_a_move_made_while_the_worker_thinks_cancels_it(page: Page, page_log, site_url: str, wait_ready) -> None:
    """A move played while the hint is being read cancels the request: the worker
    says it stopped, no hint for the old position is shown, and the next one comes."""
    save, free = dots_save("human", "worker3")
    open_save(page, site_url, wait_ready, save)
    page.wait_for_function("() => { const s = window.tesseraThinker.stats(); return s.asked === 0; }")
    page.click("button[data-action=hint]")    # starts the worker, then asks it
    page.wait_for_function("window.tesseraThinker.stats().asked === 1", timeout=60_000)
    play(page, free[0])                       # the hint (1.5 s of reading) is not back yet
    page.wait_for_function("document.querySelectorAll('button.move').length === 41")
    page.wait_for_function("window.tesseraThinker.stats().acknowledged === 1", timeout=10_000)
    stats = page.evaluate(STATS)
    assert stats["cancelled"] == 1 and stats["answered"] == 0
    note = page.locator("[data-hint=note]")
    expect(note).to_be_hidden()
    page.click("button[data-action=hint]")    # Red asks now: a fresh request is answered
    expect(note).to_contain_text("Hint:", timeout=30_000)
    assert page.evaluate(STATS)["answered"] == 1
    page_log.assert_no_errors()


def test_without_a_worker_the_page_thinks_itself(page: Page, site_url: str, wait_ready) -> None:
    """Where the worker cannot start, the bot's move and the hint are searched on the page, in slices."""
    save, free = dots_save("bot:hard", "worker4")
    open_save(page, site_url, wait_ready, save, NO_WORKER)
    page.wait_for_function("document.documentElement.dataset.thinker === 'page'")
    play(page, free[0])
    page.wait_for_function("document.querySelectorAll('button.move').length === 42", timeout=60_000)
    page.click("button[data-action=hint]")
    expect(page.locator("[data-hint=note]")).to_contain_text("Hint:", timeout=60_000)
    stats = page.evaluate(STATS)
    assert stats["state"] == "failed" and stats["answered"] == 0 and stats["fallbacks"] == 2
