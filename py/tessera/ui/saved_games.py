"""Reading saved games without trusting them: what the home screen lists.

A saved value in ``localStorage`` may be anything: written by an older or
newer build, by another program, by hand, or cut short by a full quota.
The home screen shows a summary of every saved game without replaying it,
so this module checks each value's outer shape and every field the summary
uses (types, ranges, sizes) once, here, and turns anything unusable into a
``SaveProblem``, whatever Python raised on the way.  Screens then only read
``SavedSummary`` fields, which are always of the stated types.

Pure Python (no ``js``), so it is tested, and fuzzed, in CPython and Pyodide;
``storage`` does the reading and writing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..core.record import parse_json
from ..core.session import SAVE_FORMAT

MAX_SAVE_CHARS = 4_000_000
"""A save holds one record (at most 2 MB) and a little more."""
MAX_NAME_CHARS = 40
"""Longest side name or bot level a summary keeps (longer: not a real save)."""


class SaveProblem(ValueError):
    """A saved value that cannot be used; the message says why in one line."""


@dataclass(frozen=True)
class SeatSummary:
    kind: str                 # "human", "bot", "remote", or "" when unknown
    level: str | None = None


@dataclass(frozen=True)
class SavedSummary:
    """What the home screen shows of a saved game, every field checked."""

    session_id: str
    game: str
    data: dict[str, Any] = field(repr=False, compare=False)
    updated: float = 0.0
    over: bool = False
    to_move: int | None = None
    ply: int = 0
    local_turn: bool = False
    side_names: tuple[str, ...] = ()
    seats: tuple[SeatSummary, ...] = ()


def summarize(raw: str, session_id: str) -> SavedSummary:
    """The summary of one saved value, or SaveProblem (never anything else)."""
    try:
        return _summarize(raw, session_id)
    except SaveProblem:
        raise
    except Exception as error:  # Python's own errors count: no value may break the list
        raise SaveProblem(f"the saved game cannot be read ({type(error).__name__})") from None


def _summarize(raw: str, session_id: str) -> SavedSummary:
    if not isinstance(raw, str):
        raise SaveProblem("the stored value is not text")
    if len(raw) > MAX_SAVE_CHARS:
        raise SaveProblem("the saved game is too large to be one of ours")
    data = parse_json(raw, SaveProblem)
    if not isinstance(data, dict):
        raise SaveProblem("not a saved game (expected an object)")
    if data.get("format") != SAVE_FORMAT:
        raise SaveProblem("not a Tessera saved game (its format is missing or unknown)")
    if data.get("id") != session_id:
        raise SaveProblem("the saved game's id does not match its key")
    record = data.get("record")
    seats = data.get("seats")
    if not isinstance(record, dict) or not isinstance(seats, list):
        raise SaveProblem("the saved game has no record or seats")
    game = record.get("game")
    if not isinstance(game, str) or not game.isascii() or not 0 < len(game) <= MAX_NAME_CHARS:
        raise SaveProblem("the saved game does not name its game")
    meta = data.get("meta")
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise SaveProblem("the saved game's details are not an object")
    side_names = _names(meta.get("side_names"))
    to_move = _small_int(meta.get("to_move"))
    if to_move is not None and not 0 <= to_move < max(1, len(side_names)):
        to_move = None
    return SavedSummary(
        session_id=session_id,
        game=game,
        data=data,
        updated=_finite(meta.get("updated")),
        over=meta.get("over") is True,
        to_move=to_move,
        ply=max(0, _small_int(meta.get("ply")) or 0),
        local_turn=meta.get("local_turn") is True,
        side_names=side_names,
        seats=tuple(_seat(seat) for seat in seats[:8]),
    )


def _finite(value: Any) -> float:
    """A number as a float, 0 for anything else (an int past float range too)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    if isinstance(value, int) and value.bit_length() > 60:
        return 0.0
    number = float(value)
    return number if math.isfinite(number) else 0.0


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
