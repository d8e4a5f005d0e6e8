"""Game records: one JSON format for every game.

``{"format": "tessera/1", "game": "quadrature", "options": {...}, "seed": 0,
"setup": null, "moves": ["b9-b8", ...], "result": null, "meta": {...}}``

``meta`` is free-form, but ``meta["comments"]``, when present, is a list of
captions aligned with plies (``[0]`` before the first move, ``[k]`` after
move ``k``; read through ``Record.comments``), which embedded boards show
under each step and Dots' SGF keeps as ``C[]`` on move nodes.

A record is the start (options, seed, setup) plus the move list, so
replaying it gives the same state on any machine.  ``result`` holds how the
game ended: an ending the rules produce is written too, for readers, but
recomputed from the moves and never trusted (one the moves do not reach is
refused); resignation, agreed draw and time are kept as stated.
"""

from __future__ import annotations

import json
import operator
import re
from dataclasses import dataclass, field
from itertools import accumulate, count
from typing import Any, Callable

from . import registry
from ..i18n import MessageError
from .game import Game, GameError, Move, Outcome, Player, PositionError, excerpt
from .steps import Steps, finish

FORMAT = "tessera/1"
MAX_RECORD_BYTES = 2_000_000
"""Larger input is refused before parsing: no real game comes near it."""
MAX_JSON_DEPTH = 64
"""Records and saves nest three or four levels; far deeper JSON is refused."""
STATED_REASONS = ("resign", "draw_agreed", "time")
"""Endings a record states because its moves cannot show them."""
MAX_COMMENT_CHARS = 2000
MAX_RECORD_MOVES = 3_000
"""Most moves a record holds.  The longest two-player game (Dots on 52x52)
has at most 2,704; only Abatis plays on without end, and its replay costs
time and memory in proportion (88,571 Knockout moves: 6.4 s and 174 MB in
CPython; 3,000: 0.35 s and 9 MB), as does the page's move list.  So a game
stops taking moves here and a longer record is refused, both with a message
that says so (``Session`` refuses the move past it); Stop still ends an
Abatis game there with its score."""
MAX_NUMBER_DIGITS = 4300
"""Longest whole number JSON may hold: Python's own limit for turning digits
into an int (``sys.get_int_max_str_digits``), said in words instead of its
ValueError.  No field of a record or save comes near it."""
"""A per-move comment is a caption under a board: longer text is cut there."""

MoveObserver = Callable[[Game, Move, str, Player], None]
"""``(game after the move, move, its notation, who moved)``, see ``Record.replay``."""


