"""Abatis' rules page: its worked examples replay as their words say, and
every word of the page is in the catalog in English and Russian.

Each example (``games/abatis/examples.py``) is replayed move by move and
what its sentences claim is checked on the engine's state: the cell a shot
chip stops on and its pointer, the chips a push moves, the chip that ends
in a queue and the one sent to the bottom of the stack, the blocks removed
and the score.  The page is not listed by the app yet (``in_app=False``),
so the checks that ``test_rules_content`` makes for every listed game are
made here for Abatis too.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tessera import i18n
from tessera.core import registry
from tessera.games.abatis import rules_page
from tessera.games.abatis.examples import EXAMPLES, AbatisExample, position
from tessera.games.abatis.geometry import (COLOURS, DOWN, EAST, LEFT, NO_POINTER, NORTH, RIGHT, WEST, block_points,
                                           cell_name)
from tessera.games.abatis.rules import CLEAR_BONUS, Abatis
from tessera.games.abatis.scenario import Scenario

BY_KEY = {example.key: example for example in EXAMPLES}
CONTENT = rules_page.CONTENT


def cell(name: str) -> int:
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def colour(letter: str) -> int:
    return COLOURS.index(letter) + 1


def chip(game: Abatis, name: str) -> tuple[str, int]:
    """(colour letter or "", pointer) on the named cell."""
    value, pointer = game.chip(cell(name))
    return (COLOURS[value - 1] if value else "", pointer)


def occupied(game: Abatis) -> set[str]:
    return {cell_name(index) for index in range(64) if game.chip(index)[0]}


def replay(example: AbatisExample) -> list[Abatis]:
    """The game after each step, the start included (copies)."""
    game = Abatis(setup=example.start)
    games = [game.copy()]
    for text in example.moves:
        game.push_text(text)
        games.append(game.copy())
    return games


def text(key: str, lang: str) -> str:
    return i18n.catalog()[lang][f"rules.abatis.{key}"]


# ----- the examples as data ------------------------------------------------------

def test_the_required_examples_exist() -> None:
    assert {"classic", "knockout", "mixed", "cascade", "block5"} <= set(BY_KEY)
    modes = {Abatis(setup=example.start).mode for example in EXAMPLES}
    assert modes == {"classic", "knockout", "mixed"}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_example_is_worded_in_both_languages(example: AbatisExample) -> None:
    keys = [example.title_key, example.caption_key] + [example.step_key(n) for n in range(1, len(example.moves) + 1)]
    for lang in i18n.LANGUAGES:
        table = i18n.catalog()[lang]
        for key in keys:
            assert table.get(key), (lang, key)
    assert i18n.t(example.caption_key, "en") != i18n.t(example.caption_key, "ru")
    with pytest.raises(IndexError):
        example.step_key(len(example.moves) + 1)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_example_replays_and_its_start_round_trips(example: AbatisExample) -> None:
    games = replay(example)
    assert games[0].position() == example.start
    for game in games:
        assert Abatis(setup=game.position()).position() == game.position()
    assert [games[0].move_text(m) for m in games[-1].move_stack] == list(example.moves), \
        "the page writes every move in its one canonical text"


def test_position_names_only_what_it_is_given() -> None:
    """The helper puts a chip where it is told and nowhere else; queues hold a chip everywhere."""
    game = Abatis(setup=position("c2=Rv h8=K", "Nd=GY", stack="BP", blocks=7, score=12, mode="mixed"))
    assert occupied(game) == {"c2", "h8"}
    assert chip(game, "c2") == ("R", DOWN) and chip(game, "h8") == ("K", NO_POINTER)
    assert (game.queue_chip(NORTH, 3, 0), game.queue_chip(NORTH, 3, 1)) == (colour("G"), colour("Y"))
    assert all(game.queues)
    assert game.stack == [colour("B"), colour("P")] and (game.level_blocks, game.score, game.mode) == (7, 12, "mixed")


# ----- what each example's words claim -------------------------------------------

def test_classic_stops_in_front_of_the_first_chip() -> None:
    """Nd: blue stops on d4 above d3, pointer down; green moves in, purple comes
    from the stack's top.  W4: yellow stops on c4 against it, pointer right."""
    example = BY_KEY["classic"]
    start, after_nd, after_w4 = replay(example)
    inner, outer, top = start.queue_chip(NORTH, 3, 0), start.queue_chip(NORTH, 3, 1), start.stack[0]
    assert (inner, outer, top) == (colour("B"), colour("G"), colour("P"))
    assert chip(after_nd, "d4") == ("B", DOWN) and chip(after_nd, "d3") == ("R", NO_POINTER)
    assert occupied(after_nd) == occupied(start) | {"d4"}
    assert (after_nd.queue_chip(NORTH, 3, 0), after_nd.queue_chip(NORTH, 3, 1)) == (outer, top)
    assert start.queue_chip(WEST, 3, 0) == colour("Y")
    assert chip(after_w4, "c4") == ("Y", RIGHT)
    assert occupied(after_w4) == occupied(after_nd) | {"c4"}
    assert after_w4.score == 0 and [kind for kind, _ in after_w4.last_steps] == ["shot"]


