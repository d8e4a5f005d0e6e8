"""The play screen: board, player panels, move list, move box and actions.

Every change goes through the ``Session``; this screen listens to its
events to redraw, announce, save, and start the bot.  The bot runs in an
asyncio task (``Session.advance`` -> ``choose_async``), so the page keeps
responding while it thinks.  Saves go through ``tab_sync`` (never over a
newer save from another tab); with ``review`` the screen is the archive's
replay (``screens.archive.review_bar``): no play, no saving.
"""

from __future__ import annotations

import asyncio
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, to_js  # type: ignore[import-not-found]

from ...core.game import Game, IllegalMoveError, Move, NotationError, Outcome
from ...core.session import MoveEvent, Session, SessionError
from ...core.steps import UNFINISHED, Steps, run_slice
from ...i18n import Message, has, t
from ..saves import storage
from ..board.canvas import BoardComponent
from ..dialogs import Dialog, new_game_dialog
from ..dom import Listeners, after_paint, el, present, set_flag, set_text
from ...core.game_ui import game_ui
from ...core.registry import entry as game_entry
from ..board.move_feedback import MoveFeedback, play_sound
from .move_list import MoveList
from .questions import acting_seat, ask_draw, show_game_over
from ..saves.session_store import opening, put_aside_session, session_meta
from .controls import refresh_example, render_moves_nav
from .layout import build_play
from .panels import (error_words, result_for_you, result_reason, result_title, sentence, sentences, side_name,
                     waiting_key)

OPEN_SLICE_MS = 12.0
"""Replaying a saved game runs in slices this long (a task well under 50 ms)."""
TEXT_TAGS = {"INPUT", "TEXTAREA", "SELECT", "CANVAS", "BUTTON"}


