"""Abatis against a second, deliberately simple model of the move cycle.

The model is written from the rule text (seed document, RULINGS.md
"Abatis") and shares nothing with the engine: the board is a dict from
(col, row) to (colour letter, pointer character), each queue lane a list
[inner, outer], the stack a list top first; chips travel one cell at a time
in plain loops; it reads and writes the position string itself.  The only
things taken from the engine are the seeded generator's state (the rules
say top-ups come from it) and each new level's layout, since a layout is
random by design; at a level change the model checks the end and bonus and
then starts again from the engine's new position.

The two are compared after every move (position string: board, queues,
stack, blocks, score, mode; and the set of legal moves) over seeded games
from the start and from crowded random set-ups with pointer chips, which
make pushes off the edge, exits during slides, crossing slides and
cascades common.
"""

from __future__ import annotations

import random

import pytest

from tessera.core.rng import SeededRandom
from tessera.games.abatis import Abatis

LETTERS = "RGBYPOCMWK"
COLUMNS = "abcdefgh"
SHOT_POINTER = {"N": "v", "S": "^", "W": ">", "E": "<"}
"""The pointer a chip shot from each side gets: its direction of travel."""
HEADING = {"^": (0, 1), "v": (0, -1), "<": (-1, 0), ">": (1, 0)}
EXIT = {"^": "N", "v": "S", "<": "W", ">": "E"}
OPPOSITE = {"N": "S", "S": "N", "W": "E", "E": "W"}

Cell = tuple[int, int]


def lane_cells(side: str, lane: int) -> list[Cell]:
    """The lane's cells in the order a shot from ``side`` meets them."""
    if side == "N":
        return [(lane, row) for row in range(7, -1, -1)]
    if side == "S":
        return [(lane, row) for row in range(8)]
    if side == "W":
        return [(col, lane) for col in range(8)]
    return [(col, lane) for col in range(7, -1, -1)]


def on_board(cell: Cell) -> bool:
    return 0 <= cell[0] < 8 and 0 <= cell[1] < 8