def test_knockout_pushes_a_chip_off_the_edge_into_the_far_queue() -> None:
    """W4: purple on f4, the run f4 g4 h4 one cell right, green from h4 the inner
    chip of E4, blue moved out, yellow at the stack's bottom.  W2 with a2 taken:
    a2 b2 move right, green takes a2."""
    start, after_w4, after_w2 = replay(BY_KEY["knockout"])
    assert start.queue_chip(WEST, 3, 0) == colour("P")
    assert [chip(start, name)[0] for name in ("f4", "g4", "h4")] == ["R", "B", "G"]
    assert (start.queue_chip(EAST, 3, 0), start.queue_chip(EAST, 3, 1)) == (colour("B"), colour("Y"))
    assert [chip(after_w4, name) for name in ("f4", "g4", "h4")] == [("P", RIGHT), ("R", NO_POINTER), ("B", NO_POINTER)]
    assert (after_w4.queue_chip(EAST, 3, 0), after_w4.queue_chip(EAST, 3, 1)) == (colour("G"), colour("B"))
    assert after_w4.stack[-1] == colour("Y")
    assert len(occupied(after_w4)) == len(occupied(start)), "one chip came in, one went out"
    assert chip(after_w4, "a2")[0] and after_w4.is_legal(after_w4.parse_move("W2"))
    assert not Abatis(setup=start.position().replace("knockout", "classic")).is_legal(start.parse_move("W2")), \
        "the same lane would be closed in Classic"
    assert [chip(after_w2, name) for name in ("a2", "b2", "c2")] == [("G", RIGHT), ("Y", NO_POINTER), ("R", NO_POINTER)]
    assert after_w2.score == 0


def test_mixed_inner_click_stops_and_outer_click_pushes_the_inner_chip() -> None:
    start, after_nc, after_nf = replay(BY_KEY["mixed"])
    nc, nf = start.parse_move("Nc"), after_nc.parse_move("Nf*")
    assert not start.pushes(nc) and after_nc.pushes(nf)
    assert chip(after_nc, "c6") == ("G", DOWN) and chip(after_nc, "c5") == ("R", NO_POINTER)
    inner, outer = after_nc.queue_chip(NORTH, 5, 0), after_nc.queue_chip(NORTH, 5, 1)
    assert (inner, outer) == (colour("Y"), colour("P"))
    assert chip(after_nf, "f5") == ("Y", DOWN) and chip(after_nf, "f4") == ("B", NO_POINTER)
    assert chip(after_nf, "f3") == ("G", NO_POINTER)
    assert after_nf.queue_chip(NORTH, 5, 0) == outer


def test_a_block_of_five_scores_four() -> None:
    start, after = replay(BY_KEY["block5"])
    yellow = {"b3", "c3", "e3", "e4"}
    assert all(chip(start, name)[0] == "Y" for name in yellow) and chip(start, "d2")[0] == "B"
    kinds = [kind for kind, _ in after.last_steps]
    assert kinds == ["shot", "remove"]
    (blocks,) = [items for kind, items in after.last_steps if kind == "remove"]
    assert [(sorted(cell_name(c) for c in cells), len(cells)) for cells, _, _ in blocks] == \
        [(sorted(yellow | {"d3"}), 5)]
    assert after.score == block_points(5) == 4 and after.level_blocks == 1
    assert occupied(after) == occupied(start) - yellow


