"""A WebSocket to the relay that comes back by itself.

The browser's ``WebSocket`` with its events as Python callbacks: a text
message arrives parsed (``json.loads``; a frame that is not JSON, or is
larger than the protocol allows, is dropped with a console line), and when
the socket closes it opens again after a pause that grows (1 s, 2 s, 4 s...
up to ``MAX_PAUSE_S``), at once when the browser says it is online again
or when the caller asks (``reconnect``).  ``close`` ends it for good.
While open it sends the protocol's ``ping`` every ``KEEPALIVE_S``: the relay
closes a joined socket that says nothing for a few minutes (a page left
open without a move still says it is there).
Nothing here knows games: ``core.remote.RemoteGame`` speaks the protocol.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from ..dom import Listeners

MAX_PAUSE_S = 15.0
KEEPALIVE_S = 60.0
PING = {"type": "ping", "protocol": 1}
MAX_FRAME_CHARS = 1 << 20
"""A frame from the relay longer than this is not one of its messages (a
state of a very long game is a few hundred KB at most)."""


class RelaySocket:
    """One logical connection to ``url``: ``on_open()``, ``on_message(data)``, ``on_close(code)``."""

    def __init__(self, url: str, on_open: Callable[[], Any], on_message: Callable[[Any], Any],
                 on_close: Callable[[int], Any], retry: bool = True) -> None:
        self.url = url
        self.on_open, self.on_message, self.on_close = on_open, on_message, on_close
        self.retry = retry
        self.socket: Any = None
        self.open = False
        self.closed = False
        self.failures = 0
        self._timer: Any = None
        self._keepalive: Any = None
        self._proxies: list[Any] = []
        self.listeners = Listeners()
        self.listeners.on(js.window, "online", lambda event: self.reconnect())

    def connect(self) -> None:
        if self.closed:
            return
        self._drop_socket()
        try:
            socket = js.WebSocket.new(self.url)
        except Exception as error:  # a malformed address: the browser refuses at once
            js.console.warn(f"relay: cannot open {self.url}: {error}")
            self.on_close(1015)
            self._schedule()
            return
        self.socket = socket
        handlers = {"open": self._opened, "message": self._message, "close": self._closed}
        for name, handler in handlers.items():
            proxy = create_proxy(lambda event, h=handler, s=socket: h(event, s))
            socket.addEventListener(name, proxy)
            self._proxies.append((socket, name, proxy))

    def send(self, data: dict[str, Any]) -> bool:
        """Send a message now; False when the socket is not open (the rejoin will catch up)."""
        if not self.open or self.socket is None:
            return False
        try:
            self.socket.send(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
            return True
        except Exception as error:  # closing under us: the close event follows
            js.console.warn(f"relay: send failed: {error}")
            return False

    def reconnect(self) -> None:
        """Open again now (the browser is back online, or the game needs a fresh start)."""
        if self.closed:
            return
        self.failures = 0
        self.connect()

    def close(self) -> None:
        self.closed = True
        self.listeners.clear()
        if self._timer is not None:
            js.clearTimeout(self._timer)
            self._timer = None
        self._stop_keepalive()
        self._drop_socket()

    def _start_keepalive(self) -> None:
        self._stop_keepalive()
        proxy = create_proxy(lambda: self.send(PING))
        self._keepalive = (js.setInterval(proxy, int(KEEPALIVE_S * 1000)), proxy)

    def _stop_keepalive(self) -> None:
        if self._keepalive is not None:
            interval, proxy = self._keepalive
            self._keepalive = None
            js.clearInterval(interval)
            proxy.destroy()

    # ----- events ----------------------------------------------------------------------
    def _opened(self, event: Any, socket: Any) -> None:
        if socket is not self.socket:
            return
        self.open = True
        self.failures = 0
        self._start_keepalive()
        self.on_open()

    def _message(self, event: Any, socket: Any) -> None:
        if socket is not self.socket:
            return
        raw = event.data
        if not isinstance(raw, str) or len(raw) > MAX_FRAME_CHARS:
            js.console.warn("relay: a frame that is not a message was dropped")
            return
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            js.console.warn("relay: a frame that is not JSON was dropped")
            return
        self.on_message(data)

    def _closed(self, event: Any, socket: Any) -> None:
        if socket is not self.socket:
            return
        self.open = False
        self.socket = None
        self._stop_keepalive()
        code = int(getattr(event, "code", 1006) or 1006)
        self.on_close(code)
        self._release_later()
        self._schedule()

    def _schedule(self) -> None:
        if self.closed or not self.retry or self._timer is not None:
            return
        pause = min(MAX_PAUSE_S, 2.0 ** self.failures)
        self.failures += 1

        def again() -> None:
            self._timer = None
            self.connect()
        self._timer = js.setTimeout(create_once_callable(again), int(pause * 1000))

    def _drop_socket(self) -> None:
        socket, self.socket = self.socket, None
        self.open = False
        if socket is not None:
            try:
                socket.close()
            except Exception:
                pass
        self._release_later()

    def _release_later(self) -> None:
        """Unhook a socket that is done with; its proxies go a moment later (one may be running)."""
        proxies, self._proxies = self._proxies, []
        for socket, name, proxy in proxies:
            socket.removeEventListener(name, proxy)
        if proxies:
            js.setTimeout(create_once_callable(lambda: [proxy.destroy() for _, _, proxy in proxies]), 0)
