"""Abatis' board view: the drawing (a symbol on every chip), taps on the
queues in each mode, the keyboard cursor, the palettes' contrast and the
move animation rebuilt from ``last_steps``."""

from __future__ import annotations

from itertools import combinations

import pytest

from tessera.core.contrast import GRAPHICS, ratio
from tessera.core.draw import OP_CIRCLE, DrawList
from tessera.core.view import ViewState
from tessera.games.abatis import Abatis
from tessera.games.abatis.animation import LEVEL, REMOVE, SHOT, SLIDE, current, move_timeline, phase_kinds
from tessera.games.abatis.geometry import COLOURS, LANES
from tessera.games.abatis.rules import KNOCKOUT_FLAG
from tessera.games.abatis.view import (GRID, PALETTES, QUEUE_PLACES, SYMBOLS, AbatisView, draw_symbol,
                                       place_center)

VIEW = AbatisView()
W, H = 520.0, 580.0


def position(cells: dict[str, str], mode: str = "classic", inner: dict[tuple[int, int], str] | None = None,
             fill: str = "B", stack: str = "GYP") -> str:
    """A position string: ``cells`` like {"b1": "R."}, every queue chip ``fill``
    except the inner chips named in ``inner`` {(side, lane): letter}."""
    grid = [["++" if r in (0, 1, 10, 11) and c in (0, 1, 10, 11) else fill + "." for c in range(12)]
            for r in range(12)]
    for r in range(2, 10):
        for c in range(2, 10):
            grid[r][c] = ".."
    for name, text in cells.items():
        grid[9 - (int(name[1]) - 1)][2 + "abcdefgh".index(name[0])] = text
    spots = {0: lambda lane: (1, 2 + lane), 2: lambda lane: (10, 2 + lane),
             3: lambda lane: (9 - lane, 1), 1: lambda lane: (9 - lane, 10)}
    for (side, lane), letter in (inner or {}).items():
        r, c = spots[side](lane)
        grid[r][c] = letter + "."
    return "/".join("".join(row) for row in grid) + f" {stack} 0 0 {mode}"


def drawn(game: Abatis, state: ViewState | None = None) -> DrawList:
    out = DrawList(W, H)
    VIEW.draw(game, state or ViewState(), out)
    return out


def symbol_ops(name: str) -> list[tuple[int, list[float]]]:
    probe = DrawList(100, 100)
    draw_symbol(probe, name, 50, 50, 10, "#123456")
    return list(probe.commands())


def test_every_chip_gets_a_disc_and_its_colours_symbol() -> None:
    """A position with all ten colours draws one disc per chip (board, queues,
    three preview chips) and each colour's own symbol as often as it has chips."""
    cells = {f"{'abcdefgh'[i % 8]}{1 + i // 8}": COLOURS[i % 10] + ".^v<>"[i % 5] for i in range(0, 40, 3)}
    game = Abatis({"colours_min": 10, "colours_max": 10}, setup=position(cells, fill="K", stack="RGBY"))
    palette = PALETTES["light"]
    out = drawn(game, ViewState(interactive=False))
    discs = [a for op, a in out.commands() if op == OP_CIRCLE and a[2] > 8]
    chips = game.chips_on_board() + 64 + 3
    per_colour = {colour: 0 for colour in range(1, 11)}
    for cell in range(64):
        colour = game.chip(cell)[0]
        if colour:
            per_colour[colour] += 1
    per_colour[10] += 64   # every queue chip is black
    for colour in game.preview():
        per_colour[colour] += 1
    fills = [out.strings[int(a[3])] for a in discs]
    assert sum(fills.count(palette.chips[c - 1]) for c in per_colour) == chips
    for colour, count in per_colour.items():
        assert fills.count(palette.chips[colour - 1]) == count, COLOURS[colour - 1]


def test_the_ten_symbols_are_ten_different_drawings() -> None:
    shapes = [tuple((op, tuple(round(v, 1) for v in args[:-1])) for op, args in symbol_ops(name))
              for name in SYMBOLS]
    assert all(shapes) and len(set(shapes)) == len(SYMBOLS) == 10


