"""Static pictures for the ``<tessera-board>`` elements of the site's own pages.

A page of the site (``examples/*.html``) is built with each board's picture
already inside its element: the position it opens at, drawn by the game's
view into SVG (``spec.picture_svg``), once per theme the board may
show (``theme="auto"``: light and dark; the page's CSS and then the
element show the one that fits).  So the first paint of a page with ten
diagrams shows ten boards and has fetched no Python at all; ``embed.js``
moves the picture into the element's shadow root and Python replaces it
with the live board later.

Pure Python, run by ``scripts/build_site.py`` in CPython.  A board that
cannot be drawn (a mistake in the page) keeps no picture and is reported;
the element itself shows what is wrong when it starts.
"""

from __future__ import annotations

import html
import re
from typing import Callable

from .spec import EmbedPlan, error_text, language, parse_spec, make_plan, picture_svg

BOARD = re.compile(r"<tessera-board\b(?P<attrs>[^>]*)>(?P<body>.*?)</tessera-board\s*>", re.S | re.I)
ATTRIBUTE = re.compile(r"""([A-Za-z_:][-A-Za-z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
SCRIPT = re.compile(r"<script\b[^>]*>(?P<text>.*?)</script\s*>", re.S | re.I)
PAGE_LANG = re.compile(r"<html\b[^>]*\blang\s*=\s*[\"']?([A-Za-z-]+)", re.I)
PICTURE_MARK = "data-tessera-picture"

SourceReader = Callable[[str], str]
"""Reads a board's ``src`` (relative to the page); raises OSError when it cannot."""


def attributes(text: str) -> dict[str, str]:
    """An opening tag's attributes as the browser reads them (entities decoded,
    names in lower case, a bare name is an empty value)."""
    found: dict[str, str] = {}
    for match in ATTRIBUTE.finditer(text):
        name = match.group(1).lower()
        value = next((group for group in match.groups()[1:] if group is not None), "")
        found.setdefault(name, html.unescape(value))
    return found


def record_text(body: str) -> str:
    """The record inside an element: a ``<script>`` child's text as written,
    else the element's text with entities decoded (what ``embed.js`` reads)."""
    script = SCRIPT.search(body)
    if script is not None:
        return script.group("text")
    without_pictures = re.sub(r"<svg\b.*?</svg\s*>", "", body, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]*>", "", without_pictures))


def board_plan(attrs: dict[str, str], body: str, page_lang: str, read_src: SourceReader) -> EmbedPlan:
    spec_attrs = dict(attrs)
    spec_attrs.setdefault("lang", page_lang)
    spec = parse_spec(spec_attrs)
    text = read_src(spec.src) if spec.src else record_text(body)
    return make_plan(spec, text)


def add_pictures(page: str, read_src: SourceReader) -> tuple[str, list[str]]:
    """``page`` with a picture in every ``<tessera-board>`` that can be drawn,
    and what went wrong with the others (one line each, in English)."""
    lang_match = PAGE_LANG.search(page)
    page_lang = language(lang_match.group(1) if lang_match else "en")
    problems: list[str] = []
    number = 0

    def picture(match: re.Match[str]) -> str:
        nonlocal number
        number += 1
        whole, body = match.group(0), match.group("body")
        if PICTURE_MARK in body:
            return whole   # drawn already
        attrs = attributes(match.group("attrs"))
        try:
            plan = board_plan(attrs, body, page_lang, read_src)
        except OSError as error:
            problems.append(f"board {number}: cannot read src {attrs.get('src')!r}: {error.strerror or error}")
            return whole
        except Exception as error:  # keyed errors and slips alike: the page still builds
            problems.append(f"board {number}: {error_text(error, 'en')}")
            return whole
        themes = ("light", "dark") if plan.spec.theme == "auto" else (plan.spec.theme,)
        svgs = "".join(picture_svg(plan, theme, plan.spec.lang).replace("<svg ", f'<svg {PICTURE_MARK}="{theme}" ', 1)
                       for theme in themes)
        opening = whole[:match.start("body") - match.start()]
        return opening + svgs + body + whole[match.end("body") - match.start():]

    return BOARD.sub(picture, page), problems
