"""The rules page's worked examples, as data the engine replays.

Each example is a start position (the RULINGS.md position string) and the
moves played from it, with catalog keys for its title, its caption and
one sentence per move (``strings.json``); the tests replay every one and
check what its words claim, so the page cannot drift from the rules the
app plays by.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CornersExample:
    key: str
    start: str
    moves: tuple[str, ...]

    @property
    def title_key(self) -> str:
        return f"rules.corners.example.{self.key}.title"

    @property
    def caption_key(self) -> str:
        """The whole example in a sentence or two."""
        return f"rules.corners.example.{self.key}"

    def step_key(self, step: int) -> str:
        """What move ``step`` (1 for the first move) does."""
        if not 1 <= step <= len(self.moves):
            raise IndexError(step)
        return f"rules.corners.example.{self.key}.step{step}"


def board(circles: str = "", triangles: str = "", painted_circles: str = "", painted_triangles: str = "",
          to_move: str = "o") -> str:
    """A play-phase position from space-separated cell names."""
    grid = [["."] * 8 for _ in range(8)]
    for names, char in ((circles, "o"), (triangles, "t"), (painted_circles, "O"), (painted_triangles, "T")):
        for name in names.split():
            grid[8 - int(name[1])]["abcdefgh".index(name[0])] = char
    return "/".join("".join(row) for row in grid) + f" {to_move} play"


EXAMPLES: tuple[CornersExample, ...] = (
    # An upright capture: the fourth corner is placed, then the 3x3 square is taken.
    CornersExample("upright", board("b2 d2 b4", "f6 g7"), ("d4", "g5", "xb2d2d4b4")),
    # A tilted capture: side vectors (2, 1) and (-1, 2); the centres of b2, c2, b3, c3 lie inside.
    CornersExample("tilted", board("b1 d2 c4", "f6 g6"), ("a3", "f7", "xb1d2c4a3")),
    # A capture over enemy pieces, one corner already painted: d3 and e4 stay triangles.
    CornersExample("enemy_inside", board("f2 f5 c5", "d3 e4 h8", painted_circles="c2", to_move="o"),
                   ("xc2f2f5c5",)),
    # The final round: circles fill the last cell; triangles paint once more; circles cannot paint and pass.
    CornersExample("final_round",
                   "TTTTTTT./OOTTOTTO/TOOTTOTT/TTOTTOTO/OOOTTOOT/TOTOTOTO/OOTOTTOT/tOTOOTOO o play",
                   ("h8", "xa1c1c3a3", "pass")),
)
