"""What an exported record says besides its moves: who played, when, at what time control.

A record read a year later, or by another program, should tell who sat
where, the day the game began and the clock it was played with, as
lichess's exports do.  ``export_meta`` builds that ``meta`` from what a
session or a save keeps, so the play screen's export and the archive's
write the same; Dots' SGF writes the same facts as ``PB``/``PW``, ``DT``
and ``TM``/``OT``.

- ``"<seat name>"``: ``"human"``, ``"remote"`` or ``"bot:<level>"`` (the
  import dialog pre-selects these seats);
- ``"players"``: ``{seat name: name}``, a person's name when the game knows
  one (online), else ``Player 1``, ``Tessera bot (medium)``;
- ``"date"``: the day the game began, ``YYYY-MM-DD`` (UTC);
- ``"time_control"``: ``{"total", "per_move", "increment"}`` in seconds,
  when the game had a clock.

Pure Python: the dates come from the save's milliseconds since 1970.
"""

from __future__ import annotations

import math
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping, Sequence

from .clock import TimeControl
from .seats import Seat

KEPT_KEYS = ("branch",)
"""Session facts an export carries as they are (a game continued from another)."""


def player_name(spec: Seat, seat: int) -> str:
    """A seat's player as a record names them: a person's name if known,
    ``Tessera bot (medium)`` for a bot, else ``Player 1``."""
    if spec.kind == "bot":
        return f"Tessera bot ({spec.level})"
    return spec.name or f"Player {seat + 1}"


def day_of(milliseconds: Any) -> str | None:
    """``YYYY-MM-DD`` (UTC) of a JavaScript time, None for anything that is not one."""
    if isinstance(milliseconds, bool) or not isinstance(milliseconds, (int, float)):
        return None
    if isinstance(milliseconds, float) and not math.isfinite(milliseconds):
        return None
    if abs(milliseconds) > 8.64e15:   # JavaScript's own limit for a date
        return None
    try:
        return datetime.fromtimestamp(milliseconds / 1000, tz=timezone.utc).date().isoformat()
    except (OverflowError, OSError, ValueError):
        return None


def export_meta(seat_names: Sequence[str], seats: Iterable[Seat], session_meta: Mapping[str, Any],
                time_control: TimeControl | None = None, formats: Iterable[str] = ()) -> dict[str, Any]:
    """The ``meta`` of an exported record (see the module docstring);
    ``formats``: the keys of the game's own record formats, whose kept
    properties (SGF's) travel in the session's meta."""
    meta: dict[str, Any] = {"app": "Tessera"}
    players: dict[str, str] = {}
    for index, (name, spec) in enumerate(zip(seat_names, seats)):
        meta[name] = spec.kind if spec.kind != "bot" else f"bot:{spec.level}"
        players[name] = player_name(spec, index)
    meta["players"] = players
    day = day_of(session_meta.get("created"))
    if day is not None:
        meta["date"] = day
    if time_control is not None and time_control.enabled:
        meta["time_control"] = time_control.to_json()
    for key in (*KEPT_KEYS, *formats):
        if key in session_meta:
            meta[key] = session_meta[key]
    return meta
