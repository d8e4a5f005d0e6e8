// Build-time Pyodide memory snapshot (called by scripts/build_site.py).
//
// Usage: node scripts/make_snapshot.mjs REPO OUT.bin.gz
//
// Starting CPython inside WebAssembly is most of the page's start-up time.
// A snapshot of the interpreter's memory, taken here after the standard
// library modules and the engines are imported, lets the page skip that:
// site/vendor/pyodide/tessera-pyodide.mjs hands it to loadPyodide.
// The snapshot holds memory only, not files: the package is written to
// /home/pyodide/tessera (where PyScript unpacks tessera.zip) just so the
// imported modules carry the same paths they have in the page.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const [repo, out] = process.argv.slice(2);
if (!repo || !out) {
  console.error("usage: make_snapshot.mjs REPO OUT.bin.gz");
  process.exit(2);
}

const pyodide = await loadPyodide({ _makeSnapshot: true });
const { FS } = pyodide;

function copyTree(src, dst) {
  FS.mkdirTree(dst);
  for (const name of readdirSync(src).sort()) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const path = join(src, name);
    if (statSync(path).isDirectory()) copyTree(path, `${dst}/${name}`);
    else FS.writeFile(`${dst}/${name}`, readFileSync(path));
  }
}
copyTree(join(repo, "py", "tessera"), "/home/pyodide/tessera");

// Everything the first screen and a game need, but nothing that touches the
// page (tessera.ui imports js and pyscript, which only exist in the page).
pyodide.runPython(`
import asyncio, json, array, zlib, dataclasses, typing, abc, html, importlib, traceback
import pkgutil, sys
import tessera
for info in pkgutil.walk_packages(tessera.__path__, "tessera."):
    if not info.name.startswith(("tessera.ui", "tessera.cli", "tessera.__main__", "tessera.benchmarks")) \\
            and not info.name.endswith(".bench"):
        importlib.import_module(info.name)
import tessera.i18n
tessera.i18n.catalog()  # parsed here, so the page's first t() does not read 65 KB of JSON
`);
const snapshot = pyodide.makeMemorySnapshot();
writeFileSync(out, gzipSync(snapshot, { level: 6 }));
console.log(`snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB in memory, written gzipped to ${out}`);
