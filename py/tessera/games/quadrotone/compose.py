"""Putting a Quadrotone move together on the board before playing it.

A move may use up to eight chips, so the board keeps a ``Draft`` as its
selection (``ViewState.selected``) and the player plays it with a button.
Taps, turns and the rest are pure functions from a draft to the next one,
tested in CPython; the view draws the draft and the adapter offers its
buttons (``core.game_ui.DraftAction``).

- A chip of the hand is picked by a tap (a second tap on it turns it), then
  dropped on an empty large square; dropped chips can be picked up again.
- For a move of the second kind, a tap on a chip of the field picks it: a
  tap on the same square turns it there, on an empty square moves it, on
  another chip swaps the two.  "Turn" (and the R key) turns the chip held,
  or the last one of the draft.
- One draft is one kind of move: while chips are being placed, field chips
  cannot be picked, and the other way round.
- From the keyboard, ``[`` and ``]`` hold the previous and next chip of the
  hand, arrows move the cursor over the field and Enter taps the square.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .chips import rotate
from .notation import ARRANGE, MAX_CHIPS, PLACE, fewest_turns, make_arrange, make_place

HAND = "hand"
FIELD = "field"


@dataclass(frozen=True)
class Draft:
    kind: str | None = None
    """PLACE or ARRANGE once the draft holds an item; None while empty."""
    items: tuple[tuple[int, int, int], ...] = ()
    """As in the move: (chip, turns, square) placed, or (from, to, turns) arranged."""
    held: tuple[Any, ...] | None = None
    """("hand", chip, turns) picked from the hand, or ("field", square) picked on the field."""
    page: int = 0
    """The page of a phone's sheet of chips shown while it is open (``tray``)."""

    @property
    def empty(self) -> bool:
        return not self.items and self.held is None


def is_draft(value: Any) -> bool:
    return isinstance(value, Draft)


def placed_squares(draft: Draft) -> set[int]:
    return {item[2] for item in draft.items} if draft.kind == PLACE else set()


def arranged(draft: Draft) -> dict[int, int]:
    """Arrangement: source square -> target square."""
    return {start: end for start, end, _ in draft.items} if draft.kind == ARRANGE else {}


def occupied_after(game: Any, draft: Draft) -> dict[int, tuple[int, int] | None]:
    """Squares the draft changes -> (chip, turns) there after it (None: emptied)."""
    result: dict[int, tuple[int, int] | None] = {}
    if draft.kind == PLACE:
        for chip, turns, square in draft.items:
            result[square] = (chip, turns)
    elif draft.kind == ARRANGE:
        for start, _, _ in draft.items:
            result[start] = None
        for start, end, turns in draft.items:
            chip, old = game.chip_on[start]
            result[end] = (chip, (old + turns) % 4)
    return result


def _is_free(game: Any, draft: Draft, square: int) -> bool:
    after = occupied_after(game, draft)
    if square in after:
        return after[square] is None
    return game.chip_on[square] is None


def tap(game: Any, draft: Draft, cell: Any) -> Draft:
    """The draft after a tap on ``cell``: ("hand", chip) or a large square."""
    if isinstance(cell, tuple) and len(cell) == 2 and cell[0] == HAND:
        return _tap_hand(draft, cell[1])
    if isinstance(cell, int):
        return _tap_square(game, draft, cell)
    return draft


def _tap_hand(draft: Draft, chip: int) -> Draft:
    if draft.kind == ARRANGE:
        return draft
    held = draft.held
    if held is not None and held[0] == HAND and held[1] == chip:
        return replace(draft, held=(HAND, chip, _next_turn(chip, held[2])))
    items = tuple(item for item in draft.items if item[0] != chip)
    turns = next((item[1] for item in draft.items if item[0] == chip), 0)
    return Draft(PLACE if items else None, items, (HAND, chip, turns))


