"""When a screen raises anyway: the recovery screen, never a blank page or a dead start.

A screen is made to fail for real: the page is served a ``tessera.zip`` in
which one screen's ``mount`` raises, and no memory snapshot (whose modules
would be the unchanged ones), so Python imports the changed module.  The
recovery screen must name what failed in the player's words, give back
every stored value in one downloaded file, set the failing game aside or
reset storage when asked, and take the player home, where the app goes on.
"""

from __future__ import annotations

import io
import json
import sys
import zipfile
from pathlib import Path

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import BrowserContext, Page  # noqa: E402
from conftest import package_zip  # noqa: E402
from saves import storage_script  # noqa: E402
from service_worker import wait_controlled  # noqa: E402

from tessera.core.session import Seat, Session  # noqa: E402
from tessera.games.quadrature import Quadrature  # noqa: E402

PREFIX = "tessera/v1/session/"
BOOT_MS = 120_000
"""Without the snapshot Python starts the ordinary way: slower."""
MOUNTS = {
    "home": ("tessera/ui/screens/home.py", "    def mount(self, container: Any) -> None:\n"),
    "archive": ("tessera/ui/screens/archive.py", "    def mount(self, container: Any) -> None:\n"),
    "play": ("tessera/ui/play/screen.py", "    def mount(self, container: Any) -> None:\n"),
    "start": ("tessera/ui/app.py", "        from .board.move_feedback import install_settings\n"),   # App.start, no screen yet
}


def failing_zip(site_dir: Path, screen: str) -> bytes:
    """``tessera.zip`` with ``screen``'s mount (or the start-up) raising a plain Python error."""
    path, line = MOUNTS[screen]
    source = io.BytesIO(package_zip(site_dir))
    out = io.BytesIO()
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as changed:
        folder, _, name = path.rpartition("/")
        for info in original.infolist():
            if info.filename.startswith(f"{folder}/__pycache__/{name[:-3]}."):
                continue   # its shipped bytecode, never checked against the source, would hide the change
            data = original.read(info)
            if info.filename == path:
                text = data.decode("utf-8")
                assert text.count(line) == 1, f"{path} changed: update MOUNTS"
                text = text.replace(line, line + "        raise KeyError('made to fail by test_recovery')\n")
                data = text.encode("utf-8")
            changed.writestr(info, data)
    return out.getvalue()


def serve_failing(context: BrowserContext, site_dir: Path, screen: str) -> None:
    body = failing_zip(site_dir, screen)
    context.route("**/snapshot.bin.br", lambda route: route.fulfill(status=404, body=""))
    context.route("**/tessera.zip", lambda route: route.fulfill(
        status=200, body=body, headers={"Content-Type": "application/zip"}))


def saved_items() -> dict[str, str]:
    """A player's storage: a game in progress, a finished one, settings, a high-score table,
    the relay's address, something set aside before, and a value nothing reads."""
    session = Session(Quadrature(), [Seat("human"), Seat("human")], "keep1")
    session.play_text("e9-e8")
    session.meta.update({"updated": 2.0, "ply": 1, "to_move": 1, "side_names": ["white", "black"]})
    finished = Session(Quadrature(), [Seat("human"), Seat("human")], "done1")
    finished.play_text("e9-e8")
    finished.resign(0)
    finished.meta.update({"updated": 3.0, "ply": 1, "over": True, "ended": 3.0, "side_names": ["white", "black"],
                          "result": {"winner": 1, "reason": "resign"}})
    table = {"version": 1, "entries": [{"name": "Ann", "score": 120, "level": 2, "date": "2025-01-02",
                                        "session": "x1"}]}
    return {
        PREFIX + "keep1": json.dumps(session.to_save()),
        PREFIX + "done1": json.dumps(finished.to_save()),
        "tessera/v1/settings/theme": "dark",
        "tessera/v1/scores/abatis/classic-5-8-5": json.dumps(table),
        "tessera/v1/relay": "wss://example.org/relay",
        "tessera/v1/name": "Аня",
        "tessera/v1/corrupt/session/old@1": "{cut sh",
        "tessera/v1/odd": "\u0000 not ours to judge \U0001F600",
    }


