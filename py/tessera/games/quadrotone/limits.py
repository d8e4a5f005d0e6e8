"""How many moves of each kind and size a player may make in one game (2.6),
and the lead that ends the game."""

from __future__ import annotations

PLACE_LIMITS = (0, 128, 7, 6, 5, 4, 3, 2, 1)
"""Moves of each size (1-8 chips) that place chips, per player and game."""
ARRANGE_LIMITS = (0, 8, 7, 6, 5, 4, 3, 2, 1)
"""Moves of each size that move, swap or turn chips on the field."""
LEAD_TO_WIN = 8000
REVERSE_LIMITS = (0, 32, 16, 12, 10, 8, 6, 4, 2)
"""The reverse variant (section 3): moves of each size, turns and swaps together."""
REVERSE_RAMP = ((3, 1), (5, 2), (7, 3))
"""Reverse variant: before your 3rd move 1 chip a move, before your 5th at
most 2, before your 7th at most 3, then up to 8."""
NO_LIMITS = (0,) * 9


def limit_tables(variant: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(placing, arranging) limits of a variant; the reverse variant places nothing."""
    if variant == "reverse":
        return NO_LIMITS, REVERSE_LIMITS
    return PLACE_LIMITS, ARRANGE_LIMITS


def largest_now(variant: str, moves_made: int) -> int:
    """The most chips a player's next move may use (the reverse variant's ramp)."""
    if variant == "reverse":
        for before, most in REVERSE_RAMP:
            if moves_made + 1 < before:
                return most
    return 8
