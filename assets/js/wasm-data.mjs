// The memory snapshot's mask (copied to vendor/pyodide/tessera-wasm-data.js;
// Node's scripts/check_snapshot.mjs imports this file itself).
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

/** XOR a dataMask into the heap of a Pyodide snapshot, in place (masks and unmasks). */
export function xorMask(snapshot, mask) {
  const header = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
  const heap = snapshot.subarray(header);
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
