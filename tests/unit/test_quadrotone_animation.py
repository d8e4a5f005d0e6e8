"""A Quadrotone move animates: placed chips are set down (one's own) or grow
(an opponent's), moved chips slide and turned chips turn, then the outline,
each pattern, chain and fence in order; the speeds scale it, ``off`` drops
it, and every frame draws."""

from __future__ import annotations

import re

from tessera.core import registry  # noqa: F401  (the games' catalog parts)
from tessera.core.animation import MAX_TOTAL_MS, SPEED_FACTORS, Timeline
from tessera.core.draw import DrawList, to_svg
from tessera.core.rng import SeededRandom
from tessera.core.view import ViewState
from tessera.games.quadrotone import Quadrotone
from tessera.games.quadrotone.animation import (CHAIN, DROP, FENCE, GROW, MARK, PATTERN, SLIDE, TURN,
                                                moving_squares, quarter_angle)
from tessera.games.quadrotone.chips import rotate
from tessera.games.quadrotone.field import parse_square
from tessera.games.quadrotone.notation import ARRANGE, EXPIRED, PLACE
from tessera.games.quadrotone.sampler import random_move
from tessera.games.quadrotone.view import QuadrotoneView


def played(kind: str, least: int = 1, scoring: bool = True, seed: int = 3) -> Quadrotone:
    """A game whose last move is of ``kind`` with at least ``least`` chips (and scored)."""
    game = Quadrotone(seed=seed)
    rng = SeededRandom(seed + 2)
    while True:
        move = random_move(game, rng, place_share=0.8)
        game.push(move)
        if game.ply > 12 and move[0] == kind and len(move[1]) >= least and (game.last_scored or not scoring):
            return game


def four_looks(game: Quadrotone) -> int:
    """A chip of the side to move that looks different at each quarter turn."""
    return next(c for c in sorted(game.hands[game.to_move]) if len({rotate(c, t) for t in range(4)}) == 4)


def kinds(timeline: Timeline) -> list[str]:
    return [step.kind for step in sorted(timeline.steps, key=lambda step: (step.start, step.kind))]


def texts(drawing: DrawList) -> list[str]:
    return re.findall(r">([^<>]+)</text>", to_svg(drawing))


def test_own_placed_chips_are_set_down_then_the_score_shows_in_order() -> None:
    game = played(PLACE, least=2)
    move = game.move_stack[-1]
    timeline = QuadrotoneView.move_animation(game, move, False)
    drops = [step for step in timeline.steps if step.kind == DROP]
    assert [step.target for step in drops] == [square for _, _, square in move[1]]
    assert all(b.start > a.start for a, b in zip(drops, drops[1:]))          # one after another
    mark = next(step for step in timeline.steps if step.kind == MARK)
    patterns = [step for step in timeline.steps if step.kind == PATTERN]
    assert [step.target for step in patterns] == list(range(len(game.last_scored)))
    assert mark.start >= drops[0].end - mark.duration and patterns[0].start >= mark.start
    assert all(b.start > a.start for a, b in zip(patterns, patterns[1:]))
    assert all(step.duration > 0 for step in timeline.steps)


def test_an_opponents_chips_grow_in_place() -> None:
    game = played(PLACE, least=2)
    timeline = QuadrotoneView.move_animation(game, game.move_stack[-1], True)
    assert {step.kind for step in timeline.steps} >= {GROW, MARK} and DROP not in kinds(timeline)


def test_moved_chips_slide_and_turned_chips_turn() -> None:
    game = Quadrotone(seed=4)
    for square in ("c3", "d3", "e3", "f3"):
        chip = four_looks(game)
        game.push((PLACE, ((chip, 0, parse_square(square)),)))
    move = game.parse_move("c3-h8r1,d3r2")
    game.push(move)
    timeline = QuadrotoneView.move_animation(game, move, False)
    slides = [step for step in timeline.steps if step.kind == SLIDE]
    turns = [step for step in timeline.steps if step.kind == TURN]
    assert [step.target for step in slides] == [(parse_square("c3"), parse_square("h8"), 1)]
    assert [step.target[0] for step in turns] == [parse_square("d3")]
    assert quarter_angle(1) == 90 and quarter_angle(3) == -90 and quarter_angle(2) == 180
    frame = timeline.frame(slides[0].duration / 2)
    assert moving_squares(frame) == {parse_square("h8"), parse_square("d3")}
    assert moving_squares(timeline.frame(timeline.total - 1)) == frozenset()
    swap = game.parse_move("h8-e3,e3-h8")   # the two change places
    game.push(swap)
    targets = {step.target[:2] for step in QuadrotoneView.move_animation(game, swap, False).steps if step.kind == SLIDE}
    assert targets == {(parse_square("h8"), parse_square("e3")), (parse_square("e3"), parse_square("h8"))}


