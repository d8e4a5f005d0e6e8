"""Playing a friend online: joining by link, and the play screen's link.

* ``setup.start_online_game`` (the new-game dialog's "Play a friend
  online") asks the relay for a room and opens the game like any new one.
* ``JoinScreen`` (``#/join/<relay>/<room>/<secret>``): the friend's side of
  the link.  Everything the link needs travels in the URL's fragment, which
  browsers never send to a server, so any static host serves the page as
  it is.  Opening the link again opens the game already saved here.
* ``RemotePlay``: the play screen's connection for a remote game
  (``core.remote.RemoteGame`` over a ``RelaySocket``): the opponent's name
  and whether they are here, the invite to copy or share, takeback
  requests, and the relay's refusals worded in the page's language.

The game is saved locally as it goes, like any other (``meta["remote"]``
keeps the link), so a reload rejoins where it was.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from ...core.remote import MAX_TOKEN_CHARS, RemoteGame, RemoteInfo, relay_message, session_from_state, shown_name
from ...core.seats import Seat
from ...i18n import Message, say, t
from ..saves import storage
from ..dialogs import Dialog
from ..dom import Listeners, button, el, set_text
from ..play.panels import error_words, sentence
from .relay_socket import RelaySocket
from .setup import check_relay, give_up_later, local_id, open_remote_session, player_name

AWAY_NOTICE_S = 5.0
"""How long the opponent is away before the page says they left."""
MAX_RESYNCS, RESYNC_WINDOW_S = 3, 30.0
RETRY_PAUSES_S = (2, 4, 8, 15)
"""Pauses before asking a relay that could not serve (``unavailable``) again."""


# ----- joining by link ----------------------------------------------------------------------

def join_link(info: RemoteInfo, secret: str) -> str:
    """The page's own address with the fragment that joins ``info.room`` with ``secret``."""
    base = str(js.location.href).split("#", 1)[0]
    return f"{base}#/join/{js.encodeURIComponent(info.relay)}/{info.room}/{secret}"


class JoinScreen:
    """``#/join/<relay>/<room>/<secret>``: open the friend's game (or the one saved here)."""

    def __init__(self, app: Any, route: tuple[str, ...]) -> None:
        self.app = app
        self.route = route
        self.listeners = Listeners()
        self.root: Any = None
        self.socket: RelaySocket | None = None
        self.line: Any = None

    def mount(self, container: Any) -> None:
        self.app.set_nav([(t("nav.games"), "#/")])
        self.line = el("p", "join-status", t("remote.joining"), {"role": "status"})
        home = button(t("over.home"), lambda event: self.app.go("#/"), self.listeners, "btn")
        self.root = el("section", "join-screen", None, {"data-screen": "join"}, [
            el("h1", None, t("remote.join_title")), self.line, home])
        container.appendChild(self.root)
        parsed = self._parse()
        if parsed is None:
            self._fail(t("remote.bad_link"))
            return
        relay, room, secret = parsed
        saved = storage.stored_save(local_id(room, secret))
        if saved is not None:
            game = saved.get("record", {}).get("game") if isinstance(saved.get("record"), dict) else None
            if isinstance(game, str):
                js.setTimeout(create_once_callable(
                    lambda: self.app.go(f"#/play/{game}/{local_id(room, secret)}", replace=True)), 0)
                return
        hello = {"type": "join", "protocol": 1, "id": 1, "room": room, "secret": secret}
        name = player_name()
        if name:
            hello["name"] = name
        self.socket = RelaySocket(relay, lambda: self.socket.send(hello), lambda data: self._answer(data, relay,
                                  room, secret), self._closed, retry=False)
        self.socket.connect()
        give_up_later(self.socket, lambda: self._fail(t("remote.unreachable", relay=relay)))

    def _parse(self) -> tuple[str, str, str] | None:
        if len(self.route) != 4:
            return None
        try:
            relay = str(js.decodeURIComponent(self.route[1]))
        except Exception:  # a malformed %-escape
            return None
        room, secret = self.route[2], self.route[3]
        if check_relay(relay) is not None or not 0 < len(room) <= MAX_TOKEN_CHARS \
                or not 0 < len(secret) <= MAX_TOKEN_CHARS:
            return None
        return relay, room, secret

    def _answer(self, data: Any, relay: str, room: str, secret: str) -> None:
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "error":
            self._fail(say(relay_message(data)))
        elif kind == "state":
            you = data.get("you")
            if you not in (0, 1, None) or isinstance(you, bool):
                self._fail(t("remote.cannot_start", detail=t("error.remote.odd_answer")))
                return
            try:
                info = RemoteInfo(relay, room, secret, you)
                session = session_from_state(data, info, local_id(room, secret), {"created": float(js.Date.now())})
            except Exception as error:  # a game this page cannot make: say so
                self._fail(t("remote.cannot_start", detail=error_words(error)))
                return
            self._stop_socket()
            open_remote_session(self.app, session)

    def _closed(self, code: int) -> None:
        if self.socket is not None and not self.socket.closed:
            relay = self._parse()
            self._fail(t("remote.unreachable", relay=relay[0] if relay else ""))

    def _fail(self, words: str) -> None:
        self._stop_socket()
        if self.line is not None:
            set_text(self.line, words)
            self.line.className = "join-status is-error"

    def _stop_socket(self) -> None:
        if self.socket is not None:
            self.socket.close()

    def unmount(self) -> None:
        self._stop_socket()
        self.listeners.clear()
        if self.root is not None:
            self.root.remove()


