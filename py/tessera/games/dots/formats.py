"""Dots records as SGF (GM[40]), the format zagram, playdots and KataGoDots
write; see ``sgf.py`` for the codec and ``sgf_rules.py`` for other rules."""

from __future__ import annotations

from typing import Any

from ...core.record_formats import RecordFormat
from .sgf import from_sgf, kept_sgf_meta, to_sgf
from .sgf_rules import sgf_meta_notes


def _looks_like_sgf(text: str) -> bool:
    return text.lstrip().startswith("(")


def _write(game: Any, meta: dict[str, Any]) -> str:
    return to_sgf(game, meta)


FORMATS = (
    RecordFormat("sgf", "SGF", "application/x-go-sgf", "dots", _looks_like_sgf, from_sgf, _write,
                 kept_sgf_meta, sgf_meta_notes),
)
