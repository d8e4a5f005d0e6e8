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
browser             function headless system Chromium (/usr/bin/chromium), one
                             for the session, launched again if it went
                             away (hang_watchdog.py)
context             function a browser context with nothing stored: one context
                             reused from test to test, emptied in between,
                             which keeps only the inflated snapshot and wasm
                             (so most tests skip a cold start, ~3 s each); a
                             test marked ``first_visit`` gets a new one (no
                             cache, no service worker)
second_context      function a second device for a test of two: another
                             context lent and emptied the same way
page_log            function records of the page below: ``requests`` (every
                             request URL of the context, workers and service
                             worker included), ``failed_requests``,
                             ``console_errors``, ``page_errors``;
                             ``assert_same_origin()``, ``assert_no_errors()``
page                function a new page in ``context`` wired to ``page_log``
wait_ready          function ``wait_ready(page, timeout_ms=60000)``: waits for
                             ``<html data-tessera="ready">``

``emulate(page, ...)`` gives a page of the lent context a window size, a
theme, a language, a pixel ratio or a phone's touch screen, and ``tap`` taps
on it: a test needs no context of its own for those.

``wait_ready`` and ``launch_chromium`` are also importable plain functions
(``from conftest import wait_ready`` works from tests in this folder).

Under pytest-xdist (``./build.sh test`` runs two processes) each process has
its session fixtures of its own: servers on ports the OS chose, a Chromium,
lent contexts whose reset page names the process; the site is built once,
before they start (``pytest_configure``).
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

from chromium_log import ChromiumLogs  # noqa: E402
from hang_watchdog import Watchdog  # noqa: E402

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
REUSED_CONTEXT_ARGS = ["--process-per-site"]
"""For the browser of the reused context: the pages of a site share one renderer, so the wasm
compiled for one test is there for the next (tests that make their own contexts, often two
devices at once, keep a renderer each)."""
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
    kwargs.setdefault("args", CHROMIUM_ARGS)
    return playwright.chromium.launch(executable_path=CHROMIUM, **kwargs)


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


def package_zip(site_dir: Path) -> bytes:
    """The site's ``tessera.zip`` as a zip: it ships as one zstd frame of one
    (scripts/build_site.py, ``frame_zip``)."""
    import zstandard   # only where a test reads the package

    return zstandard.ZstdDecompressor().decompress((site_dir / "tessera.zip").read_bytes())


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


# ------------------------------------------------------------- watchdog --

WATCHDOG = Watchdog()
CHROMIUM_LOGS = ChromiumLogs()
LOG_MARK = pytest.StashKey[dict]()
"""Where Chromium's logs stood when the test's setup began."""


def _watched(item: pytest.Item, phase: str):
    if phase == "setup":
        item.stash[LOG_MARK] = CHROMIUM_LOGS.mark()
    ended = WATCHDOG.start(item.nodeid, phase)
    stuck_before = len(WATCHDOG.stuck)
    try:
        yield
    finally:
        ended.set()
        for stuck in WATCHDOG.stuck[stuck_before:]:
            item.add_report_section(phase, "watchdog", stuck.describe())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield from _watched(item, "setup")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield from _watched(item, "call")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    yield from _watched(item, "teardown")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report shows what Chromium logged meanwhile (chromium_log.py): why a
    renderer died, when one did."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and LOG_MARK in item.stash:
        lines = CHROMIUM_LOGS.since(item.stash[LOG_MARK]) or ["(nothing)"]
        report.sections.append((f"Chromium's log since the setup ({report.when})",
                                "\n".join(lines + [machine_state()])))


def pytest_unconfigure(config):
    CHROMIUM_LOGS.remove()


def pytest_terminal_summary(terminalreporter):
    if WATCHDOG.stuck:
        terminalreporter.section("tests the watchdog stopped (tests/browser/hang_watchdog.py)")
        for stuck in WATCHDOG.stuck:
            terminalreporter.write_line(stuck.describe())


# --------------------------------------------------------------- fixtures --

def built_site() -> Path:
    """``site/``, or ``$TESSERA_SITE_DIR`` (a private build, e.g. for work in parallel), built
    first unless ``TESSERA_SITE_BUILT=1`` says it already is."""
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


