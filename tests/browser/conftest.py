"""Playwright fixtures for the browser tests (CPython only).

Fixtures
--------
site_dir            session  path of the built site (builds it with
                             ``./build.sh build`` unless TESSERA_SITE_BUILT=1,
                             which ``./build.sh test`` sets after its own build)
site_url            session  base URL of the site served at the root, e.g.
                             ``http://127.0.0.1:41234/`` (always ends with "/")
subpath_site_url    session  the same site served under ``/games/tessera/``
                             by a second server: ``http://127.0.0.1:P/games/tessera/``
browser             session  headless system Chromium (/usr/bin/chromium)
context             function a fresh browser context (no cache, no service worker)
page_log            function records of the page below: ``requests`` (every
                             request URL of the context, workers and service
                             worker included), ``failed_requests``,
                             ``console_errors``, ``page_errors``;
                             ``assert_same_origin()``, ``assert_no_errors()``
page                function a new page in ``context`` wired to ``page_log``
wait_ready          function ``wait_ready(page, timeout_ms=60000)``: waits for
                             ``<html data-tessera="ready">``

``wait_ready`` and ``launch_chromium`` are also importable plain functions
(``from conftest import wait_ready`` works from tests in this folder).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

if sys.platform == "emscripten":  # never collected there, but be explicit
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SERVE = REPO / "scripts" / "serve.py"
CHROMIUM = os.environ.get("TESSERA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
READY_SELECTOR = "html[data-tessera=ready]"
SUBPATH = "/games/tessera/"


# ---------------------------------------------------------------- helpers --

SHM_ENOUGH = 2 << 30
"""Free bytes in /dev/shm above which Chromium keeps its shared memory there."""


def _free_bytes(path: str) -> int:
    try:
        return shutil.disk_usage(path).free
    except OSError:
        return 0


def launch_chromium(playwright, **kwargs) -> Browser:
    """Launch the system Chromium with the project's flags.

    Playwright always passes ``--disable-dev-shm-usage``, which puts
    Chromium's shared memory (canvases, images) in files under /tmp: on a
    machine whose disk is nearly full a renderer then dies ("Target
    crashed").  When /dev/shm (memory) has room, it is used instead.
    """
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run ./build.sh test (it installs Debian's chromium)")
    if _free_bytes("/dev/shm") >= SHM_ENOUGH:
        kwargs.setdefault("ignore_default_args", ["--disable-dev-shm-usage"])
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, **kwargs)


def machine_state() -> str:
    """Free disk and memory, for the message of a renderer crash."""
    available = "?"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                available = f"{int(line.split()[1]) // 1024} MiB"
    except (OSError, ValueError, IndexError):
        pass
    return (f"free: /tmp {_free_bytes('/tmp') >> 20} MiB, /dev/shm {_free_bytes('/dev/shm') >> 20} MiB, "
            f"memory available {available}")


def wait_ready(page: Page, timeout_ms: float = 60_000) -> None:
    """Wait until the app marks itself interactive (<html data-tessera="ready">).

    Fails at once, with the page's text, if the boot marks the page as failed
    (<html data-tessera="error">).
    """
    try:
        page.wait_for_function(
            "() => ['ready', 'error'].includes(document.documentElement.dataset.tessera)",
            timeout=timeout_ms, polling=100)
    except PlaywrightError as error:
        if "crashed" in str(error):
            raise PlaywrightError(f"{error} ({machine_state()})") from error
        raise
    state = page.evaluate("document.documentElement.dataset.tessera")
    if state != "ready":
        text = page.evaluate("document.body ? document.body.innerText : ''")
        raise AssertionError(f"the app failed to boot (data-tessera={state!r}): {text[:2000]}")


class SiteServer:
    """scripts/serve.py running in a subprocess on 127.0.0.1, port chosen by the OS."""

    def __init__(self, root: Path, prefix: str = "/", extra: tuple[str, ...] = ()):
        self.proc = subprocess.Popen(
            [sys.executable, str(SERVE), "--root", str(root), "--port", "0",
             "--prefix", prefix, "--quiet", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = self.proc.stdout.readline().strip()
        if not line.startswith("http://"):
            err = self.proc.stderr.read() if self.proc.poll() is not None else ""
            self.stop()
            raise RuntimeError(f"serve.py did not start: {line!r} {err}")
        self.url = line
        parts = urlsplit(line)
        self.origin = f"{parts.scheme}://{parts.netloc}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@dataclass
class PageLog:
    """What one page did: request URLs, console errors, uncaught page errors."""

    requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    def attach(self, page: Page, context: BrowserContext | None = None) -> None:
        # Requests are recorded on the context when given, so that those of
        # workers and of the service worker are seen too (Chromium).
        source = context if context is not None else page
        source.on("request", lambda req: self.requests.append(req.url))
        source.on("requestfailed", lambda req: self.failed_requests.append(
            f"{req.url} ({req.failure})"))
        page.on("console", lambda msg: self.console_errors.append(msg.text)
                if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))

    def foreign_requests(self, origin: str) -> list[str]:
        origin = origin.rstrip("/")
        ok_schemes = ("data:", "blob:", "about:")
        return [u for u in self.requests
                if not u.startswith(ok_schemes)
                and f"{urlsplit(u).scheme}://{urlsplit(u).netloc}" != origin]

    def assert_same_origin(self, origin_or_url: str) -> None:
        """Fail if any request went to another origin than the site's."""
        parts = urlsplit(origin_or_url)
        origin = f"{parts.scheme}://{parts.netloc}"
        foreign = self.foreign_requests(origin)
        assert not foreign, f"requests left the origin {origin}: {foreign}"

    def assert_no_errors(self) -> None:
        assert not self.page_errors, f"uncaught page errors: {self.page_errors}"
        assert not self.console_errors, f"console errors: {self.console_errors}"


# --------------------------------------------------------------- fixtures --

@pytest.fixture(scope="session")
def site_dir() -> Path:
    """``site/``, or ``$TESSERA_SITE_DIR`` (a private build, e.g. for work in parallel)."""
    private = os.environ.get("TESSERA_SITE_DIR")
    site = Path(private) if private else REPO / "site"
    if os.environ.get("TESSERA_SITE_BUILT") != "1" or not (site / "index.html").exists():
        if private:
            subprocess.run([sys.executable, str(REPO / "scripts" / "build_site.py"), str(site)],
                           cwd=REPO, check=True)
        else:
            bash = shutil.which("bash") or "bash"
            subprocess.run([bash, str(REPO / "build.sh"), "build"], cwd=REPO, check=True)
    assert (site / "index.html").exists(), "site/ was not built"
    return site


@pytest.fixture(scope="session")
def _root_server(site_dir):
    server = SiteServer(site_dir)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def _subpath_server(site_dir):
    server = SiteServer(site_dir, prefix=SUBPATH)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def site_url(_root_server) -> str:
    return _root_server.url


@pytest.fixture(scope="session")
def subpath_site_url(_subpath_server) -> str:
    return _subpath_server.url


@pytest.fixture(scope="session")
def _playwright():
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(_playwright) -> Browser:
    b = launch_chromium(_playwright)
    yield b
    b.close()


@pytest.fixture
def context(browser) -> BrowserContext:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


@pytest.fixture
def page(context, page_log) -> Page:
    p = context.new_page()
    page_log.attach(p, context)
    yield p


@pytest.fixture(name="wait_ready")
def wait_ready_fixture():
    return wait_ready
