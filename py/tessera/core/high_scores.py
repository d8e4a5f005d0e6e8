"""High-score tables of one-player games: the best eight results per table.

A game's adapter names the table a finished game belongs to (Abatis: its
scenario, ``classic-5-8-5``); ``tessera.ui.saves.high_scores`` keeps each table
in localStorage.  This module is the pure part: reading a stored table
(strictly, so a corrupt one is put aside whole rather than half-trusted),
placing a result and writing the table back.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any

from .game import GameError, excerpt
from .record import parse_json

TABLE_SIZE = 8
TABLE_VERSION = 1
MAX_NAME = 40
MAX_SCORE = 10**12
MAX_TABLE_TEXT = 20_000
TABLE_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class HighScoreError(GameError):
    """A stored table that cannot be used (its text says why, in the catalog)."""


@dataclass(frozen=True)
class HighScore:
    name: str
    score: int
    level: int
    date: str
    """The day the game ended, ``YYYY-MM-DD``."""
    session: str = ""
    """The saved game it came from, so a reload never enters it twice."""


def clean_name(name: Any, fallback: str) -> str:
    """A player's name as the table keeps it: one line, at most 40 characters."""
    text = " ".join(str(name).split()) if isinstance(name, str) else ""
    return text[:MAX_NAME] or fallback


def _whole(value: Any, low: int, high: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HighScoreError("error.scores.field", field=field, value=excerpt(value))
    return value


def parse_table(text: Any) -> list[HighScore]:
    """The entries of a stored table, best first; raises HighScoreError."""
    if not isinstance(text, str) or len(text) > MAX_TABLE_TEXT:
        raise HighScoreError("error.scores.too_large")
    data = parse_json(text, HighScoreError)
    if not isinstance(data, dict) or data.get("version") != TABLE_VERSION or not isinstance(data.get("entries"), list):
        raise HighScoreError("error.scores.shape")
    entries = []
    for item in data["entries"][:TABLE_SIZE + 1]:
        if not isinstance(item, dict):
            raise HighScoreError("error.scores.shape")
        name, date, session = item.get("name"), item.get("date"), item.get("session", "")
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            raise HighScoreError("error.scores.field", field="name", value=excerpt(name))
        if not isinstance(date, str) or not DATE.fullmatch(date):
            raise HighScoreError("error.scores.field", field="date", value=excerpt(date))
        if not isinstance(session, str) or len(session) > 64:
            raise HighScoreError("error.scores.field", field="session", value=excerpt(session))
        entries.append(HighScore(name, _whole(item.get("score"), 0, MAX_SCORE, "score"),
                                 _whole(item.get("level"), 1, 10**6, "level"), date, session))
    if len(entries) > TABLE_SIZE:
        raise HighScoreError("error.scores.shape")
    return sorted(entries, key=lambda entry: -entry.score)


def dump_table(entries: list[HighScore]) -> str:
    return json.dumps({"version": TABLE_VERSION, "entries": [asdict(entry) for entry in entries]},
                      ensure_ascii=False, separators=(",", ":"))


def place(entries: list[HighScore], result: HighScore) -> tuple[list[HighScore], int | None]:
    """The table with ``result`` entered, and its row (None: not good enough,
    or that game is already in the table).  Equal scores keep the older first."""
    if result.session and any(entry.session == result.session for entry in entries):
        return entries, None
    row = sum(1 for entry in entries if entry.score >= result.score)
    if row >= TABLE_SIZE:
        return entries, None
    table = entries[:row] + [result] + entries[row:]
    return table[:TABLE_SIZE], row


def rename(entries: list[HighScore], row: int, name: str) -> list[HighScore]:
    entry = entries[row]
    return entries[:row] + [HighScore(name, entry.score, entry.level, entry.date, entry.session)] + entries[row + 1:]
