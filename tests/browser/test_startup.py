"""Start-up and first visit: the snapshot, what is precached, the trimmed stdlib, gzip.

* The app boots from the memory snapshot, inflated by a worker, and lets go
  of the inflated bytes once Python runs.
* Both big files come brotli-compressed (snapshot.bin.br, pyodide.asm.wasm.br),
  inflated in two workers; a warm start inflates nothing and fetches
  neither; without workers they are inflated on the page's thread.
* The service worker precaches exactly the PyScript chunks a session loads
  (none of the editor / terminal ones), not python_stdlib_full.zip, and every
  file a session loads (so offline works).
* Every standard module a session imports is in the snapshot; one that is
  not is still found (the fallback importer fetches python_stdlib_full.zip),
  so a left-out module never breaks a page.
* Without a usable snapshot Python starts the ordinary way.
* The kept wasm is read from Cache Storage on the page, not through the
  service worker (which held 13-16 MB of the renderer for it).
* A first visit registers the service worker, and has its inflated copies
  written, only once the first screen is up (both competed with the start);
  the loading screen draws few frames until a load has taken 2 s.
* scripts/serve.py gzips when asked, as a static host does.
"""

from __future__ import annotations

import gzip
import io
import json
import lzma
import re
import subprocess
import zipfile
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from conftest import REPO, SiteServer, devtools, package_zip  # noqa: E402
from service_worker import wait_controlled  # noqa: E402
from test_app_dots import click_point, start_dots  # noqa: E402
from test_app_quadrature import click_square, start_game, wait_bot_done  # noqa: E402

sys.path.insert(0, str(REPO / "scripts"))
import serve  # noqa: E402  (scripts/serve.py)

pytestmark = pytest.mark.first_visit  # what a first visit loads, and how it falls back

SNAPSHOT_MAX_JS_BYTES = 20_000_000
"""The inflated snapshot is 31 MB: the page's array buffers stay well below once it is released."""
WATCH_RELEASED_BUFFERS_JS = """(() => {
  // Big buffers the loader detaches (ArrayBuffer.prototype.transfer(0)), and
  // whether the garbage collector then took their objects: Blink holds the
  // bytes of a buffer that came from a worker for as long as its object lives.
  const watched = globalThis.tesseraReleasedBuffers = { detached: 0, collected: 0 };
  const registry = new FinalizationRegistry(() => { watched.collected += 1; });
  const transfer = ArrayBuffer.prototype.transfer;
  ArrayBuffer.prototype.transfer = function (...args) {
    if (this.byteLength >= (16 << 20) && args[0] === 0) {
      watched.detached += 1;
      registry.register(this, null);
    }
    return transfer.apply(this, args);
  };
})()"""


def precache_list(site_dir: Path) -> list[str]:
    text = (site_dir / "sw.js").read_text(encoding="utf-8")
    match = re.search(r"const PRECACHE = (\[.*?\]);", text, re.S)
    assert match, "sw.js has no PRECACHE list"
    return [url.removeprefix("./") for url in json.loads(match.group(1))]


def page_requests(page: Page) -> list[str]:
    """Record the URLs the page itself asks for (its workers included, the service worker's own fetches not)."""
    seen: list[str] = []
    page.context.on("request", lambda req: seen.append(req.url) if req.service_worker is None else None)
    return seen


def tour(page: Page, site_url: str, wait_ready) -> None:
    """Both rules pages, a Quadrature move answered by the bot, a Dots game, a record exported."""
    page.goto(site_url)
    wait_ready(page)
    for game in ("quadrature", "dots"):
        page.goto(f"{site_url}#/rules/{game}")
        page.wait_for_selector("figure.rules-example canvas.tessera-board[data-draws]")
    page.goto(site_url + "#/")
    page.wait_for_selector("button[data-action=new-game][data-game=quadrature]")
    start_game(page, "bot:easy", "white")
    click_square(page, "e9")
    click_square(page, "e8")
    wait_bot_done(page, 2)
    page.goto(site_url + "#/")
    page.wait_for_selector("button[data-action=new-game][data-game=dots]")
    start_dots(page)
    click_point(page, 10, 9)
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    page.click("button[data-action=export]")
    page.wait_for_function("document.querySelector('#record-export') && document.querySelector('#record-export').value")
    page.keyboard.press("Escape")


INFLATED_KEYS_JS = """async () => (await (await caches.open('tessera-inflated-snapshot')).keys())
    .map((request) => request.url)"""


def inflated_keys(page: Page, wanted=None, timeout_s: float = 20.0) -> list[str]:
    """The keys of the page's inflated snapshot copies, once they are ``wanted`` (a list, or a count)."""
    deadline = time.monotonic() + timeout_s
    while True:
        keys = page.evaluate(INFLATED_KEYS_JS)
        if wanted is None or keys == wanted or (isinstance(wanted, int) and len(keys) == wanted):
            return keys
        if time.monotonic() > deadline:
            raise AssertionError(f"inflated snapshot copies: {keys}, expected {wanted}")
        page.wait_for_timeout(200)


