"""Landing sums for the Dots bots (``landing.Grounding``) and the master's
use of them: a grounding that wins is played, one that would lose is blocked."""

from __future__ import annotations

import pytest

from tessera.core.rng import SeededRandom
from tessera.games.dots import LAND, Dots
from tessera.games.dots.bot import DotsReaderBot
from tessera.games.dots.landing import Grounding
from tessera.games.dots.master import DotsMasterBot


def _margin(field, player: int) -> int:
    after = field.scores_after_landing(player)
    return after[player] - after[1 - player]


def _random_game(size: str, moves: int, seed: int) -> Dots:
    game = Dots({"size": size, "start": "empty"})
    game.random_fill(SeededRandom(seed), moves)
    return game


@pytest.mark.parametrize("size,moves,seed", [("8x8", 30, 1), ("8x8", 50, 2), ("10x10", 70, 3),
                                             ("10x10", 90, 4), ("12x9", 60, 5), ("6x6", 28, 6)])
def test_grounding_counts_each_free_point_as_a_trial_move_would(size: str, moves: int, seed: int) -> None:
    """For every free point where a dot neither captures nor is taken, the
    landing margin after a trial move is the margin now plus what
    ``Grounding`` says the point grounds; the new dot itself costs one more
    when it touches neither the edge nor a grounded cell."""
    game = _random_game(size, moves, seed)
    field = game.field
    checked = 0
    for player in (0, 1):
        grounding = Grounding(field, player)
        assert grounding.margin == _margin(field, player)
        gains = {point: gain for gain, point in grounding.points}
        assert all(gain > 0 for gain in gains.values())
        seen = field.grounded(player)
        stride = field.stride
        for cell in field.free_cells():
            x, y = field.xy(cell)
            touches_ground = (x in (1, field.width) or y in (1, field.height)
                              or any(seen[cell + step] for step in (1, -1, stride, -stride)))
            score, regions = tuple(field.score), len(field.regions)
            field.place(cell, player)
            quiet = tuple(field.score) == score and len(field.regions) == regions
            after = _margin(field, player)
            field.undo()
            if not quiet:
                continue
            checked += 1
            expected = grounding.margin + gains.get(cell, 0) - (0 if touches_ground else 1)
            assert after == expected, (player, field.xy(cell))
            if cell in gains:
                assert touches_ground and cell in grounding.frontier
    assert checked > 8


def _blue_column(red_blocks_first: bool) -> Dots:
    """Blue has captured a red dot and built a column down to 5-2: one dot
    on 5-1 grounds all seven dots of the group (six blue, one red inside),
    and blue then wins by landing
    (1 against 0).  Red's dots are far away and capture nothing."""
    game = Dots({"size": "20x20", "start": "empty"})
    moves = ["5-6", "5-5", "4-5", "15-15", "6-5", "16-16", "5-4", "17-17", "5-3", "15-17", "5-2"]
    if not red_blocks_first:
        moves.append("17-15")
    for text in moves:
        game.push_text(text)
    assert game.scores() == (1, 0)
    return game


def test_the_master_grounds_and_then_lands() -> None:
    """With a winning grounding on the field the master plays it without
    reading, and lands on its next turn."""
    game = _blue_column(red_blocks_first=False)
    grounding = Grounding(game.field, 0)
    assert grounding.margin == -6
    assert [game.move_text(c) for c in grounding.winning_points()] == ["5-1"]
    master = DotsMasterBot(seed=1, movetime_ms=0, max_depth=3)
    move = master.choose(game)
    assert game.move_text(move) == "5-1"
    assert master.depth_reached == 0
    game.push(move)
    game.push_text("18-18")
    assert master.choose(game) == LAND


def test_the_master_blocks_a_winning_grounding() -> None:
    """Red to move: blue threatens 5-1 and then a won landing.  The master
    takes the point; without its landing sums it does not."""
    game = _blue_column(red_blocks_first=True)
    assert game.to_move == 1
    master = DotsMasterBot(seed=1, movetime_ms=0, max_depth=3)
    assert game.move_text(master.choose(game)) == "5-1"
    blind = DotsMasterBot(seed=1, movetime_ms=0, max_depth=3, landing=0)
    assert game.move_text(blind.choose(game)) != "5-1"
    assert game.move_text(DotsReaderBot(seed=1, movetime_ms=0, max_depth=3).choose(game)) != "5-1"


def _group_grounded(field, player: int, cell: int) -> bool:
    return bool(field.grounded(player)[cell])


@pytest.mark.parametrize("size,moves,seed", [("7x7", 16, 12), ("8x8", 20, 14), ("9x9", 24, 21),
                                             ("10x10", 30, 22), ("10x8", 26, 23)])
def test_group_distances_are_the_fewest_dots_to_the_ground(size: str, moves: int, seed: int) -> None:
    """Each ungrounded group's distance is the fewest dots that join it to
    the ground: following the first points it gives grounds the group in
    exactly that many dots (the field's own ``grounded`` says so), and no
    set of one dot fewer does (tried exhaustively on small fields)."""
    from itertools import combinations

    game = _random_game(size, moves, seed)
    field = game.field
    checked: dict[int, int] = {}
    for player in (0, 1):
        grounding = Grounding(field, player)
        steps, _ = grounding.distances()
        labels = {}
        for cell in field.cells:
            if field.live[player][cell] and not field.grounded(player)[cell]:
                labels.setdefault(grounding.group_of(cell), cell)
        for label, member in labels.items():
            distance = steps[label]
            if distance > 3:
                continue
            placed = 0
            score, regions = tuple(field.score), len(field.regions)
            while not _group_grounded(field, player, member) and placed < distance:
                now = Grounding(field, player)
                first = now.distances()[1][now.group_of(member)]
                assert first >= 0
                field.place(first, player)
                placed += 1
            quiet = tuple(field.score) == score and len(field.regions) == regions
            grounded = _group_grounded(field, player, member)
            for _ in range(placed):
                field.undo()
            if not quiet:
                continue
            assert grounded and placed == distance
            for cells in combinations(field.free_cells(), distance - 1):
                for c in cells:
                    field.place(c, player)
                assert not _group_grounded(field, player, member) or tuple(field.score) != score
                for _ in cells:
                    field.undo()
            checked[distance] = checked.get(distance, 0) + 1
    assert checked.get(1) and checked.get(2)
