"""The built site on any static host: a sub-path, installing, updates, a host's own types.

* Served from a sub-path, the service worker's scope is that folder, and the
  site reloads and plays offline after one visit.
* The web app manifest is valid, Chromium reads it without errors, and its
  icons load at their sizes.
* A new build waits: its worker installs while the tab keeps the old one,
  the page says a new version is ready (in the player's language), and
  Reload lets the new build in, the tab reloading once.
* A host that sends the wasm with a wrong type (application/octet-stream)
  still gets a page that starts.

(tests/browser/test_app_platform.py plays under /games/tessera/ online;
tests/browser/test_startup.py checks what is precached and the offline
reload at the root.)
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from conftest import REPO  # noqa: E402
from service_worker import wait_controlled  # noqa: E402
from test_app_quadrature import click_square, moves, start_game  # noqa: E402

sys.path.insert(0, str(REPO / "scripts"))
import serve  # noqa: E402  (scripts/serve.py)

PREFIX = "/some/deeper/path/"
"""Not the /games/tessera/ of conftest's sub-path server: a second, deeper one."""

WORKER_VERSION_JS = """(which) => new Promise((resolve, reject) => {
    const sw = navigator.serviceWorker;
    const timer = setTimeout(() => reject(new Error('no answer from the ' + which + ' worker')), 10000);
    const heard = (event) => {
        if (!event.data || event.data.type !== 'tessera:version') return;
        sw.removeEventListener('message', heard);
        clearTimeout(timer);
        resolve(event.data.version);
    };
    sw.addEventListener('message', heard);
    sw.startMessages();
    sw.getRegistration().then((registration) => {
        const worker = which === 'waiting' ? registration.waiting : sw.controller;
        if (!worker) { clearTimeout(timer); resolve(null); return; }
        worker.postMessage('tessera:version');
    });
})"""
UPDATE_NOTICE = "[data-notice=update]"


class ThreadServer:
    """scripts/serve.py's server in a thread of this process, with its own options."""

    def __init__(self, root: Path, **options) -> None:
        self.server = serve.make_server(str(root), **options)
        self.url = self.server.base_url
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def served():
    """``served(root, **serve_options)`` starts a server; all are stopped after the test."""
    servers: list[ThreadServer] = []

    def start(root: Path, **options) -> ThreadServer:
        server = ThreadServer(root, **options)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def site_copy(site_dir: Path):
    """A copy of the site whose sw.js is a file of its own (the rest are links to site/)."""
    root = Path(tempfile.mkdtemp(prefix="tessera-hosting-"))
    for entry in site_dir.iterdir():
        if entry.name != "sw.js":
            (root / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    shutil.copyfile(site_dir / "sw.js", root / "sw.js")
    yield root
    shutil.rmtree(root)


def test_from_a_sub_path_the_site_is_scoped_there_and_plays_offline(page: Page, page_log, site_dir: Path,
                                                                      served, wait_ready) -> None:
    """Under a deep sub-path the worker's scope is that folder, and after one visit the site reloads and plays offline."""
    server = served(site_dir, prefix=PREFIX)
    assert urlsplit(server.url).path == PREFIX
    page.goto(server.url)
    wait_ready(page)
    wait_controlled(page)
    assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.scope)") == server.url
    assert page.locator(UPDATE_NOTICE).count() == 0  # a first install is no update

    page.context.set_offline(True)
    try:
        page.reload()
        wait_ready(page)
        start_game(page, "human")
        click_square(page, "e9")
        click_square(page, "e8")
        page.wait_for_function("document.querySelectorAll('button.move').length === 1")
        assert moves(page) == ["e9-e8"]
    finally:
        page.context.set_offline(False)
    outside = [url for url in page_log.requests
               if not url.startswith(("data:", "blob:", "about:")) and not url.startswith(server.url)]
    assert not outside, f"requests outside {server.url}: {outside}"
    page_log.assert_no_errors()


