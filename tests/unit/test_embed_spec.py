"""Embedded boards without a browser: the attributes, the record, the plan, puzzles, pictures.

``<tessera-board>`` hands Python strings; ``tessera.ui.embed.spec`` checks
them and replays the record once, and ``embed.pictures`` draws the build's
static pictures with the games' own views.  Every mistake a page can make is
a keyed error worded in both languages, never a crash.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tessera.core import registry
from tessera.core.game import GameError
from tessera.core.record import RecordError
from tessera.i18n import MessageError, load_catalog, say, t
from tessera.ui.embed.pictures import PICTURE_MARK, add_pictures, attributes, record_text
from tessera.ui.embed.spec import (MAX_ATTRIBUTE_CHARS, EmbedError, EmbedSpec, ExamplePlan, Puzzle, error_text,
                                   language, make_plan, outcome_words, parse_spec, picture_svg, position_label,
                                   read_record, rules_content, turn_words)

REPO = Path(__file__).resolve().parents[2]
CAPTURE = {"format": "tessera/1", "game": "dots", "options": {"size": "10x10"},
           "moves": ["6-7", "4-4", "7-6"], "meta": {"comments": ["Start.", "One.", "", "Captured."]}}
CAPTURE_TEXT = json.dumps(CAPTURE)
SGF = "(;GM[40]SZ[8:7]C[Root.]AB[cd][ed][dc][de]PL[W];W[dd]C[Inside.];B[gf];W[fd]C[Again.])"


def plan_of(attrs: dict, text: str = CAPTURE_TEXT):
    return make_plan(parse_spec(attrs), text)


# ----- attributes -------------------------------------------------------------------

def test_defaults_are_a_view_of_the_end_in_english() -> None:
    """No attributes: view mode, no ply, no controls or coordinates, auto theme, English."""
    assert parse_spec({}) == EmbedSpec()
    plan = plan_of({})
    assert plan.start == 3 and plan.count == 3 and plan.game_id == "dots"


def test_flags_are_on_when_present_and_off_when_said_so() -> None:
    spec = parse_spec({"controls": "", "coords": "coords"})
    assert spec.controls and spec.coords
    for off in ("false", "off", "No", "0"):
        assert not parse_spec({"coords": off}).coords


@pytest.mark.parametrize("mode, start", [("view", 3), ("VIEW", 3), ("step", 0), ("play", 3), ("puzzle", 0)])
def test_each_mode_opens_where_it_should(mode: str, start: int) -> None:
    """view and play open at the end, step and puzzle at the start, unless ``ply`` says."""
    assert plan_of({"mode": mode}).start == start
    assert plan_of({"mode": mode, "ply": "1"}).start == 1


@pytest.mark.parametrize("value", ["-1", "1.5", "1e3", "twelve", "١٢", "1234567", " 3x"])
def test_a_ply_is_a_small_whole_number(value: str) -> None:
    with pytest.raises(EmbedError) as caught:
        parse_spec({"ply": value})
    assert caught.value.key == "embed.error.ply_form"


def test_unknown_mode_and_theme_name_what_is_known() -> None:
    with pytest.raises(EmbedError, match="view, step, play, puzzle"):
        parse_spec({"mode": "sideways"})
    with pytest.raises(EmbedError, match="auto, light, dark"):
        parse_spec({"theme": "sepia"})


@pytest.mark.parametrize("name", ["game", "mode", "ply", "level", "theme", "lang", "controls"])
def test_huge_attributes_are_refused_before_anything_else(name: str) -> None:
    with pytest.raises(EmbedError) as caught:
        parse_spec({name: "7" * (MAX_ATTRIBUTE_CHARS + 1)})
    assert caught.value.key == "embed.error.too_long" and caught.value.params["name"] == name
    with pytest.raises(EmbedError):
        parse_spec({"src": "x" * 100_000})


@pytest.mark.parametrize("tag, lang", [("ru", "ru"), ("ru-RU", "ru"), ("RU", "ru"), ("en-GB", "en"),
                                       ("de", "en"), ("", "en"), (None, "en"), ("rus", "en")])
def test_language_tags_map_to_the_catalog(tag, lang: str) -> None:
    assert language(tag) == lang
    assert parse_spec({"lang": tag}).lang == lang


# ----- records ----------------------------------------------------------------------

def test_no_record_is_the_start_of_the_game_named() -> None:
    record = read_record("  \n ", "corners")
    assert record.game == "corners" and record.moves == []
    with pytest.raises(EmbedError) as caught:
        read_record("", None)
    assert caught.value.key == "embed.error.no_game"


def test_an_sgf_record_keeps_its_move_comments() -> None:
    record = read_record(SGF, None)
    assert record.game == "dots" and record.moves == ["4-4", "7-2", "6-4"]
    assert record.comments() == ["Root.", "Inside.", "", "Again."]


def test_the_game_attribute_must_match_the_record() -> None:
    with pytest.raises(EmbedError) as caught:
        read_record(CAPTURE_TEXT, "corners")
    assert caught.value.key == "embed.error.other_game"
    assert "Уголки" in say(caught.value, "ru") and "Точки" in say(caught.value, "ru")
    with pytest.raises(GameError, match="unknown game 'chess'"):
        read_record(CAPTURE_TEXT, "chess")


@pytest.mark.parametrize("text, kind", [
    ("{", RecordError), ("[]", RecordError), ('{"format": "tessera/1", "game": "dots", "moves": ["6-7", "6-7"]}', RecordError),
    ('{"format": "tessera/1", "game": "dots", "moves": [], "result": {"winner": 0, "reason": "landing"}}', RecordError),
    ("(;GM[1]SZ[19])", GameError), ("(;GM[40]SZ[10];B[zz])", GameError), ("x" * 3_000_000, RecordError),
])
def test_bad_records_are_keyed_errors(text: str, kind: type) -> None:
    """Corrupt JSON, an illegal move, an ending the moves do not reach, a broken
    or foreign SGF, a huge text: each is a keyed error worded in Russian too."""
    with pytest.raises(kind) as caught:
        plan_of({}, text)
    assert isinstance(caught.value, MessageError)
    assert error_text(caught.value, "ru").startswith("Эту доску нельзя показать: ")


def test_ply_past_the_end_and_a_puzzle_with_nothing_to_find() -> None:
    with pytest.raises(EmbedError, match="ply 4 is past the end: the record has 3 moves"):
        plan_of({"ply": "4"})
    assert plan_of({"ply": "3"}).start == 3
    with pytest.raises(EmbedError, match="after ply 3, and the record has 3 moves"):
        plan_of({"mode": "puzzle", "ply": "3"})


def test_levels_are_the_games_own() -> None:
    assert plan_of({"mode": "play", "level": "easy"}).spec.level == "easy"
    with pytest.raises(EmbedError, match="the level 'godlike' is not one of easy, medium, hard"):
        plan_of({"mode": "play", "level": "godlike"})
    with pytest.raises(EmbedError) as caught:
        make_plan(parse_spec({"mode": "play", "level": "easy", "game": "abatis"}), "")
    assert caught.value.key == "embed.error.no_levels"
    assert plan_of({"mode": "view", "level": "godlike"}).spec.level == "godlike"   # only play uses it


def test_a_slip_of_ours_is_named_by_its_type_only() -> None:
    assert error_text(ZeroDivisionError("x"), "en") == "This board cannot be shown: something went wrong (ZeroDivisionError)"


@pytest.mark.parametrize("game_id", registry.available_ids())
def test_every_game_embeds_and_draws(game_id: str) -> None:
    """Every game of the registry: a board from the game attribute alone, in
    every mode that needs no moves, and its picture in both themes."""
    for mode in ("view", "step", "play"):
        plan = make_plan(parse_spec({"game": game_id, "mode": mode}), "")
        assert plan.count == 0 and plan.start == 0
    light, dark = (picture_svg(plan, theme, "en") for theme in ("light", "dark"))
    assert light.startswith("<svg") and "<title>" in light and light != dark


# ----- worked examples of the rules pages -------------------------------------------------

def games_with_examples() -> list[str]:
    return [game_id for game_id in registry.available_ids() if (content := rules_content(game_id)) is not None
            and content.diagrams()]


def test_games_with_worked_examples_are_found() -> None:
    assert {"quadrature", "dots", "corners", "abatis"} <= set(games_with_examples())


@pytest.mark.parametrize("game_id", games_with_examples())
def test_every_worked_example_embeds_and_draws(game_id: str) -> None:
    """Each worked example of a rules page is a board: its steps, from the page's side, drawn in both themes."""
    content = rules_content(game_id)
    for diagram in content.diagrams():
        plan = make_plan(parse_spec({"game": game_id, "example": diagram.key, "mode": "step"}), "")
        assert isinstance(plan, ExamplePlan)
        assert plan.count == diagram.steps and plan.start == 0 and plan.flipped == content.flipped
        assert plan.game_at(plan.count).ply >= plan.game_at(0).ply
        light = picture_svg(plan, "light", "ru")
        assert light.startswith("<svg") and t(diagram.caption_key, "ru") in light
        end = make_plan(parse_spec({"game": game_id, "example": diagram.key, "ply": str(diagram.steps)}), "")
        assert end.start == diagram.steps and end.spec.mode == "step"   # an example steps unless told


