"""WCAG 2 contrast of the colours the views draw with.

The board palettes are CSS colour strings (``#rrggbb``, ``#rgb``,
``rgb(...)``, ``rgba(...)``).  WCAG 1.4.11 asks graphics a player needs
(the last move, legal targets, grid lines, the pieces) to reach 3:1 against
what they sit on, and 1.4.3 asks text (the coordinates) for 4.5:1.  A
translucent colour is judged as it looks: composited over the colour
beneath it.  Pure Python, so the palettes' unit test and the CLI share it.
"""

from __future__ import annotations

import re

Rgba = tuple[float, float, float, float]
"""Red, green, blue in 0..255 and alpha in 0..1."""

_FUNCTION = re.compile(r"^rgba?\(\s*([^)]*)\)$")

GRAPHICS = 3.0
"""WCAG 1.4.11: graphical objects and the parts of controls."""
TEXT = 4.5
"""WCAG 1.4.3: text of normal size (the coordinates are small)."""


def parse(colour: str) -> Rgba:
    """A CSS colour string as (r, g, b, a); ValueError for anything else."""
    text = colour.strip().lower()
    if text.startswith("#"):
        digits = text[1:]
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits)
        if len(digits) not in (6, 8) or any(c not in "0123456789abcdef" for c in digits):
            raise ValueError(f"not a colour: {colour!r}")
        r, g, b = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
        a = int(digits[6:8], 16) / 255 if len(digits) == 8 else 1.0
        return float(r), float(g), float(b), a
    match = _FUNCTION.match(text)
    if match:
        parts = [part.strip() for part in match.group(1).replace("/", ",").split(",")]
        if len(parts) in (3, 4):
            try:
                r, g, b = (float(part) for part in parts[:3])
                a = float(parts[3]) if len(parts) == 4 else 1.0
            except ValueError:
                raise ValueError(f"not a colour: {colour!r}") from None
            return r, g, b, a
    raise ValueError(f"not a colour: {colour!r}")


def over(top: str | Rgba, *beneath: str | Rgba) -> Rgba:
    """``top`` painted over the layers ``beneath`` (nearest first; the last
    one should be opaque): the colour the eye sees."""
    colour = parse(top) if isinstance(top, str) else top
    for layer in beneath:
        under = parse(layer) if isinstance(layer, str) else layer
        a = colour[3]
        colour = (colour[0] * a + under[0] * (1 - a), colour[1] * a + under[1] * (1 - a),
                  colour[2] * a + under[2] * (1 - a), a + under[3] * (1 - a))
    return colour


def luminance(colour: str | Rgba) -> float:
    """WCAG relative luminance (0 black .. 1 white) of an opaque colour."""
    rgba = parse(colour) if isinstance(colour, str) else colour

    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(first: str | Rgba, second: str | Rgba) -> float:
    """WCAG contrast ratio (1..21) of two opaque colours."""
    a, b = luminance(first), luminance(second)
    light, dark = max(a, b), min(a, b)
    return (light + 0.05) / (dark + 0.05)


def seen_ratio(top: str, *beneath: str) -> float:
    """Contrast of ``top`` as drawn over ``beneath`` against ``beneath`` itself."""
    return ratio(over(top, *beneath), over(*beneath))