def wait_stored(page: Page, *kinds: str, timeout_ms: float = 20_000) -> None:
    """Wait until this page's workers have written their copies of ``kinds``
    ("snapshot", "wasm") and deleted older ones.  Cache Storage lists a copy
    while it is still being written, so its keys alone do not say the copy is
    there: a reload then cuts the write short."""
    page.wait_for_function("(kinds) => kinds.every((kind) => globalThis.tesseraStored.includes(kind))",
                           arg=list(kinds), timeout=timeout_ms, polling=100)


def inflated_key(page: Page, file: str) -> str:
    """The key of the kept inflated copy of ``file`` (``snapshot.bin.br`` or
    ``pyodide.asm.wasm.br``), once the page has kept both copies."""
    wait_stored(page, "snapshot", "wasm")
    [key] = [key for key in inflated_keys(page, 2) if f"/{file}?" in key]
    return key


def assert_heap_copied_sparsely(page: Page) -> None:
    """The loader copied the snapshot's heap a page at a time, leaving out the
    zero pages (a page written stays in the renderer's memory), and the wasm
    memory then held exactly the heap's image (``tesseraCheckHeapCopy``)."""
    pages = page.evaluate("globalThis.tesseraHeapPages")
    assert pages["identical"] is True, pages
    assert pages["skipped"] > pages["copied"] / 2, pages   # about 3,450 of the 7,680 pages are zero


def test_boots_from_the_snapshot_and_releases_it(page: Page, page_log, site_url: str, wait_ready) -> None:
    """The snapshot is used, inflated in the worker, kept inflated for the next load, and let go after start."""
    requests = page_requests(page)
    page.add_init_script("globalThis.tesseraCheckHeapCopy = true")
    page.goto(site_url)
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    assert page.evaluate("globalThis.tesseraSnapshotFromCache") is False
    assert_heap_copied_sparsely(page)
    # tessera.zip's files were written once the home screen was up, and the short way
    # (pyodide-snapshot.mjs's READ_ZIP and writeMembers), not through shutil.
    assert page.evaluate("globalThis.tesseraUnpacked.deferred") == 1
    page.wait_for_function("performance.getEntriesByName('tessera:files-written').length === 1", timeout=15_000)
    assert page.evaluate("""() => performance.getEntriesByName('tessera:files-written')[0].startTime
                                  > window.tesseraReadyAt""")
    assert page.evaluate("globalThis.tesseraUnpacked") == {"short": 1, "general": 0, "deferred": 1}
    # A slice at a time, in idle callbacks: read (2.7 MB) in steps of about 32 KB, then written.
    slicing = page.evaluate("globalThis.tesseraLaterWrites")
    assert slicing["steps"] > 2_000_000 // 40_000 and slicing["callbacks"] >= 2, slicing
    assert page.evaluate("globalThis.tesseraUnzipFrom") == "snapshot"   # its reader compiled into the snapshot
    # PyScript's own package was written but imported only once the page was ready.
    assert page.evaluate("globalThis.tesseraPyscriptDeferred") is True
    page.wait_for_function("performance.getEntriesByName('tessera:pyscript-imported').length === 1", timeout=15_000)
    assert page.evaluate("""() => performance.getEntriesByName('tessera:pyscript-imported')[0].startTime
                                  > window.tesseraReadyAt""")
    # The loader wrote its files (not PyScript's 33 KB of Python that writes them),
    # then compiled them, one per idle callback, into .pyc files the import read.
    assert page.evaluate("globalThis.tesseraPyscriptWritten") >= 10
    assert page.evaluate("globalThis.tesseraPyscriptPyc") >= 10
    # Two workers, one a file: index.html and PyScript load the same loader module.
    assert [url for url in requests if url.endswith("/vendor/pyodide/tessera-snapshot-worker.js")] \
        == [site_url + "vendor/pyodide/tessera-snapshot-worker.js"] * 2
    keys = sorted(inflated_keys(page, 2))
    assert keys[0].startswith(site_url + "vendor/pyodide/pyodide.asm.wasm.br?inflated=")
    assert keys[1].startswith(site_url + "vendor/pyodide/snapshot.bin.br?inflated=")

    page.add_init_script(WATCH_RELEASED_BUFFERS_JS)
    page.reload()
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    assert page.evaluate("globalThis.tesseraSnapshotFromCache") is True
    assert sorted(page.evaluate(INFLATED_KEYS_JS)) == keys
    assert_heap_copied_sparsely(page)
    assert not [m for m in page_log.console_errors if "snapshot" in m.lower()]
    cdp = page.context.new_cdp_session(page)
    cdp.send("HeapProfiler.enable")
    cdp.send("HeapProfiler.collectGarbage")
    heap = cdp.send("Runtime.getHeapUsage")
    js_bytes = heap["usedSize"] + heap.get("backingStorageSize", 0)
    assert js_bytes < SNAPSHOT_MAX_JS_BYTES, f"the page holds {js_bytes / 1e6:.1f} MB of JS memory: {heap}"
    # The snapshot's buffer object itself is let go, not only its bytes detached:
    # kept reachable (Pyodide's config holding the loader's module factory), its
    # 31 MB stayed in the renderer for the page's life.
    watched = {}
    for _ in range(20):
        cdp.send("HeapProfiler.collectGarbage")
        page.wait_for_timeout(100)
        watched = page.evaluate("globalThis.tesseraReleasedBuffers")
        if watched["collected"]:
            break
    cdp.detach()
    assert watched == {"detached": 1, "collected": 1}, watched
    page_log.assert_no_errors()


