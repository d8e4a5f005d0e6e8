"""Playing a friend by link, in the page (``core.link_play`` does the rest).

A game against "a friend, by link" (the new-game dialog) sits the friend
in a ``link`` seat.  The play screen shows ``LinkPanel``: after each of the
player's moves the link to send (the whole game in its fragment), with
Copy and Share (the Web Share API where the browser has it); while the
friend is to move, that they are waited for.  Opening a link
(``#/link/<token>``) is ``LinkScreen``: the game is replayed from the
link in slices, then

- new to this device: kept as a new game, the player in the other seat;
- one move (or more) on from the game kept here: the friend's moves are
  played into it (only the friend's: a link never plays the player's);
- the same, or older: the game kept here opens, and an older link says so;
- another history under the same name: refused, in words, and the game
  kept here stays as it was.

No server is asked for anything: it works offline and on any static host.
No undo (a move taken back after its link went would make the next link
refused), no draw offers and no reading help (against a person).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from ...core.link_play import LinkError, LinkGame, Standing, compare, decode, encode, new_moves_by
from ...core.record import Record, RecordError
from ...core.seats import Seat
from ...core.session import SAVE_FORMAT, Session
from ...core.steps import UNFINISHED, run_slice
from ...i18n import Message, t
from ..saves import storage
from ..dom import Listeners, button, el, set_text
from ..play.panels import error_words, sentence
from ..saves.session_store import session_meta

SLICE_MS = 12.0
ROUTE = "link"


def link_info(session: Session) -> tuple[str, int] | None:
    """(link id, this device's seat) of a game played by link, None for any other game."""
    info = session.meta.get("link")
    if not isinstance(info, dict):
        return None
    link_id, seat = info.get("id"), info.get("seat")
    if not isinstance(link_id, str) or isinstance(seat, bool) or seat not in (0, 1):
        return None
    return link_id, seat


def link_url(session: Session) -> str:
    """The link of the game as it stands, sent by this device's seat."""
    info = link_info(session)
    assert info is not None
    token = encode(session.record(), info[0], info[1])
    base = str(js.location.href).split("#", 1)[0]
    return f"{base}#/{ROUTE}/{token}"


def link_for(screen: Any) -> "LinkPanel | None":
    """The link panel of a play screen whose game is played by link."""
    if screen.review or link_info(screen.session) is None:
        return None
    return LinkPanel(screen)


class LinkPanel:
    """What to send and what is awaited, in the play screen's side column."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.listeners = Listeners()
        self.text = el("p", "link-text", None, {"aria-live": "polite", "data-link": "text"})
        self.field = el("input", "link-url", None, {"type": "text", "readonly": True, "data-link": "url",
                                                   "aria-label": t("link.url_label"), "spellcheck": "false"})
        self.copy = button(t("link.copy"), lambda event: self._copy(), self.listeners, "btn btn-primary",
                           {"data-action": "link-copy"})
        buttons = [self.copy]
        if getattr(js.navigator, "share", None) is not None:
            buttons.append(button(t("link.share"), lambda event: self._share(), self.listeners, "btn",
                                  {"data-action": "link-share"}))
        self.row = el("div", "action-row", None, None, buttons)
        self.node = el("section", "link-panel", None, {"data-link": "panel", "aria-label": t("link.title")},
                       [el("h2", "link-title", t("link.title")), self.text, self.field, self.row])

    def render(self) -> None:
        """The link of the position as it stands, and whose turn it means."""
        session = self.screen.session
        info = link_info(session)
        if info is None:
            return
        mine = info[1]
        url = link_url(session)
        if str(self.field.value) != url:
            self.field.value = url
        if session.is_over():
            key = "link.over"
        elif session.to_move == mine:
            key = "link.your_move" if session.game.ply else "link.you_start"
        else:
            key = "link.send"
        set_text(self.text, t(key))
        self.row.hidden = self.field.hidden = session.to_move == mine and not session.is_over() and \
            session.game.ply > 0

    def _copy(self) -> None:
        url = str(self.field.value)

        def done(*_: Any) -> None:
            if self.screen._closed:
                return
            self.screen.app.notice(Message("link.copied"), "info")
        js.tesseraUtil.copyText(url).then(create_once_callable(done))

    def _share(self) -> None:
        data = js.Object.fromEntries(js.JSON.parse(json.dumps([["url", str(self.field.value)],
                                                                 ["title", t("link.share_title")]])))
        try:
            js.navigator.share(data)
        except Exception:   # the browser refused (no user gesture, cancelled): Copy still works
            pass

    def stop(self) -> None:
        self.listeners.clear()


class LinkScreen:
    """``#/link/<token>``: the friend's link, taken into this device's games."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.token = token
        self.listeners = Listeners()
        self.root: Any = None
        self._closed = False

    def mount(self, container: Any) -> None:
        self.app.set_nav([(t("nav.games"), "#/")])
        self.status = el("p", "link-status", t("link.opening"), {"role": "status"})
        self.root = el("div", "link-screen", None, {"data-link": "screen"},
                       [el("h1", "home-title", t("link.screen_title")), self.status])
        container.appendChild(self.root)
        asyncio.ensure_future(self._open())

    def unmount(self) -> None:
        self._closed = True
        self.listeners.clear()
        if self.root is not None:
            self.root.remove()

    async def _open(self) -> None:
        try:
            link = decode(self.token)
            kept, kept_data = self._kept(link.link_id)
            standing = compare(kept, link.record)
            if standing is Standing.OTHER:
                self._refuse(Message("link.other_game"), kept_data)
                return
            if standing in (Standing.SAME, Standing.BEHIND):
                if standing is Standing.BEHIND:
                    self.app.go(f"#/play/{link.record.game}/{kept_data['id']}")
                    self.app.notice(Message("link.older", theirs=len(link.record.moves), ours=len(kept.moves)),
                                    "warning")
                else:
                    self.app.go(f"#/play/{link.record.game}/{kept_data['id']}")
                return
            movers: list[int] = []
            game = link.record.new_game()
            steps = link.record.play_moves(game, on_move=lambda g, m, text, mover: movers.append(mover))
            while run_slice(steps, SLICE_MS) is UNFINISHED:
                await asyncio.sleep(0)
                if self._closed:
                    return
            if standing is Standing.NEW:
                session_id = self._keep_new(link, game)
            else:
                if not new_moves_by(link, len(kept.moves), movers):
                    self._refuse(Message("link.plays_yours"), kept_data)
                    return
                session_id = await self._add_moves(link, kept_data)
                if session_id is None:
                    return
            self.app.go(f"#/play/{link.record.game}/{session_id}")
        except (LinkError, RecordError) as error:
            self._refuse(error, None)
        except storage.StorageFull:
            self._refuse(Message("storage.quota"), None)
        except Exception as error:   # Python's own errors count: a hostile link never stops the app
            js.console.error(f"link: {type(error).__name__}: {error}")
            self._refuse(Message("error.unexpected", kind=type(error).__name__), None)

    def _kept(self, link_id: str) -> tuple[Record | None, dict[str, Any] | None]:
        """The game this device keeps under the link's id, if any."""
        summaries, problems = storage.list_sessions()
        self.app.report_problems(problems)
        for summary in summaries:
            meta = summary.data.get("meta")
            info = meta.get("link") if isinstance(meta, dict) else None
            if isinstance(info, dict) and info.get("id") == link_id:
                return Record.from_json(summary.data.get("record")), summary.data
        return None, None

    def _keep_new(self, link: LinkGame, game: Any) -> str:
        """The link's game (its moves checked already) kept as a new game of
        this device, the player in the other seat; the play screen opens it as
        any saved game, in slices."""
        mine = 1 - link.by
        seats = [Seat("human"), Seat("link")] if mine == 0 else [Seat("link"), Seat("human")]
        now = float(js.Date.now())
        over = game.outcome() is not None or link.record.result is not None
        session_id = storage.new_session_id()
        storage.save_session({"format": SAVE_FORMAT, "id": session_id, "record": link.record.to_json(),
                              "seats": [seat.to_json() for seat in seats], "draw_offer": None,
                              "meta": {"created": now, "updated": now, "choice": {"opponent": "link"},
                                       "link": {"id": link.link_id, "seat": mine}, "ply": game.ply,
                                       "to_move": game.to_move, "side_names": list(game.seat_names),
                                       "over": over, "local_turn": not over and game.to_move == mine},
                              "rev": 0, "writer": ""})
        return session_id

    async def _add_moves(self, link: LinkGame, kept_data: dict[str, Any]) -> str | None:
        """The friend's new moves played into the game kept here, and saved."""
        steps = Session.restoring(kept_data)
        while True:
            session = run_slice(steps, SLICE_MS)
            if session is not UNFINISHED:
                break
            await asyncio.sleep(0)
            if self._closed:
                return None
        for text in link.record.moves[session.game.ply:]:   # type: ignore[union-attr]
            session.receive(session.game.parse_move(text))   # type: ignore[union-attr]
        if link.record.result is not None and not session.is_over():   # type: ignore[union-attr]
            session.end(link.record.result)   # type: ignore[union-attr]
        session.meta.update(session_meta(session))   # type: ignore[union-attr]
        storage.write_session(session)
        return session.session_id   # type: ignore[union-attr]

    def _refuse(self, reason: Any, kept_data: dict[str, Any] | None) -> None:
        if self._closed or self.root is None:
            return
        set_text(self.status, sentence(error_words(reason)))
        self.status.setAttribute("role", "alert")
        self.status.className = "link-status link-refused"
        actions = el("div", "action-row")
        if kept_data is not None:
            href = f"#/play/{kept_data.get('record', {}).get('game')}/{kept_data.get('id')}"
            actions.appendChild(el("a", "btn btn-primary", t("link.open_kept"), {"href": href,
                                                                                 "data-action": "open-kept"}))
        actions.appendChild(el("a", "btn", t("nav.games"), {"href": "#/", "data-action": "home"}))
        self.root.appendChild(actions)
