// Run pytest inside Pyodide under Node.
//
//   node tests/pyodide/run_tests.mjs [pytest args...]     (default: tests/unit)
//
// Environment:
//   TESSERA_PYODIDE_DEPS  directory with pytest/hypothesis installed for
//                         Python 3.14 (default: <repo>/.pyodide-deps, made by
//                         ./build.sh test)
//
// The repo is mounted at the same absolute path inside Pyodide's file system,
// so relative test paths and tracebacks read the same as in CPython. The
// deps dir and <repo>/py go on sys.path; the working directory is the repo.
// Bytecode writing is disabled (no cpython-314 __pycache__ lands in the
// repo), pytest's cache provider is off, and hypothesis keeps its example
// database in Pyodide's in-memory /tmp, so nothing is written to the repo.
// The process exit code is pytest's exit code.

import path from "node:path";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

import { repo, pyodideDir } from "./node_pyodide.mjs";

const depsDir = path.resolve(process.env.TESSERA_PYODIDE_DEPS || path.join(repo, ".pyodide-deps"));

function die(msg) {
  process.stderr.write(`run_tests.mjs: ${msg}\n`);
  process.exit(3);
}

if (!fs.existsSync(path.join(pyodideDir, "pyodide.mjs"))) {
  die(`${pyodideDir}/pyodide.mjs missing: run npm ci (./build.sh build)`);
}
if (!fs.existsSync(path.join(depsDir, "pytest"))) {
  die(`pytest not found in ${depsDir}: run ./build.sh test (it installs the Pyodide test deps)`);
}

const args = process.argv.slice(2);
const pytestArgs = args.length ? args : ["tests/unit"];

const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const t0 = performance.now();
const pyodide = await loadPyodide({
  indexURL: pyodideDir + path.sep,
  env: {
    PYTHONDONTWRITEBYTECODE: "1",
    HOME: "/home/pyodide",
    HYPOTHESIS_STORAGE_DIRECTORY: "/tmp/hypothesis",
  },
});
// Unbuffered pass-through so pytest's progress dots appear as they happen.
pyodide.setStdout({ write: (buf) => { process.stdout.write(buf); return buf.length; } });
pyodide.setStderr({ write: (buf) => { process.stderr.write(buf); return buf.length; } });

function mount(dir) {
  pyodide.FS.mkdirTree(dir);
  pyodide.mountNodeFS(dir, dir);
}
mount(repo);
mount(depsDir);
// Absolute test paths outside the repo (e.g. a temp dir) are mounted too.
for (const a of pytestArgs) {
  const p = a.split("::")[0];
  if (!path.isAbsolute(p) || !fs.existsSync(p)) continue;
  const dir = fs.statSync(p).isDirectory() ? p : path.dirname(p);
  if ([repo, depsDir].some((m) => dir === m || dir.startsWith(m + path.sep))) continue;
  mount(dir);
}

pyodide.globals.set("REPO", repo);
pyodide.globals.set("DEPS", depsDir);
pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(pytestArgs));
pyodide.globals.set("BOOT_SECONDS", (performance.now() - t0) / 1000);

let code;
try {
  code = await pyodide.runPythonAsync(`
import os, sys, tempfile
sys.dont_write_bytecode = True
sys.path[:0] = [DEPS, os.path.join(REPO, "py")]
print(f"Pyodide {sys.version.split()[0]} ({sys.platform}), booted in {BOOT_SECONDS:.1f}s", flush=True)
os.chdir(REPO)
import pytest
int(pytest.main(["-p", "no:cacheprovider", "-c", os.path.join(REPO, "pytest.ini"),
                 "--rootdir", REPO, *PYTEST_ARGS]))
`);
} catch (err) {
  process.stderr.write(`run_tests.mjs: Python raised: ${err}\n`);
  code = 1;
}
process.exitCode = code;
// Pyodide can keep handles open; leave explicitly once output is flushed.
process.stdout.write("", () => process.exit(code));
