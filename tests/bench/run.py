#!/usr/bin/env python3
"""Tessera benchmark harness (run by ``./build.sh bench``).

Collects, and prints as ONE markdown table:

(a) engine benchmarks in CPython: ``tessera.benchmarks.run_all(quick)``, which
    returns a list of ``{"name": str, "value": float, "unit": str}``;
(b) the same function in Pyodide under Node (tests/pyodide/run_bench.mjs);
(c) page metrics in headless Chromium against the built site (scripts/serve.py):
    a cold load (fresh profile: no HTTP cache, no service worker; in a
    browser that has finished starting, ``settle_browser``), a warm
    reload (same profile, after the service worker took control and the page
    kept its inflated snapshot) and a warm load in a new tab of that profile
    (a new renderer: the wasm compiled again, as when a player comes back):
      - time until the page frame (#frame) is first rendered,
      - first contentful paint,
      - time until the home screen is ready (``window.tesseraReadyAt`` when
        the app sets it, else the moment ``<html data-tessera="ready">``
        appeared), all from navigation start;
      - when the snapshot was ready and when Python had started from it (the
        loader's ``tessera:*`` performance marks);
      - the longest main-thread task during the boot;
    and a cold load over an emulated network (30 Mbit/s, 40 ms latency:
    ``SLOW_NETWORK``), app and bare page, where the order of the downloads
    counts as well as the CPU;
(d) time to an interactive board when the page opens on a game in progress
    (``#/play/quadrature/<id>``): the saved game is made here in CPython with
    ``tessera.core.session`` and put into localStorage by an init script
    before the page's own scripts run; "cold" is a fresh profile, "warm" a
    reload in the same profile once the service worker controls it, then a
    new tab of it.  The
    board counts as interactive when the app is ready
    (``<html data-tessera="ready">``) and the board canvas has drawn
    (``canvas.tessera-board[data-draws]``);
(e) the longest main-thread task while the bot thinks: if the app exposes
    ``window.tesseraBench.botThink(record, level, where)`` (a Promise of the
    move's figures, nodes and depth, once a bot move of the normal move time
    is done), it is called once the board is ready and the longest
    ``longtask`` entry inside that window is reported, for the bots' worker
    and for the main thread's sliced search (the fallback), with the master's
    nodes per second in each;
(f) a bare PyScript page measured in the same run, the yardstick of every
    start-up figure (each is also given as a ratio to it): the same vendored
    Pyodide (node_modules' own files when present) and PyScript, no
    snapshot, no service worker, one line of Python that marks the page
    ready; served from a temporary folder of links;
(g) memory after a warm start, app and bare page, after a forced garbage
    collection (CDP): the JavaScript heap with its array buffers
    (``Runtime.getHeapUsage``: used + embedder + backing stores; wasm memory
    is not in it) and the WebAssembly memories (the init script notes every
    ``WebAssembly.Memory`` made or exported by an instance); and the page's
    renderer process as the system counts it (``/proc``: resident, and its
    anonymous, file-backed and shared parts), which also holds what neither
    figure sees (compiled code, canvases, the renderer's own heaps); the
    renderer is also measured for the bare page showing a screen like the
    app's (``drawn.html``): a page that draws holds raster tiles and pages of
    the browser's code that a blank page never touches;
(h) bytes on the wire for a first visit: a fresh profile opens the home
    screen and stays until the service worker has precached the site and
    controls the page; the server (scripts/serve.py, in this process) counts
    every byte it sent, headers included, once plain and once with gzip;
(i) one move at every stage of a long game: a hot-seat 39x32 Dots game
    saved at move 0, 300, 600 and 1000, opened, and played by clicks; for
    each, the click-to-paint time, the click handlers' time and the longest
    task per move (``long_game.py``);
(j) the examples page's ten embedded boards, fresh and warm: the first
    static picture, the bytes fetched before it (no Pyodide bytes is the
    target), the first and the last board interactive, and how often
    pyodide.asm.wasm was requested (``embed_page.py``);
(k) the relay under load (``relay_load.py``): many concurrent games on
    loopback, in memory and over Redis with 1, 2 and 4 relay processes, and
    1000 games over Redis for the longest wait: games held, moves a second,
    move latency p50/p99/max, CPU per move, memory per connection (figures
    in the CPython column: the relay is a CPython program).
(l) a second Pyodide in a Web Worker: its start from the snapshot, the
    memory it adds, the longest main-thread task meanwhile, and the
    master's reading there, unsliced (``worker_cost.py``);

Options: --quick, --runs N (cold loads, median reported), --startup-only, --no-engine,
--no-pyodide, --no-browser, --no-relay, --no-relay-stall (the 1000-game run),
--relay-py DIR (the relays from another copy of py/), --json PATH (raw
results), --site DIR.  ``--no-engine --no-browser`` runs the relay alone.

The table is built by sections (``engine_rows`` and ``PAGE_SECTIONS``), each
a function of the collected results returning rows (``row(...)``): a new
measurement adds its collector and its section.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "py"))
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "tests" / "bench"))

from embed_page import embed_metrics, embed_rows  # noqa: E402
from long_game import long_game_metrics, table_rows  # noqa: E402
from relay_load import relay_load_metrics, relay_rows  # noqa: E402
from worker_cost import worker_metrics, worker_rows  # noqa: E402

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
  // WebAssembly memories, for the memory figures (weakly held).
  m.wasm = [];
  const keep = (mem) => { if (mem instanceof WebAssembly.Memory) m.wasm.push(new WeakRef(mem)); };
  const keepExports = (result) => {
    const instance = result && (result.instance || result);
    if (instance && instance.exports) Object.values(instance.exports).forEach(keep);
    return result;
  };
  try {
    const Memory = WebAssembly.Memory;
    WebAssembly.Memory = function (...args) { const mem = new Memory(...args); keep(mem); return mem; };
    WebAssembly.Memory.prototype = Memory.prototype;
    for (const name of ["instantiate", "instantiateStreaming"]) {
      const original = WebAssembly[name];
      WebAssembly[name] = function (...args) { return original.apply(this, args).then(keepExports); };
    }
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

AFTER_READY_MS = 3000
"""How long after the first screen is ready its longest task is also looked for: the work
left for then (tessera.zip's files written, PyScript's modules compiled and imported) runs
in idle callbacks, while the player may already click."""

COLLECT_JS = r"""
() => {
  const AFTER_READY_MS = __AFTER_READY_MS__;
  const markAt = (name) => {
    const entry = performance.getEntriesByName(name, "mark")[0];
    return entry ? entry.startTime : null;
  };
  const m = window.__tesseraBench;
  const ready = typeof window.tesseraReadyAt === "number" ? window.tesseraReadyAt : m.readyAt;
  const boot = m.longtasks.filter(([s]) => s <= ready);
  const after = m.longtasks.filter(([s]) => s > ready && s <= ready + AFTER_READY_MS);
  return {
    frame_ms: m.frameShownAt !== null ? m.frameShownAt : m.frameAt,
    board_ms: m.boardAt === null ? null : Math.max(m.boardAt, ready),
    fcp_ms: m.fcp,
    ready_ms: ready,
    boot_longtask_ms: boot.length ? Math.max(...boot.map((x) => x[1])) : 0,
    after_longtask_ms: after.length ? Math.max(...after.map((x) => x[1])) : 0,
    sw_controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
    snapshot_ms: markAt("tessera:snapshot-inflated") ?? markAt("tessera:snapshot-from-cache"),
    python_ms: markAt("tessera:python-started"),
    snapshot_cached: typeof globalThis.tesseraSnapshotFromCache === "boolean" ? globalThis.tesseraSnapshotFromCache : null,
    wasm_ms: markAt("tessera:wasm-inflated") ?? markAt("tessera:wasm-from-cache"),
    wasm_cached: typeof globalThis.tesseraWasmFromCache === "boolean" ? globalThis.tesseraWasmFromCache : null,
    inflate_snapshot_ms: (globalThis.tesseraInflateMs || {}).snapshot ?? null,
    inflate_wasm_ms: (globalThis.tesseraInflateMs || {}).wasm ?? null,
  };
}
""".replace("__AFTER_READY_MS__", str(AFTER_READY_MS))

AFTER_READY_JS = ("(after) => performance.now() > (typeof window.tesseraReadyAt === 'number'"
                  " ? window.tesseraReadyAt : window.__tesseraBench.readyAt) + after")


def collect(page) -> dict:
    """COLLECT_JS's figures, once AFTER_READY_MS have passed since the first screen was ready
    (and the long tasks' entries of that time have arrived)."""
    page.wait_for_function(AFTER_READY_JS, arg=AFTER_READY_MS, timeout=AFTER_READY_MS + 30_000, polling=100)
    page.wait_for_timeout(300)
    return page.evaluate(COLLECT_JS)


BOT_JS = r"""
async ([record, level, where]) => {
  const hook = window.tesseraBench;
  if (!hook || typeof hook.botThink !== "function") return null;
  // Start from a regular page task (a setTimeout callback): work started
  // directly from a DevTools evaluation is not reported as a long task.
  const [t0, t1, figures] = await new Promise((resolve, reject) => setTimeout(() => {
    const start = performance.now();
    Promise.resolve(hook.botThink(record, level, where)).then(
      (figures) => resolve([start, performance.now(), figures]), reject);
  }, 0));
  await new Promise((r) => setTimeout(r, 300));  // let longtask entries arrive
  const during = window.__tesseraBench.longtasks.filter(([s, d]) => s + d >= t0 && s <= t1);
  const got = figures && typeof figures === "object" ? figures : {};
  return {
    think_ms: t1 - t0,
    max_longtask_ms: during.length ? Math.max(...during.map((x) => x[1])) : 0,
    longtasks: during.length,
    nodes: got.nodes ?? null,
    depth: got.depth ?? null,
    search_ms: got.worker_ms ?? got.ms ?? null,
    where: got.where ?? where ?? null,
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


def profile_processes(profile: str) -> Iterator[tuple[str, bytes]]:
    """The processes whose command line names ``profile`` (the browser launched on it and its
    children), from ``/proc`` (Linux): (their folder's name there, the command line)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:   # gone meanwhile
            continue
        if profile.encode() in command:
            yield entry, command


def profile_cpu_ms(profile: str) -> float:
    """The CPU time (user + system, ms) used so far by the processes of ``profile``
    (``profile_processes``)."""
    ticks = 0
    for entry, _ in profile_processes(profile):
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:   # gone meanwhile
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks * 1000 / os.sysconf("SC_CLK_TCK")


BROWSER_QUIET_MS = 300
"""How long a newly launched browser must use (next to) no CPU before a cold load starts."""
SETTLE_COLD_LOADS = True
"""False (``--cold-at-launch``): cold loads start as soon as the browser is up, as the bench
did before stop 51, so that figures taken either way can be compared."""


def settle_browser(profile: str, limit_s: float = 5.0) -> None:
    """Wait until the browser just launched on ``profile`` has finished starting: for its first
    0.5-0.7 s it used 1.5 cores of the two (about 900 ms of CPU), then next to none.  A first
    visit is made in a browser already running; loaded at once, the app's start (1 s) shared
    the cores with the browser's (its home screen 1,342 ms against 881 a second later, medians
    of 6), the bare page's (3 s) less so in proportion.  Every cold load, app and bare page,
    waits alike.  Where ``/proc`` cannot be read, it waits 1 s."""
    step = 0.1
    quiet = 0.0
    deadline = time.monotonic() + limit_s
    try:
        used = profile_cpu_ms(profile)
    except OSError:
        time.sleep(1.0)
        return
    while quiet * 1000 < BROWSER_QUIET_MS and time.monotonic() < deadline:
        time.sleep(step)
        now = profile_cpu_ms(profile)
        quiet = quiet + step if now - used <= 10 else 0.0
        used = now


@contextlib.contextmanager
def fresh_profile(pw, prefix: str):
    """A browser on a new, empty profile (a first visit: no HTTP cache, no
    service worker), deleted afterwards, once it has finished starting
    (``settle_browser``): yields (context, its page, the profile's folder)."""
    from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: PLC0415

    profile = tempfile.mkdtemp(prefix=prefix)
    try:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                    viewport={"width": 1280, "height": 900})
        try:
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            if SETTLE_COLD_LOADS:
                settle_browser(profile)
            yield ctx, page, profile
        finally:
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


SW_CONTROLS_JS = "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null"
"""True once the site's service worker controls the page."""


def warm_reload(page, ready_js: str, sw: bool = True) -> dict:
    """The page reloaded and measured, once the service worker controls it and
    the page has kept what a later load reads (``sw``; a page without one is
    reloaded at once)."""
    if sw:
        page.wait_for_function(SW_CONTROLS_JS, timeout=30_000, polling=100)
        settle_for_warm(page)
    page.reload(wait_until="commit")
    page.wait_for_function(ready_js, timeout=READY_TIMEOUT_MS, polling=50)
    return collect(page)


def game_metrics(pw, url: str) -> tuple[dict, dict]:
    """Cold then warm load of a page opening on a saved game in progress."""
    route, seed_script = saved_game_script()
    with fresh_profile(pw, "tessera-bench-game-") as (ctx, page, _):
        page.add_init_script(seed_script)
        page.add_init_script(INIT_SCRIPT)
        page.goto(url + route, wait_until="commit")
        page.wait_for_function(BOARD_READY_JS, timeout=READY_TIMEOUT_MS, polling=50)
        cold = collect(page)
        if page.locator("button.move").count() != 10:
            raise RuntimeError("the saved game did not open with its 10 moves")
        warm = warm_reload(page, BOARD_READY_JS)
        warm["new_tab"] = new_tab_metrics(ctx, page, url + route, BOARD_READY_JS)
    return cold, warm


BARE_HTML = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>bare PyScript page</title>
  <link rel="stylesheet" href="./vendor/pyscript/core.css">
  <script type="module" src="./vendor/pyscript/core.js"></script>
</head>
<body>
  <main id="frame"><p>Loading…</p></main>
  <script type="py" config="./pyscript.toml">
import js
js.window.tesseraReadyAt = js.performance.now()
js.document.documentElement.dataset.tessera = "ready"
  </script>
</body>
</html>
"""
DRAWN_SCREEN = """<header style="background:#2b2b2b;color:#eee;padding:8px 16px;font:16px sans-serif">
  <b>Tessera</b> &middot; Home &middot; Games &middot; Rules</header>
<main id="frame" style="display:flex;gap:16px;padding:16px;background:#f4efe6;font:14px sans-serif">
  <canvas id="board" width="640" height="640"></canvas>
  <section><h2>Dots</h2><p>Move 12. Your move.</p><p>Captured: 3 : 1</p>
    <ol><li>a1 b2</li><li>c3 d4</li><li>e5 f6</li></ol><button>Undo</button> <button>Hint</button></section>
</main>
<script>
  const g = document.getElementById("board").getContext("2d");
  g.fillStyle = "#e8dcc0"; g.fillRect(0, 0, 640, 640); g.strokeStyle = "#777";
  for (let i = 0; i < 20; i++) {
    g.beginPath(); g.moveTo(16 + i * 32, 0); g.lineTo(16 + i * 32, 640);
    g.moveTo(0, 16 + i * 32); g.lineTo(640, 16 + i * 32); g.stroke();
  }
  for (let i = 0; i < 40; i++) {
    g.fillStyle = i % 2 ? "#c33" : "#33c"; g.beginPath();
    g.arc(16 + (i * 7 % 20) * 32, 16 + (i * 3 % 20) * 32, 7, 0, 7); g.fill();
  }
</script>"""
"""The bare page's screen drawn as the app's is (a header, a board on a canvas, a panel of text):
``drawn.html``, the yardstick of the renderer's memory, since a page that draws holds raster
tiles and pages of the browser's code that a blank one never touches."""
BARE_TOML = 'name = "bare"\ninterpreter = "./vendor/pyodide/pyodide.mjs"\n'


def make_bare_site(site: Path) -> Path:
    """A temporary folder serving the bare PyScript page (links, no copies), and beside it
    ``drawn.html``, the same page showing a screen like the app's (``DRAWN_SCREEN``)."""
    site = site.resolve()   # the links below are made in another folder: a relative --site broke them
    bare = Path(tempfile.mkdtemp(prefix="tessera-bench-bare-"))
    (bare / "index.html").write_text(BARE_HTML, encoding="utf-8")
    drawn = BARE_HTML.replace('<main id="frame"><p>Loading…</p></main>', DRAWN_SCREEN)
    assert drawn != BARE_HTML, "the bare page's frame moved: DRAWN_SCREEN is not in drawn.html"
    (bare / "drawn.html").write_text(drawn, encoding="utf-8")
    (bare / "pyscript.toml").write_text(BARE_TOML, encoding="utf-8")
    (bare / "vendor" / "pyodide").mkdir(parents=True)
    (bare / "vendor" / "pyscript").symlink_to(site / "vendor" / "pyscript", target_is_directory=True)
    shipped = REPO / "node_modules" / "pyodide"
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        src = shipped / name if (shipped / name).exists() else site / "vendor" / "pyodide" / name
        (bare / "vendor" / "pyodide" / name).symlink_to(src)
    return bare


MEMORY_SETTLE_MS = 1000
WASM_BYTES_JS = """() => [...new Set(window.__tesseraBench.wasm.map((r) => r.deref()).filter(Boolean))]
    .reduce((sum, mem) => sum + mem.buffer.byteLength, 0)"""


def renderer_memory(profile: str) -> dict:
    """The page's renderer process, found in ``/proc`` (Linux): the largest of the
    renderers whose command line names ``profile`` (the others are spares Chromium
    keeps): its resident memory and its three parts: anonymous (heaps, wasm memory,
    compiled code), file-backed (the browser's own code and fonts, clean pages shared
    with every process that maps them) and shared memory (raster tiles and canvases,
    shared with the browser process)."""
    best: dict = {}
    for entry, command in profile_processes(profile):
        if b"--type=renderer" not in command:
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:   # gone meanwhile
            continue
        sizes = {line.split(":")[0]: int(line.split()[1]) * 1024
                 for line in status.splitlines() if line.startswith(("VmRSS:", "RssAnon:", "RssFile:", "RssShmem:"))}
        if sizes.get("VmRSS", 0) > best.get("renderer_rss", 0):
            best = {"renderer_rss": sizes.get("VmRSS", 0), "renderer_anon": sizes.get("RssAnon", 0),
                    "renderer_file": sizes.get("RssFile", 0), "renderer_shmem": sizes.get("RssShmem", 0)}
    return best


def memory_now(page, profile: str | None = None) -> dict:
    """JS heap (with array buffers) and wasm memory of a page, after a forced GC;
    with ``profile``, its renderer process's memory too (``renderer_memory``)."""
    cdp = page.context.new_cdp_session(page)
    try:
        page.wait_for_timeout(MEMORY_SETTLE_MS)
        cdp.send("HeapProfiler.enable")
        cdp.send("HeapProfiler.collectGarbage")
        cdp.send("HeapProfiler.collectGarbage")
        heap = cdp.send("Runtime.getHeapUsage")
        js_bytes = (heap.get("usedSize", 0) + heap.get("embedderHeapUsedSize", 0)
                    + heap.get("backingStorageSize", 0))
        wasm = page.evaluate(WASM_BYTES_JS)
    finally:
        cdp.detach()
    process = renderer_memory(profile) if profile else {}
    return {"js_bytes": js_bytes, "wasm_bytes": wasm, "total_bytes": js_bytes + wasm, **process}


SNAPSHOT_COPY_JS = ("async () => typeof globalThis.tesseraSnapshotFromCache !== 'boolean' || !window.caches"
                    " || !!(await (await caches.open('tessera-inflated-snapshot')).keys()).length")


NEW_TAB_AFTER_MS = 5_000
"""How long the warm page stays open before the new tab: a player who comes back had the app
open a while."""


def new_tab_metrics(ctx, page, url: str, ready_js: str) -> dict:
    """A warm start in a new tab of the same profile, ``page`` closed first: how a player comes
    back.  A reload keeps its renderer, and with it the wasm compiled by the load before; a new
    tab starts a renderer, which compiles the wasm again (lazily, as functions first run: the
    kept wasm is read without a URL, so Chromium keeps no compiled code for it).  (Beside an
    open page of the site, a new tab may be given that page's renderer: not the player's case.)"""
    page.wait_for_timeout(NEW_TAB_AFTER_MS)
    page.close()
    tab = ctx.new_page()
    try:
        tab.add_init_script(INIT_SCRIPT)
        tab.goto(url, wait_until="commit")
        tab.wait_for_function(ready_js, timeout=READY_TIMEOUT_MS, polling=50)
        return collect(tab)
    finally:
        tab.close()


MODULES_WARMED_JS = ("() => !globalThis.tesseraUpdate || typeof globalThis.tesseraModulesWarmed === 'number'")
"""Whether the page is done having its module scripts compiled through the service worker
after a first install (update.js's warmModules), or does not do that (the bare page)."""


def settle_for_warm(page, timeout_s: float = 10.0) -> None:
    """Before a warm reload: let the page finish writing its inflated snapshot copy (if it keeps
    one) and compiling its module scripts through the service worker (if it does), as it has
    long before a player comes back."""
    deadline = time.monotonic() + timeout_s
    while not (page.evaluate(SNAPSHOT_COPY_JS) and page.evaluate(MODULES_WARMED_JS)) \
            and time.monotonic() < deadline:
        page.wait_for_timeout(200)  # an app without the copy: reload anyway after the timeout


def load_metrics(pw, url: str, sw: bool = True, memory: bool = False, on_warm=None,
                 new_tab: bool = True) -> tuple[dict, dict]:
    """Cold load in a fresh profile, then a warm reload (once the service worker controls the page).

    ``memory``: also measure memory after the warm start; ``on_warm(page)``
    runs last on the warm page (the bot measurement); ``new_tab``: then a
    warm start in a new tab (``new_tab_metrics``).
    """
    with fresh_profile(pw, "tessera-bench-profile-") as (ctx, page, profile):
        page.add_init_script(INIT_SCRIPT)
        page.goto(url, wait_until="commit")
        try:
            page.wait_for_function(READY_JS, timeout=READY_TIMEOUT_MS, polling=50)
        except Exception as exc:  # noqa: BLE001 (playwright TimeoutError)
            partial = page.evaluate(COLLECT_JS)
            raise RuntimeError(f"not ready after {READY_TIMEOUT_MS / 1000:.0f} s "
                               f"(frame at {fmt(partial['frame_ms'])} ms)") from exc
        cold = collect(page)
        warm = warm_reload(page, READY_JS, sw)
        if memory:
            warm.update(memory_now(page, profile))
        if on_warm is not None:
            on_warm(page)
        if new_tab:
            warm["new_tab"] = new_tab_metrics(ctx, page, url, READY_JS)
    return cold, warm


SLOW_NETWORK = {"offline": False, "latency": 40, "downloadThroughput": 30e6 / 8, "uploadThroughput": 30e6 / 8}
"""A first visit over a network, not the loopback: 30 Mbit/s each way, 40 ms
of latency (Chromium's emulation, DevTools' Network.emulateNetworkConditions)."""


def slow_network_cold(pw, url: str) -> dict:
    """Cold load in a fresh profile over SLOW_NETWORK: when the home screen was
    ready, and when the requests of Python's own files ended (``fetched``)."""
    with fresh_profile(pw, "tessera-bench-network-") as (ctx, page, _):
        page.add_init_script(INIT_SCRIPT)
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
        page.goto(url, wait_until="commit")
        page.wait_for_function(READY_JS, timeout=READY_TIMEOUT_MS, polling=50)
        got = page.evaluate(COLLECT_JS)
        got["fetched"] = page.evaluate("""() => Object.fromEntries(performance.getEntriesByType("resource")
            .filter((r) => /(tessera[.]zip|main[.]py)$/.test(r.name))
            .map((r) => [r.name.split("/").pop() + "@" + Math.round(r.startTime), Math.round(r.responseEnd)]))""")
    return got


def first_visit_bytes(pw, site: Path, gzip: bool) -> dict:
    """Bytes the server sends for a first visit: home screen ready and the site precached."""
    import threading  # noqa: PLC0415

    import serve  # noqa: PLC0415 (scripts/serve.py)

    server = serve.make_server(str(site), gzip=gzip)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with fresh_profile(pw, "tessera-bench-bytes-") as (_, page, _):
            page.goto(server.base_url, wait_until="commit")
            page.wait_for_function(READY_JS, timeout=READY_TIMEOUT_MS, polling=50)
            page.wait_for_function(SW_CONTROLS_JS, timeout=60_000, polling=100)
            page.wait_for_timeout(500)
        with server.stats["lock"]:
            return {"bytes": server.stats["bytes"], "requests": server.stats["requests"],
                    "by_path": dict(server.stats["by_path"])}
    finally:
        server.shutdown()
        server.server_close()


class _Skipped(Exception):
    """A measurement left out (--startup-only)."""


def page_metrics(runs: int, site: Path, startup_only: bool = False) -> dict:
    try:
        from conftest import CHROMIUM, CHROMIUM_ARGS, SiteServer  # noqa: PLC0415
        from playwright.sync_api import sync_playwright  # noqa: PLC0415
    except ImportError as exc:
        return {"error": f"playwright not available ({exc})"}
    if not os.path.exists(CHROMIUM):
        return {"error": f"{CHROMIUM} missing"}
    if not (site / "index.html").exists():
        return {"error": "site/ not built (./build.sh build)"}

    res: dict = {"cold": [], "warm": [], "game_cold": [], "game_warm": [], "bare_cold": [], "bare_warm": [],
                 "drawn_warm": [], "slow_cold": [], "bare_slow_cold": [], "bot": None, "notes": [], "runs": runs,
                 "bytes": {}}
    bare_dir = make_bare_site(site)
    server = SiteServer(site)
    bare = SiteServer(bare_dir)

    def bot_once(page) -> None:
        if res["bot"] is None:
            # The first move also starts the worker: it is the one the player waits for once.
            res["bot_first"] = page.evaluate(BOT_JS, [None, None, "worker"]) or {"missing": True}
            res["bot"] = page.evaluate(BOT_JS, [None, None, "worker"]) or {"missing": True}
            res["bot_page"] = page.evaluate(BOT_JS, [None, None, "page"]) or {"missing": True}
            if res["bot"].get("missing"):
                res["notes"].append("window.tesseraBench.botThink() not provided by the app")
            else:
                for label, record, key in dots_fights():
                    for where in ("worker", "page"):
                        res.setdefault("dots_bot", []).append(
                            (label, key, page.evaluate(BOT_JS, [record, key, where]) or {"missing": True}))

    try:
        with sync_playwright() as pw:
            for gzip in (False, True):
                try:
                    res["bytes"]["gzip" if gzip else "plain"] = first_visit_bytes(pw, site, gzip)
                except Exception as exc:  # noqa: BLE001 (report, keep the other metrics)
                    res["notes"].append(f"first-visit bytes ({'gzip' if gzip else 'plain'}) failed: {exc}")
                else:
                    got = res["bytes"]["gzip" if gzip else "plain"]
                    log(f"first visit {'gzip' if gzip else 'plain'}: {got['bytes'] / 1e6:.2f} MB "
                        f"in {got['requests']} requests")
            try:
                if startup_only:
                    raise _Skipped
                res["embed"] = embed_metrics(pw, server.url)
            except _Skipped:
                pass
            except Exception as exc:  # noqa: BLE001 (report, keep the other metrics)
                res["notes"].append(f"examples page failed: {type(exc).__name__}: {exc}")
            else:
                fresh = res["embed"]["fresh"]
                log(f"examples page: picture at {fmt(fresh['picture_ms'])} ms, first board live at "
                    f"{fmt(fresh['first_ready_ms'])} ms, all at {fmt(fresh['all_ready_ms'])} ms (fresh)")
            for i in range(runs):
                try:
                    cold, warm = load_metrics(pw, server.url, memory=True,
                                              on_warm=None if startup_only else bot_once)
                except Exception as exc:  # noqa: BLE001
                    return {"error": str(exc)}
                res["cold"].append(cold)
                res["warm"].append(warm)
                log(f"run {i + 1}/{runs}: ready at {cold['ready_ms']:.0f} ms cold, {warm['ready_ms']:.0f} ms warm")
                try:
                    cold, warm = load_metrics(pw, bare.url, sw=False, memory=True)
                except Exception as exc:  # noqa: BLE001
                    res["notes"].append(f"bare PyScript page failed: {type(exc).__name__}: {exc}")
                else:
                    res["bare_cold"].append(cold)
                    res["bare_warm"].append(warm)
                    log(f"run {i + 1}/{runs}: bare PyScript page ready at {cold['ready_ms']:.0f} ms cold, "
                        f"{warm['ready_ms']:.0f} ms warm")
                try:
                    res["drawn_warm"].append(load_metrics(pw, bare.url + "drawn.html", sw=False, memory=True,
                                                          new_tab=False)[1])
                except Exception as exc:  # noqa: BLE001
                    res["notes"].append(f"bare page that draws failed: {type(exc).__name__}: {exc}")
                for key, where in (("slow_cold", server.url), ("bare_slow_cold", bare.url)):
                    try:
                        res[key].append(slow_network_cold(pw, where))
                    except Exception as exc:  # noqa: BLE001
                        res["notes"].append(f"first visit over a network ({key}) failed: {type(exc).__name__}: {exc}")
                    else:
                        fetched = res[key][-1]["fetched"]
                        log(f"run {i + 1}/{runs}: over a network, {key} ready at {res[key][-1]['ready_ms']:.0f} ms"
                            + (f" (Python's own files, name@start: end: {fetched})" if fetched else ""))
                if i == 0 and not startup_only:
                    try:
                        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                        try:
                            res["long_game"] = long_game_metrics(browser, server.url)
                        finally:
                            browser.close()
                    except Exception as exc:  # noqa: BLE001
                        res["notes"].append(f"long-game moves failed: {type(exc).__name__}: {exc}")
                    else:
                        log("long game: " + ", ".join(f"move {r['plies']} longest task "
                                                      f"{fmt(r['longest_task_ms'])} ms" for r in res["long_game"]))
                    try:
                        from conftest import wait_ready  # noqa: PLC0415
                        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                        try:
                            positions = [fight for fight in dots_fights() if fight[2] == "hard"]
                            res["worker"] = worker_metrics(browser, server.url, positions, wait_ready)
                        finally:
                            browser.close()
                    except Exception as exc:  # noqa: BLE001
                        res["notes"].append(f"worker start failed: {type(exc).__name__}: {exc}")
                    else:
                        log(f"worker: Pyodide in {fmt(res['worker'].get('start_ms'))} ms, "
                            f"{fmt(res['worker'].get('heap_mb'))} MB")
                try:
                    game = game_metrics(pw, server.url)
                except Exception as exc:  # noqa: BLE001
                    res["notes"].append(f"saved-game load failed: {type(exc).__name__}: {exc}")
                else:
                    res["game_cold"].append(game[0])
                    res["game_warm"].append(game[1])
                    log(f"run {i + 1}/{runs}: saved game board at {fmt(game[0]['board_ms'])} ms cold, "
                        f"{fmt(game[1]['board_ms'])} ms warm")
    finally:
        server.stop()
        bare.stop()
        shutil.rmtree(bare_dir, ignore_errors=True)
    if res["warm"] and not all(r["sw_controlled"] for r in res["warm"]):
        res["notes"].append("a warm load was not served under the service worker")
    return res


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


def row(metric: str, unit: str = "", cpython: str = "", pyodide: str = "", slow: str = "",
        chromium: str = "") -> str:
    return f"| {metric} | {unit} | {cpython} | {pyodide} | {slow} | {chromium} |"


def engine_rows(cpy: dict, pyo: dict) -> list[str]:
    out = []
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
        out.append(row(name, unit, fmt(cv), fmt(pv), slowdown(unit, cv, pv)))
    if not names:
        why = cpy.get("error") or pyo.get("error") or "no results"
        out.append(row(f"engine benchmarks ({why})", "", "n/a", "n/a"))
    if pyo.get("boot_seconds") is not None:
        out.append(row("Pyodide boot (loadPyodide, Node)", "s", pyodide=fmt(pyo["boot_seconds"])))
    return out


def versus(value: float | None, bare: float | None, none: str = "n/a") -> str:
    """A figure with its ratio to the bare PyScript page's: ``1,300 (1.21x bare)``."""
    if value is None:
        return none
    text = fmt(value) if value else none
    if value and bare:
        text += f" ({value / bare:.2f}x bare)"
    return text


def paired_ratio(rows: list[dict], bare: list[dict], key: str) -> str:
    """The median of each run's figure over the bare page's in that run, with their range: on a
    machine whose speed drifts (one run's bare page took 2.8 s, another's 4.6), a ratio of two
    medians may pair a slow spell with a quick one, where each run's pair shares its moment."""
    ratios = sorted(row[key] / other[key] for row, other in zip(rows, bare)
                    if len(rows) == len(bare) and row.get(key) and other.get(key))
    if not ratios:
        return "n/a"
    return f"{statistics.median(ratios):.2f}x bare (runs: {ratios[0]:.2f}-{ratios[-1]:.2f}x)"


def bytes_rows(page: dict) -> list[str]:
    out = []
    for kind, what in (("plain", "plain (no compression)"), ("gzip", "gzip (Accept-Encoding)")):
        got = (page.get("bytes") or {}).get(kind)
        if got:
            out.append(row(f"first visit, bytes on the wire, {what}: home screen + precache", "MB",
                           chromium=f"{got['bytes'] / 1e6:.2f} ({got['requests']} requests)"))
        else:
            out.append(row(f"first visit, bytes on the wire, {what}", "MB", chromium="n/a"))
    return out


def startup_rows(page: dict) -> list[str]:
    out = []
    runs = page["runs"]
    label = f"median of {runs}" if runs > 1 else "1 run"
    new_tab = {"new_tab": [r["new_tab"] for r in page["warm"] if r.get("new_tab")],
               "bare_new_tab": [r["new_tab"] for r in page.get("bare_warm") or [] if r.get("new_tab")]}
    for phase, what in (("cold", "cold: fresh profile"), ("warm", "warm: reload, same profile"),
                        ("new_tab", "warm: a new tab, same profile")):
        rows = page[phase] if phase in page else new_tab[phase]
        bare = page.get(f"bare_{phase}") or new_tab.get(f"bare_{phase}") or []
        for key, name in (("frame_ms", f"frame (#frame) rendered ({label})"),
                          ("fcp_ms", "first contentful paint"),
                          ("ready_ms", "home screen ready (data-tessera=ready)")):
            out.append(row(f"{what}: {name}", "ms", chromium=versus(median_of(rows, key), median_of(bare, key))))
            if key == "ready_ms":
                out.append(row(f"{what}: home screen ready, each run against its bare page (median of the ratios)",
                               chromium=paired_ratio(rows, bare, key)))
        out.append(row(f"{what}: snapshot ready / Python started from it (loadPyodide resolved)", "ms",
                       chromium=f"{fmt(median_of(rows, 'snapshot_ms'))} / {fmt(median_of(rows, 'python_ms'))}"))
        out.append(row(f"{what}: time to inflate (in workers, in parallel): snapshot / pyodide.asm.wasm "
                       "(none: read inflated from Cache Storage)", "ms",
                       chromium=f"{fmt(median_of(rows, 'inflate_snapshot_ms')) if median_of(rows, 'inflate_snapshot_ms') else 'none'} / "
                                f"{fmt(median_of(rows, 'inflate_wasm_ms')) if median_of(rows, 'inflate_wasm_ms') else 'none'}"
                                f" (wasm at {fmt(median_of(rows, 'wasm_ms'))})"))
        out.append(row(f"{what}: longest main-thread task during boot", "ms",
                       chromium=versus(median_of(rows, "boot_longtask_ms"), median_of(bare, "boot_longtask_ms"),
                                       none="< 50 (none)")))
        out.append(row(f"{what}: longest main-thread task in the {AFTER_READY_MS // 1000} s after ready", "ms",
                       chromium=fmt(median_of(rows, "after_longtask_ms")) if median_of(rows, "after_longtask_ms")
                       else "< 50 (none)"))
        out.append(row(f"{what}: bare PyScript page ready (its frame / longest task)", "ms",
                       chromium=f"{fmt(median_of(bare, 'ready_ms'))} ({fmt(median_of(bare, 'frame_ms'))} / "
                                f"{fmt(median_of(bare, 'boot_longtask_ms')) if median_of(bare, 'boot_longtask_ms') else '< 50'})"))
    out.append(row("cold over a 30 Mbit/s, 40 ms network (emulated): home screen ready", "ms",
                   chromium=versus(median_of(page.get("slow_cold") or [], "ready_ms"),
                                   median_of(page.get("bare_slow_cold") or [], "ready_ms"))))
    game_new_tab = [r["new_tab"] for r in page.get("game_warm") or [] if r.get("new_tab")]
    for rows, bare, what in ((page.get("game_cold") or [], page.get("bare_cold") or [], "cold: fresh profile"),
                             (page.get("game_warm") or [], page.get("bare_warm") or [], "warm: reload, same profile"),
                             (game_new_tab, new_tab["bare_new_tab"], "warm: a new tab, same profile")):
        out.append(row(f"{what}, opening a game in progress: board drawn and interactive", "ms",
                       chromium=versus(median_of(rows, "board_ms"), median_of(bare, "ready_ms"))))
        out.append(row(f"{what}, opening a game in progress: longest main-thread task", "ms",
                       chromium=fmt(median_of(rows, "boot_longtask_ms")) if median_of(rows, "boot_longtask_ms")
                       else "< 50 (none)"))
        out.append(row(f"{what}, opening a game in progress: longest main-thread task in the "
                       f"{AFTER_READY_MS // 1000} s after the board", "ms",
                       chromium=fmt(median_of(rows, "after_longtask_ms")) if median_of(rows, "after_longtask_ms")
                       else "< 50 (none)"))
    if page["warm"]:
        ctl = all(r["sw_controlled"] for r in page["warm"])
        out.append(row("warm load served under the service worker", chromium="yes" if ctl else "no"))
        cached = [r.get("snapshot_cached") for r in page["warm"]]
        out.append(row("warm load read the snapshot's inflated copy (Cache Storage)",
                       chromium="n/a" if None in cached else f"{sum(cached)} of {len(cached)}"))
        cached = [r.get("wasm_cached") for r in page["warm"]]
        out.append(row("warm load read the wasm's inflated copy (Cache Storage)",
                       chromium="n/a" if None in cached else f"{sum(cached)} of {len(cached)}"))
    return out


def memory_rows(page: dict) -> list[str]:
    warm, bare = page.get("warm") or [], page.get("bare_warm") or []
    app_total, bare_total = median_of(warm, "total_bytes"), median_of(bare, "total_bytes")
    if app_total is None:
        return [row("memory after a warm start", "MB", chromium="n/a")]

    def mb(v: float | None) -> str:
        return "n/a" if v is None else f"{v / 1e6:.1f}"

    out = [row("memory after a warm start: JS heap + array buffers (app / bare PyScript page)", "MB",
               chromium=f"{mb(median_of(warm, 'js_bytes'))} / {mb(median_of(bare, 'js_bytes'))}"),
           row("memory after a warm start: wasm memory (app / bare PyScript page)", "MB",
               chromium=f"{mb(median_of(warm, 'wasm_bytes'))} / {mb(median_of(bare, 'wasm_bytes'))}")]
    total = f"{mb(app_total)} / {mb(bare_total)}"
    if bare_total:
        total += f" ({(app_total - bare_total) / 1e6:+.1f} MB, {app_total / bare_total:.2f}x bare)"
    out.append(row("memory after a warm start: total (app / bare PyScript page)", "MB", chromium=total))
    drawn = page.get("drawn_warm") or []
    parts = (("renderer_rss", "resident"), ("renderer_anon", "anonymous"),
             ("renderer_file", "file-backed"), ("renderer_shmem", "shared memory"))
    for key, what in parts:
        app, bare_value, drawn_value = median_of(warm, key), median_of(bare, key), median_of(drawn, key)
        text = f"{mb(app)} / {mb(bare_value)} / {mb(drawn_value)}"
        differences = [f"{(app - other) / 1e6:+.1f} MB vs {name}"
                       for other, name in ((bare_value, "bare"), (drawn_value, "drawn")) if app is not None and other]
        if differences:
            text += f" ({', '.join(differences)})"
        out.append(row(f"memory after a warm start: renderer process, {what} "
                       "(app / bare PyScript page / bare page that draws)", "MB", chromium=text))
    return out


def dots_fights() -> list[tuple[str, str, str]]:
    """(label, tessera/1 record, level) of mid-game Dots positions (the
    engine bench's fights) for the hard and master levels to think over in
    the page."""
    from tessera.core.record import Record  # noqa: PLC0415
    from tessera.games.dots.bench import _fight  # noqa: PLC0415
    fights = []
    for size, plies in (("20x20", 60), ("39x32", 120)):
        record = Record.from_game(_fight(size, plies, 300)).dumps()
        for key in ("hard", "master"):
            fights.append((f"Dots {size} move {plies}", record, key))
    return fights


def bot_rows(page: dict) -> list[str]:
    """A bot's move in the bots' worker and, for comparison, sliced on the main thread (the fallback)."""
    bot = page.get("bot") or {}
    if bot.get("missing") or not bot:
        return [row("longest main-thread task while the bot thinks", "ms", chromium="n/a")]

    def longest(think: dict) -> str:
        return fmt(think["max_longtask_ms"]) if think["max_longtask_ms"] else "< 50 (none)"

    first = page.get("bot_first") or {}
    rows = []
    if first and not first.get("missing"):
        rows.append(row("first bot move of the page, worker started for it (Quadrature hard)", "ms",
                        chromium=f"{fmt(first['think_ms'])} (longest task {longest(first)})"))
    for think, where in ((bot, "worker"), (page.get("bot_page") or {}, "main thread, sliced")):
        if think and not think.get("missing"):
            rows.append(row(f"bot move (tesseraBench.botThink), {where}", "ms", chromium=fmt(think["think_ms"])))
            rows.append(row(f"longest main-thread task while the bot thinks, {where}", "ms",
                            chromium=longest(think)))
    for label, key, think in page.get("dots_bot") or []:
        if think.get("missing"):
            continue
        where = "worker" if think.get("where") == "worker" else "main thread, sliced"
        rate = (f"{think['nodes'] / think['search_ms'] * 1000:,.0f} nodes/s (depth {think['depth']})"
                if think.get("nodes") and think.get("search_ms") else "n/a")
        rows.append(row(f"{key} move, {label} (cap 1500), {where}: move / reading", "ms",
                        chromium=f"{fmt(think['think_ms'])} / {rate}"))
        rows.append(row(f"longest task while {key} thinks, {label}, {where}", "ms", chromium=longest(think)))
    return rows


def long_game_rows(page: dict) -> list[str]:
    """One move at move 0, 300, 600 and 1000 of a 39x32 Dots game (``long_game.py``)."""
    return [row(metric, "ms", chromium=value) for metric, value in table_rows(page.get("long_game") or [])]


PAGE_SECTIONS = [bytes_rows, startup_rows, memory_rows, bot_rows, long_game_rows,
                 lambda page: worker_rows(page, row, fmt), lambda page: embed_rows(page, row, fmt)]
"""Each takes page_metrics()'s result and returns table rows, in this order."""


def build_table(cpy: dict, pyo: dict, page: dict, relay: dict | None = None) -> str:
    out = ["| metric | unit | CPython | Pyodide (Node) | Pyodide slowdown | Chromium |",
           "| --- | --- | ---: | ---: | ---: | ---: |"]
    out += engine_rows(cpy, pyo)
    out += relay_rows(relay, row, fmt)
    if page.get("error"):
        out.append(row("page metrics", chromium=f"n/a ({page['error']})"))
    elif page:
        for section in PAGE_SECTIONS:
            out += section(page)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short engine runs, one page load")
    ap.add_argument("--runs", type=int, default=None, help="cold page loads (default 3, quick 1)")
    ap.add_argument("--no-engine", action="store_true")
    ap.add_argument("--no-pyodide", action="store_true")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--no-relay", action="store_true", help="skip the relay load test")
    ap.add_argument("--no-relay-stall", action="store_true", help="skip the relay's 1000-game run")
    ap.add_argument("--relay-py", type=Path, default=None, help="run the relays from this copy of py/")
    ap.add_argument("--json", metavar="PATH", help="also write the raw results as JSON")
    ap.add_argument("--site", default=str(REPO / "site"), help="built site to measure (default: site/)")
    ap.add_argument("--startup-only", action="store_true",
                    help="page metrics: the first visit's bytes and the start-up figures only (no examples "
                         "page, bots, long game or worker)")
    ap.add_argument("--cold-at-launch", action="store_true",
                    help="cold loads start as soon as the browser is up, without waiting for it to settle")
    args = ap.parse_args(argv)
    global SETTLE_COLD_LOADS  # noqa: PLW0603 (a setting of this run, read by fresh_profile)
    SETTLE_COLD_LOADS = not args.cold_at_launch
    runs = args.runs or (1 if args.quick else 3)

    cpy: dict = {}
    pyo: dict = {}
    page: dict = {}
    relay: dict = {}
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
    if not args.no_relay:
        relay = relay_load_metrics(args.quick, relay_py=args.relay_py, stall=not args.no_relay_stall)
        if "error" in relay:
            log(f"relay load: {relay['error']}")
    if not args.no_browser:
        log(f"page metrics in headless Chromium ({runs} cold + warm load(s))")
        page = page_metrics(runs, Path(args.site), args.startup_only)
        for note in page.get("notes", []):
            log(note)

    header = (f"Tessera bench — CPython {cpy.get('python', platform.python_version())}, "
              f"Pyodide Python {pyo.get('python', 'n/a')}, {platform.machine()}, "
              f"{os.cpu_count()} CPUs, quick={args.quick}")
    print()
    print(header)
    print()
    print(build_table(cpy, pyo, page, relay))
    if args.json:
        Path(args.json).write_text(json.dumps({"cpython": cpy, "pyodide": pyo, "page": page, "relay": relay},
                                              indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
