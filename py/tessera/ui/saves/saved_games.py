"""Reading saved games without trusting them: the one check of a save at load.

A saved value in ``localStorage`` may be anything: written by an older or
newer build, by another program, by hand, or cut short by a full quota.
Every screen that reads a save (the home screen, the archive, the router
finding the newest game, the play screen before it replays) reads it
through ``summarize``, which checks it once, here: the outer shape, an id
fit for a URL (non-empty, letters, digits, ``-``, ``_``), the record's shape
(``Record.from_json``: types, the seed's range, at most ``MAX_RECORD_MOVES``
moves) for a game this build knows, and every field the screens show.  A
save that fails is a ``SaveProblem``, whatever Python raised on the way,
and the caller puts it aside.  A detail that is only shown (when it was
saved, whose turn, how it ended) and is out of range is read as unknown
instead, so an odd detail never costs the player a game: a date outside
JavaScript's (``js_time``), a turn no side name gives, a winner past the
seats.  Screens then only read ``SavedSummary`` fields, always of the
stated types and ranges.  Replaying the moves (``Session.restoring``) is
the play screen's second, deeper check.

Pure Python (no ``js``), so it is tested, and fuzzed, in CPython and Pyodide;
``storage`` does the reading and writing.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ...core import registry
from ...core.game import excerpt
from ...core.plain_values import PlainValue
from ...core.record import Record, RecordError, parse_json
from ...core.session import SAVE_FORMAT
from ...i18n import MessageError

MAX_SAVE_CHARS = 4_000_000
"""A save holds one record (at most 2 MB) and a little more."""
MAX_NAME_CHARS = 40
"""Longest side name or bot level a summary keeps (longer: not a real save)."""
SESSION_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
"""A save's id: part of the URL (``#/play/<game>/<id>``) and of its key; the
app makes hex ids (``r`` and hex for an online game).  An empty id made the
router loop between ``#/play/<game>`` and ``#/play/<game>/``."""
MAX_JS_TIME = 8.64e15
"""JavaScript's ``Date`` holds times within 10^8 days of 1970 (in ms);
``new Date(1e308).toISOString()`` throws a RangeError."""


class SaveProblem(MessageError, ValueError):
    """A saved value that cannot be used: a catalog key and its values, whose
    English text (``str()``) says why in one line for the console."""


class SeatSummary(PlainValue):
    """A seat as a summary shows it: ``kind`` is "human", "bot", "remote",
    or "" when unknown."""

    __slots__ = ("kind", "level")

    def __init__(self, kind: str, level: str | None = None) -> None:
        self.kind = kind
        self.level = level


class SavedSummary(PlainValue):
    """What the home screen shows of a saved game, every field checked.

    Beside what the home screen lists: ``ended``, when a finished game ended
    (ms since 1970; ``updated`` for saves from before); ``winner``, its
    winning seat (None: a draw, or not known); ``reason``, how it ended (an
    ``end.<reason>`` key), if the save says; ``branch_ply``, where a game
    continued from another one branched off it (``meta["branch"]``);
    ``score``, a one-player game's score (``meta["score"]``), if the save
    says.  ``data`` is the parsed save, left out of equality and repr.
    """

    __slots__ = ("session_id", "game", "data", "updated", "over", "to_move", "ply", "local_turn",
                 "side_names", "seats", "ended", "winner", "reason", "branch_ply", "score")
    UNCOMPARED = ("data",)

    def __init__(self, session_id: str, game: str, data: dict[str, Any], updated: float = 0.0,
                 over: bool = False, to_move: int | None = None, ply: int = 0, local_turn: bool = False,
                 side_names: tuple[str, ...] = (), seats: tuple[SeatSummary, ...] = (), ended: float = 0.0,
                 winner: int | None = None, reason: str | None = None, branch_ply: int | None = None,
                 score: int | None = None) -> None:
        self.session_id = session_id
        self.game = game
        self.data = data
        self.updated = updated
        self.over = over
        self.to_move = to_move
        self.ply = ply
        self.local_turn = local_turn
        self.side_names = side_names
        self.seats = seats
        self.ended = ended
        self.winner = winner
        self.reason = reason
        self.branch_ply = branch_ply
        self.score = score


def summarize(raw: str, session_id: str) -> SavedSummary:
    """The summary of one saved value, or SaveProblem (never anything else)."""
    try:
        return _summarize(raw, session_id)
    except SaveProblem:
        raise
    except Exception as error:  # Python's own errors count: no value may break the list
        raise SaveProblem("error.save.python", kind=type(error).__name__) from None


