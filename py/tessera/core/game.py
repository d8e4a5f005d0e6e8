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

import re
import zlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Hashable, Mapping, Sequence, TypeAlias

from ..i18n import Message, MessageError, has

Move: TypeAlias = Hashable
Player: TypeAlias = int  # 0 = first seat, 1 = second seat


_REASON = re.compile(r"[a-z][a-z_]{0,31}")
"""An ending's reason is a catalog key part (``home_plate``), never free text."""
EXCERPT_CHARS = 32
"""How much of a bad input an error message quotes."""


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str | Message:
    """A short, escaped quotation of untrusted input for an error message.

    Messages are one line and must not carry megabytes of a bad file: text
    is cut to ``limit`` characters (an ellipsis says so) and ``repr`` escapes
    quotes, newlines and control characters.  Non-text values are named by
    type only, since their ``repr`` can be huge or slow (a deeply nested list,
    an int of 100,000 digits); that name is a ``Message`` (``value.list``),
    so it is worded in the player's language (``str()`` gives English).
    """
    if isinstance(value, str):
        if len(value) > limit:
            return repr(value[:limit]) + "…"
        return repr(value)
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 64:
            return Message("value.large_number")
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    kind = type(value).__name__
    return Message(f"value.{kind}") if kind in VALUE_KINDS else Message("value.of_type", type=kind)


VALUE_KINDS = ("list", "dict", "tuple")
"""Types of parsed input named in words (``value.<kind>``); others by type name."""


class GameError(MessageError, ValueError):
    """Base of every error a game raises on bad input: a catalog key and its
    values (see ``tessera.i18n``); ``str()`` is the English text."""


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
            raise PositionError("error.result.not_object")
        winner = data.get("winner")
        reason = data.get("reason")
        if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool) or winner not in (0, 1)):
            raise PositionError("error.result.winner", value=excerpt(winner))
        if not isinstance(reason, str) or not _REASON.fullmatch(reason):
            raise PositionError("error.result.reason")
        return cls(winner, reason)


@dataclass(frozen=True)
class CustomValue:
    """A free option value made of whole numbers, beside an option's presets.

    A Dots field size is one: ``"12x14"`` has the parts width and height,
    each from ``low`` to ``high``, joined by ``separator``.  The new-game
    dialog shows one number input per part (labels
    ``option.<game>.<key>.<part>``), and records may hold any such value.
    Each part's length is checked before it is converted, so ``"999999x5"``
    or a 5000-digit number is refused with a message, never a crash.
    """

    parts: tuple[str, ...]
    low: int
    high: int
    separator: str = "x"

    def describe(self) -> Message:
        """The form for error messages: ``WIDTHxHEIGHT, each from 5 to 52``.

        A part is worded by the catalog's ``value.part.<part>`` (``WIDTH``,
        ``ШИРИНА``) when it has one, else written as its name in capitals.
        """
        form: list[Any] = []
        for index, part in enumerate(self.parts):
            if index:
                form.append(self.separator)
            form.append(Message(f"value.part.{part}") if has(f"value.part.{part}") else part.upper())
        return Message("error.option.custom_form", form=tuple(form), low=self.low, high=self.high)

    def parse(self, text: Any) -> tuple[int, ...]:
        """The numbers of ``text``; raises PositionError naming the form."""
        pieces = text.split(self.separator) if isinstance(text, str) else []
        digits = len(str(self.high))
        if (len(pieces) != len(self.parts)
                or not all(0 < len(p) <= digits and p.isascii() and p.isdigit() for p in pieces)):
            raise PositionError("error.option.not_custom", value=excerpt(text), form=self.describe())
        numbers = tuple(int(p) for p in pieces)
        if not all(self.low <= n <= self.high for n in numbers):
            raise PositionError("error.option.out_of_range", value=excerpt(text), form=self.describe())
        return numbers

    def format(self, numbers: Sequence[int]) -> str:
        return self.separator.join(str(int(n)) for n in numbers)