def _tap_square(game: Any, draft: Draft, square: int) -> Draft:
    held = draft.held
    if held is not None and held[0] == HAND:
        if square in placed_squares(draft) or game.chip_on[square] is not None or len(draft.items) >= MAX_CHIPS:
            return draft
        return Draft(PLACE, draft.items + ((held[1], held[2], square),), None)
    if held is None and draft.kind == PLACE:
        for item in draft.items:   # pick a dropped chip up again
            if item[2] == square:
                rest = tuple(i for i in draft.items if i is not item)
                return Draft(PLACE if rest else None, rest, (HAND, item[0], item[1]))
        return draft
    if held is None:
        if draft.kind == ARRANGE and square in {end for _, end, _ in draft.items}:
            start = next(start for start, end, _ in draft.items if end == square)
            return replace(draft, held=(FIELD, start))
        if game.chip_on[square] is None:
            return draft
        return replace(draft, kind=draft.kind, held=(FIELD, square))
    start = held[1]
    moves = {s: (e, t) for s, e, t in draft.items}
    if square == start or moves.get(start, (None,))[0] == square:
        return _turn_field(game, draft, start)
    if _is_free(game, draft, square):
        moves[start] = (square, moves.get(start, (start, 0))[1])
    elif game.chip_on[square] is not None and square not in moves:
        if len(moves) + 2 - (start in moves) > MAX_CHIPS:
            return replace(draft, held=None)
        old_end = moves.get(start, (start, 0))
        moves[start] = (square, old_end[1])
        moves[square] = (old_end[0], 0)
    else:
        return replace(draft, held=None)
    if len(moves) > MAX_CHIPS:
        return replace(draft, held=None)
    items = tuple(sorted((s, e, t) for s, (e, t) in moves.items()))
    return Draft(ARRANGE, items, None)


def _next_turn(chip: int, turns: int) -> int:
    """The next look of the chip a quarter turn further (skipping looks that repeat)."""
    for step in range(1, 4):
        candidate = fewest_turns(chip, turns + step)
        if candidate != fewest_turns(chip, turns):
            return candidate
    return turns


def _turn_field(game: Any, draft: Draft, start: int) -> Draft:
    """Turn the field chip from ``start`` a quarter further (looks that repeat skipped);
    turned back to how it lies and not moved, it leaves the draft."""
    chip, current = game.chip_on[start]
    moves = {s: (e, t) for s, e, t in draft.items}
    end, turns = moves.get(start, (start, 0))

    def look(extra: int) -> int:
        return rotate(chip, current + extra)

    following = next(((turns + step) % 4 for step in range(1, 4) if look(turns + step) != look(turns)), turns)
    moves[start] = (end, following)
    if end == start and look(following) == look(0):
        del moves[start]
    items = tuple(sorted((s, e, t) for s, (e, t) in moves.items()))
    if len(items) > MAX_CHIPS:
        return draft
    return Draft(ARRANGE if items else None, items, (FIELD, start))


def turn(game: Any, draft: Draft) -> Draft:
    """The R key and the Turn button: turn the chip held, else the draft's last chip."""
    held = draft.held
    if held is not None and held[0] == HAND:
        return replace(draft, held=(HAND, held[1], _next_turn(held[1], held[2])))
    if held is not None and held[0] == FIELD:
        return _turn_field(game, draft, held[1])
    if draft.kind == PLACE and draft.items:
        chip, turns, square = draft.items[-1]
        return replace(draft, items=draft.items[:-1] + ((chip, _next_turn(chip, turns), square),))
    if draft.kind == ARRANGE and draft.items:
        return _turn_field(game, replace(draft, held=None), draft.items[-1][0])
    return draft


def take_back(draft: Draft) -> Draft:
    """Drop what is held, else the draft's last item."""
    if draft.held is not None:
        return replace(draft, held=None)
    items = draft.items[:-1]
    return Draft(draft.kind if items else None, items, None)


def cycle_hand(hand: list[int], draft: Draft, step: int) -> Draft:
    """The keyboard's way to pick from the hand: hold the chip after (``step``
    1) or before (-1) the one held, in ``hand``'s order, skipping the chips
    the draft has dropped (the first or last when none is held)."""
    if draft.kind == ARRANGE:
        return draft
    dropped = {item[0] for item in draft.items}
    free = [chip for chip in hand if chip not in dropped]
    if not free:
        return draft
    held = draft.held
    if held is not None and held[0] == HAND and held[1] in free:
        index = (free.index(held[1]) + step) % len(free)
    else:
        index = 0 if step > 0 else len(free) - 1
    return replace(draft, held=(HAND, free[index], 0))


def as_move(game: Any, draft: Draft) -> Any:
    """The move the draft makes (None while it holds no item)."""
    if not draft.items:
        return None
    if draft.kind == PLACE:
        return make_place(draft.items)
    return make_arrange(draft.items, game.chip_at)
