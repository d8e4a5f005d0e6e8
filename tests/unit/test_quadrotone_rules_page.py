"""Quadrotone's rules page says what the engine plays, in both languages.

The page's words live in the game's ``rules.json``; until the registry
lists that part, this module adds it to the catalog itself.  The tables are
read back the way the page shows them and compared with ``limits.py`` and
``catalog.json`` read independently; the pattern pictures are read back
square by square and compared with ``catalog.json``'s rows turned here by
hand; the notation and position examples in the words are parsed by the
engine.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tessera import i18n
from tessera.games.quadrotone import limits, rules_page
from tessera.games.quadrotone.catalog import CATALOG_FILE, catalog
from tessera.core.game import NotationError
from tessera.games.quadrotone.chips import COLOURS, parse_chip
from tessera.games.quadrotone.field import parse_square
from tessera.games.quadrotone.notation import EXPIRED_KIND
from tessera.games.quadrotone.patterns import SIDE
from tessera.games.quadrotone.rules import EXPIRIES_TO_END, Quadrotone
from tessera.games.quadrotone.view import COLOUR_FIELDS, DARK, LIGHT, MARKS

RULES_JSON = Path(rules_page.__file__).with_name("rules.json")
THEME_CSS = Path(__file__).resolve().parents[2] / "assets" / "css" / "theme.css"
SVG = "{http://www.w3.org/2000/svg}"
i18n.add_catalog_parts([RULES_JSON])
CONTENT = rules_page.CONTENT
PREFIX = CONTENT.prefix
CATALOG_DATA = json.loads(CATALOG_FILE.read_text(encoding="utf-8"))
NOTATION_PARAGRAPHS = ("p.notation", "p.notation_arrange", "p.notation_items")
POSITION_PARAGRAPHS = ("p.position", "p.position_rest", "p.position_tail", "p.position_memory")
ITEM = r"(?:[RGBY]{4}(?:r[0-3])?@[a-p]\d{1,2}|[a-p]\d{1,2}(?:-[a-p]\d{1,2})?(?:r[0-3])?)"
MOVE_TOKEN = re.compile(rf"(?<![\w@.,:-]){ITEM}(?:,{ITEM})*(?![\w@-])")


def text(key: str, lang: str) -> str:
    """The page's own text for ``key`` in ``lang``, failing if only a fallback exists."""
    table = i18n.catalog()[lang]
    found = table.get(f"{PREFIX}.{key}")
    assert found is not None, f"{PREFIX}.{key} missing in {lang}"
    return found


def page_keys() -> set[str]:
    """The keys ``ui/screens/rules_page.py`` words for this content (as test_rules_content counts them)."""
    keys = {"title", "credit", "intro", "back", "step", "reset", "diagram_label"}
    for section in CONTENT.sections:
        if section.heading:
            keys.add(f"h.{section.key}")
        keys.update(section.paragraphs)
    keys.update({"h.rulings", "p.rulings"} | {f"ruling.{key}" for key in CONTENT.rulings})
    if CONTENT.intro_links:
        keys.add("links")
    return keys


def all_tables(lang: str) -> dict[str, rules_page.RulesTable]:
    return {table.key: table for section in CONTENT.sections for table in CONTENT.tables(section.key, lang)}


def numbers(column: int, table: rules_page.RulesTable) -> list[int]:
    return [int(row[column]) for row in table.rows]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_page_key_is_worded_without_open_placeholders(lang: str) -> None:
    """The UI page words paragraphs without values, so only the label may have a placeholder."""
    for key in sorted(page_keys()):
        assert i18n.placeholders(text(key, lang)) <= ({"caption"} if key == "diagram_label" else set()), key
    assert "Vykhovanets" in text("credit", "en") and "Выхованец" in text("credit", "ru")


