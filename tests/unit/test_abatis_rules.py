"""Abatis golden tests: one hand-built position per mechanic of the rule text.

Each test writes its position with ``picture`` (a dict of board cells and
queue lanes to the 12x12 position string of RULINGS.md), makes one move and
reads the result back, so every expectation below was worked out by hand
from the seed document and RULINGS.md "Abatis", not from the engine.
"""

from __future__ import annotations

import random

import pytest

from tessera.core.game import IllegalMoveError, NotationError, PositionError
from tessera.core.rng import SeededRandom
from tessera.games.abatis import Abatis
from tessera.games.abatis.scenario import Scenario

LETTERS = "RGBYPOCMWK"
COLUMNS = "abcdefgh"
FILL = "YP"
"""Inner and outer colour of every queue lane a test does not name."""


def picture(board: dict[str, str], queues: dict[str, str] | None = None, stack: str = "BRGY",
            blocks: int = 0, score: int = 0, mode: str = "classic") -> str:
    """The position string of RULINGS.md from readable parts.

    ``board`` maps a cell (``d4``) to a colour letter and optional pointer
    (``R``, ``Gv``); ``queues`` maps a lane (``Nd``, ``W4``) to its inner
    and outer colour (``RG``); other lanes hold ``FILL``.
    """
    queues = queues or {}

    def lane(side: str, index: int, depth: int) -> str:
        name = side + (COLUMNS[index] if side in "NS" else str(index + 1))
        return queues.get(name, FILL)[depth] + "."

    def cell(col: int, row: int) -> str:
        chip = board.get(f"{COLUMNS[col]}{row + 1}", "..")
        return chip if len(chip) == 2 else chip + "."

    rows = ["++++" + "".join(lane("N", c, 1) for c in range(8)) + "++++",
            "++++" + "".join(lane("N", c, 0) for c in range(8)) + "++++"]
    for row in range(7, -1, -1):
        rows.append(lane("W", row, 1) + lane("W", row, 0) + "".join(cell(c, row) for c in range(8))
                    + lane("E", row, 0) + lane("E", row, 1))
    rows.append("++++" + "".join(lane("S", c, 0) for c in range(8)) + "++++")
    rows.append("++++" + "".join(lane("S", c, 1) for c in range(8)) + "++++")
    return f"{'/'.join(rows)} {stack or '-'} {blocks} {score} {mode}"


def game_at(board: dict[str, str], seed: int = 1, **parts) -> Abatis:
    mode = parts.get("mode", "classic")
    return Abatis({"mode": mode}, seed=seed, setup=picture(board, **parts))


def kinds(game: Abatis) -> list[str]:
    return [kind for kind, _ in game.last_steps]


# ----- shots --------------------------------------------------------------------------

def test_a_classic_shot_enters_and_stops_before_the_first_chip() -> None:
    """The inner chip travels from the entry cell and stops before the first chip, pointing its way."""
    game = game_at({"d2": "R"}, queues={"Nd": "GB"})
    game.push_text("Nd")
    assert game.position() == picture({"d2": "R", "d3": "Gv"}, queues={"Nd": "BB"}, stack="RGY")


def test_a_shot_from_each_side_points_its_way() -> None:
    """W shoots right (>), E left (<), S up (^)."""
    board = {"d4": "R"}
    for move, cell, chip in (("W4", "c4", "G>"), ("E4", "e4", "G<"), ("Sd", "d3", "G^"), ("Nd", "d5", "Gv")):
        queues = {move: "GB"}
        game = game_at(board, queues=queues)
        game.push_text(move)
        assert game.position() == picture({"d4": "R", cell: chip}, queues={move: "BB"}, stack="RGY")


def test_classic_refuses_a_taken_entry_cell_and_an_empty_lane() -> None:
    game = game_at({"d8": "R", "d2": "G"})
    nd, na = game.parse_move("Nd"), game.parse_move("Na")
    assert nd not in game.legal_moves() and na not in game.legal_moves()
    assert game.illegal_reason(nd).key == "illegal.abatis.entry_taken"
    assert game.illegal_reason(na).key == "illegal.abatis.empty_lane"
    with pytest.raises(IllegalMoveError):
        game.push(nd)
    assert game.parse_move("Sd") in game.legal_moves()     # d1 is free and d2 is taken
    star = game.parse_move("Nd*")
    assert game.illegal_reason(star).key == "illegal.abatis.star_only_mixed"


