"""Other programs' record formats, as a game package offers them.

A game's ``formats`` part (the registry says where) lists ``FORMATS``:
Dots reads and writes SGF (GM[40]).  The command line and the app's import
and export find them here and know no format or game by name.  A format's
own properties that Tessera does not play by (SGF's KM, RU, time) travel
in a record's ``meta[format.key]``, and ``notes`` says where they name
other rules than ours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import registry
from .game import Game


@dataclass(frozen=True)
class RecordFormat:
    key: str
    """Short name, the file suffix without its dot and the meta key (``sgf``)."""
    label: str
    """What the export dialog calls it (``SGF``): a format's name, not a word to translate."""
    mime: str
    game_id: str
    looks_like: Callable[[str], bool]
    """Whether a pasted or opened text is in this format (cheap, no parsing)."""
    read: Callable[[str], tuple[Game, dict[str, Any]]]
    """The replayed game and what the file says besides moves (``outcome``,
    player names, ``notes``, the format's kept properties under ``key``)."""
    write: Callable[[Game, dict[str, Any]], str]
    kept_meta: Callable[[Any], dict[str, Any]]
    """The format's properties worth keeping from a record's meta (checked)."""
    notes: Callable[[Any], list[Any]]
    """Where kept properties name other rules (``RulesNote``s: key and values)."""

    @property
    def suffix(self) -> str:
        return "." + self.key


def formats_of(game_id: str) -> tuple[RecordFormat, ...]:
    return tuple(registry.part_attribute(game_id, "formats", "FORMATS", ()))


def all_formats() -> list[RecordFormat]:
    """Every format of every game with an engine, in registry order."""
    return [fmt for game in registry.GAMES if game.module is not None for fmt in formats_of(game.game_id)]


def format_for_text(text: str) -> RecordFormat | None:
    """The format a text is in, or None for tessera/1 JSON."""
    for fmt in all_formats():
        if fmt.looks_like(text):
            return fmt
    return None