def test_a_cascade_removes_slides_and_removes_again() -> None:
    """c5 d5 e5 red (1 point); green d6 slides to d3; c3 d3 d2 d1 green (2 points)."""
    start, after = replay(BY_KEY["cascade"])
    assert chip(start, "d6") == ("G", DOWN)
    kinds = [kind for kind, _ in after.last_steps]
    assert kinds == ["shot", "remove", "slide", "remove"]
    removed = [items for kind, items in after.last_steps if kind == "remove"]
    assert [[sorted(cell_name(c) for c in cells) for cells, _, _ in blocks] for blocks in removed] == \
        [[["c5", "d5", "e5"]], [["c3", "d1", "d2", "d3"]]]
    (slide,) = [items for kind, items in after.last_steps if kind == "slide"]
    assert [(cell_name(source), cell_name(target)) for _, _, source, target in slide] == [("d6", "d3")]
    assert after.score == block_points(3) + block_points(4) == 3
    assert occupied(after) == {"b7"} and after.level == 0


def test_a_sliding_chip_leaves_the_board_into_a_queue() -> None:
    start, after = replay(BY_KEY["slide_out"])
    assert chip(start, "e4") == ("Y", LEFT)
    inner, outer = start.queue_chip(WEST, 3, 0), start.queue_chip(WEST, 3, 1)
    assert (inner, outer) == (colour("P"), colour("R"))
    assert after.score == 1
    assert not any(chip(after, f"{column}4")[0] for column in "abcdefgh")
    assert (after.queue_chip(WEST, 3, 0), after.queue_chip(WEST, 3, 1)) == (colour("Y"), inner)
    assert after.stack[-1] == outer


def test_a_cleared_board_adds_the_bonus_and_starts_the_next_level() -> None:
    start, after = replay(BY_KEY["cleared"])
    assert occupied(start) == {"c1", "d1"}
    assert after.score == block_points(3) + CLEAR_BONUS == 33
    assert (after.level, after.level_blocks, after.undo_floor()) == (1, 0, 1)
    layout = Scenario.from_options(after.options).layout_chips(1)
    assert after.chips_on_board() == layout
    for lang in i18n.LANGUAGES:
        assert str(layout) in i18n.t(BY_KEY["cleared"].step_key(1), lang)


def test_every_step_sentence_names_its_move() -> None:
    for example in EXAMPLES:
        for step, move in enumerate(example.moves, 1):
            for lang in i18n.LANGUAGES:
                assert i18n.t(example.step_key(step), lang).startswith(f"{move}:") or \
                    i18n.t(example.step_key(step), lang).startswith(f"{move},"), (example.key, step, lang)


# ----- what the page's paragraphs claim --------------------------------------------

@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_points_paragraph_agrees_with_the_engine(lang: str) -> None:
    numbers = [int(n) for n in re.findall(r"\d+", text("p.points", lang))]
    assert numbers == [n for size in range(3, 9) for n in (size, block_points(size))]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_position_row_example_reads_as_it_says(lang: str) -> None:
    """The row quoted in the notation section, read by the engine as the
    picture's fourth row (board row 7): blue pointer down on d7, red on e7,
    W queue yellow outer and blue inner, E queue red inner and green outer."""
    row = re.search(r"[A-Z.][.^v<>]\S{22}", text("p.position_row", lang)).group(0)
    base = position("a1=R").split(" ")
    rows = base[0].split("/")
    rows[3] = row
    game = Abatis(setup=" ".join(["/".join(rows)] + base[1:]))
    assert {name for name in occupied(game) if name[1] == "7"} == {"d7", "e7"}
    assert chip(game, "d7") == ("B", DOWN) and chip(game, "e7") == ("R", NO_POINTER)
    assert [game.queue_chip(WEST, 6, depth) for depth in (1, 0)] == [colour("Y"), colour("B")]
    assert [game.queue_chip(EAST, 6, depth) for depth in (0, 1)] == [colour("R"), colour("G")]


def test_the_default_scenario_the_page_names_is_the_engines() -> None:
    defaults = Abatis().options
    assert (defaults["mode"], defaults["colours_min"], defaults["colours_max"], defaults["levels_per_colour"]) == \
        ("classic", 5, 8, 5)
    for lang in i18n.LANGUAGES:
        assert "5" in text("p.scenarios", lang) and "8" in text("p.scenarios", lang)


# ----- the generic page's needs (test_rules_content does this for listed games) -----

def page_keys() -> set[str]:
    keys = {"title", "credit", "intro", "back", "step", "reset", "diagram_label"}
    for section in CONTENT.sections:
        if section.heading:
            keys.add(f"h.{section.key}")
        keys.update(section.paragraphs)
    placed = {key for section in CONTENT.sections for key in section.examples}
    if any(diagram.key not in placed for diagram in CONTENT.diagrams()):
        keys.add(CONTENT.leftover_heading)
    keys.update({"h.rulings", "p.rulings"} | {f"ruling.{key}" for key in CONTENT.rulings})
    return keys