def test_the_page_reads_its_modules_from_the_snapshot_or_as_shipped_bytecode(
        page: Page, page_log, site_url: str, site_dir: Path, wait_ready) -> None:
    """Every module the first screen and a game need, the ui's included, is in the
    memory snapshot; those it lacks (the parts left for later: a rules page's) ship
    compiled (tessera.zip's __pycache__), and the page reads them so instead of
    compiling them on the main thread."""
    with zipfile.ZipFile(io.BytesIO(package_zip(site_dir))) as package:
        names = set(package.namelist())
        compiled = {name for name in names if "/__pycache__/" in name}
        headers = {package.read(name)[:8] for name in compiled}
    assert "tessera/ui/screens/__pycache__/rules_page.cpython-314.pyc" in compiled
    for module in ("core/__pycache__/game.", "ui/__pycache__/app.", "ui/play/__pycache__/screen."):
        assert not [name for name in compiled if name.startswith(f"tessera/{module}")], f"{module}: in the snapshot"
    for name in compiled:   # each beside its source, which ships for tracebacks
        folder, _, file = name.partition("/__pycache__/")
        assert f"{folder}/{file.split('.')[0]}.py" in names, name
    [header] = headers   # one Python, and hash-based pycs never checked against the source
    assert header[2:4] == b"\r\n" and header[4:8] == b"\x01\0\0\0"

    page.goto(site_url)
    wait_ready(page)
    start_game(page, "human")   # the home screen, the dialog and a play screen: all from the snapshot
    counts = page.evaluate("window.tesseraBench.bytecode()")
    assert counts["snapshot"] >= 100 and counts["loaded"] == 0, counts
    page.goto(site_url + "#/rules/quadrature")
    expect(page.locator(".rules-page")).to_be_visible()
    counts = page.evaluate("window.tesseraBench.bytecode()")
    assert counts["loaded"] >= 2 and counts["shipped"] == counts["loaded"], counts
    page_log.assert_no_errors()


def test_a_module_the_snapshot_lacks_imported_while_the_files_are_written_has_the_rest_written_first(
        page: Page, page_log, site_url: str, wait_ready) -> None:
    """A rules page opened while tessera.zip's files are written a slice at a time: its import
    has the rest written at once, and the slices left find nothing more to do."""
    page.goto(site_url)
    wait_ready(page)
    caught = page.evaluate("""() => new Promise((resolve) => {
        const written = () => performance.getEntriesByName('tessera:files-written').length > 0;
        const check = () => {
          if (written()) return resolve(false);
          if (globalThis.tesseraLaterWrites && globalThis.tesseraLaterWrites.callbacks >= 1) {
            location.hash = '#/rules/corners';
            return resolve(globalThis.tesseraLaterWrites.steps);
          }
          setTimeout(check, 1);
        };
        check();
    })""")
    assert caught, "the files were written before a slice could be seen"
    expect(page.locator(".rules-page[data-game=corners]")).to_be_visible()
    page.wait_for_timeout(1_500)   # past the slices that were still to come
    assert page.evaluate("performance.getEntriesByName('tessera:files-written').length") == 1
    assert page.evaluate("globalThis.tesseraUnpacked") == {"short": 1, "general": 0, "deferred": 1}
    assert page.evaluate("globalThis.tesseraLaterWrites.steps") > caught
    counts = page.evaluate("window.tesseraBench.bytecode()")
    assert counts["loaded"] >= 2 and counts["shipped"] == counts["loaded"], counts
    page_log.assert_no_errors()


def test_a_first_screen_that_imports_a_module_the_snapshot_lacks_has_the_files_written_first(
        page: Page, page_log, site_url: str, wait_ready) -> None:
    """A rules page opened by its address: its modules are left for later, so the import
    has tessera.zip's files written at once, before the screen, not once it is up."""
    page.goto(site_url + "#/rules/corners")
    wait_ready(page)
    expect(page.locator(".rules-page[data-game=corners]")).to_be_visible()
    assert page.evaluate("globalThis.tesseraUnpacked") == {"short": 1, "general": 0, "deferred": 1}
    assert page.evaluate("""() => performance.getEntriesByName('tessera:files-written')[0].startTime
                                  < window.tesseraReadyAt""")
    page.wait_for_timeout(2_500)   # past the idle callback that would have written them: nothing left to write
    assert page.evaluate("performance.getEntriesByName('tessera:files-written').length") == 1
    counts = page.evaluate("window.tesseraBench.bytecode()")
    assert counts["loaded"] >= 2 and counts["shipped"] == counts["loaded"], counts
    page_log.assert_no_errors()


