"""Small worked examples for the Dots rules page, replayed by the engine.

Each example is a small field (a few points wide), the dots already on it,
who moves first, and a few moves the reader steps through; the rules page
draws every step with ``DotsView`` and lets the reader play on from any
step.  Because the engine plays them, a diagram cannot disagree with the
rules the app plays by (``tests/unit/test_dots_view.py`` checks what each
one is meant to show).

``SmallField`` is a Dots game on such a field: the game's ``size`` option
only offers the sizes the app plays on, so diagrams use this subclass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import position as position_codec
from .field import Field
from .rules import BLUE, RED, Dots


class SmallField(Dots):
    """A Dots game on a ``width`` x ``height`` field (diagrams only)."""

    def __init__(self, width: int, height: int, setup: str | None = None) -> None:
        self._size = (width, height)
        super().__init__(None, 0, setup)

    def _init_state(self, setup: str | None) -> None:
        width, height = self._size
        self._legal_cache = None
        if setup is None:
            self.field = Field(width, height)
            self._to_move = BLUE
            self.landed = None
        else:
            self.field, self._to_move, self.landed = position_codec.decode(setup, width, height)

    def copy(self) -> "SmallField":
        clone = SmallField(*self._size, self.position())
        clone.move_stack = list(self.move_stack)
        return clone

    def restart(self) -> "SmallField":
        return SmallField(*self._size, self.setup)


@dataclass(frozen=True)
class DotsExample:
    """A diagram: ``blue`` and ``red`` start points (x, y), ``first`` to move, ``moves``."""

    key: str
    width: int
    height: int
    blue: tuple[tuple[int, int], ...]
    red: tuple[tuple[int, int], ...]
    moves: tuple[str, ...]
    first: int = BLUE
    marks: dict[tuple[int, int], str] = field(default_factory=dict)

    def setup(self) -> str:
        grid = [["."] * self.width for _ in range(self.height)]
        for char, points in (("B", self.blue), ("R", self.red)):
            for x, y in points:
                grid[self.height - y][x - 1] = char
        rows = "/".join("".join(row) for row in grid)
        return f"{rows} {'br'[self.first]} - -"

    def game(self, plies: int = 0) -> SmallField:
        """The example after ``plies`` of its moves."""
        game = SmallField(self.width, self.height, self.setup())
        for text in self.moves[:plies]:
            game.push_text(text)
        return game


EXAMPLES: tuple[DotsExample, ...] = (
    # The smallest capture (5.6): four blue dots around one red dot.
    DotsExample("capture_small", 7, 6,
                blue=((3, 3), (4, 4)), red=((4, 3), (6, 5)),
                moves=("5-3", "2-5", "4-2")),
    # A bigger region: a chain with diagonal links, empty points inside.
    DotsExample("capture_chain", 8, 7,
                blue=((3, 3), (3, 4), (4, 5), (5, 5), (6, 4), (6, 3)),
                red=((4, 3), (5, 4), (8, 7)),
                moves=("5-2", "1-7", "4-2")),
    # Minimum area (5.10): blue's outer loop also closes the empty pocket
    # on the right, but only the pocket with the red dot is painted; the
    # other one stays a house.
    DotsExample("minimum_area", 8, 6,
                blue=((3, 4), (4, 3), (3, 2), (4, 4), (5, 4), (6, 3), (5, 2), (4, 2)),
                red=((3, 3), (8, 6)),
                moves=("2-3",)),
    # A house (5.12-5.14): closed around empty points it is not painted;
    # a red dot placed inside is surrounded at once.
    DotsExample("house", 7, 6,
                blue=((3, 3), (4, 4), (5, 3)),
                red=((7, 6), (1, 6)),
                moves=("4-2", "4-3")),
    # The exception (5.16): red plays inside the blue house, and that dot
    # closes a red chain round a blue dot of the house's wall, so it is
    # not surrounded: it captures, and the house is broken.
    DotsExample("house_exception", 7, 7,
                blue=((3, 4), (4, 5), (5, 5), (6, 4), (5, 3), (4, 3)),
                red=((2, 4), (3, 5), (3, 3), (7, 7)),
                moves=("4-4",), first=RED),
    # Re-capture (6.4): blue's region is itself surrounded by red, and the
    # dots in it change hands.
    DotsExample("recapture", 7, 6,
                blue=((3, 3), (4, 4), (5, 3)),
                red=((4, 3), (2, 3), (3, 4), (4, 5), (5, 4), (6, 3), (5, 2), (3, 2)),
                moves=("4-2", "4-1")),
    # Landing (8.2-8.4): blue's region joined to the edge is safe; the lone
    # blue dot is not, and goes to red when blue lands.
    DotsExample("landing", 8, 6,
                blue=((1, 3), (1, 4), (2, 5), (3, 4), (3, 3), (6, 4)),
                red=((2, 3), (2, 4), (8, 1)),
                moves=("2-2", "8-2", "land")),
)