def test_an_example_is_seen_from_the_side_asked_or_its_pages() -> None:
    def flipped(**attrs: str) -> bool:
        return make_plan(parse_spec({"game": "quadrature", "example": "basic_move", **attrs}), "").flipped
    assert flipped() is True                      # the document draws Quadrature from Black's side
    assert flipped(flip="off") is False and flipped(flip="") is True
    assert make_plan(parse_spec({"game": "dots", "flip": ""}), "").flipped is True
    assert make_plan(parse_spec({"game": "dots"}), "").flipped is False


def test_a_flipped_picture_differs_from_the_unflipped_one() -> None:
    spec = {"game": "quadrature", "example": "basic_move"}
    turned, usual = (picture_svg(make_plan(parse_spec({**spec, "flip": flip}), ""), "light", "en")
                     for flip in ("on", "off"))
    assert turned != usual


@pytest.mark.parametrize("attrs, text, key", [
    ({"example": "capture"}, "", "embed.error.example_game"),
    ({"game": "dots", "example": "nothing_like_it"}, "", "embed.error.example"),
    ({"game": "dots", "example": "capture", "mode": "play"}, "", "embed.error.example_mode"),
    ({"game": "dots", "example": "capture", "mode": "puzzle"}, "", "embed.error.example_mode"),
    ({"game": "dots", "example": "capture"}, CAPTURE_TEXT, "embed.error.example_record"),
    ({"game": "quadrotone", "example": "capture"}, "", "embed.error.no_examples"),
    ({"game": "quadrature", "example": "basic_move", "ply": "99"}, "", "embed.error.ply_range"),
])
def test_example_mistakes_are_keyed_errors(attrs: dict, text: str, key: str) -> None:
    with pytest.raises(EmbedError) as caught:
        make_plan(parse_spec(attrs), text)
    assert caught.value.key == key
    for lang in ("en", "ru"):
        assert "{" not in error_text(caught.value, lang)


