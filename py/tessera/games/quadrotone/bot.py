"""The Quadrotone bot: sampled candidates scored by playing them.

Quadrotone's moves cannot be listed (up to eight chips from a hand of 128),
so the bot draws candidates and scores each by pushing it and reading the
mover's points (then popping it), which keeps it right whatever the rules
score (patterns today, chains and fences later):

1. one-chip moves: hand chips in each of their distinct looks on empty
   squares next to chips already down (those next to the last moves first,
   then the rest, then a few lone squares), and -- a share of the time, or
   always once the hand is empty -- turns, moves and swaps of chips near
   the last moves;
2. bigger moves built greedily from the best one-chip items: add the item
   that adds most points, for as long as it adds any, and keep the best
   move of each size whose per-game limit is not used up;
3. (``replies > 0``) the most promising moves are weighed against what
   they open: after each, the opponent's best answer among ``replies``
   sampled moves around it is subtracted, times ``reply_weight``.

``reserve`` makes the bot spend its limited multi-chip moves well: a move
of k chips must beat the best one-chip move by ``reserve`` x (k - 1) x the
points an average move of this bot has scored, so the 6-, 7- and 8-chip
moves wait for big payoffs; the bar falls to nothing as the field fills,
since unused limits are worth nothing once the field is full.

The search yields after every candidate and keeps its time in phases
(a share of ``movetime_ms`` each); with no time limit the counts
(``singles``, ``pool``, ``replies``, ``finalists``) bound it.

``read_ahead`` (0: off) is what the bot does on the opponent's time
(``bots.ponder``): a guess of the reply among so many moves is almost
never right, but most of the field stays as it was whatever the reply.
So the bot scores up to ``read_ahead`` of its own one-chip moves on the
position before the reply (the opponent passed over), and its next search
starts from those the reply left alone -- none within ``STALE_RADIUS``
large squares of a square the reply changed -- then draws its own as
usual.  A kept score is only an estimate (a chain or fence may reach
further): the moves that may be played are scored again exactly.
"""

from __future__ import annotations

from typing import Any, Callable, Generator, Iterator

from ...bots.base import Bot, Search
from ...bots.clock import Budget
from ...core.rng import SeededRandom
from .chips import rotate, squares
from .field import LARGE, SQUARES
from .patterns import colour_at
from .notation import ARRANGE, EXPIRED, MAX_CHIPS, PLACE, Move, fewest_turns, make_arrange, make_place
from .rules import Quadrotone
from .sampler import random_move

Item = tuple[int, int, int]
"""One chip of a move: (chip, turns, square) to place, or (from, to, turns) to arrange."""


def _neighbours(square: int) -> tuple[int, ...]:
    col, row = square % LARGE, square // LARGE
    return tuple((row + dr) * LARGE + col + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                 if (dr or dc) and 0 <= row + dr < LARGE and 0 <= col + dc < LARGE)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(SQUARES))
"""The up to eight large squares around each large square."""
CENTRE: tuple[int, ...] = tuple(r * LARGE + c for r in (6, 7, 8, 9) for c in (6, 7, 8, 9))
STALE_RADIUS = 2
"""A score read ahead is dropped when the reply changed a large square this
near (a pattern reaches about this far from the chip that finishes it)."""
KEPT_CANDIDATES = 200
"""The best scores read ahead that join a search's candidates."""


def looks(chip: int) -> tuple[int, ...]:
    """The turns (0-3) that give ``chip`` each of its distinct looks."""
    return tuple(sorted({fewest_turns(chip, t) for t in range(4)}))


def move_squares(move: Move) -> list[int]:
    """The large squares a move leaves its chips on."""
    return [item[2] if move[0] == PLACE else item[1] for item in move[1]]


def _move_touches(move: Move) -> tuple[int, ...]:
    """The large squares a move changes (an arrangement: where each chip starts and ends)."""
    if move[0] == PLACE:
        return tuple(item[2] for item in move[1])
    return tuple(square for item in move[1] for square in item[:2])


def _size_open(game: Quadrotone, player: int, kind: str, size: int) -> bool:
    placing, arranging = game.limits_left(player)
    return (placing if kind == PLACE else arranging)[size - 1] > 0


