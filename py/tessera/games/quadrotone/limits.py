"""How many moves of each kind and size a player may make in one game (2.6),
and the lead that ends the game."""

from __future__ import annotations

PLACE_LIMITS = (0, 128, 7, 6, 5, 4, 3, 2, 1)
"""Moves of each size (1-8 chips) that place chips, per player and game."""
ARRANGE_LIMITS = (0, 8, 7, 6, 5, 4, 3, 2, 1)
"""Moves of each size that move, swap or turn chips on the field."""
LEAD_TO_WIN = 8000