def test_the_manifest_is_valid_and_its_icons_load(page: Page, page_log, site_dir: Path, served,
                                                  wait_ready) -> None:
    """manifest.json is linked once the first screen is up (read while the page started, with its
    icons, it took the browser process 165-190 ms more of the two cores' time), is valid JSON that
    Chromium parses without errors, scoped to the site, and every icon loads at its size."""
    server = served(site_dir, prefix=PREFIX)
    page.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
        globalThis.tesseraManifestWhileLoading = document.querySelectorAll("link[rel=manifest]").length;
    })""")
    page.goto(server.url)
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraManifestWhileLoading") == 0
    page.wait_for_function("document.querySelectorAll('link[rel=manifest]').length === 1", timeout=10_000)
    href = page.evaluate("document.querySelector('link[rel=manifest]').href")
    assert href == server.url + "manifest.json"
    manifest = json.loads((site_dir / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["name"] == manifest["short_name"] == "Tessera"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (".", ".", "standalone")
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])

    cdp = page.context.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["url"] == href
    assert not parsed["errors"], parsed["errors"]
    assert json.loads(parsed["data"]) == manifest  # served as built
    installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    cdp.detach()
    # Playwright's contexts are incognito ones, where Chromium installs nothing: any other reason is ours.
    assert not [error for error in installability if error["errorId"] != "in-incognito"], installability
    resolved = parsed["manifest"]  # as Chromium understood it
    assert (resolved["startUrl"], resolved["scope"], resolved["id"]) == (server.url,) * 3
    assert resolved["display"] == "kStandalone"

    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["purpose"] == "any"}
    assert {"192x192", "512x512"} <= sizes and "any" in sizes  # the SVG, and both PNGs
    for icon in manifest["icons"]:
        url = urljoin(href, icon["src"])
        assert url.startswith(server.url), url
        width, height = page.evaluate("""(url) => new Promise((resolve, reject) => {
            const image = new Image();
            image.onload = () => resolve([image.naturalWidth, image.naturalHeight]);
            image.onerror = () => reject(new Error('cannot load ' + url));
            image.src = url;
        })""", url)
        if icon["sizes"] != "any":
            assert f"{width}x{height}" == icon["sizes"], icon
        else:
            assert width > 0 and height > 0, icon
    page_log.assert_no_errors()


def test_a_new_build_waits_until_the_player_reloads(page: Page, page_log, site_copy: Path, served,
                                                    wait_ready) -> None:
    """A second build's worker waits while the tabs run the first; the notice says so in the
    player's language, and Reload lets the new build take over, every tab reloading once."""
    server = served(site_copy, prefix=PREFIX)
    page.goto(server.url)
    wait_ready(page)
    wait_controlled(page)
    old = page.evaluate(WORKER_VERSION_JS, "controller")
    assert old and page.locator(UPDATE_NOTICE).count() == 0
    other = page.context.new_page()  # a second tab of the site
    other.goto(server.url + "#/rules/dots")
    wait_ready(other)
    other.evaluate("window.__sameTab = true")

    sw = site_copy / "sw.js"
    text = sw.read_text(encoding="utf-8")
    new = old[::-1]
    assert text.count(json.dumps(old)) == 1
    sw.write_text(text.replace(json.dumps(old), json.dumps(new)), encoding="utf-8")
    page.evaluate("window.__sameTab = true")
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    page.wait_for_selector(UPDATE_NOTICE, timeout=60_000)

    # Nothing swapped under the running tab: the old build still serves it.
    assert page.evaluate("window.__sameTab") is True
    assert page.evaluate(WORKER_VERSION_JS, "controller") == old
    assert page.evaluate(WORKER_VERSION_JS, "waiting") == new
    assert page.evaluate("tesseraUpdate.waiting") is True
    notice = page.locator(UPDATE_NOTICE)
    assert notice.locator(".notice-text").text_content() == "A new version of Tessera is ready."
    assert notice.locator("[data-action=update-reload]").text_content() == "Reload"

    page.click("button[data-lang=ru]")  # worded again in the language chosen
    page.wait_for_function("document.documentElement.lang === 'ru'")
    assert notice.locator(".notice-text").text_content() == "Готова новая версия Tessera."
    assert notice.locator("[data-action=update-reload]").text_content() == "Перезагрузить"

    assert other.evaluate("window.__sameTab") is True  # the other tab keeps running too
    with page.expect_navigation(timeout=60_000):
        notice.locator("[data-action=update-reload]").click()
    wait_ready(page)
    assert page.evaluate("window.__sameTab") is None
    other.wait_for_function("() => window.__sameTab === undefined", timeout=60_000)
    wait_ready(other)
    assert "#/rules/dots" in other.url
    assert other.evaluate(WORKER_VERSION_JS, "controller") == new
    wait_controlled(page)
    assert page.evaluate(WORKER_VERSION_JS, "controller") == new
    assert page.evaluate(WORKER_VERSION_JS, "waiting") is None
    assert page.locator(UPDATE_NOTICE).count() == 0
    caches = page.evaluate("caches.keys()")
    assert [name for name in caches if name.startswith("tessera|")] == [f"tessera|{server.url}|{new}"]
    page_log.assert_no_errors()


def test_wasm_sent_with_a_wrong_type_still_starts(page: Page, page_log, site_dir: Path, served,
                                                  wait_ready) -> None:
    """A host whose types lack .wasm and .mjs (application/octet-stream, as stock
    nginx sends .mjs) gets a page that starts all the same: the site ships no
    .mjs file (its modules end in .js) and hands Pyodide the wasm it inflated from
    pyodide.asm.wasm.br with its type (the plain file, which a page that cannot
    inflate it fetches, would be compiled from its bytes)."""
    assert not [path for path in site_dir.rglob("*.mjs")], "a module a host may send with the wrong type"
    server = served(site_dir, mime={".wasm": "application/octet-stream", ".mjs": "application/octet-stream"})
    types: dict[str, str] = {}
    page.on("response", lambda r: types.__setitem__(urlsplit(r.url).path.rsplit("/", 1)[-1],
                                                     r.headers.get("content-type", "")))
    warnings: list[str] = []
    page.on("console", lambda msg: warnings.append(msg.text) if msg.type == "warning" else None)
    page.goto(server.url)
    wait_ready(page)
    assert "pyodide.asm.wasm.br" in types and "pyodide.asm.wasm" not in types
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    assert not [text for text in warnings if "wasm" in text.lower()], warnings
    start_game(page, "human")
    click_square(page, "e9")
    click_square(page, "e8")
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    page_log.assert_no_errors()
