"""Browser tests: the inflated copies of the snapshot and the wasm a page keeps in Cache
Storage (assets/js/pyodide-snapshot-worker.mjs): a damaged, short, old or whole copy is
replaced or used, never a broken start.  Split from test_startup.py, whose helpers it uses."""

from __future__ import annotations

import sys

import pytest

if sys.platform == "emscripten":  # never collected there, but be explicit
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from service_worker import wait_controlled  # noqa: E402
from test_app_quadrature import click_square, start_game  # noqa: E402
from test_startup import assert_heap_copied_sparsely, inflated_key, inflated_keys, wait_stored  # noqa: E402

pytestmark = pytest.mark.first_visit  # each test starts from a fresh context


KEPT_SIZE_JS = """async (key) => {
    const hit = await (await caches.open('tessera-inflated-snapshot')).match(key);
    return hit ? (await hit.arrayBuffer()).byteLength : -1;
}"""
"""The length of the page's kept inflated copy at a key (-1: none)."""


def test_a_bad_or_old_inflated_copy_is_replaced(page: Page, page_log, site_url: str, wait_ready) -> None:
    """A damaged cached copy is inflated again; a copy from an older build is deleted."""
    page.goto(site_url)
    wait_ready(page)
    key = inflated_key(page, "snapshot.bin.br")
    kept_size = page.evaluate(KEPT_SIZE_JS, key)
    assert kept_size > 10_000_000
    old = key.split("?")[0] + "?inflated=0ld"
    page.evaluate("""async ([key, old]) => {
        const cache = await caches.open('tessera-inflated-snapshot');
        await cache.put(key, new Response('not a snapshot'));
        await cache.put(old, new Response('an older build'));
    }""", [key, old])
    page.reload()
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    assert page.evaluate("globalThis.tesseraSnapshotFromCache") is False
    assert page.evaluate("globalThis.tesseraCacheMissed.snapshot") == "a damaged copy (14 bytes)"
    wait_stored(page, "snapshot")
    snapshot_keys = [url for url in inflated_keys(page) if "/snapshot.bin.br?" in url]
    assert snapshot_keys == [key]   # the damaged copy rewritten, the old one gone
    assert page.evaluate(KEPT_SIZE_JS, key) == kept_size
    page.reload()
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotFromCache") is True, page.evaluate("globalThis.tesseraCacheMissed")
    page_log.assert_no_errors()


SUM_JS = """(bytes) => {
    // A kept copy's sum (the worker's X-Tessera-Sum), written out again here, plainly: Fletcher's
    // over 16-bit halves (little-endian), modulo 65521, with the length.
    let a = 1, b = 0;
    for (let i = 0; i + 1 < bytes.length; i += 2) {
        a = (a + bytes[i] + bytes[i + 1] * 256) % 65521;
        b = (b + a) % 65521;
    }
    if (bytes.length % 2) { a = (a + bytes[bytes.length - 1]) % 65521; b = (b + a) % 65521; }
    return `${bytes.byteLength}:${a.toString(16)}:${b.toString(16)}`;
}"""

DAMAGE_KEPT_SNAPSHOT_JS = """async ([key, damage]) => {
    const sum = SUM_JS;
    const cache = await caches.open('tessera-inflated-snapshot');
    const hit = await cache.match(key);
    const bytes = new Uint8Array(await hit.arrayBuffer());
    let damaged = bytes.slice(0, bytes.byteLength - 100000);             // cut short
    let headers = hit.headers;                                           // its sum, now wrong
    if (damage === 'garbled') {  // whole, its header and page map intact, part of its heap zeros
        damaged = bytes.slice();
        damaged.fill(0, Math.floor(bytes.length * 0.55), Math.floor(bytes.length * 0.6));
    } else if (damage === 'misshapen') {  // its sum right, but its form not the build's: 4 KB more
        damaged = bytes.slice();
        new DataView(damaged.buffer).setUint32(4, new DataView(bytes.buffer).getUint32(4, true) + 4096, true);
        headers = { 'X-Tessera-Sum': sum(damaged) };
    }
    await cache.put(key, new Response(damaged, { headers }));
}""".replace("SUM_JS", SUM_JS)
"""Damage the page's kept snapshot copy at a key: ``cut_short``, ``garbled`` or ``misshapen``."""