class Model:
    def __init__(self, text: str, rng_state: int, colours: int) -> None:
        picture, stack, blocks, score, self.mode = text.split(" ")
        rows = [[row[i:i + 2] for i in range(0, 24, 2)] for row in picture.split("/")]
        self.board: dict[Cell, tuple[str, str]] = {}
        self.queues: dict[tuple[str, int], list[str]] = {}
        for lane in range(8):
            self.queues["N", lane] = [rows[1][2 + lane][0], rows[0][2 + lane][0]]
            self.queues["S", lane] = [rows[10][2 + lane][0], rows[11][2 + lane][0]]
        for r in range(2, 10):
            row = 9 - r
            self.queues["W", row] = [rows[r][1][0], rows[r][0][0]]
            self.queues["E", row] = [rows[r][10][0], rows[r][11][0]]
            for col in range(8):
                cell = rows[r][2 + col]
                if cell != "..":
                    self.board[col, row] = (cell[0], cell[1])
        self.stack = [] if stack == "-" else list(stack)
        self.blocks, self.score = int(blocks), int(score)
        self.rng = SeededRandom(0)
        self.rng.state = rng_state
        present = [LETTERS.index(ch) + 1 for ch in picture if ch in LETTERS] + [LETTERS.index(ch) + 1 for ch in self.stack]
        self.colours = max([colours] + present)
        """A set-up plays with the scenario's colours or the highest letter present, whichever is more."""

    def text(self) -> str:
        rows = ["++++" + "".join(self.queues["N", lane][1] + "." for lane in range(8)) + "++++",
                "++++" + "".join(self.queues["N", lane][0] + "." for lane in range(8)) + "++++"]
        for row in range(7, -1, -1):
            line = self.queues["W", row][1] + "." + self.queues["W", row][0] + "."
            for col in range(8):
                chip = self.board.get((col, row))
                line += chip[0] + chip[1] if chip else ".."
            rows.append(line + self.queues["E", row][0] + "." + self.queues["E", row][1] + ".")
        rows.append("++++" + "".join(self.queues["S", lane][0] + "." for lane in range(8)) + "++++")
        rows.append("++++" + "".join(self.queues["S", lane][1] + "." for lane in range(8)) + "++++")
        return f"{'/'.join(rows)} {''.join(self.stack) or '-'} {self.blocks} {self.score} {self.mode}"

    def legal(self) -> set[str]:
        moves = set()
        for side in "NESW":
            for lane in range(8):
                cells = lane_cells(side, lane)
                name = side + (COLUMNS[lane] if side in "NS" else str(lane + 1))
                if not any(cell in self.board for cell in cells):
                    continue
                entry_free = cells[0] not in self.board
                if self.mode in ("classic", "mixed") and entry_free:
                    moves.add(name)
                if self.mode == "knockout":
                    moves.add(name)
                if self.mode == "mixed":
                    moves.add(name + "*")
        return moves

    # ----- the move cycle ------------------------------------------------------------
    def top_up(self) -> None:
        while len(self.stack) < 3:
            self.stack.append(LETTERS[self.rng.below(self.colours)])

    def into_queue(self, side: str, lane: int, colour: str) -> None:
        """A chip leaving the board: inner place, old inner out, old outer under the stack."""
        queue = self.queues[side, lane]
        self.stack.append(queue[1])
        queue[1] = queue[0]
        queue[0] = colour

    def play(self, move: str) -> bool:
        """Make the move; True if the level ended (the caller resyncs)."""
        side = move[0]
        lane = COLUMNS.index(move[1]) if side in "NS" else int(move[1]) - 1
        pushes = self.mode == "knockout" or move.endswith("*")
        queue = self.queues[side, lane]
        colour = queue[0]
        queue[0] = queue[1]
        self.top_up()
        queue[1] = self.stack.pop(0)
        self.top_up()
        pointer = SHOT_POINTER[side]
        cells = lane_cells(side, lane)
        at = 0
        while cells[at] not in self.board:          # travel to the first chip
            at += 1
        if pushes:
            run_end = at
            while run_end < 8 and cells[run_end] in self.board:
                run_end += 1
            if run_end == 8:                         # the last chip of the run goes over the edge
                leaving = self.board.pop(cells[7])
                self.into_queue(OPPOSITE[side], lane, leaving[0])
                run_end = 7
            for i in range(run_end - 1, at - 1, -1):
                self.board[cells[i + 1]] = self.board.pop(cells[i])
            self.board[cells[at]] = (colour, pointer)
        else:
            self.board[cells[at - 1]] = (colour, pointer)
        while True:
            removed = self.remove_blocks()
            moved = self.slide_passes()
            if not removed and not moved:
                break
        if self.blocks >= 64 or not self.board:
            if not self.board:
                self.score += 32
            return True
        return False

    def remove_blocks(self) -> bool:
        groups = []
        seen: set[Cell] = set()
        for cell in sorted(self.board):
            if cell in seen:
                continue
            colour = self.board[cell][0]
            group = [cell]
            seen.add(cell)
            i = 0
            while i < len(group):
                x, y = group[i]
                for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if near in self.board and near not in seen and self.board[near][0] == colour:
                        seen.add(near)
                        group.append(near)
                i += 1
            if len(group) >= 3:
                groups.append(group)
        for group in groups:
            points = 1
            for size in range(4, len(group) + 1):   # 1, 2, 4, 7, 11: each chip more adds one more
                points += size - 3
            self.score += points
            self.blocks += 1
            for cell in group:
                del self.board[cell]
        return bool(groups)

    def slide_passes(self) -> bool:
        moved_any = False
        while True:
            movers = [(col, row) for row in range(7, -1, -1) for col in range(8)
                      if (col, row) in self.board and self.board[col, row][1] != "."]
            moved = False
            for cell in movers:
                chip = self.board[cell]
                dx, dy = HEADING[chip[1]]
                here = cell
                while True:
                    ahead = (here[0] + dx, here[1] + dy)
                    if not on_board(ahead):
                        del self.board[cell]
                        lane = here[0] if chip[1] in "^v" else here[1]
                        self.into_queue(EXIT[chip[1]], lane, chip[0])
                        moved = True
                        break
                    if ahead in self.board:
                        if here != cell:
                            del self.board[cell]
                            self.board[here] = chip
                            moved = True
                        break
                    here = ahead
            if not moved:
                return moved_any
            moved_any = True


