"""High-score tables in localStorage, and the dialog that shows them.

One key per game and table (``tessera/v1/scores/abatis/classic-5-8-5``).
A finished one-player game is entered once (the table remembers its
session id); a table that cannot be read is put aside like a corrupt save
(``storage.put_aside``), the player is told, and a fresh table begins.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import js  # type: ignore[import-not-found]

from ...core.game_ui import game_ui
from ...core.high_scores import (MAX_NAME, TABLE_KEY, HighScore, HighScoreError, clean_name, dump_table, parse_table,
                                place, rename)
from ...i18n import Message, t
from . import storage
from ..dialogs import Dialog
from ..dom import Listeners, el

SCORES_PREFIX = storage.PREFIX + "scores/"
NAME_KEY = storage.PREFIX + "settings/player_name"
_held: set[str] = set()
"""Tables that could not be read nor set aside (storage full): never written
over, so what the player had is not lost (the notice says so)."""


def table_key(game_id: str, table: str) -> str:
    return f"{SCORES_PREFIX}{game_id}/{table}"


def load_table(app: Any, game_id: str, table: str) -> list[HighScore]:
    """The table's entries; a corrupt one is put aside (with a notice) and read as empty."""
    key = table_key(game_id, table)
    raw = storage.get_text(key)
    if raw is None:
        return []
    try:
        return parse_table(raw)
    except Exception as error:   # Python's own errors too: a table never stops the dialog
        problem = storage.put_aside(key, raw, str(error) if isinstance(error, HighScoreError) else type(error).__name__)
        if problem.aside_key is None:
            _held.add(key)
        if app is not None:
            app.notice(Message("scores.corrupt" if problem.aside_key else "scores.corrupt_left"), "warning", sticky=True)
        where = f"kept as {problem.aside_key}" if problem.aside_key else "left in place: storage is full"
        js.console.warn(f"high scores {key} could not be used ({where}): {error}")
        return []


def save_table(app: Any, game_id: str, table: str, entries: list[HighScore]) -> bool:
    if table_key(game_id, table) in _held:
        return False
    try:
        storage.set_text(table_key(game_id, table), dump_table(entries))
        return True
    except storage.StorageFull:
        if app is not None:
            app.notice(Message("storage.quota"), "warning", scope="app")
        return False


def player_name() -> str:
    stored = storage.get_text(NAME_KEY)
    return clean_name(stored, t("scores.default_name"))


def remember_name(name: str) -> None:
    try:
        storage.set_text(NAME_KEY, name)
    except storage.StorageFull:
        pass


def tables(game_id: str) -> list[str]:
    """The game's tables that hold something, by key."""
    prefix = f"{SCORES_PREFIX}{game_id}/"
    return sorted(key[len(prefix):] for key in storage.keys(prefix) if TABLE_KEY.fullmatch(key[len(prefix):]))


def enter_result(app: Any, session: Any) -> tuple[str, int | None] | None:
    """Enter a finished one-player game in its table: (table, row or None).
    None when the game has no tables."""
    game = session.game
    table = game_ui(game.game_id).score_table(game)
    if table is None or not TABLE_KEY.fullmatch(table):
        return None
    entries = load_table(app, game.game_id, table)
    result = HighScore(player_name(), int(game.scores()[0]), int(getattr(game, "level", 0)) + 1,
                       time.strftime("%Y-%m-%d"), session.session_id[:64])
    entries, row = place(entries, result)
    if row is not None and not save_table(app, game.game_id, table, entries):
        row = None
    return table, row


def scores_node(app: Any, game_id: str, table: str, highlight: int | None, listeners: Listeners) -> Any:
    """The table as a list; the highlighted row (a new entry) has a name field."""
    entries = load_table(app, game_id, table)
    box = el("div", "high-scores", None, {"data-table": table})
    box.appendChild(el("p", "high-scores-name", game_ui(game_id).score_table_name(table)))
    if not entries:
        box.appendChild(el("p", "dialog-hint", t("scores.empty")))
        return box
    rows = el("ol", "high-scores-list")
    for index, entry in enumerate(entries):
        item = el("li", "high-score" + (" is-new" if index == highlight else ""), None,
                  {"data-row": str(index)})
        if index == highlight:
            field = el("input", "move-input high-score-input", None, {
                "type": "text", "value": entry.name, "maxlength": MAX_NAME,
                "aria-label": t("scores.your_name"), "data-action": "score-name"})
            listeners.on(field, "change", lambda event, row=index: _renamed(app, game_id, table, row, event))
            item.appendChild(field)
        else:
            item.appendChild(el("span", "high-score-player", entry.name))
        item.appendChild(el("span", "high-score-points", t("scores.points", count=entry.score)))
        item.appendChild(el("span", "high-score-level", t("scores.level", level=entry.level)))
        item.appendChild(el("span", "high-score-date", entry.date))
        rows.appendChild(item)
    box.appendChild(rows)
    return box


def _renamed(app: Any, game_id: str, table: str, row: int, event: Any) -> None:
    name = clean_name(str(event.target.value or ""), t("scores.default_name"))
    event.target.value = name
    entries = load_table(app, game_id, table)
    if 0 <= row < len(entries):
        save_table(app, game_id, table, rename(entries, row, name))
        remember_name(name)


def high_scores_dialog(app: Any, game_id: str, table: str | None = None,
                       on_close: Callable[[], Any] | None = None) -> Dialog:
    """Every table of the game that holds a result, the asked one first."""
    dialog = Dialog(t("scores.title", game=t(f"game.{game_id}.title")), "dialog-scores", on_cancel=on_close)
    names = tables(game_id)
    if table is not None and table not in names:
        names.insert(0, table)
    elif table is not None:
        names.remove(table)
        names.insert(0, table)
    if not names:
        dialog.body.appendChild(el("p", "dialog-hint", t("scores.none")))
    for name in names:
        dialog.body.appendChild(scores_node(app, game_id, name, None, dialog.listeners))
    close = dialog.add_button(t("dialog.close"), on_close, "primary")
    return dialog.open(focus=close)
