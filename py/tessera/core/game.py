"""The one protocol every game implements.

A game state is a mutable object in the style of python-chess's ``Board``:
``push`` applies a move and ``pop`` takes it back through a stack of cheap
snapshots.  Bots, records, the command line and the app only talk to this
protocol (in the spirit of OpenSpiel), so a new game is one new package.

Moves are opaque, hashable, comparable values chosen by each game for speed
(Quadrature uses small ints).  Their text form is the game's notation and
round-trips: ``game.parse_move(game.move_text(m)) == m``.
"""

from __future__ import annotations

import zlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Hashable, Mapping, Sequence, TypeAlias

Move: TypeAlias = Hashable
Player: TypeAlias = int  # 0 = first seat, 1 = second seat


class GameError(ValueError):
    """Base of every error a game raises on bad input."""


class NotationError(GameError):
    """The text is not a move in the game's notation at all."""


class IllegalMoveError(GameError):
    """The text parses as a move, but the move is not legal here."""


class PositionError(GameError):
    """A position string or options object is malformed or inconsistent."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is a player index, or ``None`` for a draw (and for the end of a
    one-player game, whose result is its score).  ``reason`` is a stable key
    (``"annihilation"``, ``"home_plate"``, ``"no_moves"``, ``"ply_limit"``,
    ``"resign"``, ``"draw_agreed"``, ``"time"`` ...) that the message catalog
    turns into words.
    """

    winner: Player | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Any) -> "Outcome":
        if not isinstance(data, Mapping):
            raise PositionError("result must be an object")
        winner = data.get("winner")
        reason = data.get("reason")
        if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool) or winner not in (0, 1)):
            raise PositionError(f"result winner must be 0, 1 or null, not {winner!r}")
        if not isinstance(reason, str) or not reason:
            raise PositionError("result reason must be a non-empty string")
        return cls(winner, reason)


@dataclass(frozen=True)
class OptionSpec:
    """One new-game option: its key, default, and allowed values.

    The new-game dialog and record validation are both driven by these, so
    an option is declared once.  ``choices`` of ``None`` means a boolean.
    """

    key: str
    default: Any
    choices: tuple[Any, ...] | None = None

    def validate(self, value: Any) -> Any:
        if self.choices is None:
            if not isinstance(value, bool):
                raise PositionError(f"option {self.key} must be true or false, not {value!r}")
            return value
        if value not in self.choices or isinstance(value, bool) != isinstance(self.default, bool):
            allowed = ", ".join(str(c) for c in self.choices)
            raise PositionError(f"option {self.key} must be one of {allowed}, not {value!r}")
        return value


class Game(ABC):
    """A game position plus its history, mutable in place.

    Subclasses set the class attributes and fill in the abstract methods.
    Public bookkeeping (``push`` validating, ``replay``, ``copy``) lives here
    so every game behaves the same at the edges.
    """

    game_id: ClassVar[str]
    """Registry key and record ``game`` field, e.g. ``"quadrature"``."""
    num_players: ClassVar[int] = 2
    seat_names: ClassVar[tuple[str, ...]] = ("first", "second")
    """Message-catalog keys of the seats, e.g. ``("white", "black")``."""
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()

    def __init__(self, options: Mapping[str, Any] | None = None, seed: int = 0,
                 setup: str | None = None) -> None:
        self.options: dict[str, Any] = self.normalize_options(options)
        self.seed = int(seed)
        self.setup = setup
        self.move_stack: list[Move] = []
        self._init_state(setup)

    # ----- options --------------------------------------------------------
    @classmethod
    def default_options(cls) -> dict[str, Any]:
        return {spec.key: spec.default for spec in cls.option_specs}

    @classmethod
    def normalize_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, unknown keys rejected, values checked."""
        result = cls.default_options()
        if options is None:
            return result
        if not isinstance(options, Mapping):
            raise PositionError("options must be an object")
        specs = {spec.key: spec for spec in cls.option_specs}
        for key, value in options.items():
            if key not in specs:
                raise PositionError(f"unknown option {key!r}")
            result[key] = specs[key].validate(value)
        return result

    # ----- hooks every game fills in ----------------------------------------
    @abstractmethod
    def _init_state(self, setup: str | None) -> None:
        """Set the start position (from ``setup`` if given) and clear history."""

    @property
    @abstractmethod
    def to_move(self) -> Player:
        """The player whose turn it is."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move; empty once the game is over."""

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Apply a move known to be legal and save what ``_unapply`` needs."""

    @abstractmethod
    def _unapply(self, move: Move) -> None:
        """Undo the last ``_apply``."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """One number per player, shown by the app (checkers, points...)."""

    @abstractmethod
    def move_text(self, move: Move) -> str:
        """The move in the game's notation."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Notation to move; raises NotationError.  Does not check legality."""

    @abstractmethod
    def position(self) -> str:
        """The position string (round-trips through ``setup``)."""

    @abstractmethod
    def evaluate(self, player: Player) -> float:
        """Heuristic value for ``player``, roughly in [-1, 1], for bots."""

    # ----- shared bookkeeping ------------------------------------------------
    @property
    def ply(self) -> int:
        return len(self.move_stack)

    def is_over(self) -> bool:
        return self.outcome() is not None

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def push(self, move: Move) -> None:
        """Apply a move after checking it; raises IllegalMoveError."""
        if self.is_over():
            raise IllegalMoveError("the game is over")
        if not self.is_legal(move):
            raise IllegalMoveError(f"{self.move_text(move)} is illegal: {self.explain_illegal(move)}")
        self.push_unchecked(move)

    def push_unchecked(self, move: Move) -> None:
        """Apply a move already known to be legal (bots' hot path)."""
        self._apply(move)
        self.move_stack.append(move)

    def pop(self) -> Move:
        move = self.move_stack.pop()
        self._unapply(move)
        return move

    def push_text(self, text: str) -> Move:
        """Parse and push; the error says which of the two went wrong."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def explain_illegal(self, move: Move) -> str:
        """Why ``move`` is illegal, in words; games may refine this."""
        if self.is_over():
            return "the game is over"
        return "it is not a legal move in this position"

    def copy(self) -> "Game":
        """An independent game with the same start, history and state."""
        clone = type(self)(self.options, self.seed, self.setup)
        for move in self.move_stack:
            clone.push_unchecked(move)
        return clone

    def stable_hash(self) -> int:
        """A hash of the position that is the same on every machine."""
        return zlib.crc32(f"{self.game_id}|{self.position()}".encode())

    def sorted_legal_texts(self) -> list[str]:
        return sorted(self.move_text(m) for m in self.legal_moves())


def validate_setup_rows(rows: Sequence[str], width: int, alphabet: str) -> None:
    """Shared check for the row-based position strings every game uses."""
    for index, row in enumerate(rows):
        if len(row) != width:
            raise PositionError(f"row {index + 1} of the position has {len(row)} cells, expected {width}")
        bad = set(row) - set(alphabet)
        if bad:
            raise PositionError(f"row {index + 1} of the position has unknown characters {''.join(sorted(bad))!r}")
