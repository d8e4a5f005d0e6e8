"""The weakest level: a uniformly random legal move (seeded)."""

from __future__ import annotations

from ..core.game import Game
from ..core.rng import SeededRandom
from .base import Bot, Search


class RandomBot(Bot):
    name = "random"
    param_names: tuple[str, ...] = ()

    def search(self, game: Game) -> Search:
        """Pick any legal move; ``None`` if the game is over."""
        if False:  # pragma: no cover - makes this function a generator
            yield
        if game.is_over():
            return None
        # One generator per move keeps repeated calls varied but reproducible.
        return game.random_move(SeededRandom(self.seed * 1_000_003 + game.ply))
