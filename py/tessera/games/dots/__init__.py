"""Dots (sport rules of the Russian dots federation, 2017).

``rules`` is the game, ``field`` the capture mechanics, ``position`` the
position string, ``sgf`` import and export, ``bench`` the speed figures.
"""

from .rules import BLUE, LAND, NONE, RED, Dots

GAME = Dots

__all__ = ["GAME", "Dots", "BLUE", "RED", "NONE", "LAND"]