def stored_items(page: Page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries(Object.keys(localStorage)
        .filter(k => k.startsWith('tessera/')).map(k => [k, localStorage.getItem(k)]))""")


@pytest.mark.first_visit   # a lent context keeps the inflated snapshot: the unchanged modules
def test_a_home_screen_that_raises_shows_recovery_and_export_gives_back_every_save(
        context: BrowserContext, page_log, site_url: str, site_dir: Path, wait_ready) -> None:
    """Home raises: the recovery screen says so, and its download holds every stored value exactly."""
    serve_failing(context, site_dir, "home")
    items = saved_items()
    context.add_init_script(storage_script(items))
    page = context.new_page()
    page_log.attach(page, context)
    page.goto(site_url)
    wait_ready(page, BOOT_MS)
    page.wait_for_selector(".recovery[data-recovery=home]")
    assert page.text_content(".recovery-what") == "The home screen could not be shown."
    assert "KeyError" in page.text_content(".recovery-details code")
    assert page.locator("button[data-action=put-aside]").count() == 0   # no game to set aside here
    before = stored_items(page)
    assert {key: before[key] for key in items} == items
    with page.expect_download() as download:
        page.click("button[data-action=export-all]")
    assert download.value.suggested_filename.startswith("tessera-backup-")
    backup = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert backup["format"] == "tessera-backup/1"
    assert backup["items"] == before                     # every value, exactly as stored
    assert page.text_content(".recovery-status") == f"Downloaded: a file with all {len(before)} saved entries."
    page.screenshot(path="/tmp/tessera-recovery-en.png")
    page.click("button[data-action=home]")               # home still fails: the same screen, no loop
    page.wait_for_selector(".recovery[data-recovery=home]")
    assert stored_items(page) == before
    assert page.evaluate("location.hash") in ("", "#/")
    # No one game can be blamed: every saved game can be set aside at once (kept, not deleted).
    assert page.text_content("button[data-action=put-aside-all]") == "Set all 2 saved games aside"
    page.click("button[data-action=put-aside-all]")
    page.wait_for_selector(".recovery[data-recovery=home]")   # the test's home screen fails whatever is stored
    after = stored_items(page)
    assert not [key for key in after if key.startswith(PREFIX)]
    for name in ("keep1", "done1"):
        aside = [key for key in after if key.startswith(f"tessera/v1/corrupt/session/{name}@")]
        assert len(aside) == 1 and after[aside[0]] == items[PREFIX + name]
    assert {key: value for key, value in after.items() if "/corrupt/" not in key} == {
        key: value for key, value in before.items() if not key.startswith(PREFIX) and "/corrupt/" not in key}
    assert page.locator("button[data-action=put-aside-all]").count() == 0   # nothing left to set aside
    assert not page_log.page_errors


@pytest.mark.first_visit   # a lent context keeps the inflated snapshot: the unchanged modules
def test_the_recovery_screen_speaks_russian(context: BrowserContext, page_log, site_url: str, site_dir: Path,
                                            wait_ready) -> None:
    """The same screen in Russian, for a failing archive: what failed, and every button, in Russian."""
    serve_failing(context, site_dir, "archive")
    context.add_init_script(storage_script({**saved_items(), "tessera/v1/lang": "ru"}))
    page = context.new_page()
    page_log.attach(page, context)
    page.goto(site_url + "#/archive")
    wait_ready(page, BOOT_MS)
    page.wait_for_selector(".recovery[data-recovery=archive]")
    assert page.text_content(".recovery-what") == "Не удалось показать архив сыгранных партий."
    assert page.text_content("button[data-action=export-all]") == "Скачать все сохранённые данные"
    page.screenshot(path="/tmp/tessera-recovery-ru.png")
    page.click("button[data-action=reset]")
    page.wait_for_selector(".recovery-confirm:not([hidden])")
    page.screenshot(path="/tmp/tessera-recovery-reset-ru.png")
    page.click("button[data-action=reset-no]")
    assert page.locator(".recovery-confirm[hidden]").count() == 1
    page.click("button[data-action=home]")               # the home screen works: the app goes on
    page.wait_for_selector(".resume-card[href$='/keep1']")
    assert not page_log.page_errors


@pytest.mark.first_visit   # a lent context keeps the inflated snapshot: the unchanged modules
def test_a_failing_game_is_set_aside_or_storage_reset_from_recovery(context: BrowserContext, page_log,
                                                                    site_url: str, site_dir: Path,
                                                                    wait_ready) -> None:
    """A failing play screen: "Set this game aside" keeps it under corrupt/ and goes home; reset empties storage."""
    serve_failing(context, site_dir, "play")
    items = saved_items()
    context.add_init_script("if (!sessionStorage.getItem('once')) { sessionStorage.setItem('once', '1'); "
                            + storage_script(items) + " }")
    page = context.new_page()
    page_log.attach(page, context)
    page.goto(site_url + "#/play/quadrature/keep1")
    wait_ready(page, BOOT_MS)
    page.wait_for_selector(".recovery[data-recovery=play]")
    assert page.text_content(".recovery-what") == "Your Quadrature game could not be shown."
    page.click("button[data-action=put-aside]")
    page.wait_for_selector(".home")
    assert "was set aside" in page.text_content("#notices")
    after = stored_items(page)
    assert PREFIX + "keep1" not in after
    aside = [key for key in after if key.startswith("tessera/v1/corrupt/session/keep1@")]
    assert len(aside) == 1 and after[aside[0]] == items[PREFIX + "keep1"]
    assert after[PREFIX + "done1"] == items[PREFIX + "done1"]

    page.goto(site_url + "#/play/quadrature/done1")       # another failing game: reset this time
    page.reload()
    wait_ready(page, BOOT_MS)
    page.wait_for_selector(".recovery[data-recovery=play]")
    page.click("button[data-action=reset]")
    page.click("button[data-action=reset-yes]")
    page.wait_for_selector(".home")
    assert stored_items(page) == {}
    assert "Storage was reset" in page.text_content("#notices")
    assert page.locator(".resume-card").count() == 0
    assert not page_log.page_errors


@pytest.mark.first_visit   # a lent context keeps the inflated snapshot: the unchanged modules
def test_a_start_up_that_raises_shows_recovery_not_a_dead_page(context: BrowserContext, page_log, site_url: str,
                                                                site_dir: Path, wait_ready) -> None:
    """The start-up fails before any screen: the recovery screen, not "Tessera could not start"; home works."""
    serve_failing(context, site_dir, "start")
    context.add_init_script(storage_script(saved_items()))
    page = context.new_page()
    page_log.attach(page, context)
    page.goto(site_url)
    wait_ready(page, BOOT_MS)
    page.wait_for_selector(".recovery[data-recovery=start]")
    assert page.text_content(".recovery-what") == "Tessera could not finish starting."
    with page.expect_download() as download:
        page.click("button[data-action=export-all]")
    assert json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["items"] == stored_items(page)
    page.click("button[data-action=home]")
    page.wait_for_selector(".resume-card[href$='/keep1']")
    assert not page_log.page_errors


PRECACHED_ZIP_JS = """async () => {
    await navigator.serviceWorker.ready;
    for (const name of await caches.keys()) {
        if (!name.startsWith('tessera|')) continue;
        const hit = await (await caches.open(name)).match(new URL('tessera.zip', location.href).href);
        if (hit) return (await hit.arrayBuffer()).byteLength;
    }
    return 0;
}"""


def test_a_routed_file_the_service_worker_kept_is_left_to_this_test(context: BrowserContext, site_url: str,
                                                                    site_dir: Path, wait_ready) -> None:
    """The first of two: the service worker precaches the failing tessera.zip a route serves
    (the start, from the memory snapshot, does not use its modules)."""
    body = failing_zip(site_dir, "start")
    context.route("**/tessera.zip", lambda route: route.fulfill(
        status=200, body=body, headers={"Content-Type": "application/zip"}))
    page = context.new_page()
    page.goto(site_url)
    wait_ready(page, BOOT_MS)
    page.wait_for_function(PRECACHED_ZIP_JS, timeout=30_000, polling=200)
    assert page.evaluate(PRECACHED_ZIP_JS) == len(body)


def test_the_next_test_starts_from_the_hosts_files(page: Page, page_log, site_url: str, site_dir: Path,
                                                  wait_ready) -> None:
    """The second: the lent context dropped the precache the route filled (conftest.py, give_back), so
    this test starts from the host's tessera.zip, not the last test's: on the first load, and on a
    reload the service worker answers."""
    page.goto(site_url)
    wait_ready(page)
    wait_controlled(page)
    page.reload()
    wait_ready(page)
    page.wait_for_selector(".home .game-card")
    assert page.locator(".recovery").count() == 0
    page.wait_for_function(PRECACHED_ZIP_JS, timeout=30_000, polling=200)
    assert page.evaluate(PRECACHED_ZIP_JS) == (site_dir / "tessera.zip").stat().st_size
    page_log.assert_no_errors()
