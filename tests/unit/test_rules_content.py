"""Every game's rules page content is worded in both languages and replays.

``tessera.ui.screens.rules_page`` renders any game's ``CONTENT`` (``core.rules_content``)
and cannot be run outside a browser, so these tests check what it would ask
for: every catalog key the page names (title, sections, buttons, captions,
rulings, the view note) is in the catalog in English and in Russian, every
key a diagram's status line uses too (with a value for each placeholder),
and every worked example replays step by step through the engine.  A
table's picture cells are inserted into the page as markup, so they must be
well-formed SVG pictures with a name of their own.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tessera import i18n
from tessera.core import registry
from tessera.core.rules_content import Diagram, RulesContent

UI_PAGE = Path(registry.__file__).resolve().parents[1] / "ui" / "screens" / "rules_page.py"
CONTENTS: dict[str, RulesContent] = {
    game.game_id: content
    for game in registry.GAMES
    if game.available and (content := registry.part_attribute(game.game_id, "rules_page", "CONTENT")) is not None
}


def page_keys(content: RulesContent) -> set[str]:
    """The keys (under ``content.prefix``) that ``ui/screens/rules_page.py`` words for this content."""
    diagrams = content.diagrams()
    keys = {"title", "credit", "intro", "back", "step", "reset", "diagram_label"}
    if any(diagram.autoplay for diagram in diagrams):
        keys.add("play")
    for section in content.sections:
        if section.heading:
            keys.add(f"h.{section.key}")
        keys.update(section.paragraphs)
    placed = {key for section in content.sections for key in section.examples}
    if any(diagram.key not in placed for diagram in diagrams):
        keys.add(content.leftover_heading)
    if content.rulings:
        keys.update({"h.rulings", "p.rulings"} | {f"ruling.{key}" for key in content.rulings})
    if content.turnable:
        keys.update({"turn", "h.diagrams", "p.examples"} | {f"view.{name}" for name in content.views})
    if content.intro_links:
        keys.add("links")
    return keys


def known(key: str, lang: str) -> str | None:
    """The text of ``key`` in ``lang`` itself (no fallback), plain or the ``other`` plural form."""
    table = i18n.catalog()[lang]
    return table.get(key, table.get(f"{key}.other"))


class KeyRecorder:
    """Stands in for ``t`` in a game's rules_page module and notes every key and its values."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    def __call__(self, key: str, /, lang: str | None = None, **params: Any) -> str:
        self.calls.append((key, lang or i18n.language(), params))
        return i18n.t(key, lang, **params)


def test_some_game_has_rules_content() -> None:
    """The page would have nothing to render if no game offered content."""
    assert {"quadrature", "dots"} <= set(CONTENTS)


def test_page_keys_cover_every_literal_key_the_ui_page_words() -> None:
    """``page_keys`` mirrors the UI page: each ``tr("...")`` there is one of its keys for some game."""
    literal = set(re.findall(r'\btr\(\s*"([a-z_.]+)"', UI_PAGE.read_text(encoding="utf-8")))
    assert literal, "the UI page no longer words keys through tr(...): update this test"
    universe = set().union(*(page_keys(content) for content in CONTENTS.values()))
    assert literal <= universe


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("game_id", sorted(CONTENTS))
def test_every_page_key_is_in_the_catalog(game_id: str, lang: str) -> None:
    content = CONTENTS[game_id]
    missing = sorted(f"{content.prefix}.{key}" for key in page_keys(content)
                     if known(f"{content.prefix}.{key}", lang) is None)
    missing += sorted(d.caption_key for d in content.diagrams() if known(d.caption_key, lang) is None)
    assert not missing, f"{game_id} ({lang}) lacks {missing}"


@pytest.mark.parametrize("game_id", sorted(CONTENTS))
def test_sections_name_only_examples_that_exist_once(game_id: str) -> None:
    """The page silently skips an unknown example key, so a typo must fail here."""
    content = CONTENTS[game_id]
    diagram_keys = [diagram.key for diagram in content.diagrams()]
    assert len(diagram_keys) == len(set(diagram_keys))
    named = [key for section in content.sections for key in section.examples]
    assert len(named) == len(set(named))
    assert set(named) <= set(diagram_keys)
    section_keys = [section.key for section in content.sections]
    assert len(section_keys) == len(set(section_keys)) and "rulings" not in section_keys
    assert sum(section.view_note for section in content.sections) == (1 if content.turnable else 0)