@dataclass(frozen=True)
class OptionSpec:
    """One new-game option: its key, default, and allowed values.

    The new-game dialog and record validation are both driven by these, so
    an option is declared once.  ``choices`` of ``None`` means a boolean.
    ``custom`` (optional) also allows values of that form besides the
    choices, which stay the dialog's presets; a custom value is kept in its
    canonical text (``"07x09"`` becomes ``"7x9"``).
    """

    key: str
    default: Any
    choices: tuple[Any, ...] | None = None
    custom: CustomValue | None = None
    shown: bool = True
    """False for an option no player chooses: it only names how a record
    made before a rules ruling was played (Quadrotone's old deal)."""

    def validate(self, value: Any) -> Any:
        if self.choices is None:
            if not isinstance(value, bool):
                raise PositionError("error.option.not_bool", option=self.key, value=excerpt(value))
            return value
        for choice in self.choices:   # by type, not equality: 5.0 == 5 and True == 1, yet neither is 5 or 1
            if type(choice) is type(value) and choice == value:
                return choice
        allowed = ", ".join(str(c) for c in self.choices)
        if self.custom is None:
            raise PositionError("error.option.not_choice", option=self.key, allowed=allowed, value=excerpt(value))
        try:
            return self.custom.format(self.custom.parse(value))
        except PositionError:
            raise PositionError("error.option.not_choice_or_custom", option=self.key, allowed=allowed,
                                form=self.custom.describe(), value=excerpt(value)) from None


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
    draw_offer_every: ClassVar[float] = 0.0
    """Seconds a player must wait between two draw offers (0: no limit);
    Quadrotone's document allows one offer every 10 minutes."""
    lists_every_move: ClassVar[bool] = True
    """False when the moves are too many to list (Quadrotone: up to eight
    chips a move): ``legal_moves()`` then lists only the simplest ones,
    ``is_legal`` decides any move, and move counts (perft) mean nothing."""

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
            raise PositionError("error.options.not_object")
        specs = {spec.key: spec for spec in cls.option_specs}
        for key, value in options.items():
            if key not in specs:
                raise PositionError("error.options.unknown", option=excerpt(key))
            result[key] = specs[key].validate(value)
        return result

    @classmethod
    def stored_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """The options of a record read back from JSON, as this version reads them.

        When a ruling changes how a game starts (Quadrotone's deal), new
        records name the new way in a hidden option and a record without it
        was played the old way: a game overrides this to say so, so every
        record ever written replays as it was played."""
        return options

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

    def random_move(self, rng: Any) -> Move | None:
        """A legal move drawn with ``rng`` (a ``core.rng.SeededRandom``), None
        once the game is over: one of ``legal_moves()``; a game that cannot
        list its moves (``lists_every_move``) draws from all of them its own way."""
        moves = self.legal_moves()
        return rng.choice(moves) if moves else None

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

    def scores_at_end(self, outcome: Outcome) -> tuple[int, ...]:
        """The points a finished game credits (Quadrotone changes them after
        a resignation or an agreed draw); by default the scores as they stand."""
        return self.scores()

    @abstractmethod
    def move_text(self, move: Move) -> str:
        """The move in the game's notation."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Notation to move; raises NotationError.  Does not check legality."""

    def parse_typed(self, text: str) -> Move:
        """What a player typed in the move box to a move; raises NotationError.

        Records keep the strict notation of ``parse_move``; people type
        moves in many ways (capitals, spaces, other dashes), so a game
        normalizes what it can read unambiguously here first.
        """
        return self.parse_move(text.strip() if isinstance(text, str) else text)

    def move_example(self, seat: Player | None = None) -> str:
        """A move in this game's notation that fits these options (a field's
        size) and, where sides differ, ``seat``'s side (the side to move when
        None), for the move box's placeholder and its error messages: the
        player of Black is not shown a move of White's."""
        moves = self.legal_moves()
        return self.move_text(moves[0]) if moves else ""

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

    def undo_floor(self) -> int:
        """The earliest ply a player's undo may go back to (Abatis: the start
        of the current level); records and history views are not limited."""
        return 0

    def push(self, move: Move) -> None:
        """Apply a move after checking it; raises IllegalMoveError."""
        if self.is_over():
            raise IllegalMoveError("illegal.over")
        if not self.is_legal(move):
            raise IllegalMoveError("error.move.illegal", move=self.move_text(move), reason=self.illegal_reason(move))
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

    def illegal_reason(self, move: Move) -> Message:
        """Why ``move`` is illegal, as a catalog message; games refine this."""
        if self.is_over():
            return Message("illegal.over")
        return Message("illegal.generic")

    def explain_illegal(self, move: Move) -> str:
        """Why ``move`` is illegal, in English words (``illegal_reason``'s text)."""
        return str(self.illegal_reason(move))

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
            raise PositionError("error.position.row_length", row=index + 1, count=len(row), width=width)
        bad = set(row) - set(alphabet)
        if bad:
            raise PositionError("error.position.row_characters", row=index + 1, chars=excerpt("".join(sorted(bad))))