def test_unknown_example_names_the_known_ones() -> None:
    with pytest.raises(EmbedError) as caught:
        make_plan(parse_spec({"game": "quadrature", "example": "x" * 60}), "")
    assert "chain_reaction" in error_text(caught.value, "en")


# ----- stepping words ---------------------------------------------------------------------

def test_labels_turns_and_endings_in_both_languages() -> None:
    plan = plan_of({"mode": "step"})
    assert position_label(plan, 0, "en") == "Dots: the start position"
    assert position_label(plan, 3, "ru") == "Точки: после хода 3, 7-6"
    assert turn_words(plan.game_at(0), "en") == "Blue to move"
    assert turn_words(plan.game_at(1), "ru") == "Ходят красные"
    sgf = "(;GM[40]SZ[10]RE[B+R];B[aa];W[bb])"
    resigned = make_plan(parse_spec({}), sgf)
    game = resigned.game_at(2)
    ending = resigned.outcome(game)
    assert ending is not None and ending.reason == "resign"
    assert outcome_words(game, ending, "en") == "Blue wins. Red resigned."
    assert resigned.outcome(resigned.game_at(1)) is None
    assert resigned.outcome(game, on_record=False) is None


# ----- puzzles -------------------------------------------------------------------------------

def test_a_puzzle_takes_the_records_moves_and_answers_with_its_replies() -> None:
    plan = make_plan(parse_spec({"mode": "puzzle"}), SGF)   # Red to move: 4-4, Blue's reply 7-2, then 6-4
    puzzle = Puzzle(plan)
    game = plan.game_at(0)
    assert puzzle.solver == game.to_move == 1
    wrong = game.parse_move("1-1")
    assert not puzzle.is_right(game, wrong)
    right = game.parse_move("4-4")
    assert puzzle.is_right(game, right) and puzzle.reply(game) is None
    game.push(right)
    assert puzzle.reply(game) == game.parse_move("7-2") and not puzzle.solved(game)
    game.push(puzzle.reply(game))
    assert puzzle.reply(game) is None and puzzle.found(game) == 1
    game.push(puzzle.expected(game))
    assert puzzle.solved(game) and puzzle.expected(game) is None and puzzle.found(game) == 2


