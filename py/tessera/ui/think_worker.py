"""The page's side of the bots' worker: a ``bots.thinker.Thinker`` on a Web Worker.

The worker (``assets/js/think-worker.js``) starts a Pyodide of its own from
the site's memory snapshot and runs ``bots.service``; this module starts it
when a game first needs a bot (``warm``), sends it JSON requests and hands
each answer to the coroutine that asked (``ask``).  Every request has an id;
the asker polls its ``cancelled()`` while it waits, and when that turns true
(a move was made, the game closed) it tells the worker to cancel and drops
whatever answer would still come, so a stale answer is never used.

Where the worker cannot start (no module workers, no memory, a failure in
Python), or dies later, ``ask`` raises ``ThinkerUnavailable`` and the
caller thinks on the main thread in slices, as before: the fallback is
automatic.  ``<html data-thinker>`` says which: ``starting``, ``worker``
or ``page``; ``window.tesseraThinker.stats()`` counts requests, answers,
cancels and fallbacks (for tests and the bench).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from ..bots import thinker
from ..bots.thinker import Progress, ThinkerUnavailable

WORKER_URL = "assets/js/think-worker.js"
START_TIMEOUT_S = 60.0
"""A worker that has not said it is ready by then is given up (a slow phone
still gets there well within it: the page itself starts in a few seconds)."""
POLL_S = 0.05
"""How often a waiting request looks at ``cancelled()``."""


class WorkerThinker:
    """One worker for the page, started on first need; its state is
    ``off``, ``starting``, ``ready`` or ``failed``."""

    def __init__(self, url: str = WORKER_URL) -> None:
        self.url = url
        self.state = "off"
        self.error = ""
        self.worker: Any = None
        self.info: dict[str, Any] = {}
        self.started_at = 0.0
        self._ids = 0
        self._answers: dict[int, asyncio.Future[Any]] = {}
        self._progress: dict[int, Progress] = {}
        self._proxies: list[Any] = []
        self.stats = {"asked": 0, "answered": 0, "cancelled": 0, "acknowledged": 0, "fallbacks": 0,
                      "pondered": 0, "read_ahead": 0, "errors": 0}
        """``pondered``: ponder requests told; ``read_ahead``: moves that came
        after the bot read ahead on the player's time (``Bot.read_ahead``)."""

    # ----- start -------------------------------------------------------------------
    def warm(self) -> None:
        if self.state != "off":
            return
        self.state = "starting"
        self.started_at = time.monotonic()
        self._show()
        try:
            url = js.URL.new(self.url, js.document.baseURI).href
            options = to_js({"type": "module", "name": "tessera-think"}, dict_converter=js.Object.fromEntries)
            self.worker = js.Worker.new(url, options)
        except Exception as error:  # no module workers here (an old browser), or refused
            self._fail(f"cannot start: {error}")
            return
        for name, handler in (("message", self._message), ("error", self._error)):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            self.worker.addEventListener(name, proxy)

    def _show(self) -> None:
        state = {"off": "idle", "starting": "starting", "ready": "worker", "failed": "page"}[self.state]
        js.document.documentElement.dataset.thinker = state

    def _fail(self, why: str) -> None:
        if self.state == "failed":
            return
        self.state = "failed"
        self.error = why
        js.console.warn(f"Tessera: the bots think on the page's own thread ({why})")
        if self.worker is not None:
            self.worker.terminate()
            self.worker = None
        for proxy in self._proxies:
            proxy.destroy()
        self._proxies = []
        for future in self._answers.values():
            if not future.done():
                future.set_exception(ThinkerUnavailable(why))
        self._answers.clear()
        self._progress.clear()
        self._show()

    # ----- messages ------------------------------------------------------------------
    def _message(self, event: Any) -> None:
        try:
            messages = json.loads(str(event.data))
        except ValueError:
            return
        for message in messages if isinstance(messages, list) else ():
            kind = message.get("type")
            if kind == "ready":
                self.state = "ready"
                self.info = message
                self._show()
            elif kind == "failed":
                self._fail(str(message.get("error")))
            elif kind == "cancelled":
                self.stats["acknowledged"] += 1
            elif kind == "reviewed":
                progress = self._progress.get(message.get("id"))
                if progress is not None:
                    progress(message)
            else:
                if message.get("read_ahead") is True:
                    self.stats["read_ahead"] += 1
                future = self._answers.pop(message.get("id"), None)
                if future is not None and not future.done():
                    future.set_result(message)

    def _error(self, event: Any) -> None:
        event.preventDefault()
        self._fail(f"worker error: {getattr(event, 'message', '') or 'it stopped'}")

    def _post(self, request: dict[str, Any]) -> None:
        self.worker.postMessage(json.dumps(request))

    # ----- the Thinker protocol -------------------------------------------------------
    def tell(self, request: dict[str, Any]) -> None:
        if self.state == "ready":
            self._post(request)
            if request.get("type") == "ponder":
                self.stats["pondered"] += 1

    async def ask(self, request: dict[str, Any], cancelled: Callable[[], bool],
                  progress: Progress | None = None) -> Any:
        self.warm()
        while self.state == "starting":
            if cancelled():
                return None
            if time.monotonic() - self.started_at > START_TIMEOUT_S:
                self._fail("it did not start in time")
                break
            await asyncio.sleep(POLL_S)
        if self.state != "ready":
            self.stats["fallbacks"] += 1
            raise ThinkerUnavailable(self.error)
        self._ids += 1
        ident = self._ids
        future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
        self._answers[ident] = future
        if progress is not None:
            self._progress[ident] = progress
        self.stats["asked"] += 1
        self._post({**request, "id": ident})
        try:
            while not future.done():
                if cancelled():
                    self.stats["cancelled"] += 1
                    if self.state == "ready":
                        self._post({"type": "cancel", "id": ident})
                    return None
                await asyncio.wait([future], timeout=POLL_S)
            try:
                answer = future.result()
            except ThinkerUnavailable:
                self.stats["fallbacks"] += 1
                raise
            if answer.get("type") == "error":
                self.stats["errors"] += 1
                self.stats["fallbacks"] += 1
                js.console.warn(f"Tessera: the worker could not answer: {answer.get('error')}")
                raise ThinkerUnavailable(str(answer.get("error")))
            self.stats["answered"] += 1
            return None if cancelled() else answer
        finally:
            self._answers.pop(ident, None)
            self._progress.pop(ident, None)

    def summary(self) -> dict[str, Any]:
        return {"state": self.state, "error": self.error, **self.stats,
                **{key: value for key, value in self.info.items() if key != "type"}}


WORKER: WorkerThinker | None = None


def install() -> WorkerThinker | None:
    """Think in a worker from now on, where the browser has module workers
    (the worker itself starts when a game first needs it)."""
    global WORKER
    if WORKER is None:
        if not hasattr(js, "Worker") or not hasattr(js, "MessageChannel"):
            js.document.documentElement.dataset.thinker = "page"
            return None
        WORKER = WorkerThinker()
        thinker.install(WORKER)
        js.document.documentElement.dataset.thinker = "page"
        stats = create_proxy(lambda: to_js(WORKER.summary(), dict_converter=js.Object.fromEntries))
        hook = to_js({}, dict_converter=js.Object.fromEntries)
        hook.stats = stats
        js.window.tesseraThinker = hook
    return WORKER