@pytest.mark.parametrize("damage", ["cut_short", "garbled"])
def test_a_damaged_kept_snapshot_is_found_by_its_sum_and_inflated_again(page: Page, page_log, site_url: str,
                                                                        wait_ready, damage: str) -> None:
    """A kept copy whose first bytes look right but which is cut short, or whole but with part of
    its heap garbled (storage no version of the app wrote), is found wrong by its sum before it is
    used, and inflated again and kept in the same load.  Restored, a garbled heap made Python's
    bootstrap trap, or loop for ever on the main thread: the page frozen, on every load."""
    page.goto(site_url)
    wait_ready(page)
    key = inflated_key(page, "snapshot.bin.br")
    kept_size = page.evaluate(KEPT_SIZE_JS, key)
    page.evaluate(DAMAGE_KEPT_SNAPSHOT_JS, [key, damage])
    page.reload()
    wait_ready(page)
    started = page.evaluate("[globalThis.tesseraSnapshotUsed, globalThis.tesseraSnapshotFromCache]")
    assert started == [True, False]
    size = kept_size - 100000 if damage == "cut_short" else kept_size
    assert page.evaluate("globalThis.tesseraCacheMissed.snapshot") == f"a damaged copy ({size} bytes)"
    wait_stored(page, "snapshot")
    assert page.evaluate(KEPT_SIZE_JS, key) == kept_size
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotUsed, globalThis.tesseraSnapshotFromCache]") == [True, True]
    page_log.assert_no_errors()


def test_a_kept_snapshot_that_passes_its_sum_but_fails_the_start_is_dropped(page: Page, page_log, site_url: str,
                                                                            wait_ready) -> None:
    """A kept copy that passes its sum but on which the start fails once the wasm has compiled
    (here a form that is not the build's) starts Python the plain way once and is dropped, so
    the next load inflates and keeps a good one instead of every load failing the same way."""
    page.goto(site_url)
    wait_ready(page)
    key = inflated_key(page, "snapshot.bin.br")
    kept_size = page.evaluate(KEPT_SIZE_JS, key)
    page.evaluate(DAMAGE_KEPT_SNAPSHOT_JS, [key, "misshapen"])
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotUsed, globalThis.tesseraSnapshotFromCache]") == [False, True]
    assert page.locator("button[data-action=new-game][data-game=dots]").is_visible()  # the home screen all the same
    page.wait_for_function("async (key) => !(await (await caches.open('tessera-inflated-snapshot')).match(key))",
                           arg=key, timeout=10_000, polling=100)
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotUsed, globalThis.tesseraSnapshotFromCache]") == [True, False]
    wait_stored(page, "snapshot")
    assert page.evaluate(KEPT_SIZE_JS, key) == kept_size
    page_log.assert_no_errors()


WHOLE_SNAPSHOT_COPY_JS = """async ([key, summed]) => {
    // The snapshot as an earlier version kept it: inflated and unmasked, whole.
    const base = new URL('vendor/', document.baseURI).href;
    const brotli = await import(base + 'brotli/brotli_dec_wasm.js');
    await brotli.default({ module_or_path: await (await fetch(base + 'brotli/brotli_dec_wasm_bg.wasm')).arrayBuffer() });
    const { dataMask, heapPages, wholeSnapshot, xorMask } = await import(base + 'pyodide/tessera-wasm-data.js');
    const shipped = new Uint8Array(await (await fetch(base + 'pyodide/snapshot.bin.br')).arrayBuffer());
    const sparse = brotli.decompress(shipped);
    const wasm = new Uint8Array(await (await fetch(base + 'pyodide/pyodide.asm.wasm')).arrayBuffer());
    const whole = wholeSnapshot(heapPages(xorMask(sparse, dataMask(wasm))));
    const headers = summed ? { 'X-Tessera-Sum': (SUM_JS)(whole) } : {};
    await (await caches.open('tessera-inflated-snapshot')).put(key, new Response(whole, { headers }));
    return whole.byteLength;
}""".replace("SUM_JS", SUM_JS)


def test_the_kept_copy_is_sparse_and_a_whole_one_still_serves(page: Page, page_log, site_url: str,
                                                              wait_ready) -> None:
    """The snapshot ships, and its inflated copy is kept, without its zero pages (wasm-data.mjs's
    sparse form), and a copy kept whole with its sum is used as it is, the heap the same either
    way; one without the sum (an earlier version's) is inflated again."""
    page.add_init_script("globalThis.tesseraCheckHeapCopy = true")
    page.goto(site_url)
    wait_ready(page)
    key = inflated_key(page, "snapshot.bin.br")
    sparse_size = page.evaluate(KEPT_SIZE_JS, key)
    whole_size = page.evaluate(WHOLE_SNAPSHOT_COPY_JS, [key, True])
    assert 10_000_000 < sparse_size < whole_size * 0.7, (sparse_size, whole_size)
    page.reload()
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotFromCache") is True, page.evaluate("globalThis.tesseraCacheMissed")
    assert_heap_copied_sparsely(page)
    assert page.evaluate(KEPT_SIZE_JS, key) == whole_size   # used, not replaced

    assert page.evaluate(WHOLE_SNAPSHOT_COPY_JS, [key, False]) == whole_size   # no sum
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotUsed, globalThis.tesseraSnapshotFromCache]") == [True, False]
    assert page.evaluate("globalThis.tesseraCacheMissed.snapshot") == f"an unchecked copy ({whole_size} bytes)"
    wait_stored(page, "snapshot")
    assert page.evaluate(KEPT_SIZE_JS, key) == sparse_size   # kept again, sparse, with its sum
    page_log.assert_no_errors()


