"""Move animations: the pure timeline, and how each game's view describes and draws a move.

Time is a number handed in (milliseconds): nothing waits, nothing is timed.
"""

from __future__ import annotations

import asyncio

import pytest

from tessera.core.animation import (
    EASE_BACK, EASE_IN_OUT, EASE_OUT, MAX_TOTAL_MS, SPEED_FACTORS, Animation, Frame, Step, Timeline, ease,
    fade, mix)
from tessera.core.draw import OP_CIRCLE, OP_POLYGON, OP_POLYLINE, DrawList
from tessera.core.session import LocalHuman, Participant, Seat, Session
from tessera.core.view import ViewState
from tessera.games.dots import Dots
from tessera.games.dots import animation as dots_anim
from tessera.games.dots.view import DotsView
from tessera.games.quadrature import Quadrature
from tessera.games.quadrature import animation as quad_anim
from tessera.games.quadrature.examples import EXAMPLES
from tessera.games.quadrature.rules import BLACK, WHITE, move_from, move_to, parse_square
from tessera.games.quadrature.view import PALETTE, QuadratureView, square_center


# ----- the timeline ------------------------------------------------------------------------

@pytest.mark.parametrize("kind", [EASE_OUT, EASE_IN_OUT, EASE_BACK, "linear"])
def test_easings_start_at_0_and_end_at_1(kind: str) -> None:
    assert ease(kind, 0.0) == pytest.approx(0.0) and ease(kind, 1.0) == pytest.approx(1.0)
    assert ease(kind, -3) == pytest.approx(0.0) and ease(kind, 7) == pytest.approx(1.0)


def test_a_step_is_0_before_1_after_and_between_while_it_runs() -> None:
    step = Step("slide", start=100, duration=200)
    assert step.progress(0) == 0 and step.progress(100) == 0
    assert 0 < step.progress(150) < step.progress(250) < 1
    assert step.progress(300) == 1 and step.progress(10_000) == 1
    assert Step("x", 0, 0).progress(0) == 0 and Step("x", 0, 0).progress(0.001) == 1


def test_then_and_stagger_build_in_order() -> None:
    timeline = Timeline()
    timeline.add("slide", 200, "a")
    flips = timeline.stagger("flip", ["p", "q", "r"], duration=240, gap=100)
    assert [step.start for step in flips] == [200, 300, 400]
    assert timeline.total == 640 == timeline.cursor
    after = timeline.then("pulse", 100, overlap=40)
    assert after.start == 600 and timeline.total == 700


def test_speeds_scale_and_off_means_none() -> None:
    timeline = Timeline()
    timeline.add("slide", 200)
    timeline.add("flip", 300, "q")
    fast = timeline.scaled(SPEED_FACTORS["fast"])
    assert fast.total == pytest.approx(timeline.total / 2)
    assert [(s.start, s.duration) for s in fast.steps] == [(0, 100), (100, 150)]
    assert len(timeline.scaled(SPEED_FACTORS["off"])) == 0 and timeline.scaled(1.0).total == 500


def test_a_long_animation_is_squeezed() -> None:
    """Many conversions never hold the game up for long: the whole is capped."""
    timeline = Timeline()
    timeline.stagger("flip", range(40), duration=240, gap=120)
    assert timeline.total > MAX_TOTAL_MS
    assert timeline.scaled(1.0).total == pytest.approx(MAX_TOTAL_MS)
    assert timeline.scaled(0.5).total == pytest.approx(MAX_TOTAL_MS / 2)


def test_frames_say_what_is_pending_running_and_done() -> None:
    timeline = Timeline()
    timeline.add("slide", 100, "s")
    timeline.add("flip", 100, 7)
    frame = timeline.frame(50)
    assert frame.running("slide", "s") and frame.pending("flip", 7) and not frame.done("flip", 7)
    assert frame.done("other") and frame.progress("other") == 1.0 and not frame.has("other")
    later = timeline.frame(150)
    assert later.done("slide", "s") and later.running("flip", 7) and later.targets("flip") == [7]
    assert timeline.frame(200) is None, "over: the view draws the position as it stands"


def test_an_overshooting_step_is_done_only_at_its_end() -> None:
    timeline = Timeline()
    timeline.add("dot", 100, 1, easing=EASE_BACK)
    peak = max(timeline.frame(t).progress("dot", 1) for t in range(0, 100, 5))
    assert peak > 1.0
    assert not timeline.frame(90).done("dot", 1)


