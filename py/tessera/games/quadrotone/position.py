"""Quadrotone's position string: everything a game needs to go on.

Nine fields separated by spaces:

1. the field, 16 rows from row 16 down to row 1 joined by ``/``; each row is
   16 cells of five characters: the chip as dealt (its four colours
   clockwise from the top left) and the quarter turns it lies at, ``RRGB1``,
   or ``.....`` for an empty large square;
2. the side to move, ``first`` or ``second``;
3. the points, ``733:725``;
4. the moves used of each kind and size: four groups of eight numbers (the
   first player's placing moves of 1-8 chips, their arranging moves, then the
   second player's), groups joined by ``/`` and numbers by ``,``;
5. the occurrences used up, those that scored (2.14) and those dropped
   inside a bigger one (2.15), each ``pattern.turn.x.y`` joined by ``,``,
   or ``-``;
6. the last move: who made it and the large squares its chips were left on,
   ``first:d5,e7``, or ``-``;
7. how many turns in a row ran out of time (2.7), usually ``0``;
8. the squares of the chains that scored (2.19's memory), per colour:
   ``R12.13.44;G7`` (colour letter, colon-free list of field indices
   ``y * 32 + x`` joined by ``.``, colours joined by ``;``), or ``-``;
9. the places fenced by moves that scored (2.20's memory), field indices
   joined by ``.``, or ``-``.

The hands are not written: the deal follows from the game's seed, and a
chip on the field is out of whichever hand it was dealt to.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.game import PositionError, excerpt
from .catalog import catalog
from .chips import COLOURS, chip_text, parse_chip
from .field import LARGE, parse_square, square_name
from .notation import MAX_CHIPS

SIDES = ("first", "second")
MAX_TEXT = 200_000
CELL = re.compile(r"([RGBY]{4})([0-3])|\.\.\.\.\.")
NUMBER = re.compile(r"\d{1,9}")
SCORED = re.compile(r"([a-z0-9_]{1,32})\.([0-3])\.(\d{1,2})\.(\d{1,2})")


def write(game: Any) -> str:
    rows = []
    for row in range(LARGE - 1, -1, -1):
        cells = []
        for col in range(LARGE):
            placed = game.chip_on[row * LARGE + col]
            cells.append("....." if placed is None else f"{chip_text(placed[0])}{placed[1]}")
        rows.append("".join(cells))
    limits = "/".join(",".join(str(n) for n in game.used[player][kind][1:]) for player in (0, 1) for kind in (0, 1))
    keys = catalog().patterns
    scored = ",".join(f"{keys[p].key}.{r}.{x}.{y}" for p, r, x, y in sorted(game.scored_keys)) or "-"
    last = "-"
    if game.last_mover is not None and game.last_squares:
        last = SIDES[game.last_mover] + ":" + ",".join(square_name(s) for s in game.last_squares)
    chains = ";".join(COLOURS[colour - 1] + ".".join(str(i) for i in sorted(i for c, i in game.chain_keys if c == colour))
                      for colour in range(1, 5) if any(c == colour for c, _ in game.chain_keys)) or "-"
    fenced = ".".join(str(i) for i in sorted(game.fenced_cells)) or "-"
    return (f"{'/'.join(rows)} {SIDES[game.to_move]} {game.points[0]}:{game.points[1]} {limits} {scored} {last} "
            f"{game.expiries_in_row} {chains} {fenced}")


def read(game: Any, text: Any) -> None:
    """Set ``game`` (freshly dealt) to the position; raises PositionError."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise PositionError("error.quadrotone.position", text=excerpt(text))
    fields = text.split()
    if len(fields) != 9:
        raise PositionError("error.quadrotone.position", text=excerpt(text))
    picture, side, points, limits, scored, last, expiries, chains, fenced = fields
    if expiries not in ("0", "1", "2", "3"):
        raise PositionError("error.quadrotone.expiries", text=excerpt(expiries))
    rows = picture.split("/")
    if len(rows) != LARGE or any(len(row) != 5 * LARGE for row in rows):
        raise PositionError("error.quadrotone.picture", text=excerpt(picture))
    seen: set[int] = set()
    placed: list[tuple[int, int, int]] = []
    for r, row in enumerate(rows):
        for col in range(LARGE):
            cell = row[5 * col:5 * col + 5]
            match = CELL.fullmatch(cell)
            if match is None:
                raise PositionError("error.quadrotone.cell", row=LARGE - r, column=col + 1, text=excerpt(cell))
            if match.group(1):
                chip = parse_chip(match.group(1))
                if chip in seen:
                    raise PositionError("error.quadrotone.chip_twice", chip=match.group(1))
                seen.add(chip)   # type: ignore[arg-type]
                placed.append(((LARGE - 1 - r) * LARGE + col, chip, int(match.group(2))))  # type: ignore[arg-type]
    if side not in SIDES:
        raise PositionError("error.quadrotone.side", text=excerpt(side))
    pair = points.split(":")
    if len(pair) != 2 or not all(NUMBER.fullmatch(p) for p in pair):
        raise PositionError("error.quadrotone.points", text=excerpt(points))
    groups = limits.split("/")
    used = []
    for index, group in enumerate(groups if len(groups) == 4 else []):
        numbers = group.split(",")
        table = game.limits[index % 2]
        if len(numbers) != MAX_CHIPS or not all(NUMBER.fullmatch(n) for n in numbers) \
                or any(int(n) > table[size] for size, n in enumerate(numbers, 1)):
            raise PositionError("error.quadrotone.limits", text=excerpt(limits))
        used.append([0] + [int(n) for n in numbers])
    if len(used) != 4:
        raise PositionError("error.quadrotone.limits", text=excerpt(limits))
    keys = _scored(scored)
    chain_keys = _chains(chains)
    fenced_cells = _indices(fenced, chains=False)
    last_mover, last_squares = _last(last)
    # Everything read: now set the game.
    for square, chip, turns in placed:
        game.put(square, chip, turns)
    game._to_move = SIDES.index(side)
    game.points = [int(pair[0]), int(pair[1])]
    game.used = [[used[0], used[1]], [used[2], used[3]]]
    game.scored_keys = keys
    game.expiries_in_row = int(expiries)
    game.chain_keys = chain_keys
    game.fenced_cells = fenced_cells
    if last_mover is not None:
        if any(game.chip_on[square] is None for square in last_squares):
            raise PositionError("error.quadrotone.last_empty", text=excerpt(last))
        game.set_last(last_mover, last_squares)


