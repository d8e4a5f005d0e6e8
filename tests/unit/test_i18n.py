"""The message catalog: complete in both languages, consistent, and forgiving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tessera import i18n
from tessera.core import registry

FOLDER = Path(i18n.__file__).parent


def messages_by_key(lang: str) -> dict[str, list[str]]:
    """Every text of ``lang`` under its message key (a plural key's forms under their base)."""
    found: dict[str, list[str]] = {}
    for key, text in i18n.load_catalog()[lang].items():
        found.setdefault(i18n.plural_base(key) or key, []).append(text)
    return found


def test_every_key_has_both_languages() -> None:
    """No message is missing in English or Russian (a plural one counts once, see below)."""
    english, russian = set(messages_by_key("en")), set(messages_by_key("ru"))
    assert english - russian == set(), "missing in Russian"
    assert russian - english == set(), "missing in English"


def test_placeholders_match_between_languages() -> None:
    """A translation uses exactly the placeholders of the English text, in every plural form."""
    english, russian = messages_by_key("en"), messages_by_key("ru")
    wrong = [key for key, texts in english.items()
             if len({frozenset(i18n.placeholders(text)) for text in texts + russian.get(key, [])}) != 1]
    assert wrong == []


def test_every_plural_key_has_the_forms_its_language_needs() -> None:
    """``key.one``/``key.other`` in English, one/few/many/other in Russian, all with ``{count}``,
    and never a plain ``key`` beside them."""
    catalog = i18n.load_catalog()
    plural_keys = {i18n.plural_base(key) for lang in i18n.LANGUAGES for key in catalog[lang]} - {None}
    assert {"land.gain", "announce.undo", "storage.corrupt_several"} <= plural_keys
    for lang in i18n.LANGUAGES:
        for base in plural_keys:
            forms = {key.rpartition(".")[2] for key in catalog[lang] if i18n.plural_base(key) == base}
            assert forms == set(i18n.PLURAL_CATEGORIES[lang]), (lang, base, forms)
            assert base not in catalog[lang], (lang, base)
            assert all("count" in i18n.placeholders(catalog[lang][f"{base}.{form}"]) for form in forms), (lang, base)


@pytest.mark.parametrize("count, category", [
    (0, "many"), (1, "one"), (2, "few"), (5, "many"), (11, "many"), (21, "one"), (22, "few"), (25, "many"),
    (101, "one"), (111, "many"), (12, "many"), (14, "many"), (104, "few"), (1.5, "other"),
])
def test_russian_plural_rule(count: float, category: str) -> None:
    """CLDR's rule for Russian: 1 очко, 2 очка, 5 очков, 11 очков, 21 очко, 22 очка, 111 очков."""
    assert i18n.plural_category("ru", count) == category


@pytest.mark.parametrize("count, category", [(0, "other"), (1, "one"), (2, "other"), (21, "other"), (1.5, "other")])
def test_english_plural_rule(count: float, category: str) -> None:
    assert i18n.plural_category("en", count) == category


def test_t_picks_the_plural_form_by_count() -> None:
    words = {count: i18n.t("land.loss", lang="ru", side="Синие", count=count) for count in (1, 3, 5, 21, 22, 111)}
    assert words[1].startswith("Синие теряют 1 очко ") and words[21].startswith("Синие теряют 21 очко ")
    assert "3 очка " in words[3] and "22 очка " in words[22]
    assert "5 очков " in words[5] and "111 очков " in words[111]
    assert "1 point " in i18n.t("land.loss", lang="en", side="Blue", count=1)
    assert "2 points " in i18n.t("land.loss", lang="en", side="Blue", count=2)
    assert i18n.has("land.loss") and not i18n.has("land.loss.few.more")


def test_no_message_writes_a_plural_in_brackets() -> None:
    """No "point(s)" or "очк." : a number's noun agrees with it through the plural forms."""
    catalog = i18n.load_catalog()
    bad = [(lang, key) for lang in i18n.LANGUAGES for key, text in catalog[lang].items()
           if "(s)" in text or "очк." in text]
    assert bad == []


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
    assert i18n.t("no.such.text {key}", key="k/1", lang="en") == "no.such.text k/1"


def test_messages_and_keyed_errors_nest_in_any_language() -> None:
    """A value that is a Message or a keyed error is worded in the same language."""
    inner = i18n.MessageError("illegal.no_checker", square="e5")
    outer = i18n.MessageError("error.move.illegal", move="e5-e4", reason=inner)
    assert str(outer) == "e5-e4 is illegal: there is no checker on e5"
    assert i18n.say(outer, "ru") == "ход e5-e4 невозможен: на e5 нет шашки"
    assert outer.key == "error.move.illegal" and outer.params["reason"] is inner
    assert i18n.say(i18n.Message("seat.white"), "ru") == "Белые" and str(i18n.Message("seat.white")) == "White"
    assert i18n.say(("a", i18n.Message("seat.white"), "b"), "en") == "aWhiteb"
    assert str(i18n.MessageError("free English text")) == "free English text"  # not a key: shown as written
    copy = ValueError.__new__(ValueError)
    assert i18n.say(copy) == "ValueError"