def test_a_damaged_wasm_copy_is_dropped_and_made_again(page: Page, page_log, site_url: str, wait_ready) -> None:
    """A kept wasm that does not compile, served by the service worker, starts Python the plain
    way once; the copy is deleted, and the next load inflates and keeps a good one."""
    page.goto(site_url)
    wait_ready(page)
    key = inflated_key(page, "pyodide.asm.wasm.br")
    wait_controlled(page)
    page.evaluate("""async (key) => (await caches.open('tessera-inflated-snapshot')).put(key,
        new Response('not a wasm', { headers: { 'Content-Type': 'application/wasm' } }))""", key)
    page.reload()
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is False
    inflated_keys(page, 1)  # the damaged copy deleted, the snapshot's kept
    page.reload()
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    assert "wasm" in page.evaluate("globalThis.tesseraInflateMs")
    wait_stored(page, "wasm")
    assert key in inflated_keys(page, 2)
    assert page.evaluate("document.querySelector('#frame').innerText").strip()
    page_log.assert_no_errors()


GARBLE_KEPT_WASM_JS = """async (key) => {
    // Bytes near the end of the kept wasm, in its data segments (the last section), garbled: the
    // wasm still compiles; its sum, kept with it, is now wrong.
    const cache = await caches.open('tessera-inflated-snapshot');
    const hit = await cache.match(key);
    const bytes = new Uint8Array(await hit.arrayBuffer());
    for (let i = bytes.length - 4000; i < bytes.length - 1000; i++) bytes[i] ^= 0x5a;
    await cache.put(key, new Response(bytes, { headers: hit.headers }));
}"""
"""Garble the data segments of the page's kept wasm copy at a key."""


def test_a_kept_wasm_with_damaged_data_is_dropped_by_the_worker_after_the_start(page: Page, page_log, site_url: str,
                                                                               wait_ready) -> None:
    """The page compiles its kept wasm unchecked (a wasm whose code is damaged fails to compile
    and is dropped): one whose data segments are damaged compiles.  Beside a warm start from the
    kept snapshot it does no harm, as the snapshot brings the heap's data; the snapshot's worker
    checks it a moment after the start and drops it, so a later load that starts without that
    snapshot is never given it."""
    page.goto(site_url)
    wait_ready(page)
    wasm_key = inflated_key(page, "pyodide.asm.wasm.br")
    page.evaluate(GARBLE_KEPT_WASM_JS, wasm_key)
    # The page reads the kept wasm itself only under the service worker; a page no worker
    # controls leaves that to the wasm's worker, which checks the copy's sum before using it.
    wait_controlled(page, 30_000)
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotUsed, globalThis.tesseraSnapshotFromCache, "
                         "globalThis.tesseraWasmFromCache]") == [True, True, True]
    assert wasm_key not in inflated_keys(page, 1)   # the snapshot's kept
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotFromCache, globalThis.tesseraWasmFromCache]") == [True, False]
    wait_stored(page, "wasm")
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotFromCache, globalThis.tesseraWasmFromCache]") == [True, True]
    page_log.assert_no_errors()