def test_animation_plays_finishes_and_drops_a_stale_key() -> None:
    """Another position shown (a navigation, a move, an undo) finishes the animation at once."""
    timeline = Timeline()
    timeline.add("slide", 300)
    animation = Animation()
    assert animation.start(timeline, now=1000.0, key=("game", 5))
    assert isinstance(animation.frame(1100.0, ("game", 5)), Frame) and animation.running
    assert animation.frame(1300.0, ("game", 5)) is None and not animation.running
    animation.start(timeline, now=2000.0, key=("game", 6))
    assert animation.frame(2010.0, ("game", 7)) is None and not animation.running
    animation.start(timeline, now=3000.0, key="k")
    animation.finish()
    assert animation.frame(3001.0, "k") is None
    assert not animation.start(Timeline(), now=0.0), "nothing to play"


def test_colours_fade_and_mix() -> None:
    assert fade("#ff0000", 0.5) == "rgba(255, 0, 0, 0.500)"
    assert fade("rgba(37, 99, 217, 0.20)", 0.5) == "rgba(37, 99, 217, 0.100)"
    assert fade("#abc", 1.0) == "rgba(170, 187, 204, 1.000)"
    assert fade("currentColor", 0.3) == "currentColor"
    assert mix("#000000", "#ffffff", 0.5) == "rgba(128, 128, 128, 1.000)"
    assert mix("red", "#ffffff", 0.2) == "red" and mix("red", "#ffffff", 0.8) == "#ffffff"


# ----- Quadrature ---------------------------------------------------------------------------

def example_game(key: str) -> Quadrature:
    example = next(e for e in EXAMPLES if e.key == key)
    game = Quadrature(setup=example.setup_position)
    for text in example.moves:
        game.push_text(text)
    return game


def test_quadrature_slide_then_flips_in_the_ruled_order() -> None:
    """g5-h6 converts e6 and then, by a chain reaction, c6: they turn in that order, after the slide."""
    game = example_game("chain_reaction")
    move = game.move_stack[-1]
    timeline = QuadratureView.move_animation(game, move)
    kinds = [(step.kind, step.target) for step in timeline.steps]
    assert kinds == [("slide", (move_from(move), move_to(move))),
                     ("flip", parse_square("e6")), ("flip", parse_square("c6"))]
    slide, first, second = timeline.steps
    assert slide.end <= first.start < second.start < first.end
    assert all(kind != "pulse" for kind, _ in kinds)
    pulse = QuadratureView.move_animation(game, move, emphasis=True).steps[-1]
    assert (pulse.kind, pulse.target) == ("pulse", move_to(move))
    assert len(QuadratureView.move_animation(game, 12345)) == 0, "not the last move: nothing"


def checker_fills(out: DrawList, size: float) -> dict[tuple[int, int], str]:
    """Where full-size checkers are drawn, by rounded centre, and their colour."""
    spacing = size / (10 + 2 * 0.95)
    radius = 0.41 * spacing
    colours = {PALETTE.white_fill: "w", PALETTE.black_fill: "b"}
    return {(round(a[0]), round(a[1])): colours[out.strings[int(a[3])]] for op, a in out.commands()
            if op == OP_CIRCLE and out.strings[int(a[3])] in colours and abs(a[2] - radius) < 0.01}


def draw_at(view, game, timeline: Timeline, elapsed: float, size: float = 560.0) -> DrawList:
    out = DrawList(size, size)
    state = ViewState()
    frame = timeline.frame(elapsed)
    if frame is not None:
        state.highlights["animation"] = frame
    view.draw(game, state, out)
    return out


def test_quadrature_frames_show_the_move_unfolding() -> None:
    """At the start the checker is on its old point and the converted ones in their old colour;
    half-way through its slide it is between; when done the drawing is the still one."""
    view = QuadratureView()
    game = example_game("square_two")
    move = game.move_stack[-1]
    timeline = view.move_animation(game, move)
    frm, to = move_from(move), move_to(move)
    mover = game.piece_at(to)

    def at(sq: int) -> tuple[int, int]:
        x, y = square_center(sq, 560.0, 560.0)
        return round(x), round(y)

    start = checker_fills(draw_at(view, game, timeline, 0.0), 560.0)
    assert start.get(at(frm)) == "wb"[mover == BLACK] and at(to) not in start
    for name in ("d7", "h7"):
        assert start[at(parse_square(name))] == "wb"[mover == WHITE], "not turned yet: the old colour"

    middle = checker_fills(draw_at(view, game, timeline, quad_anim.SLIDE_MS / 2), 560.0)
    assert at(frm) not in middle and at(to) not in middle

    still = DrawList(560.0, 560.0)
    view.draw(game, ViewState(), still)
    assert draw_at(view, game, timeline, timeline.total).ops == still.ops
    assert quad_anim.animated_squares(None) == frozenset()


