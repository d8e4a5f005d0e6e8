"""The app icons (scripts/site_icons.py): valid PNGs that show the same drawing as the SVG."""

from __future__ import annotations

import math
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

if sys.platform == "emscripten":
    pytest.skip("a build tool's test: the icons are made in CPython, at build time", allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import site_icons  # noqa: E402


def decode(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGBA rows of an 8-bit RGBA PNG written without filters."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.setdefault(kind, b"")
        chunks[kind] += body
        pos += 12 + length
    assert list(chunks)[-1] == b"IEND"
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, colour, interlace) == (8, 6, 0)
    raw = zlib.decompress(chunks[b"IDAT"])
    stride = 4 * width + 1
    rows = [raw[i * stride:(i + 1) * stride] for i in range(height)]
    assert all(row[0] == 0 for row in rows)
    return width, height, [row[1:] for row in rows]


def pixel(rows: list[bytes], x: int, y: int) -> tuple[int, int, int, int]:
    return tuple(rows[y][4 * x:4 * x + 4])  # type: ignore[return-value]


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@pytest.mark.parametrize("size", [192, 512])
def test_the_png_shows_the_tiles_on_a_rounded_square(size: int) -> None:
    """Tile centres have the tile colours, the background shows between them, the corners are clear."""
    width, height, rows = decode(site_icons.png(size))
    assert (width, height) == (size, size)
    scale = size / site_icons.VIEW
    background, *tiles = site_icons.shapes("any")
    for tile in tiles:
        x, y = int((tile.x + tile.w / 2) * scale), int((tile.y + tile.h / 2) * scale)
        assert pixel(rows, x, y) == (*rgb(tile.fill), 255)
    assert pixel(rows, size // 2, size // 2) == (*rgb(background.fill), 255)  # the gap between tiles
    assert pixel(rows, 0, 0)[3] == 0 and pixel(rows, size - 1, size - 1)[3] == 0
    edges = {pixel(rows, x, size // 2)[3] for x in range(size)}
    assert edges == {255}, "the sides of the square are straight and opaque"


def test_the_maskable_icon_is_full_bleed_with_tiles_in_the_safe_circle() -> None:
    """A launcher may crop to a circle of radius 0.4: every tile stays inside it, the square is opaque."""
    _, _, rows = decode(site_icons.png(512, "maskable"))
    assert all(row[3::4] == b"\xff" * 512 for row in rows)
    centre, safe = site_icons.VIEW / 2, 0.4 * site_icons.VIEW
    for tile in site_icons.shapes("maskable")[1:]:
        for cx in (tile.x + tile.r, tile.x + tile.w - tile.r):
            for cy in (tile.y + tile.r, tile.y + tile.h - tile.r):
                assert math.hypot(cx - centre, cy - centre) + tile.r <= safe


@pytest.mark.parametrize("variant", ["any", "maskable", "mark"])
def test_the_svg_draws_the_same_shapes(variant: str) -> None:
    root = ET.fromstring(site_icons.svg(variant))
    rects = root.findall("{http://www.w3.org/2000/svg}rect")
    shapes = site_icons.shapes(variant)
    assert len(rects) == len(shapes)
    for rect, box in zip(rects, shapes):
        assert float(rect.get("x")) == box.x and float(rect.get("width")) == box.w
        assert rect.get("fill") == box.fill


def test_icons_are_the_same_bytes_every_time(tmp_path: Path) -> None:
    """The build is deterministic, so its service-worker version is too."""
    first = site_icons.write_icons(str(tmp_path / "a"), "./assets/icons/")
    second = site_icons.write_icons(str(tmp_path / "b"), "./assets/icons/")
    assert first == second
    assert [entry["purpose"] for entry in first] == ["any", "any", "any", "maskable"]  # no favicon listed
    for name in sorted(p.name for p in (tmp_path / "a").iterdir()):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
