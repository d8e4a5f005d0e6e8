"""The message catalog: every word the app shows, in English and Russian.

Every ``*.json`` file in this folder is one part of the catalog, shaped
``{"en": {key: text}, "ru": {key: text}}``; parts are merged at first use
so a game's rules page can keep its long texts in its own file.  Texts use
``{name}`` placeholders filled by :func:`t`.  A key missing in the chosen
language falls back to English, then to the key itself, so a forgotten
translation shows up as readable English rather than a crash.

Plural forms.  A text that shows a number with a noun ("3 points") is
stored once per plural category of each language, as ``key.one``,
``key.few``, ``key.many``, ``key.other`` (the base ``key`` itself is not
stored), and ``t(key, count=n)`` picks the form by the language's CLDR rule
(:func:`plural_category`): English has ``one`` (1) and ``other`` (0, 2,
1.5...); Russian ``one`` (1, 21, 101), ``few`` (2-4, 22-24), ``many`` (0,
5-20, 25-30, 111) and ``other`` (fractions).  The number is always the
``count`` parameter; every form of a key has the same placeholders, in both
languages (the catalog test checks), so ``{count}`` appears in each.

Messages with values.  Anything a player may read that is made by the
engines, readers and saves (an error, a note on a file's rules) is a
catalog key and its values, never English text: a :class:`Message`, or an
exception derived from :class:`MessageError` (``error.key``,
``error.params``), which :func:`say` words in any language.  A value is a
number, a piece of notation or a short quotation of the input, or itself a
``Message`` (or a keyed error) when it is a word or a nested reason, so a
record error "move 3 is bad: <why>" nests the key of why.  ``str()`` of
such an error is its English text, which the command line prints.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Mapping

LANGUAGES: tuple[str, ...] = ("en", "ru")
DEFAULT_LANGUAGE = "en"
PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {"en": ("one", "other"), "ru": ("one", "few", "many", "other")}
"""The CLDR plural categories each language needs, so each plural key has these forms."""
ALL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

_catalog: dict[str, dict[str, str]] | None = None
_game_parts: list[Path] = []
"""Catalog parts that live in the games' packages (``registry`` adds them)."""
_language = DEFAULT_LANGUAGE


class CatalogError(ValueError):
    """A catalog file is not shaped as described above."""


def add_catalog_parts(paths: list[Path]) -> None:
    """Take the games' own catalog parts (the registry says where they are);
    a catalog already read is read again with them."""
    global _catalog
    for path in paths:
        if path not in _game_parts:
            _game_parts.append(path)
    _catalog = None


def load_catalog(folder: Path | None = None,
                 conflicts: list[str] | None = None) -> dict[str, dict[str, str]]:
    """Merge every catalog part in ``folder`` (files in name order); without
    ``folder``, this package's parts and then the games' own.

    A key defined twice keeps its first text: a page must not fail to start
    because two parts disagree.  Disagreements are appended to
    ``conflicts`` so the catalog test can report them.
    """
    paths = sorted(folder.glob("*.json")) if folder else sorted(Path(__file__).parent.glob("*.json")) + _game_parts
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as error:
            raise CatalogError(f"{path.name}: not valid JSON: {error}") from None
        if not isinstance(data, dict):
            raise CatalogError(f"{path.name}: must be an object of languages")
        for lang, messages in data.items():
            if lang not in merged:
                raise CatalogError(f"{path.name}: unknown language {lang!r}")
            if not isinstance(messages, dict):
                raise CatalogError(f"{path.name}: {lang} must be an object of messages")
            for key, text in messages.items():
                if not isinstance(text, str):
                    raise CatalogError(f"{path.name}: {lang}.{key} must be a string")
                if key in merged[lang]:
                    if merged[lang][key] != text and conflicts is not None:
                        conflicts.append(f"{path.name}: {lang}.{key} differs from an earlier file")
                    continue
                merged[lang][key] = text
    return merged


def catalog() -> dict[str, dict[str, str]]:
    global _catalog
    if _catalog is None:
        _catalog = load_catalog()
    return _catalog


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def detect_language(browser_language: str | None) -> str:
    """``navigator.language`` to a catalog language: ru* is Russian, else English."""
    if browser_language and browser_language.strip().lower().startswith("ru"):
        return "ru"
    return DEFAULT_LANGUAGE


def set_language(lang: str) -> str:
    """Choose the language for :func:`t`; an unknown one means English."""
    global _language
    _language = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return _language


def language() -> str:
    return _language


def has(key: str) -> bool:
    """Whether the catalog has ``key`` (a plain text or a plural one)."""
    english = catalog()[DEFAULT_LANGUAGE]
    return key in english or f"{key}.other" in english