# ----- the play screen's link -----------------------------------------------------------------

class RemotePlay:
    """A remote game's connection, for the play screen (see the module docstring)."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        session = screen.session
        self.info = RemoteInfo.from_json(session.meta.get("remote"))
        self.remote = RemoteGame(session, self.info, self._send, self._notify, name=player_name() or None)
        self.socket = RelaySocket(self.info.relay, self._opened, self.remote.receive, self._closed)
        self.listeners = Listeners()
        self.dialog: Dialog | None = None
        self.node = self._build()
        self._seen_connected = False
        self._said_away = False
        self._away_timer: Any = None
        self._resyncs: list[float] = []
        self._retries = 0
        self._retry_timer: Any = None
        self._restoring: Any = None
        self.stopped = False

    # ----- lifecycle ----------------------------------------------------------------------
    def start(self) -> None:
        self._render_link()
        self.socket.connect()

    def stop(self) -> None:
        self.stopped = True
        self._cancel_away()
        if self._retry_timer is not None:
            js.clearTimeout(self._retry_timer)
            self._retry_timer = None
        self.remote.close()
        self.socket.close()
        self.listeners.clear()
        if self.dialog is not None:
            self.dialog.close()

    @property
    def watching(self) -> bool:
        """A spectator's link: the game is shown, nothing is played from here."""
        return self.info.seat is None

    def ready(self) -> bool:
        """Moves can be made: the relay has this device's game."""
        return self.remote.connected

    def save_fields(self) -> dict[str, Any]:
        return self.info.to_json()

    def request_takeback(self) -> None:
        if self.ready():
            self.remote.request_takeback()

    # ----- the side box: the link and the invite ------------------------------------------------
    def _build(self) -> Any:
        self.link_line = el("p", "remote-link", None, {"role": "status", "data-link": "connecting"})
        box = el("section", "remote-box", None, {"aria-label": t("remote.box_label"), "data-remote": "box"},
                 [self.link_line])
        if self.info.invite:
            url = join_link(self.info, self.info.invite)
            field = el("input", "text-input invite-url", None, {"type": "text", "readonly": True, "value": url,
                                                                "id": "invite-url", "aria-label": t("remote.invite")})
            copy = button(t("remote.copy"), lambda event: self._copy(url, field), self.listeners, "btn",
                          {"data-action": "copy-invite"})
            row = [copy]
            if bool(getattr(js.navigator, "share", None)):
                row.append(button(t("remote.share"), lambda event: self._share(url), self.listeners, "btn",
                                  {"data-action": "share-invite"}))
            parts = [el("label", "field-label", t("remote.invite"), {"for": "invite-url"}), field,
                     el("div", "action-row", None, None, row), el("p", "dialog-hint", t("remote.invite_hint"))]
            self.invite = el("div", "invite", None, {"data-invite": "box"}, parts)
            box.appendChild(self.invite)
            self.listeners.on(field, "focus", lambda event: field.select())
        else:
            self.invite = None
        if self.info.spectate:   # a second link, for people who only watch (kept after the friend came)
            watch = el("input", "text-input invite-url", None, {
                "type": "text", "readonly": True, "id": "watch-url", "aria-label": t("remote.watch_link"),
                "value": join_link(self.info, self.info.spectate)})
            self.listeners.on(watch, "focus", lambda event: watch.select())
            box.appendChild(el("details", "watch-link", None, None, [
                el("summary", None, t("remote.watch_link")), watch]))
        return box

    def _copy(self, url: str, field: Any) -> None:
        field.select()
        try:
            js.navigator.clipboard.writeText(url)
            self.screen.app.notice(Message("remote.copied"), "info")
        except Exception:  # no clipboard (an old browser, an insecure page): the text is selected
            js.document.execCommand("copy")

    def _share(self, url: str) -> None:
        from pyodide.ffi import to_js  # type: ignore[import-not-found]
        game = t(f"game.{self.screen.game_id}.title")
        data = to_js({"title": t("remote.share_title", game=game), "url": url}, dict_converter=js.Object.fromEntries)
        try:
            js.navigator.share(data)
        except Exception as error:  # refused or unsupported: copying still works
            js.console.warn(f"share: {error}")

    def _render_link(self) -> None:
        remote = self.remote
        if remote.connected and self.watching:
            state, words = "watching", t("remote.watching")
        elif remote.connected:
            opponent = remote.opponent
            state = "opponent" if opponent.get("connected") or self._away_timer is not None else "waiting"
            words = (t("remote.opponent_here", name=self._opponent_name())
                     if opponent.get("connected") or self._away_timer is not None
                     else t("remote.opponent_away", name=self._opponent_name()) if self._seen_connected
                     else t("remote.waiting_for_friend"))
        else:
            state, words = "connecting", t("remote.reconnecting", relay=self.info.relay)
        self.link_line.setAttribute("data-link", state)
        set_text(self.link_line, sentence(words))
        if self.invite is not None:
            self.invite.hidden = self._seen_connected or self.screen.session.is_over()
        for panel in (self.screen.top_panel, self.screen.bottom_panel):
            presence = panel.node.querySelector(".player-presence")
            if self.watching:
                mark = "online" if remote.connected and remote.players[panel.seat].get("connected") else "offline"
                panel.node.setAttribute("data-presence", mark)
                set_text(presence, t(f"remote.presence.{mark}"))
            elif panel.seat == self.remote.other:
                here = remote.opponent.get("connected") or self._away_timer is not None
                mark = "online" if remote.connected and here else "offline"
                panel.node.setAttribute("data-presence", mark)
                if presence is not None:
                    set_text(presence, t(f"remote.presence.{mark}"))
            else:
                panel.node.removeAttribute("data-presence")
                if presence is not None:
                    set_text(presence, "")

    def _opponent_name(self) -> str:
        name = self.remote.opponent.get("name")
        return shown_name(name) if name else t("remote.friend")

    # ----- the connection ------------------------------------------------------------------------
    def _send(self, data: dict[str, Any]) -> None:
        self.socket.send(data)

    def _opened(self) -> None:
        self.socket.send(self.remote.hello())

    def _closed(self, code: int) -> None:
        self.remote.disconnected()

    def _notify(self, kind: str, detail: Any) -> None:
        screen = self.screen
        app = screen.app
        if kind == "link" and detail:
            self._retries = 0
        if kind == "presence":
            self._presence(detail)
        elif kind == "players":
            self._name_seats()
        elif kind == "takeback_asked":
            self._ask_takeback()
        elif kind == "takeback":
            words = {"sent": "remote.takeback_sent", "declined": "remote.takeback_declined",
                     "done": "remote.takeback_done"}.get(detail)
            if words:
                app.notice(lambda: sentence(t(words, name=self._opponent_name())), "info")
        elif kind == "error" and isinstance(detail, Message):
            app.notice(detail, "error")
        elif kind == "resync":
            if detail is None:
                self._resync()
            else:
                app.notice(Message("remote.resynced"), "info")
        elif kind == "closed":
            app.notice(lambda: t("remote.closed", detail=say(detail)), "error", sticky=True)
            self.socket.close()
        elif kind == "lost":
            if self._restoring is not None:   # one notice at a time: "restoring", then "restored"
                app.notice_list.close_box(self._restoring)
            shown = app.notice(Message("remote.restoring" if detail == "restoring" else "remote.restored"), "info")
            self._restoring = shown if detail == "restoring" else None
        elif kind == "retry":
            self._retry_later()
        elif kind == "debug":
            js.console.warn(f"relay: {detail}")
        self._render_link()
        screen.render()
        screen._queue_save()

    def _resync(self) -> None:
        """Rejoin to get the relay's game; a page that keeps disagreeing with it
        (``MAX_RESYNCS`` in ``RESYNC_WINDOW_S``) stops asking and says so, rather
        than knock on the relay's door in a loop."""
        now = float(js.Date.now()) / 1000.0
        self._resyncs = [moment for moment in self._resyncs if now - moment < RESYNC_WINDOW_S] + [now]
        if len(self._resyncs) > MAX_RESYNCS:
            self.socket.close()
            self.remote.disconnected()
            self.screen.app.notice(Message("remote.stuck"), "error", sticky=True)
            return
        self.socket.reconnect()

    def _retry_later(self) -> None:
        """Ask the relay again after a pause that grows (it said it cannot serve now)."""
        if self._retry_timer is not None or self.stopped:
            return
        pause = RETRY_PAUSES_S[min(self._retries, len(RETRY_PAUSES_S) - 1)]
        self._retries += 1
        self.screen.app.notice(Message("remote.retrying", seconds=pause), "info")

        def again() -> None:
            self._retry_timer = None
            if not self.stopped:
                self.socket.reconnect()
        self._retry_timer = js.setTimeout(create_once_callable(again), int(pause * 1000))

    def _presence(self, opponent: dict[str, Any]) -> None:
        """The opponent's name and presence.  "Left" is said only after they have
        been away ``AWAY_NOTICE_S`` (opening a link or reloading is a short
        away-and-back that needs no notice), and "back" only after "left"."""
        self._name_seats()
        if self.watching:
            return
        status = opponent.get("status")
        if opponent.get("connected"):
            self._cancel_away()
            if self._said_away:
                self._say("remote.back")
            elif not self._seen_connected and status == "connected":
                self._say("remote.joined")
            self._seen_connected = True
            self._said_away = False
        elif status == "disconnected" and self._away_timer is None:
            def still_away() -> None:
                self._away_timer = None
                if not self.remote.opponent.get("connected") and not self.stopped:
                    self._said_away = True
                    self._say("remote.left")
                    self._render_link()
            self._away_timer = js.setTimeout(create_once_callable(still_away), int(AWAY_NOTICE_S * 1000))

    def _name_seats(self) -> None:
        """The players' names the relay knows, on their seats (saved with the game)."""
        session = self.screen.session
        names = [player.get("name") for player in self.remote.players]
        seats = tuple(Seat("remote", name=names[index]) if seat.kind == "remote" and names[index]
                      and seat.name != names[index] else seat for index, seat in enumerate(session.seats))
        if seats != session.seats:
            session.seats = seats

    def _say(self, key: str) -> None:
        self.screen.app.notice(lambda: sentence(t(key, name=self._opponent_name())), "info")

    def _cancel_away(self) -> None:
        if self._away_timer is not None:
            js.clearTimeout(self._away_timer)
            self._away_timer = None

    def _ask_takeback(self) -> None:
        if self.dialog is not None:
            self.dialog.close()
        dialog = Dialog(sentence(t("remote.takeback_asked", name=self._opponent_name())), "dialog-takeback",
                        on_cancel=lambda: self.remote.answer_takeback(False))
        dialog.add_button(t("draw.decline"), lambda: self.remote.answer_takeback(False),
                          attrs={"data-action": "decline-takeback"})
        accept = dialog.add_button(t("remote.takeback_accept"), lambda: self.remote.answer_takeback(True),
                                   "primary", attrs={"data-action": "accept-takeback"})
        self.dialog = dialog.open(focus=accept)


def remote_for(screen: Any) -> RemotePlay | None:
    """The link of the screen's game if it is a remote one (a link a save garbled: said, not raised)."""
    session = screen.session
    if screen.review or "remote" not in session.meta:
        return None
    try:
        return RemotePlay(screen)
    except Exception as error:  # a save whose link is unusable: the game shows, without the relay
        problem = error
        screen.app.notice(lambda: t("remote.bad_save", detail=error_words(problem)), "error", sticky=True)
        return None


__all__ = ["JoinScreen", "RemotePlay", "join_link", "remote_for"]