def test_quadrature_flip_look() -> None:
    assert quad_anim.flip_look(0.0, WHITE, BLACK) == (WHITE, 1.0)
    assert quad_anim.flip_look(0.25, WHITE, BLACK) == (WHITE, 0.5)
    colour, scale = quad_anim.flip_look(0.5, WHITE, BLACK)
    assert colour == BLACK and scale == quad_anim.MIN_FLIP_SCALE
    assert quad_anim.flip_look(1.0, WHITE, BLACK) == (BLACK, 1.0)


# ----- Dots ----------------------------------------------------------------------------------

def surrounding_game() -> Dots:
    """Blue closes a diamond round a red dot at 5-5 with its last move (5-4)."""
    game = Dots({"size": "10x10", "start": "empty"})
    for text in ("5-6", "5-5", "4-5", "9-9", "6-5", "9-8", "5-4"):
        game.push_text(text)
    return game


def test_dots_dot_then_chain_then_fill_and_dim() -> None:
    game = surrounding_game()
    assert game.scores()[0] == 1, "the red dot is surrounded"
    move = game.move_stack[-1]
    timeline = DotsView.move_animation(game, move)
    kinds = [step.kind for step in timeline.steps]
    assert kinds == ["dot", "chain", "fill", "dim"]
    dot, chain, fill, dim = timeline.steps
    assert dot.target == move and chain.target == 0 == fill.target
    assert dim.target == (game.field.cell(5, 5),)
    assert dot.end <= chain.start and chain.start < fill.start < chain.end + 1 and fill.start == dim.start
    assert DotsView.move_animation(game, move, emphasis=True).steps[1].kind == "pulse"

    frame = timeline.frame(0.0)
    assert dots_anim.hidden_regions(frame) == {0}
    assert dots_anim.hidden_cells(frame) == {move, game.field.cell(5, 5)}
    assert dots_anim.hidden_regions(timeline.frame(timeline.total - 1)) == {0}
    assert dots_anim.hidden_regions(None) == frozenset() == dots_anim.hidden_cells(None)


def test_dots_a_quiet_move_only_pops_in_and_landing_does_not_animate() -> None:
    game = Dots({"size": "20x20", "start": "empty"})
    game.push_text("10-10")
    timeline = DotsView.move_animation(game, game.move_stack[-1])
    assert [step.kind for step in timeline.steps] == ["dot"]
    assert len(DotsView.move_animation(game, -1)) == 0


def test_dots_chain_is_drawn_along_its_length() -> None:
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    assert dots_anim.partial_loop(square, 0.0) == [(0.0, 0.0)]
    assert dots_anim.partial_loop(square, 0.375) == [(0.0, 0.0), (10.0, 0.0), (10.0, 5.0)]
    assert dots_anim.partial_loop(square, 1.0) == square + [(0.0, 0.0)]


def test_dots_frames_draw_the_region_closing() -> None:
    """At the start no new region is painted; mid-chain a partial chain and no fill;
    at the end the drawing is the still one."""
    view = DotsView()
    game = surrounding_game()
    timeline = view.move_animation(game, game.move_stack[-1])
    _, chain, fill, _ = timeline.steps

    def ops(out: DrawList, code: int) -> int:
        return sum(1 for op, _ in out.commands() if op == code)

    start = draw_at(view, game, timeline, 0.0, 400.0)
    assert ops(start, OP_POLYGON) == 0 and ops(start, OP_POLYLINE) == 0
    middle = draw_at(view, game, timeline, (chain.start + fill.start) / 2, 400.0)
    assert ops(middle, OP_POLYGON) == 0 and ops(middle, OP_POLYLINE) == 1
    still = DrawList(400.0, 400.0)
    view.draw(game, ViewState(), still)
    assert ops(still, OP_POLYGON) == 1
    assert draw_at(view, game, timeline, timeline.total, 400.0).ops == still.ops