def test_mixed_offers_both_moves_and_knockout_needs_only_a_chip_in_the_lane() -> None:
    board = {"d8": "R", "d2": "G"}
    mixed = game_at(board, mode="mixed")
    texts = set(mixed.sorted_legal_texts())
    assert "Nd*" in texts and "Nd" not in texts and "Sd" in texts and "Sd*" in texts
    assert not any(text.startswith("Na") for text in texts)
    knockout = game_at(board, mode="knockout")
    texts = set(knockout.sorted_legal_texts())
    assert {"Nd", "Sd", "W8", "E8", "W2", "E2"} == texts


def test_knockout_pushes_the_run_one_cell_and_pushed_chips_keep_their_pointer() -> None:
    """The shot chip ends on the run's first cell; a pushed chip keeps its pointer."""
    game = game_at({"d6": "R", "d5": "G^", "d4": "B", "d1": "Y"}, queues={"Nd": "PB"}, mode="knockout")
    game.push_text("Nd")
    expected = {"d6": "Pv", "d5": "R", "d4": "G^", "d3": "B", "d1": "Y"}
    assert game.position() == picture(expected, queues={"Nd": "BB"}, stack="RGY", mode="knockout")


def test_mixed_star_move_pushes_with_the_inner_chip_even_onto_a_taken_entry() -> None:
    game = game_at({"d8": "R", "d7": "G", "d2": "B"}, queues={"Nd": "YP"}, mode="mixed")
    game.push_text("Nd*")
    assert game.position() == picture({"d8": "Yv", "d7": "R", "d6": "G", "d2": "B"},
                                      queues={"Nd": "PB"}, stack="RGY", mode="mixed")


def test_a_chip_pushed_off_the_far_edge_joins_the_far_queue() -> None:
    """It becomes the inner chip (without its pointer), the old inner moves out,
    the old outer goes to the bottom of the stack."""
    game = game_at({"d3": "B", "d2": "G", "d1": "Rv", "a8": "P"}, queues={"Nd": "YC", "Sd": "GM"},
                   mode="knockout")
    game.push_text("Nd")
    expected = {"d3": "Yv", "d2": "B", "d1": "G", "a8": "P"}
    assert game.position() == picture(expected, queues={"Nd": "CB", "Sd": "RG"}, stack="RGYM", mode="knockout")


# ----- the stack ----------------------------------------------------------------------

def test_the_stack_is_topped_up_to_three_from_the_seeded_generator() -> None:
    """A shot takes the stack's top; below 3 chips it gets new ones at the bottom,
    uniform over the level's colours (5 here: the scenario's first)."""
    for seed in (1, 2, 99):
        draws = SeededRandom(seed)
        fresh = LETTERS[draws.below(5)]
        game = game_at({"d2": "R"}, seed=seed, queues={"Nd": "GB"}, stack="BRG")
        game.push_text("Nd")
        assert game.position() == picture({"d2": "R", "d3": "Gv"}, queues={"Nd": "BB"}, stack="RG" + fresh)


def test_an_empty_stack_is_filled_before_the_draw() -> None:
    draws = SeededRandom(7)
    first, second, third, fourth = (LETTERS[draws.below(5)] for _ in range(4))
    game = game_at({"d2": "R"}, seed=7, queues={"Nd": "GB"}, stack="")
    game.push_text("Nd")
    assert game.position() == picture({"d2": "R", "d3": "Gv"}, queues={"Nd": "B" + first},
                                      stack=second + third + fourth)


# ----- blocks --------------------------------------------------------------------------