def random_setup(rng: random.Random, mode: str) -> str:
    """A crowded board with many pointer chips and few colours (so blocks and cascades are common)."""
    colours = LETTERS[:rng.randint(4, 6)]
    rows = []
    chips = rng.randint(20, 56)
    cells = set(rng.sample(range(64), chips))

    def queue() -> str:
        return rng.choice(colours) + "."

    rows.append("++++" + "".join(queue() for _ in range(8)) + "++++")
    rows.append("++++" + "".join(queue() for _ in range(8)) + "++++")
    for r in range(8):
        line = queue() + queue()
        for c in range(8):
            if r * 8 + c in cells:
                line += rng.choice(colours) + rng.choice(".....^v<>")
            else:
                line += ".."
        rows.append(line + queue() + queue())
    rows.append("++++" + "".join(queue() for _ in range(8)) + "++++")
    rows.append("++++" + "".join(queue() for _ in range(8)) + "++++")
    stack = "".join(rng.choice(colours) for _ in range(rng.randint(0, 5))) or "-"
    return f"{'/'.join(rows)} {stack} {rng.choice([0, 5, 60, 63])} {rng.randint(0, 50)} {mode}"


def scenario_colours(level: int) -> int:
    """The default scenario (5 to 8 colours, one more every 5 levels, 20 levels a circle)."""
    return 5 + (level % 20) // 5


def compare_game(game: Abatis, moves: int, rng: random.Random) -> dict[str, int]:
    """Play ``moves`` random moves, comparing after each; counts of what happened."""
    seen = {"levels": 0, "pushes_off": 0, "exits": 0, "cascades": 0}
    model = Model(game.position(), game.rng.state, scenario_colours(game.level))
    for _ in range(moves):
        legal = model.legal()
        assert legal == {game.move_text(m) for m in game.legal_moves()}, game.position()
        if not legal:
            assert game.is_over()
            break
        text = rng.choice(sorted(legal))
        before = game.position()
        level = game.level
        ended = model.play(text)
        game.push_text(text)
        kinds = [kind for kind, _ in game.last_steps]
        seen["cascades"] += kinds.count("remove") > 1
        seen["exits"] += sum(1 for kind, motions in game.last_steps if kind == "slide"
                             for motion in motions if motion[3] >= 64)
        seen["pushes_off"] += sum(1 for motion in game.last_steps[0][1] if motion[2] < 64 <= motion[3])
        if ended:
            assert game.level == level + 1, (before, text)
            assert game.score == model.score, (before, text)
            seen["levels"] += 1
            model = Model(game.position(), game.rng.state, scenario_colours(game.level))
        else:
            assert game.level == level, (before, text)
            assert game.position() == model.text(), (before, text)
            assert game.rng.state == model.rng.state
    return seen


@pytest.mark.parametrize("mode", ["classic", "knockout", "mixed"])
def test_engine_and_model_agree_from_the_start(mode: str) -> None:
    rng = random.Random(mode)
    for seed in range(12):
        compare_game(Abatis({"mode": mode}, seed=seed), 60, rng)


@pytest.mark.parametrize("mode", ["classic", "knockout", "mixed"])
def test_engine_and_model_agree_from_crowded_setups(mode: str) -> None:
    rng = random.Random(f"crowded-{mode}")
    totals = {"levels": 0, "pushes_off": 0, "exits": 0, "cascades": 0}
    for index in range(40):
        setup = random_setup(rng, mode)
        seen = compare_game(Abatis({"mode": mode}, seed=index, setup=setup), 25, rng)
        for key, count in seen.items():
            totals[key] += count
    assert totals["exits"] > 0 and totals["cascades"] > 0 and totals["levels"] > 0
    if mode != "classic":
        assert totals["pushes_off"] > 0
