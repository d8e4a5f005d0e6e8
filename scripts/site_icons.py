"""Tessera's app icons, drawn here and written as SVG and PNG by the build.

The icon is the brand mark of the page header (four rounded tiles, two
blue and two gold, on the light background) at icon scale.  One list of
shapes gives both the SVG and the PNGs, so they cannot drift apart, and the
PNGs are rasterised with the standard library only (a signed-distance
coverage per pixel, then zlib and struct for the file), so the build needs no
image tool and gives the same bytes every time.

Three variants: ``any`` (a rounded square, for browsers and desktops),
``maskable`` (a full-bleed square with the tiles inside the central safe
circle of radius 0.4, which launchers may crop to a circle or a squircle) and
``mark`` (the tiles alone, the page's favicon, legible at 16 px).

    python3 scripts/site_icons.py DIR   writes the files into DIR (a preview)
"""

from __future__ import annotations

import math
import os
import struct
import sys
import zlib
from dataclasses import dataclass

VIEW = 512
"""The drawing's coordinate square (the SVG viewBox); PNGs scale it."""
BACKGROUND = "#f5f4f0"
"""The light theme's page background (assets/css/app.css --bg), also the manifest's colours."""
PRIMARY = "#2756a0"
ACCENT = "#b8892c"


@dataclass(frozen=True)
class Box:
    """An axis-aligned rounded rectangle in drawing units."""

    x: float
    y: float
    w: float
    h: float
    r: float
    fill: str


def shapes(variant: str = "any") -> list[Box]:
    """The icon, back to front: the background then the 2x2 tiles."""
    if variant == "mark":  # the favicon: no background, tiles as large as a 16 px tab icon allows
        background = None
        margin, gap, radius = 32, 64, 40
    elif variant == "maskable":
        background = Box(0, 0, VIEW, VIEW, 0, BACKGROUND)
        margin, gap, radius = 112, 20, 30   # tile corners stay inside the safe circle
    elif variant == "any":
        background = Box(0, 0, VIEW, VIEW, 112, BACKGROUND)
        margin, gap, radius = 88, 24, 36
    else:
        raise ValueError(f"unknown icon variant {variant!r}")
    tile = (VIEW - 2 * margin - gap) / 2
    out = [background] if background else []
    for row in range(2):
        for col in range(2):
            fill = PRIMARY if row == col else ACCENT
            out.append(Box(margin + col * (tile + gap), margin + row * (tile + gap), tile, tile, radius, fill))
    return out


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def svg(variant: str = "any") -> str:
    """The icon as a small standalone SVG document."""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {VIEW} {VIEW}">']
    for box in shapes(variant):
        corner = f' rx="{_num(box.r)}"' if box.r else ""
        parts.append(f'<rect x="{_num(box.x)}" y="{_num(box.y)}" width="{_num(box.w)}" '
                     f'height="{_num(box.h)}"{corner} fill="{box.fill}"/>')
    parts.append("</svg>\n")
    return "".join(parts)


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _paint(pixels: bytearray, size: int, box: Box, scale: float) -> None:
    """Composite ``box`` over straight-alpha RGBA ``pixels`` with anti-aliased edges.

    A pixel's coverage is 0.5 minus the signed distance from its centre to
    the rounded rectangle (in pixels), clamped to 0..1: exact on straight
    edges, close enough on the corners' arcs.
    """
    red, green, blue = _rgb(box.fill)
    half_w, half_h, radius = box.w * scale / 2, box.h * scale / 2, box.r * scale
    cx, cy = box.x * scale + half_w, box.y * scale + half_h
    inner_w, inner_h = half_w - radius, half_h - radius
    x0, x1 = max(0, int(cx - half_w) - 1), min(size, int(math.ceil(cx + half_w)) + 1)
    y0, y1 = max(0, int(cy - half_h) - 1), min(size, int(math.ceil(cy + half_h)) + 1)
    for py in range(y0, y1):
        qy = abs(py + 0.5 - cy) - inner_h
        for px in range(x0, x1):
            qx = abs(px + 0.5 - cx) - inner_w
            if qx <= 0 and qy <= 0:
                distance = max(qx, qy) - radius
            else:
                distance = math.hypot(max(qx, 0.0), max(qy, 0.0)) - radius
            cover = 0.5 - distance
            if cover <= 0:
                continue
            i = 4 * (py * size + px)
            if cover >= 1:
                pixels[i:i + 4] = bytes((red, green, blue, 255))
                continue
            # "over" with straight alpha: the tiles sit on an opaque background,
            # the background's own edge sits on transparency.
            below = pixels[i + 3] / 255
            alpha = cover + below * (1 - cover)
            for k, value in enumerate((red, green, blue)):
                pixels[i + k] = round((value * cover + pixels[i + k] * below * (1 - cover)) / alpha)
            pixels[i + 3] = round(alpha * 255)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(size: int, variant: str = "any") -> bytes:
    """The icon as a ``size`` x ``size`` RGBA PNG."""
    pixels = bytearray(4 * size * size)
    for box in shapes(variant):
        _paint(pixels, size, box, size / VIEW)
    stride = 4 * size
    raw = b"".join(b"\0" + bytes(pixels[row * stride:(row + 1) * stride]) for row in range(size))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))


ICON_FILES: list[tuple[str, str, int | None, str]] = [
    # (file name, variant, PNG size or None for SVG, the manifest's purpose)
    ("icon.svg", "any", None, "any"),
    ("icon-192.png", "any", 192, "any"),
    ("icon-512.png", "any", 512, "any"),
    ("icon-maskable-512.png", "maskable", 512, "maskable"),
    ("favicon.svg", "mark", None, ""),
]
"""What the build writes to assets/icons/; those with a purpose are listed in the web app manifest."""


def write_icons(folder: str, url_prefix: str = "") -> list[dict[str, str]]:
    """Write every icon into ``folder``; returns the manifest's ``icons`` entries,
    whose ``src`` is ``url_prefix`` plus the file name."""
    os.makedirs(folder, exist_ok=True)
    entries = []
    for name, variant, size, purpose in ICON_FILES:
        path = os.path.join(folder, name)
        if size is None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(svg(variant))
            entry = {"sizes": "any", "type": "image/svg+xml"}
        else:
            with open(path, "wb") as fh:
                fh.write(png(size, variant))
            entry = {"sizes": f"{size}x{size}", "type": "image/png"}
        if purpose:
            entries.append({"src": url_prefix + name, **entry, "purpose": purpose})
    return entries


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    for item in write_icons(sys.argv[1]):
        print(item["src"])
