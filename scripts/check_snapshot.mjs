// Does a memory snapshot made by make_snapshot.mjs restore?  Usage:
//   node scripts/check_snapshot.mjs SNAPSHOT.bin.gz
// Exit 0 and one line when Python comes up from it and runs; 1 otherwise.
// Run by make_snapshot.mjs on every snapshot it makes: Pyodide sizes the
// restored heap from the snapshot, and one that does not restore would show
// only in the page, as a start from scratch.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

try {
  const bytes = gunzipSync(readFileSync(process.argv[2]));
  const pyodide = await loadPyodide({ _loadSnapshot: bytes });
  const modules = pyodide.runPython("import sys, tessera.core.registry; len(sys.modules)");
  console.log(`snapshot restores: ${modules} modules`);
} catch (error) {
  console.log(`snapshot does not restore: ${String(error).split("\n")[0]}`);
  process.exit(1);
}
