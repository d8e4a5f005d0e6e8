"""Which save is newer when one game is open in two tabs: the rule.

Every save of a game carries a version (``rev``, a counter bumped by every
save) and the id of the tab that wrote it (``writer``); a save from before
versions has neither and counts as version 0 (``core.session.read_revision``).
A tab remembers the *base* of its game: the version it last read or wrote.

* Before writing, a tab reads the stored save again.  If it is newer than
  the base (a higher version, or the same version by another tab: two
  writes that raced), another tab has saved since: the write is refused
  (``plan_write`` returns None), so a newer save is never overwritten by an
  older game, and the screen tells the player.
* A newer save whose game is the same (the same moves, result, seats and
  draw offer: only the board's orientation or a clock's time differ, which
  a tab saves when it is hidden) is no conflict: the tab takes its version
  as its base and goes on (``QUIET``).
* When the ``storage`` event says the save changed in another tab, the same
  comparison (``classify``) tells the screen whether to warn at once.
* A save that is gone (deleted in another tab) or unreadable is no newer
  game: writing it again loses nothing.

Pure Python (no ``js``), tested in CPython and Pyodide.
"""

from __future__ import annotations

import enum
from typing import Any, Mapping

from ...core.plain_values import PlainValue
from ...core.session import SessionError, read_revision

GAME_FIELDS = ("record", "seats", "draw_offer")
"""The parts of a save that are the game itself; the rest (meta, clock) is
what a tab may save without a move being made."""


class SaveStamp(PlainValue):
    """A save's version and the tab that wrote it."""

    __slots__ = ("rev", "writer")

    def __init__(self, rev: int = 0, writer: str = "") -> None:
        self.rev = rev
        self.writer = writer


class Change(enum.Enum):
    """What a stored save is, seen from a tab's base."""

    NONE = "none"          # not newer than the base (or gone, or unreadable)
    QUIET = "quiet"        # newer, but the same game: take its version and go on
    CONFLICT = "conflict"  # another tab changed the game


def stamp_of(data: Any) -> SaveStamp | None:
    """The stamp of a parsed save, or None when it is not one (then it is no newer game)."""
    if not isinstance(data, Mapping):
        return None
    try:
        rev, writer = read_revision(data)
    except SessionError:
        return None
    return SaveStamp(rev, writer)


def game_part(data: Any) -> tuple[Any, ...] | None:
    """What two saves must share to be the same game (None for a non-save)."""
    if not isinstance(data, Mapping):
        return None
    return tuple(data.get(name) for name in GAME_FIELDS)


def is_newer(stored: SaveStamp, base: SaveStamp) -> bool:
    """Whether ``stored`` was written after the version ``base`` (by anyone else)."""
    return stored.rev > base.rev or (stored.rev == base.rev and stored.writer != base.writer)


def classify(stored: Any, base: SaveStamp, base_game: tuple[Any, ...] | None) -> Change:
    """What the stored save (parsed, or None when gone) means for a tab whose
    base is ``base`` and whose game was ``base_game`` at that version."""
    stamp = stamp_of(stored)
    if stamp is None or not is_newer(stamp, base):
        return Change.NONE
    return Change.QUIET if game_part(stored) == base_game else Change.CONFLICT


def plan_write(stored: Any, base: SaveStamp, base_game: tuple[Any, ...] | None,
               writer: str) -> SaveStamp | None:
    """The stamp to write a tab's save under, or None when that would
    overwrite a newer game saved by another tab."""
    change = classify(stored, base, base_game)
    if change is Change.CONFLICT:
        return None
    stamp = stamp_of(stored)
    top = max(base.rev, stamp.rev if stamp is not None else 0)
    return SaveStamp(top + 1, writer)