def plural_category(lang: str, count: Any) -> str:
    """The CLDR plural category of ``count`` in ``lang`` (``one``, ``few``, ``many``, ``other``).

    Whole numbers (ints, or digit strings) follow the language's rule;
    anything else, a fraction for instance, is ``other``, as CLDR has it
    for a number shown with decimals.
    """
    if isinstance(count, str) and count.strip().lstrip("-").isdigit():
        count = int(count)
    if isinstance(count, bool) or not isinstance(count, int):
        return "other"
    n = abs(count)
    if lang == "ru":
        last, last_two = n % 10, n % 100
        if last == 1 and last_two != 11:
            return "one"
        if 2 <= last <= 4 and not 12 <= last_two <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def plural_base(key: str) -> str | None:
    """``key`` without its plural category (``land.gain`` for ``land.gain.few``), or None."""
    base, _, category = key.rpartition(".")
    return base if base and category in ALL_CATEGORIES else None


def _lookup(lang: str, key: str, params: Mapping[str, Any]) -> str | None:
    table = catalog().get(lang, {})
    text = table.get(key)
    if text is None:
        category = plural_category(lang, params.get("count")) if "count" in params else "other"
        text = table.get(f"{key}.{category}") or table.get(f"{key}.other")
    return text


def t(key: str, /, lang: str | None = None, **params: Any) -> str:
    """The message ``key`` in the current language with ``{name}`` filled in.

    A placeholder without a value stays as written, so a missing parameter
    is visible instead of raising in the middle of a redraw.  ``key`` is
    positional-only so a placeholder may itself be called ``key``.  A value
    that is a ``Message`` or a keyed error is worded in the same language
    (see :func:`say`); a plural key takes its form from ``count``.
    """
    lang = lang or _language
    text = _lookup(lang, key, params)
    if text is None:
        text = _lookup(DEFAULT_LANGUAGE, key, params)
        lang = DEFAULT_LANGUAGE if text is not None else lang
    if text is None:
        text = key
    if not params:
        return text
    return _PLACEHOLDER.sub(
        lambda m: say(params[m.group(1)], lang) if m.group(1) in params else m.group(0), text)


class Message:
    """A catalog key and its values: something to say, in whatever language.

    ``Message("illegal.occupied", square="e5")``, or with the values in a
    mapping (``Message(key, {"count": 3})``).  ``str()`` is the English text
    (logs, the command line); :func:`say` words it in the player's language.
    """

    __slots__ = ("key", "params")

    def __init__(self, key: str, params: Mapping[str, Any] | None = None, /, **named: Any) -> None:
        self.key = key
        self.params: dict[str, Any] = {**(params or {}), **named}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.key, self.params) == (other.key, other.params)

    __hash__ = None  # type: ignore[assignment]  # equal by value, and the values may be lists

    def __repr__(self) -> str:
        return f"Message({self.key!r}, {self.params!r})"

    def __str__(self) -> str:
        return say(self, DEFAULT_LANGUAGE)


def say(value: Any, lang: str | None = None) -> str:
    """Words for a value: a ``Message``, a keyed error or anything with
    ``key`` and ``params`` (a ``RulesNote``) through the catalog; a tuple
    item by item, joined without spaces (a form like ``WIDTHxHEIGHT``);
    anything else as ``str()``."""
    key, params = getattr(value, "key", None), getattr(value, "params", None)
    if isinstance(key, str) and isinstance(params, Mapping):
        return t(key, lang=lang, **params)
    if isinstance(value, tuple):
        return "".join(say(item, lang) for item in value)
    if isinstance(value, BaseException):
        return " ".join(str(value).split()) or type(value).__name__
    return str(value)


class MessageError(Exception):
    """An error a player may read: a catalog key and its values.

    ``MessageError("error.record.bad_move", number=3, move="'e9-e5'",
    reason=why)``: ``error.key`` and ``error.params`` let any screen word it
    in its language (``say(error)``), and ``str(error)`` is the English text,
    which the command line prints and tests match.  A text that is no key
    (an error raised the old way, with English words) is shown as written.
    """

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(t(key, lang=DEFAULT_LANGUAGE, **params))

    @property
    def message(self) -> Message:
        return Message(self.key, self.params)

    @classmethod
    def from_error(cls, error: BaseException) -> "MessageError":
        """The same message as ``error``'s (a keyed error of another class), as this class."""
        key, params = getattr(error, "key", None), getattr(error, "params", None)
        if isinstance(key, str) and isinstance(params, Mapping):
            return cls(key, **params)
        return cls(say(error, DEFAULT_LANGUAGE))


def sentence(text: str) -> str:
    """A message part (``there is no checker on e5``) as a sentence on its own."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


def sentences(parts: list[str]) -> str:
    """Parts said one after another, each a sentence ending once: a part that
    already ends in a full stop (a game's note) gets no second one."""
    return " ".join(sentence(part) for part in parts if part and part.strip())
