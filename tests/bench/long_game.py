"""Bench: the cost of one move at every stage of a long game (39x32 Dots).

For each length in ``PLIES`` a hot-seat game that many random moves in is
saved as the app saves it (``tests/browser/saves.py``) and opened in
headless Chromium.  Then ``CLICKS`` moves are made by clicking free points,
as a player does; the first ``WARM_UP`` of them are not counted (the first
move of a page runs code for the first time: that is start-up's cost, not a
move's).  For each of the others the page reports:

* the click's Event Timing duration: from the input to the next frame
  painted after the handlers ran (rounded by the browser to 8 ms; events
  under 16 ms are not reported), and the time its handlers ran (the move
  played, the dot drawn): handlers well under a frame mean the dot shows in
  the next frame;
* the longest main-thread task from the click until the move's save has
  run (``longtask`` entries, so only tasks of 50 ms or more are seen: "none"
  means every task was shorter);
* the draw time of the board the app records (``data-draw-ms``);
* from the pointer going down to the move list's new row: the play screen
  draws a move on the board first and brings the rest of the page (move
  list, panels, the save) in a task after that frame.

Also the time to open the game (navigation to an interactive board).
Per-move cost must not grow with the game: the rows should read alike.
"""

from __future__ import annotations

import json
import statistics
from typing import Any

PLIES = (0, 300, 600, 1000)
CLICKS = 17
WARM_UP = 1
"""16 moves counted: the click-to-paint figure comes in frames (8 ms steps, 16.7 ms
frames), so a median of 6 moved a frame either way from run to run."""

MONITOR = """
window.__longTasks = [];
window.__events = [];
window.__downAt = [];
window.__listAt = [];
addEventListener("pointerdown", (event) => window.__downAt.push(event.timeStamp), true);
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({start: e.startTime, duration: e.duration});
  }).observe({type: "longtask", buffered: true});
} catch (e) {}
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === "click" || e.name === "pointerdown" || e.name === "pointerup")
        window.__events.push({name: e.name, start: e.startTime, duration: e.duration,
                              handling: e.processingEnd - e.processingStart});
    }
  }).observe({type: "event", durationThreshold: 16, buffered: true});
} catch (e) {}
"""

BOARD = "canvas.tessera-board"
HEIGHT = 32


def free_point(position: str) -> tuple[int, int]:
    from tessera.games.dots import Dots  # noqa: PLC0415
    game = Dots(setup=position)
    free = game.placements()
    return game.xy(free[len(free) // 3])


def click_point(page: Any, x: int, y: int) -> None:
    geo = json.loads(page.get_attribute(BOARD, "data-geometry"))
    box = page.locator(BOARD).bounding_box()
    page.mouse.click(box["x"] + geo["x"] + (x - 1) * geo["spacing"],
                     box["y"] + geo["y"] + (HEIGHT - y) * geo["spacing"])


def measure_length(browser: Any, base_url: str, plies: int) -> dict:
    from saves import long_dots_save, save_script  # noqa: PLC0415

    route, script = save_script(long_dots_save(plies, f"bench{plies}"))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.add_init_script(MONITOR)
        page.add_init_script(script)
        page.goto(base_url + route)
        page.wait_for_function(
            f"document.documentElement.dataset.tessera === 'ready' && !!document.querySelector('{BOARD}[data-draws]')",
            timeout=90_000)
        opened = page.evaluate("performance.now()")
        page.evaluate("""() => new MutationObserver(() => window.__listAt.push(performance.now()))
            .observe(document.querySelector(".moves-box"), {childList: true, subtree: true})""")
        page.wait_for_timeout(300)
        durations, handling, longest, draws, listed = [], [], [], [], []
        for click in range(CLICKS):
            count = page.eval_on_selector_all("button.move", "els => els.length")
            since = page.evaluate("performance.now()")
            click_point(page, *free_point(page.get_attribute(BOARD, "data-position")))
            page.wait_for_function("n => document.querySelectorAll('button.move').length > n", arg=count)
            page.wait_for_timeout(250)  # the save runs in a task of its own after the move
            found = page.evaluate("""since => ({
                events: window.__events.filter(e => e.start >= since).map(e => e.duration),
                handling: window.__events.filter(e => e.start >= since).map(e => e.handling),
                tasks: window.__longTasks.filter(t => t.start >= since).map(t => t.duration),
                down: window.__downAt.filter(t => t >= since)[0],
                listed: window.__listAt.filter(t => t >= since)[0],
            })""", since)
            if click < WARM_UP:
                continue
            durations.append(max(found["events"], default=0.0))
            handling.append(sum(found["handling"]))
            longest.append(max(found["tasks"], default=0.0))
            draws.append(float(page.get_attribute(BOARD, "data-draw-ms") or 0))
            listed.append(found["listed"] - found["down"])
        return {
            "plies": plies,
            "open_ms": opened,
            "event_ms": statistics.median(durations),
            "event_mean_ms": statistics.mean(max(value, 16.0) for value in durations),   # unreported: under 16
            "event_max_ms": max(durations),
            "handling_ms": statistics.median(handling),
            "longest_task_ms": max(longest),
            "draw_ms": statistics.median(draws),
            "listed_ms": statistics.median(listed),
            "listed_max_ms": max(listed),
        }
    finally:
        context.close()


def long_game_metrics(browser: Any, base_url: str) -> list[dict]:
    """One row per game length in ``PLIES`` (see the module docstring)."""
    return [measure_length(browser, base_url, plies) for plies in PLIES]


def table_rows(rows: list[dict]) -> list[tuple[str, str]]:
    """(metric, value) pairs for the bench table's Chromium column."""
    out = []
    for row in rows:
        task = "none >= 50" if row["longest_task_ms"] < 50 else f"{row['longest_task_ms']:.0f}"
        event = " / ".join("< 16" if value < 16 else f"{value:.0f}"
                           for value in (row["event_ms"], row.get("event_mean_ms", 0.0), row["event_max_ms"]))
        out.append((f"dots 39x32 at move {row['plies']}: click to painted dot, median / mean / max", event))
        out.append((f"dots 39x32 at move {row['plies']}: click handlers (move played and drawn), median",
                    f"{row['handling_ms']:.1f}"))
        out.append((f"dots 39x32 at move {row['plies']}: longest task per move / board draw",
                    f"{task} / {row['draw_ms']:.1f}"))
        if "listed_ms" in row:
            out.append((f"dots 39x32 at move {row['plies']}: pointer down to the move list's row, median / max",
                        f"{row['listed_ms']:.0f} / {row['listed_max_ms']:.0f}"))
        out.append((f"dots 39x32 at move {row['plies']}: game opened, interactive",
                    f"{row['open_ms']:.0f}"))
    return out