# ----- the build's pictures -----------------------------------------------------------------

def page_with(*boards: str, lang: str = "en") -> str:
    return f'<!doctype html><html lang="{lang}"><body>{"".join(boards)}</body></html>'


def test_pictures_go_into_each_board_once_per_theme() -> None:
    page = page_with(
        f'<tessera-board mode="step" coords><script type="application/json">{CAPTURE_TEXT}</script></tessera-board>',
        f'<tessera-board theme="dark">{SGF}</tessera-board>',
        '<tessera-board src="game.sgf" mode=view ply=1></tessera-board>',
        '<tessera-board game="nope"></tessera-board>',
        '<tessera-board src="missing.sgf"></tessera-board>')

    def read(src: str) -> str:
        if src == "game.sgf":
            return SGF
        raise FileNotFoundError(2, "No such file", src)

    built, problems = add_pictures(page, read)
    boards = re.findall(r"<tessera-board.*?</tessera-board>", built, re.S)
    assert [board.count(PICTURE_MARK + "=") for board in boards] == [2, 1, 2, 0, 0]
    assert 'data-tessera-picture="dark"' in boards[1] and "<title>Dots: the start position</title>" in boards[0]
    assert boards[0].index("<svg") < boards[0].index("<script")     # the picture first, the record kept
    assert len(problems) == 2 and "unknown game 'nope'" in problems[0] and "missing.sgf" in problems[1]
    again, more = add_pictures(built, read)
    assert again == built and len(more) == 2                        # drawn boards are left alone


def test_attributes_and_record_text_read_as_the_browser_does() -> None:
    assert attributes(' mode="step" ply=3 coords theme=\'dark\' data-x="a&amp;b"') == {
        "mode": "step", "ply": "3", "coords": "", "theme": "dark", "data-x": "a&b"}
    assert record_text(" {&quot;a&quot;: 1} ") == ' {"a": 1} '
    assert record_text('<svg data-tessera-picture="light"><title>x</title></svg><script>{"a": "&amp;"}</script>') \
        == '{"a": "&amp;"}'