def known(key: str, lang: str) -> str | None:
    table = i18n.catalog()[lang]
    return table.get(key, table.get(f"{key}.other"))


def test_the_registry_finds_the_content() -> None:
    assert registry.part_attribute("abatis", "rules_page", "CONTENT") is CONTENT
    assert CONTENT.prefix == "rules.abatis" and CONTENT.game_id == "abatis"
    assert "rules.json" in registry.entry("abatis").strings, "the catalog reads the page's words through the entry"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_page_key_is_in_the_catalog(lang: str) -> None:
    keys = [f"{CONTENT.prefix}.{key}" for key in page_keys()] + [d.caption_key for d in CONTENT.diagrams()]
    assert sorted(key for key in keys if known(key, lang) is None) == []


def test_sections_name_every_example_once() -> None:
    diagram_keys = [diagram.key for diagram in CONTENT.diagrams()]
    named = [key for section in CONTENT.sections for key in section.examples]
    assert sorted(named) == sorted(diagram_keys) == sorted(set(diagram_keys))
    section_keys = [section.key for section in CONTENT.sections]
    assert len(section_keys) == len(set(section_keys)) and "rulings" not in section_keys


def test_paragraphs_differ_between_languages_and_have_no_placeholders() -> None:
    """Page paragraphs are shown as they are: a brace would be an unfilled placeholder."""
    for key in page_keys() - {"diagram_label"}:
        english, russian = text(key, "en"), text(key, "ru")
        assert english != russian, key
        assert not i18n.placeholders(english) and not i18n.placeholders(russian), key
        assert re.search("[а-яё]", russian, re.IGNORECASE), key


class KeyRecorder:
    """Stands in for ``t`` in the rules_page module and notes every key and its values."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    def __call__(self, key: str, /, lang: str | None = None, **params: Any) -> str:
        self.calls.append((key, lang or i18n.language(), params))
        return i18n.t(key, lang, **params)


def test_status_lines_are_worded_in_both_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step's status and a reader's own move use only keys both languages
    have, with a value for every placeholder; the step's sentence is among them."""
    recorder = KeyRecorder()
    monkeypatch.setattr(rules_page, "t", recorder)
    for diagram in CONTENT.diagrams():
        assert diagram.interactive
        for step in range(diagram.steps + 1):
            game = diagram.game_at(step)
            worded = {lang: diagram.status(step, game, [], lang) for lang in i18n.LANGUAGES}
            assert worded["en"] != worded["ru"], (diagram.key, step)
            if step:
                assert i18n.t(diagram.example.step_key(step), "ru") in worded["ru"]
            assert any(str(game.score) in line for line in worded["en"])
            move = game.legal_moves()[0]
            own = [game.move_text(move)]
            game.push(move)
            for lang in i18n.LANGUAGES:
                assert own[0] in diagram.status(step, game, own, lang)[0]
    problems = []
    for key, lang, params in recorder.calls:
        found = known(key, lang)
        if found is None:
            problems.append(f"{key} missing in {lang}")
        elif not i18n.placeholders(found) <= set(params):
            problems.append(f"{key} ({lang}) lacks {sorted(i18n.placeholders(found) - set(params))}")
    assert recorder.calls and not problems, sorted(set(problems))


def test_the_score_line_agrees_in_number_in_russian() -> None:
    diagram = next(d for d in CONTENT.diagrams() if d.key == "cleared")
    game = diagram.game_at(1)
    line = next(line for line in diagram.status(1, game, [], "ru") if line.startswith("Счёт"))
    assert f"{game.score} очка" in line   # 33 очка
    cascade = next(d for d in CONTENT.diagrams() if d.key == "cascade")
    line = next(line for line in cascade.status(0, cascade.game_at(0), [], "ru") if line.startswith("Счёт"))
    assert "0 очков" in line


def test_game_at_gives_a_fresh_game_each_time() -> None:
    for diagram in CONTENT.diagrams():
        first, again = diagram.game_at(diagram.steps), diagram.game_at(diagram.steps)
        assert first is not again and first.position() == again.position()
        first.push(first.legal_moves()[0])
        assert again.ply == first.ply - 1