class RecordError(GameError):
    """A record that cannot be read or replayed; the message says where.

    ``move_number`` and ``move_text`` name the first bad move, if that is
    what is wrong; the reason it is bad is nested as the ``reason`` value.
    """

    def __init__(self, key: str, /, move_number: int | None = None,
                 move_text: str | None = None, **params: Any) -> None:
        super().__init__(key, **params)
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
            raise RecordError("error.record.not_object")
        if data.get("format") != FORMAT:
            raise RecordError("error.record.format", format=excerpt(data.get("format")), expected=repr(FORMAT))
        game = data.get("game")
        if not isinstance(game, str):
            raise RecordError("error.record.no_game")
        try:
            game_cls = registry.game_class(game)
        except GameError as error:
            raise RecordError.from_error(error) from None
        options = data.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RecordError("error.options.not_object")
        options = game_cls.stored_options(options)
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise RecordError("error.record.seed")
        setup = data.get("setup")
        if setup is not None and not isinstance(setup, str):
            raise RecordError("error.record.setup")
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("error.record.moves")
        if len(moves) > MAX_RECORD_MOVES:
            raise RecordError("error.record.too_many_moves", count=len(moves), limit=MAX_RECORD_MOVES)
        result = data.get("result")
        try:
            outcome = Outcome.from_json(result) if result is not None else None
        except PositionError as error:
            raise RecordError.from_error(error) from None
        meta = data.get("meta", {})
        if meta is None:
            meta = {}
        if not isinstance(meta, dict):
            raise RecordError("error.record.meta")
        return cls(game, options, seed, setup, list(moves), outcome, meta)

    @classmethod
    def loads(cls, text: str | bytes) -> "Record":
        """Parse a record; any bad input raises RecordError, nothing else.

        A UTF-8 byte-order mark is skipped (editors on Windows write one).
        The size is checked before parsing, and JSON nested too deeply for
        the parser (RecursionError, not a ValueError) is a bad record too.
        """
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError("error.record.too_large", count=len(text), limit=MAX_RECORD_BYTES)
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8-sig")
            except UnicodeDecodeError:
                raise RecordError("error.record.not_utf8") from None
        text = text.removeprefix("\ufeff")
        return cls.from_json(parse_json(text, RecordError))

    # ----- per-move comments -----------------------------------------------------
    def comments(self) -> list[str]:
        """One caption per ply: ``meta["comments"][0]`` says something before
        the first move, ``[k]`` after move ``k`` (a step-through board shows it).

        The list is the author's (SGF ``C[]`` on move nodes, or written by
        hand), so it is read leniently: missing entries and anything that is
        not text count as no comment, entries past the last move are dropped,
        and each is cut to ``MAX_COMMENT_CHARS``.  Always ``len(moves) + 1`` long.
        """
        given = self.meta.get("comments")
        given = given if isinstance(given, list) else []
        texts = [text[:MAX_COMMENT_CHARS] if isinstance(text, str) else "" for text in given[:len(self.moves) + 1]]
        return texts + [""] * (len(self.moves) + 1 - len(texts))

    # ----- replay ------------------------------------------------------------
    def new_game(self) -> Game:
        """The start position of the record, before any move."""
        try:
            cls = registry.game_class(self.game)
            return cls(self.options, self.seed, self.setup)
        except GameError as error:
            raise RecordError("error.record.bad_start", reason=error) from None
        except Exception as error:  # Python's own errors count: never a traceback for bad input
            raise RecordError("error.record.bad_start_python", kind=type(error).__name__) from None

    def replay(self, ply: int | None = None, on_move: MoveObserver | None = None,
               start: Game | None = None) -> Game:
        """Play the moves (the first ``ply`` of them); name the first bad one.

        ``on_move(game, move, text, mover)`` is called after each move with
        the move's notation as the game writes it (computed in the position
        before the move, see ``history_texts``), so a caller can collect what
        it needs from this one replay instead of replaying again.  ``start``
        is ``new_game()`` made already (to look at it before the moves).
        """
        game = start if start is not None else self.new_game()
        finish(self.play_moves(game, ply, on_move))
        return game

    def play_moves(self, game: Game, ply: int | None = None,
                   on_move: MoveObserver | None = None) -> Steps[None]:
        """``replay`` onto ``game`` as steps (``core.steps``): one move a step,
        so the page can replay a long game in slices."""
        moves = self.moves if ply is None else self.moves[:max(0, ply)]
        for number, text in enumerate(moves, start=1):
            try:
                move = game.parse_move(text)
                written = game.move_text(move) if on_move is not None else text
                mover = game.to_move
                game.push(move)
            except GameError as error:
                raise RecordError("error.record.bad_move", move_number=number, move_text=text,
                                  number=number, move=excerpt(text), reason=error) from None
            except Exception as error:  # Python's own errors count too
                raise RecordError("error.record.move_python", move_number=number, move_text=text,
                                  number=number, move=excerpt(text), kind=type(error).__name__) from None
            if on_move is not None:
                on_move(game, move, written, mover)
            yield

    def check_result(self, game: Game) -> Outcome | None:
        """The stated ending a session must keep, if the replayed ``game`` may end that way.

        An ending the rules produce is recomputed from the moves and never
        taken on trust: records write it (so a reader sees how the game
        ended), and one the moves do not reach is refused; it is never
        returned, the game shows it itself.  A stated ending is kept only
        when the moves reach no ending and it is one the moves cannot show
        (``STATED_REASONS``).
        """
        ending = game.outcome()
        if ending is not None:
            if self.result is not None and self.result != ending:
                raise RecordError("error.record.other_result", reason=excerpt(self.result.reason))
            return None
        if self.result is None:
            return None
        if self.result.reason not in STATED_REASONS:
            raise RecordError("error.record.unreached_result", reason=excerpt(self.result.reason))
        if self.result.winner is not None and not 0 <= self.result.winner < game.num_players:
            raise RecordError("error.record.result_player")
        return self.result

    @classmethod
    def from_game(cls, game: Game, result: Outcome | None = None,
                  meta: dict[str, Any] | None = None) -> "Record":
        return cls(game.game_id, dict(game.options), game.seed, game.setup,
                   history_texts(game), result, dict(meta or {}))

    def outcome(self, game: Game, ply: int | None = None) -> Outcome | None:
        """The ending at ``ply``: the rules' own if the moves reach one, else
        the stored ``result`` (checked by ``check_result``) once every move
        has been played."""
        ending = game.outcome()
        if ending is None and (ply is None or ply >= len(self.moves)):
            ending = self.check_result(game)
        return ending


