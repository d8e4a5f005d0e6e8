"""The message catalog: complete in both languages, consistent, and forgiving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tessera import i18n
from tessera.core import registry

FOLDER = Path(i18n.__file__).parent


def test_every_key_has_both_languages() -> None:
    """No message is missing in English or Russian."""
    catalog = i18n.load_catalog()
    english, russian = set(catalog["en"]), set(catalog["ru"])
    assert english - russian == set(), "missing in Russian"
    assert russian - english == set(), "missing in English"


def test_placeholders_match_between_languages() -> None:
    """A translation uses exactly the placeholders of the English text."""
    catalog = i18n.load_catalog()
    wrong = [key for key, text in catalog["en"].items()
             if i18n.placeholders(text) != i18n.placeholders(catalog["ru"].get(key, ""))]
    assert wrong == []


def test_no_part_contradicts_another() -> None:
    """A key defined in two catalog files has the same text in both."""
    conflicts: list[str] = []
    i18n.load_catalog(conflicts=conflicts)
    assert conflicts == []


def test_every_part_is_shaped_by_language() -> None:
    for path in FOLDER.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) <= set(i18n.LANGUAGES), path.name
        assert all(isinstance(v, str) for messages in data.values() for v in messages.values())


def test_every_game_has_a_title_and_blurb() -> None:
    for game in registry.GAMES:
        assert i18n.has(game.title_key)
        assert i18n.has(f"game.{game.game_id}.blurb")


def test_the_required_words_are_natural_russian() -> None:
    catalog = i18n.load_catalog()["ru"]
    assert catalog["seat.white"] == "Белые" and catalog["seat.black"] == "Чёрные"
    assert catalog["turn.yours"] == "Ваш ход" and catalog["bot.thinking"] == "Бот думает…"
    assert catalog["play.resign"] == "Сдаться" and catalog["play.undo"] == "Отменить ход"
    for reason in ("annihilation", "home_plate", "no_moves", "ply_limit", "resign", "draw_agreed"):
        assert f"end.{reason}" in catalog


def test_t_fills_placeholders_and_falls_back() -> None:
    """English fills a gap in Russian; an unknown key shows as itself."""
    previous = i18n.language()
    try:
        i18n.set_language("ru")
        assert i18n.t("turn.yours") == "Ваш ход"
        assert i18n.t("newgame.title", game="X") == "Новая игра: X"
        assert i18n.t("no.such.key") == "no.such.key"
        assert i18n.t("newgame.title") == "Новая игра: {game}"
        assert i18n.t("turn.yours", lang="en") == "Your move"
        assert i18n.set_language("de") == "en"
    finally:
        i18n.set_language(previous)


def test_fallback_to_english_when_a_translation_is_missing(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"en": {"k": "hello {x}"}, "ru": {}}), encoding="utf-8")
    catalog = i18n.load_catalog(tmp_path)
    assert catalog["en"]["k"] == "hello {x}" and "k" not in catalog["ru"]


@pytest.mark.parametrize("browser, expected", [
    ("ru", "ru"), ("ru-RU", "ru"), ("RU", "ru"), ("en-US", "en"), ("de", "en"), ("", "en"), (None, "en"),
])
def test_detect_language(browser: str | None, expected: str) -> None:
    assert i18n.detect_language(browser) == expected


def test_bad_catalog_files_are_reported(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"fr": {}}', encoding="utf-8")
    with pytest.raises(i18n.CatalogError):
        i18n.load_catalog(tmp_path)


def test_a_placeholder_may_be_called_key() -> None:
    assert "k/1" in i18n.t("storage.corrupt", detail="d", key="k/1", lang="en")
