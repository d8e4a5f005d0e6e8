"""Quadrotone's rules page: sections, decisions and tables, which
``tessera.ui.screens.rules_page`` renders (words in ``rules.json``).

The page has no worked diagrams yet.  Its numbers are never typed into
the words: the move limits come from ``limits`` and the pattern, chain and
fence points from ``catalog()``, worded here as tables
(``QuadrotoneRules.tables``), so the page cannot drift from the game the app
plays.  A table is plain data with its words already in the chosen
language; the UI page draws it under the section's paragraphs.

The pattern catalog has a section of its own, linked from the lead, where
each pattern is drawn (``pattern_picture``) in every quarter turn the
scorer looks for, in the board's own red and blue as an example: SVG made
from a ``DrawList``, so it is sharp at any size and tested here in CPython.
The text drawing (``shape_lines``) stays as each picture's title.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from ...core.draw import DrawList, to_svg
from ...core.rules_content import Diagram, RulesContent, RulesSection, RulesTable
from ...i18n import t
from .catalog import Catalog, Cell, Pattern, Variant, catalog
from .limits import largest_now, limit_tables
from .notation import MAX_CHIPS
from .view import LIGHT

PREFIX = "rules.quadrotone"
FIRST_COLOUR, SECOND_COLOUR, NOT_IN_PATTERN = "■", "□", "·"
"""How a pattern's shape is written in its pictures' titles."""
CELL = 14.0
"""A small square of a picture, in CSS pixels (the page may scale it)."""
GAP = 2.0
"""Between two small squares: the page shows through, as the grid."""
PAD = 1.0
PART_COLOURS = (LIGHT.red, LIGHT.blue)
"""The board's red and blue stand for a pattern's first and second colour
(the words say any colour counts); the marks are the board's colour-blind
marks of red and blue, a dot and a ring."""
OUTSIDE = "rgba(128, 128, 128, 0.22)"
"""A square of the box that is not part of the pattern: grey shows faintly
on the light page and on the dark one alike."""
MARK = LIGHT.mark
PICTURE_CLASSES = {LIGHT.red: "rules-red", LIGHT.blue: "rules-blue", MARK: "rules-mark"}
"""Classes for the page's CSS: the dark theme's red and blue (the board's
``DARK`` palette), and the marks shown under the colour-blind setting."""


def shape_lines(shape: Pattern | Variant) -> tuple[str, ...]:
    """The pattern as drawn in the catalog, top row first: ``■`` its first
    colour, ``□`` its second, ``·`` a square of its box outside it."""
    marks = {cell: FIRST_COLOUR if part == 0 else SECOND_COLOUR
             for part, cells in enumerate(shape.parts) for cell in cells}
    width = 1 + max(x for x, _ in marks)
    height = 1 + max(y for _, y in marks)
    return tuple("".join(marks.get((x, y), NOT_IN_PATTERN) for x in range(width))
                 for y in range(height - 1, -1, -1))


def square_box(x: int, y: int, height: int) -> tuple[float, float, float]:
    """Where small square (x, y) of a ``height`` squares tall picture is
    drawn: its left, its top (y grows upwards on the field, downwards in
    the picture) and its side."""
    return PAD + x * CELL + GAP / 2, PAD + (height - 1 - y) * CELL + GAP / 2, CELL - GAP


def pattern_picture(variant: Variant) -> DrawList:
    """One turn of a pattern: every small square of its box, in its part's
    colour (with that colour's mark) or faint where the pattern is not."""
    colour_of: dict[Cell, int] = {cell: part for part, cells in enumerate(variant.parts) for cell in cells}
    width = 1 + max(x for x, _ in colour_of)
    height = 1 + max(y for _, y in colour_of)
    out = DrawList(2 * PAD + width * CELL, 2 * PAD + height * CELL)
    for y in range(height - 1, -1, -1):
        for x in range(width):
            left, top, side = square_box(x, y, height)
            part = colour_of.get((x, y))
            out.rect(left, top, side, side, OUTSIDE if part is None else PART_COLOURS[part])
    for (x, y), part in sorted(colour_of.items()):
        left, top, side = square_box(x, y, height)
        if part == 0:
            out.circle(left + side / 2, top + side / 2, side * 0.16, MARK)
        else:
            out.circle_stroke(left + side / 2, top + side / 2, side * 0.22, MARK, max(0.8, side * 0.08))
    return out


def pattern_pictures(pattern: Pattern, tr: Callable[..., str]) -> str:
    """SVG markup of every distinct turn of ``pattern``, smallest turn first
    (turn ``k`` is the ``k`` a position string writes), each titled with
    its turn and its text drawing."""
    pictures = []
    for variant in pattern.variants():
        title = tr(f"picture.turn{variant.rotation}", shape="\n".join(shape_lines(variant)))
        pictures.append(to_svg(pattern_picture(variant), title=title, classes=PICTURE_CLASSES))
    return "\n".join(pictures)


def _ranges(thresholds: list[int], last: int | None,
            tr: Callable[..., str]) -> list[str]:
    """Row labels of a step table: ``8–9``, ``10–11``... and the last row
    up to ``last`` (a cap) or open-ended."""
    labels = []
    for index, low in enumerate(thresholds):
        high = thresholds[index + 1] - 1 if index + 1 < len(thresholds) else last
        if high is None:
            labels.append(tr("table.at_least", low=low))
        elif high == low:
            labels.append(str(low))
        else:
            labels.append(tr("table.range", low=low, high=high))
    return labels


class QuadrotoneRules(RulesContent):
    game_id = "quadrotone"
    prefix = PREFIX
    sections = (
        RulesSection("field", ("p.field", "p.names")),
        RulesSection("chips", ("p.chips", "p.turning")),
        RulesSection("deal", ("p.deal", "p.first")),
        RulesSection("moves", ("p.moves", "p.placing", "p.arranging", "p.limits")),
        RulesSection("patterns", ("p.patterns", "p.clean", "p.two_colour", "p.built", "p.turned", "p.copies",
                                  "p.repeat", "p.inclusion")),
        RulesSection("catalog", ("p.catalog", "p.catalog_colours")),
        RulesSection("reversal", ("p.reversal", "p.reversal_half")),
        RulesSection("chains", ("p.chains",)),
        RulesSection("end", ("p.end", "p.passed", "p.resign", "p.draw", "p.time")),
        RulesSection("reverse", ("p.reverse", "p.reverse_limits")),
        RulesSection("notation", ("p.notation", "p.notation_arrange", "p.notation_items", "p.notation_expired",
                                  "p.position", "p.position_rest", "p.position_tail", "p.position_memory")),
    )
    rulings = ("catalog", "deal", "limits", "clean", "repeat", "copies", "anyone", "reversal", "pass",
               "chains", "fences", "resign")
    """Where RULINGS.md decides what the document leaves open; ``chains`` and
    ``fences`` are the short readings until the regions engineer's full ones."""
    table_keys: dict[str, tuple[str, ...]] = {
        "moves": ("limits",),
        "catalog": ("one_colour", "two_colour"),
        "chains": ("chains", "fences"),
        "reverse": ("reverse",),
    }
    """Which tables each section shows, in order, under its paragraphs."""
    intro_links = ("catalog",)

    def diagrams(self) -> list[Diagram]:
        return []

    def tables(self, section: str, lang: str) -> list[RulesTable]:
        """The tables under ``section``, worded in ``lang`` (none for most sections)."""
        return [self.table(key, lang) for key in self.table_keys.get(section, ())]

    def table(self, key: str, lang: str) -> RulesTable:
        """One table by its key, its numbers read from the engine's own tables."""
        return worded_table(key, lang)


@lru_cache(maxsize=None)
def worded_table(key: str, lang: str) -> RulesTable:
    """One table in one language, made once: the pattern pictures take
    Pyodide some 25 ms, too much to spend again each time the page is shown
    (a table is frozen, and the words and the catalog do not change)."""
    def tr(name: str, **params: Any) -> str:
        return t(f"{PREFIX}.{name}", lang, **params)

    builders: dict[str, Callable[[Callable[..., str]], RulesTable]] = {
        "limits": _limits_table, "reverse": _reverse_table,
        "one_colour": lambda tr: _pattern_table("one_colour", catalog().one_colour, tr),
        "two_colour": lambda tr: _pattern_table("two_colour", catalog().two_colour, tr),
        "chains": lambda tr: _chain_table(catalog(), tr), "fences": lambda tr: _fence_table(catalog(), tr),
    }
    return builders[key](tr)


def _limits_table(tr: Callable[..., str]) -> RulesTable:
    placing, arranging = limit_tables("normal")
    rows = tuple((str(size), str(placing[size]), str(arranging[size])) for size in range(1, MAX_CHIPS + 1))
    return RulesTable("limits", tr("table.limits.caption"),
                      (tr("table.chips"), tr("table.placing"), tr("table.arranging")), rows)


def first_move_allowing(size: int) -> int:
    """The reverse variant: the first of a player's moves (counting from 1)
    that may use ``size`` chips, read from ``limits.largest_now``."""
    made = 0
    while largest_now("reverse", made) < size:
        made += 1
    return made + 1


def _reverse_table(tr: Callable[..., str]) -> RulesTable:
    _, turns_and_swaps = limit_tables("reverse")
    rows = []
    for size in range(1, MAX_CHIPS + 1):
        first = first_move_allowing(size)
        allowed = tr("table.from_first") if first == 1 else tr("table.from_move", number=first)
        rows.append((str(size), str(turns_and_swaps[size]), allowed))
    return RulesTable("reverse", tr("table.reverse.caption"),
                      (tr("table.chips"), tr("table.reverse.moves"), tr("table.reverse.allowed")), tuple(rows))


def _pattern_table(key: str, patterns: tuple[Pattern, ...], tr: Callable[..., str]) -> RulesTable:
    rows = tuple((tr(f"pattern.{pattern.key}"), pattern_pictures(pattern, tr), pattern.key, str(pattern.points))
                 for pattern in patterns)
    header = (tr("table.pattern"), tr("table.shape"), tr("table.key"), tr("table.points"))
    return RulesTable(key, tr(f"table.{key}.caption", count=len(patterns)), header, rows, picture_columns=(1,))


def _chain_table(found: Catalog, tr: Callable[..., str]) -> RulesTable:
    lengths = [low for low, _ in found.chain_points]
    labels = _ranges(lengths, None, tr)
    rows = tuple((label, str(points)) for label, (_, points) in zip(labels, found.chain_points))
    return RulesTable("chains", tr("table.chains.caption"), (tr("table.chain_length"), tr("table.points")), rows)


def _fence_table(found: Catalog, tr: Callable[..., str]) -> RulesTable:
    sizes = [low for low, _ in found.fence_points]
    labels = _ranges(sizes, found.fence_cap, tr)
    rows = [(label, str(points)) for label, (_, points) in zip(labels, found.fence_points)]
    rows.append((tr("table.over", limit=found.fence_cap), str(found.fence_value(found.fence_cap + 1))))
    return RulesTable("fences", tr("table.fences.caption"), (tr("table.enclosed"), tr("table.points")), tuple(rows))


CONTENT = QuadrotoneRules()
