"""Board palettes meet WCAG contrast in both themes (1.4.11 graphics 3:1, 1.4.3 text 4.5:1).

Each view lists the colour pairs a player must tell apart (``CONTRAST_PAIRS``:
what is drawn, what it sits on, the minimum); translucent colours are judged
as drawn, composited over what lies beneath.
"""

from __future__ import annotations

import dataclasses

import pytest

from tessera.core import contrast
from tessera.games.corners import view as corners_view
from tessera.games.dots import view as dots_view
from tessera.games.quadrature import view as quadrature_view

VIEWS = {"quadrature": quadrature_view, "dots": dots_view, "corners": corners_view}
CASES = [(name, theme) for name, module in VIEWS.items() for theme in module.PALETTES]


def test_parse_and_ratio_follow_wcag() -> None:
    assert contrast.ratio("#000", "#ffffff") == pytest.approx(21.0)
    assert contrast.ratio("#777777", "#777") == pytest.approx(1.0)
    assert contrast.ratio("#767676", "#fff") == pytest.approx(4.54, abs=0.01)   # the classic AA grey
    assert contrast.parse("rgba(10, 20, 30, 0.5)") == (10.0, 20.0, 30.0, 0.5)
    assert contrast.over("rgba(0, 0, 0, 0.5)", "#ffffff")[:3] == pytest.approx((127.5, 127.5, 127.5))
    with pytest.raises(ValueError):
        contrast.parse("blue")


def test_every_theme_has_both_palettes() -> None:
    for module in VIEWS.values():
        assert set(module.PALETTES) == {"light", "dark"}


@pytest.mark.parametrize("name, theme", CASES)
def test_palette_pairs_meet_wcag(name: str, theme: str) -> None:
    module = VIEWS[name]
    palette = module.PALETTES[theme]
    failures = []
    for drawn, beneath, minimum in module.CONTRAST_PAIRS:
        layers = [getattr(palette, field) for field in beneath]
        best = max(contrast.seen_ratio(getattr(palette, field), *layers) for field in drawn)
        if best < minimum:
            failures.append(f"{'/'.join(drawn)} on {'+'.join(beneath)}: {best:.2f} < {minimum}")
    assert failures == [], f"{name} {theme}: " + "; ".join(failures)


@pytest.mark.parametrize("name", list(VIEWS))
def test_pairs_name_real_colours(name: str) -> None:
    module = VIEWS[name]
    fields = {f.name for f in dataclasses.fields(module.Palette)}
    for drawn, beneath, _ in module.CONTRAST_PAIRS:
        assert set(drawn) | set(beneath) <= fields
    for palette in module.PALETTES.values():
        for field in fields:
            contrast.parse(getattr(palette, field))   # every colour is one the checker reads


@pytest.mark.parametrize("theme", list(dots_view.PALETTES))
def test_dots_sides_differ_in_lightness(theme: str) -> None:
    palette = dots_view.PALETTES[theme]
    assert contrast.ratio(palette.blue, palette.red) >= dots_view.SIDE_LIGHTNESS
