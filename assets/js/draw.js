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
//
// Runs of consecutive lines (same stroke and width) and of circles (same
// fill) are drawn as one path each: the 121 lattice points and 22 lines of
// an 11x11 board become two draw calls.  Where such shapes overlap, a
// translucent colour is applied once, not twice; views that want stacking
// interleave another command.
(function () {
  "use strict";

  const TAU = Math.PI * 2;
  const ALIGN = ["left", "center", "right"];
  const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

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
    ctx.save();
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
          const font = (ops[i + 7] ? "600 " : "") + ops[i + 3] + "px " + FONT_FAMILY;
          if (font !== lastFont) {
            ctx.font = font;
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
          ctx.restore();
          throw new Error("tesseraDraw: unknown opcode " + op + " at " + i);
      }
      count++;
    }
    ctx.restore();
    return count;
  }

  /**
   * Size a canvas for its CSS box on this screen and draw a frame.
   * Keeps the canvas sharp on HiDPI screens: backing store = CSS size x dpr.
   * ``tx``, ``ty`` shift the drawing (a zoomed board, panned; default 0).
   * Returns the scale used.
   */
  function paint(canvas, cssWidth, cssHeight, ops, strings, tx, ty) {
    const dpr = globalThis.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(cssWidth * dpr));
    const h = Math.max(1, Math.round(cssHeight * dpr));
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    drawOps(ctx, ops, strings, dpr, tx, ty);
    return dpr;
  }

  globalThis.tesseraDraw = { drawOps, paint };
})();
