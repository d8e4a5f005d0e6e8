// Tessera: replay a DrawList (py/tessera/core/draw.py) on a 2D canvas.
//
// Python records a whole frame as one flat Float64Array of opcodes and
// arguments plus a table of strings (colours, texts), and hands both over in
// ONE call: one interop call per canvas operation would cost ~10 ms a frame.
// Loaded as a classic script; it sets globalThis.tesseraDraw.
//
// Opcodes (keep in sync with core/draw.py):
//   1 rect x y w h fill            2 rect_stroke x y w h stroke width
//   3 line x1 y1 x2 y2 stroke w    4 circle cx cy r fill
//   5 circle_stroke cx cy r stroke width
//   6 text x y size fill text align(0 left,1 centre,2 right) bold
//   7 polygon fill n x1 y1 ...     8 polyline stroke width n x1 y1 ...
//   9 round_rect x y w h radius fill
//  10 circles r fill n x1 y1 ... (n circles of one radius and fill)
//   0 (a break between runs, see below)
//
// Runs of consecutive lines (same stroke and width) and of circles (same
// fill) are drawn as one path each: the 121 lattice points and 22 lines of
// an 11x11 board become two draw calls.  Where such shapes overlap, a
// translucent colour is applied once, not twice; views that want stacking
// interleave another command.
//
// A frame repaints only where it differs from the frame before on the same
// canvas ("damage"): both frames are split into shapes, the shapes found in
// one frame and not the other give the rectangles to repaint, and only the
// shapes that touch them are drawn again, clipped to them.  A move on a
// 39x32 Dots field a thousand dots in then rasterises a few dots, not all
// of them; a frame equal to the one before draws nothing.  Any change of
// size, pixel ratio or pan, damage over half the board, or a frame of few
// shapes (tesseraDraw.damageFrom) repaints it whole.  A repaint in part
// may antialias the edge of a shape a few levels otherwise than a whole
// one (Skia rasterises a path cut by a clip, or with fewer shapes in it, a
// little differently); tests/browser/test_draw_damage.py measures it.
// Opcode 0 (no arguments) only ends a run: a repaint in part puts it where
// shapes of different runs would otherwise become one path.
(function () {
  "use strict";

  const TAU = Math.PI * 2;
  const ALIGN = ["left", "center", "right"];
  const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

  /** The CSS font of the text command at ops[i]. */
  function fontOf(ops, i) {
    return (ops[i + 7] ? "600 " : "") + ops[i + 3] + "px " + FONT_FAMILY;
  }

  const fontsSpelled = new Map(); // a font as set -> as the context spells it back

  /**
   * Set the context's font unless it has it already.  Setting a font makes the
   * browser bring the page's style up to date first (a canvas in the page takes
   * its font's relative units from its own style), and a move's task has just
   * changed the page (its move list, its panels): on a 39x32 Dots field that
   * forced recalculation took 1-2 ms of every move.  A font the context has
   * kept (not undone by a restore()) costs nothing to keep.
   */
  function setFont(ctx, font) {
    const spelled = fontsSpelled.get(font);
    if (spelled !== undefined && ctx.font === spelled) return;
    ctx.font = font;
    if (spelled === undefined) fontsSpelled.set(font, ctx.font);
  }

  function roundRectPath(ctx, x, y, w, h, r) {
    r = Math.max(0, Math.min(r, w / 2, h / 2));
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  /**
   * Draw every command of a DrawList.
   * @param {CanvasRenderingContext2D} ctx
   * @param {Float64Array|number[]} ops  flat opcodes and arguments
   * @param {string[]} strings           colours and texts, indexed by ops
   * @param {number} scale               device pixels per logical pixel
   * @param {number} [tx] [ty]           offset of the drawing in logical
   *                                     pixels (a zoomed board panned)
   * @returns {number} the number of commands drawn
   */
  function drawOps(ctx, ops, strings, scale, tx, ty) {
    const s = scale || 1;
    // No save() and restore() round the frame: every command sets the state it
    // uses, and a font set here stays for the next frame (see setFont).
    ctx.setTransform(s, 0, 0, s, (tx || 0) * s, (ty || 0) * s);
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.textBaseline = "middle";
    const n = ops.length;
    let i = 0;
    let count = 0;
    let lastFont = "";
    while (i < n) {
      const op = ops[i];
      switch (op) {
        case 0: // a break between runs (a partial repaint left shapes out here)
          i += 1;
          continue;
        case 1: // rect
          ctx.fillStyle = strings[ops[i + 5]];
          ctx.fillRect(ops[i + 1], ops[i + 2], ops[i + 3], ops[i + 4]);
          i += 6;
          break;
        case 2: // rect_stroke
          ctx.strokeStyle = strings[ops[i + 5]];
          ctx.lineWidth = ops[i + 6];
          ctx.strokeRect(ops[i + 1], ops[i + 2], ops[i + 3], ops[i + 4]);
          i += 7;
          break;
        case 3: { // line; a run of lines of one stroke and width is one path
          const stroke = ops[i + 5];
          const width = ops[i + 6];
          ctx.strokeStyle = strings[stroke];
          ctx.lineWidth = width;
          ctx.beginPath();
          do {
            ctx.moveTo(ops[i + 1], ops[i + 2]);
            ctx.lineTo(ops[i + 3], ops[i + 4]);
            i += 7;
            count++;
          } while (i < n && ops[i] === 3 && ops[i + 5] === stroke && ops[i + 6] === width);
          ctx.stroke();
          continue;
        }
        case 4: { // circle; a run of circles of one fill is one path
          const fill = ops[i + 4];
          ctx.fillStyle = strings[fill];
          ctx.beginPath();
          do {
            ctx.moveTo(ops[i + 1] + ops[i + 3], ops[i + 2]);
            ctx.arc(ops[i + 1], ops[i + 2], Math.max(0, ops[i + 3]), 0, TAU);
            i += 5;
            count++;
          } while (i < n && ops[i] === 4 && ops[i + 4] === fill);
          ctx.fill();
          continue;
        }
        case 5: // circle_stroke
          ctx.strokeStyle = strings[ops[i + 4]];
          ctx.lineWidth = ops[i + 5];
          ctx.beginPath();
          ctx.arc(ops[i + 1], ops[i + 2], Math.max(0, ops[i + 3]), 0, TAU);
          ctx.stroke();
          i += 6;
          break;
        case 6: { // text
          const font = fontOf(ops, i);
          if (font !== lastFont) {
            setFont(ctx, font);
            lastFont = font;
          }
          ctx.fillStyle = strings[ops[i + 4]];
          ctx.textAlign = ALIGN[ops[i + 6]] || "center";
          ctx.fillText(strings[ops[i + 5]], ops[i + 1], ops[i + 2]);
          i += 8;
          break;
        }
        case 7: { // polygon
          const count7 = ops[i + 2];
          ctx.fillStyle = strings[ops[i + 1]];
          ctx.beginPath();
          let k = i + 3;
          for (let p = 0; p < count7; p++, k += 2) {
            if (p === 0) ctx.moveTo(ops[k], ops[k + 1]);
            else ctx.lineTo(ops[k], ops[k + 1]);
          }
          ctx.closePath();
          ctx.fill();
          i += 3 + 2 * count7;
          break;
        }
        case 8: { // polyline
          const count8 = ops[i + 3];
          ctx.strokeStyle = strings[ops[i + 1]];
          ctx.lineWidth = ops[i + 2];
          ctx.beginPath();
          let k = i + 4;
          for (let p = 0; p < count8; p++, k += 2) {
            if (p === 0) ctx.moveTo(ops[k], ops[k + 1]);
            else ctx.lineTo(ops[k], ops[k + 1]);
          }
          ctx.stroke();
          i += 4 + 2 * count8;
          break;
        }
        case 10: { // circles: radius, fill, n, then n centres, as one path
          const r = Math.max(0, ops[i + 1]);
          const count10 = ops[i + 3];
          ctx.fillStyle = strings[ops[i + 2]];
          ctx.beginPath();
          let k = i + 4;
          for (let p = 0; p < count10; p++, k += 2) {
            ctx.moveTo(ops[k] + r, ops[k + 1]);
            ctx.arc(ops[k], ops[k + 1], r, 0, TAU);
          }
          ctx.fill();
          i += 4 + 2 * count10;
          count += count10;
          continue;
        }
        case 9: // round_rect
          ctx.fillStyle = strings[ops[i + 6]];
          roundRectPath(ctx, ops[i + 1], ops[i + 2], ops[i + 3], ops[i + 4], ops[i + 5]);
          ctx.fill();
          i += 7;
          break;
        default:
          throw new Error("tesseraDraw: unknown opcode " + op + " at " + i);
      }
      count++;
    }
    return count;
  }

  // ----- damage: repaint only what changed -------------------------------------
  const ARGS = { 1: 5, 2: 6, 3: 6, 4: 4, 5: 5, 6: 7, 9: 6 };
  const STRING_ARGS = { 1: [5], 2: [5], 3: [5], 4: [4], 5: [4], 6: [4, 5], 9: [6] };
  const MARGIN = 2; // logical pixels round every shape: antialiasing, rounding
  const MAX_RECTS = 24;
  const WHOLE = 0.5; // damage over this share of the canvas: repaint it whole

  // Keys are 53-bit hashes (two 32-bit lanes of murmur3's steps, folded into one
  // exact integer): spelling shapes out as strings made a thousand strings a frame
  // on a full Dots field, and its garbage collections landed in later moves.  Two
  // frames of 2,000 shapes share a key by chance about once in 10^9 frames; the
  // shape would then keep its old pixels until the next repaint around it.
  const F64 = new Float64Array(1);
  const U32 = new Uint32Array(F64.buffer);
  let lane1 = 0;
  let lane2 = 0;

  function hashStart(seed) {
    lane1 = seed ^ 0x9e3779b9;
    lane2 = Math.imul(seed, 0x85ebca6b) ^ 0xc2b2ae35;
  }

  function hashWord(word) {
    let k = Math.imul(word, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    lane1 ^= k;
    lane1 = (Math.imul((lane1 << 13) | (lane1 >>> 19), 5) + 0xe6546b64) | 0;
    let j = Math.imul(word, 0x85ebca6b);
    j = Math.imul((j << 16) | (j >>> 16), 0xc2b2ae35);
    lane2 ^= j;
    lane2 = (Math.imul((lane2 << 17) | (lane2 >>> 15), 9) + 0x52dce729) | 0;
  }

  function hashNumber(x) {
    F64[0] = x;
    hashWord(U32[0]);
    hashWord(U32[1]);
  }

  function finalMix(h) {
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  }

  function hashEnd() {
    return finalMix(lane1) * 2097152 + (finalMix(lane2) >>> 11);
  }

  /** Each string of the table as a key: equal texts and colours, equal keys. */
  function stringKeys(strings) {
    const keys = new Float64Array(strings.length);
    for (let s = 0; s < strings.length; s++) {
      const text = String(strings[s]);
      hashStart(text.length);
      for (let c = 0; c < text.length; c++) hashWord(text.charCodeAt(c));
      keys[s] = hashEnd();
    }
    return keys;
  }

  /**
   * The shapes of a frame, in drawing order: each is [key, x0, y0, x1, y1,
   * start, end, run, tag] (ops[start..end) draws it; for one circle of an
   * opcode-10 batch, start is the index of its centre and end is -1 - the
   * batch's index).  Shapes of one run (drawn as one path by ``drawOps``)
   * share ``run``.
   *
   * The key stands for the shape with its colours and texts (equal shapes of
   * two frames have equal keys whatever their string indices), then what else
   * decides its pixels: its run (``tag``: the run's first shape; for a batch
   * of circles, its style and how many batches of that style came before),
   * since a translucent overlap inside a run is filled once and across runs
   * twice; and the shape drawn just before it, since two shapes that trade
   * places trade which one is on top.
   */
  function shapesOf(ops, strings) {
    const shapes = [];
    const named = stringKeys(strings);
    const n = ops.length;
    let i = 0;
    let run = 0;
    let runOp = 0, runA = -1, runB = -1; // the style of the run of lines or circles going on
    const batches = new Map(); // a batch's style -> how many batches of it so far
    while (i < n) {
      const op = ops[i];
      let x0, y0, x1, y1, end;
      if (op === 0) { i += 1; run++; runOp = 0; continue; }
      if (op === 10) {
        run++;
        runOp = 0;
        const r = ops[i + 1];
        const fill = named[ops[i + 2]];
        const count = ops[i + 3];
        const reach = Math.max(0, r) + MARGIN;
        hashStart(10);
        hashNumber(r);
        hashNumber(fill);
        const style = hashEnd();
        const before = batches.get(style) || 0;
        batches.set(style, before + 1);
        hashStart(11);
        hashNumber(style);
        hashNumber(before);
        const tag = hashEnd();
        for (let p = 0, k = i + 4; p < count; p++, k += 2) {
          const x = ops[k], y = ops[k + 1];
          hashStart(10);
          hashNumber(style);
          hashNumber(x);
          hashNumber(y);
          shapes.push([hashEnd(), x - reach, y - reach, x + reach, y + reach, k, -1 - i, run, tag]);
        }
        i += 4 + 2 * count;
        continue;
      }
      hashStart(op);
      if (op === 7 || op === 8) {
        const at = op === 7 ? i + 3 : i + 4;
        const count = ops[at - 1];
        end = at + 2 * count;
        x0 = y0 = Infinity; x1 = y1 = -Infinity;
        for (let k = at; k < end; k += 2) {
          const x = ops[k], y = ops[k + 1];
          if (x < x0) x0 = x;
          if (x > x1) x1 = x;
          if (y < y0) y0 = y;
          if (y > y1) y1 = y;
        }
        const half = (op === 8 ? ops[i + 2] / 2 : 0) + MARGIN;
        x0 -= half; y0 -= half; x1 += half; y1 += half;
        hashNumber(named[ops[i + 1]]);
        for (let k = i + 2; k < end; k++) hashNumber(ops[k]);
      } else {
        const args = ARGS[op];
        if (args === undefined) throw new Error("tesseraDraw: unknown opcode " + op + " at " + i);
        end = i + 1 + args;
        const a = ops[i + 1], b = ops[i + 2], c = ops[i + 3], d = ops[i + 4];
        if (op === 1 || op === 9) {
          x0 = a; y0 = b; x1 = a + c; y1 = b + d;
        } else if (op === 2) {
          const half = ops[i + 6] / 2;
          x0 = a - half; y0 = b - half; x1 = a + c + half; y1 = b + d + half;
        } else if (op === 3) {
          const half = ops[i + 6] / 2;
          x0 = Math.min(a, c) - half; x1 = Math.max(a, c) + half;
          y0 = Math.min(b, d) - half; y1 = Math.max(b, d) + half;
        } else if (op === 4 || op === 5) {
          const reach = Math.max(0, c) + (op === 5 ? ops[i + 5] / 2 : 0);
          x0 = a - reach; y0 = b - reach; x1 = a + reach; y1 = b + reach;
        } else { // 6 text: a generous box (no measuring): wider than any font's glyphs
          const size = c;
          const width = size * (0.9 * String(strings[ops[i + 5]]).length + 1);
          const align = ops[i + 6];
          x0 = align === 0 ? a - size : align === 2 ? a - width : a - width / 2;
          x1 = x0 + width + size;
          y0 = b - size; y1 = b + size;
        }
        x0 -= MARGIN; y0 -= MARGIN; x1 += MARGIN; y1 += MARGIN;
        const spelled = STRING_ARGS[op];
        for (let k = 1; k <= args; k++) hashNumber(spelled.includes(k) ? named[ops[i + k]] : ops[i + k]);
      }
      // Lines of one stroke and width, and circles of one fill, in a row are one path.
      const styleA = op === 3 ? ops[i + 5] : op === 4 ? ops[i + 4] : -1;
      const styleB = op === 3 ? ops[i + 6] : -1;
      if (styleA === -1 || op !== runOp || styleA !== runA || styleB !== runB) run++;
      runOp = styleA === -1 ? 0 : op; runA = styleA; runB = styleB;
      shapes.push([hashEnd(), x0, y0, x1, y1, i, end, run, -1]);
      i = end;
    }
    let lastRun = -1, runTag = 0, previous = 0;
    for (const shape of shapes) {
      if (shape[8] === -1) {
        if (shape[7] !== lastRun) runTag = shape[0];
        shape[8] = runTag;
      }
      lastRun = shape[7];
      const own = shape[0];
      hashStart(12);
      hashNumber(own);
      hashNumber(shape[8]);
      hashNumber(previous);
      shape[0] = hashEnd();
      previous = own;
    }
    return shapes;
  }

  /** The boxes of the shapes in one frame and not in the other, or null: too many or too big. */
  function damageBetween(before, after, area) {
    const counts = new Map();
    for (const shape of before) counts.set(shape[0], (counts.get(shape[0]) || 0) + 1);
    const changed = [];
    for (const shape of after) {
      const left = counts.get(shape[0]);
      if (left) counts.set(shape[0], left - 1);
      else changed.push(shape);
    }
    for (const shape of before) {
      const left = counts.get(shape[0]);
      if (left) { counts.set(shape[0], left - 1); changed.push(shape); }
    }
    let rects = changed.map((s) => [s[1], s[2], s[3], s[4]]);
    if (rects.length > MAX_RECTS) {
      const all = [Infinity, Infinity, -Infinity, -Infinity];
      for (const r of rects) {
        all[0] = Math.min(all[0], r[0]); all[1] = Math.min(all[1], r[1]);
        all[2] = Math.max(all[2], r[2]); all[3] = Math.max(all[3], r[3]);
      }
      rects = [all];
    }
    let covered = 0;
    for (const r of rects) covered += (r[2] - r[0]) * (r[3] - r[1]);
    return covered > WHOLE * area ? null : rects;
  }

  function touchesAny(shape, rects) {
    for (const r of rects) {
      if (shape[1] < r[2] && shape[3] > r[0] && shape[2] < r[3] && shape[4] > r[1]) return true;
    }
    return false;
  }

  /**
   * The frame's commands for the shapes that touch ``rects``.  Shapes kept from
   * one run stay one path (a translucent overlap is filled once, as in the whole
   * frame); kept shapes of different runs never merge (opcode 0 between them).
   * Returns { kept, firstText }: the commands, and where in ``ops`` the first
   * text kept is (-1: none).
   */
  function opsTouching(ops, shapes, rects) {
    const out = [];
    let firstText = -1;
    let lastRun = -1;
    let batchAt = -1;
    for (const s of shapes) {
      if (!touchesAny(s, rects)) continue;
      const sameRun = s[7] === lastRun;
      if (!sameRun && lastRun !== -1) out.push(0);
      lastRun = s[7];
      if (s[6] < 0) { // one circle of a batch (opcode 10): grow the batch copied so far
        if (!sameRun) {
          const source = -1 - s[6];
          batchAt = out.length;
          out.push(10, ops[source + 1], ops[source + 2], 0);
        }
        out.push(ops[s[5]], ops[s[5] + 1]);
        out[batchAt + 3] += 1;
      } else {
        if (firstText < 0 && ops[s[5]] === 6) firstText = s[5];
        for (let k = s[5]; k < s[6]; k++) out.push(ops[k]);
      }
    }
    return { kept: out, firstText };
  }

  const frames = new WeakMap(); // canvas -> the last frame painted on it

  /**
   * Size a canvas for its CSS box on this screen and draw a frame.
   * Keeps the canvas sharp on HiDPI screens: backing store = CSS size x dpr.
   * ``tx``, ``ty`` shift the drawing (a zoomed board, panned; default 0).
   * Repaints only what changed since the frame before (see the top).
   * Returns how many numbers of commands were drawn again (0: nothing had
   * changed; -1: the whole frame was).
   */
  function paint(canvas, cssWidth, cssHeight, ops, strings, tx, ty) {
    const dpr = globalThis.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(cssWidth * dpr));
    const h = Math.max(1, Math.round(cssHeight * dpr));
    tx = tx || 0; ty = ty || 0;
    const shapes = shapesOf(ops, strings);
    const last = frames.get(canvas);
    const same = last && canvas.width === w && canvas.height === h && last.dpr === dpr &&
      last.tx === tx && last.ty === ty && last.generation === generation;
    frames.set(canvas, { shapes, dpr, tx, ty, generation });
    const ctx = canvas.getContext("2d");
    const rects = same && tesseraDraw.damage && shapes.length >= tesseraDraw.damageFrom
      ? damageBetween(last.shapes, shapes, (w / dpr) * (h / dpr)) : null;
    if (rects === null) {
      if (canvas.width !== w) canvas.width = w;
      if (canvas.height !== h) canvas.height = h;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, w, h);
      drawOps(ctx, ops, strings, dpr, tx, ty);
      return -1;
    }
    if (rects.length === 0) return 0;
    const { kept, firstText } = opsTouching(ops, shapes, rects);
    // The clip below is undone by a restore(), which would undo a font set inside it
    // too: the first font the repaint uses is set before, where it stays.
    if (firstText >= 0) setFont(ctx, fontOf(ops, firstText));
    // The damage in whole device pixels.  (Skia antialiases a path cut by the clip,
    // or missing some of its shapes, a little otherwise than the whole path: an edge
    // pixel may differ by some levels from a whole repaint; nothing else does.)
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.beginPath();
    for (const r of rects) {
      const left = Math.max(0, Math.floor((r[0] + tx) * dpr));
      const top = Math.max(0, Math.floor((r[1] + ty) * dpr));
      const right = Math.min(w, Math.ceil((r[2] + tx) * dpr));
      const bottom = Math.min(h, Math.ceil((r[3] + ty) * dpr));
      if (right > left && bottom > top) ctx.rect(left, top, right - left, bottom - top);
    }
    ctx.clip();
    ctx.clearRect(0, 0, w, h);
    drawOps(ctx, kept, strings, dpr, tx, ty);
    ctx.restore();
    return kept.length;
  }

  // A canvas whose context was lost comes back blank: paint every canvas whole once.
  let generation = 0;
  globalThis.addEventListener?.("contextrestored", () => { generation++; }, true);

  // damage: repaint only what changed, on frames of at least damageFrom shapes (a
  // small board is repainted whole at no cost worth saving, and stays pixel-exact).
  const tesseraDraw = { drawOps, paint, damage: true, damageFrom: 400 };
  globalThis.tesseraDraw = tesseraDraw;
})();