def test_chains_and_the_fence_follow_the_patterns() -> None:
    game = Quadrotone(seed=6)
    rng = SeededRandom(2)
    while not (game.last_regions[0] and game.last_scored):
        game.push(random_move(game, rng, place_share=0.9))
    timeline = QuadrotoneView.move_animation(game, game.move_stack[-1], False)
    chains = [step for step in timeline.steps if step.kind == CHAIN]
    assert len(chains) == len(game.last_regions[0])
    last_pattern = max(step.start for step in timeline.steps if step.kind == PATTERN)
    assert chains[0].start >= last_pattern
    fence = game.last_regions[1]
    assert any(step.kind == FENCE for step in timeline.steps) == bool(fence is not None and fence.points)


def test_no_animation_for_an_old_move_or_an_expired_turn() -> None:
    game = played(PLACE)
    older = game.move_stack[-2]
    assert len(QuadrotoneView.move_animation(game, older, False)) == 0
    game.push(EXPIRED)
    assert len(QuadrotoneView.move_animation(game, EXPIRED, False)) == 0


def test_the_speeds_scale_the_timeline_and_off_drops_it() -> None:
    game = played(PLACE, least=3)
    timeline = QuadrotoneView.move_animation(game, game.move_stack[-1], True)
    normal = timeline.scaled(SPEED_FACTORS["normal"])
    fast = timeline.scaled(SPEED_FACTORS["fast"])
    assert timeline.total > MAX_TOTAL_MS / 2
    assert normal.total == min(timeline.total, MAX_TOTAL_MS)
    assert abs(fast.total - normal.total / 2) < 1e-6
    assert len(timeline.scaled(SPEED_FACTORS["off"])) == 0


def test_every_frame_draws_and_the_score_appears_step_by_step() -> None:
    view = QuadrotoneView()
    for kind, emphasis in ((PLACE, False), (PLACE, True), (ARRANGE, False)):
        game = played(kind, least=2)
        timeline = view.move_animation(game, game.move_stack[-1], emphasis).scaled(1.0)
        still = DrawList(640, 730)
        view.draw(game, ViewState(), still)
        labels = [text for text in texts(still) if text.startswith("+")]
        assert labels, "the points of what the move scored are shown (crowded ones keep only their numbers)"
        steps = 12
        for index in range(steps + 1):
            frame = timeline.frame(timeline.total * index / steps)
            drawing = DrawList(640, 730)
            view.draw(game, ViewState(shapes=True, highlights={"animation": frame}), drawing)
            shown = [text for text in texts(drawing) if text.startswith("+")]
            if index == 0:
                assert shown == []                           # nothing scored shows before the chips land
            assert len(shown) <= len(labels)
        assert timeline.frame(timeline.total) is None


def test_a_turning_chip_is_drawn_turned_part_way() -> None:
    game = Quadrotone(seed=4)
    game.push((PLACE, ((four_looks(game), 0, parse_square("h8")),)))
    game.push((PLACE, ((sorted(game.hands[game.to_move])[0], 0, parse_square("a1")),)))
    move = game.parse_move("h8r1")
    game.push(move)
    timeline = QuadrotoneView.move_animation(game, move, False)
    turn = next(step for step in timeline.steps if step.kind == TURN)
    drawing = DrawList(640, 730)
    QuadrotoneView().draw(game, ViewState(highlights={"animation": timeline.frame(turn.duration / 2)}), drawing)
    assert "<polygon" in to_svg(drawing)                     # the chip's squares at an angle