def test_the_catalog_part_holds_exactly_the_words_the_page_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key of rules.json is dead, and every key the tables word is there in both languages."""
    used: list[tuple[str, dict[str, Any]]] = []

    def recording_t(key: str, /, lang: str | None = None, **params: Any) -> str:
        used.append((key, params))
        return i18n.t(key, lang, **params)

    monkeypatch.setattr(rules_page, "t", recording_t)
    rules_page.worded_table.cache_clear()   # word every table again, through recording_t
    try:
        worded = {lang: all_tables(lang) for lang in i18n.LANGUAGES}
    finally:
        rules_page.worded_table.cache_clear()
    table_keys = {key for key, _ in used}
    for key, params in used:
        for lang in i18n.LANGUAGES:
            base = i18n.catalog()[lang]
            found = base.get(key) or base.get(f"{key}.{i18n.plural_category(lang, params.get('count'))}")
            assert found is not None, f"{key} missing in {lang}"
            assert i18n.placeholders(found) <= set(params), key
    data = json.loads(RULES_JSON.read_text(encoding="utf-8"))
    for lang in i18n.LANGUAGES:
        stored = {i18n.plural_base(key) or key for key in data[lang]}
        assert stored == {f"{PREFIX}.{key}" for key in page_keys()} | table_keys, lang
    for key, english in worded["en"].items():
        russian = worded["ru"][key]
        assert english.header != russian.header and english.caption != russian.caption, key
        for table in (english, russian):
            cells = [table.caption, *table.header, *(cell for row in table.rows for cell in row)]
            assert not any("{" in cell or cell.startswith(PREFIX) for cell in cells), key
            assert all(len(row) == len(table.header) for row in table.rows), key


@pytest.mark.parametrize("count, english, russian", [
    (1, "1 one-colour pattern: shown in red, it counts", "1 одноцветный узор: показан красным, засчитывается"),
    (3, "3 one-colour patterns: shown in red, they count", "3 одноцветных узора: показаны красным, засчитываются"),
    (21, "21 one-colour patterns: shown in red, they count", "21 одноцветный узор: показан красным, засчитывается"),
    (25, "25 one-colour patterns: shown in red, they count", "25 одноцветных узоров: показаны красным, засчитываются"),
])
def test_pattern_captions_agree_with_their_number(count: int, english: str, russian: str) -> None:
    assert i18n.t(f"{PREFIX}.table.one_colour.caption", "en", count=count).startswith(english)
    assert i18n.t(f"{PREFIX}.table.one_colour.caption", "ru", count=count).startswith(russian)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_limit_tables_show_the_engines_limits(lang: str) -> None:
    tables = all_tables(lang)
    normal, reverse = tables["limits"], tables["reverse"]
    sizes = list(range(1, len(limits.PLACE_LIMITS)))
    assert numbers(0, normal) == sizes and numbers(0, reverse) == sizes
    assert numbers(1, normal) == list(limits.PLACE_LIMITS[1:])
    assert numbers(2, normal) == list(limits.ARRANGE_LIMITS[1:])
    assert numbers(1, reverse) == list(limits.REVERSE_LIMITS[1:])
    for size, row in zip(sizes, reverse.rows):
        first = max([1] + [before for before, most in limits.REVERSE_RAMP if most < size])
        expected = (i18n.t(f"{PREFIX}.table.from_first", lang) if first == 1
                    else i18n.t(f"{PREFIX}.table.from_move", lang, number=first))
        assert row[2] == expected, size


def test_the_words_name_the_engines_numbers() -> None:
    """Numbers that sit in prose are checked against the engine, so a change there fails here."""
    befores = [before for before, _ in limits.REVERSE_RAMP]
    for before in befores:
        assert re.search(rf"\b{before}(st|nd|rd|th)\b", text("p.reverse_limits", "en"))
        assert f"{before}-го" in text("p.reverse_limits", "ru")
    for lang in i18n.LANGUAGES:
        assert f"{limits.LEAD_TO_WIN}" in text("p.end", lang) and f"{limits.LEAD_TO_WIN}" in text("ruling.catalog", lang)
        assert re.search(rf"\b{catalog().chain_from}\b", text("ruling.chains", lang))
        assert re.search(rf"\b{catalog().fence_cap}\b", text("ruling.fences", lang))
        assert f"1 {'to' if lang == 'en' else 'до'} {len(limits.PLACE_LIMITS) - 1}" in text("p.moves", lang)


def drawn(rows: list[str]) -> str:
    return "\n".join(row.replace("#", "■").replace("a", "■").replace("b", "□").replace(".", "·") for row in rows)


def turned_clockwise(rows: list[str]) -> list[str]:
    """catalog.json's rows (top first) turned a quarter clockwise: each new
    row is an old column read from the bottom up."""
    return ["".join(row[column] for row in reversed(rows)) for column in range(len(rows[0]))]


def every_turn(rows: list[str]) -> list[tuple[int, list[str]]]:
    """(quarter turns, rows) of each turn that looks different, fewest turns first.

    A two-colour pattern's parts may take any two colours, so a turn that
    only puts part b where part a was (``ab/ab`` turned a half) draws the
    same picture: it is not another turn."""
    found: list[tuple[int, list[str]]] = []
    for turns in range(4):
        swapped = [row.translate(str.maketrans("ab", "ba")) for row in rows]
        if all(rows != seen and swapped != seen for _, seen in found):
            found.append((turns, rows))
        rows = turned_clockwise(rows)
    return found


def pictures(cell: str) -> list[ET.Element]:
    """The ``<svg>`` pictures of a picture cell."""
    return list(ET.fromstring(f"<div>{cell}</div>"))


def read_picture(svg: ET.Element) -> list[str]:
    """The picture's squares as catalog.json rows: ``a`` red, ``b`` blue, ``.`` faint."""
    letters = {LIGHT.red: "a", LIGHT.blue: "b", rules_page.OUTSIDE: "."}
    squares = {}
    for rect in svg.iter(f"{SVG}rect"):
        column = round((float(rect.get("x")) - rules_page.PAD - rules_page.GAP / 2) / rules_page.CELL)
        row = round((float(rect.get("y")) - rules_page.PAD - rules_page.GAP / 2) / rules_page.CELL)
        assert float(rect.get("width")) == float(rect.get("height")) == rules_page.CELL - rules_page.GAP
        assert (row, column) not in squares
        squares[row, column] = letters[rect.get("fill")]
    height, width = 1 + max(row for row, _ in squares), 1 + max(column for _, column in squares)
    assert len(squares) == width * height, "a picture draws every square of its box"
    assert float(svg.get("width")) == 2 * rules_page.PAD + width * rules_page.CELL
    assert float(svg.get("height")) == 2 * rules_page.PAD + height * rules_page.CELL
    return ["".join(squares[row, column] for column in range(width)) for row in range(height)]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_pattern_tables_show_catalog_json(lang: str) -> None:
    tables = all_tables(lang)
    for group in ("one_colour", "two_colour"):
        table, items = tables[group], CATALOG_DATA[group]
        assert [row[2] for row in table.rows] == [item["key"] for item in items]
        assert numbers(3, table) == [item["points"] for item in items]
        assert str(len(items)) in table.caption and table.picture_columns == (1,)
        names = [row[0] for row in table.rows]
        assert len(set(names)) == len(names), f"two {group} patterns share a name in {lang}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_turn_of_every_pattern_is_drawn_square_by_square(lang: str) -> None:
    """Each picture cell holds one picture per distinct quarter turn, in the
    order of the turn numbers positions write, and each picture's squares
    are catalog.json's rows turned by hand: red the first colour, blue the
    second, faint the rest of the box; its title is its turn and its text drawing."""
    tables = all_tables(lang)
    drawn_in_all = 0
    for group in ("one_colour", "two_colour"):
        for row, item in zip(tables[group].rows, CATALOG_DATA[group]):
            turns = every_turn(item["rows"])
            shown = pictures(row[1])
            assert len(shown) == len(turns), item["key"]
            for svg, (quarters, rows) in zip(shown, turns):
                expected = [line.replace("#", "a") for line in rows]
                assert read_picture(svg) == expected, (item["key"], quarters)
                assert svg.get("role") == "img"
                title = svg.find(f"{SVG}title")
                assert title is not None and title.text == i18n.t(f"{PREFIX}.picture.turn{quarters}", lang,
                                                                  shape=drawn(rows)), (item["key"], quarters)
                drawn_in_all += 1
            pattern = next(p for p in catalog().patterns if p.key == item["key"])
            assert [variant.rotation for variant in pattern.variants()] == [quarters for quarters, _ in turns]
            assert [variant.rotation for variant in pattern.variants()] == list(range(len(turns))), \
                "the words say picture k is turn k - 1"
    assert drawn_in_all == sum(len(pattern.variants()) for pattern in catalog().patterns)
    assert len(catalog().patterns) == 36


