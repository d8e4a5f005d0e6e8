"""Opening and putting aside saved sessions, for the play screen.

``opening`` turns a stored game into a ``Session`` as steps (a replayed
move a step, see ``core.steps``), so the screen can open a long game in
slices; a value that cannot be used, whatever Python raises on it, is put
aside (kept under a ``corrupt/`` key, never deleted) with a notice in
plain words; the technical detail goes to the console.
``session_meta`` is what every save carries for the home screen's list.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from ...core.session import Session, SessionError
from ...core.steps import Steps
from ...i18n import Message, MessageError
from . import storage
from .saved_games import js_time


def session_meta(session: Session) -> dict[str, Any]:
    """Facts the home screen and the archive show without replaying the game:
    for a finished game also its result and when it ended (kept from the
    first save after the end, so reviewing it later does not move it)."""
    now = float(js.Date.now())
    outcome = session.outcome()
    ended = session.meta.get("ended")
    return {
        "updated": now,
        "to_move": session.to_move,
        "ply": session.game.ply,
        "over": outcome is not None,
        "local_turn": session.is_local_turn() and not session.is_hot_seat(),
        "side_names": list(session.game.seat_names),
        "ended": (js_time(ended) or now) if outcome is not None else None,
        "result": {"winner": outcome.winner, "reason": outcome.reason} if outcome is not None else None,
        "score": session.game.scores()[0] if session.game.num_players == 1 else None,
    }


def opening(app: Any, session_id: str) -> Steps[Session | None]:
    """The saved session as steps (a replayed move a step: see ``core.steps``),
    or None after telling the player what went wrong."""
    pending = app.pending_session
    app.pending_session = None
    if pending is not None and pending.session_id == session_id:
        return pending
    data, problem = storage.read_session(session_id)
    if problem is not None:
        app.report_problems([problem])
        return None
    if data is None:
        app.notice(Message("play.not_found"), "warning")
        return None
    try:
        return (yield from Session.restoring(data))
    except Exception as error:  # whatever a stored value makes Python raise: put it aside
        put_aside_session(app, session_id, error)
        return None


def put_aside_session(app: Any, session_id: str, error: BaseException) -> None:
    """Move an unusable saved game out of the way (kept, not deleted) and say so."""
    key = storage.session_key(session_id)
    raw = storage.get_text(key)
    detail = error_detail(error)
    if raw is None:
        app.report_problems([storage.Problem(key, None, detail)])
    else:
        app.report_problems([storage.put_aside(key, raw, detail)])


def error_detail(error: BaseException, limit: int = 160) -> str:
    """An error as one short English line for the console (the player's
    notice says in plain words that the game was kept aside, see
    ``App.report_problems``); our errors carry their own words."""
    text = " ".join(str(error).split()) if isinstance(error, (MessageError, SessionError)) else ""
    text = text or type(error).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"
