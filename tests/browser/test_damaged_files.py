"""Browser tests: a file the service worker keeps, damaged in its cache (storage no version of
the app wrote), never leaves the page loading for ever.

The worker answers from its cache first, so such a file failed every load the same way: a
garbled ``tessera.zip`` left the loading screen counting past a minute, with only a page error
in the console, and so did an emptied ``main.py`` (which raises nothing at all).  Now the start
ends on the error screen, in the player's language, and its Reload button first lets go of the
site's caches and worker (assets/js/boot.js, ``repairAndReload``): the files come from the host
again, the app starts, and the saved games, kept in localStorage, are all there.  A garbled
``tessera.zip`` no longer stops the start (the app runs from its memory snapshot, and the
zip's files are written once the home screen is up): a notice says the files are damaged,
and its Reload repairs them the same way.  The snapshot
and the wasm, which the page inflates itself, are asked for once more from the host when the
worker's copy does not inflate, and that answer replaces the damaged copy.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

if sys.platform == "emscripten":  # never collected there, but be explicit
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from service_worker import wait_controlled  # noqa: E402
from test_app_quadrature import open_with_one_move  # noqa: E402
from test_startup import inflated_key  # noqa: E402

pytestmark = pytest.mark.first_visit  # each test starts from a fresh context

PRECACHED_JS = """(file) => caches.keys().then(async (names) => {
    for (const name of names.filter((name) => name.startsWith('tessera|'))) {
        const cache = await caches.open(name);
        if ((await cache.keys()).some((request) => request.url.split('?')[0].endsWith('/' + file))) return true;
    }
    return false;
})"""
"""Whether the service worker's cache holds ``file`` (its install has stored it)."""

DAMAGE_JS = """async ([file, damage]) => {
    let damaged = 0;
    for (const name of (await caches.keys()).filter((name) => name.startsWith('tessera|'))) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            if (!request.url.split('?')[0].endsWith('/' + file)) continue;
            const response = await cache.match(request);
            const bytes = new Uint8Array(await response.arrayBuffer());
            let bad = new Uint8Array(0);                                       // emptied
            if (damage === 'garbled') {
                bad = bytes.slice();
                bad.fill(0x41, Math.floor(bytes.length * 0.3), Math.floor(bytes.length * 0.35));
            }
            await cache.put(request, new Response(bad, { headers: response.headers }));
            damaged += 1;
        }
    }
    return damaged;
}"""
"""Damage ``file`` where the service worker keeps it: ``garbled`` or ``emptied``; how many copies."""

WORDS = {
    "en": ("Tessera could not start.", "Reloading fetches Tessera's files again; your games are kept.", "Reload"),
    "ru": ("Не удалось запустить Tessera.", "При перезагрузке файлы Tessera будут скачаны заново; ваши партии сохранятся.",
           "Перезагрузить"),
}


@pytest.mark.parametrize("file, damage, lang", [("main.py", "emptied", "ru")])
def test_a_damaged_file_of_the_service_worker_ends_on_an_error_whose_reload_repairs_the_start(
        page: Page, page_log, site_url: str, wait_ready, file: str, damage: str, lang: str) -> None:
    page.add_init_script("globalThis.tesseraBootStallMs = 1500")   # boot.js's wait for an app that never came up
    open_with_one_move(page, site_url, wait_ready)
    page.evaluate("(lang) => localStorage.setItem('tessera/v1/lang', lang)", lang)
    wait_controlled(page, 30_000)
    page.wait_for_function(PRECACHED_JS, arg=file, timeout=30_000, polling=200)
    assert page.evaluate(DAMAGE_JS, [file, damage]) == 1

    page.goto(site_url)   # the home screen, from the worker's damaged cache
    page.wait_for_function("() => document.documentElement.dataset.tessera !== 'loading'", timeout=60_000,
                           polling=100)
    title, note, button = WORDS[lang]
    boot = page.locator("#boot")
    assert page.evaluate("document.documentElement.dataset.tessera") == "error", boot.inner_text()
    assert boot.get_attribute("role") == "alert"
    assert boot.locator(".boot-error-text").inner_text() == title
    assert boot.locator(".boot-error-note").inner_text() == note
    assert boot.locator("button").inner_text() == button
    if damage == "emptied":   # nothing raised: the wait for the app, said in the player's language
        assert "Скрипты Tessera выполнились, но приложение не запустилось." in boot.inner_text()

    with page.expect_navigation(timeout=30_000):   # once the caches and the worker are let go
        boot.locator("button").click()
    wait_ready(page)
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.locator("#frame").inner_text().strip()
    wait_controlled(page, 30_000)   # registered anew
    page.wait_for_function(PRECACHED_JS, arg=file, timeout=30_000, polling=200)
    page.goto(site_url)   # the worker's new cache serves a good copy
    wait_ready(page)
    assert page.locator("a.resume-card[href^='#/play/quadrature/']").count() == 1   # the game, kept
    page_log.console_errors.clear()   # the damaged start's own (PyScript's, Python's): seen above, on screen
    page_log.page_errors.clear()


