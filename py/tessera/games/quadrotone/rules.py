"""Quadrotone: two players place and rearrange 2x2-coloured chips to build patterns.

The rules are the seed document's section 2 and RULINGS.md "Quadrotone";
this module is the game state and its moves (``notation`` writes them):

- the seeded, equivalent deal (``chips.deal``) and the seeded first player;
- moves of two kinds, 1 to 8 chips: placing chips from the hand on empty
  large squares (turned as the player likes), or moving, swapping and
  turning chips already on the field (anyone's);
- each kind and size has a per-player limit for the game (2.6);
- a move may not change the colour of more than half of the small squares
  that the opponent's previous move left its chips on (2.18, "reversal");
- patterns are scored by ``patterns`` around the chips the move involved;
- a player with no move left is passed over; the game ends when neither
  has one, or when one leads by 8000 points.

Time (2.7): the clock plays ``expired`` for a turn whose time ran out
between two people (``on_time_expired``); four in a row end the game.
Chains and fences (2.19-2.20, options, default on) are read by ``regions``.  Undo is exact and costs the same at any length:
each move keeps only what it changed.

The full move set cannot be listed (a move of up to eight chips from a
hand of 128): ``lists_every_move`` is False, ``legal_moves()`` lists the
one-chip moves, and ``is_legal`` decides any move directly.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...core.game import Game, NotationError, OptionSpec, Outcome
from ...i18n import Message
from ...core.rng import SeededRandom
from .chips import CLASSES, DEALS, EXCHANGE, chip_text, deal, rotate, squares
from .field import INDEX_OF, SMALL_OF, SQUARES, paint, square_name
from .notation import (ARRANGE, EXPIRED, EXPIRED_KIND, MAX_CHIPS, PLACE, Move, fewest_turns, make_arrange,
                       make_place, parse_items)
from .notation import move_text as write_move
from .patterns import Scored, find, score
from .regions import Chain, Fence, score_regions

from .limits import LEAD_TO_WIN, largest_now, limit_tables
from .sampler import random_move as draw_random_move

EXPIRIES_TO_END = 4
"""Four turns in a row that run out of time end the game; the points decide."""
DRAW_OFFER_EVERY = 600.0
"""2.8: a player may offer a draw at most once every 10 minutes."""
from . import position as position_string


class Quadrotone(Game):
    game_id: ClassVar[str] = "quadrotone"
    num_players: ClassVar[int] = 2
    seat_names: ClassVar[tuple[str, ...]] = ("first", "second")
    lists_every_move: ClassVar[bool] = False
    draw_offer_every: ClassVar[float] = DRAW_OFFER_EVERY
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("variant", "normal", ("normal", "reverse")),
        OptionSpec("rotated_patterns", True),
        OptionSpec("chains", True),
        OptionSpec("fences", True),
        OptionSpec("deal", CLASSES, DEALS, shown=False),
    )

    @classmethod
    def stored_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """A record that does not name its deal was dealt by the colour
        exchange used before RULINGS.md ruled the deal (``chips``)."""
        return options if "deal" in options else {**options, "deal": EXCHANGE}

    # ----- state ------------------------------------------------------------------
    def _init_state(self, setup: str | None) -> None:
        self.field = bytearray(32 * 32)
        self.chip_on: list[tuple[int, int] | None] = [None] * SQUARES
        """(chip, turns) on each large square."""
        hands, first = deal(self.seed, self.options["deal"])
        self.hands = [set(hands[0]), set(hands[1])]
        self.limits = limit_tables(self.options["variant"])
        """(placing, arranging) limits per size for this variant."""
        self._to_move = first
        self.first_player = first
        self.points = [0, 0]
        self.used = [[[0] * (MAX_CHIPS + 1) for _ in (PLACE, ARRANGE)] for _ in range(2)]
        """used[player][kind][size]: moves made of each kind and size."""
        self.scored_keys: set[tuple[int, int, int, int]] = set()
        """Every occurrence used up (2.14): those that scored and those 2.15 dropped."""
        self.last_scored: list[Scored] = []
        self.last_touch: tuple[tuple[int, int], ...] = ()
        """(field index, colour) of the squares the last move left its chips on."""
        self.last_mover: int | None = None
        self.last_squares: tuple[int, ...] = ()
        """The large squares the last move left its chips on."""
        self.expiries_in_row = 0
        self.chain_keys: set[tuple[int, int]] = set()
        """(colour, field index) of every square in a chain that scored (2.19's memory)."""
        self.fenced_cells: set[int] = set()
        """Field indices fenced by a move that scored (2.20's memory)."""
        self.last_regions: tuple[list[Chain], Fence | None] = ([], None)
        """The last move's chains and fence, for the board to highlight."""
        """Turns in a row, of either player, that ran out of time (four end the game)."""
        self._undo: list[tuple[Any, ...]] = []
        self._has_move: dict[int, bool] = {}
        if setup is not None:
            position_string.read(self, setup)
        elif self.options["variant"] == "reverse":
            self._cover_field()

    def _cover_field(self) -> None:
        """Section 3: all 256 chips cover the field at random (seeded), each at a random turn."""
        rng = SeededRandom(self.seed * 40_503 + 11)
        chips = list(range(SQUARES))
        rng.shuffle(chips)
        for square, chip in enumerate(chips):
            self.put(square, chip, fewest_turns(chip, rng.below(4)))

    def moves_made(self, player: int) -> int:
        return sum(self.used[player][0]) + sum(self.used[player][1])

    def copy(self) -> "Quadrotone":
        """An independent game with the same state and history, made without
        replaying the moves (a bot asks for a copy every turn)."""
        clone = object.__new__(Quadrotone)
        clone.options = dict(self.options)
        clone.seed, clone.setup = self.seed, self.setup
        clone.move_stack = list(self.move_stack)
        clone.field = bytearray(self.field)
        clone.chip_on = list(self.chip_on)
        clone.first_player = self.first_player
        clone.hands = [set(self.hands[0]), set(self.hands[1])]
        clone.limits = self.limits
        clone._to_move = self._to_move
        clone.points = list(self.points)
        clone.used = [[list(kind) for kind in player] for player in self.used]
        clone.scored_keys = set(self.scored_keys)
        clone.last_scored = list(self.last_scored)
        clone.last_touch, clone.last_mover, clone.last_squares = self.last_touch, self.last_mover, self.last_squares
        clone.expiries_in_row = self.expiries_in_row
        clone.chain_keys = set(self.chain_keys)
        clone.fenced_cells = set(self.fenced_cells)
        clone.last_regions = self.last_regions
        clone._undo = list(self._undo)   # its records are never changed once made
        clone._has_move = dict(self._has_move)
        return clone

    def put(self, square: int, chip: int, turns: int) -> None:
        """Lay ``chip`` on ``square`` out of whichever hand holds it (setting up a position)."""
        for hand in self.hands:
            hand.discard(chip)
        self.chip_on[square] = (chip, turns)
        paint(self.field, square, chip, turns)
        self._has_move = {}

    def set_last(self, mover: int, squares: tuple[int, ...]) -> None:
        """Remember the last move (for the reversal rule) as its chips lie now."""
        self.last_mover = mover
        self.last_squares = squares
        self.last_touch = tuple((index, self.field[index]) for square in squares for index in INDEX_OF[square])

    @property
    def to_move(self) -> int:
        return self._to_move

    def scores(self) -> tuple[int, int]:
        return self.points[0], self.points[1]

    def limits_left(self, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(placing, arranging): moves left of each size 1-8."""
        used = self.used[player]
        largest = largest_now(self.options["variant"], self.moves_made(player))
        placing, arranging = self.limits
        return (tuple(placing[k] - used[0][k] if k <= largest else 0 for k in range(1, MAX_CHIPS + 1)),
                tuple(arranging[k] - used[1][k] if k <= largest else 0 for k in range(1, MAX_CHIPS + 1)))

    def chip_at(self, square: int) -> int | None:
        found = self.chip_on[square]
        return None if found is None else rotate(found[0], found[1])

    # ----- moves -------------------------------------------------------------------
    def check(self, move: Any) -> Message | None:
        """Why ``move`` is illegal now, or None if it is legal."""
        if self.is_over():
            return Message("illegal.over")
        if move == EXPIRED:
            return None
        if not (isinstance(move, tuple) and len(move) == 2 and move[0] in (PLACE, ARRANGE)
                and isinstance(move[1], tuple) and 1 <= len(move[1]) <= MAX_CHIPS):
            return Message("illegal.generic")
        kind, items = move
        size = len(items)
        player = self._to_move
        limits = self.limits[0 if kind == PLACE else 1]
        if kind == PLACE and self.options["variant"] == "reverse":
            return Message("illegal.quadrotone.reverse_no_placing")
        largest = largest_now(self.options["variant"], self.moves_made(player))
        if size > largest:
            return Message("illegal.quadrotone.ramp", count=size, limit=largest)
        if self.used[player][0 if kind == PLACE else 1][size] >= limits[size]:
            key = "illegal.quadrotone.place_limit" if kind == PLACE else "illegal.quadrotone.arrange_limit"
            return Message(key, count=size, limit=limits[size])
        if kind == PLACE:
            squares = [square for _, _, square in items]
            chips = [chip for chip, _, _ in items]
            if len(set(squares)) != size or len(set(chips)) != size:
                return Message("illegal.quadrotone.twice")
            for chip, turns, square in items:
                if chip not in self.hands[player]:
                    return Message("illegal.quadrotone.not_in_hand", chip=chip_text(chip))
                if self.chip_on[square] is not None:
                    return Message("illegal.quadrotone.taken", square=square_name(square))
            return None
        starts = [start for start, _, _ in items]
        ends = [end for _, end, _ in items]
        if len(set(starts)) != size or len(set(ends)) != size:
            return Message("illegal.quadrotone.twice")
        for start, end, turns in items:
            if self.chip_on[start] is None:
                return Message("illegal.quadrotone.no_chip")
            if self.chip_on[end] is not None and end not in starts:
                return Message("illegal.quadrotone.target_taken")
            if start == end and fewest_turns(self.chip_at(start), turns) == 0:
                return Message("illegal.quadrotone.changes_nothing")
        if self._reverses(move):
            return Message("illegal.quadrotone.reversal")
        return None

    def _after_arrange(self, items: tuple[tuple[int, int, int], ...]) -> dict[int, int | None]:
        """Large square -> the oriented chip on it after the arrangement (changed squares only)."""
        result: dict[int, int | None] = {start: None for start, _, _ in items}
        for start, end, turns in items:
            result[end] = rotate(self.chip_at(start), turns)
        return result

    def _reverses(self, move: Move) -> bool:
        """2.18: would the move change more than half of the squares the
        opponent's previous move left its chips on?"""
        if not self.last_touch or self.last_mover == self._to_move:
            return False
        after = self._after_arrange(move[1])
        changed = 0
        for index, colour in self.last_touch:
            square = SQUARE_OF[index]
            if square in after:
                chip = after[square]
                now = 0 if chip is None else _colour_in(chip, index, square)
                if now != colour:
                    changed += 1
        return 2 * changed > len(self.last_touch)

    def preview_points(self, move: Any) -> int | None:
        """What ``move`` would score now (None if it is illegal); the game is left as it was."""
        if self.check(move) is not None:
            return None
        player = self._to_move
        before = self.points[player]
        self.push_unchecked(move)
        gained = self.points[player] - before
        self.pop()
        return gained

    def is_legal(self, move: Any) -> bool:
        return self.check(move) is None

    def illegal_reason(self, move: Any) -> Message:
        return self.check(move) or Message("illegal.generic")

    def random_move(self, rng: Any) -> Move | None:
        """A move of any kind and size drawn at random (``sampler``): the
        listed one-chip moves alone would leave a player whose one-chip
        limits are spent with no move."""
        return None if self.is_over() else draw_random_move(self, rng)

    def legal_moves(self) -> list[Move]:
        """The one-chip moves (see the module docstring); empty once over."""
        if self.is_over():
            return []
        player = self._to_move
        moves: list[Move] = []
        empty = [s for s in range(SQUARES) if self.chip_on[s] is None]
        placing, arranging = self.limits_left(player)
        if placing[0] > 0:
            for chip in sorted(self.hands[player]):
                looks = sorted({fewest_turns(chip, t) for t in range(4)})
                moves.extend((PLACE, ((chip, turns, square),)) for turns in looks for square in empty)
        if arranging[0] > 0:
            for start in range(SQUARES):
                if self.chip_on[start] is None:
                    continue
                chip = self.chip_at(start)
                for end in [start] + empty:
                    for turns in sorted({fewest_turns(chip, t) for t in range(4)}):
                        if end == start and turns == 0:
                            continue
                        move = (ARRANGE, ((start, end, turns),))
                        if not self._reverses(move):
                            moves.append(move)
        return moves

    def has_move(self, player: int) -> bool:
        """Whether ``player`` could move here (cached per position)."""
        cached = self._has_move.get(player)
        if cached is None:
            cached = self._has_move[player] = self._could_move(player)
        return cached

    def _could_move(self, player: int) -> bool:
        empty = sum(1 for s in self.chip_on if s is None)
        placing, arranging = self.limits_left(player)
        if self.hands[player] and empty and any(left > 0 and size <= min(len(self.hands[player]), empty)
                                                for size, left in enumerate(placing, 1)):
            return True
        on_field = SQUARES - empty
        if not on_field or not any(left > 0 and size <= on_field for size, left in enumerate(arranging, 1)):
            return False
        saved = self._to_move
        self._to_move = player
        try:
            for start in range(SQUARES):
                if self.chip_on[start] is None:
                    continue
                chip = self.chip_at(start)
                size = next((k for k, left in enumerate(arranging, 1) if left > 0), None)
                if size != 1:
                    return True   # a bigger arrangement is allowed; some pair or more always changes something
                for turns in (1, 2, 3):
                    if fewest_turns(chip, turns) and not self._reverses((ARRANGE, ((start, start, turns),))):
                        return True
                if empty and not self._reverses((ARRANGE, ((start, self.chip_on.index(None), 0),))):
                    return True
            return False
        finally:
            self._to_move = saved

    def _apply(self, move: Move) -> None:  # type: ignore[override]
        kind, items = move
        player = self._to_move
        if kind == EXPIRED_KIND:
            self._undo.append((player, self.expiries_in_row, self._has_move))
            self.expiries_in_row += 1
            self.last_scored = []
            self._has_move = {}
            other = 1 - player
            self._to_move = other if self.has_move(other) else player
            return
        changed: list[tuple[int, tuple[int, int] | None]] = []
        involved: list[int] = []
        if kind == PLACE:
            for chip, turns, square in items:
                changed.append((square, self.chip_on[square]))
                self.chip_on[square] = (chip, turns)
                self.hands[player].discard(chip)
                paint(self.field, square, chip, turns)
                involved.append(square)
        else:
            moving = {start: self.chip_on[start] for start, _, _ in items}
            for start, end, _ in items:
                changed.append((start, self.chip_on[start]))
                if end not in moving:
                    changed.append((end, self.chip_on[end]))
            for start in moving:
                self.chip_on[start] = None
                paint(self.field, start, None)
            for start, end, turns in items:
                chip, old_turns = moving[start]  # type: ignore[misc]
                self.chip_on[end] = (chip, (old_turns + turns) % 4)
                paint(self.field, end, chip, (old_turns + turns) % 4)
                involved.append(end)
        touched = [cell for square in involved for cell in SMALL_OF[square]]
        scoring = score(find(self.field, touched, self.options["rotated_patterns"]), self.scored_keys)
        scored = scoring.scored
        gained = sum(s.points for s in scored)
        added = scoring.used_keys()
        self.scored_keys.update(added)
        indices = [index for square in involved for index in INDEX_OF[square]]
        found, fence = score_regions(self.field, indices, self.chain_keys, self.fenced_cells,
                                     self.options["chains"], self.options["fences"])
        gained += sum(chain.points for chain in found) + (fence.points if fence is not None else 0)
        new_keys = set().union(*(chain.keys() for chain in found)) - self.chain_keys
        new_cells = set(fence.cells) - self.fenced_cells if fence is not None else set()
        self.chain_keys |= new_keys
        self.fenced_cells |= new_cells
        self._undo.append((player, changed, gained, added, self.last_touch, self.last_mover, self.last_squares,
                           self.last_scored, self._has_move, self.expiries_in_row, new_keys, new_cells,
                           self.last_regions))
        self.last_regions = (found, fence)
        self.points[player] += gained
        self.used[player][0 if kind == PLACE else 1][len(items)] += 1
        self.last_scored = scored
        self.set_last(player, tuple(involved))
        self.expiries_in_row = 0
        self._has_move = {}
        other = 1 - player
        self._to_move = other if self.has_move(other) else player

    def _unapply(self, move: Move) -> None:  # type: ignore[override]
        kind, items = move
        if kind == EXPIRED_KIND:
            player, self.expiries_in_row, self._has_move = self._undo.pop()
            self._to_move = player
            return
        (player, changed, gained, added, self.last_touch, self.last_mover, self.last_squares,
         self.last_scored, self._has_move, self.expiries_in_row, new_keys, new_cells,
         self.last_regions) = self._undo.pop()
        self.chain_keys -= new_keys
        self.fenced_cells -= new_cells
        for square, previous in reversed(changed):
            self.chip_on[square] = previous
            if previous is None:
                paint(self.field, square, None)
            else:
                paint(self.field, square, previous[0], previous[1])
        if kind == PLACE:
            for chip, _, _ in items:
                self.hands[player].add(chip)
        self.points[player] -= gained
        self.used[player][0 if kind == PLACE else 1][len(items)] -= 1
        self.scored_keys.difference_update(added)
        self._to_move = player

    # ----- results -----------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        first, second = self.points
        if abs(first - second) >= LEAD_TO_WIN:
            return Outcome(0 if first > second else 1, "lead")
        if self.expiries_in_row >= EXPIRIES_TO_END:
            return Outcome(None if first == second else (0 if first > second else 1), "expiries")
        if self.has_move(self._to_move):
            return None
        if first == second:
            return Outcome(None, "limits")
        return Outcome(0 if first > second else 1, "limits")

    def evaluate(self, player: int) -> float:
        diff = self.points[player] - self.points[1 - player]
        return max(-1.0, min(1.0, diff / LEAD_TO_WIN))

    # ----- notation ----------------------------------------------------------------
    def move_text(self, move: Any) -> str:
        return write_move(move)

    def parse_move(self, text: str) -> Move:  # type: ignore[override]
        kind, items = parse_items(text)
        if kind == EXPIRED_KIND:
            return EXPIRED
        if kind == PLACE:
            return make_place(items)
        return make_arrange(items, self.chip_at)

    def parse_typed(self, text: str) -> Move:  # type: ignore[override]
        """Also with spaces: ``RRGB @ d5, e7 - d5``; never ``expired`` (only the clock plays that)."""
        if isinstance(text, str) and len(text) <= 400:
            compact = "".join(text.split())
            if compact == EXPIRED_KIND:
                raise NotationError("error.quadrotone.expired_typed")
            if compact:
                return self.parse_move(compact)
        return super().parse_typed(text)

    def move_example(self, seat: int | None = None) -> str:
        """A chip of the side's own hand laid on h8 (a chip the other holds would be refused)."""
        hand = self.hands[self.to_move if seat is None else seat]
        return f"{chip_text(min(hand)) if hand else 'RRGB'}@h8"

    def position(self) -> str:
        """The position string (``position`` module); ``setup`` reads it back."""
        return position_string.write(self)

    def on_time_expired(self, seat: int, hot_seat: bool) -> Move | Outcome:
        """2.7 as RULINGS.md rules it: between two people on one device an
        expired turn passes (``expired``); against the bot the human's
        expired turn resigns the game."""
        if not hot_seat:
            return Outcome(1 - seat, "resign")
        return EXPIRED

    def scores_at_end(self, outcome: Outcome) -> tuple[int, ...]:
        """RULINGS.md: after a resignation the winner is credited the larger
        of their own points and the loser's plus one; after an agreed draw
        both get the larger score."""
        first, second = self.points
        if outcome.reason == "resign" and outcome.winner is not None:
            loser = 1 - outcome.winner
            credited = [first, second]
            credited[outcome.winner] = max(credited[outcome.winner], credited[loser] + 1)
            return tuple(credited)
        if outcome.reason == "draw_agreed":
            return (max(first, second),) * 2
        return first, second


def _colour_in(chip: int, index: int, square: int) -> int:
    """The colour (1-4) ``chip`` gives field square ``index`` when it lies on ``square``."""
    return squares(chip)[INDEX_OF[square].index(index)] + 1


SQUARE_OF: dict[int, int] = {index: square for square in range(SQUARES) for index in INDEX_OF[square]}
"""Field index -> the large square it belongs to."""

