// The memory snapshot's bytes: its mask, and the sparse form its inflated
// copy is kept in (copied to vendor/pyodide/tessera-wasm-data.js; Node's
// scripts/check_snapshot.mjs imports this file itself).
//
// A Pyodide heap starts as a copy of pyodide.asm.wasm's data segments
// (3.2 MB of constants, most of which stay as they are).  The build ships
// the snapshot with every segment XORed out of its heap (the same bytes
// become zeros, and compress to next to nothing); the page XORs them back
// in, from the wasm it has anyway.  scripts/build_site.py masks
// (``mask_snapshot``), this unmasks: the same operation.

/** [heapOffset, wasmOffset, length] of each active data segment of a wasm module.
 * Throws on bytes that are not a whole wasm with a data section (a damaged
 * kept copy): a snapshot unmasked with a wrong mask would start Python on a
 * broken heap, where an error starts it the plain way. */
export function dataSegments(wasm) {
  if (wasm.length < 8 || wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) {
    throw new Error("wasm data segments: not a wasm module");
  }
  let pos = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = wasm[pos++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const segments = [];
  while (pos < wasm.length) {
    const id = wasm[pos++];
    const size = leb();
    const end = pos + size;
    if (end > wasm.length) throw new Error("wasm data segments: the module is cut short");
    if (id === 11) { // the data section
      for (let count = leb(); count > 0; count--) {
        const flags = leb();
        let offset = null;
        if (flags === 0 || flags === 2) { // active: memory (index), i32.const offset, end
          if (flags === 2) leb();
          if (wasm[pos++] !== 0x41) throw new Error("wasm data segment: offset is not an i32.const");
          offset = leb(); // an offset of the heap: never negative
          if (wasm[pos++] !== 0x0b) throw new Error("wasm data segment: offset expression too long");
        }
        const length = leb();
        if (offset !== null) segments.push([offset, pos, length]);
        pos += length;
      }
      return segments;
    }
    pos = end;
  }
  throw new Error("wasm data segments: the module has no data section");
}

/** The wasm's data segments laid out as in the heap (zeros between them), as 32-bit words. */
export function dataMask(wasm) {
  const segments = dataSegments(wasm);
  let end = 0;
  for (const [offset, , length] of segments) end = Math.max(end, offset + length);
  const mask = new Uint8Array((end + 3) & ~3);
  for (const [offset, at, length] of segments) mask.set(wasm.subarray(at, at + length), offset);
  return mask;
}

/** XOR a dataMask into the heap of a Pyodide snapshot, whole or sparse (the
 * heap's first pages, which the mask covers, all kept), in place (masks and
 * unmasks). */
export function xorMask(snapshot, mask) {
  // The wasm always has data segments: an empty mask is a caller's mistake,
  // and would leave the heap masked, its static data zeros (Python then
  // broke at its first error: an endless chain of errors, out of stack).
  if (!mask.length) throw new Error("wasm data segments: the mask is empty");
  const heap = snapshot.subarray(heapOffset(snapshot, mask.length));
  if (mask.length > heap.length) throw new Error("wasm data segment beyond the snapshot's heap");
  if (heap.byteOffset % 4 === 0) {
    const target = new Uint32Array(heap.buffer, heap.byteOffset, mask.length / 4);
    const source = new Uint32Array(mask.buffer, mask.byteOffset, mask.length / 4);
    for (let i = 0; i < source.length; i++) target[i] ^= source[i];
  } else {
    for (let i = 0; i < mask.length; i++) heap[i] ^= mask[i];
  }
  return snapshot;
}

/** XOR the wasm's data segments into the heap of a Pyodide snapshot, in place. */
export function xorDataSegments(snapshot, wasm) {
  return xorMask(snapshot, dataMask(wasm));
}

// ----------------------------------------------------------- sparse pages --
// Nearly half of the snapshot's heap is pages of zeros (3,450 of 7,680),
// which need neither be inflated nor kept nor read back nor written: a page
// of the wasm memory written, even with zeros, stays in the renderer's
// memory.  The site ships the snapshot sparse (scripts/build_site.py,
// sparse_snapshot): a header of 32-bit words [SPARSE_MAGIC, the whole
// snapshot's length, where its heap starts, the heap's pages], a bitmap of
// the pages kept (padded to 8 bytes), Pyodide's own header, then those pages
// one after the other (the last one, maybe short, always kept; so are the
// first ones, which the data segments' mask covers).  Its inflated copy is
// kept so too.

const SPARSE_MAGIC = 0x70737374; // "tssp"
const PYODIDE_MAGIC = 0x706e7300;
const PAGE_BYTES = 4096;

export class DamagedSnapshot extends Error {}

function words(bytes, count) {
  if (bytes.byteOffset % 4 || bytes.byteLength < count * 4) throw new DamagedSnapshot("snapshot: too short");
  return new Uint32Array(bytes.buffer, bytes.byteOffset, count);
}

function pageIsZero(heapWords, from) {
  for (let i = from, end = from + (PAGE_BYTES >> 2); i < end; i++) if (heapWords[i] !== 0) return false;
  return true;
}

/** The snapshot's heap a page at a time, from either form: { length (the
 * full snapshot's), header (Pyodide's, ahead of the heap), pages (the heap's
 * page count), held: [[page index, its bytes], ...] for the pages that hold
 * something }.  Throws DamagedSnapshot on bytes that are neither form. */
export function heapPages(bytes) {
  const [magic] = words(bytes, 1);
  if (magic === SPARSE_MAGIC) return sparsePages(bytes);
  if (magic !== PYODIDE_MAGIC) throw new DamagedSnapshot("snapshot: not a Pyodide snapshot");
  const heapStart = words(bytes, 2)[1];
  if (heapStart < 8 || heapStart > PAGE_BYTES || heapStart % 8 || heapStart > bytes.byteLength) {
    throw new DamagedSnapshot("snapshot: an unknown header");
  }
  const heap = bytes.subarray(heapStart);
  const heapWords = new Uint32Array(heap.buffer, heap.byteOffset, heap.byteLength >> 2);
  const pages = Math.ceil(heap.byteLength / PAGE_BYTES);
  const held = [];
  for (let page = 0; page < pages; page++) {
    const start = page * PAGE_BYTES;
    const end = Math.min(start + PAGE_BYTES, heap.byteLength);
    if (end === heap.byteLength || !pageIsZero(heapWords, start >> 2)) held.push([page, heap.subarray(start, end)]);
  }
  return { length: bytes.byteLength, header: bytes.subarray(0, heapStart), pages, held };
}

function sparsePages(bytes) {
  const [, length, heapStart, pages] = words(bytes, 4);
  const heapBytes = length - heapStart;
  if (heapStart < 8 || heapStart > PAGE_BYTES || heapStart % 8 || heapBytes < 0
      || pages !== Math.ceil(heapBytes / PAGE_BYTES)) {
    throw new DamagedSnapshot("snapshot: a damaged sparse copy");
  }
  const bitmapStart = 16;
  let at = bitmapStart + ((((pages + 7) >> 3) + 7) & ~7);
  const header = bytes.subarray(at, at + heapStart);
  at += heapStart;
  const held = [];
  for (let page = 0; page < pages; page++) {
    const last = page === pages - 1;
    if (!last && !(bytes[bitmapStart + (page >> 3)] & (1 << (page & 7)))) continue;
    const size = last ? heapBytes - page * PAGE_BYTES : PAGE_BYTES;
    held.push([page, bytes.subarray(at, at + size)]);
    at += size;
  }
  if (at !== bytes.byteLength || header.byteLength !== heapStart) {
    throw new DamagedSnapshot("snapshot: a damaged sparse copy");
  }
  return { length, header, pages, held };
}

/** Where the heap's bytes start in a snapshot of either form; in a sparse
 * one, the first `covered` bytes of the heap must all be there. */
function heapOffset(snapshot, covered) {
  const view = new DataView(snapshot.buffer, snapshot.byteOffset, Math.min(16, snapshot.byteLength));
  if (view.getUint32(0, true) !== SPARSE_MAGIC) return view.getUint32(4, true);
  const heapStart = view.getUint32(8, true);
  const pages = view.getUint32(12, true);
  const bitmapBytes = (((pages + 7) >> 3) + 7) & ~7;
  for (let page = 0; page * PAGE_BYTES < covered; page++) {
    if (page >= pages || !(snapshot[16 + (page >> 3)] & (1 << (page & 7)))) {
      throw new DamagedSnapshot("snapshot: a sparse copy without the pages the wasm's data fill");
    }
  }
  return 16 + bitmapBytes + heapStart;
}

/** The whole snapshot (Pyodide's own form) of heapPages() (Node's check restores it). */
export function wholeSnapshot({ length, header, held }) {
  const out = new Uint8Array(length);
  out.set(header, 0);
  for (const [index, bytes] of held) out.set(bytes, header.byteLength + index * PAGE_BYTES);
  return out;
}

/** Write the heap's pages into the wasm memory `heap` (from address 0): the
 * held pages copied, the others left out where the memory is zero already
 * (at and above `used`, untouched by the runtime; below it, looked at).
 * Returns the counts { copied, zeroed, skipped }. */
export function copyHeapPages(heap, pages, used) {
  const memory = new Uint8Array(heap.buffer, heap.byteOffset, heap.byteLength);
  const memoryWords = new Uint32Array(heap.buffer, heap.byteOffset, heap.byteLength >> 2);
  const counts = { copied: 0, zeroed: 0, skipped: 0 };
  let next = 0; // the next held page
  for (let page = 0; page < pages.pages; page++) {
    const start = page * PAGE_BYTES;
    if (next < pages.held.length && pages.held[next][0] === page) {
      memory.set(pages.held[next][1], start);
      next += 1;
      counts.copied += 1;
    } else if (start < used && !pageIsZero(memoryWords, start >> 2)) {
      memory.fill(0, start, start + PAGE_BYTES);
      counts.zeroed += 1;
    } else {
      counts.skipped += 1;
    }
  }
  return counts;
}

/** Whether the wasm memory `heap` holds exactly the heap's pages (a test's check of the copy). */
export function holdsHeapPages(heap, pages) {
  const memory = new Uint8Array(heap.buffer, heap.byteOffset, heap.byteLength);
  const memoryWords = new Uint32Array(heap.buffer, heap.byteOffset, heap.byteLength >> 2);
  let next = 0;
  for (let page = 0; page < pages.pages; page++) {
    const start = page * PAGE_BYTES;
    if (next < pages.held.length && pages.held[next][0] === page) {
      const bytes = pages.held[next][1];
      for (let i = 0; i < bytes.byteLength; i++) if (memory[start + i] !== bytes[i]) return false;
      next += 1;
    } else if (!pageIsZero(memoryWords, start >> 2)) {
      return false;
    }
  }
  return true;
}