def test_a_damaged_package_zip_of_the_service_worker_is_said_and_its_reload_repairs_it(
        page: Page, page_log, site_url: str, wait_ready) -> None:
    """The app runs from its memory snapshot all the same: the files of tessera.zip, which it
    writes once the home screen is up, cannot be read, and a notice says so, in the player's
    language; its Reload lets go of the site's caches, and the files come from the host again."""
    open_with_one_move(page, site_url, wait_ready)
    page.evaluate("() => localStorage.setItem('tessera/v1/lang', 'ru')")
    wait_controlled(page, 30_000)
    page.wait_for_function(PRECACHED_JS, arg="tessera.zip", timeout=30_000, polling=200)
    assert page.evaluate(DAMAGE_JS, ["tessera.zip", "garbled"]) == 1

    page.goto(site_url)   # the home screen, from the snapshot; tessera.zip from the worker's damaged cache
    wait_ready(page)
    assert page.locator("a.resume-card[href^='#/play/quadrature/']").count() == 1
    notice = page.locator("[data-notice=files-damaged]")
    expect(notice).to_be_visible(timeout=15_000)
    expect(notice.locator(".notice-text")).to_have_text(
        "Некоторые файлы Tessera повреждены. При перезагрузке они будут скачаны заново; ваши партии сохранятся.")
    assert page.evaluate("globalThis.tesseraUnpacked") == {"short": 0, "general": 1, "deferred": 1}

    with page.expect_navigation(timeout=30_000):   # once the caches and the worker are let go
        notice.locator("[data-action=files-reload]").click()
    wait_ready(page)
    wait_controlled(page, 30_000)   # registered anew
    page.wait_for_function(PRECACHED_JS, arg="tessera.zip", timeout=30_000, polling=200)
    page.goto(site_url + "#/rules/quadrature")   # a rules page's modules come from tessera.zip
    wait_ready(page)
    expect(page.locator(".rules-page")).to_be_visible()
    assert page.evaluate("globalThis.tesseraUnpacked") == {"short": 1, "general": 0, "deferred": 1}
    assert page.locator("[data-notice=files-damaged]").count() == 0
    assert page.evaluate("document.documentElement.lang") == "ru"
    page_log.console_errors.clear()   # the damaged zip's own (Pyodide's unpacking): seen above, on screen
    page_log.page_errors.clear()


KEPT_DIGEST_JS = """async (file) => {
    for (const name of (await caches.keys()).filter((name) => name.startsWith('tessera|'))) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            if (!request.url.split('?')[0].endsWith('/' + file)) continue;
            const bytes = await (await cache.match(request)).arrayBuffer();
            const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
            return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
        }
    }
    return null;
}"""
"""The SHA-256 of the service worker's copy of ``file`` (None: it has none)."""


@pytest.mark.parametrize("file, kind", [("snapshot.bin.br", "snapshot"), ("pyodide.asm.wasm.br", "wasm")])
def test_a_big_file_damaged_in_the_service_workers_cache_is_fetched_again_and_replaced(
        page: Page, page_log, site_url: str, site_dir: Path, wait_ready, file: str, kind: str) -> None:
    """The snapshot and the wasm ship brotli-compressed, and a load without their inflated copy
    inflates them from the service worker's cache: a copy garbled there failed to inflate on every
    such load, each then starting Python the plain way.  The inflating worker now asks the host
    once more (cache: "reload"), Python starts from the snapshot, and the host's answer replaces
    the damaged copy."""
    page.goto(site_url)
    wait_ready(page)
    key = inflated_key(page, file)
    wait_controlled(page, 30_000)
    page.wait_for_function(PRECACHED_JS, arg=file, timeout=30_000, polling=200)
    assert page.evaluate(DAMAGE_JS, [file, "garbled"]) == 1
    page.evaluate("async (key) => (await caches.open('tessera-inflated-snapshot')).delete(key)", key)
    host = hashlib.sha256((site_dir / "vendor" / "pyodide" / file).read_bytes()).hexdigest()
    assert page.evaluate(KEPT_DIGEST_JS, file) != host

    page.reload()
    wait_ready(page)
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    assert kind in page.evaluate("globalThis.tesseraInflateMs")   # inflated, from the host's copy
    assert page.evaluate(KEPT_DIGEST_JS, file) == host            # which replaced the damaged one
    page_log.assert_no_errors()