def test_starts_from_the_compressed_files_and_a_warm_start_fetches_neither(page: Page, page_log, site_url: str,
                                                                    site_dir: Path, wait_ready) -> None:
    """The page fetches the compressed snapshot and wasm once, never the plain wasm; a warm start inflates nothing."""
    precache = precache_list(site_dir)
    for name in ("snapshot.bin.br", "pyodide.asm.wasm.br"):
        assert "vendor/pyodide/" + name in precache
    assert "vendor/pyodide/pyodide.asm.wasm" not in precache   # on the host, for a page that cannot inflate
    assert not (site_dir / "vendor" / "pyodide" / "snapshot.bin.gz").exists()
    requests = page_requests(page)
    page.goto(site_url)
    wait_ready(page)
    vendor = site_url + "vendor/pyodide/"
    fetched = [url.removeprefix(vendor) for url in requests if url.startswith(vendor)]
    assert fetched.count("snapshot.bin.br") == 1 and fetched.count("pyodide.asm.wasm.br") == 1, fetched
    assert "pyodide.asm.wasm" not in fetched
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    inflated = page.evaluate("globalThis.tesseraInflateMs")
    assert set(inflated) == {"snapshot", "wasm"} and all(ms > 0 for ms in inflated.values()), inflated
    assert page.evaluate("globalThis.tesseraCacheMissed") == {"snapshot": "no copy", "wasm": "no copy"}
    inflated_keys(page, 2)
    wait_controlled(page)

    requests.clear()
    page.reload()
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    assert page.evaluate("[globalThis.tesseraSnapshotFromCache, globalThis.tesseraWasmFromCache]") == [True, True]
    assert page.evaluate("globalThis.tesseraInflateMs") == {} == page.evaluate("globalThis.tesseraCacheMissed")
    assert not [url for url in requests if url.endswith((".br", "pyodide.asm.wasm"))], requests
    # The kept copies are read from Cache Storage, never requested (through the service worker).
    assert not [url for url in requests if "?inflated=" in url], requests
    page_log.assert_no_errors()


PAGE_FILES_JS = """() => {
    const started = performance.getEntriesByName("tessera:python-started")[0].startTime;
    return performance.getEntriesByType("resource").filter((r) => /(tessera[.]zip|main[.]py)$/.test(r.name))
        .map((r) => [r.name.split("/").pop(), r.startTime < started]);
}"""


def test_pythons_own_files_come_as_the_page_opens_and_main_py_is_not_compiled(page: Page, page_log, site_url: str,
                                                                              wait_ready) -> None:
    """PyScript asks for tessera.zip and main.py only once Python runs: the page fetches both as it opens and
    answers PyScript's requests with those responses (one request each, before Python started), first visit and
    reload alike; main.py runs as the snapshot compiled it."""
    requests = page_requests(page)
    page.goto(site_url)
    wait_ready(page)
    assert sorted(page.evaluate(PAGE_FILES_JS)) == [["main.py", True], ["tessera.zip", True]]
    assert page.evaluate("globalThis.tesseraMainCompiled") is True
    wait_controlled(page, 30_000)

    requests.clear()
    page.reload()
    wait_ready(page)
    assert sorted(page.evaluate(PAGE_FILES_JS)) == [["main.py", True], ["tessera.zip", True]]
    assert sorted(url for url in requests if url.endswith(("tessera.zip", "main.py"))) == [
        site_url + "main.py", site_url + "tessera.zip"], requests
    assert page.evaluate("globalThis.tesseraMainCompiled") is True
    page_log.assert_no_errors()


def test_a_browser_that_refuses_the_service_worker_object_still_starts(page: Page, page_log, site_url: str,
                                                                       wait_ready) -> None:
    """Where storage is blocked, Firefox throws on reading navigator.serviceWorker: the page starts anyway, without
    the offline copy, and without an error."""
    page.add_init_script("""Object.defineProperty(Navigator.prototype, "serviceWorker", {
        configurable: true, get() { throw new DOMException("The operation is insecure.", "SecurityError"); } });""")
    page.goto(site_url)
    wait_ready(page)
    page.wait_for_timeout(1500)   # past update.js's registration, which waits for the home screen
    assert page.evaluate("document.documentElement.dataset.tessera") == "ready"
    page_log.assert_no_errors()


def test_a_first_visit_compiles_its_modules_again_through_the_service_worker(page: Page, page_log, site_url: str,
                                                                           wait_ready) -> None:
    """After a first install, a hidden frame of modulepreload links has the page's module scripts
    compiled through the service worker (update.js's warmModules), so the next load finds their
    code kept; then the frame goes.  A load the worker controlled from the start does not."""
    from_frame: list[tuple[str, bool]] = []
    page.on("response", lambda response: from_frame.append((response.url, response.from_service_worker))
            if response.frame.parent_frame is not None else None)
    page.goto(site_url)
    wait_ready(page)
    page.wait_for_function("() => globalThis.tesseraModulesWarmed > 0", timeout=30_000)
    # Gone 5 s after it loaded: by then every response of the frame has been reported here.
    page.wait_for_function("() => !document.querySelector('iframe[data-tessera-warm]')", timeout=15_000)
    vendor = site_url + "vendor/"
    modules = {url.removeprefix(vendor) for url, _ in from_frame}
    assert {"pyscript/core.js", "pyodide/tessera-pyodide.js", "pyodide/pyodide.js",
            "pyodide/pyodide.asm.js"} <= modules, modules
    assert not [name for name in modules if "worker" in name], modules   # the workers' scripts are not pages'
    assert all(url.startswith(vendor) and through for url, through in from_frame), from_frame

    from_frame.clear()
    page.reload()
    wait_ready(page)
    page.wait_for_timeout(2_000)
    assert page.evaluate("globalThis.tesseraModulesWarmed") is None
    assert page.query_selector("iframe") is None and not from_frame
    page_log.assert_no_errors()


