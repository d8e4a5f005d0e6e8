"""Saved games and settings in ``localStorage``, robust to what can go wrong.

* ``getItem`` of a missing key returns ``jsnull``, not ``None``: every read
  goes through ``get_text``.
* A full quota makes ``setItem`` raise a ``JsException`` named
  ``QuotaExceededError`` and keeps the old value: ``save_session`` reports it
  (the page shows a notice) and play goes on.
* A corrupt or foreign value under one of our keys is moved aside under
  ``tessera/v1/corrupt/...`` (never deleted, so nothing the player had is
  lost) and described in a message; the app then starts normally.  When
  storage is full it cannot be copied aside: it is left where it was and
  the ``Problem`` says so (``aside_key`` None), so the notice can too.
* ``backup_text`` is every value Tessera keeps here, as one file the player
  can download (the recovery screen offers it before ``reset``).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import js  # type: ignore[import-not-found]

from ...core.plain_values import PlainValue
from ..dom import present
from .versions import SaveStamp, game_part, plan_write
from .saved_games import SavedSummary, SaveProblem, backup_file, beyond_archive, summarize

ROOT = "tessera/"
"""Every key of the app's own starts so (``tessera/v1/...``); embedded
boards keep their pictures under ``tessera-board/``, a cache."""
PICTURES_ROOT = "tessera-board/"
PREFIX = "tessera/v1/"
SESSION_PREFIX = PREFIX + "session/"
CORRUPT_PREFIX = PREFIX + "corrupt/"
LANG_KEY = PREFIX + "lang"


class StorageFull(Exception):
    """The browser refused to store more (QuotaExceededError)."""


class SaveConflict(Exception):
    """Another tab saved a newer game under this key (``versions``);
    ``stored`` is that save, parsed."""

    def __init__(self, stored: dict[str, Any]) -> None:
        super().__init__("a newer save of this game was written by another tab")
        self.stored = stored


class Problem(PlainValue):
    """A stored value that could not be used, and where it was put aside.

    ``game`` is the game the value was a save of, when it still says (the
    notice names it).
    """

    __slots__ = ("key", "aside_key", "detail", "game")

    def __init__(self, key: str, aside_key: str | None, detail: str, game: str | None = None) -> None:
        self.key = key
        self.aside_key = aside_key
        self.detail = detail
        self.game = game


def _local() -> Any:
    try:
        value = js.localStorage
    except Exception:  # storage disabled by the browser's settings
        return None
    return value if present(value) else None  # some browsers give JS null


def _is_quota(error: BaseException) -> bool:
    name = str(getattr(error, "name", "") or "")
    return "Quota" in name or "Quota" in str(error) or "quota" in str(error)


def get_text(key: str) -> str | None:
    """The stored string, or None when missing (``jsnull``) or unavailable."""
    storage = _local()
    if storage is None:
        return None
    try:
        value = storage.getItem(key)
    except Exception:
        return None
    return value if isinstance(value, str) else None


def set_text(key: str, value: str) -> None:
    """Store ``value``; raises StorageFull when the quota is exceeded."""
    storage = _local()
    if storage is None:
        raise StorageFull("localStorage is not available")
    try:
        storage.setItem(key, value)
    except Exception as error:
        if _is_quota(error):
            raise StorageFull(str(error)) from None
        raise


def remove(key: str) -> None:
    storage = _local()
    if storage is not None:
        try:
            storage.removeItem(key)
        except Exception:
            pass


def keys(prefix: str) -> list[str]:
    storage = _local()
    if storage is None:
        return []
    found = []
    try:
        for index in range(int(storage.length)):
            key = storage.key(index)
            if isinstance(key, str) and key.startswith(prefix):
                found.append(key)
    except Exception:
        return found
    return sorted(found)


def new_session_id() -> str:
    """A key for a new saved game: the time, then randomness against two
    games started in the same millisecond (two tabs)."""
    return f"{int(js.Date.now()):x}{random.randrange(1 << 16):04x}"


def put_aside(key: str, raw: str, detail: str) -> Problem:
    """Move an unusable value to a corrupt/ key (kept, not deleted)."""
    stamp = int(js.Date.now())
    aside = f"{CORRUPT_PREFIX}{key[len(PREFIX):]}@{stamp}"
    try:
        set_text(aside, raw)
        remove(key)
    except Exception:
        aside = None  # could not copy: leave the original where it is
    return Problem(key, aside, detail, game_named_in(raw))


GAME_FIELD = re.compile(r'"game"\s*:\s*"([a-z][a-z0-9_]{0,31})"')


def game_named_in(raw: Any) -> str | None:
    """The game a stored save names (its record's ``"game"``), read from its
    first characters without parsing it (it may be broken); None when it names
    no game this build knows."""
    if not isinstance(raw, str):
        return None
    from ...core import registry
    match = GAME_FIELD.search(raw[:4000])
    known = {entry.game_id for entry in registry.GAMES}
    return match.group(1) if match and match.group(1) in known else None


# ----- everything at once: the recovery screen's backup and reset -------------------

def backup_text() -> tuple[str, int]:
    """Every value the app keeps in this browser (keys under ``ROOT``: saves,
    the archive, put-aside values, settings, high scores, the relay's
    address) as one JSON file (``saved_games.backup_file``), and how many."""
    items = {key: value for key in keys(ROOT) if (value := get_text(key)) is not None}
    return backup_file(items, float(js.Date.now())), len(items)


def reset() -> int:
    """Remove every value of the app (and the boards' cached pictures); how many were removed."""
    gone = keys(ROOT) + keys(PICTURES_ROOT)
    for key in gone:
        remove(key)
    return len(gone)


# ----- language ------------------------------------------------------------------

def load_language() -> str | None:
    value = get_text(LANG_KEY)
    return value if value in ("en", "ru") else None


def save_language(lang: str) -> None:
    try:
        set_text(LANG_KEY, lang)
    except Exception:
        pass  # the choice still holds for this visit


# ----- sessions --------------------------------------------------------------------

def session_key(session_id: str) -> str:
    return SESSION_PREFIX + session_id


def save_session(data: dict[str, Any]) -> None:
    """Store a session's save dict; StorageFull leaves the old save intact."""
    set_text(session_key(str(data.get("id", ""))), json.dumps(data, ensure_ascii=False, separators=(",", ":")))


_tab_id: str | None = None


def tab_id() -> str:
    """This page's id as a writer of saves: made on first use, not at import,
    since modules are imported into the start-up snapshot every tab shares."""
    global _tab_id
    if _tab_id is None:
        _tab_id = f"{int(js.Date.now()):x}-{random.randrange(1 << 32):08x}"
    return _tab_id


def stored_save(session_id: str) -> dict[str, Any] | None:
    """The stored save of a game, parsed and checked; None when it is gone or unusable
    (left where it is: opening the game is what puts a bad save aside)."""
    raw = get_text(session_key(session_id))
    if raw is None:
        return None
    try:
        return summarize(raw, session_id).data
    except SaveProblem:
        return None


def write_session(session: Any, base_game: tuple[Any, ...] | None = None) -> tuple[Any, ...] | None:
    """Save ``session`` (a ``core.session.Session``) under the next version,
    unless another tab saved a newer game since its version: then raise
    SaveConflict and leave that save alone.  ``base_game`` is the game part
    (``versions.game_part``) of the save at the session's version.

    On success the session's ``revision`` and ``writer`` are those written,
    and the game part written is returned: the next write's ``base_game``.
    Raises StorageFull (the old save stays) like ``save_session``.
    """
    data = session.to_save()
    stored = stored_save(str(data.get("id", "")))
    stamp = plan_write(stored, SaveStamp(session.revision, session.writer), base_game, tab_id())
    if stamp is None:
        raise SaveConflict(stored or {})
    data["rev"], data["writer"] = stamp.rev, stamp.writer
    save_session(data)
    session.revision, session.writer = stamp.rev, stamp.writer
    return game_part(data)


def delete_session(session_id: str) -> None:
    remove(session_key(session_id))


def read_session(session_id: str) -> tuple[dict[str, Any] | None, Problem | None]:
    """The parsed save (its outer shape and summary fields checked), or the
    problem with it (the value is then put aside)."""
    key = session_key(session_id)
    raw = get_text(key)
    if raw is None:
        return None, None
    try:
        return summarize(raw, session_id).data, None
    except SaveProblem as problem:
        return None, put_aside(key, raw, str(problem))


def list_sessions() -> tuple[list[SavedSummary], list[Problem]]:
    """Every saved game, newest first; unusable ones are put aside and reported."""
    summaries: list[SavedSummary] = []
    problems: list[Problem] = []
    for key in keys(SESSION_PREFIX):
        raw = get_text(key)
        if raw is None:
            continue
        try:
            summaries.append(summarize(raw, key[len(SESSION_PREFIX):]))
        except SaveProblem as problem:
            problems.append(put_aside(key, raw, str(problem)))
    summaries.sort(key=lambda s: s.updated, reverse=True)
    return summaries, problems


def prune_archive(summaries: list[SavedSummary]) -> list[SavedSummary]:
    """Delete the finished games past the archive's limit (``saved_games.ARCHIVE_LIMIT``);
    the summaries of the games left."""
    gone = {summary.session_id for summary in beyond_archive(summaries)}
    for session_id in gone:
        delete_session(session_id)
    return [summary for summary in summaries if summary.session_id not in gone]
