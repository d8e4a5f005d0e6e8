"""Quadrotone: 2x2-coloured chips on a 16x16 field.  Chips and the deal in
``chips``, the catalog in ``catalog``/``catalog.json``, the scorer in
``patterns``, the field in ``field``, moves in ``notation`` and ``rules``."""

from .rules import Quadrotone

GAME = Quadrotone

__all__ = ["GAME", "Quadrotone"]