def test_each_coloured_square_has_its_colour_blind_mark() -> None:
    """Under the colour-blind setting, red squares show a dot and blue ones a ring, centred, as on the board."""
    assert MARKS[COLOUR_FIELDS.index("red")] == "dot" and MARKS[COLOUR_FIELDS.index("blue")] == "ring"
    for pattern in catalog().patterns:
        for variant in pattern.variants():
            svg = ET.fromstring(rules_page.to_svg(rules_page.pattern_picture(variant), classes=rules_page.PICTURE_CLASSES))
            centres = {}
            for rect in svg.iter(f"{SVG}rect"):
                if rect.get("fill") != rules_page.OUTSIDE:
                    centre = (float(rect.get("x")) + float(rect.get("width")) / 2,
                              float(rect.get("y")) + float(rect.get("height")) / 2)
                    centres[centre] = rect.get("fill")
            marks = {(float(c.get("cx")), float(c.get("cy"))): c for c in svg.iter(f"{SVG}circle")}
            assert set(marks) == set(centres), pattern.key
            for centre, circle in marks.items():
                assert circle.get("class") == "rules-mark"
                ring = circle.get("fill") == "none"
                assert ring == (centres[centre] == LIGHT.blue), pattern.key


def test_the_dark_theme_paints_the_pictures_in_the_boards_dark_colours() -> None:
    """The light colours are the SVG's own; the dark theme's CSS repaints them with the board's DARK palette."""
    css = THEME_CSS.read_text(encoding="utf-8")

    def dark_rule(selector: str, prop: str) -> str:
        found = re.search(rf':root\[data-theme="dark"\] \.rules-picture {re.escape(selector)} {{ {prop}: (#[0-9a-f]+); }}', css)
        assert found, selector
        return found.group(1)

    assert rules_page.PART_COLOURS == (LIGHT.red, LIGHT.blue)
    assert dark_rule(".rules-red", "fill") == DARK.red and dark_rule(".rules-blue", "fill") == DARK.blue
    assert dark_rule('.rules-mark:not([fill="none"])', "fill") == DARK.mark
    assert dark_rule('.rules-mark[fill="none"]', "stroke") == DARK.mark
    assert rules_page.PICTURE_CLASSES == {LIGHT.red: "rules-red", LIGHT.blue: "rules-blue", LIGHT.mark: "rules-mark"}
    assert ':root[data-shapes="on"] .rules-picture .rules-mark { display: inline; }' in css


