"""Quadrotone's 256 chips, their rotations and the equivalent deal.

A chip is four small squares, each red, green, blue or yellow; every
colouring exists once, so a chip is a number 0-255 whose base-4 digits are
its squares clockwise from the top left (TL, TR, BR, BL): ``RRGB`` is
``0b00_00_01_10``.  Turning a chip a quarter clockwise moves each square to
the next corner clockwise.

The deal (RULINGS.md): a seeded pick of one of the three colour swaps that
exchange the colours in two pairs (R<->G with B<->Y, R<->B with G<->Y,
R<->Y with G<->B).  Under a swap no chip is its own image, so the 256 chips
fall into 128 pairs; a seeded coin per pair says which player gets which
chip.  Each hand is then the image of the other under the swap: the two
sets are equivalent, as the rules ask.
"""

from __future__ import annotations

from ...core.rng import SeededRandom

COLOURS = "RGBY"
"""Colour letters; colour ``k`` (0-3) is ``COLOURS[k]``, stored as ``k + 1`` on the field (0: empty)."""
CHIPS = 256
SWAPS: tuple[tuple[int, int, int, int], ...] = ((1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0))
"""Each swap as the colour each colour becomes: R<->G B<->Y, R<->B G<->Y, R<->Y G<->B."""


def squares(chip: int) -> tuple[int, int, int, int]:
    """The chip's colours clockwise from the top left: (TL, TR, BR, BL)."""
    return chip >> 6 & 3, chip >> 4 & 3, chip >> 2 & 3, chip & 3


def chip_of(tl: int, tr: int, br: int, bl: int) -> int:
    return tl << 6 | tr << 4 | br << 2 | bl


def rotate(chip: int, quarters: int) -> int:
    """The chip turned ``quarters`` quarter turns clockwise."""
    tl, tr, br, bl = squares(chip)
    for _ in range(quarters % 4):
        tl, tr, br, bl = bl, tl, tr, br
    return chip_of(tl, tr, br, bl)


def chip_text(chip: int) -> str:
    return "".join(COLOURS[c] for c in squares(chip))


def parse_chip(text: str) -> int | None:
    """``RRGB`` to a chip, None if it is not four colour letters."""
    if not isinstance(text, str) or len(text) != 4 or any(ch not in COLOURS for ch in text):
        return None
    return chip_of(*(COLOURS.index(ch) for ch in text))


def swapped(chip: int, swap: tuple[int, int, int, int]) -> int:
    return chip_of(*(swap[c] for c in squares(chip)))


def deal(seed: int) -> tuple[tuple[frozenset[int], frozenset[int]], int, int]:
    """((first seat's hand, second seat's hand), the swap's index, the seat that moves first)."""
    rng = SeededRandom(seed * 2_654_435_761 + 17)
    swap_index = rng.below(len(SWAPS))
    swap = SWAPS[swap_index]
    hands: tuple[set[int], set[int]] = (set(), set())
    for chip in range(CHIPS):
        image = swapped(chip, swap)
        if chip < image:
            coin = rng.below(2)
            hands[coin].add(chip)
            hands[1 - coin].add(image)
    first = rng.below(2)
    return (frozenset(hands[0]), frozenset(hands[1])), swap_index, first
