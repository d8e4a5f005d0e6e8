"""Quadrature (Mark Steere, 1992): rules in ``rules``, drawing in ``view``."""

from .rules import BLACK, EMPTY, WHITE, Quadrature

GAME = Quadrature

__all__ = ["GAME", "Quadrature", "WHITE", "BLACK", "EMPTY"]
