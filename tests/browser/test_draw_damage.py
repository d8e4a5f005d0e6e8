"""A frame repainted only where it changed (``assets/js/draw.js``: damage) looks
as the frame repainted whole: the same picture, but for a few levels on the
antialiased edge of a shape that the repaint's border cuts (Skia rasterises a
clipped path a little differently; ``LARGEST_DIFFERENCE`` says how this is told
apart from a shape left behind).

Two ways in: random frames of every command, each followed by a random edit
of itself (shapes removed, added, moved, recoloured, two trading places,
translucent ones overlapping in runs), on a bare page; and the app itself, where every frame
a real Dots game paints (moves, captures, their animations, a zoomed field)
is compared with the same frame painted whole on a second canvas.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from board_display import BOARD, wait_board
from saves import long_dots_save, save_script, storage_script
from test_app_dots import click_point

DRAW_JS = Path(__file__).resolve().parents[2] / "assets" / "js" / "draw.js"

LARGEST_DIFFERENCE = """
// How far two canvases' pixels differ: the largest mean, over 3x3 pixels, of each
// pixel's largest colour difference.  A repaint cut by a clip may antialias a
// shape's edge otherwise (single pixels, measured up to 82 levels, means up to 21);
// a shape left behind or missing differs over its area (means above 100).
const largestDifference = (one, two) => {
  const a = one.getContext("2d").getImageData(0, 0, one.width, one.height).data;
  const b = two.getContext("2d").getImageData(0, 0, two.width, two.height).data;
  const w = one.width, h = one.height;
  const diff = new Float32Array(w * h);
  for (let p = 0; p < w * h; p++) {
    diff[p] = Math.max(Math.abs(a[4 * p] - b[4 * p]), Math.abs(a[4 * p + 1] - b[4 * p + 1]),
                       Math.abs(a[4 * p + 2] - b[4 * p + 2]), Math.abs(a[4 * p + 3] - b[4 * p + 3]));
  }
  let worst = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += diff[(y + dy) * w + x + dx];
      if (sum / 9 > worst) worst = sum / 9;
    }
  }
  return worst;
};
"""

TOLERANCE = 32
"""The largest difference allowed (see ``LARGEST_DIFFERENCE``).  Measured: repaints as
they are, at most 21; with the shapes' boxes 1 px too small, 107-202; without the keys'
runs and neighbours (a run split by a shape put in), 56."""

FUZZ = """
([seed, rounds, dpr, tx, ty, TOLERANCE]) => {
""" + LARGEST_DIFFERENCE + """
  Object.defineProperty(window, "devicePixelRatio", {value: dpr, configurable: true});
  let state = seed >>> 0;
  const rand = () => { state = (state * 1664525 + 1013904223) >>> 0; return state / 4294967296; };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const COLOURS = ["#123", "rgba(200,30,30,0.5)", "rgba(20,90,220,0.45)", "#fafafa", "rgba(0,0,0,0.3)"];
  const TEXTS = ["a", "12", "Ж", "A19"];
  const W = 240, H = 180;
  const coord = (limit) => Math.round(rand() * limit * 4) / 4;
  function shape() {
    const kind = pick([1, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 10]);
    const colour = pick(COLOURS);
    switch (kind) {
      case 1: return [1, coord(W), coord(H), coord(60), coord(60), colour];
      case 2: return [2, coord(W), coord(H), coord(60), coord(60), colour, 0.5 + coord(3)];
      case 3: return [3, coord(W), coord(H), coord(W), coord(H), pick(COLOURS.slice(1, 3)), pick([1, 2.5])];
      case 4: return [4, coord(W), coord(H), 1 + coord(12), pick(COLOURS.slice(1, 3))];
      case 5: return [5, coord(W), coord(H), 1 + coord(12), colour, 0.5 + coord(3)];
      case 6: return [6, coord(W), coord(H), 8 + coord(10), colour, pick(TEXTS), Math.floor(rand() * 3), rand() < 0.5 ? 1 : 0];
      case 7: case 8: {
        const n = 2 + Math.floor(rand() * 5);
        const points = [];
        for (let p = 0; p < n; p++) points.push(coord(W), coord(H));
        return kind === 7 ? [7, colour, n, ...points] : [8, colour, 0.5 + coord(3), n, ...points];
      }
      case 9: return [9, coord(W), coord(H), coord(60), coord(60), coord(10), colour];
      default: {
        const n = 1 + Math.floor(rand() * 12);
        const points = [];
        for (let p = 0; p < n; p++) points.push(coord(W), coord(H));
        return [10, 2 + coord(8), pick(COLOURS.slice(1, 3)), n, ...points];
      }
    }
  }
  const STRING_AT = {1: [5], 2: [5], 3: [5], 4: [4], 5: [4], 6: [4, 5], 7: [1], 8: [1], 9: [6], 10: [2]};
  function encode(shapes) {   // as core/draw.py does: numbers, strings by index
    const ops = [], strings = [];
    for (const s of shapes) {
      s.forEach((value, k) => {
        if ((STRING_AT[s[0]] || []).includes(k)) {
          let index = strings.indexOf(value);
          if (index < 0) { index = strings.length; strings.push(value); }
          ops.push(index);
        } else ops.push(value);
      });
    }
    return [new Float64Array(ops), strings];
  }
  function edit(shapes) {
    const out = shapes.map((s) => s.slice());
    const changes = 1 + Math.floor(rand() * 4);
    for (let c = 0; c < changes; c++) {
      const what = rand();
      const at = Math.floor(rand() * (out.length + 1));
      if (what < 0.3 || out.length === 0) out.splice(at, 0, shape());
      else if (what < 0.45) out.splice(Math.min(at, out.length - 1), 1);
      else if (what < 0.55 && out.length > 1) {   // two neighbours trade places: which one is on top
        const k = Math.min(at, out.length - 2);
        [out[k], out[k + 1]] = [out[k + 1], out[k]];
      } else if (what < 0.75) {   // move one number of a shape a little
        const s = out[Math.min(at, out.length - 1)];
        const k = 1 + Math.floor(rand() * (s.length - 1));
        // (not a count, and a width stays above 0: a canvas ignores a line width of 0)
        if (typeof s[k] === "number" && !(s[0] >= 7 && k <= 3)) s[k] = Math.max(0.25, s[k] + coord(8) - 4);
      } else {   // recolour one
        const s = out[Math.min(at, out.length - 1)];
        const k = (STRING_AT[s[0]] || [])[0];
        if (k !== undefined && s[0] !== 6) s[k] = pick(COLOURS);
      }
    }
    return out;
  }
  const make = () => {
    const canvas = document.createElement("canvas");
    canvas.style.width = W + "px"; canvas.style.height = H + "px";
    document.body.appendChild(canvas);
    return canvas;
  };
  tesseraDraw.damageFrom = 0;   // frames of a few shapes, to find where each goes wrong
  const damaged = make(), whole = make();
  let partial = 0, differing = [], worstSeen = 0;
  for (let round = 0; round < rounds; round++) {
    const before = [];
    const count = 5 + Math.floor(rand() * 40);
    for (let k = 0; k < count; k++) before.push(shape());
    const after = edit(before);
    const paper = [1, -20, -20, W + 40, H + 40, "#f4efe6"];   // as every view draws its paper first
    tesseraDraw.damage = false;
    tesseraDraw.paint(damaged, W, H, ...encode([paper, ...before]), tx, ty);
    tesseraDraw.damage = true;
    const drawn = tesseraDraw.paint(damaged, W, H, ...encode([paper, ...after]), tx, ty);
    if (drawn >= 0) partial++;
    tesseraDraw.damage = false;
    tesseraDraw.paint(whole, W, H, ...encode([paper, ...after]), tx, ty);
    tesseraDraw.damage = true;
    const worst = largestDifference(damaged, whole);
    if (worst > TOLERANCE) differing.push({round, worst, drawn, before: JSON.stringify(before), after: JSON.stringify(after)});
    worstSeen = Math.max(worstSeen, worst);
  }
  return {partial, worstSeen, differing: differing.slice(0, 3), failures: differing.length};
}
"""


def test_a_frame_repainted_where_it_changed_looks_as_one_repainted_whole(page: Page) -> None:
    """600 random frames, each painted in part after a random edit of itself, at pixel
    ratios 1, 1.5 and 2 and with pans, against the same frames painted whole."""
    page.set_content("<!doctype html><body style='margin:0'></body>")
    page.add_script_tag(path=str(DRAW_JS))
    for seed, dpr, tx, ty in ((1, 1, 0, 0), (2, 2, 0, 0), (3, 1.5, -7.25, 3.5), (4, 1, 0.5, -0.5)):
        result = page.evaluate(FUZZ, [seed, 150, dpr, tx, ty, TOLERANCE])
        assert result["failures"] == 0, result["differing"]
        # Most frames take the partial path (else this would test only the whole one).
        assert result["partial"] > 50, result


RUN_SPLIT = """
([TOLERANCE]) => {
""" + LARGEST_DIFFERENCE + """
  // Three translucent circles of one fill are one path (where the first and the third
  // overlap, filled once); a square put in after the first splits that run, so the
  // overlap is filled twice.  Nothing near the overlap changed but the run.
  const strings = ["#f4efe6", "rgba(200,30,30,0.5)", "#123"];
  const paper = [1, -20, -20, 280, 220, 0];
  const first = [4, 40, 50, 20, 1], far = [4, 200, 150, 5, 1], third = [4, 60, 50, 20, 1];
  const square = [1, 200, 10, 10, 10, 2];
  const before = new Float64Array([...paper, ...first, ...far, ...third]);
  const after = new Float64Array([...paper, ...first, ...square, ...far, ...third]);
  const make = () => {
    const canvas = document.createElement("canvas");
    canvas.style.width = "240px"; canvas.style.height = "180px";
    document.body.appendChild(canvas);
    return canvas;
  };
  tesseraDraw.damageFrom = 0;
  const damaged = make(), whole = make();
  tesseraDraw.paint(damaged, 240, 180, before, strings, 0, 0);
  const drawn = tesseraDraw.paint(damaged, 240, 180, after, strings, 0, 0);
  tesseraDraw.damage = false;
  tesseraDraw.paint(whole, 240, 180, after, strings, 0, 0);
  tesseraDraw.damage = true;
  return {drawn, worst: largestDifference(damaged, whole)};
}
"""


def test_a_run_split_by_a_shape_put_in_repaints_where_its_shapes_overlap(page: Page) -> None:
    page.set_content("<!doctype html><body style='margin:0'></body>")
    page.add_script_tag(path=str(DRAW_JS))
    result = page.evaluate(RUN_SPLIT, [TOLERANCE])
    assert result["drawn"] >= 0, result   # painted in part
    assert result["worst"] <= TOLERANCE, result


CHECK_FRAMES = """
() => {
  // After every paint of the board, paint the same frame whole on a second canvas and compare.
""" + LARGEST_DIFFERENCE + """
  const original = tesseraDraw.paint;
  window.__frames = {painted: 0, partial: 0, worst: 0};
  tesseraDraw.paint = function (canvas, w, h, ops, strings, tx, ty) {
    const drawn = original.call(this, canvas, w, h, ops, strings, tx, ty);
    if (!canvas.classList.contains("tessera-board")) return drawn;
    const whole = document.createElement("canvas");
    whole.width = canvas.width; whole.height = canvas.height;
    tesseraDraw.drawOps(whole.getContext("2d"), ops, strings, window.devicePixelRatio || 1, tx, ty);
    window.__frames.painted++;
    if (drawn >= 0) window.__frames.partial++;
    window.__frames.worst = Math.max(window.__frames.worst, largestDifference(canvas, whole));
    return drawn;
  };
}
"""


def test_every_frame_of_a_dots_game_looks_as_the_frame_painted_whole(page: Page, site_url: str) -> None:
    """Moves on a 39x32 field 300 moves in, their animations, then a zoom and a pan:
    every frame painted where it changed looks as the same frame painted whole."""
    from tessera.games.dots import Dots

    route, script = save_script(long_dots_save(300, "damage1"))
    page.add_init_script(storage_script({"tessera/v1/settings/sound": "off"}))
    page.add_init_script(script)
    page.goto(site_url + route)
    wait_board(page)
    page.evaluate(CHECK_FRAMES)
    for _ in range(4):
        game = Dots(setup=page.get_attribute(BOARD, "data-position"))
        free = game.placements()
        x, y = game.xy(free[len(free) // 2])
        count = page.eval_on_selector_all("button.move", "els => els.length")
        click_point(page, x, y, game.height)
        page.wait_for_function("n => document.querySelectorAll('button.move').length > n", arg=count)
        page.wait_for_timeout(900)   # the move's animation, to its end
    page.keyboard.press("ArrowRight")   # the keyboard cursor: a small change
    page.keyboard.press("ArrowRight")
    page.locator("button[data-action=zoom-in]").first.click()   # a zoom: painted whole
    page.keyboard.press("ArrowDown")
    frames = page.evaluate("window.__frames")
    assert frames["worst"] <= TOLERANCE, frames
    # Most frames were painted in part (else this checks only whole repaints). How many
    # animation frames a move gets depends on the machine's load; each move, each
    # cursor step and the zoom paint at least once.
    assert frames["painted"] >= 8 and frames["partial"] >= frames["painted"] // 2, frames
