"""The message catalog: every word the app shows, in English and Russian.

Every ``*.json`` file in this folder is one part of the catalog, shaped
``{"en": {key: text}, "ru": {key: text}}``; parts are merged at first use
so a game's rules page can keep its long texts in its own file.  Texts use
``{name}`` placeholders filled by :func:`t`.  A key missing in the chosen
language falls back to English, then to the key itself, so a forgotten
translation shows up as readable English rather than a crash.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "ru")
DEFAULT_LANGUAGE = "en"
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

_catalog: dict[str, dict[str, str]] | None = None
_language = DEFAULT_LANGUAGE


class CatalogError(ValueError):
    """A catalog file is not shaped as described above."""


def load_catalog(folder: Path | None = None,
                 conflicts: list[str] | None = None) -> dict[str, dict[str, str]]:
    """Merge every catalog part in ``folder`` (files in name order).

    A key defined twice keeps its first text: a page must not fail to start
    because two parts disagree.  Disagreements are appended to
    ``conflicts`` so the catalog test can report them.
    """
    folder = folder or Path(__file__).parent
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for path in sorted(folder.glob("*.json")):
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
    return key in catalog()[DEFAULT_LANGUAGE]


def t(key: str, /, lang: str | None = None, **params: Any) -> str:
    """The message ``key`` in the current language with ``{name}`` filled in.

    A placeholder without a value stays as written, so a missing parameter
    is visible instead of raising in the middle of a redraw.  ``key`` is
    positional-only so a placeholder may itself be called ``key``.
    """
    messages = catalog()
    text = messages.get(lang or _language, {}).get(key)
    if text is None:
        text = messages[DEFAULT_LANGUAGE].get(key, key)
    if not params:
        return text
    return _PLACEHOLDER.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), text)