SHAPES = {
    "line": (("d1", "d2", "d3"), "d3", 1),
    "L": (("d1", "d2", "d3", "e1"), "d3", 2),
    "square": (("d1", "e1", "d2", "e2"), "d2", 2),
    "T": (("d1", "d2", "c3", "d3", "e3"), "d3", 4),
    "six": (("d1", "e1", "d2", "e2", "d3", "e3"), "e3", 7),
    "seven": (("d1", "d2", "d3", "d4", "d5", "d6", "d7"), "d7", 11),
    "eight": (("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8"), "d8", 16),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_blocks_of_any_shape_score_by_size(shape: str) -> None:
    """3, 4, 5, 6, 7, 8 chips score 1, 2, 4, 7, 11, 16 (1 + (n-3)(n-2)/2)."""
    cells, shot_cell, points = SHAPES[shape]
    board = {cell: "R" for cell in cells if cell != shot_cell}
    board["h8"] = "G"
    lane = "N" + shot_cell[0]
    game = game_at(board, queues={lane: "RB"}, score=5, blocks=2)
    game.push_text(lane)
    assert game.position() == picture({"h8": "G"}, queues={lane: "BB"}, stack="RGY", blocks=3, score=5 + points)
    assert kinds(game) == ["shot", "remove"]
    removed = game.last_steps[1][1]
    assert len(removed) == 1 and len(removed[0][0]) == len(cells) and removed[0][2] == points


def test_two_blocks_are_removed_at_once() -> None:
    """A Knockout push builds a green and a red block in one step; both go in one removal."""
    board = {"b4": "G", "c4": "G", "b5": "R", "c5": "R", "d5": "G", "h8": "B"}
    game = game_at(board, queues={"Nd": "RP"}, mode="knockout")
    game.push_text("Nd")
    assert game.position() == picture({"h8": "B"}, queues={"Nd": "PB"}, stack="RGY", blocks=2, score=2,
                                      mode="knockout")
    assert kinds(game) == ["shot", "remove"]
    assert len(game.last_steps[1][1]) == 2


def test_a_cascade_removes_slides_and_removes_again() -> None:
    """The first block frees a pointer chip, which slides down into a second block."""
    board = {"f1": "B", "f2": "B", "f3": "G", "f4": "G", "f5": "Bv", "a8": "R"}
    game = game_at(board, queues={"W3": "GP"})
    game.push_text("W3")
    assert kinds(game) == ["shot", "remove", "slide", "remove"]
    assert game.position() == picture({"a8": "R"}, queues={"W3": "PB"}, stack="RGY", blocks=2, score=2)


def test_pointer_chips_slide_in_reading_order_when_they_race_for_one_cell() -> None:
    """d6 (row 6) moves before b4 (row 4): it takes d4, and b4 stops at c4 without pushing."""
    board = {"d6": "Gv", "d3": "Y", "b4": "B>", "c4": "R", "c5": "R", "e4": "Y"}
    game = game_at(board, queues={"E5": "RP"})
    game.push_text("E5")
    assert game.position() == picture({"d4": "Gv", "c4": "B>", "d3": "Y", "e4": "Y"},
                                      queues={"E5": "PB"}, stack="RGY", blocks=1, score=1)


def test_sliding_chips_never_push_even_in_knockout() -> None:
    """A freed pointer chip stops before the next chip; it does not move the run ahead."""
    board = {"a5": "R>", "b5": "G", "b7": "G", "f5": "Y", "g5": "P"}
    game = game_at(board, queues={"Sb": "GC"}, mode="knockout")
    game.push_text("Sb")
    assert kinds(game) == ["shot", "remove", "slide"]
    assert game.position() == picture({"e5": "R>", "f5": "Y", "g5": "P"}, queues={"Sb": "CB"}, stack="RGY",
                                      blocks=1, score=1, mode="knockout")


def test_a_sliding_chip_leaves_the_board_into_that_side_queue() -> None:
    """A block frees row 5; a5's chip slides right off the board and joins the E queue
    of lane 5 as its inner chip, without a pointer; E's outer chip goes under the stack."""
    board = {"a5": "R>", "b5": "G", "b4": "G", "h1": "P"}
    game = game_at(board, queues={"Sb": "GC", "E5": "BM"})
    game.push_text("Sb")
    assert kinds(game) == ["shot", "remove", "slide"]
    assert game.position() == picture({"h1": "P"}, queues={"Sb": "CB", "E5": "RB"}, stack="RGYM",
                                      blocks=1, score=1)


def test_layout_chips_have_no_pointer_and_form_no_block() -> None:
    for seed in range(6):
        game = Abatis({"mode": "mixed"}, seed=seed)
        assert all(game.chip(cell)[1] == 0 for cell in range(64))
        assert game.chips_on_board() == 12
        for cell in range(64):
            colour = game.chip(cell)[0]
            if colour:
                group, todo = {cell}, [cell]
                while todo:
                    here = todo.pop()
                    row, col = divmod(here, 8)
                    for near in (here + 8 if row < 7 else -1, here - 8 if row else -1,
                                 here - 1 if col else -1, here + 1 if col < 7 else -1):
                        if near >= 0 and near not in group and game.chip(near)[0] == colour:
                            group.add(near)
                            todo.append(near)
                assert len(group) < 3


# ----- levels -----------------------------------------------------------------------------

def next_level_checks(game: Abatis, level: int) -> None:
    scenario = Scenario("classic", 5, 8, 5)
    assert game.level == level and game.level_blocks == 0
    assert game.chips_on_board() == scenario.layout_chips(level)
    assert game.colours == scenario.colours(level)
    assert all(game.chip(cell)[1] == 0 for cell in range(64))
    assert len(game.preview()) == 3
    assert game.undo_floor() == game.ply


def test_the_64th_block_ends_the_level_without_a_bonus() -> None:
    game = game_at({"d1": "R", "d2": "R", "h8": "G"}, queues={"Nd": "RB"}, blocks=63, score=40)
    game.push_text("Nd")
    assert game.score == 41
    assert kinds(game)[-1] == "level" and game.last_steps[-1][1] == (0, 1)
    next_level_checks(game, 1)


def test_a_cleared_board_ends_the_level_with_32_more_points() -> None:
    game = game_at({"d1": "R", "d2": "R"}, queues={"Nd": "RB"}, blocks=10, score=3)
    game.push_text("Nd")
    assert game.score == 3 + 1 + 32
    assert game.last_steps[-1] == ("level", (32, 1))
    next_level_checks(game, 1)


def test_the_bonus_also_comes_when_the_64th_block_clears_the_board() -> None:
    game = game_at({"d1": "R", "d2": "R"}, queues={"Nd": "RB"}, blocks=63)
    game.push_text("Nd")
    assert game.score == 1 + 32
    assert game.statistics()["bonuses"] == 1
    next_level_checks(game, 1)


def test_undo_goes_back_to_the_level_start_and_restores_everything() -> None:
    start = picture({"d1": "R", "d2": "R", "a5": "G", "a4": "B"}, queues={"Nd": "RB"}, blocks=63, score=9)
    game = Abatis({"mode": "classic"}, seed=3, setup=start)
    before = (game.position(), game.rng.state, game.statistics(), game.level)
    game.push_text("Nd")
    assert game.undo_floor() == 1
    after_level = (game.position(), game.rng.state)
    for _ in range(5):
        game.push(game.legal_moves()[0])
    assert game.undo_floor() == 1
    while game.ply > game.undo_floor():
        game.pop()
    assert (game.position(), game.rng.state) == after_level
    game.pop()
    assert (game.position(), game.rng.state, game.statistics(), game.level) == before
    assert game.undo_floor() == 0


@pytest.mark.parametrize("low,high,step,expected", [
    # (colours, layout chips) for levels 0, 1, ...: one colour more every `step`
    # levels, 12 + 4 per level passed at this count, + 8 per completed circle.
    (5, 8, 5, [(5, 12), (5, 16), (5, 20), (5, 24), (5, 28), (6, 12), (6, 16)]),
    (4, 5, 2, [(4, 12), (4, 16), (5, 12), (5, 16), (4, 20), (4, 24), (5, 20), (5, 24), (4, 28)]),
    (7, 7, 1, [(7, 12), (7, 20), (7, 28), (7, 36), (7, 40), (7, 40)]),
    (4, 4, 10, [(4, 12 + 4 * n) for n in range(8)] + [(4, 40), (4, 40), (4, 20)]),
])
def test_scenario_colours_and_layout_sizes(low: int, high: int, step: int, expected: list) -> None:
    scenario = Scenario("classic", low, high, step)
    assert [(scenario.colours(n), scenario.layout_chips(n)) for n in range(len(expected))] == expected


def test_a_later_level_lays_out_its_scenario_size() -> None:
    """Levels reached in play: the layout has the scenario's size and colours."""
    options = {"mode": "classic", "colours_min": 4, "colours_max": 5, "levels_per_colour": 2}
    scenario = Scenario("classic", 4, 5, 2)
    game = Abatis(options, seed=4, setup=picture({"d1": "R", "d2": "R"}, queues={"Nd": "RB"}, stack="BRGR"))
    for level in range(1, 6):
        game._start_level(level)
        assert game.chips_on_board() == scenario.layout_chips(level)
        colours = {game.chip(cell)[0] for cell in range(64)} | set(game.queues) | set(game.stack)
        assert game.colours == scenario.colours(level) and max(colours) <= game.colours


def test_the_game_ends_when_no_classic_move_is_left() -> None:
    """A full board (a two-colour chequer: no block) leaves Classic no entry cell."""
    board = {f"{COLUMNS[c]}{r + 1}": "RG"[(c + r) % 2] for c in range(8) for r in range(8)}
    game = game_at(board)
    assert game.legal_moves() == [] and game.is_over()
    assert game.outcome().reason == "no_moves"
    with pytest.raises(IllegalMoveError) as caught:
        game.push(0)
    assert caught.value.key == "illegal.over"
    assert len(game_at(board, mode="knockout").legal_moves()) == 32


# ----- notation ---------------------------------------------------------------------------

def test_move_notation_round_trips() -> None:
    game = game_at({"d2": "R"}, mode="mixed")
    texts = {game.move_text(move) for move in range(64)}
    assert len(texts) == 64 and {"Nd", "W4", "Nd*", "E1", "Sh*"} <= texts
    for move in range(64):
        assert game.parse_move(game.move_text(move)) == move
    assert game.parse_move("W4") != game.parse_move("E4")


@pytest.mark.parametrize("text", ["Wd", "N9", "N4", "E0", "Nd**", "nd", "", "X1", " Nd", "Nd*x", "*Nd", "N", "N dd"])
def test_strict_notation_refuses(text: str) -> None:
    with pytest.raises(NotationError):
        game_at({"d2": "R"}).parse_move(text)


@pytest.mark.parametrize("value", [None, 5, ["Nd"], "N" * 10_000])
def test_non_text_moves_are_refused_with_our_error(value: object) -> None:
    game = game_at({"d2": "R"})
    with pytest.raises(NotationError):
        game.parse_move(value)
    with pytest.raises(NotationError):
        game.parse_typed(value)


def test_typed_moves_are_read_leniently() -> None:
    game = game_at({"d2": "R"}, mode="mixed")
    for typed, strict in (("nd", "Nd"), ("n d", "Nd"), (" N d * ", "Nd*"), ("w-4", "W4"), ("S:h", "Sh")):
        assert game.parse_typed(typed) == game.parse_move(strict)
    for bad in ("n 9", "wd", "n d d", "q4"):
        with pytest.raises(NotationError):
            game.parse_typed(bad)


def test_move_text_refuses_values_that_are_not_moves() -> None:
    game = game_at({"d2": "R"})
    for value in (-1, 64, True, "Nd", None, 2 ** 200):
        with pytest.raises(NotationError):
            game.move_text(value)


# ----- position strings and options ---------------------------------------------------------

def test_position_strings_round_trip() -> None:
    for mode in ("classic", "knockout", "mixed"):
        for seed in range(4):
            game = Abatis({"mode": mode}, seed=seed)
            for _ in range(6):
                if game.is_over():
                    break
                game.push(game.legal_moves()[seed % len(game.legal_moves())])
                text = game.position()
                again = Abatis({"mode": mode}, seed=seed, setup=text)
                assert again.position() == text
                assert again.legal_moves() == game.legal_moves()


def test_a_hand_built_position_reads_as_drawn() -> None:
    game = game_at({"a1": "R", "h8": "K<", "c5": "G^"}, queues={"Nd": "MW", "W1": "CO"}, stack="PY",
                   blocks=12, score=345, mode="mixed")
    assert game.chip(0) == (1, 0) and game.chip(63) == (10, 3) and game.chip(34) == (2, 1)
    assert game.queue_chip(0, 3, 0) == 8 and game.queue_chip(0, 3, 1) == 9
    assert game.queue_chip(3, 0, 0) == 7 and game.queue_chip(3, 0, 1) == 6
    assert game.preview() == [5, 4] and game.level_blocks == 12 and game.score == 345
    assert game.mode == "mixed" and game.colours == 10


GOOD = picture({"d2": "R", "e5": "Gv"})


def corrupted(rng: random.Random) -> str:
    """A near-valid position: one cut, swap, insertion or field change."""
    text = GOOD
    kind = rng.randrange(7)
    at = rng.randrange(len(text))
    if kind == 0:
        return text[:at]
    if kind == 1:
        return text[:at] + rng.choice("+.RGvK^<>x/ 9-é\n\x00") + text[at + 1:]
    if kind == 2:
        return text[:at] + rng.choice(["..", "++", "R.", "Z.", "/", " ", "Rx"]) + text[at:]
    fields = text.split(" ")
    if kind == 3:
        fields[2] = rng.choice(["64", "-1", "1e3", "9" * 40, "١٢", ""])
    elif kind == 4:
        fields[3] = rng.choice(["-5", "x", "9" * 4000, "0x10"])
    elif kind == 5:
        fields[4] = rng.choice(["Classic", "chess", "", "mixed mixed"])
    else:
        fields[1] = rng.choice(["Z", "rgb", "R" * 500, "--", "R-"])
    return " ".join(fields)


def test_garbage_positions_raise_position_error_only() -> None:
    rng = random.Random(2024)
    samples = [corrupted(rng) for _ in range(600)]
    samples += ["".join(rng.choice("RGB.+/^v<> \n0123456789") for _ in range(rng.randrange(300))) for _ in range(200)]
    samples += ["R" * 10_000, GOOD * 40, "", " ", GOOD.replace("R.", "++"), GOOD.replace("Y.", ".."),
                GOOD.replace("Y.", "Yv"), picture({}), GOOD.replace(" 0 0 ", " 63 0 "), 12, None, b"R.", [GOOD]]
    accepted = 0
    for text in samples:
        try:
            Abatis({"mode": "classic"}, seed=0, setup=text)
            accepted += 1
        except PositionError:
            pass
    assert accepted < len(samples) // 4        # near-valid edits may still be valid, but most are not


@pytest.mark.parametrize("text", [picture({}), picture({"d2": "R"}, blocks=64),
                                  picture({"d2": "R"}).replace("++", "..", 1), picture({"d2": "R"}) + " extra"])
def test_inconsistent_positions_are_refused(text: str) -> None:
    with pytest.raises(PositionError):
        Abatis({"mode": "classic"}, setup=text)


@pytest.mark.parametrize("options,key", [
    ({"colours_min": 8, "colours_max": 5}, "error.abatis.colour_range"),
    ({"colours_min": 3}, "error.option.not_choice"),
    ({"colours_max": 11}, "error.option.not_choice"),
    ({"levels_per_colour": 0}, "error.option.not_choice"),
    ({"mode": "blitz"}, "error.option.not_choice"),
    ({"colours_min": True}, "error.option.not_choice"),
    ({"speed": 3}, "error.options.unknown"),
])
def test_options_are_validated(options: dict, key: str) -> None:
    with pytest.raises(PositionError) as caught:
        Abatis(options)
    assert caught.value.key == key


def test_a_single_colour_range_is_allowed() -> None:
    game = Abatis({"colours_min": 6, "colours_max": 6, "levels_per_colour": 1}, seed=2)
    assert game.colours == 6
