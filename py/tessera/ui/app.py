"""The app shell: start-up, language, notices, and routing between screens.

Screens are chosen by ``location.hash`` so the back button works:
``#/`` (home), ``#/play/<game>/<session id>`` (a game; ``#/play/<game>``
opens the newest unfinished one), ``#/rules/<game>``, ``#/archive`` (finished
games), ``#/archive/<game>/<session id>`` (one replayed) and
``#/join/<relay>/<room>/<secret>`` (a friend's invite to a remote game).  Only the home
screen's modules are imported at start-up; a game, its board and its bots
are imported when first shown.

Nothing stored can stop the app: saves are checked at load and a bad one
is put aside (``saved_games``, ``storage``); if a screen still fails to
render, whatever it raises, the recovery screen (``recovery``) takes its
place, and so it does when the start-up itself fails past the first import.
A route that redirects (``#/play/<game>`` to its newest game) can never
loop: past ``MAX_ROUTE_HOPS`` redirects in one go the player is sent home,
once, with a notice.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import sys
import time
import traceback
from typing import Any, Callable, Protocol

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy, to_js  # type: ignore[import-not-found]

from .. import i18n
from ..i18n import Message, t
from .saves import storage
from .dom import Listeners, by_id, clear, el, present
from .notices import APP_WIDE, Notices, Words

BENCH_LEVEL = "hard"
"""The strongest level: its long searches are where a long task would show."""
BENCH_OPENING = ("e9-e8", "e3-e4", "e8-e7", "e4-e5", "d9-d8", "f3-f4")
"""A few quiet moves first, so the bot thinks about a position with contact."""
MAX_ROUTE_HOPS = 3
"""Redirects one route change may make before the router gives up and goes home."""


class Screen(Protocol):
    def mount(self, container: Any) -> None: ...
    def unmount(self) -> None: ...


class App:
    """Owns the page frame and whichever screen is showing."""

    def __init__(self) -> None:
        self.frame = by_id("frame")
        self.notice_list = Notices(by_id("notices"))
        self._pending: tuple[str, ...] | None = None
        """The route ``go`` asked for, until it shows (the hash changes a task later)."""
        self._incoming: tuple[str, ...] = ()
        """The route being opened while a route change is under way (its notices are its)."""
        self.announcer = by_id("announcer")
        self.nav = by_id("header-nav")
        self.screen: Screen | None = None
        self.route: tuple[str, ...] = ()
        self.listeners = Listeners()
        self._nav_listeners = Listeners()
        self._ready = False
        self.pending_session: Any = None  # a session just created, handed to the play screen
        self._problems_notice: Any = None  # the one notice about saved games that could not be opened
        self._problem_keys: dict[str, bool] = {}  # storage key -> whether it was set aside
        self._hops = 0  # redirects in the route change under way (show_route within show_route)
        self._keep: list[Any] = []  # proxies that live as long as the page
        self._modules_at_start = frozenset(sys.modules)
        """What Python held before the first screen (the snapshot's modules): ``tesseraBench.bytecode``."""

    # ----- start-up ------------------------------------------------------------
    def start(self) -> None:
        # What exists now (the engines, bots and UI modules, imported from the
        # snapshot, and whatever was made since) lives as long as the page: out
        # of the collector's sight, a full collection during a bot search does
        # not stall the page for 100+ ms.  The snapshot's objects were frozen
        # when it was made (make_snapshot.mjs), so this freezes only the few
        # made since: frozen here too, they made this a walk over every
        # object (4-12 ms of a warm reload's start, 38 ms on a busy machine).
        # Before any screen exists, so none is frozen with it; no collection
        # first (walking every object again).
        gc.freeze()
        lang = storage.load_language() or i18n.detect_language(str(js.navigator.language or ""))
        self.apply_language(lang)
        from . import settings
        settings.install(self)   # theme, coordinates, shapes; the gear in the header
        from .board.move_feedback import install_settings
        install_settings()       # animation speed and move sounds join the menu
        from . import update_notice
        update_notice.install(self)  # "a new version is ready" (assets/js/update.js)
        from .think_worker import install as think_in_worker
        think_in_worker()            # bots think in a worker; the main thread only draws
        self.listeners.on(js.window, "hashchange", lambda event: self.show_route())
        self._expose_bench()
        self._first_route()

    def _first_route(self) -> None:
        """The first screen in tasks of their own, behind the loading screen: its
        modules imported in one (``SCREEN_MODULES``, a game's adapter and view),
        the screen opened in the next.  Opened in the task that restored Python,
        a saved game took one task of 150-300 ms (in a new tab the wasm's code
        is compiled as it first runs)."""
        def open_screen() -> None:
            if self.screen is None:   # else a change of address opened one meanwhile
                self.show_route()

        def prepare() -> None:
            route = self.parse_hash(str(js.location.hash or ""))
            importlib.import_module(SCREEN_MODULES.get(route[0] if route else "", ".screens.home"), __package__)
            if len(route) >= 2 and route[0] in ("play", "archive", "rules"):
                from ..core import registry
                from ..core.game_ui import game_ui
                if route[1] in {game.game_id for game in registry.GAMES}:
                    game_ui(route[1]).view()   # the game's adapter and view
            self._at_start(open_screen)

        self._at_start(prepare)

    def _at_start(self, step: Callable[[], None]) -> None:
        """Run ``step`` in a task of its own; one that fails shows the recovery screen."""
        def run(*_: Any) -> None:
            try:
                step()
            except Exception as error:
                js.console.error(traceback.format_exc())
                try:
                    self.recover(("start",), error)
                except Exception as last:   # not even that: the loading screen says so
                    js.tesseraBoot.fail(f"{type(last).__name__}: {last}")
        js.setTimeout(create_once_callable(run), 0)

    def mark_ready(self) -> None:
        """The first screen is interactive: tell tests, the bench and boot.js."""
        if self._ready:
            return
        self._ready = True
        boot = by_id("boot")
        if present(boot):
            boot.remove()
        js.document.documentElement.dataset.tessera = "ready"
        js.window.tesseraReadyAt = js.performance.now()
        if hasattr(js.window, "tesseraBoot"):
            js.window.tesseraBoot.done()

    # ----- language ---------------------------------------------------------------
    def apply_language(self, lang: str) -> None:
        lang = i18n.set_language(lang)
        js.document.documentElement.lang = lang
        js.document.title = t("app.title")
        brand = js.document.querySelector(".brand")
        if present(brand):
            brand.setAttribute("aria-label", t("nav.home"))
        skip = js.document.querySelector(".skip-link")
        if present(skip):
            skip.textContent = t("nav.skip")
        from . import settings, update_notice
        settings.relabel()
        update_notice.relabel()
        self.notice_list.reword()

    def set_language(self, lang: str) -> None:
        if lang == i18n.language():
            return
        storage.save_language(lang)
        self.apply_language(lang)
        self.show_route(force=True)

    # ----- routing ----------------------------------------------------------------
    @staticmethod
    def parse_hash(hash_text: str) -> tuple[str, ...]:
        path = hash_text.lstrip("#").strip("/")
        return tuple(part for part in path.split("/") if part) if path else ()

    def open_session(self, session: Any) -> None:
        """Show a session just created (a new game, an imported record): save
        it first (as version 1 of its save), so a reload finds it, and say so
        if storage is full."""
        try:
            storage.write_session(session)
        except storage.StorageFull:
            self.notice(Message("storage.quota"), "error", sticky=True, scope="app")
        self.pending_session = session
        self.go(f"#/play/{session.game.game_id}/{session.session_id}")

    def start_match(self, game_id: str, choice: dict[str, str]) -> None:
        """A new match (the new-game dialog's "Format"): its toss, then game 1."""
        from .play.match import start_match
        start_match(self, game_id, choice)

    def go(self, hash_text: str, replace: bool = False) -> None:
        self._pending = self.parse_hash(hash_text)   # notices raised before it shows are its
        if replace:
            js.history.replaceState(js.undefined, "", hash_text)
            self.show_route()
        elif str(js.location.hash) == hash_text:
            self.show_route(force=True)
        else:
            js.location.hash = hash_text

    def show_route(self, force: bool = False) -> None:
        route = self.parse_hash(str(js.location.hash or ""))
        if route == self.route and self.screen is not None and not force:
            return
        self._hops += 1
        self._incoming = route
        try:
            if self._hops > MAX_ROUTE_HOPS:   # a redirect that leads back to itself: home, once
                js.history.replaceState(js.undefined, "", "#/")
                js.console.warn(f"route {route} kept redirecting: home instead")
                self.notice(Message("app.route_loop"), "warning")
                from .screens.home import HomeScreen
                route, screen = (), HomeScreen(self)
            else:
                screen = self._screen_for(route)
            if screen is None:
                return
            self.notice_list.keep_only(route)   # another screen: the others' notices go (a re-render keeps them)
            self._pending = None
            self.route = route
            self._mount(screen)
        finally:
            self._hops -= 1

    def home(self) -> None:
        """Show the home screen, even when the address already is ``#/`` (from the recovery screen)."""
        js.history.replaceState(js.undefined, "", "#/")
        self.show_route(force=True)

    def _screen_for(self, route: tuple[str, ...]) -> Screen | None:
        from ..core import registry
        known = {game.game_id for game in registry.GAMES if game.available}
        if len(route) >= 2 and route[0] == "play" and route[1] in known:
            if len(route) == 2:
                newest = self.newest_unfinished(route[1])
                if newest is None:
                    self.go("#/", replace=True)
                    self.notice(Message("home.no_game_yet"), "info")
                    return None
                self.go(f"#/play/{route[1]}/{newest}", replace=True)
                return None
            from .play.screen import PlayScreen
            return PlayScreen(self, route[1], route[2])
        if len(route) == 2 and route[0] == "link":   # a friend's move by link: #/link/<token>
            from .remote.link import LinkScreen
            return LinkScreen(self, route[1])
        if len(route) == 4 and route[0] == "join":   # a friend's invite: #/join/<relay>/<room>/<secret>
            from .remote.online import JoinScreen
            return JoinScreen(self, route)
        if route == ("archive",):
            from .screens.archive import ArchiveScreen
            return ArchiveScreen(self)
        if len(route) == 3 and route[0] == "archive" and route[1] in known:
            from .play.screen import PlayScreen   # a finished game's replay: the play screen, review only
            return PlayScreen(self, route[1], route[2], review=True)
        if len(route) in (2, 3) and route[0] == "rules" and route[1] in known:
            from .screens.rules import RulesScreen   # #/rules/<game>/<section> opens at that section
            return RulesScreen(self, route[1], route[2] if len(route) == 3 else None)
        if route:
            js.history.replaceState(js.undefined, "", "#/")
        from .screens.home import HomeScreen
        return HomeScreen(self)

    def _mount(self, screen: Screen) -> None:
        if self.screen is not None:
            self.screen.unmount()
        self.set_nav([])
        boot = by_id("boot")
        clear(self.frame)
        if present(boot) and not self._ready:
            self.frame.appendChild(boot)
            boot.hidden = True
        self.screen = screen
        try:
            screen.mount(self.frame)
        except Exception as error:  # the last guard: one broken screen never stops the app
            js.console.error(traceback.format_exc())
            try:
                screen.unmount()
            except Exception:
                pass
            self.screen = None
            self.recover(self.route, error)
            return
        js.window.scrollTo(0, 0)
        shown = getattr(screen, "shown", None)   # a screen that opens part-way down scrolls now
        if callable(shown):
            shown()
        self.mark_ready()

    def recover(self, route: tuple[str, ...], error: BaseException) -> None:
        """The recovery screen in place of the screen of ``route`` (``("start",)``:
        the start-up), which raised ``error``.  If even it cannot be shown, the
        error goes on to the loading screen's "could not start" (``entry``)."""
        from .screens.recovery import RecoveryScreen
        screen = RecoveryScreen(self, route, error)
        clear(self.frame)
        self.set_nav([(t("nav.games"), "#/")])
        self.screen = screen
        screen.mount(self.frame)
        self.mark_ready()

    def newest_unfinished(self, game_id: str) -> str | None:
        summaries, problems = storage.list_sessions()
        self.report_problems(problems)
        for summary in summaries:
            if summary.game == game_id and not summary.over:
                return summary.session_id
        return None

    # ----- header navigation ----------------------------------------------------------
    def set_nav(self, items: list[tuple[str, str]]) -> None:
        """Links shown at the right of the header: (label, hash); the archive
        of finished games is always the last one."""
        self._nav_listeners.clear()
        clear(self.nav)
        for label, href in [*items, (t("nav.archive"), "#/archive")]:
            current = href == "#/archive" and self.route[:1] == ("archive",)
            self.nav.appendChild(el("a", "nav-link", label,
                                    {"href": href, "aria-current": "page" if current else None,
                                     "data-nav": "archive" if href == "#/archive" else None}))

    # ----- notices and announcements -----------------------------------------------------
    def notice(self, words: Words, kind: str = "info", sticky: bool = False, scope: str = "screen") -> Any:
        """A message floating at the top of the page (``ui/notices.py``): it
        belongs to the screen shown, or the one being opened while the app
        changes screens (``scope="app"``: to the whole app, storage full);
        ``words`` are a ``Message`` or a function so a language change words
        them again.  Its box."""
        if scope == "app":
            owner: Any = APP_WIDE
        elif self._hops:
            owner = self._incoming
        else:
            owner = self._pending if self._pending is not None else self.route
        return self.notice_list.show(words, kind, sticky, owner)

    def report_problems(self, problems: list[storage.Problem]) -> None:
        """Saved games that could not be opened, said in plain words as ONE
        notice, which counts up while it is shown ("3 saved games could not
        be opened..."); what was wrong and where each was kept (storage keys,
        the reader's English) goes to the console, for whoever debugs it."""
        if not problems:
            return
        for problem in problems:
            where = f"kept as {problem.aside_key}" if problem.aside_key else "left in place: storage is full"
            js.console.warn(f"saved game {problem.key} could not be used ({where}): {problem.detail}")
        box = self._problems_notice
        if box is None or not box.isConnected:
            self._problem_keys = {}
        self._problem_keys.update((problem.key, (problem.aside_key is not None, problem.game)) for problem in problems)
        kept = dict(self._problem_keys)
        count = len(kept)

        def words() -> str:
            """The truth for each (set aside, or with storage full left where it
            was) and which games they were, in the page's language."""
            aside = sum(1 for was_set_aside, _ in kept.values() if was_set_aside)
            parts = []
            if aside:
                parts.append(t("storage.corrupt_single") if aside == 1 else t("storage.corrupt_several", count=aside))
            if count > aside:
                left = count - aside
                parts.append(t("storage.corrupt_left_single") if left == 1 else t("storage.corrupt_left", count=left))
            games = sorted({t(f"game.{game}.title") for _, game in kept.values() if game})
            if games:
                parts.append(t("storage.corrupt_game" if len(games) == 1 else "storage.corrupt_games",
                               games=", ".join(games)))
            parts.append(t("storage.all_else_works"))
            return " ".join(parts)
        if box is not None and box.isConnected:
            self.notice_list.close_box(box)
        box = self._problems_notice = self.notice(words, "warning", sticky=True, scope="app")   # about the storage
        box.setAttribute("data-problems", str(count))

    def announce(self, text: str) -> None:
        """Say ``text`` to screen readers (the polite live region)."""
        self.announcer.textContent = ""
        self.announcer.textContent = text

    # ----- bench hook ----------------------------------------------------------------
    def _expose_bench(self) -> None:
        """``window.tesseraBench.botThink(record?, level?, where?)``: one bot
        move, as the app makes it: the hard level in a Quadrature opening, or
        the given level of the record's game at the record's end (tessera/1
        JSON); ``where="page"`` thinks on the main thread in slices (the
        fallback) instead of the worker.  Resolves to ``{ms, nodes, depth}``."""

        def bot_think(*args: Any) -> Any:
            record = str(args[0]) if args and isinstance(args[0], str) else None
            level_key = str(args[1]) if len(args) > 1 and isinstance(args[1], str) else BENCH_LEVEL
            where = str(args[2]) if len(args) > 2 and isinstance(args[2], str) else "worker"

            def executor(resolve: Any, reject: Any) -> None:
                async def run() -> None:
                    try:
                        figures = await self._bench_think(record, level_key, where)
                        resolve(to_js(figures, dict_converter=js.Object.fromEntries))
                    except Exception as error:  # surface to the caller's promise
                        reject(f"{type(error).__name__}: {error}")
                asyncio.ensure_future(run())
            return js.Promise.new(create_once_callable(executor))

        def bytecode(*_: Any) -> Any:
            """``tesseraBench.bytecode()``: {snapshot, loaded, shipped}: the page's
            modules the memory snapshot held, those imported since, and how many
            of these were read from the bytecode the build ships
            (make_snapshot.mjs's COMPILE_PACKAGE) instead of compiled here."""
            import importlib.util
            import os
            snapshot = loaded = shipped = 0
            for name, module in list(sys.modules.items()):
                spec = getattr(module, "__spec__", None)
                if not name.startswith("tessera.") or spec is None or not spec.cached:
                    continue
                if name in self._modules_at_start:
                    snapshot += 1
                    continue
                loaded += 1
                if os.path.isfile(spec.cached):
                    with open(spec.cached, "rb") as fh:
                        header = fh.read(8)
                    shipped += header[:4] == importlib.util.MAGIC_NUMBER and header[4:8] == b"\x01\0\0\0"
            return to_js({"snapshot": snapshot, "loaded": loaded, "shipped": shipped},
                         dict_converter=js.Object.fromEntries)

        proxy = create_proxy(bot_think)
        counter = create_proxy(bytecode)
        self._keep.extend((proxy, counter))
        bench = to_js({}, dict_converter=js.Object.fromEntries)
        bench.botThink = proxy
        bench.bytecode = counter
        js.window.tesseraBench = bench

    async def _bench_think(self, record: str | None, level_key: str, where: str) -> dict[str, Any]:
        from ..core.record import Record
        from ..core.registry import game_class
        from ..core.session import BotParticipant
        from ..bots.registry import level, make_bot
        if record is None:
            game_id = "quadrature"
            game = game_class(game_id)()
            for text in BENCH_OPENING:
                game.push_text(text)
        else:
            loaded = Record.loads(record)
            game_id, game = loaded.game, loaded.replay()
        spec = level(game_id, level_key)
        bot = make_bot(spec.bot, 1, spec.movetime_ms, **spec.params)
        started = time.perf_counter()
        if where == "page":
            from ..bots.base import choose_async
            await choose_async(bot, game.copy(), BotParticipant(bot).slice_ms)
            return {"ms": (time.perf_counter() - started) * 1000.0, "nodes": getattr(bot, "nodes", None),
                    "depth": getattr(bot, "depth_reached", None), "where": "page"}
        from ..bots.thinker import bot_json, current, record_json
        from ..core.record import history_texts
        worker = current()
        if worker is None:
            raise RuntimeError("no worker")
        answer = await worker.ask({"type": "move", "key": "bench", "bot": bot_json(bot),
                                   "record": record_json(game, history_texts(game))}, lambda: False)
        return {"ms": (time.perf_counter() - started) * 1000.0, "nodes": answer.get("nodes"),
                "depth": answer.get("depth"), "where": "worker", "worker_ms": answer.get("ms")}


APP: App | None = None

SCREEN_MODULES = {"play": ".play.screen", "archive": ".screens.archive", "rules": ".screens.rules",
                  "link": ".remote.link", "join": ".remote.online"}
"""The module of each route's screen (``App._screen_for``), imported ahead at start."""


def start() -> App:
    """Start the app; a start-up that fails once the frame exists shows the
    recovery screen (export, reset, home) rather than a dead page."""
    global APP
    APP = App()
    try:
        APP.start()
    except Exception as error:
        js.console.error(traceback.format_exc())
        APP.recover(("start",), error)
    return APP
