"""Quadrotone's rules page: sections, decisions and tables, which
``tessera.ui.rules_page`` renders (words in ``rules.json``).

The page has no diagrams yet (the board view does not exist).  Its numbers
are never typed into the words: the move limits come from ``limits`` and
the pattern, chain and fence points from ``catalog()``, worded here as
tables (``QuadrotoneRules.tables``), so the page cannot drift from the game
the app plays.  A table is plain data with its words already in the chosen
language; the UI page draws it under the section's paragraphs.
"""

from __future__ import annotations

from typing import Any, Callable

from ...core.rules_content import Diagram, RulesContent, RulesSection, RulesTable
from ...i18n import t
from .catalog import Catalog, Pattern, catalog
from .limits import largest_now, limit_tables
from .notation import MAX_CHIPS

PREFIX = "rules.quadrotone"
FIRST_COLOUR, SECOND_COLOUR, NOT_IN_PATTERN = "■", "□", "·"
"""How a pattern's shape is drawn in its table cell (the words say so too)."""


def shape_lines(pattern: Pattern) -> tuple[str, ...]:
    """The pattern as drawn in the catalog, top row first: ``■`` its first
    colour, ``□`` its second, ``·`` a square of its box outside it."""
    marks = {cell: FIRST_COLOUR if part == 0 else SECOND_COLOUR
             for part, cells in enumerate(pattern.parts) for cell in cells}
    width = 1 + max(x for x, _ in marks)
    height = 1 + max(y for _, y in marks)
    return tuple("".join(marks.get((x, y), NOT_IN_PATTERN) for x in range(width))
                 for y in range(height - 1, -1, -1))


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
                                  "p.repeat", "p.inclusion", "p.catalog")),
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
        "patterns": ("one_colour", "two_colour"),
        "chains": ("chains", "fences"),
        "reverse": ("reverse",),
    }
    """Which tables each section shows, in order, under its paragraphs."""

    def diagrams(self) -> list[Diagram]:
        return []

    def tables(self, section: str, lang: str) -> list[RulesTable]:
        """The tables under ``section``, worded in ``lang`` (none for most sections)."""
        return [self.table(key, lang) for key in self.table_keys.get(section, ())]

    def table(self, key: str, lang: str) -> RulesTable:
        """One table by its key, its numbers read from the engine's own tables."""
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
    rows = tuple((tr(f"pattern.{pattern.key}"), "\n".join(shape_lines(pattern)), pattern.key, str(pattern.points))
                 for pattern in patterns)
    header = (tr("table.pattern"), tr("table.shape"), tr("table.key"), tr("table.points"))
    return RulesTable(key, tr(f"table.{key}.caption", count=len(patterns)), header, rows, drawn_columns=(1,))


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
