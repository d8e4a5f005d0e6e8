"""Abatis, the single-player chip puzzle: rules in ``rules``, the board and
queues in ``geometry``, levels and scenarios in ``scenario``."""

from .rules import Abatis

GAME = Abatis

__all__ = ["GAME", "Abatis"]
