"""What a game's board view offers the UI: drawing and taps, no ``js``.

A view draws a game into a ``DrawList`` at a given size and turns taps into
moves.  It is pure Python, so it is tested in CPython and reused by the
SVG renderer; ``tessera.ui.board.canvas`` mounts it on a canvas.
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
    theme: str = "light"              # the page theme: the view picks its palette ("light", "dark")
    coordinates: bool = True          # draw the coordinates along the edges
    shapes: bool = False              # colour-blind option: the sides differ by shape too


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

    keys_hint = "board.keys"
    """Catalog key of the keyboard help screen readers get with the board
    (a game with its own keys, such as Quadrotone's hand, names its own)."""

    def aspect(self, game: Game) -> float:
        """Preferred width / height of the board area."""
        return 1.0

    def aspect_at(self, game: Game, width: float) -> float:
        """Width / height of a board ``width`` CSS pixels wide: a view whose
        layout changes with the room it has (Quadrotone's hand beside the
        field on a wide board) says so here; by default ``aspect``."""
        return self.aspect(game)


@dataclass
class Viewport:
    """Zoom and pan of a board drawn larger than its canvas.

    Pure arithmetic, so the pinch, wheel and button paths of the browser
    component share one copy of it and it is tested in CPython.  The board is
    drawn at ``zoom`` times the canvas size and shifted by (pan_x, pan_y),
    which stay between the canvas edge and 0 so the board always fills it.
    """

    zoom: float = 1.0
    pan_x: float = 0.0
    pan_y: float = 0.0

    def zoom_about(self, zoom: float, x: float, y: float, max_zoom: float,
                   width: float, height: float) -> None:
        """Zoom (clamped to 1..max_zoom) keeping the point under (x, y) still."""
        zoom = min(max_zoom, max(1.0, zoom))
        ratio = zoom / self.zoom
        self.pan_x = x - (x - self.pan_x) * ratio
        self.pan_y = y - (y - self.pan_y) * ratio
        self.zoom = zoom
        self.clamp(width, height)

    def pan_by(self, dx: float, dy: float, width: float, height: float) -> None:
        self.pan_x += dx
        self.pan_y += dy
        self.clamp(width, height)

    def clamp(self, width: float, height: float) -> None:
        self.pan_x = min(0.0, max(width - width * self.zoom, self.pan_x))
        self.pan_y = min(0.0, max(height - height * self.zoom, self.pan_y))

    def reset(self) -> None:
        self.zoom, self.pan_x, self.pan_y = 1.0, 0.0, 0.0
