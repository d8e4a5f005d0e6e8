// Does a memory snapshot made by make_snapshot.mjs restore?  Usage:
//   node scripts/check_snapshot.mjs SNAPSHOT.bin.gz
//   node scripts/check_snapshot.mjs SNAPSHOT.bin.br PYODIDE.ASM.WASM.BR
// The second form checks the files as the site ships them (scripts/build_site.py):
// both inflated with the decoder the page uses (brotli-dec-wasm), the wasm the
// same as Pyodide's, and the snapshot unmasked with it and its sparse pages
// laid out whole (assets/js/wasm-data.mjs).
// Exit 0 and one line when Python comes up from it and runs; 1 otherwise.
// Run on every snapshot made: Pyodide sizes the restored heap from the
// snapshot, and one that does not restore would show only in the page, as a
// start from scratch.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { heapPages, wholeSnapshot, xorDataSegments } from "../assets/js/wasm-data.mjs";

import { loadPyodide, RUNTIME_DIR } from "./pyodide_runtime.mjs";

const brotliDir = new URL("../node_modules/brotli-dec-wasm/pkg/", import.meta.url);
const brotli = await import(new URL("brotli_dec_wasm.js", brotliDir));
brotli.initSync({ module: readFileSync(new URL("brotli_dec_wasm_bg.wasm", brotliDir)) });

function inflate(path) {
  const started = performance.now();
  const plain = brotli.decompress(readFileSync(path));
  return { plain, ms: performance.now() - started };
}

try {
  const [snapshotPath, wasmPath] = process.argv.slice(2);
  let bytes;
  let note = "";
  if (wasmPath) {
    const [snapshot, wasm] = [inflate(snapshotPath), inflate(wasmPath)];
    const own = readFileSync(join(RUNTIME_DIR, "pyodide.asm.wasm"));
    if (Buffer.compare(Buffer.from(wasm.plain), own) !== 0) throw new Error("the inflated wasm is not Pyodide's");
    const sparse = xorDataSegments(snapshot.plain, wasm.plain); // as the page has it
    bytes = wholeSnapshot(heapPages(sparse)); // the heap the page's copy (copyHeapPages) leaves
    note = ` (shipped form: inflated in ${snapshot.ms.toFixed(0)} + ${wasm.ms.toFixed(0)} ms, unmasked;`
      + ` sparse: ${(sparse.byteLength / 1e6).toFixed(1)} of ${(bytes.byteLength / 1e6).toFixed(1)} MB)`;
  } else {
    bytes = gunzipSync(readFileSync(snapshotPath));
  }
  const pyodide = await loadPyodide({ _loadSnapshot: bytes });
  const modules = pyodide.runPython("import sys, tessera.core.registry; len(sys.modules)");
  console.log(`snapshot restores: ${modules} modules${note}`);
} catch (error) {
  console.log(`snapshot does not restore: ${String(error).split("\n")[0]}`);
  process.exit(1);
}
