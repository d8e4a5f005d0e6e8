"""Bench: what a second Pyodide in a Web Worker would cost (issue: a bot that
thinks on a second core).

The page (the app, loaded once so the site's files are cached) starts a
module worker of its own that loads Pyodide from the site's memory
snapshot, unpacks ``tessera.zip`` and imports the Dots bots, as a worker
bot would.  Measured:

* the worker's start: Pyodide from the snapshot, then the package and its
  imports (ms), and the worker's WebAssembly memory (MB): the memory a
  second Pyodide adds to the tab;
* the longest main-thread task while the worker starts (``longtask``
  entries: the page must stay responsive);
* the master's reading of each fight in the worker, unsliced, for 1.5 s:
  nodes per second and depth, to compare with the same reading sliced on
  the main thread (the Pyodide-under-Node rows) and in CPython.

Nothing of this ships: the worker is a Blob made here.
"""

from __future__ import annotations

from typing import Any

WORKER_JS = r"""
async ([site, fights]) => {
  window.__longTasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  });
  try { observer.observe({type: "longtask"}); } catch (e) {}
  const source = `
    const site = ${JSON.stringify(site)};
    onmessage = async ({data}) => {
      try {
        const t0 = performance.now();
        const loader = await import(site + "vendor/pyodide/tessera-pyodide.js");
        const pyodide = await loader.loadPyodide({indexURL: site + "vendor/pyodide/"});
        const t1 = performance.now();
        const zip = await (await fetch(site + "tessera.zip")).arrayBuffer();
        pyodide.unpackArchive(zip, "zip", {extractDir: "/home/pyodide"});
        pyodide.runPython("import tessera.core.registry, tessera.core.record, tessera.games.dots.master");
        const t2 = performance.now();
        const heap = pyodide._module.HEAP8.length;
        const reads = [];
        for (const record of data.fights) {
          const scope = pyodide.toPy({RECORD: record});
          const out = pyodide.runPython(
            "import json, time\\n" +
            "from tessera.core.record import Record\\n" +
            "from tessera.core.steps import finish\\n" +
            "from tessera.games.dots.master import DotsMasterBot\\n" +
            "game = Record.loads(RECORD).replay()\\n" +
            "bot = DotsMasterBot(movetime_ms=1500)\\n" +
            "t = time.perf_counter(); finish(bot.search(game)); t = time.perf_counter() - t\\n" +
            "json.dumps({'seconds': t, 'nodes': bot.nodes, 'depth': bot.depth_reached})", {globals: scope});
          scope.destroy();
          reads.push(JSON.parse(out));
        }
        postMessage({start_ms: t1 - t0, import_ms: t2 - t1, heap_mb: heap / 1e6, reads});
      } catch (error) {
        postMessage({error: String(error && error.stack || error)});
      }
    };`;
  const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
  const began = performance.now();
  const worker = new Worker(url, {type: "module"});
  const result = await new Promise((resolve) => {
    worker.onmessage = ({data}) => resolve(data);
    worker.onerror = (event) => resolve({error: event.message || "worker failed"});
    worker.postMessage({fights});
  });
  result.total_ms = performance.now() - began;
  worker.terminate();
  observer.disconnect();
  result.longest_task_ms = Math.max(0, ...window.__longTasks);
  return result;
}
"""


def worker_metrics(browser: Any, site_url: str, fights: list[tuple[str, str, str]],
                   wait_ready: Any) -> dict:
    """Start the worker in a page of the app; ``fights``: (label, record, level)."""
    page = browser.new_page()
    try:
        page.goto(site_url)
        wait_ready(page)
        result = page.evaluate(WORKER_JS, [site_url, [record for _, record, _ in fights]])
    finally:
        page.close()
    if "error" not in result:
        result["labels"] = [label for label, _, _ in fights]
    return result


def worker_rows(page: dict, row: Any, fmt: Any) -> list[str]:
    """The table's rows for ``page["worker"]``."""
    worker = page.get("worker")
    if not worker:
        return []
    if worker.get("error"):
        return [row("a second Pyodide in a Web Worker", chromium=f"n/a ({worker['error'][:80]})")]
    longest = worker["longest_task_ms"]
    rows = [row("worker: Pyodide from the snapshot", "ms", chromium=fmt(worker["start_ms"])),
            row("worker: tessera.zip unpacked and the Dots bots imported", "ms", chromium=fmt(worker["import_ms"])),
            row("worker: WebAssembly memory it adds", "MB", chromium=fmt(worker["heap_mb"])),
            row("longest main-thread task while the worker starts", "ms",
                chromium=fmt(longest) if longest else "< 50 (none)")]
    for label, read in zip(worker["labels"], worker["reads"]):
        rows.append(row(f"worker: master's reading, {label} (1.5 s, unsliced)", "nodes/s",
                        chromium=f"{read['nodes'] / read['seconds']:,.0f} (depth {read['depth']})"))
    return rows
