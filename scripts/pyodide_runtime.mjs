// Pyodide's runtime as the site ships it, for the build's Node scripts
// (make_snapshot.mjs, check_snapshot.mjs): scripts/pyodide_runtime.py's
// patched copy, whose patches change how the function table is filled, which
// the snapshot's heap points into.  build_site.py gives its folder
// ($TESSERA_PYODIDE_DIR).
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const RUNTIME_DIR = process.env.TESSERA_PYODIDE_DIR;
if (!RUNTIME_DIR) {
  console.error("TESSERA_PYODIDE_DIR is not set: run this through scripts/build_site.py");
  process.exit(1);
}
export const { loadPyodide } = await import(pathToFileURL(join(RUNTIME_DIR, "pyodide.mjs")).href);
