"""Quadrotone's 256 chips, their rotations and the equivalent deal.

A chip is four small squares, each red, green, blue or yellow; every
colouring exists once, so a chip is a number 0-255 whose base-4 digits are
its squares clockwise from the top left (TL, TR, BR, BL): ``RRGB`` is
``0b00_00_01_10``.  Turning a chip a quarter clockwise moves each square to
the next corner clockwise.

The deal (1.3, as RULINGS.md rules it, ``deal``): the chips fall into
rotation classes, a chip and its turns -- 60 classes of four, 6 of two
(``RGRG`` and ``GRGR``) and the 4 one-colour chips.  Every class of four
is split two and two between the players, every class of two one and one,
each at random (seeded); the one-colour chips go two and two by a seeded
pairing of the colours (red and blue to one player, say, yellow and green
to the other).  The two hands are then the same up to rotation, but for
the one-colour chips, as the document's example shows.

Games recorded before this deal was ruled were dealt by a colour exchange
(``EXCHANGE``): a seeded pick of one of the three swaps that exchange the
colours in two pairs, and a coin for each chip and its image.  That deal
could give one player all four chips of a class; it stays here only so
those records replay as they were played.
"""

from __future__ import annotations

from ...core.rng import SeededRandom

COLOURS = "RGBY"
"""Colour letters; colour ``k`` (0-3) is ``COLOURS[k]``, stored as ``k + 1`` on the field (0: empty)."""
CHIPS = 256
SWAPS: tuple[tuple[int, int, int, int], ...] = ((1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0))
"""The colour exchange deal's swaps, as the colour each colour becomes:
R<->G B<->Y, R<->B G<->Y, R<->Y G<->B."""


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


CLASSES = "classes"
"""The deal of 1.3 as RULINGS.md rules it: each rotation class split evenly."""
EXCHANGE = "exchange"
"""The colour-exchange deal of games recorded before that ruling."""
DEALS = (CLASSES, EXCHANGE)


def rotation_class(chip: int) -> tuple[int, ...]:
    """The chip and its turns, each once, smallest first."""
    return tuple(sorted({rotate(chip, quarters) for quarters in range(4)}))


ROTATION_CLASSES: tuple[tuple[int, ...], ...] = tuple(sorted({rotation_class(chip) for chip in range(CHIPS)}))
"""Every rotation class once: 60 of four chips, 6 of two, 4 of one."""
ONE_COLOUR: tuple[int, ...] = tuple(chip_of(c, c, c, c) for c in range(len(COLOURS)))


def deal(seed: int, way: str = CLASSES) -> tuple[tuple[frozenset[int], frozenset[int]], int]:
    """((first seat's hand, second seat's hand), the seat that moves first),
    drawn from ``seed``; ``way`` is ``CLASSES`` or, for old records, ``EXCHANGE``."""
    if way == EXCHANGE:
        return _deal_by_exchange(seed)
    rng = SeededRandom(seed * 2_654_435_761 + 29)
    hands: tuple[set[int], set[int]] = (set(), set())
    for members in ROTATION_CLASSES:
        if len(members) == 1:
            continue
        order = list(members)
        rng.shuffle(order)
        half = len(order) // 2
        hands[0].update(order[:half])
        hands[1].update(order[half:])
    partner = 1 + rng.below(3)            # red goes with green, blue or yellow
    with_red = rng.below(2)               # to the first seat or the second
    for colour, chip in enumerate(ONE_COLOUR):
        hands[with_red if colour in (0, partner) else 1 - with_red].add(chip)
    first = rng.below(2)
    return (frozenset(hands[0]), frozenset(hands[1])), first


def _deal_by_exchange(seed: int) -> tuple[tuple[frozenset[int], frozenset[int]], int]:
    """The colour-exchange deal (see the module docstring), exactly as it was."""
    rng = SeededRandom(seed * 2_654_435_761 + 17)
    swap = SWAPS[rng.below(len(SWAPS))]
    hands: tuple[set[int], set[int]] = (set(), set())
    for chip in range(CHIPS):
        image = swapped(chip, swap)
        if chip < image:
            coin = rng.below(2)
            hands[coin].add(chip)
            hands[1 - coin].add(image)
    first = rng.below(2)
    return (frozenset(hands[0]), frozenset(hands[1])), first
