"""Quadrotone's move notation.

A move is one of two kinds (section 2 of the rules), 1 to 8 chips:

- placing chips from the hand: ``RRGB@d5`` puts chip RRGB (its squares
  clockwise from the top left, as dealt) on d5; ``RRGBr1@d5`` turned a
  quarter clockwise first; several are joined by commas, ``RRGB@d5,GBYYr3@e5``;
- moving, swapping and turning chips on the field: ``d5-e7`` moves the chip
  on d5 to e7, ``d5-e7r2`` turns it a half on the way, ``d5r1`` turns it in
  place; a swap is two items, ``d5-e7,e7-d5``.

Internally a move is ``("place", ((chip, turns, square), ...))`` sorted by
square, or ``("arrange", ((from, to, turns), ...))`` sorted by the square it
comes from; ``expired`` is a turn whose time ran out (the clock plays it,
never a player: ``Quadrotone.parse_typed`` refuses it); turns are the fewest quarter turns that give the same look (a
chip of one colour has only turn 0), so every move has one text.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.game import NotationError, excerpt
from .chips import chip_text, parse_chip, rotate
from .field import parse_square, square_name

PLACE, ARRANGE, EXPIRED_KIND = "place", "arrange", "expired"
EXPIRED = (EXPIRED_KIND, ())
"""A turn whose time ran out (2.7): written ``expired``; only the clock makes it."""
MAX_CHIPS = 8
MAX_TEXT = 200
PLACE_ITEM = re.compile(r"([RGBY]{4})(?:r([0-3]))?@([a-p]\d{1,2})")
ARRANGE_ITEM = re.compile(r"([a-p]\d{1,2})(?:-([a-p]\d{1,2}))?(?:r([0-3]))?")

Move = tuple[str, tuple[tuple[int, int, int], ...]]


def fewest_turns(chip: int, turns: int) -> int:
    """The smallest number of quarter turns that gives the chip the same look."""
    target = rotate(chip, turns)
    return next(t for t in range(4) if rotate(chip, t) == target)


def make_place(items: Any) -> Move:
    return PLACE, tuple(sorted(((chip, fewest_turns(chip, turns), square) for chip, turns, square in items),
                               key=lambda item: item[2]))


def make_arrange(items: Any, chips_at: Any) -> Move:
    """``chips_at(square)`` gives the chip on a square, to normalize turns."""
    normal = []
    for start, end, turns in items:
        chip = chips_at(start)
        normal.append((start, end, fewest_turns(chip, turns) if chip is not None else turns % 4))
    return ARRANGE, tuple(sorted(normal))


def move_text(move: Any) -> str:
    if move == EXPIRED:
        return EXPIRED_KIND
    if not (isinstance(move, tuple) and len(move) == 2 and move[0] in (PLACE, ARRANGE)
            and isinstance(move[1], tuple) and 1 <= len(move[1]) <= MAX_CHIPS):
        raise NotationError("error.quadrotone.move_value", value=excerpt(move))
    parts = []
    for item in move[1]:
        if move[0] == PLACE:
            chip, turns, square = item
            parts.append(chip_text(chip) + (f"r{turns}" if turns else "") + "@" + square_name(square))
        else:
            start, end, turns = item
            parts.append(square_name(start) + ("" if end == start else "-" + square_name(end))
                         + (f"r{turns}" if turns else ""))
    return ",".join(parts)


def parse_items(text: Any) -> tuple[str, list[tuple[int, int, int]]]:
    """The kind and the raw items of a move's text; raises NotationError."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_TEXT:
        raise NotationError("error.quadrotone.notation", text=excerpt(text))
    if text == EXPIRED_KIND:
        return EXPIRED_KIND, []
    pieces = text.split(",")
    if len(pieces) > MAX_CHIPS:
        raise NotationError("error.quadrotone.too_many", count=len(pieces), limit=MAX_CHIPS)
    kind = PLACE if "@" in pieces[0] else ARRANGE
    items = []
    for piece in pieces:
        if kind == PLACE:
            match = PLACE_ITEM.fullmatch(piece)
            square = parse_square(match.group(3)) if match else None
            if match is None or square is None:
                raise NotationError("error.quadrotone.place_item", text=excerpt(piece))
            chip = parse_chip(match.group(1))
            items.append((chip, int(match.group(2) or 0), square))
        else:
            match = ARRANGE_ITEM.fullmatch(piece)
            start = parse_square(match.group(1)) if match else None
            end = parse_square(match.group(2)) if match and match.group(2) else start
            if match is None or start is None or end is None:
                raise NotationError("error.quadrotone.arrange_item", text=excerpt(piece))
            items.append((start, end, int(match.group(3) or 0)))
    return kind, items