RECORD_WAITED_WORK_JS = """(() => {
  // What <html data-tessera> said when the service worker was registered and
  // when each inflating worker was told to keep its copy.
  const said = globalThis.tesseraWaitedWork = { register: [], store: [] };
  const state = () => document.documentElement.dataset.tessera;
  if (navigator.serviceWorker) {
    const register = navigator.serviceWorker.register.bind(navigator.serviceWorker);
    navigator.serviceWorker.register = (...args) => { said.register.push(state()); return register(...args); };
  }
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message === "store") said.store.push(state());
    return post.call(this, message, ...rest);
  };
})()"""


def test_a_first_visit_installs_and_keeps_its_copies_after_the_home_screen(page: Page, page_log, site_url: str,
                                                                           wait_ready) -> None:
    """The service worker's install (every file of the site downloaded and stored) and the writing
    of the inflated copies wait for the first screen: on a first visit they competed with
    inflating Python's snapshot and starting the app.  Both still happen, and a reload is warm."""
    page.add_init_script(RECORD_WAITED_WORK_JS)
    page.goto(site_url)
    wait_ready(page)
    wait_controlled(page, 30_000)
    wait_stored(page, "snapshot", "wasm")
    said = page.evaluate("globalThis.tesseraWaitedWork")
    assert said == {"register": ["ready"], "store": ["ready", "ready"]}, said
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotFromCache, globalThis.tesseraWasmFromCache]") == [True, True]
    assert page.evaluate("globalThis.tesseraWaitedWork") == {"register": ["ready"], "store": []}
    page_log.assert_no_errors()


LONG_FRAMES_JS = """(() => {
  globalThis.tesseraLongFrames = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tesseraLongFrames.push([entry.startTime, entry.startTime + entry.duration]);
  }).observe({ type: "long-animation-frame", buffered: true });
})()"""

SETUP_AND_RESTORE_JS = """() => {
  const at = (name) => performance.getEntriesByName(name, "mark")[0].startTime;
  const [setUp, started] = [at("tessera:runtime-ready"), at("tessera:python-started")];
  return globalThis.tesseraLongFrames.filter(([start, end]) => start <= setUp && started <= end);
}"""


def test_the_runtimes_set_up_and_pythons_restore_are_two_tasks(page: Page, page_log, site_url: str,
                                                                 wait_ready) -> None:
    """With both kept copies at hand, Pyodide's runtime is set up (the wasm instantiated, its
    functions compiled as first called) and Python restored one after the other: in one task they
    were a warm start's longest, 170-195 ms in a new tab.  The loader yields between them, so no
    long frame holds both the runtime's readiness and Python's start."""
    page.goto(site_url)
    wait_ready(page)
    wait_controlled(page, 30_000)
    wait_stored(page, "snapshot", "wasm")
    page.add_init_script(LONG_FRAMES_JS)
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotFromCache, globalThis.tesseraWasmFromCache]") == [True, True]
    assert page.evaluate(SETUP_AND_RESTORE_JS) == []
    page_log.assert_no_errors()


LOADING_SCREEN_JS = """(() => {
  const changes = globalThis.tesseraLoadingChanges = [];   // [ms, bar width, elapsed text], until ready
  document.addEventListener("DOMContentLoaded", () => {
    const bar = document.getElementById("boot-bar");
    const elapsed = document.getElementById("boot-elapsed");
    const tiles = [...document.querySelectorAll(".boot-board i")].map((tile) => getComputedStyle(tile));
    globalThis.tesseraLoadingStyle = {
      barTransition: getComputedStyle(bar).transitionDuration.split(",").map(parseFloat),
      tileAnimations: tiles.map((tile) => tile.animationName),
      tileDelays: tiles.map((tile) => parseFloat(tile.animationDelay)),
      headerBackdrop: getComputedStyle(document.querySelector(".site-header")).backdropFilter,
    };
    const seen = () => changes.push([performance.now(), parseFloat(bar.style.width) || 0, elapsed.textContent]);
    seen();
    const observer = new MutationObserver(() => {
      if (document.documentElement.dataset.tessera !== "loading") observer.disconnect();
      else seen();
    });
    observer.observe(document.getElementById("boot"), { subtree: true, childList: true, characterData: true,
                                                        attributes: true, attributeFilter: ["style"] });
  });
})()"""

STAGES = 7
"""The loader's marks the loading screen's bar follows (boot.js, STAGE_WIDTH), each a change at most."""


