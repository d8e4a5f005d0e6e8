"""A canvas-like drawing interface that records commands into a flat list.

Game views draw into a ``DrawList``; a backend then renders it.  The
browser backend hands the whole list to ``assets/js/draw.js`` in one
interop call (one call per canvas operation costs ~10 ms a frame, one
batched call ~1 ms), and ``to_svg`` renders the same list as a static
diagram for ``python3 -m tessera render`` and the rules pages.

Encoding: ``ops`` is an ``array('d')``; each command is its opcode followed
by its numeric arguments.  Colours and texts are indices into ``strings``.
"""

from __future__ import annotations

from array import array
from html import escape
from typing import Iterable, Mapping

OP_RECT = 1           # x, y, w, h, fill
OP_RECT_STROKE = 2    # x, y, w, h, stroke, width
OP_LINE = 3           # x1, y1, x2, y2, stroke, width
OP_CIRCLE = 4         # cx, cy, r, fill
OP_CIRCLE_STROKE = 5  # cx, cy, r, stroke, width
OP_TEXT = 6           # x, y, size, fill, text, align (0 left 1 centre 2 right), bold
OP_POLYGON = 7        # fill, n, x1, y1, ... xn, yn
OP_POLYLINE = 8       # stroke, width, n, x1, y1, ... xn, yn
OP_ROUND_RECT = 9     # x, y, w, h, radius, fill
OP_CIRCLES = 10       # r, fill, n, x1, y1, ... xn, yn: n circles of one radius and fill

ARG_COUNTS = {OP_RECT: 5, OP_RECT_STROKE: 6, OP_LINE: 6, OP_CIRCLE: 4,
              OP_CIRCLE_STROKE: 5, OP_TEXT: 7, OP_ROUND_RECT: 6}

ALIGN_LEFT, ALIGN_CENTER, ALIGN_RIGHT = 0, 1, 2
_ALIGN_SVG = {ALIGN_LEFT: "start", ALIGN_CENTER: "middle", ALIGN_RIGHT: "end"}


