"""The rules page's worked examples, as data the engine replays.

Each example is a start position (the RULINGS.md position string) and the
moves played from it, with catalog keys for its title, its caption and one
sentence per move (``rules.json``).  The tests replay every example and
check what its words claim (the score after each move, the cells emptied,
the chip that ends in a queue), so the page cannot drift from the rules the
app plays by.

Positions are written with :func:`position`: only the chips an example is
about are named; every other queue place gets a filler colour from a fixed
pattern (a queue place is never empty), so a reader's eye goes to the lanes
the captions talk about.
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import COLOURS, COLUMNS, LANES, SIDES, SIZE, queue_place

FILLER = "RGBYP"
"""Colours of the queue places an example does not name, by place number;
the first five colours, so the example plays with the default five."""


@dataclass(frozen=True)
class AbatisExample:
    key: str
    start: str
    moves: tuple[str, ...]

    @property
    def title_key(self) -> str:
        return f"rules.abatis.example.{self.key}.title"

    @property
    def caption_key(self) -> str:
        """The whole example in a sentence or two."""
        return f"rules.abatis.example.{self.key}"

    def step_key(self, step: int) -> str:
        """What move ``step`` (1 for the first move) does."""
        if not 1 <= step <= len(self.moves):
            raise IndexError(step)
        return f"rules.abatis.example.{self.key}.step{step}"


def _lane_index(name: str) -> tuple[int, int]:
    """``Nd`` -> (side, lane): columns a-h for N and S, rows 1-8 for W and E."""
    side = SIDES.index(name[0])
    lane = COLUMNS.index(name[1]) if side in (0, 2) else int(name[1]) - 1
    return side, lane


def position(chips: str = "", queues: str = "", stack: str = "-", blocks: int = 0, score: int = 0,
             mode: str = "classic") -> str:
    """A position string from the few things an example is about.

    ``chips``: board chips as ``cell=colour[pointer]`` (``d5=R e6=Gv``);
    ``queues``: lanes as ``lane=inner[outer]`` (``Nd=BG W4=R``), the rest
    from ``FILLER``; ``stack``: colour letters, top first.
    """
    board: dict[int, str] = {}
    for item in chips.split():
        cell, chip = item.split("=")
        board[(int(cell[1]) - 1) * SIZE + COLUMNS.index(cell[0])] = chip + "." if len(chip) == 1 else chip
    places = [FILLER[place % len(FILLER)] for place in range(4 * LANES * 2)]
    for item in queues.split():
        lane_name, colours = item.split("=")
        side, lane = _lane_index(lane_name)
        for depth, colour in enumerate(colours):
            places[queue_place(side, lane, depth)] = colour

    def queue(side: int, lane: int, depth: int) -> str:
        return places[queue_place(side, lane, depth)] + "."

    rows = [f"++++{''.join(queue(0, lane, depth) for lane in range(LANES))}++++" for depth in (1, 0)]
    for row in range(SIZE - 1, -1, -1):
        cells = "".join(board.get(row * SIZE + col, "..") for col in range(SIZE))
        rows.append(queue(3, row, 1) + queue(3, row, 0) + cells + queue(1, row, 0) + queue(1, row, 1))
    rows += [f"++++{''.join(queue(2, lane, depth) for lane in range(LANES))}++++" for depth in (0, 1)]
    if stack != "-" and not all(ch in COLOURS for ch in stack):
        raise ValueError(f"stack must be colour letters or -, not {stack!r}")
    return f"{'/'.join(rows)} {stack} {blocks} {score} {mode}"


EXAMPLES: tuple[AbatisExample, ...] = (
    # Classic: Nd's blue chip falls down column d and stops on d4, above the red d3;
    # then W4's yellow chip runs along row 4 and stops on c4, against the blue chip.
    AbatisExample("classic", position("d3=R f6=G b2=Y", "Nd=BG W4=YR", stack="PRG"), ("Nd", "W4")),
    # Knockout: W4's purple chip reaches f4 and pushes f4 g4 h4 one cell right; the
    # green h4 leaves over the edge into E4 as its inner chip, E4's blue inner chip
    # moves out and its yellow outer chip goes to the bottom of the stack.  Then W2
    # shoots although a2 is taken: the run a2 b2 moves right and the shot chip takes a2.
    AbatisExample("knockout", position("f4=R g4=B h4=G a2=Y b2=R", "W4=PR E4=BY W2=GB", stack="RPG",
                                       mode="knockout"), ("W4", "W2")),
    # Mixed: Nc (inner chip clicked) stops on c6 above the red c5; Nf* (outer chip
    # clicked) sends Nf's inner yellow chip, which pushes f5 down to f4.
    AbatisExample("mixed", position("c5=R f5=B f3=G", "Nc=GY Nf=YP", stack="BRP", mode="mixed"),
                  ("Nc", "Nf*")),
    # A block of five: Nd's yellow chip stops on d3 above the blue d2 and joins the
    # pairs b3 c3 and e3 e4: five yellow chips, 4 points.
    AbatisExample("block5", position("b3=Y c3=Y e3=Y e4=Y d2=B a1=G", "Nd=YR", stack="GRB"), ("Nd",)),
    # A cascade: W5's red chip stops on c5 and completes c5 d5 e5 (1 point); the green
    # d6 with its pointer down slides to d3, where d3 c3 d2 d1 make a green block of
    # four (2 points): 3 points in all.
    AbatisExample("cascade", position("d5=R e5=R d6=Gv c3=G d2=G d1=G b7=B", "W5=RB", stack="YPB"), ("W5",)),
    # A slide off the board: Nd's blue chip stops on d6 and completes d6 d5 d4; with d4
    # gone, the yellow e4 (pointer left) runs along row 4 and over the edge into W4.
    AbatisExample("slide_out", position("d4=B d5=B e4=Y< g2=P", "Nd=BG", stack="RGY"), ("Nd",)),
    # A cleared board: E1's red chip stops on e1 and completes c1 d1 e1; the board is
    # empty, so 1 + 32 points and the next level starts with a new layout.
    AbatisExample("cleared", position("c1=R d1=R", "E1=RG", stack="BYP"), ("E1",)),
)