@pytest.mark.parametrize("theme", sorted(PALETTES))
def test_palette_chips_are_distinct_and_stand_out_from_the_tray(theme: str) -> None:
    palette = PALETTES[theme]
    assert len(palette.chips) == len(palette.marks) == 10
    for chip, mark in zip(palette.chips, palette.marks):
        assert ratio(chip, palette.board) >= GRAPHICS, chip
        assert ratio(mark, chip) >= GRAPHICS, (mark, chip)

    def rgb(colour: str) -> tuple[int, ...]:
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    for first, second in combinations(palette.chips, 2):
        distance = sum((a - b) ** 2 for a, b in zip(rgb(first), rgb(second))) ** 0.5
        assert distance >= 60, (first, second)
    from tessera.games.abatis.view import CONTRAST_PAIRS
    from tessera.core.contrast import over
    for field, under, need in CONTRAST_PAIRS:
        assert ratio(over(getattr(palette, field), getattr(palette, under)), getattr(palette, under)) >= need, field


@pytest.mark.parametrize("mode", ["classic", "knockout", "mixed"])
def test_tapping_the_centre_of_each_queue_chip_plays_its_lane(mode: str) -> None:
    """Inner chips shoot the lane; outer chips too, except in Mixed where they
    shoot Knockout (``*``); a lane that cannot be shot gives no move."""
    game = Abatis(setup=position({"a1": "R.", "d4": "G.", "h8": "Y.", "e5": "P."}, mode=mode))
    legal = set(game.legal_moves())
    state = ViewState()
    for place in QUEUE_PLACES:
        side, lane, depth = place
        x, y = place_center(place, W, H)
        assert VIEW.cell_at(game, state, W, H, x, y) == place
        move = VIEW.tap(game, state, place).move
        expected = side * LANES + lane + (KNOCKOUT_FLAG if mode == "mixed" and depth else 0)
        assert move == (expected if expected in legal else None), (place, mode)
        if move is not None:
            assert game.move_text(move).endswith("*") == (mode == "mixed" and depth == 1)
            assert VIEW.move_cell(game, move) == (place if mode == "mixed" else (side, lane, 0))


def test_board_cells_are_hit_but_never_play_and_nothing_plays_when_not_interactive() -> None:
    game = Abatis(setup=position({"a1": "R.", "d4": "G."}))
    state = ViewState()
    for cell in range(64):
        x, y = place_center(cell, W, H)
        assert VIEW.cell_at(game, state, W, H, x, y) == cell
        assert VIEW.tap(game, state, cell).move is None
    corner = place_center((0, 0, 1), W, H)
    assert VIEW.cell_at(game, state, W, H, corner[0] - 60, corner[1]) is None   # the empty corner
    legal_place = VIEW.move_cell(game, game.legal_moves()[0])
    assert VIEW.tap(game, state, legal_place).move is not None
    assert VIEW.tap(game, ViewState(interactive=False), legal_place).move is None


def test_playable_rings_only_while_interactive() -> None:
    game = Abatis(setup=position({"a1": "R.", "d4": "G."}))
    ring = PALETTES["light"].playable

    def rings(interactive: bool) -> int:
        out = drawn(game, ViewState(interactive=interactive))
        return sum(1 for op, a in out.commands() if op == 5 and out.strings[int(a[3])] == ring)
    assert rings(True) == len(game.legal_moves()) > 0
    assert rings(False) == 0


def test_the_arrow_keys_reach_every_queue_chip_and_board_cell() -> None:
    game = Abatis(seed=3)
    start = VIEW.initial_cursor(game, ViewState())
    assert start in QUEUE_PLACES
    seen = {start}
    frontier = [start]
    while frontier:
        place = frontier.pop()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            step = VIEW.step_cell(place, dx, dy)
            assert step in GRID.values()
            if step not in seen:
                seen.add(step)
                frontier.append(step)
    assert seen == set(GRID.values()) and len(seen) == 128
    assert VIEW.step_cell((0, 0, 1), 0, -1) == (0, 0, 1)   # the edge keeps the cursor


