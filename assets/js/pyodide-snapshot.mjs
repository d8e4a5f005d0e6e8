// PyScript's `interpreter` module (copied to vendor/pyodide/tessera-pyodide.mjs,
// next to pyodide.mjs, so Pyodide's indexURL stays that folder).
//
// It starts Pyodide from the build's memory snapshot (snapshot.bin.gz, made
// by scripts/make_snapshot.mjs): the interpreter and the engines come up
// already imported, which saves most of the start-up time.  The snapshot is
// fetched while Pyodide fetches its wasm.  If anything about it fails, Python
// starts the ordinary way: slower, never broken.
import { loadPyodide as loadPlain, version } from "./pyodide.mjs";

export { version };

async function fetchSnapshot() {
  const response = await fetch(new URL("./snapshot.bin.gz", import.meta.url));
  if (!response.ok) throw new Error(`snapshot: HTTP ${response.status}`);
  const plain = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(plain).arrayBuffer());
}

export async function loadPyodide(options = {}) {
  if ("DecompressionStream" in globalThis) {
    try {
      const pyodide = await loadPlain({ ...options, _loadSnapshot: fetchSnapshot() });
      globalThis.tesseraSnapshotUsed = true;
      return pyodide;
    } catch (error) {
      console.warn("Tessera: no memory snapshot, starting Python from scratch:", error);
    }
  }
  globalThis.tesseraSnapshotUsed = false;
  return loadPlain(options);
}