# ----- a quick answer waits for the move before it to finish animating ----------------------

class QuickBot(Participant):
    """Answers at once with the first legal move, noting when."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    async def choose(self, game, cancelled):
        self.log.append("chose")
        return sorted(game.legal_moves())[0]


def bot_session(log: list[str]) -> Session:
    bot = QuickBot(log)
    return Session(Quadrature(), [Seat("human"), Seat("bot", "easy")], "settle",
                   lambda seat, game, index: bot if seat.kind == "bot" else LocalHuman())


def test_the_answer_is_applied_after_settle() -> None:
    """The page's ``settle`` runs between the bot's answer and its move (the player's move animates meanwhile)."""
    log: list[str] = []
    session = bot_session(log)
    session.subscribe(lambda kind, detail: log.append(kind) if kind == "move" else None)
    session.play_text("e9-e8")

    async def settle() -> None:
        log.append("settled")
        await asyncio.sleep(0)

    assert asyncio.run(session.advance(settle=settle)) is not None
    assert log == ["move", "chose", "settled", "move"]


def test_an_answer_to_a_position_taken_back_while_settling_is_dropped() -> None:
    log: list[str] = []
    session = bot_session(log)
    session.play_text("e9-e8")

    async def settle() -> None:
        session.undo()   # the player takes the move back while it still animates

    assert asyncio.run(session.advance(settle=settle)) is None
    assert session.history() == [] and not session.thinking


def test_dots_a_popping_red_dot_keeps_the_colour_blind_square() -> None:
    """With the colour-blind shapes on, red's new dot pops in as a square, as it is drawn still."""
    from tessera.core.draw import OP_RECT
    from tessera.games.dots.view import point_center

    game = Dots({"size": "20x20", "start": "empty"})
    game.push_text("10-10")
    game.push_text("11-11")
    view = DotsView()
    timeline = view.move_animation(game, game.move_stack[-1])
    state = ViewState(shapes=True)
    state.highlights["animation"] = timeline.frame(dots_anim.DOT_MS / 2)
    out = DrawList(400.0, 400.0)
    view.draw(game, state, out)
    x, y = point_center(game, (11, 11), 400.0, 400.0)
    squares = [a for op, a in out.commands()
               if op == OP_RECT and abs(a[0] + a[2] / 2 - x) < 0.01 and abs(a[1] + a[3] / 2 - y) < 0.01]
    assert squares and squares[-1][2] > 0


# ----- the end of thinking and the move are browser tasks of their own ---------------------

def test_thinking_ends_a_task_before_the_move_and_still_shows_meanwhile() -> None:
    """The page redraws for the end of thinking and for the move in two tasks (each await ends
    one in the browser), and what it shows between them still says the bot is thinking."""
    log: list[str] = []
    session = bot_session(log)
    session.play_text("e9-e8")
    seen: list[tuple[str, object, bool]] = []
    session.subscribe(lambda kind, detail: seen.append((kind, detail, session.seems_thinking())))

    async def play() -> None:
        task = asyncio.ensure_future(session.advance())
        while not any(kind == "thinking" and detail is False for kind, detail, _ in seen):
            await asyncio.sleep(0)
        assert session.history() == ["e9-e8"], "the move waits for the next task"
        assert session.seems_thinking() and not session.thinking
        assert await task is not None

    asyncio.run(play())
    kinds = [(kind, detail) for kind, detail, _ in seen if kind in ("thinking", "move")]
    assert kinds[0] == ("thinking", True) and kinds[1] == ("thinking", False) and kinds[2][0] == "move"
    assert [shown for kind, _, shown in seen if kind == "thinking"] == [True, True]
    assert not session.seems_thinking() and len(session.history()) == 2


def test_a_move_taken_back_between_the_answer_and_its_move_drops_it_and_says_so() -> None:
    log: list[str] = []
    session = bot_session(log)
    session.play_text("e9-e8")
    seen: list[tuple[str, object]] = []
    session.subscribe(lambda kind, detail: seen.append((kind, detail)))

    async def play() -> object:
        task = asyncio.ensure_future(session.advance())
        while ("thinking", False) not in seen:
            await asyncio.sleep(0)
        session.undo()   # in the task between: the answer is to a position gone
        return await task

    assert asyncio.run(play()) is None
    assert session.history() == [] and not session.seems_thinking()
    assert seen[-1] == ("thinking", False), "the page is told to show the position as it is"