@pytest.mark.parametrize("game_id", sorted(CONTENTS))
def test_the_lead_links_only_to_headed_sections(game_id: str) -> None:
    """A link is worded by its section's heading, so it must name a section that has one, once."""
    content = CONTENTS[game_id]
    headed = {section.key for section in content.sections if section.heading}
    assert len(set(content.intro_links)) == len(content.intro_links)
    assert set(content.intro_links) <= headed


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("game_id", sorted(CONTENTS))
def test_picture_cells_are_named_svg_pictures(game_id: str, lang: str) -> None:
    """``innerHTML`` gets each picture cell as it is: only ``<svg role=img>`` elements with a
    ``<title>`` in the page's language, no scripts, no links, no text outside them."""
    content = CONTENTS[game_id]
    for section in content.sections:
        for table in content.tables(section.key, lang):
            assert set(table.picture_columns) <= set(range(len(table.header))), table.key
            for row in table.rows:
                for column in table.picture_columns:
                    holder = ET.fromstring(f"<div>{row[column]}</div>")
                    assert len(holder) >= 1 and not (holder.text or "").strip(), table.key
                    for svg in holder:
                        assert svg.tag == "{http://www.w3.org/2000/svg}svg" and svg.get("role") == "img"
                        assert not (svg.tail or "").strip()
                        title = svg.find("{http://www.w3.org/2000/svg}title")
                        assert title is not None and (title.text or "").strip(), table.key
                        tags = {node.tag.split("}")[-1] for node in svg.iter()}
                        assert not tags & {"script", "a", "foreignObject", "use", "image"}, table.key
                        assert not any(name.startswith("on") for node in svg.iter() for name in node.attrib)


def replay(diagram: Diagram) -> list[Any]:
    """Every step's game; each step adds at most one move to the step before."""
    games = [diagram.game_at(step) for step in range(diagram.steps + 1)]
    for before, after in zip(games, games[1:]):
        played = after.move_stack[:len(before.move_stack)]
        assert played == before.move_stack
        assert len(after.move_stack) - len(before.move_stack) in (0, 1)
    return games


@pytest.mark.parametrize("game_id", sorted(CONTENTS))
def test_every_example_replays(game_id: str) -> None:
    for diagram in CONTENTS[game_id].diagrams():
        assert diagram.steps >= 0
        games = replay(diagram)
        assert len(games[-1].move_stack) >= diagram.steps - 1, diagram.key
        first, again = diagram.game_at(diagram.steps), diagram.game_at(diagram.steps)
        assert first is not again and first.position() == again.position()
        if not first.is_over() and first.legal_moves():
            first.push(first.legal_moves()[0])
            assert again.ply == first.ply - 1, f"{diagram.key}: game_at shares state between calls"
        for step, game in enumerate(games):
            marks = diagram.highlights(step, game)
            illegal = marks.get("illegal_move")
            if illegal is not None:
                assert step == diagram.steps and not game.is_legal(illegal), diagram.key


WITH_DIAGRAMS = sorted(game_id for game_id, content in CONTENTS.items() if content.diagrams())
"""Quadrotone's page has tables but no worked diagrams yet."""


@pytest.mark.parametrize("game_id", WITH_DIAGRAMS)
def test_status_lines_are_worded_in_both_languages(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step's status, and a reader's own move where allowed, uses only keys both languages have."""
    module = registry.part(game_id, "rules_page")
    recorder = KeyRecorder()
    monkeypatch.setattr(module, "t", recorder)
    for diagram in CONTENTS[game_id].diagrams():
        for step in range(diagram.steps + 1):
            game = diagram.game_at(step)
            worded = {lang: diagram.status(step, game, [], lang) for lang in i18n.LANGUAGES}
            assert worded["en"] and worded["en"] != worded["ru"], (diagram.key, step)
            if diagram.interactive and not game.is_over():
                move = game.legal_moves()[0]
                own = [game.move_text(move)]
                game.push(move)
                for lang in i18n.LANGUAGES:
                    assert diagram.status(step, game, own, lang)
    assert recorder.calls
    problems = []
    for key, lang, params in recorder.calls:
        text = known(key, lang)
        if text is None:
            problems.append(f"{key} missing in {lang}")
        elif not i18n.placeholders(text) <= set(params):
            problems.append(f"{key} ({lang}) lacks values for {sorted(i18n.placeholders(text) - set(params))}")
    assert not problems, sorted(set(problems))