def test_the_lead_links_to_the_catalog_section() -> None:
    """The catalog has a section of its own, with both pattern tables, and the lead links to it."""
    catalog_section = next(section for section in CONTENT.sections if section.key == "catalog")
    assert CONTENT.intro_links == ("catalog",) and catalog_section.heading
    assert CONTENT.table_keys["catalog"] == ("one_colour", "two_colour")
    assert not any("one_colour" in keys for section, keys in CONTENT.table_keys.items() if section != "catalog")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_chain_and_fence_tables_show_catalog_json(lang: str) -> None:
    tables = all_tables(lang)
    chains, fences = CATALOG_DATA["chains"], CATALOG_DATA["fences"]
    assert numbers(1, tables["chains"]) == [points for _, points in chains["points"]]
    assert [int(re.match(r"\d+", row[0]).group()) for row in tables["chains"].rows] == [low for low, _ in chains["points"]]
    fence_rows = tables["fences"].rows
    assert [int(points) for _, points in fence_rows[:-1]] == [points for _, points in fences["points"]]
    assert [int(re.match(r"\d+", row[0]).group()) for row in fence_rows[:-1]] == [low for low, _ in fences["points"]]
    assert str(fences["cap"]) in fence_rows[-2][0] and str(fences["cap"]) in fence_rows[-1][0]
    assert fence_rows[-1][1] == "0"


def move_tokens(lang: str) -> set[str]:
    """The moves written in the notation paragraphs (bare square names are not moves)."""
    found = set()
    for key in NOTATION_PARAGRAPHS:
        found.update(token for token in MOVE_TOKEN.findall(text(key, lang))
                     if "@" in token or "-" in token or re.search(r"r[0-3]", token))
    return found