def test_a_snapshot_is_never_unmasked_with_a_damaged_kept_wasm(page: Page, page_log, site_url: str,
                                                               wait_ready) -> None:
    """A snapshot inflated beside a kept wasm takes the wasm's data segments from that copy.
    Damaged, they would garble the heap, which would then be kept under a right sum: every load
    would restore it.  The copy's sum is checked first: Python starts the plain way once, the
    wasm copy is dropped, and the next load inflates and keeps both files."""
    page.goto(site_url)
    wait_ready(page)
    wasm_key = inflated_key(page, "pyodide.asm.wasm.br")
    snapshot_key = inflated_key(page, "snapshot.bin.br")
    page.evaluate(GARBLE_KEPT_WASM_JS, wasm_key)
    page.evaluate("async (key) => (await caches.open('tessera-inflated-snapshot')).delete(key)", snapshot_key)
    # Under the service worker the page reads the kept wasm itself, unchecked, and the snapshot's
    # worker checks it. A reload before the worker controls the page left the copy to the wasm's
    # worker, which checks its sum, inflates the file again and starts from the snapshot: safe
    # too, but not this path (it failed so in 1 of 3 runs of the browser tests in two processes).
    wait_controlled(page, 30_000)
    page.reload()
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is False
    assert page.locator("button[data-action=new-game][data-game=dots]").is_visible()
    inflated_keys(page, [])   # neither copy kept: the snapshot was not inflated, the wasm dropped
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotUsed, globalThis.tesseraSnapshotFromCache, "
                         "globalThis.tesseraWasmFromCache]") == [True, False, False]
    wait_stored(page, "snapshot", "wasm")
    page.reload()
    wait_ready(page)
    assert page.evaluate("[globalThis.tesseraSnapshotFromCache, globalThis.tesseraWasmFromCache]") == [True, True]
    page_log.assert_no_errors()


PAGE_MISSES_THE_KEPT_WASM_ONCE = """(() => {
  // The page looks for the kept wasm before its worker does: as if that copy were written
  // between the two looks (by the page's own first load, or another tab), the page's look
  // misses it once and its worker's finds it.  Workers have their own Cache objects.
  const real = Cache.prototype.match;
  let missed = false;
  Cache.prototype.match = function (request, options) {
    const url = String(request && request.url ? request.url : request);
    if (!missed && url.includes("/pyodide.asm.wasm.br?inflated=")) {
      missed = true;
      return Promise.resolve(undefined);
    }
    return real.call(this, request, options);
  };
})();"""


def test_a_wasm_kept_while_the_page_looked_still_unmasks_the_snapshot(page: Page, page_log, site_url: str,
                                                                     wait_ready) -> None:
    """The wasm's worker may find a kept copy the page did not (written meanwhile): such a copy
    comes without the wasm's data segments, and the snapshot's worker must then take them from
    the kept wasm.  Unmasked with nothing, the heap's static data stayed zeros and Python's first
    error recursed until the stack ran out: the bots' worker, which starts while the page keeps
    its copies, did so in 1 first visit in 4."""
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    page.goto(site_url)
    wait_ready(page)
    snapshot_key = inflated_key(page, "snapshot.bin.br")
    page.evaluate("async (key) => (await caches.open('tessera-inflated-snapshot')).delete(key)", snapshot_key)
    page.add_init_script(PAGE_MISSES_THE_KEPT_WASM_ONCE)
    # The page looks in Cache Storage only under the service worker (uncontrolledWindow).
    wait_controlled(page, 30_000)
    page.reload()
    wait_ready(page)
    started = page.evaluate("""[globalThis.tesseraSnapshotUsed, globalThis.tesseraWasmFromCache,
                                globalThis.tesseraSnapshotFromCache, globalThis.tesseraInflateMs.wasm === undefined]""")
    assert started == [True, True, False, True]   # the wasm from its worker's look at the cache, the snapshot inflated
    start_game(page, "human")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    page_log.assert_no_errors()
    assert not [text for text in warnings if "Tessera" in text], warnings


def test_a_page_no_service_worker_controls_still_reads_its_kept_copies(browser, page_log, site_url: str,
                                                                       wait_ready) -> None:
    """A page no service worker controls is taken for a first visit: its wasm's worker starts at
    once instead of after the page looked in Cache Storage, and looks there itself.  So a reload
    without the service worker (blocked here, as a reload that bypasses it) still starts from
    both kept copies, inflating neither; Python runs, and a game is played."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    try:
        page = context.new_page()
        page_log.attach(page, context)
        page.goto(site_url)
        wait_ready(page)
        controller = "navigator.serviceWorker ? navigator.serviceWorker.controller : null"
        assert page.evaluate(f"[{controller}, globalThis.tesseraCacheMissed]") == [
            None, {"snapshot": "no copy", "wasm": "no copy"}]
        wait_stored(page, "snapshot", "wasm")
        page.reload()
        wait_ready(page)
        started = page.evaluate(f"""[{controller}, globalThis.tesseraSnapshotUsed, globalThis.tesseraSnapshotFromCache,
                                     globalThis.tesseraWasmFromCache, globalThis.tesseraInflateMs]""")
        assert started == [None, True, True, True, {}], started
        start_game(page, "human")
        click_square(page, "e9")
        click_square(page, "e8")
        page.wait_for_function("document.querySelectorAll('button.move').length === 1")
        page_log.assert_no_errors()
    finally:
        context.close()
