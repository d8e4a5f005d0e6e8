"""The board canvas and the Quadrature rules page in a real browser."""

from __future__ import annotations

import json

import pytest

from conftest import emulate
from tessera.games.quadrature.examples import EXAMPLES

RULES_HASH = "#/rules/quadrature"
DIAGRAMS = "figure.rules-example canvas.tessera-board"


def open_rules(page, site_url, wait_ready, lang: str | None = None) -> None:
    if lang is not None:
        page.add_init_script(f"try {{ localStorage.setItem('tessera/v1/lang', '{lang}'); }} catch (e) {{}}")
    page.goto(site_url + RULES_HASH)
    wait_ready(page)
    page.wait_for_function(   # each diagram is a <tessera-board>: its canvas is in its shadow root
        "n => [...document.querySelectorAll('figure.rules-example tessera-board')].filter(b => b.shadowRoot"
        " && +(b.shadowRoot.querySelector('canvas.tessera-board') || {dataset: {}}).dataset.draws > 0).length >= n",
        arg=len(EXAMPLES), timeout=30_000)


def canvas_picture(page, key: str) -> str:
    return page.eval_on_selector(f'figure[data-example="{key}"] canvas', "c => c.toDataURL()")


def test_rules_page_shows_every_worked_example(page, page_log, site_url, wait_ready):
    """Every worked example of the document is a drawn diagram with a caption."""
    open_rules(page, site_url, wait_ready)
    keys = page.eval_on_selector_all("figure.rules-example", "fs => fs.map(f => f.dataset.example)")
    assert sorted(keys) == sorted(example.key for example in EXAMPLES)
    for key in keys:
        caption = page.text_content(f'figure[data-example="{key}"] figcaption') or ""
        assert len(caption) > 20, key
    assert "Mark Steere" in (page.text_content(".rules-page") or "")
    page_log.assert_no_errors()


def test_all_boards_on_one_page_draw(page, site_url, wait_ready):
    """Many boards on one page each paint their own canvas, sharp and sized."""
    open_rules(page, site_url, wait_ready)
    report = page.eval_on_selector_all(DIAGRAMS, """cs => cs.map(c => {
        const g = JSON.parse(c.dataset.geometry);
        const ctx = c.getContext('2d');
        const dpr = window.devicePixelRatio || 1;
        const px = ctx.getImageData(Math.round(g.x * dpr), Math.round(g.y * dpr), 1, 1).data;
        return {w: c.width, cssW: c.getBoundingClientRect().width, alpha: px[3], g};
    })""")
    assert len(report) == len(EXAMPLES) >= 2
    for item in report:
        assert item["alpha"] == 255
        assert item["cssW"] > 100
        assert item["w"] == pytest.approx(item["cssW"], abs=1.5)
        assert item["g"]["flipped"] is True


def test_step_through_changes_the_picture(page, site_url, wait_ready):
    """Step shows the move and its conversions; Reset brings the setup back."""
    open_rules(page, site_url, wait_ready)
    figure = 'figure[data-example="chain_reaction"]'
    board = f"{figure} tessera-board"
    setup = canvas_picture(page, "chain_reaction")
    page.click(f'{figure} button[data-action="step"]')
    page.wait_for_function(f"() => document.querySelector('{board}')?.dataset.step === '1'")
    stepped = canvas_picture(page, "chain_reaction")
    assert stepped != setup
    status = page.text_content(f"{figure} .tb-caption") or ""
    assert "g5-h6" in status and "e6" in status and "c6" in status
    page.click(f'{figure} button[data-action="reset"]')
    page.wait_for_function(f"() => document.querySelector('{board}')?.dataset.step === '0'")
    assert canvas_picture(page, "chain_reaction") == setup


def test_play_runs_all_steps(page, site_url, wait_ready):
    """Play walks through every move of an example by itself."""
    open_rules(page, site_url, wait_ready)
    figure = 'figure[data-example="marker_two"]'
    page.click(f'{figure} button[data-action="play"]')
    page.wait_for_function(f"() => document.querySelector('{figure} tessera-board')?.dataset.step === '3'",
                           timeout=15_000)
    canvas = page.get_attribute(f"{figure} canvas", "data-position") or ""
    expected = next(e for e in EXAMPLES if e.key == "marker_two").expected_position
    assert canvas == expected


def test_rules_page_in_russian(page, site_url, wait_ready):
    """The rules page speaks Russian when the app language is Russian."""
    open_rules(page, site_url, wait_ready, lang="ru")
    text = page.text_content(".rules-page") or ""
    assert "Марк Стир" in text
    assert page.get_attribute(".rules-page", "lang") == "ru"