def _fits(items: list[Item], item: Item, kind: str) -> bool:
    """Whether ``item`` can join ``items`` in one move (no chip or square twice)."""
    if kind == PLACE:
        return all(item[0] != other[0] and item[2] != other[2] for other in items)
    return all(item[0] != other[0] and item[1] != other[1] and item[1] != other[0] and item[0] != other[1]
               for other in items)


class QuadrotoneBot(Bot):
    name = "quadrotone"
    param_names = ("singles", "arrange_share", "multi", "pool", "reserve", "replies", "reply_weight",
                   "finalists", "noise", "best_fit_squares", "best_fit_kinds", "read_ahead")

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, singles: int = 2000, arrange_share: float = 0.15,
                 multi: bool = True, pool: int = 16, reserve: float = 0.0, replies: int = 0,
                 reply_weight: float = 0.7, finalists: int = 10, noise: int = 0, best_fit_squares: int = 12,
                 best_fit_kinds: int = 16, read_ahead: int = 0, **params: Any) -> None:
        super().__init__(seed, movetime_ms, **params)
        if singles < 1 or pool < 1 or finalists < 1 or replies < 0 or reserve < 0 or noise < 0 or read_ahead < 0:
            raise ValueError("singles, pool and finalists at least 1; replies, reserve, noise and read_ahead "
                             "at least 0")
        if not 0 <= arrange_share <= 1:
            raise ValueError("arrange_share is between 0 and 1")
        self.singles = singles
        self.arrange_share = arrange_share
        self.multi = multi
        self.pool = pool
        self.reserve = reserve
        self.replies = replies
        self.reply_weight = reply_weight
        self.finalists = finalists
        self.noise = noise
        self.best_fit_squares = best_fit_squares
        self.best_fit_kinds = best_fit_kinds
        self.read_ahead_count = read_ahead
        self.ahead: tuple[list[Move], int, dict[Move, int]] | None = None
        """(the moves before the reply, the bot's seat, one-chip move -> points) read on the opponent's time."""
        self.rng = SeededRandom(seed)
        self.nodes = 0
        self.scored_moves = 0
        self.scored_total = 0
        """Points this bot's own moves scored so far, for the ``reserve`` bar."""

    # ----- playing a candidate -------------------------------------------------------
    def _gain(self, game: Quadrotone, move: Move, player: int) -> int:
        """Points ``player`` scores with ``move``; the move must be sound
        (chips in hand, squares free) but may exceed a size limit."""
        before = game.points[player]
        game.push_unchecked(move)
        gain = game.points[player] - before
        game.pop()
        self.nodes += 1
        return gain

    # ----- the search ---------------------------------------------------------------
    def search(self, game: Quadrotone) -> Search:  # type: ignore[override]
        budget = Budget(self.movetime_ms, clock=self.clock)
        span = budget.deadline - budget.started

        def phase_over(share: float) -> bool:
            return budget.clock() >= budget.started + share * span

        player = game.to_move
        recent = self._recent_zone(game)
        singles: dict[str, list[tuple[int, Item]]] = {PLACE: [], ARRANGE: []}
        best: list[tuple[int, Move]] = []   # (gain, legal move)
        kept = self._kept_scores(game, player)
        estimated: set[Move] = set()
        for gain, move in sorted(((gain, move) for move, gain in kept.items()), reverse=True)[:KEPT_CANDIDATES]:
            self._add_candidate(game, gain, move, singles, best)
            estimated.add(move)
            yield   # each checks the move's legality
        first_phase = 0.45 if self.replies else 0.7
        for count, move in enumerate(self._one_chip_moves(game, player, recent)):
            if count >= self.singles or (count and phase_over(first_phase)):
                break
            if move in kept:
                continue
            self._add_candidate(game, self._gain(game, move, player), move, singles, best)
            yield
        if self.multi:
            grow_phase = 0.6 if self.replies else 0.95
            for kind in (PLACE, ARRANGE):
                grown = yield from self._grown(game, player, kind, singles[kind], lambda: phase_over(grow_phase))
                best.extend((gain - self._reserve_bar(game, player, len(move[1])), move) for gain, move in grown)
        if not best:
            return random_move(game, self.rng)
        best.sort(key=lambda pair: (-pair[0], len(pair[1][1])))
        if estimated:
            best = self._rescored(game, player, best, estimated)
        if self.noise:
            near = [move for gain, move in best[:self.noise]]
            chosen = near[self.rng.below(len(near))]
        elif self.replies:
            chosen = yield from self._weigh_replies(game, player, best, phase_over)
        else:
            chosen = best[0][1]
        self._remember(game, chosen, player)
        return chosen

    @staticmethod
    def _add_candidate(game: Quadrotone, gain: int, move: Move, singles: dict[str, list[tuple[int, Item]]],
                       best: list[tuple[int, Move]]) -> None:
        if len(move[1]) == 1:   # a swap is no unit to grow from
            singles[move[0]].append((gain, move[1][0]))
        if game.check(move) is None:
            best.append((gain, move))

    def _rescored(self, game: Quadrotone, player: int, best: list[tuple[int, Move]],
                  estimated: set[Move]) -> list[tuple[int, Move]]:
        """``best`` (sorted) with the scores read ahead among the moves that
        may be played scored again exactly, and sorted again."""
        reach = max(self.noise, self.finalists if self.replies else 1)
        while True:
            top = [(index, move) for index, (_, move) in enumerate(best[:reach]) if move in estimated]
            if not top:
                return best
            for index, move in top:
                best[index] = (self._gain(game, move, player), move)
                estimated.discard(move)
            best.sort(key=lambda pair: (-pair[0], len(pair[1][1])))

    # ----- reading on the opponent's time ---------------------------------------------
    def read_ahead(self, game: Quadrotone) -> Search | None:  # type: ignore[override]
        if not self.read_ahead_count or game.is_over():
            return None
        return self._read_ahead(game)

    def _read_ahead(self, game: Quadrotone) -> Generator[None, None, None]:
        """Score one-chip moves of the bot's own as if the opponent passed."""
        player = 1 - game.to_move
        scores: dict[Move, int] = {}
        self.ahead = (list(game.move_stack), player, scores)
        game.push_unchecked(EXPIRED)
        if game.to_move != player or game.is_over():
            return
        for count, move in enumerate(self._one_chip_moves(game, player, self._recent_zone(game))):
            if count >= self.read_ahead_count:
                break
            scores[move] = self._gain(game, move, player)
            yield

    def _kept_scores(self, game: Quadrotone, player: int) -> dict[Move, int]:
        """The scores read ahead that the reply left alone, if ``game`` is the
        position they were read for after one reply (else none)."""
        ahead, self.ahead = self.ahead, None
        if ahead is None:
            return {}
        stack, seat, scores = ahead
        if seat != player or len(game.move_stack) != len(stack) + 1 or game.move_stack[:-1] != stack:
            return {}
        stale = set(_move_touches(game.move_stack[-1]))
        for _ in range(STALE_RADIUS):
            stale.update(near for square in list(stale) for near in NEIGHBOURS[square])
        return {move: gain for move, gain in scores.items() if not stale.intersection(_move_touches(move))}

    def _remember(self, game: Quadrotone, move: Move, player: int) -> None:
        self.scored_moves += 1
        self.scored_total += self._gain(game, move, player)

    def _reserve_bar(self, game: Quadrotone, player: int, size: int) -> float:
        """What a ``size``-chip move must score beyond the best one-chip move."""
        if size == 1 or not self.reserve:
            return 0.0
        average = self.scored_total / self.scored_moves if self.scored_moves else 10.0
        empty = sum(1 for chip in game.chip_on if chip is None)
        plenty = min(1.0, max(0.0, (empty - 96) / 128))   # the field fills: unused limits are lost
        return self.reserve * (size - 1) * average * plenty

    # ----- candidates ------------------------------------------------------------------
    def _recent_zone(self, game: Quadrotone) -> set[int]:
        """Squares within two of the chips the last two moves left."""
        zone: set[int] = set()
        for move in game.move_stack[-2:]:
            for square in move_squares(move):
                zone.add(square)
                for near in NEIGHBOURS[square]:
                    zone.add(near)
                    zone.update(NEIGHBOURS[near])
        return zone

    def _one_chip_moves(self, game: Quadrotone, player: int, recent: set[int]) -> Iterator[Move]:
        """Sound one-chip moves, most promising first, none twice."""
        hand = sorted(game.hands[player])
        empty = [s for s in range(SQUARES) if game.chip_on[s] is None]
        occupied = [s for s in range(SQUARES) if game.chip_on[s] is not None]
        can_place = bool(hand and empty) and any(_size_open(game, player, PLACE, k) for k in range(1, MAX_CHIPS + 1))
        share = self.arrange_share if can_place else 1.0
        places = self._placements(game, hand, empty, occupied, recent) if can_place else iter(())
        arranges = self._arrangements(game, empty, occupied, recent) if occupied else iter(())
        while True:
            source = arranges if self.rng.random() < share else places
            move = next(source, None)
            if move is None:
                source = places if source is arranges else arranges
                move = next(source, None)
                if move is None:
                    return
            yield move

    def _placements(self, game: Quadrotone, hand: list[int], empty: list[int], occupied: list[int],
                    recent: set[int]) -> Iterator[Move]:
        kinds = [(chip, turns) for chip in hand for turns in looks(chip)]
        if occupied:
            frontier = [s for s in empty if any(game.chip_on[n] is not None for n in NEIGHBOURS[s])]
            near = [s for s in frontier if s in recent]
            rest = [s for s in frontier if s not in recent]
            lone = [s for s in empty if s not in frontier]
            self.rng.shuffle(near)
            self.rng.shuffle(rest)
            self.rng.shuffle(lone)
            order = near + rest + lone[:8]
        else:
            order = list(CENTRE)
        seen: set[Item] = set()
        colours = [squares(rotate(chip, turns)) for chip, turns in kinds]
        for square in order[:self.best_fit_squares]:
            for chip, turns in self._best_fits(game, kinds, colours, square):
                seen.add((chip, turns, square))
                yield PLACE, ((chip, turns, square),)
        per_square = 6
        for _ in range(len(kinds) // per_square + 2):
            for square in order:
                for _ in range(per_square):
                    chip, turns = kinds[self.rng.below(len(kinds))]
                    item = (chip, turns, square)
                    if item not in seen:
                        seen.add(item)
                        yield PLACE, (item,)

    def _best_fits(self, game: Quadrotone, kinds: list[tuple[int, int]], colours: list[tuple[int, ...]],
                   square: int) -> list[tuple[int, int]]:
        """The ``best_fit_kinds`` looks whose small squares match most of the
        colours beside them: patterns are same-colour groups, so these are
        the likeliest to finish one."""
        col, row = square % LARGE, square // LARGE
        x, y = 2 * col, 2 * row
        field = game.field
        beside = [(colour_at(field, x - 1, y + 1), colour_at(field, x, y + 2)),
                  (colour_at(field, x + 2, y + 1), colour_at(field, x + 1, y + 2)),
                  (colour_at(field, x + 2, y), colour_at(field, x + 1, y - 1)),
                  (colour_at(field, x - 1, y), colour_at(field, x, y - 1))]
        # field colours are 1-4 (0: empty), ``squares`` gives 0-3
        (a0, b0), (a1, b1), (a2, b2), (a3, b3) = [(a - 1, b - 1) for a, b in beside]
        ranked = []
        for index, (tl, tr, br, bl) in enumerate(colours):
            fit = (tl == a0) + (tl == b0) + (tr == a1) + (tr == b1) + (br == a2) + (br == b2) + (bl == a3) + (bl == b3)
            if fit:
                ranked.append((-fit, self.rng.below(1 << 20), index))
        ranked.sort()
        return [kinds[index] for _, _, index in ranked[:self.best_fit_kinds]]

    def _arrangements(self, game: Quadrotone, empty: list[int], occupied: list[int],
                      recent: set[int]) -> Iterator[Move]:
        """Turns in place, moves to free squares and swaps, near the last moves first."""
        near = [s for s in occupied if s in recent]
        rest = [s for s in occupied if s not in recent]
        self.rng.shuffle(near)
        self.rng.shuffle(rest)
        seen: set[tuple[Item, ...]] = set()
        for start in near + rest:
            chip = game.chip_at(start)
            options: list[tuple[Item, ...]] = [((start, start, t),) for t in looks(chip) if t]
            if empty:
                end = empty[self.rng.below(len(empty))]
                options.append(((start, end, self.rng.below(4)),))
            taken = [n for n in NEIGHBOURS[start] if game.chip_on[n] is not None]
            if taken:
                other = taken[self.rng.below(len(taken))]
                options.append(((start, other, self.rng.below(4)), (other, start, self.rng.below(4))))
            for items in options:
                move = make_arrange(items, game.chip_at)
                if move[1] not in seen:
                    seen.add(move[1])
                    yield move

    def _grown(self, game: Quadrotone, player: int, kind: str, scored: list[tuple[int, Item]],
               stop: Callable[[], bool]) -> Generator[None, None, list[tuple[int, Move]]]:
        """Greedy bigger moves from the best one-chip items: the best legal
        move of each size, grown while each added item adds points.  A swap
        (two items) counts as one unit here and is left out."""
        pool = sorted(((gain, item) for gain, item in scored if gain > 0), reverse=True)
        seen: set[Item] = set()
        units = [item for _, item in pool if not (item in seen or seen.add(item))][:self.pool]  # type: ignore[func-returns-value]
        found: list[tuple[int, Move]] = []
        if len(units) < 2:
            return found
        build = make_place if kind == PLACE else (lambda items: make_arrange(items, game.chip_at))
        items = [units[0]]
        total = self._gain(game, build(items), player)
        while len(items) < MAX_CHIPS:
            best_gain, best_unit = total, None
            for unit in units:
                if unit in items or not _fits(items, unit, kind):
                    continue
                gain = self._gain(game, build(items + [unit]), player)
                if gain > best_gain:
                    best_gain, best_unit = gain, unit
                yield
                if stop():
                    return found
            if best_unit is None:
                return found
            items.append(best_unit)
            total = best_gain
            move = build(items)
            if _size_open(game, player, kind, len(items)) and game.check(move) is None:
                found.append((total, move))
        return found

    # ----- what a move opens --------------------------------------------------------
    def _weigh_replies(self, game: Quadrotone, player: int, best: list[tuple[int, Move]],
                       phase_over: Any) -> Search:
        """The finalist with the best own points minus the opponent's best sampled answer around it."""
        chosen, chosen_value = best[0][1], None
        for value, move in best[:self.finalists]:
            if phase_over(1.0):
                break   # a finalist weighed only in part would be weighed unfairly
            game.push_unchecked(move)
            answer = 0
            if not game.is_over() and game.to_move != player:
                answer = yield from self._best_answer(game, move_squares(move), lambda: phase_over(1.0))
            game.pop()
            net = value - self.reply_weight * answer
            if chosen_value is None or net > chosen_value:
                chosen, chosen_value = move, net
            yield
        return chosen

    def _best_answer(self, game: Quadrotone, around: list[int], stop: Callable[[], bool]) -> Search:
        """The most the side to move scores among ``replies`` one-chip moves around ``around``."""
        mover = game.to_move
        zone = {n for square in around for n in NEIGHBOURS[square]} | set(around)
        free = [s for s in zone if game.chip_on[s] is None]
        taken = [s for s in zone if game.chip_on[s] is not None]
        hand = sorted(game.hands[mover])
        kinds = [(chip, turns) for chip in hand for turns in looks(chip)]
        can_place = bool(free and kinds) and _size_open(game, mover, PLACE, 1)
        can_turn = bool(taken) and _size_open(game, mover, ARRANGE, 1)
        best = 0
        for _ in range(self.replies):
            if can_place and (not can_turn or self.rng.random() < 0.85):
                chip, turns = kinds[self.rng.below(len(kinds))]
                move = make_place(((chip, turns, free[self.rng.below(len(free))]),))
            elif can_turn:
                start = taken[self.rng.below(len(taken))]
                move = make_arrange(((start, start, 1 + self.rng.below(3)),), game.chip_at)
                if game.check(move) is not None:
                    continue
            else:
                break
            best = max(best, self._gain(game, move, mover))
            yield
            if stop():
                break
        return best
