"""Game records: one JSON format for every game.

``{"format": "tessera/1", "game": "quadrature", "options": {...}, "seed": 0,
"setup": null, "moves": ["b9-b8", ...], "result": null, "meta": {...}}``

A record is the start (options, seed, setup) plus the move list, so
replaying it gives the same state on any machine.  ``result`` holds how the
game ended when that is not visible from the moves (resignation, agreed
draw, time); an ending the rules produce is recomputed, never trusted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .game import Game, GameError, Outcome, PositionError

FORMAT = "tessera/1"
MAX_RECORD_BYTES = 2_000_000
"""Larger input is refused before parsing: no real game comes near it."""


class RecordError(GameError):
    """A record that cannot be read or replayed; the message says where."""

    def __init__(self, message: str, move_number: int | None = None,
                 move_text: str | None = None) -> None:
        super().__init__(message)
        self.move_number = move_number
        self.move_text = move_text


@dataclass
class Record:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    setup: str | None = None
    moves: list[str] = field(default_factory=list)
    result: Outcome | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    # ----- JSON --------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "setup": self.setup,
            "moves": list(self.moves),
            "result": self.result.to_json() if self.result else None,
            "meta": dict(self.meta),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, data: Any) -> "Record":
        """Check the shape of a parsed record; moves are checked by replay."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a Tessera record (format is {data.get('format')!r}, expected {FORMAT!r})")
        game = data.get("game")
        if not isinstance(game, str):
            raise RecordError("the record has no game name")
        try:
            registry.entry(game)
        except GameError as error:
            raise RecordError(str(error)) from None
        options = data.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RecordError("options must be an object")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise RecordError("seed must be an integer from 0 to 2^64-1")
        setup = data.get("setup")
        if setup is not None and not isinstance(setup, str):
            raise RecordError("setup must be a position string or null")
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("moves must be a list of strings")
        result = data.get("result")
        try:
            outcome = Outcome.from_json(result) if result is not None else None
        except PositionError as error:
            raise RecordError(str(error)) from None
        meta = data.get("meta", {})
        if meta is None:
            meta = {}
        if not isinstance(meta, dict):
            raise RecordError("meta must be an object")
        return cls(game, options, seed, setup, list(moves), outcome, meta)

    @classmethod
    def loads(cls, text: str | bytes) -> "Record":
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(f"the record is too large ({len(text)} bytes; the limit is {MAX_RECORD_BYTES})")
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as error:
            raise RecordError(f"not valid JSON: {error}") from None
        return cls.from_json(data)

    # ----- replay ------------------------------------------------------------
    def new_game(self) -> Game:
        """The start position of the record, before any move."""
        try:
            cls = registry.game_class(self.game)
            return cls(self.options, self.seed, self.setup)
        except GameError as error:
            raise RecordError(f"bad start of game: {error}") from None

    def replay(self, ply: int | None = None) -> Game:
        """Play the moves (the first ``ply`` of them); name the first bad one."""
        game = self.new_game()
        moves = self.moves if ply is None else self.moves[:max(0, ply)]
        for number, text in enumerate(moves, start=1):
            try:
                game.push_text(text)
            except GameError as error:
                raise RecordError(f"move {number} ({text!r}) is bad: {error}",
                                  move_number=number, move_text=text) from None
        return game

    @classmethod
    def from_game(cls, game: Game, result: Outcome | None = None,
                  meta: dict[str, Any] | None = None) -> "Record":
        return cls(game.game_id, dict(game.options), game.seed, game.setup,
                   history_texts(game), result, dict(meta or {}))

    def outcome(self, game: Game, ply: int | None = None) -> Outcome | None:
        """The ending at ``ply``: the rules' own if the moves reach one, else
        the stored ``result`` once every move has been played."""
        ending = game.outcome()
        if ending is None and (ply is None or ply >= len(self.moves)):
            ending = self.result
        return ending


def history_texts(game: Game) -> list[str]:
    """Notation of every move played, each written in the position before it.

    A game may name a move relative to its state, so the moves are written
    during one replay rather than all from the final position.
    """
    replay = type(game)(game.options, game.seed, game.setup)
    texts = []
    for move in game.move_stack:
        texts.append(replay.move_text(move))
        replay.push_unchecked(move)
    return texts
