"""Random legal Quadrotone moves, for playouts, tests and the weakest bot.

The moves cannot be listed (``Quadrotone.lists_every_move``), so they are
drawn: a size whose limit is not used up, then chips and squares at
random, kept only if ``check`` accepts them.  A few tries almost always
find one; when none is found the one-chip moves are listed instead, so a
player who has a move always gets one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.rng import SeededRandom
from .field import SQUARES
from .notation import ARRANGE, PLACE, make_arrange, make_place

if TYPE_CHECKING:   # the rules draw their random moves here: no import back at run time
    from .rules import Quadrotone

TRIES = 24


def random_move(game: Quadrotone, rng: SeededRandom, place_share: float = 0.75) -> Any:
    """A legal move of the side to move, or None when it has none."""
    player = game.to_move
    hand = sorted(game.hands[player])
    empty = [square for square in range(SQUARES) if game.chip_on[square] is None]
    occupied = [square for square in range(SQUARES) if game.chip_on[square] is not None]
    placing_left, arranging_left = game.limits_left(player)
    for _ in range(TRIES):
        placing = hand and empty and (not occupied or rng.random() < place_share)
        if placing:
            sizes = [k for k in range(1, 9) if placing_left[k - 1] > 0 and k <= min(len(hand), len(empty))]
        else:
            sizes = [k for k in range(1, 9) if arranging_left[k - 1] > 0 and k <= len(occupied)]
        if not sizes:
            continue
        size = sizes[rng.below(len(sizes))] if rng.random() < 0.3 else sizes[0]
        if placing:
            chips = _pick(hand, size, rng)
            squares = _pick(empty, size, rng)
            move = make_place((chip, rng.below(4), square) for chip, square in zip(chips, squares))
        else:
            starts = _pick(occupied, size, rng)
            targets = list(starts)
            rng.shuffle(targets)
            if empty and rng.random() < 0.5:
                targets[0] = empty[rng.below(len(empty))]
            move = make_arrange(((start, end, rng.below(4)) for start, end in zip(starts, targets)), game.chip_at)
        if game.is_legal(move):
            return move
    fallback = game.legal_moves()
    return fallback[rng.below(len(fallback))] if fallback else None


def _pick(items: list[int], count: int, rng: SeededRandom) -> list[int]:
    chosen = list(items)
    for i in range(count):
        j = i + rng.below(len(chosen) - i)
        chosen[i], chosen[j] = chosen[j], chosen[i]
    return chosen[:count]


__all__ = ["random_move", "PLACE", "ARRANGE"]