def test_notation_examples_parse_round_trip_and_are_legal() -> None:
    examples = move_tokens("en")
    assert examples == move_tokens("ru")
    assert {"RRGB@d5", "RRGBr1@d5", "d5-e7", "d5-e7r2", "d5r1", "d5-e7,e7-d5"} <= examples
    d5, e7 = parse_square("d5"), parse_square("e7")
    for example in sorted(examples):
        game = Quadrotone(seed=0)
        chips = [parse_chip(name) for name in re.findall(r"[RGBY]{4}", example)]
        if chips:
            game = next(candidate for seed in range(500)
                        if set(chips) <= (candidate := Quadrotone(seed=seed)).hands[candidate.to_move])
        else:
            game.put(d5, parse_chip("RRGB"), 0)
            if "e7-" in example:
                game.put(e7, parse_chip("GBYY"), 0)
        move = game.parse_move(example)
        assert game.move_text(move) == example
        assert game.check(move) is None, (example, game.check(move))


PART_COUNT_WORDS = {7: ("seven", "семью"), 8: ("eight", "восемью"), 9: ("nine", "девятью"), 10: ("ten", "десятью")}
"""How the first position paragraph says how many parts a position has."""


def test_position_examples_read_as_the_words_say() -> None:
    """A position made of the page's examples reads back into the state the page describes."""
    words = " ".join(text(key, lang) for key in POSITION_PARAGRAPHS for lang in i18n.LANGUAGES)
    for example in ("RRGB1", ".....", "733:725", "bar3.1.10.4", "first:d5,e7", "first", "second", "R12.13.44;G7"):
        assert example in words, example
    rows = [["....."] * 16 for _ in range(16)]
    rows[16 - 5][3] = "RRGB1"   # d5: row 5 is the 12th written, column d the 4th cell
    rows[16 - 7][4] = "GBYY0"   # e7
    groups = ["3,0,0,0,0,0,0,0", "0,2,0,0,0,0,0,0", "0,0,1,0,0,0,0,0", "0,0,0,0,0,0,0,1"]
    parts = ["/".join("".join(row) for row in rows), "second", "733:725", "/".join(groups),
             "bar3.1.10.4", "first:d5,e7", "0", "R12.13.44;G7", "-"]
    fresh = Quadrotone(seed=0).position().split()
    assert len(parts) == len(fresh), "the engine writes another number of parts than the page describes"
    english, russian = PART_COUNT_WORDS[len(fresh)]
    assert f"{english} parts" in text("p.position", "en") and f"{russian} частями" in text("p.position", "ru")
    setup = " ".join(parts)
    game = Quadrotone(setup=setup)
    assert game.position() == setup
    assert game.chip_on[parse_square("d5")] == (parse_chip("RRGB"), 1)
    assert game.chip_on[parse_square("e7")] == (parse_chip("GBYY"), 0)
    assert game.to_move == 1 and game.points == [733, 725]
    assert (game.used[0][0][1], game.used[0][1][2], game.used[1][0][3], game.used[1][1][8]) == (3, 2, 1, 1)
    bar3 = next(pattern for pattern in catalog().patterns if pattern.key == "bar3")
    assert game.scored_keys == {(bar3.index, 1, 10, 4)}
    assert 1 in {variant.rotation for variant in bar3.variants()}
    assert game.last_mover == 0 and game.last_squares == (parse_square("d5"), parse_square("e7"))
    red, green = COLOURS.index("R") + 1, COLOURS.index("G") + 1
    assert game.chain_keys == {(red, 12), (red, 13), (red, 44), (green, 7)} and game.fenced_cells == set()
    for lang in i18n.LANGUAGES:
        assert f"y × {SIDE} + x" in text("p.position_memory", lang)


def test_expired_turns_are_written_as_the_page_says() -> None:
    for lang in i18n.LANGUAGES:
        assert re.search(rf"\b{EXPIRED_KIND}\b", text("p.notation_expired", lang))
    game = Quadrotone(seed=0)
    assert game.move_text(game.parse_move(EXPIRED_KIND)) == EXPIRED_KIND
    with pytest.raises(NotationError):
        game.parse_typed(EXPIRED_KIND)
    in_words = {4: {"en": "four turns", "ru": "четыре хода"}}[EXPIRIES_TO_END]
    for lang in i18n.LANGUAGES:
        assert in_words[lang] in text("p.time", lang)


def test_every_table_belongs_to_a_section_and_there_are_no_diagrams_yet() -> None:
    section_keys = [section.key for section in CONTENT.sections]
    assert len(section_keys) == len(set(section_keys)) and "rulings" not in section_keys
    assert set(CONTENT.table_keys) <= set(section_keys)
    assert CONTENT.diagrams() == []