@pytest.mark.parametrize("name", ["index.html", "ru.html"])
def test_the_examples_page_draws_all_its_boards(name: str) -> None:
    """examples/index.html and its Russian twin: ten boards, every one drawn by the build, all four modes."""
    folder = REPO / "examples"
    page = (folder / name).read_text(encoding="utf-8")
    built, problems = add_pictures(page, lambda src: (folder / src).read_text(encoding="utf-8"))
    assert problems == []
    boards = re.findall(r"<tessera-board(.*?)>", page)
    assert len(boards) == 10
    assert {attributes(board)["mode"] for board in boards} == {"view", "step", "play", "puzzle"}
    assert built.count(PICTURE_MARK + '="light"') == 9 and built.count(PICTURE_MARK + '="dark"') == 9


def test_the_russian_examples_page_is_the_english_one_in_russian() -> None:
    """Same boards in the same order (the records' words aside), each page linking the other."""
    folder = REPO / "examples"
    english, russian = ((folder / name).read_text(encoding="utf-8") for name in ("index.html", "ru.html"))
    def modes(page: str) -> list[tuple[str | None, ...]]:
        return [tuple(attributes(board).get(key) for key in ("game", "mode", "ply", "level"))
                for board in re.findall(r"<tessera-board(.*?)>", page)]
    assert modes(english) == modes(russian)
    assert 'href="./ru.html"' in english and 'href="./index.html"' in russian
    assert '<html lang="ru">' in russian and not re.search(r"[A-Za-z]{4,} [a-z]{4,} [a-z]{4,}", re.sub(
        r"<script.*?</script>|<code>.*?</code>|<[^>]*>", "", russian, flags=re.S))


# ----- words ---------------------------------------------------------------------------------

def test_every_embed_word_is_in_both_languages() -> None:
    """Every catalog key the embed's Python and JavaScript name exists in English and Russian."""
    catalog = load_catalog()
    sources = [*sorted((REPO / "py" / "tessera" / "ui" / "embed").glob("*.py")), REPO / "assets" / "js" / "embed.js"]
    keys = set()
    for path in sources:
        keys |= set(re.findall(r'["\'](embed\.[a-z_.]+)["\']', path.read_text(encoding="utf-8")))
    keys -= {"embed.js", "embed.html", "embed.css"}
    assert len(keys) > 25
    for lang in ("en", "ru"):
        missing = [key for key in keys if key not in catalog[lang] and f"{key}.other" not in catalog[lang]]
        assert not missing, (lang, missing)


# ----- fuzz: whatever a page writes, a keyed error or a plan ---------------------------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

ATTRIBUTE_NAMES = ("game", "mode", "ply", "theme", "lang", "level", "controls", "coords", "src", "example", "flip")
ATTRIBUTE_VALUES = st.one_of(st.none(), st.text(max_size=12),
                             st.sampled_from(["dots", "corners", "quadrature", "abatis", "quadrotone", "view",
                                              "step", "play", "puzzle", "-1", "0", "3", "99", "1e9", "9" * 40,
                                              "easy", "hard", "dark", "ru", "false", "", "capture",
                                              "chain_reaction", "basic_move", "off"]))
RECORDS = st.one_of(
    st.text(max_size=60),
    st.sampled_from([CAPTURE_TEXT, SGF, "(;GM[40]SZ[10])", "{}", "null", "[" * 5000, '{"format": "tessera/1"}']),
    st.builds(lambda moves, size: json.dumps({"format": "tessera/1", "game": "dots", "options": {"size": size},
                                              "moves": moves, "meta": {"comments": moves[:2]}}),
              st.lists(st.sampled_from(["6-7", "4-4", "7-6", "0-0", "x", "", "99-99"]), max_size=5),
              st.sampled_from(["10x10", "0x0", "x", 7, None])),
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(ATTRIBUTE_NAMES), ATTRIBUTE_VALUES, max_size=6), RECORDS)
def test_any_attributes_and_record_give_a_plan_or_a_keyed_error(attrs: dict, text: str) -> None:
    """The element's reader never lets a Python error through: a plan, or a
    message in both languages (``error_text``)."""
    try:
        plan = make_plan(parse_spec(attrs), text)
    except MessageError as error:
        assert error_text(error, "en") and error_text(error, "ru")
    else:
        assert plan is not None
