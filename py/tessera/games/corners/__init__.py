"""Corners, the rectangle-capture game on 8x8: rules in ``rules``, the board
in ``view``, rectangles in ``geometry``."""

from .rules import CIRCLES, TRIANGLES, Corners

GAME = Corners

__all__ = ["GAME", "Corners", "CIRCLES", "TRIANGLES"]