def _summarize(raw: str, session_id: str) -> SavedSummary:
    if not isinstance(raw, str):
        raise SaveProblem("error.save.not_text")
    if len(raw) > MAX_SAVE_CHARS:
        raise SaveProblem("error.save.too_large")
    data = parse_json(raw, SaveProblem)
    if not isinstance(data, dict):
        raise SaveProblem("error.save.not_object")
    if data.get("format") != SAVE_FORMAT:
        raise SaveProblem("error.save.format", format=excerpt(data.get("format")))
    if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
        raise SaveProblem("error.save.id")
    if data.get("id") != session_id:
        raise SaveProblem("error.save.id_mismatch")
    record = data.get("record")
    seats = data.get("seats")
    if not isinstance(record, dict) or not isinstance(seats, list):
        raise SaveProblem("error.save.no_record")
    game = record.get("game")
    if not isinstance(game, str) or not game.isascii() or not 0 < len(game) <= MAX_NAME_CHARS:
        raise SaveProblem("error.save.no_game")
    if any(known.game_id == game for known in registry.GAMES):   # a newer build's game: not listed here, left alone
        try:
            Record.from_json(record)
        except RecordError as error:
            raise SaveProblem("error.save.record", reason=error) from None
    meta = data.get("meta")
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise SaveProblem("error.save.meta")
    side_names = _names(meta.get("side_names"))
    to_move = _small_int(meta.get("to_move"))
    if to_move is not None and not 0 <= to_move < len(side_names):   # no name for that side: not shown
        to_move = None
    return SavedSummary(
        session_id=session_id,
        game=game,
        data=data,
        updated=js_time(meta.get("updated")),
        over=meta.get("over") is True,
        to_move=to_move,
        ply=max(0, _small_int(meta.get("ply")) or 0),
        local_turn=meta.get("local_turn") is True,
        side_names=side_names,
        seats=tuple(_seat(seat) for seat in seats[:8]),
        **_ending(meta, side_names),
    )


def _ending(meta: dict[str, Any], side_names: tuple[str, ...]) -> dict[str, Any]:
    """The archive's fields: when and how a finished game ended, where a game branched."""
    fields: dict[str, Any] = {"ended": js_time(meta.get("ended")) or js_time(meta.get("updated"))}
    result = meta.get("result")
    if isinstance(result, dict):
        winner = _small_int(result.get("winner"))
        reason = _short_text(result.get("reason"))
        fields["winner"] = winner if winner is not None and 0 <= winner < len(side_names) else None
        fields["reason"] = reason if reason is not None and reason.isascii() and reason.isidentifier() else None
    score = _small_int(meta.get("score"))
    fields["score"] = score if score is not None and score >= 0 else None
    branch = meta.get("branch")
    if isinstance(branch, dict):
        ply = _small_int(branch.get("ply"))
        fields["branch_ply"] = ply if ply is not None and ply >= 0 else None
    return fields


def js_time(value: Any) -> float:
    """A time in ms since 1970 that JavaScript's ``Date`` can hold (after
    1970), as a float; 0 (unknown) for anything else: not a number, NaN,
    infinite, negative, or past ``MAX_JS_TIME`` (``1e308``, a 400-digit int)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    if isinstance(value, int) and value.bit_length() > 60:
        return 0.0
    number = float(value)
    return number if math.isfinite(number) and 0 <= number <= MAX_JS_TIME else 0.0


def _small_int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value.bit_length() > 31:
        return None
    return value


def _short_text(value: Any) -> str | None:
    if isinstance(value, str) and 0 < len(value) <= MAX_NAME_CHARS and value.isprintable():
        return value
    return None


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > 8:
        return ()
    names = tuple(_short_text(item) for item in value)
    return () if None in names else names  # type: ignore[return-value]


def _seat(value: Any) -> SeatSummary:
    if not isinstance(value, dict):
        return SeatSummary("")
    kind = _short_text(value.get("kind")) or ""
    return SeatSummary(kind, _short_text(value.get("level")))


# ----- the archive -------------------------------------------------------------------

ARCHIVE_LIMIT = 100
"""Finished games kept in the archive: the newest 100.  A save is a few KB
(a long 39x32 Dots game about 10), so the archive stays far below the
browser's 5 MB while holding months of play; older finished games are
deleted when the archive or the home screen is opened."""


def finished_newest_first(summaries: list[SavedSummary]) -> list[SavedSummary]:
    """The finished games, the one that ended last first."""
    return sorted((s for s in summaries if s.over), key=lambda s: (s.ended, s.session_id), reverse=True)


def beyond_archive(summaries: list[SavedSummary], keep: int = ARCHIVE_LIMIT) -> list[SavedSummary]:
    """The finished games past the newest ``keep``: the ones the archive lets go."""
    return finished_newest_first(summaries)[keep:]


# ----- a backup of everything -----------------------------------------------------------

BACKUP_FORMAT = "tessera-backup/1"


def backup_file(items: dict[str, str], now: float) -> str:
    """The text of a backup: ``{"format": "tessera-backup/1", "saved": ms,
    "items": {key: the stored text, as it is}}``.  Stored texts are kept
    verbatim (not parsed), so even a value nothing can read is given back
    exactly; the file is ASCII (``\\u`` escapes), so a lone surrogate a
    browser let in survives the trip to JavaScript."""
    return json.dumps({"format": BACKUP_FORMAT, "saved": js_time(now), "items": dict(sorted(items.items()))},
                      indent=1)

