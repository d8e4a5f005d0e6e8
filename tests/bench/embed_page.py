"""The embed rows of ``./build.sh bench``: the examples page (ten ``<tessera-board>``s).

Measured in a fresh profile (fresh) and on a reload of the same profile
(warm, HTTP cache and, once it controls the page, the service worker):

- the first static picture: the first animation frame in which a board shows
  its picture (pictures are drawn into the page at build time, so this is
  about the first paint);
- what the network had delivered by then, from the page's own resource
  timing: bytes (transfer size, or body size when served from a cache) and
  whether any of it was Pyodide's (the target: none);
- the first interactive board: the first board whose ``data-state`` is
  ``ready`` (Python has started and drawn it); and all ten ready;
- how many times Pyodide's wasm was requested for the whole page (one).

An init script records the times in the page (``performance.now()`` from
navigation start), so the figures do not include Playwright's polling.
"""

from __future__ import annotations

import shutil
import tempfile
from typing import Any

WATCH_JS = """
(() => {
  const marks = window.__tesseraEmbedBench = {picture_ms: null, first_ready_ms: null, all_ready_ms: null,
                                              before_picture: null, boards: 0};
  const tick = () => {
    const boards = [...document.querySelectorAll('tessera-board')];
    marks.boards = boards.length;
    const now = performance.now();
    if (marks.picture_ms === null && boards.some(b => b.dataset.state === 'picture' || b.dataset.state === 'ready')) {
      marks.picture_ms = now;
      const entries = performance.getEntriesByType('resource').filter(e => e.responseEnd <= now);
      const size = e => e.transferSize || e.encodedBodySize || 0;
      const nav = performance.getEntriesByType('navigation')[0];
      marks.before_picture = {
        bytes: entries.reduce((sum, e) => sum + size(e), nav ? size(nav) : 0),
        requests: entries.length + 1,
        pyodide: entries.filter(e => /pyodide|tessera\\.zip|snapshot/.test(e.name)).map(e => e.name.split('/').pop()),
      };
    }
    const ready = boards.filter(b => b.dataset.state === 'ready').length;
    if (ready && marks.first_ready_ms === null) marks.first_ready_ms = now;
    if (boards.length && ready === boards.length && marks.all_ready_ms === null) marks.all_ready_ms = now;
    if (marks.all_ready_ms === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();
"""
READY_JS = "() => window.__tesseraEmbedBench && window.__tesseraEmbedBench.all_ready_ms !== null"
TIMEOUT_MS = 180_000


def _one_load(page: Any, url: str, wasm: list[str]) -> dict:
    wasm.clear()
    page.goto(url, wait_until="commit")
    page.wait_for_function(READY_JS, timeout=TIMEOUT_MS, polling=100)
    marks = page.evaluate("() => window.__tesseraEmbedBench")
    marks["wasm_requests"] = len(wasm)
    return marks


def embed_metrics(pw: Any, base_url: str) -> dict:
    """Fresh and warm loads of ``examples/`` from a server at ``base_url``."""
    from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: PLC0415

    url = base_url.rstrip("/") + "/examples/"
    profile = tempfile.mkdtemp(prefix="tessera-bench-embed-")
    try:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                    viewport={"width": 1280, "height": 900})
        try:
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.add_init_script(WATCH_JS)
            wasm: list[str] = []
            page.on("request", lambda request: wasm.append(request.url)
                    if request.url.endswith(("pyodide.asm.wasm", "pyodide.asm.wasm.br")) else None)
            fresh = _one_load(page, url, wasm)
            page.wait_for_timeout(1000)   # let the cache settle before the reload
            warm = _one_load(page, url, wasm)
        finally:
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return {"fresh": fresh, "warm": warm}


def embed_rows(page: dict, row: Any, fmt: Any) -> list[str]:
    """Table rows from ``page["embed"]`` (``row`` and ``fmt`` are run.py's)."""
    got = page.get("embed")
    if not got:
        return [row("examples page (ten embedded boards)", chromium="n/a")]
    out = []
    for phase, what in (("fresh", "fresh profile"), ("warm", "warm reload")):
        marks = got[phase]
        before = marks.get("before_picture") or {}
        pyodide = before.get("pyodide") or []
        out.append(row(f"examples page, {what}: first static picture", "ms", chromium=fmt(marks["picture_ms"])))
        out.append(row(f"examples page, {what}: bytes fetched before it (Pyodide files among them)", "KB",
                       chromium=f"{before.get('bytes', 0) / 1000:.1f} in {before.get('requests', 0)} requests "
                                f"({', '.join(pyodide) if pyodide else 'none'})"))
        out.append(row(f"examples page, {what}: first interactive board / all {marks['boards']} interactive", "ms",
                       chromium=f"{fmt(marks['first_ready_ms'])} / {fmt(marks['all_ready_ms'])}"))
        out.append(row(f"examples page, {what}: requests for pyodide.asm.wasm (.br)", chromium=str(marks["wasm_requests"])))
    return out