def test_the_loading_screen_draws_few_frames(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Every frame of the loading screen is work for the cores that inflate and start Python (a
    first visit's home screen was ready 30-120 ms later with a 100 ms clock on it, and about 100 ms
    later with the bar gliding and the tiles pulsing from the start): in its first 2 s the screen
    changes only as the start reaches a stage, its bar steps without a transition and never goes
    back, and the tiles pulse only once a load has taken 2 s.  The header blurs nothing behind it
    (a pass over its area in every frame, where the compositor has no GPU)."""
    page.add_init_script(LOADING_SCREEN_JS)
    page.goto(site_url)
    wait_ready(page)
    style = page.evaluate("globalThis.tesseraLoadingStyle")
    assert style["barTransition"] and all(duration == 0 for duration in style["barTransition"]), style
    assert style["tileAnimations"] == ["tile"] * 4, style
    assert min(style["tileDelays"]) >= 2, style
    assert style["headerBackdrop"] == "none", style
    changes = page.evaluate("globalThis.tesseraLoadingChanges")
    early = [change for change in changes if change[0] < 1900]
    assert early and len(early) <= 1 + 1 + STAGES + 1, changes   # as loaded, first drawn, the stages, Python's start
    assert all(text == "" for _, _, text in early), changes
    widths = [width for _, width, _ in changes]
    assert widths == sorted(widths) and widths[-1] >= 55, changes   # the snapshot reached at least
    page_log.assert_no_errors()


SLOW_LINK = {"offline": False, "latency": 40, "downloadThroughput": 12e6 / 8, "uploadThroughput": 12e6 / 8}
"""A 12 Mbit/s network: Python's two compressed files (6.7 MB) alone take 4.5 s to come."""


def test_a_slow_start_counts_its_seconds(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Past 2 s the loading screen says how long the load has taken, as the tiles start to pulse:
    over a slow network, the seconds show and the bar keeps moving until the app is up.  (A page
    slowed four times by DevTools' CPU throttling, which slows the main thread alone, was up in
    less than 2 s on one machine.)"""
    page.add_init_script(LOADING_SCREEN_JS)
    devtools(page).send("Network.enable")
    devtools(page).send("Network.emulateNetworkConditions", SLOW_LINK)
    try:
        page.goto(site_url)
        wait_ready(page, timeout_ms=120_000)
    finally:
        devtools(page).send("Network.emulateNetworkConditions",
                            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    changes = page.evaluate("globalThis.tesseraLoadingChanges")
    counted = [(at, text) for at, _, text in changes if text]
    assert counted, changes   # the load took more than 2 s
    assert all(at >= 1900 and re.fullmatch(r"\d+\.\d s", text) for at, text in counted), counted
    assert float(counted[0][1].split()[0]) >= 1.9, counted
    widths = [width for _, width, _ in changes]
    assert widths == sorted(widths) and len(set(widths)) > 3, changes
    page_log.assert_no_errors()


def test_precache_is_what_a_session_loads(page: Page, page_log, site_url: str, site_dir: Path,
                                          wait_ready) -> None:
    """No unused PyScript chunk is precached, every file a session loads is, and offline works."""
    precache = precache_list(site_dir)
    requests = page_requests(page)
    tour(page, site_url, wait_ready)
    base = urlsplit(site_url).path
    loaded = {urlsplit(url).path.removeprefix(base) for url in requests
              if url.startswith(site_url.rstrip("/")) and not url.endswith("/sw.js")}
    loaded = {path or "index.html" for path in loaded}

    chunks_loaded = {p for p in loaded if p.startswith("vendor/pyscript/")}
    chunks_precached = {p for p in precache if p.startswith("vendor/pyscript/")}
    assert chunks_precached == chunks_loaded, (
        f"precached but never loaded: {sorted(chunks_precached - chunks_loaded)}; "
        f"loaded but not precached: {sorted(chunks_loaded - chunks_precached)}")
    shipped = {p.name for p in (site_dir / "vendor" / "pyscript").iterdir()}
    assert len(chunks_precached) < len(shipped), "every PyScript chunk is precached"
    assert "vendor/pyodide/python_stdlib_full.zip" not in precache
    assert (site_dir / "vendor" / "pyodide" / "python_stdlib_full.zip").is_file()
    assert not loaded - set(precache), f"loaded but not precached: {sorted(loaded - set(precache))}"
    assert page.evaluate("globalThis.tesseraStdlibFallback") == [], (
        "the page imported a standard module the snapshot lacks: add it to PAGE_MODULES in scripts/make_snapshot.mjs")

    wait_controlled(page)
    page.context.set_offline(True)
    try:
        page.goto(site_url + "#/rules/dots")
        page.reload()
        wait_ready(page)
        page.wait_for_selector("figure.rules-example canvas.tessera-board[data-draws]")
        assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
        page.goto(site_url + "?utm_source=chat#/rules/dots")   # a shared link's query: the precache ignores it
        wait_ready(page)
        page.wait_for_selector("figure.rules-example canvas.tessera-board[data-draws]")
    finally:
        page.context.set_offline(False)
    page_log.assert_same_origin(site_url)
    page_log.assert_no_errors()


FALLBACK_PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<script type="module" src="./vendor/pyscript/core.js"></script></head>
<body><script type="py" config="./pyscript.toml">
import json, sys
import js
result = {"before": "fractions" in sys.modules}
import fractions
result["fraction"] = str(fractions.Fraction(6, 4))
result["cp1252"] = "\\u20ac".encode("cp1252").hex()
try:
    import tessera_no_such_module
except ImportError as error:
    result["unknown"] = type(error).__name__
import traceback
try:
    json.loads("{")  # a traceback through standard modules whose sources the page lacks
except ValueError:
    result["traceback"] = traceback.format_exc().strip().splitlines()[-1].split(":")[0]
js.document.body.dataset.result = json.dumps(result)
</script></body></html>
"""


def linked_site(site_dir: Path, extra: dict[str, str]) -> Path:
    """A temporary copy of the site made of links, plus some files of the test's own."""
    root = Path(tempfile.mkdtemp(prefix="tessera-startup-"))
    for entry in site_dir.iterdir():
        (root / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    for name, text in extra.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_module_left_out_of_the_stdlib_is_still_found(context, site_dir: Path) -> None:
    """fractions and the cp1252 codec are not in the snapshot: the fallback importer finds them in the full zip."""
    with zipfile.ZipFile(site_dir / "vendor" / "pyodide" / "python_stdlib.zip") as zf:
        names = set(zf.namelist())
    assert "fractions.py" not in names and "encodings/cp1252.py" not in names
    root = linked_site(site_dir, {"fallback.html": FALLBACK_PAGE})
    server = SiteServer(root)
    try:
        page = context.new_page()
        warnings: list[str] = []
        page.on("console", lambda msg: warnings.append(msg.text) if msg.type == "warning" else None)
        page.goto(server.url + "fallback.html")
        page.wait_for_function("() => document.body.dataset.result", timeout=60_000)
        result = json.loads(page.evaluate("document.body.dataset.result"))
        assert result == {"before": False, "fraction": "3/2", "cp1252": "80", "unknown": "ModuleNotFoundError",
                          "traceback": "json.decoder.JSONDecodeError"}
        assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
        assert page.evaluate("globalThis.tesseraStdlibFallback") == ["fractions"]  # fetched once
        assert any("python_stdlib_full.zip" in text for text in warnings)
    finally:
        server.stop()
        for entry in root.iterdir():
            entry.unlink()
        root.rmdir()


@pytest.mark.parametrize("how", ["missing", "corrupt", "cut short"])
def test_without_a_usable_snapshot_python_starts_anyway(context, page_log, site_url: str, site_dir: Path,
                                                        wait_ready, how: str) -> None:
    """A missing, corrupt or truncated snapshot costs start-up time, never the page."""
    shipped = (site_dir / "vendor" / "pyodide" / "snapshot.bin.br").read_bytes()

    def answer(route):
        if how == "missing":
            route.fulfill(status=404, body="")
        elif how == "corrupt":   # xz where brotli belongs: no brotli stream
            route.fulfill(status=200, body=lzma.compress(b"not a snapshot" * 1000))
        else:
            route.fulfill(status=200, body=shipped[:len(shipped) // 2])

    context.route("**/snapshot.bin.br", answer)
    page = context.new_page()
    page_log.attach(page, context)
    page.goto(site_url)
    wait_ready(page, timeout_ms=90_000)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is False
    # The zip's reader, which the snapshot holds, was compiled instead, and read it.
    assert page.evaluate("[globalThis.tesseraUnzipFrom, globalThis.tesseraUnpacked]") == ["compiled", {"short": 1, "general": 0, "deferred": 0}]
    start_game(page, "human")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    assert not page_log.page_errors


def inflated_snapshot(site_dir: Path) -> bytes:
    """The site's snapshot.bin.br inflated (by Node's zlib: the tests' Python has no brotli)."""
    script = "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(process.argv[1])))"
    return subprocess.run(["node", "-e", script, str(site_dir / "vendor" / "pyodide" / "snapshot.bin.br")],
                          capture_output=True, check=True).stdout


def test_files_the_host_sent_inflated_are_used_as_they_are(context, page_log, site_url: str, site_dir: Path,
                                                           wait_ready) -> None:
    """A host that serves the .br files with ``Content-Encoding: br`` (the browser inflates them)
    hands the workers the sparse snapshot and the wasm themselves: Python starts from them,
    nothing inflated twice."""
    sparse = inflated_snapshot(site_dir)
    assert sparse[:4] == b"tssp"
    wasm = (site_dir / "vendor" / "pyodide" / "pyodide.asm.wasm").read_bytes()
    context.route("**/snapshot.bin.br", lambda route: route.fulfill(status=200, body=sparse))
    context.route("**/pyodide.asm.wasm.br", lambda route: route.fulfill(status=200, body=wasm))
    page = context.new_page()
    page_log.attach(page, context)
    page.goto(site_url)
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    assert page.evaluate("globalThis.tesseraInflateMs") == {"snapshot": 0, "wasm": 0}
    start_game(page, "human")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    page_log.assert_no_errors()


def test_without_the_worker_the_snapshot_is_inflated_here(context, page_log, site_url: str, wait_ready) -> None:
    """If the workers cannot start, the page inflates both files itself and still starts from the snapshot."""
    context.route("**/tessera-snapshot-worker.js", lambda route: route.fulfill(status=404, body=""))
    requests: list[str] = []
    context.on("request", lambda req: requests.append(req.url) if req.service_worker is None else None)
    page = context.new_page()
    page_log.attach(page, context)
    page.goto(site_url)
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    assert set(page.evaluate("globalThis.tesseraInflateMs")) == {"snapshot", "wasm"}
    assert not [url for url in requests if url.endswith("pyodide.asm.wasm")]
    assert not page_log.page_errors


def test_when_the_wasm_cannot_be_inflated_the_plain_one_is_fetched(context, page_log, site_url: str,
                                                                     wait_ready) -> None:
    """A pyodide.asm.wasm.br that does not inflate costs the plain wasm's download (and the snapshot), never the page."""
    context.route("**/pyodide.asm.wasm.br", lambda route: route.fulfill(status=200, body=b"\x1b\xffbroken" * 100))
    requests: list[str] = []
    context.on("request", lambda req: requests.append(req.url) if req.service_worker is None else None)
    page = context.new_page()
    page_log.attach(page, context)
    page.goto(site_url)
    wait_ready(page, timeout_ms=90_000)
    assert [url for url in requests if url.endswith("/pyodide.asm.wasm")]
    start_game(page, "human")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    assert not page_log.page_errors


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@pytest.fixture(scope="module")
def gzip_server(site_dir: Path):
    server = serve.make_server(str(site_dir))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_serve_py_answers_gzip_when_asked(gzip_server, site_dir: Path) -> None:
    """Compressible files come gzipped to clients that accept it, plain to others; zips never."""
    base = gzip_server.base_url
    wasm = (site_dir / "vendor" / "pyodide" / "pyodide.asm.wasm").read_bytes()
    status, headers, body = fetch(base + "vendor/pyodide/pyodide.asm.wasm", {"Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert "accept-encoding" in headers["vary"].lower()
    assert int(headers["content-length"]) == len(body) < len(wasm) / 2
    assert gzip.decompress(body) == wasm
    assert headers["content-type"] == "application/wasm"

    status, headers, body = fetch(base + "vendor/pyodide/pyodide.asm.wasm")
    assert status == 200 and "content-encoding" not in headers and body == wasm
    status, headers, body = fetch(base + "vendor/pyodide/pyodide.asm.wasm", {"Accept-Encoding": "gzip;q=0"})
    assert "content-encoding" not in headers

    status, headers, body = fetch(base, {"Accept-Encoding": "gzip"})  # the page itself
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == (site_dir / "index.html").read_bytes()

    for name in ("vendor/pyodide/snapshot.bin.br", "vendor/pyodide/pyodide.asm.wasm.br", "tessera.zip",
                 "vendor/pyodide/python_stdlib.zip"):
        status, headers, body = fetch(base + name, {"Accept-Encoding": "gzip"})
        assert status == 200 and "content-encoding" not in headers, name
        assert body == (site_dir / name).read_bytes()


def test_serve_py_ranges_and_not_modified(gzip_server, site_dir: Path) -> None:
    """A byte range is served from the plain file; an unchanged file gets a 304 that still varies."""
    base = gzip_server.base_url
    page = (site_dir / "index.html").read_bytes()
    status, headers, body = fetch(base + "index.html", {"Range": "bytes=5-14", "Accept-Encoding": "gzip"})
    assert status == 206 and body == page[5:15] and headers["content-range"] == f"bytes 5-14/{len(page)}"
    assert "content-encoding" not in headers
    status, headers, body = fetch(base + "index.html", {"Range": "bytes=-4"})
    assert status == 206 and body == page[-4:]
    status, _, _ = fetch(base + "index.html", {"Range": f"bytes={len(page)}-"})
    assert status == 416

    _, headers, _ = fetch(base + "index.html", {"Accept-Encoding": "gzip"})
    status, headers304, body = fetch(base + "index.html", {"Accept-Encoding": "gzip",
                                                           "If-Modified-Since": headers["last-modified"]})
    assert status == 304 and body == b"" and "accept-encoding" in headers304["vary"].lower()


def test_the_browser_gets_gzip_from_serve_py(page: Page, site_url: str, wait_ready) -> None:
    """Chromium asks for gzip and gets it for the scripts, not for the zips and the compressed big files."""
    encodings: dict[str, str] = {}
    page.on("response", lambda r: encodings.__setitem__(urlsplit(r.url).path.rsplit("/", 1)[-1],
                                                          r.headers.get("content-encoding", "")))
    page.goto(site_url)
    wait_ready(page)
    assert encodings["pyodide.asm.js"] == "gzip"
    assert encodings["snapshot.bin.br"] == encodings["pyodide.asm.wasm.br"] == ""
    assert "pyodide.asm.wasm" not in encodings
    assert encodings["python_stdlib.zip"] == ""