def _scored(text: str) -> set[tuple[int, int, int, int]]:
    if text == "-":
        return set()
    index = {pattern.key: pattern.index for pattern in catalog().patterns}
    keys = set()
    for token in text.split(","):
        match = SCORED.fullmatch(token)
        if match is None or match.group(1) not in index or int(match.group(3)) > 31 or int(match.group(4)) > 31:
            raise PositionError("error.quadrotone.scored", text=excerpt(token))
        keys.add((index[match.group(1)], int(match.group(2)), int(match.group(3)), int(match.group(4))))
    return keys


def _indices(text: str, chains: bool = True) -> set[int]:
    if text == "-" and not chains:
        return set()
    parts = text.split(".")
    if not all(NUMBER.fullmatch(p) and int(p) < 1024 for p in parts) or len(parts) > 1024:
        raise PositionError("error.quadrotone.chains" if chains else "error.quadrotone.fenced", text=excerpt(text))
    return {int(p) for p in parts}


def _chains(text: str) -> set[tuple[int, int]]:
    if text == "-":
        return set()
    keys = set()
    groups = text.split(";")
    if len(groups) > 4 or len({g[:1] for g in groups}) != len(groups):
        raise PositionError("error.quadrotone.chains", text=excerpt(text))
    for group in groups:
        if not group or group[0] not in COLOURS:
            raise PositionError("error.quadrotone.chains", text=excerpt(group))
        colour = COLOURS.index(group[0]) + 1
        keys |= {(colour, index) for index in _indices(group[1:])}
    return keys


def _last(text: str) -> tuple[int | None, tuple[int, ...]]:
    if text == "-":
        return None, ()
    side, colon, names = text.partition(":")
    squares = [parse_square(name) for name in names.split(",")] if colon else []
    if side not in SIDES or not squares or len(squares) > MAX_CHIPS or None in squares \
            or len(set(squares)) != len(squares):
        raise PositionError("error.quadrotone.last", text=excerpt(text))
    return SIDES.index(side), tuple(s for s in squares if s is not None)

