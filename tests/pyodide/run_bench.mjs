// Run the engine benchmarks inside Pyodide under Node.
//
//   node tests/pyodide/run_bench.mjs [--quick]
//
// Calls tessera.benchmarks.run_all(quick) with <repo>/py on sys.path and
// prints ONE line of JSON on stdout:
//   {"python": "3.14.2", "boot_seconds": 3.1, "results": [{"name", "value", "unit"}, ...]}
// or, when tessera.benchmarks does not exist yet:
//   {"python": ..., "error": "..."}  (exit code 2)
// Anything Python itself prints goes to stderr, so stdout stays parseable.

import path from "node:path";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

import { repo, pyodideDir } from "./node_pyodide.mjs";

const quick = process.argv.includes("--quick");

if (!fs.existsSync(path.join(pyodideDir, "pyodide.mjs"))) {
  process.stderr.write(`run_bench.mjs: ${pyodideDir}/pyodide.mjs missing: run npm ci (./build.sh build)\n`);
  process.exit(3);
}

const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const t0 = performance.now();
const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep, env: { PYTHONDONTWRITEBYTECODE: "1" } });
const bootSeconds = (performance.now() - t0) / 1000;
const toStderr = { write: (buf) => { process.stderr.write(buf); return buf.length; } };
pyodide.setStdout(toStderr);
pyodide.setStderr(toStderr);

const pyDir = path.join(repo, "py");
pyodide.FS.mkdirTree(pyDir);
pyodide.mountNodeFS(pyDir, pyDir);
pyodide.globals.set("PY_DIR", pyDir);
pyodide.globals.set("QUICK", quick);
pyodide.globals.set("BOOT_SECONDS", bootSeconds);

let out;
let code = 0;
try {
  out = await pyodide.runPythonAsync(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, PY_DIR)
info = {"python": sys.version.split()[0], "boot_seconds": round(BOOT_SECONDS, 3)}
try:
    from tessera import benchmarks
except ImportError as exc:
    info["error"] = f"tessera.benchmarks not importable: {exc}"
else:
    info["results"] = [
        {"name": str(r["name"]), "value": float(r["value"]), "unit": str(r["unit"])}
        for r in benchmarks.run_all(bool(QUICK))
    ]
json.dumps(info)
`);
  if (JSON.parse(out).error) code = 2;
} catch (err) {
  out = JSON.stringify({ error: `Python raised: ${err}` });
  code = 1;
}
process.stdout.write(out + "\n", () => process.exit(code));