class DrawList:
    """Drawing commands in logical (CSS) pixels; the backend scales them."""

    __slots__ = ("width", "height", "ops", "strings", "_string_index")

    def __init__(self, width: float, height: float) -> None:
        self.width = width
        self.height = height
        self.ops = array("d")
        self.strings: list[str] = []
        self._string_index: dict[str, int] = {}

    def _s(self, text: str) -> int:
        index = self._string_index.get(text)
        if index is None:
            index = self._string_index[text] = len(self.strings)
            self.strings.append(text)
        return index

    def rect(self, x: float, y: float, w: float, h: float, fill: str) -> None:
        self.ops.extend((OP_RECT, x, y, w, h, self._s(fill)))

    def rect_stroke(self, x: float, y: float, w: float, h: float, stroke: str, width: float = 1.0) -> None:
        self.ops.extend((OP_RECT_STROKE, x, y, w, h, self._s(stroke), width))

    def round_rect(self, x: float, y: float, w: float, h: float, radius: float, fill: str) -> None:
        self.ops.extend((OP_ROUND_RECT, x, y, w, h, radius, self._s(fill)))

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1.0) -> None:
        self.ops.extend((OP_LINE, x1, y1, x2, y2, self._s(stroke), width))

    def circle(self, cx: float, cy: float, r: float, fill: str) -> None:
        self.ops.extend((OP_CIRCLE, cx, cy, r, self._s(fill)))

    def circles(self, centres: list[float] | array[float], r: float, fill: str) -> None:
        """Circles of one radius and fill at ``centres`` (x1, y1, x2, y2, ...): one
        command however many, so a board of a thousand dots costs one extend, not a thousand
        (and, from an ``array('d')``, a copy of memory)."""
        if centres:
            self.ops.extend((OP_CIRCLES, r, self._s(fill), len(centres) // 2))
            self.ops.extend(centres)

    def circle_stroke(self, cx: float, cy: float, r: float, stroke: str, width: float = 1.0) -> None:
        self.ops.extend((OP_CIRCLE_STROKE, cx, cy, r, self._s(stroke), width))

    def text(self, x: float, y: float, text: str, fill: str, size: float = 12.0,
             align: int = ALIGN_CENTER, bold: bool = False) -> None:
        """Text whose vertical middle is at ``y``."""
        self.ops.extend((OP_TEXT, x, y, size, self._s(fill), self._s(text), align, 1.0 if bold else 0.0))

    def polygon(self, points: Iterable[tuple[float, float]], fill: str) -> None:
        flat = [c for point in points for c in point]
        self.ops.extend((OP_POLYGON, self._s(fill), len(flat) // 2))
        self.ops.extend(flat)

    def polyline(self, points: Iterable[tuple[float, float]], stroke: str, width: float = 1.0) -> None:
        flat = [c for point in points for c in point]
        self.ops.extend((OP_POLYLINE, self._s(stroke), width, len(flat) // 2))
        self.ops.extend(flat)

    def commands(self) -> Iterable[tuple[int, list[float]]]:
        """Decode the list again: (opcode, arguments), for backends and tests."""
        ops, i, n = self.ops, 0, len(self.ops)
        while i < n:
            op = int(ops[i])
            if op == OP_POLYGON:
                count = int(ops[i + 2])
                end = i + 3 + 2 * count
            elif op == OP_POLYLINE:
                count = int(ops[i + 3])
                end = i + 4 + 2 * count
            elif op == OP_CIRCLES:   # read as the circles it stands for
                r, fill, count = ops[i + 1], ops[i + 2], int(ops[i + 3])
                for k in range(i + 4, i + 4 + 2 * count, 2):
                    yield OP_CIRCLE, [ops[k], ops[k + 1], r, fill]
                i += 4 + 2 * count
                continue
            else:
                end = i + 1 + ARG_COUNTS[op]
            yield op, list(ops[i + 1:end])
            i = end


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def to_svg(drawing: DrawList, *, title: str | None = None, classes: Mapping[str, str] | None = None) -> str:
    """Render a draw list as a standalone SVG document.

    ``title`` makes it an image with that accessible name (``role="img"``
    and a ``<title>``, also the tooltip).  ``classes`` maps colours to
    class names put on the elements painted with them, so the page that
    inserts the SVG can restyle them (its dark theme); the colours stay as
    attributes, which CSS overrides and which hold where no CSS applies.
    """
    s = drawing.strings
    named = classes or {}

    def paint(attribute: str, index: float) -> str:
        """``fill="..."`` or ``stroke="..."``, and the colour's class when it has one."""
        colour = s[int(index)]
        kind = named.get(colour)
        return f'{attribute}="{escape(colour)}"' + (f' class="{escape(kind)}"' if kind else "")

    role = ' role="img"' if title is not None else ""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(drawing.width)}" '
           f'height="{_n(drawing.height)}" viewBox="0 0 {_n(drawing.width)} {_n(drawing.height)}" '
           f'font-family="system-ui, sans-serif"{role}>']
    if title is not None:
        out.append(f"<title>{escape(title)}</title>")
    for op, a in drawing.commands():
        if op == OP_RECT:
            out.append(f'<rect x="{_n(a[0])}" y="{_n(a[1])}" width="{_n(a[2])}" height="{_n(a[3])}" {paint("fill", a[4])}/>')
        elif op == OP_ROUND_RECT:
            out.append(f'<rect x="{_n(a[0])}" y="{_n(a[1])}" width="{_n(a[2])}" height="{_n(a[3])}" rx="{_n(a[4])}" {paint("fill", a[5])}/>')
        elif op == OP_RECT_STROKE:
            out.append(f'<rect x="{_n(a[0])}" y="{_n(a[1])}" width="{_n(a[2])}" height="{_n(a[3])}" fill="none" {paint("stroke", a[4])} stroke-width="{_n(a[5])}"/>')
        elif op == OP_LINE:
            out.append(f'<line x1="{_n(a[0])}" y1="{_n(a[1])}" x2="{_n(a[2])}" y2="{_n(a[3])}" {paint("stroke", a[4])} stroke-width="{_n(a[5])}" stroke-linecap="round"/>')
        elif op == OP_CIRCLE:
            out.append(f'<circle cx="{_n(a[0])}" cy="{_n(a[1])}" r="{_n(a[2])}" {paint("fill", a[3])}/>')
        elif op == OP_CIRCLE_STROKE:
            out.append(f'<circle cx="{_n(a[0])}" cy="{_n(a[1])}" r="{_n(a[2])}" fill="none" {paint("stroke", a[3])} stroke-width="{_n(a[4])}"/>')
        elif op == OP_TEXT:
            weight = ' font-weight="bold"' if a[6] else ""
            out.append(f'<text x="{_n(a[0])}" y="{_n(a[1])}" font-size="{_n(a[2])}" {paint("fill", a[3])} '
                       f'text-anchor="{_ALIGN_SVG[int(a[5])]}" dominant-baseline="central"{weight}>{escape(s[int(a[4])])}</text>')
        elif op == OP_POLYGON:
            points = " ".join(f"{_n(a[2 + 2 * k])},{_n(a[3 + 2 * k])}" for k in range(int(a[1])))
            out.append(f'<polygon points="{points}" {paint("fill", a[0])}/>')
        elif op == OP_POLYLINE:
            points = " ".join(f"{_n(a[3 + 2 * k])},{_n(a[4 + 2 * k])}" for k in range(int(a[2])))
            out.append(f'<polyline points="{points}" fill="none" {paint("stroke", a[0])} stroke-width="{_n(a[1])}" stroke-linejoin="round" stroke-linecap="round"/>')
    out.append("</svg>")
    return "\n".join(out)