def cascade_game() -> Abatis:
    """Nb lands on b2: the reds b1 b2 c1 go, the yellow e1 slides to b1 and
    completes a1 a2 b1, the green f6 slides off into the E queue; the board
    is then empty, so a new level begins with the bonus."""
    game = Abatis(setup=position({"b1": "R.", "c1": "R.", "e1": "Y<", "a1": "Y.", "a2": "Y.", "f6": "G>"},
                                 inner={(0, 1): "R"}))
    game.push_text("Nb")
    return game


def test_a_cascade_animates_its_phases_in_order_and_ends_on_the_final_position() -> None:
    game = cascade_game()
    timeline = VIEW.move_animation(game, game.move_stack[-1])
    kinds = phase_kinds(timeline)
    assert kinds == [kind for kind, _ in game.last_steps] == [SHOT, REMOVE, SLIDE, REMOVE, LEVEL]
    steps = sorted(timeline.steps, key=lambda step: step.start)
    assert all(a.end <= b.start + 1e-9 for a, b in zip(steps, steps[1:]))
    last = steps[-1].target
    assert last.after_board == bytes(game.board) and last.after_queues == bytes(game.queues)
    assert last.after_preview == tuple(game.preview()) and last.level == game.level and last.bonus == 32
    first = steps[0].target
    before = game.copy()
    before.pop()
    blocks = [phase for phase in (s.target for s in steps) if phase.kind == REMOVE]
    assert [cells for phase in blocks for cells, _, _ in phase.blocks] == [(1, 2, 9), (0, 1, 8)]
    # the shot's still picture is the old board less the chip it shoots
    assert first.board == bytes(before.board) and first.lane == 1
    assert timeline.frame(timeline.total) is None   # then the board draws the game as it stands


def test_a_frame_draws_the_moving_chip_between_its_places() -> None:
    game = cascade_game()
    timeline = VIEW.move_animation(game, game.move_stack[-1])
    shot = timeline.steps[0]
    frame = timeline.frame(shot.start + shot.duration / 2)
    phase, share = current(frame)
    assert phase.kind == SHOT and 0 < share < 1
    chip = phase.chains[-1]
    x, y = chip.point(share)
    assert x == 3.5 and 1.5 < y < 8.5   # in lane b, between the queue and b2
    state = ViewState()
    state.highlights["animation"] = frame
    assert len(drawn(game, state).ops) > 0
    level = timeline.steps[-1]
    state.highlights["animation"] = timeline.frame(level.start + level.duration / 2)
    texts = drawn(game, state).strings
    assert "+32" in texts


def test_a_knockout_push_moves_the_run_and_the_edge_chip_leaves_into_the_far_queue() -> None:
    game = Abatis(setup=position({"d1": "R.", "d2": "G.", "d3": "P."}, mode="knockout", inner={(0, 3): "O"}))
    before_south_inner = game.queue_chip(2, 3, 0)
    game.push_text("Nd")
    timeline = move_timeline(game, game.move_stack[-1])
    phase = timeline.steps[0].target
    targets = {(chain.source, chain.target) for chain in phase.chains}
    d1, d2, d3 = 3, 11, 19
    assert (d1, 64 + (2 * LANES + 3) * 2) in targets          # d1 leaves into S d inner
    assert (d2, d1) in targets and (d3, d2) in targets        # the run moves one on
    assert game.queue_chip(2, 3, 1) == before_south_inner  # the inner moved out
    pushed = [chain for chain in phase.chains if chain.source < 64]
    shot = phase.chains[-1]
    assert all(chain.begin > shot.begin for chain in pushed)   # they move when the shot chip reaches them


def test_no_animation_for_a_move_that_is_not_the_last() -> None:
    game = cascade_game()
    assert len(move_timeline(game, 5)) == 0
    assert len(move_timeline(Abatis(seed=1), 0)) == 0