def pytest_configure(config):
    """Run in several processes (pytest-xdist, as ``./build.sh test`` does), the tests would
    each build the site into the same folder at once: the main process builds it first, and
    the processes it starts afterwards inherit ``TESSERA_SITE_BUILT=1``."""
    if getattr(config, "workerinput", None) is None and getattr(config.option, "numprocesses", None):
        built_site()
        os.environ["TESSERA_SITE_BUILT"] = "1"


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """The built site (``built_site``)."""
    return built_site()


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


class Chromium:
    """One Chromium launched when first asked for, and again if it went away (the watchdog,
    hang_watchdog.py, kills a browser whose page hangs a test for good): the next test has one."""

    def __init__(self, playwright, args: list[str]) -> None:
        self.playwright = playwright
        self.args = args
        self.browser: Browser | None = None

    def get(self) -> Browser:
        if self.browser is None or not self.browser.is_connected():
            self.browser = launch_chromium(self.playwright, args=self.args + CHROMIUM_LOGS.args_for_launch())
        return self.browser

    def close(self) -> None:
        if self.browser is not None and self.browser.is_connected():
            self.browser.close()


@pytest.fixture(scope="session")
def _chromium(_playwright) -> Chromium:
    chromium = Chromium(_playwright, CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture
def browser(_chromium) -> Browser:
    return _chromium.get()


VIEWPORT = {"width": 1280, "height": 900}
KEPT_CACHE = "tessera-inflated-snapshot"
"""The Cache Storage cache a reused context keeps: the inflated snapshot and wasm
(assets/js/pyodide-snapshot.mjs), whose making is most of a cold start."""
CLEARED_STORAGE = ("cookies,file_systems,indexeddb,local_storage,service_workers,websql,"
                   "shader_cache,storage_buckets")
DEFAULT_TIMEOUT_MS = 30_000
PRECACHE_PREFIX = "tessera|"
"""The service worker's caches (assets/sw.js: one per build and scope), which a
reused context keeps for the session's own servers: their build does not
change, and a worker installed again then fetches none of its 49 files."""
DROP_PRECACHE_JS = """async (prefix) => {
    for (const name of await caches.keys()) {
        if (name.startsWith(prefix)) await caches.delete(name);
    }
}"""
EMPTY_ORIGIN_JS = """async ([kept, keptPrefix]) => {
    const left = [];
    if (self.caches) {
        for (const name of await caches.keys()) {
            if (name !== kept && !(keptPrefix && name.startsWith(keptPrefix))) await caches.delete(name);
        }
    }
    if (navigator.serviceWorker) {
        for (const registration of await navigator.serviceWorker.getRegistrations()) {
            if (!(await registration.unregister())) left.push("a service worker");
        }
    }
    if (localStorage.length) left.push("local storage");
    return left.join(", ");
}"""
"""Empties what the DevTools protocol left of one origin (run in a page of it); what is still there."""


class ReusedContext:
    """One browser context lent to test after test, emptied in between.

    A cold start (the snapshot and wasm inflated, the wasm compiled) is most
    of a short browser test; a context that keeps the inflated files, and a
    renderer that keeps the compiled wasm, starts the app in about a third
    of the time.  So between tests every origin a test reached loses its
    local storage, IndexedDB, service workers, cookies and Cache Storage but
    the inflated files (``KEPT_CACHE``) and, on the session's own servers,
    the service worker's precache (``PRECACHE_PREFIX``: the worker is
    installed again by the next test, without fetching its files, as after
    an install cut short; a test that adds a route to the context drops it,
    so that its requests reach the route, and again when it ends, since the
    worker may have precached what the route served), and the HTTP cache goes as soon as
    a test reached a server other than the session's (a later server may
    get the same port).  What a test added to the context (listeners, init
    scripts, bindings, routes, offline, headers, permissions) is taken off
    again: the context's methods that add them are wrapped to note each.

    A page of the site stays open between tests (``parked``): with
    ``--process-per-site`` the site's renderer, and the wasm it compiled,
    live on in it.  A context whose emptying fails is closed and a new one
    made.
    """

    def __init__(self, chromium: Chromium, home: str, stable_origins: set[str]) -> None:
        self.chromium = chromium
        self.home = home
        self.stable_origins = stable_origins
        self.context: BrowserContext | None = None
        self.parked: Page | None = None
        self.crashed = False
        self.routed = False
        self.origins: set[str] = set()
        self.listeners: list[tuple[str, object]] = []
        self.disposables: list[object] = []

    def lend(self) -> BrowserContext:
        if self.context is not None and not (self.context.browser and self.context.browser.is_connected()):
            self.context = self.parked = None   # the watchdog killed its browser
        if self.context is None:
            self.context = self.chromium.get().new_context(viewport=VIEWPORT)
            self.context.on("request", self._note_origin)
            self.parked = self.context.new_page()
            self.crashed = False
            self.parked.on("crash", self._note_crash)
            self.parked.goto(self._reset_url(self.home), wait_until="commit")
            self._wrap(self.context)
        return self.context

    @staticmethod
    def _reset_url(origin: str) -> str:
        return f"{origin.rstrip('/')}/tessera-test-reset-{os.getpid()}"

    def _note_crash(self, _page) -> None:
        # The parked page shares its renderer with the site's pages: a DevTools command sent to it
        # now would wait for ever.
        self.crashed = True

    def _note_origin(self, request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https"):
            self.origins.add(f"{parts.scheme}://{parts.netloc}")

    def _wrap(self, ctx: BrowserContext) -> None:
        plain_on = ctx.on

        def on(event, handler):
            self.listeners.append((event, handler))
            return plain_on(event, handler)
        ctx.on = on
        for name in ("add_init_script", "expose_binding", "expose_function", "route"):
            plain = getattr(ctx, name)

            def noted(*args, _plain=plain, _name=name, **kwargs):
                disposable = _plain(*args, **kwargs)
                self.disposables.append(disposable)
                if _name == "route":
                    self.routed = True
                    self._drop_precache()
                return disposable
            setattr(ctx, name, noted)

    def _drop_precache(self) -> None:
        """A test that routes requests must see them reach the network: the
        service worker would answer them from a kept precache instead."""
        for origin in sorted(self.stable_origins):   # from a page of each origin, as give_back does
            self.parked.goto(self._reset_url(origin), wait_until="commit")
            self.parked.evaluate(DROP_PRECACHE_JS, PRECACHE_PREFIX)
        self.parked.goto(self._reset_url(self.home), wait_until="commit")

    def give_back(self) -> None:
        """Empty the context for the next test (or drop it if that fails)."""
        ctx, parked = self.context, self.parked
        if ctx is None or parked is None:
            return
        if self.crashed:
            self.close()
            return
        try:
            for page in list(ctx.pages):
                if page is not parked:
                    page.close()
            for event, handler in self.listeners:
                ctx.remove_listener(event, handler)
            for disposable in reversed(self.disposables):
                disposable.close()
            ctx.unroute_all(behavior="ignoreErrors")
            ctx.set_offline(False)
            ctx.set_extra_http_headers({})
            ctx.clear_cookies()
            ctx.clear_permissions()
            ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
            ctx.set_default_navigation_timeout(DEFAULT_TIMEOUT_MS)
            parked.set_viewport_size(VIEWPORT)
            cdp = ctx.new_cdp_session(parked)
            # The closed pages' memory is collected now, not during the next test's measures.
            cdp.send("HeapProfiler.collectGarbage")
            for origin in sorted(self.origins):
                cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": CLEARED_STORAGE})
            if not self.origins <= self.stable_origins:
                cdp.send("Network.clearBrowserCache")
            cdp.detach()
            for origin in sorted(self.origins | {self.home}):   # Cache Storage, from a page of the origin
                parked.goto(self._reset_url(origin), wait_until="commit")
                # After a test that routed requests, the service worker may have precached what a
                # route served (test_recovery's failing tessera.zip, which later tests then started
                # from): its precache goes too.
                stable = origin in self.stable_origins and not self.routed
                left = parked.evaluate(EMPTY_ORIGIN_JS, [KEPT_CACHE, PRECACHE_PREFIX if stable else None])
                if left:
                    raise RuntimeError(f"{origin} still has {left}")
            if ctx.pages != [parked]:
                raise RuntimeError("the context still has pages")
        except Exception:  # any failure: a new context for the next test
            self.close()
        finally:
            self.routed = False
            self.origins.clear()
            self.listeners.clear()
            self.disposables.clear()

    def close(self) -> None:
        if self.context is not None:
            try:
                self.context.close()
            except PlaywrightError:
                pass
            self.context = self.parked = None


@pytest.fixture(scope="session")
def _reused_context(_playwright, _root_server, _subpath_server):
    chromium = Chromium(_playwright, CHROMIUM_ARGS + REUSED_CONTEXT_ARGS)
    lender = ReusedContext(chromium, _root_server.origin, {_root_server.origin, _subpath_server.origin})
    yield lender
    lender.close()
    chromium.close()


@pytest.fixture(scope="session")
def _second_reused_context(_reused_context):
    lender = ReusedContext(_reused_context.chromium, _reused_context.home, _reused_context.stable_origins)
    yield lender
    lender.close()


@pytest.fixture
def second_context(_second_reused_context) -> BrowserContext:
    """A second device for a test of two (its own storage and renderer): another context lent
    from test to test and emptied in between, so that it too starts warm."""
    yield _second_reused_context.lend()
    _second_reused_context.give_back()


@pytest.fixture
def context(request, browser, _reused_context) -> BrowserContext:
    if request.node.get_closest_marker("first_visit"):
        ctx = browser.new_context(viewport=VIEWPORT)
        yield ctx
        ctx.close()
        return
    yield _reused_context.lend()
    _reused_context.give_back()


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


@pytest.fixture
def page(context, page_log) -> Page:
    p = context.new_page()
    page_log.attach(p, context)
    yield p


def devtools(page: Page):
    """The page's own DevTools session, made once and kept attached: the overrides sent on it
    last as long as the page (a lent page is closed after its test, and they go with it)."""
    session = getattr(page, "_tessera_devtools", None)
    if session is None:
        session = page.context.new_cdp_session(page)
        page._tessera_devtools = session   # type: ignore[attr-defined]
    return session


def emulate(page: Page, *, viewport: dict | None = None, color_scheme: str | None = None,
            reduced_motion: str | None = None, locale: str | None = None,
            device_scale_factor: float | None = None, mobile: bool = False, touch: bool = False) -> Page:
    """Give a page of the lent context what a test would otherwise make a context for (a new
    context starts cold, about 3 s more): a window size, the system's theme or motion setting,
    a language (``navigator.language(s)`` and Intl), a pixel ratio, a phone's layout
    (``mobile``: the viewport meta is obeyed) and a touch screen (``touch``: coarse pointer,
    touch events; tap with ``tap``, not ``page.tap``, which wants a touch context).  The last
    four are set on the page's DevTools session.  Call it before the first ``goto``, and do not
    resize the page afterwards: Playwright's own size would replace the phone's."""
    if viewport is not None:
        page.set_viewport_size(viewport)
    if color_scheme is not None or reduced_motion is not None:
        page.emulate_media(color_scheme=color_scheme, reduced_motion=reduced_motion)
    if locale is not None:
        agent = page.evaluate("navigator.userAgent")
        devtools(page).send("Emulation.setLocaleOverride", {"locale": locale})
        devtools(page).send("Network.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": locale})
    if device_scale_factor is not None or mobile or touch:
        size = viewport or page.viewport_size or VIEWPORT
        devtools(page).send("Emulation.setDeviceMetricsOverride", {
            "width": size["width"], "height": size["height"], "deviceScaleFactor": device_scale_factor or 1,
            "mobile": mobile, "screenWidth": size["width"], "screenHeight": size["height"]})
    if touch:
        devtools(page).send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    return page


STABLE_BOX_JS = """async selector => {
    const node = document.querySelector(selector);
    if (!node) return null;
    node.scrollIntoView({block: 'nearest', inline: 'nearest'});
    let last = null;
    for (let i = 0; i < 60; i++) {
        await new Promise(done => requestAnimationFrame(() => done()));
        const box = node.getBoundingClientRect();
        const now = [box.x, box.y, box.width, box.height].join();
        if (box.width > 0 && now === last) return [box.x + box.width / 2, box.y + box.height / 2];
        last = now;
    }
    return null;
}"""
"""Where to tap an element: its centre, once it is scrolled into sight and has kept still for a frame."""


def tap(page: Page, target: str | tuple[float, float]) -> None:
    """A finger's tap on a page set up with ``emulate(touch=True)``: on the first element of a
    CSS selector (waited for, scrolled into sight, still) or at a point of the window."""
    if isinstance(target, str):
        page.wait_for_selector(target, state="visible")
        point = page.evaluate(STABLE_BOX_JS, target)
        assert point is not None, f"{target} did not keep still to be tapped"
    else:
        point = target
    x, y = point
    devtools(page).send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    devtools(page).send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.fixture(name="wait_ready")
def wait_ready_fixture():
    return wait_ready
