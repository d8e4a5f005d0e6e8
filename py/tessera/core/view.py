"""What a game's board view offers the UI: drawing and taps, no ``js``.

A view draws a game into a ``DrawList`` at a given size and turns taps into
moves.  It is pure Python, so it is tested in CPython and reused by the
SVG renderer; ``tessera.ui.board`` mounts it on a canvas.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from .draw import DrawList
from .game import Game, Move


@dataclass
class ViewState:
    """What the board shows beyond the position itself."""

    selected: Any = None              # a cell the player picked up
    flipped: bool = False             # draw from the second seat's side
    last_move: Move | None = None     # marked on the board
    highlights: dict[str, Any] = field(default_factory=dict)  # game-specific (e.g. converted checkers)
    interactive: bool = True          # false while the bot thinks or the game is over
    theme: str = "light"


@dataclass
class TapResult:
    selected: Any = None
    move: Move | None = None


class BoardView(ABC):
    """Drawing and hit-testing of one game's board."""

    @abstractmethod
    def draw(self, game: Game, state: ViewState, out: DrawList) -> None:
        """Draw the whole board filling ``out.width`` x ``out.height``."""

    @abstractmethod
    def cell_at(self, game: Game, state: ViewState, width: float, height: float,
                x: float, y: float) -> Any:
        """The cell under (x, y) in logical pixels, or None."""

    @abstractmethod
    def tap(self, game: Game, state: ViewState, cell: Any) -> TapResult:
        """Selection logic: a tap either selects/deselects or makes a move."""

    def aspect(self, game: Game) -> float:
        """Preferred width / height of the board area."""
        return 1.0
