#!/usr/bin/env python3
"""Tessera benchmark harness (run by ``./build.sh bench``).

Collects, and prints as ONE markdown table:

(a) engine benchmarks in CPython: ``tessera.benchmarks.run_all(quick)``, which
    returns a list of ``{"name": str, "value": float, "unit": str}``;
(b) the same function in Pyodide under Node (tests/pyodide/run_bench.mjs);
(c) page metrics in headless Chromium against the built site (scripts/serve.py):
    a cold load (fresh profile: no HTTP cache, no service worker) and a warm
    reload (same profile, after the service worker took control):
      - time until the page frame (#frame) is first rendered,
      - first contentful paint,
      - time until the home screen is ready (``window.tesseraReadyAt`` when
        the app sets it, else the moment ``<html data-tessera="ready">``
        appeared), all from navigation start;
      - the longest main-thread task during the boot;
(d) time to an interactive board when the page opens on a game in progress
    (``#/play/quadrature/<id>``): the saved game is made here in CPython with
    ``tessera.core.session`` and put into localStorage by an init script
    before the page's own scripts run; "cold" is a fresh profile, "warm" a
    reload in the same profile once the service worker controls it.  The
    board counts as interactive when the app is ready
    (``<html data-tessera="ready">``) and the board canvas has drawn
    (``canvas.tessera-board[data-draws]``);
(e) the longest main-thread task while the bot thinks: if the app exposes
    ``window.tesseraBench.botThink()`` (returns a Promise resolved when a bot
    move of the normal move time is done), it is called once the board is
    ready and the longest ``longtask`` entry inside that window is reported.

Options: --quick, --runs N (cold loads, median reported), --no-engine,
--no-pyodide, --no-browser, --json PATH (raw results), --site DIR.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "py"))
sys.path.insert(0, str(REPO / "tests" / "browser"))

READY_TIMEOUT_MS = 90_000
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}


def log(msg: str) -> None:
    print(f"bench: {msg}", file=sys.stderr, flush=True)


# ----------------------------------------------------------- engine benches --

def run_cpython(quick: bool) -> dict:
    try:
        from tessera import benchmarks  # noqa: PLC0415
    except ImportError as exc:
        return {"error": f"tessera.benchmarks not importable ({exc}); "
                         "py/tessera/benchmarks.py must define run_all(quick) -> list[dict]"}
    t = time.perf_counter()
    results = [{"name": str(r["name"]), "value": float(r["value"]), "unit": str(r["unit"])}
               for r in benchmarks.run_all(quick)]
    return {"python": platform.python_version(), "results": results,
            "seconds": time.perf_counter() - t}


def run_pyodide(quick: bool) -> dict:
    cmd = ["node", str(REPO / "tests" / "pyodide" / "run_bench.mjs")] + (["--quick"] if quick else [])
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, stdout=subprocess.PIPE, text=True)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    try:
        data = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        return {"error": f"run_bench.mjs exited {proc.returncode} without JSON"}
    data["seconds"] = time.perf_counter() - t
    return data


# ------------------------------------------------------------- page metrics --

INIT_SCRIPT = r"""
(() => {
  const m = window.__tesseraBench = {
    longtasks: [], frameAt: null, frameShownAt: null, readyAt: null, fcp: null, boardAt: null,
  };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) m.longtasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) {}
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.name === "first-contentful-paint") m.fcp = e.startTime;
    }).observe({ type: "paint", buffered: true });
  } catch (e) {}
  const check = () => {
    if (m.frameAt === null && document.getElementById("frame")) {
      m.frameAt = performance.now();
      // The next animation frame is the first render that includes #frame
      // (rendering waits for render-blocking CSS).
      requestAnimationFrame(() => { m.frameShownAt = performance.now(); });
    }
    const root = document.documentElement;
    if (m.readyAt === null && root && root.dataset.tessera === "ready") m.readyAt = performance.now();
    if (m.boardAt === null && document.querySelector("canvas.tessera-board[data-draws]"))
      m.boardAt = performance.now();
  };
  new MutationObserver(check).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-tessera", "data-draws"],
  });
  check();
})();
"""

READY_JS = ("() => (window.__tesseraBench && window.__tesseraBench.readyAt !== null)"
            " || typeof window.tesseraReadyAt === 'number'")

COLLECT_JS = r"""
() => {
  const m = window.__tesseraBench;
  const ready = typeof window.tesseraReadyAt === "number" ? window.tesseraReadyAt : m.readyAt;
  const boot = m.longtasks.filter(([s]) => s <= ready);
  return {
    frame_ms: m.frameShownAt !== null ? m.frameShownAt : m.frameAt,
    board_ms: m.boardAt === null ? null : Math.max(m.boardAt, ready),
    fcp_ms: m.fcp,
    ready_ms: ready,
    boot_longtask_ms: boot.length ? Math.max(...boot.map((x) => x[1])) : 0,
    sw_controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
  };
}
"""

BOT_JS = r"""
async () => {
  const hook = window.tesseraBench;
  if (!hook || typeof hook.botThink !== "function") return null;
  // Start from a regular page task (a setTimeout callback): work started
  // directly from a DevTools evaluation is not reported as a long task.
  const [t0, t1] = await new Promise((resolve, reject) => setTimeout(() => {
    const start = performance.now();
    Promise.resolve(hook.botThink()).then(() => resolve([start, performance.now()]), reject);
  }, 0));
  await new Promise((r) => setTimeout(r, 300));  // let longtask entries arrive
  const during = window.__tesseraBench.longtasks.filter(([s, d]) => s + d >= t0 && s <= t1);
  return {
    think_ms: t1 - t0,
    max_longtask_ms: during.length ? Math.max(...during.map((x) => x[1])) : 0,
    longtasks: during.length,
  };
}
"""


BENCH_SESSION_ID = "bench0game"
BOARD_READY_JS = ("() => document.documentElement.dataset.tessera === 'ready'"
                  " && !!document.querySelector('canvas.tessera-board[data-draws]')")


def saved_game_script() -> tuple[str, str]:
    """(URL hash, init script) for a hot-seat Quadrature game 10 moves in, saved as the app saves.

    Made with the session API, so the bench measures the same resume path a
    player takes; hot-seat, so no bot starts thinking during the load.
    """
    from tessera.core.session import Seat, Session  # noqa: PLC0415
    from tessera.games.quadrature import Quadrature  # noqa: PLC0415

    session = Session(Quadrature(seed=7), [Seat("human"), Seat("human")], BENCH_SESSION_ID,
                      meta={"created": 0.0, "choice": {"opponent": "human", "first": "white"}})
    for text in ("e9-e8", "e3-e4", "e8-e7", "e4-e5", "d9-d8", "f3-f4", "d8-d7", "f4-f5", "c9-c8", "g3-g4"):
        session.play_text(text)
    session.meta.update({"updated": 1.0, "to_move": session.to_move, "ply": session.game.ply,
                         "over": False, "local_turn": False, "side_names": list(session.game.seat_names)})
    key = json.dumps(f"tessera/v1/session/{BENCH_SESSION_ID}")
    value = json.dumps(json.dumps(session.to_save(), separators=(",", ":")))
    script = f"try {{ if (!localStorage.getItem({key})) localStorage.setItem({key}, {value}); }} catch (e) {{}}"
    return f"#/play/quadrature/{BENCH_SESSION_ID}", script


def game_metrics(pw, chromium: str, args: list[str], url: str) -> tuple[dict, dict]:
    """Cold then warm load of a page opening on a saved game in progress."""
    route, seed_script = saved_game_script()
    profile = tempfile.mkdtemp(prefix="tessera-bench-game-")
    try:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=chromium, args=args,
                                                    viewport={"width": 1280, "height": 900})
        try:
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.add_init_script(seed_script)
            page.add_init_script(INIT_SCRIPT)
            page.goto(url + route, wait_until="commit")
            page.wait_for_function(BOARD_READY_JS, timeout=READY_TIMEOUT_MS, polling=50)
            page.wait_for_timeout(200)
            cold = page.evaluate(COLLECT_JS)
            if page.locator("button.move").count() != 10:
                raise RuntimeError("the saved game did not open with its 10 moves")
            page.wait_for_function(
                "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                timeout=30_000, polling=100)
            page.reload(wait_until="commit")
            page.wait_for_function(BOARD_READY_JS, timeout=READY_TIMEOUT_MS, polling=50)
            page.wait_for_timeout(200)
            warm = page.evaluate(COLLECT_JS)
        finally:
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return cold, warm


def page_metrics(runs: int, site: Path) -> dict:
    try:
        from conftest import CHROMIUM, CHROMIUM_ARGS, SiteServer  # noqa: PLC0415
        from playwright.sync_api import sync_playwright  # noqa: PLC0415
    except ImportError as exc:
        return {"error": f"playwright not available ({exc})"}
    if not os.path.exists(CHROMIUM):
        return {"error": f"{CHROMIUM} missing"}
    if not (site / "index.html").exists():
        return {"error": "site/ not built (./build.sh build)"}

    cold, warm, bot = [], [], None
    game_cold: list[dict] = []
    game_warm: list[dict] = []
    notes: list[str] = []
    server = SiteServer(site)
    try:
        with sync_playwright() as pw:
            for i in range(runs):
                profile = tempfile.mkdtemp(prefix="tessera-bench-profile-")
                try:
                    ctx = pw.chromium.launch_persistent_context(
                        profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                        viewport={"width": 1280, "height": 900})
                    page = ctx.pages[0] if ctx.pages else ctx.new_page()
                    page.add_init_script(INIT_SCRIPT)
                    page.goto(server.url, wait_until="commit")
                    try:
                        page.wait_for_function(READY_JS, timeout=READY_TIMEOUT_MS, polling=50)
                    except Exception:  # noqa: BLE001 (playwright TimeoutError)
                        partial = page.evaluate(COLLECT_JS)
                        ctx.close()
                        return {"error": f"board not ready after {READY_TIMEOUT_MS / 1000:.0f} s "
                                         f"(frame at {fmt(partial['frame_ms'])} ms)"}
                    page.wait_for_timeout(200)
                    cold.append(page.evaluate(COLLECT_JS))
                    log(f"cold run {i + 1}/{runs}: ready at {cold[-1]['ready_ms']:.0f} ms")
                    # Give the service worker (registered by the app) time to take control.
                    try:
                        page.wait_for_function(
                            "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                            timeout=30_000, polling=100)
                    except Exception:  # noqa: BLE001
                        if i == 0:
                            notes.append("no service worker took control within 30 s")
                    page.reload(wait_until="commit")
                    page.wait_for_function(READY_JS, timeout=READY_TIMEOUT_MS, polling=50)
                    page.wait_for_timeout(200)
                    warm.append(page.evaluate(COLLECT_JS))
                    log(f"warm run {i + 1}/{runs}: ready at {warm[-1]['ready_ms']:.0f} ms")
                    if bot is None:
                        bot = page.evaluate(BOT_JS) or {"missing": True}
                        if bot.get("missing"):
                            notes.append("window.tesseraBench.botThink() not provided by the app")
                    ctx.close()
                finally:
                    shutil.rmtree(profile, ignore_errors=True)
                try:
                    game = game_metrics(pw, CHROMIUM, CHROMIUM_ARGS, server.url)
                except Exception as exc:  # noqa: BLE001 (report, keep the other metrics)
                    notes.append(f"saved-game load failed: {type(exc).__name__}: {exc}")
                else:
                    game_cold.append(game[0])
                    game_warm.append(game[1])
                    log(f"saved game run {i + 1}/{runs}: board at {fmt(game[0]['board_ms'])} ms cold, "
                        f"{fmt(game[1]['board_ms'])} ms warm")
    finally:
        server.stop()
    return {"cold": cold, "warm": warm, "game_cold": game_cold, "game_warm": game_warm,
            "bot": bot, "notes": notes, "runs": runs}


# -------------------------------------------------------------------- table --

def fmt(v: float | None) -> str:
    if v is None:
        return "n/a"
    a = abs(v)
    if a == 0:
        return "0"
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def slowdown(unit: str, cpy: float | None, pyo: float | None) -> str:
    if not cpy or not pyo:
        return ""
    if unit.endswith("/s"):
        return f"{cpy / pyo:.2f}x"
    if unit in TIME_UNITS:
        return f"{pyo / cpy:.2f}x"
    return f"{pyo / cpy:.2f} (ratio)"


def median_of(rows: list[dict], key: str) -> float | None:
    vals = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def build_table(cpy: dict, pyo: dict, page: dict) -> str:
    out = ["| metric | unit | CPython | Pyodide (Node) | Pyodide slowdown | Chromium |",
           "| --- | --- | ---: | ---: | ---: | ---: |"]
    c_res = {r["name"]: r for r in cpy.get("results", [])}
    p_res = {r["name"]: r for r in pyo.get("results", [])}
    names = list(c_res) + [n for n in p_res if n not in c_res]
    for name in names:
        c, p = c_res.get(name), p_res.get(name)
        unit = (c or p)["unit"]
        cv = c["value"] if c else None
        pv = p["value"] if p else None
        if c and p and p["unit"] != unit:
            pv = None
        out.append(f"| {name} | {unit} | {fmt(cv)} | {fmt(pv)} | {slowdown(unit, cv, pv)} | |")
    if not names:
        why = cpy.get("error") or pyo.get("error") or "no results"
        out.append(f"| engine benchmarks ({why}) | | n/a | n/a | | |")
    if pyo.get("boot_seconds") is not None:
        out.append(f"| Pyodide boot (loadPyodide, Node) | s | | {fmt(pyo['boot_seconds'])} | | |")

    if page.get("error"):
        out.append(f"| page metrics | | | | | n/a ({page['error']}) |")
    elif page:
        runs = page["runs"]
        label = f"median of {runs}" if runs > 1 else "1 run"
        for phase in ("cold", "warm"):
            rows = page[phase]
            what = ("cold: fresh profile" if phase == "cold"
                    else "warm: reload, same profile")
            out.append(f"| {what}: frame (#frame) rendered ({label}) | ms | | | | "
                       f"{fmt(median_of(rows, 'frame_ms'))} |")
            out.append(f"| {what}: first contentful paint | ms | | | | {fmt(median_of(rows, 'fcp_ms'))} |")
            out.append(f"| {what}: home screen ready (data-tessera=ready) | ms | | | | "
                       f"{fmt(median_of(rows, 'ready_ms'))} |")
            lt = median_of(rows, "boot_longtask_ms")
            out.append(f"| {what}: longest main-thread task during boot | ms | | | | "
                       f"{fmt(lt) if lt else '< 50 (none)'} |")
        for phase, what in (("game_cold", "cold: fresh profile"), ("game_warm", "warm: reload, same profile")):
            rows = page.get(phase) or []
            out.append(f"| {what}, opening a game in progress: board drawn and interactive | ms | | | | "
                       f"{fmt(median_of(rows, 'board_ms'))} |")
        if page["warm"]:
            ctl = all(r["sw_controlled"] for r in page["warm"])
            out.append(f"| warm load served under the service worker | | | | | {'yes' if ctl else 'no'} |")
        bot = page.get("bot") or {}
        if bot.get("missing") or not bot:
            out.append("| longest main-thread task while the bot thinks | ms | | | | n/a |")
        else:
            out.append(f"| bot move (tesseraBench.botThink) | ms | | | | {fmt(bot['think_ms'])} |")
            mx = bot["max_longtask_ms"]
            out.append(f"| longest main-thread task while the bot thinks | ms | | | | "
                       f"{fmt(mx) if mx else '< 50 (none)'} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short engine runs, one page load")
    ap.add_argument("--runs", type=int, default=None, help="cold page loads (default 3, quick 1)")
    ap.add_argument("--no-engine", action="store_true")
    ap.add_argument("--no-pyodide", action="store_true")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--json", metavar="PATH", help="also write the raw results as JSON")
    ap.add_argument("--site", default=str(REPO / "site"), help="built site to measure (default: site/)")
    args = ap.parse_args(argv)
    runs = args.runs or (1 if args.quick else 3)

    cpy: dict = {}
    pyo: dict = {}
    page: dict = {}
    if not args.no_engine:
        log(f"engine benchmarks in CPython {platform.python_version()} (quick={args.quick})")
        cpy = run_cpython(args.quick)
        if "error" in cpy:
            log(cpy["error"])
        if not args.no_pyodide:
            log("engine benchmarks in Pyodide under Node")
            pyo = run_pyodide(args.quick)
            if "error" in pyo:
                log(f"Pyodide: {pyo['error']}")
    if not args.no_browser:
        log(f"page metrics in headless Chromium ({runs} cold + warm load(s))")
        page = page_metrics(runs, Path(args.site))
        for note in page.get("notes", []):
            log(note)

    header = (f"Tessera bench — CPython {cpy.get('python', platform.python_version())}, "
              f"Pyodide Python {pyo.get('python', 'n/a')}, {platform.machine()}, "
              f"{os.cpu_count()} CPUs, quick={args.quick}")
    print()
    print(header)
    print()
    print(build_table(cpy, pyo, page))
    if args.json:
        Path(args.json).write_text(json.dumps({"cpython": cpy, "pyodide": pyo, "page": page}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
