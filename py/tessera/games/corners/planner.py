"""The strongest Corners bot: tree search (MCTS) with playouts that capture,
and the final round played exactly.

Random playouts of the generic MCTS mostly place pieces, so they rarely
see what a rectangle is worth.  Here a playout takes a capture whenever
one is legal with probability ``capture_share`` (else any legal move), so
the rectangles a move completes or spoils show up in the results; a
playout cut short is scored by ``strategy.position_value``, which counts
painted pieces and the best capture each side has waiting.

The final round needs no search: no piece is added or removed in it (the
board is full and only corners change colour), so neither side's turn can
change what the other may capture.  Each side's best turn is therefore the
capture that paints the most, or ``pass`` when none paints.
"""

from __future__ import annotations

from typing import Any

from ...bots.base import Search
from ...bots.mcts import MctsBot
from ...core.game import Game
from ...core.rng import SeededRandom
from .rules import Corners
from .strategy import best_final_move, move_gain


class CornersMctsBot(MctsBot):
    """Parameters of ``MctsBot`` plus ``capture_share`` (0 to 1)."""

    name = "corners_mcts"
    param_names = MctsBot.param_names + ("capture_share",)

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, capture_share: float = 0.5, **params: Any) -> None:
        if not 0.0 <= float(capture_share) <= 1.0:
            raise ValueError("capture_share is from 0 to 1")
        super().__init__(seed, movetime_ms, **params)
        self.capture_share = float(capture_share)

    def search(self, game: Game) -> Search:
        if isinstance(game, Corners) and game.final_left:
            yield
            return best_final_move(game)
        return (yield from super().search(game))

    def _priors(self, game: Game, moves: list[int]) -> list[float]:  # type: ignore[override]
        """What a move does at once (``strategy.move_gain``): captures and
        rectangles made or spoilt come before quiet placements."""
        return [move_gain(game, move) for move in moves]  # type: ignore[arg-type]

    def _playout(self, game: Game, rng: SeededRandom) -> float:
        """Moves from here, a capture taken at ``capture_share`` odds; the result for seat 0 in [0, 1].

        Played in place by ``Corners.play_randomly`` (no history kept), then
        put back as it was."""
        if not isinstance(game, Corners):
            return super()._playout(game, rng)
        state = game.scratch_state()
        try:
            self._last_playout_plies = game.play_randomly(rng, self.playout_plies, self.capture_share)
            outcome = game.outcome()
            if outcome is not None:
                return 0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0)
            return 0.5 + 0.5 * max(-1.0, min(1.0, game.evaluate(0)))
        finally:
            game.restore_scratch(state)