def test_hidpi_canvas_is_sharp(page, site_url, wait_ready):
    """At devicePixelRatio 2 the canvas backing store is twice its CSS size."""
    emulate(page, viewport={"width": 900, "height": 800}, device_scale_factor=2)
    open_rules(page, site_url, wait_ready)
    width, css = page.eval_on_selector(DIAGRAMS, "c => [c.width, c.getBoundingClientRect().width]")
    assert width == pytest.approx(2 * css, abs=2)
    geometry = json.loads(page.get_attribute(DIAGRAMS, "data-geometry") or "{}")
    assert geometry["spacing"] > 10


def dots_point(page, figure: str, x: int, y: int, height: int) -> None:
    """Click Dots point x-y on a diagram's canvas (its published geometry)."""
    canvas = page.locator(f"{figure} canvas.tessera-board")
    geo = json.loads(canvas.get_attribute("data-geometry"))
    canvas.click(position={"x": geo["x"] + (x - 1) * geo["spacing"], "y": geo["y"] + (height - y) * geo["spacing"]})


def test_dots_diagrams_are_embedded_boards_that_follow_the_app(page, page_log, site_url, wait_ready):
    """The Dots rules page is made of <tessera-board example=...> elements served by the
    app's Python (no second Pyodide): a reader's own move on an interactive diagram, Back
    drops it, and the boards take the app's theme and coordinates setting as it changes."""
    page.goto(site_url + "#/rules/dots")
    wait_ready(page)
    figure = 'figure[data-example="capture_small"]'
    board = f"{figure} tessera-board"
    page.wait_for_function(f"() => document.querySelector('{board}')?.dataset.state === 'ready'")
    attrs = page.eval_on_selector(board, "b => [b.getAttribute('game'), b.getAttribute('example'), "
                                         "b.getAttribute('mode'), b.getAttribute('theme'), b.hasAttribute('coords')]")
    assert attrs == ["dots", "capture_small", "step", "light", True]
    before = canvas_picture(page, "capture_small")
    dots_point(page, figure, 5, 3, 6)           # 5-3, the move the example goes on to play
    page.wait_for_function(f"() => document.querySelector('{board}')?.dataset.ply === '1'")
    assert page.get_attribute(board, "data-step") == "0"
    assert canvas_picture(page, "capture_small") != before
    assert "5-3" in (page.text_content(f"{figure} .tb-caption") or "")
    page.click(f'{figure} button[data-action="back"]')
    page.wait_for_function(f"() => document.querySelector('{board}')?.dataset.ply === '0'")
    assert canvas_picture(page, "capture_small") == before

    page.click("#settings-button")
    page.click("label[for=setting-theme-dark]")
    page.click("dialog[open] button[data-action=close]")
    page.wait_for_function(f"() => document.querySelector('{board}')?.dataset.theme === 'dark'")
    page.wait_for_function("([s, before]) => document.querySelector(s).shadowRoot.querySelector('canvas')"
                           ".toDataURL() !== before", arg=[board, before])
    assert page.get_attribute(board, "data-step") == "0"     # redrawn in place, not started again
    # One Python: the app's. No embed start of a second Pyodide happened.
    assert not page.evaluate("performance.getEntriesByName('tessera:embed-python-requested').length")
    page_log.assert_no_errors()


def test_the_board_follows_a_window_resized_mid_game(page, site_url, wait_ready):
    """The board measures its box only when the box changes (a ResizeObserver), not at every
    move: a window made narrower mid-game gives a smaller board, drawn and hit-tested at the
    new size (a click lands on the point under it)."""
    from board_display import geometry, new_game, square_xy
    page.goto(site_url)
    wait_ready(page)
    new_game(page, "quadrature")
    before = geometry(page)
    page.set_viewport_size({"width": 500, "height": 900})   # a phone's width: one column, a smaller board
    page.wait_for_function("w => JSON.parse(document.querySelector('canvas.tessera-board')?.dataset.geometry)"
                           ".width < w", arg=before["width"])
    after = geometry(page)
    css_width = page.eval_on_selector("canvas.tessera-board", "c => c.getBoundingClientRect().width")
    assert after["width"] == pytest.approx(css_width, abs=1) and after["width"] < before["width"]
    box = page.locator("canvas.tessera-board").bounding_box()
    for square in ("e9", "e8"):
        x, y = square_xy(page, square)
        page.mouse.click(box["x"] + x, box["y"] + y)
    page.wait_for_function("document.querySelectorAll('button.move').length === 1")
    assert page.text_content("button.move .move-text") == "e9-e8"