class PlayScreen:
    def __init__(self, app: Any, game_id: str, session_id: str, review: bool = False) -> None:
        self.app = app
        self.review = review
        """A replay from the archive: the moves to look through, no play, no saving."""
        self.sync: Any = None  # tab_sync.TabSync: this game's save against other tabs'
        self.branching: Any = None  # branching.BranchControls: "Continue from here"
        self.game_id = game_id
        self.session_id = session_id
        self.ui = game_ui(game_id)
        self.solo = game_entry(game_id).num_players == 1
        """A one-player game (Abatis): one panel, Stop instead of Resign."""
        self.listeners = Listeners()
        self.session: Session | None = None
        self.board: BoardComponent | None = None
        self.root: Any = None
        self.dialog: Dialog | None = None
        self.move_list: MoveList | None = None
        self._quota_warned = False
        self._save_pending = False
        self._held_moves: list[MoveEvent] = []
        """Moves drawn on the board whose page (move list, panels, save) follows after the paint."""
        self._closed = False
        self._unsubscribe: Any = None
        self.ticker: Any = None  # time_controls.ClockTicker when the game has a clock
        self.feedback: MoveFeedback | None = None  # animations, sounds, the bot's reply shown
        self.remote: Any = None  # remote.online.RemotePlay when the opponent plays on another device
        self.link: Any = None  # remote.link.LinkPanel when the opponent plays by link
        from .readings import Readings
        self.readings = Readings(self)  # drawing options read in the bots' worker (Dots' threats)

    # ----- mount / unmount ------------------------------------------------------------
    def mount(self, container: Any) -> None:
        """Open the game: at once if its replay fits in one short slice, else
        with a "loading" line while the rest replays in slices (a game of
        1000 moves must not freeze the page)."""
        steps = opening(self.app, self.session_id)
        result = run_slice(steps, OPEN_SLICE_MS)
        if result is UNFINISHED:
            self.root = el("p", "play-loading", t("play.loading"), {"role": "status"})
            container.appendChild(self.root)
            asyncio.ensure_future(self._open_in_slices(container, steps))
            return
        self._opened(container, result)

    async def _open_in_slices(self, container: Any, steps: Steps[Session | None]) -> None:
        try:
            while True:
                await asyncio.sleep(0)
                if self._closed:
                    steps.close()
                    return
                result = run_slice(steps, OPEN_SLICE_MS)
                if result is not UNFINISHED:
                    break
        except Exception as error:  # opening() reports bad saves itself; this is the last guard
            result = None
            js.console.error(f"opening the game failed: {type(error).__name__}: {error}")
        if self._closed:
            return
        if self.root is not None:
            self.root.remove()
            self.root = None
        self._opened(container, result)

    def _opened(self, container: Any, session: Session | None) -> None:
        if session is None:
            self._leave(container)
            return
        try:
            self._mount(container, session)
        except Exception as error:  # a save the screen cannot show must not trap the player
            import traceback
            js.console.error(f"play screen: {type(error).__name__}: {error}\n{traceback.format_exc()}")
            self._abandon()
            put_aside_session(self.app, self.session_id, error)
            self._leave(container)

    def _abandon(self) -> None:
        """Undo a mount that failed half-way, saving nothing (the stored
        value stays as it was, to be put aside)."""
        session, self.session = self.session, None
        self._save_pending = False
        if self.dialog is not None:
            self.dialog.close()
        if self.link is not None:
            self.link.stop()
        if self.remote is not None:
            self.remote.stop()
            self.remote = None
        if self.ticker is not None:
            self.ticker.stop()
            self.ticker = None
        if self.sync is not None:
            self.sync.stop()
            self.sync = None
        if session is not None:
            session.close()
        if self.feedback is not None:
            self.feedback.close()
            self.feedback = None
        if self.board is not None:
            self.board.destroy()
            self.board = None
        self.listeners.clear()
        if self.root is not None:
            self.root.remove()
            self.root = None

    def _leave(self, container: Any) -> None:
        """Nothing to show: back to the home screen (a notice says why)."""
        self.root = el("div")
        container.appendChild(self.root)
        self.app.go("#/", replace=True)

    def _mount(self, container: Any, session: Session) -> None:
        self.session = session
        self.app.set_nav([(t("nav.rules"), f"#/rules/{self.game_id}"), (t("nav.games"), "#/")])
        from ..remote.online import remote_for
        self.remote = remote_for(self)
        from ..remote.link import link_for
        self.link = link_for(self)
        self.root = build_play(self)
        container.appendChild(self.root)
        flipped = session.meta.get("flipped")
        if not isinstance(flipped, bool):
            flipped = self.ui.default_flipped(session)
        self.board = BoardComponent(self.board_host, self.ui.view(), on_move=self._on_board_move,
                                    label=t("play.board_label", game=t(f"game.{self.game_id}.title")),
                                    describe=self.ui.describe_cell)
        # The board column is as wide as the board's height allows (app.css).
        self.root.style.setProperty("--board-aspect", "{:.4f}".format(
            self.ui.view().aspect_at(session.shown_game(), float(js.window.innerWidth))))
        self.board.state.flipped = flipped
        self.board_host.dataset.flipped = "true" if flipped else "false"
        self.feedback = MoveFeedback(self.board)
        self.drafts.attach(self.board)
        self._unsubscribe = session.subscribe(self._on_event)
        self.listeners.on(js.document, "keydown", self._on_key)
        self.listeners.on(js.window, "pagehide", self._on_pagehide)
        self.move_list.reset(session)
        self.listeners.on(self.board_host, "click", lambda event: self.branching.board_clicked())
        self.render()
        self._take_focus()
        if not self.review:
            from ..saves.tab_sync import TabSync
            self.sync = TabSync(self)
            self.sync.start()   # another tab may have moved on while this one opened
        if session.draw_offer is not None and not session.is_over() and not self.frozen():
            ask_draw(self)
        self._schedule_bot()
        if self.remote is not None:
            self.remote.start()
        if session.clock is not None and not self.frozen():
            from .time_controls import ClockTicker
            self.ticker = ClockTicker(session, lambda: [(p.clock, p.seat) for p in (
                self.top_panel, self.bottom_panel)], self._save)
            self.ticker.start()

    def _take_focus(self) -> None:
        """Focus the board when nothing holds the focus (Start in the new-game
        dialog, or a link that led here, is gone): keyboard play starts at once."""
        active = js.document.activeElement
        if present(active) and bool(active.isConnected) \
                and str(active.tagName or "").upper() not in ("BODY", "HTML", "MAIN"):
            return
        self.board.canvas.focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))

    def unmount(self) -> None:
        if self.ticker is not None:
            self.ticker.stop()  # saves a running clock first
        if self._held_moves:   # a move made a moment ago, its page not caught up: saved all the same
            self._held_moves = []
            self._save_pending = True
        self._flush_save()
        self._closed = True
        if self.sync is not None:
            self.sync.stop()
        if self.branching is not None:
            self.branching.close()
        if self.dialog is not None:
            self.dialog.close()
        if self.link is not None:
            self.link.stop()
        if self.remote is not None:
            self.remote.stop()
        if self.session is not None:
            if self._unsubscribe is not None:
                self._unsubscribe()
            self.session.close()
        js.document.documentElement.removeAttribute("data-bot")
        if self.feedback is not None:
            self.feedback.close()
        if self.board is not None:
            self.board.destroy()
        self.listeners.clear()
        if self.root is not None:
            self.root.remove()

    # ----- building ------------------------------------------------------------------
    # ----- rendering ----------------------------------------------------------------
    def render(self, with_board: bool = True) -> None:
        """The page for the session as it is; ``with_board=False`` when the board
        shows it already (a move's own task drew it: ``_move_on_board``)."""
        session, board = self.session, self.board
        if session is None or board is None or self._closed:
            return
        if with_board:
            self._render_board()
        flipped = board.state.flipped
        if self.solo:
            self.bottom_panel.set_seat(0)
            self.bottom_panel.update(session, self.ui)
        else:
            self.top_panel.set_seat(0 if flipped else 1)
            self.bottom_panel.set_seat(1 if flipped else 0)
            self.top_panel.update(session, self.ui)
            self.bottom_panel.update(session, self.ui)
        self._render_status()
        render_moves_nav(self)
        viewing = session.is_viewing_history()
        over = session.is_over() or self.frozen() or not self.linked()   # a replay, a game another tab
        set_flag(self.undo_btn, "disabled", not session.can_undo() or over)   # moved on, a relay not reached
        self.undo_btn.hidden = self.link is not None   # by link: a move taken back would make the next link refused
        if self.link is not None:
            self.link.render()
        self.draw_btn.hidden = not (session.is_hot_seat() or self.remote is not None) or self.solo
        self.draw_wait.render(session, acting_seat(session), over or session.draw_offer is not None)
        set_flag(self.resign_btn, "disabled", over)
        if not session.local_seats():   # a game watched: no one here to act
            self.undo_btn.hidden = self.draw_btn.hidden = self.resign_btn.hidden = True
        set_flag(self.input, "disabled", over)
        refresh_example(self)
        for action, node in self.extra_buttons:
            set_flag(node, "disabled", over or not action.enabled(session))
        self.helper.render(over or viewing)
        self.drafts.render()

    def _render_board(self) -> None:
        session, board = self.session, self.board
        state = board.state
        state.last_move = session.shown_last_move()
        state.highlights["converted"] = session.shown_converted()
        state.highlights.update(self.ui.view_highlights(session))   # the game's own (whose hand is shown)
        self.readings.refresh()
        board.set_interactive(session.is_local_turn() and not session.is_viewing_history() and not self.frozen()
                              and self.linked(), redraw=False)
        board.show(session.shown_game())

    def _render_status(self) -> None:
        session = self.session
        outcome = session.outcome()
        classes = "play-status"
        if outcome is not None:
            you = result_for_you(session, outcome)
            title = result_title(session, outcome) + (f" · {you}" if you else "")
            text = f"{title}. {result_reason(session, outcome)}"
            classes += " is-over"
        elif self.sync is not None and self.sync.stale:   # another tab moved on: nothing to play here
            text = t("tabs.status")
            classes += " is-over"
        elif session.seems_thinking() and session.local_seats():   # (someone watching sees whose turn it is)
            text = t(waiting_key(session))
            classes += " is-thinking"
        elif session.is_local_turn() and not session.is_hot_seat():
            text = t("turn.yours")
            classes += " is-yours"
        elif session.local_seats() and session.seats[session.to_move].kind == "link":
            text = t("link.waiting_status")   # nothing comes until the friend's link is opened here
        else:
            text = t(f"turn.{session.game.seat_names[session.to_move]}")
        note = self.ui.status_note(session.game) if outcome is None else None
        if note:   # a phase of the game worth saying (Corners' final round)
            text = sentences([text, note])
            classes += " has-note"
        self.status.className = classes
        set_text(self.status, text)
        js.document.documentElement.dataset.turn = "over" if outcome else str(session.to_move)

    # ----- session events ---------------------------------------------------------------
    def _on_event(self, kind: str, detail: Any) -> None:
        if self._closed:
            return
        if kind == "move" and self.board is not None:
            self._move_on_board(detail)
            return
        self._release_moves()   # the page catches up with a move first: events keep their order
        session = self.session
        if kind == "thinking":
            root = js.document.documentElement
            if detail:
                root.dataset.bot = "thinking"
            else:
                root.removeAttribute("data-bot")
            self.render()
            return
        if kind == "undo":
            self._clear_for_position()
            self.move_list.sync(session)
            self.app.announce(t("announce.undo", count=detail))
        elif kind == "view":
            self.feedback.viewed(session)  # one step forward in the history animates that move
        elif kind == "result":
            play_sound("end")
        self.render()
        if kind in ("undo", "result", "draw_offer", "draw_declined"):
            self._queue_save()
        if kind == "draw_offer":
            ask_draw(self)
        elif kind == "draw_declined":
            self.app.notice(lambda: t("draw.declined", side=side_name(session, detail)), "info")
        outcome = session.outcome()
        if outcome is not None and kind == "result":
            self._announce_end(outcome)
        if kind == "undo":
            self._schedule_bot()

    def _clear_for_position(self) -> None:
        """A move or an undo: an error, a hint or a draft was for a position gone."""
        self._show_error("")
        self.helper.clear_hint()
        self.drafts.reset()

    def _move_on_board(self, event: MoveEvent) -> None:
        """A move is drawn on the board in its own task, so the next frame paints it;
        the rest of the page (move list, panels, status, the save, the bot's turn)
        follows in a task after that frame (``_release_moves``).  Done together, a
        move 1000 moves into a 39x32 Dots field took 9-13 ms before its frame, where
        the board alone takes 4-5."""
        self._clear_for_position()
        self.feedback.move_made(self.session, event)  # before the board draws: the animation's start
        self._render_board()
        self._held_moves.append(event)
        if len(self._held_moves) == 1:
            after_paint(self._release_moves)

    def _release_moves(self) -> None:
        """The page after the moves drawn on the board (``_move_on_board``)."""
        held, self._held_moves = self._held_moves, []
        if not held or self._closed:
            return
        session = self.session
        self.move_list.sync(session)
        for event in held:
            self._announce_move(event)
        self.render(with_board=False)
        if not session.is_local_seat(held[-1].seat) and session.is_local_turn():
            self.feedback.opponent_moved([panel.node for panel in (self.top_panel, self.bottom_panel)
                                          if session.is_local_seat(panel.seat)] + [self.status])
        self._queue_save()
        outcome = session.outcome()
        if outcome is not None:
            self._announce_end(outcome)
        self._schedule_bot()

    def _announce_end(self, outcome: Outcome) -> None:
        self.app.announce(f"{result_title(self.session, outcome)}. {result_reason(self.session, outcome)}")
        show_game_over(self)

    def _announce_move(self, event: MoveEvent) -> None:
        parts = [t("announce.move", side=side_name(self.session, event.seat), move=event.text)]
        if event.converted:
            squares = ", ".join(self.ui.cell_name(c) for c in event.converted)
            parts.append(t("announce.converted", count=len(event.converted), squares=squares))
        parts.append(self.ui.move_note(self.session, event) or "")
        if not self.session.is_local_seat(event.seat) and self.session.is_local_turn():
            parts.append(t("turn.yours"))  # the bot's reply: say whose turn it is now
        self.app.announce(sentences(parts))

    def _queue_save(self) -> None:
        """Save in a task of its own, right after this one (input stays snappy)."""
        if not self._save_pending:
            self._save_pending = True
            js.setTimeout(create_once_callable(self._flush_save), 0)

    def _on_pagehide(self, event: Any) -> None:
        if self._held_moves:   # the page is caught up later (a page kept for Back), the save is now
            self._save_pending = True
        self._flush_save()

    def _flush_save(self, *_: Any) -> None:
        if self._save_pending:
            self._save_pending = False
            self._save()

    def _save(self) -> None:
        session = self.session
        if session is None or self.sync is None:   # a replay saves nothing
            return
        session.meta.update(session_meta(session))
        session.meta["flipped"] = self.board.state.flipped if self.board else False
        if self.remote is not None:   # the relay's version this game is at, for the next rejoin
            session.meta["remote"] = self.remote.save_fields()
        try:
            self.sync.save()   # unless another tab saved a newer game (tab_sync.py)
        except storage.StorageFull:
            if not self._quota_warned:
                self._quota_warned = True
                self.app.notice(Message("storage.quota"), "error", sticky=True, scope="app")
        except Exception as error:  # never stop play because saving failed
            js.console.error(f"saving failed: {error}")

    # ----- bot ---------------------------------------------------------------------------
    def linked(self) -> bool:
        """Moves can go out: a game on this device, or a remote game whose relay has answered."""
        return self.remote is None or self.remote.ready()

    def frozen(self) -> bool:
        """No play here: a replay from the archive, or a game another tab has moved on."""
        return self.review or (self.sync is not None and self.sync.stale)

    def _schedule_bot(self) -> None:
        if not self._closed and self.session is not None and self.session.awaits_participant() \
                and not self.frozen():
            asyncio.ensure_future(self._run_bot())

    async def _run_bot(self) -> None:
        try:
            # The bot thinks at once; its answer waits for your move to finish animating.
            await self.session.advance(settle=self.feedback.settled if self.feedback is not None else None)
        except Exception as error:  # a failing bot must not freeze the game silently
            js.console.error(f"bot failed: {type(error).__name__}: {error}")
            if not self._closed:
                self.app.notice(lambda error=error: t("bot.failed", detail=error_words(error)), "error")

    # ----- input ---------------------------------------------------------------------------
    def _draft_game(self) -> Game | None:
        """The game a draft is made on, while the player may compose one."""
        session = self.session
        if session is None or not session.is_local_turn() or session.is_viewing_history() or self.frozen():
            return None
        return session.game

    def _on_board_move(self, move: Move) -> None:
        if self.frozen():
            return
        try:
            self.session.play(move)
            self._show_error("")
        except (IllegalMoveError, SessionError) as error:
            self._show_error(sentence(error_words(error)))
            self.render()

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        if self.frozen():
            return
        text = str(self.input.value or "").strip()
        session = self.session
        if not text:  # say what to type, with a move of this game on this field
            self._show_error(self._game_text("error.empty", example=session.game.move_example(acting_seat(session))))
            return
        if session.is_over():
            self._show_error(sentence(t("illegal.over")))
            return
        if not session.is_local_turn():
            self._show_error(t("error.not_your_turn"))
            return
        try:  # the game reads what people type (E9 E8, 15,15); the error says what it expects
            move = session.game.parse_typed(text)
        except NotationError as error:
            self._show_error(sentence(error_words(error)))
            return
        try:
            session.play(move)
        except (IllegalMoveError, SessionError) as error:
            self._show_error(t("error.illegal", move=session.game.move_text(move), reason=error_words(error)))
            return
        self.input.value = ""
        self._show_error("")

    def _game_text(self, key: str, **params: Any) -> str:
        """The game's own wording of ``key`` (``key.<game>``) if it has one."""
        own = f"{key}.{self.game_id}"
        return t(own if has(own) else key, **params)

    def _show_error(self, text: str) -> None:
        set_text(self.input_error, text)
        self.input_error.hidden = not text
        if text:
            self.input.setAttribute("aria-invalid", "true")
        else:
            self.input.removeAttribute("aria-invalid")

    def _on_key(self, event: Any) -> None:
        if self.dialog is not None and self.dialog.is_open:
            return
        if present(js.document.querySelector("dialog[open]")):
            return
        target = event.target
        tag = str(getattr(target, "tagName", "") or "").upper()
        if tag in TEXT_TAGS and tag != "BUTTON" or event.altKey or event.ctrlKey or event.metaKey:
            return
        key = event.key
        actions = {"ArrowLeft": lambda: self.session.step_view(-1),
                   "ArrowRight": lambda: self.session.step_view(1),
                   "Home": lambda: self.session.show_ply(0),
                   "End": lambda: self.session.show_ply(None)}
        if key in actions:
            event.preventDefault()
            actions[key]()

    # ----- actions -------------------------------------------------------------------------
    def _undo(self) -> None:
        if self.remote is not None:   # the opponent decides: ask for a takeback
            self.remote.request_takeback()
            return
        try:
            self.session.undo()
        except SessionError as error:
            self.app.notice(lambda error=error: sentence(error_words(error)), "info")

    def _offer_draw(self) -> None:
        try:
            self.session.offer_draw(acting_seat(self.session))
        except SessionError as error:   # too soon (the button counts down), or an offer already stands
            self.app.notice(lambda error=error: sentence(error_words(error)), "info")
            self.render()

    def _new_game(self) -> None:
        choice = self.session.meta.get("choice")
        preset = ({key: value for key, value in choice.items() if isinstance(value, str) and len(value) <= 40}
                  if isinstance(choice, dict) else None)
        self.dialog = new_game_dialog(self.app, self.game_id, preset)

    def _flip(self) -> None:
        self.board.set_flipped(not self.board.state.flipped)
        self.board_host.dataset.flipped = "true" if self.board.state.flipped else "false"
        self.render()
        self._queue_save()

    def _export(self) -> None:
        from ..saves.records import export_dialog
        self.dialog = export_dialog(self.app, self.session)

    def _import(self) -> None:
        from ..saves.records import import_dialog
        self.dialog = import_dialog(self.app, self.game_id)