def parse_json(text: str, error_class: type[MessageError]) -> Any:
    """``json.loads`` whose every failure is ``error_class`` (a keyed error).

    Besides ValueError, JSON nested a few thousand deep raises RecursionError
    (and can run out of memory on small stacks), so the depth is bounded
    before parsing: no real record nests more than a few levels.  The
    parser's own English is not passed on, only where it stopped.
    """
    depth = deepest_nesting(text)
    if depth > MAX_JSON_DEPTH:
        raise error_class("error.json.nested", count=depth, limit=MAX_JSON_DEPTH)

    def whole_number(digits: str) -> int:
        length = len(digits.lstrip("-"))
        if length > MAX_NUMBER_DIGITS:
            raise error_class("error.json.number_too_long", count=length, limit=MAX_NUMBER_DIGITS)
        return int(digits)

    try:
        return json.loads(text, parse_int=whole_number)
    except MessageError:
        raise
    except json.JSONDecodeError as error:
        raise error_class("error.json.invalid_at", line=error.lineno, column=error.colno) from None
    except Exception as error:
        raise error_class("error.json.invalid", kind=type(error).__name__) from None


def deepest_nesting(text: str) -> int:
    """How deep brackets nest in ``text``, ignoring brackets inside strings.

    Runs at C speed (regular expressions, ``accumulate``): it guards every
    JSON read, and in Pyodide JSON nested about 10,000 deep is not a
    RecursionError but a fatal stack overflow of the whole interpreter.
    """
    opening = text.count("[") + text.count("{")
    if opening <= MAX_JSON_DEPTH:
        return opening  # cannot nest deeper than it opens: the usual case, no scan
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)).translate(_BRACKET_STEPS)
    # each bracket is 2 (opens) or 0 (closes); depth after k brackets = sum - k
    return max(map(operator.sub, accumulate(brackets.encode("ascii")), count(1)), default=0)


_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_BRACKET_STEPS = str.maketrans({"[": "\x02", "{": "\x02", "]": "\x00", "}": "\x00"})


def history_texts(game: Game) -> list[str]:
    """Notation of every move played, each written in the position before it.

    A game may name a move relative to its state, so the moves are written
    during one replay rather than all from the final position.
    """
    return MoveFacts.of(game).texts


@dataclass
class MoveFacts:
    """What the session keeps of every move played, so that nothing per move
    needs a replay: the notation (for the move list and saves), who moved
    (for undo) and the scores after it (for the gains the move list shows).

    ``scores[0]`` is the start; ``scores[i]`` follows move ``i``.
    """

    texts: list[str] = field(default_factory=list)
    movers: list[Player] = field(default_factory=list)
    scores: list[tuple[int, ...]] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game) -> "MoveFacts":
        return cls([], [], [tuple(game.scores())])

    def add(self, game: Game, move: Move, text: str, mover: Player) -> None:
        """Record a move just pushed on ``game`` (a ``Record.replay`` observer)."""
        self.texts.append(text)
        self.movers.append(mover)
        self.scores.append(tuple(game.scores()))

    def truncate(self, ply: int) -> None:
        del self.texts[ply:]
        del self.movers[ply:]
        del self.scores[ply + 1:]

    @classmethod
    def of(cls, game: Game) -> "MoveFacts":
        """The facts of a game's history, from one replay (for a game made
        elsewhere; sessions loaded from records collect them while replaying)."""
        replay = type(game)(game.options, game.seed, game.setup)
        facts = cls.start(replay)
        for move in game.move_stack:
            text, mover = replay.move_text(move), replay.to_move
            replay.push_unchecked(move)
            facts.add(replay, move, text, mover)
        return facts
