// Build-time Pyodide memory snapshot and the standard library the page gets
// (called by scripts/build_site.py).
//
// Usage: node scripts/make_snapshot.mjs REPO OUTDIR < LOADER_PYTHON
//   (LOADER_PYTHON: the loader's own Python, module _tessera_loader below)
//
// Writes into OUTDIR:
//   snapshot.bin.gz     the memory snapshot, gzipped
//   python_stdlib.zip   the standard library the page downloads: next to
//                       nothing, as every module it imports is in the snapshot
//   stdlib.json         the modules in the snapshot, and those that are not
//                       (the page's fallback importer finds these in
//                       python_stdlib_full.zip, Pyodide's own zip)
//   page_pyc.zip        bytecode of the package's modules the snapshot lacks
//                       (COMPILE_PACKAGE), for build_site.py to add to tessera.zip
//
// Starting CPython inside WebAssembly is most of the page's start-up time.
// A snapshot of the interpreter's memory, taken here after the standard
// library modules and the package are imported, lets the page skip that:
// site/vendor/pyodide/tessera-pyodide.mjs hands it to loadPyodide.
// The snapshot holds memory only, not files: the package is written to
// /home/pyodide/tessera (where PyScript unpacks tessera.zip) just so the
// imported modules carry the same paths they have in the page.
//
// The standard library: Pyodide's python_stdlib.zip (2.5 MB) is mostly
// modules the page never imports, and those it does import are already in
// the snapshot.  So the snapshot imports, besides the engines, every standard
// module the page will: those the package's sources name (any depth) and
// those PyScript and Pyodide import in the page (PAGE_MODULES).  The page then
// gets a python_stdlib.zip with none of them (the loader re-reads its table of
// contents after the restore); a module the snapshot lacks is still found,
// in python_stdlib_full.zip, by a fallback importer (FALLBACK_IMPORTER).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { spawnSync } from "node:child_process";

import { loadPyodide } from "./pyodide_runtime.mjs";

const [repo, outArg] = process.argv.slice(2);
if (!repo || !outArg) {
  console.error("usage: make_snapshot.mjs REPO OUTDIR < LOADER_PYTHON");
  process.exit(2);
}
const out = resolve(outArg);
mkdirSync(out, { recursive: true });

// Standard modules that PyScript's and Pyodide's own Python code (and the
// app's, through them) imports in the page, imported here so that they are in
// the snapshot: seen in sys.modules of real sessions (both games, rules pages,
// import/export).  A module missing here costs the page a fetch of
// python_stdlib_full.zip, never an error; the browser tests fail if a
// session needed it (tests/browser/test_startup.py).
const PAGE_MODULES = [
  "asyncio", "base64", "html", "html.entities", "inspect", "json", "dis", "ast",
  "linecache", "tokenize", "token", "textwrap", "traceback", "codeop", "pkgutil",
  "pathlib", "shutil", "tempfile", "zipfile", "zipfile._path", "zipfile._path.glob",
  "glob", "fnmatch", "bz2", "lzma", "compression.zstd", "random", "bisect",
  "encodings.cp437", "encodings.utf_8", "locale", "logging", "importlib.util",
  "importlib.abc", "importlib.machinery", "site", "socket", "ssl", "subprocess",
  "selectors", "signal", "threading", "contextvars", "concurrent.futures", "weakref",
];

function copyTree(FS, src, dst) {
  FS.mkdirTree(dst);
  for (const name of readdirSync(src).sort()) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const path = join(src, name);
    if (statSync(path).isDirectory()) copyTree(FS, path, `${dst}/${name}`);
    else FS.writeFile(`${dst}/${name}`, readFileSync(path));
  }
}

// Everything the first screen and a game need, the ui included, but nothing
// the page never runs: the command line, and the relay, a server program
// (with it the heap grew to 36 MiB, and a snapshot that size did not restore).
// - The ui's modules import `js`, which here is Node's global object: in a
//   snapshot, Pyodide keeps the module as a reference to "the global
//   object", the page's once restored.  None of them touches a JavaScript
//   object when imported (a module that did would fail here, or make the
//   snapshot refuse to be taken: the build stops either way).  In the page
//   they saved the import of their bytecode from tessera.zip and the writing
//   of it: from Python's start to the home screen took 130 ms instead of 247
//   on a first visit and 178 instead of 241 on a warm reload (medians of 5,
//   on a machine where a first visit's home screen took 1.7 s).
// - Parts only some screens need (the rules pages and their worked examples,
//   the bot's review of a finished game, a link's game) are left out: the
//   page imports them from the zip the first time it needs them.
// - The page writes the package's files only once its first screen is up
//   (pyodide-snapshot.mjs): a module that reads its own files (a catalog)
//   must read them when imported, so that the snapshot holds what it read.
// The heap must stay within the 30 MiB Pyodide starts with: past it, it grows
// to 36 MiB, and a snapshot that size does not restore ("offset is out of
// bounds").
const IMPORT_PACKAGE = `
import asyncio, json, array, zlib, dataclasses, typing, abc, html, importlib, traceback
import os, sys
LATER = (".bench", ".rules_page", ".examples", ".review", ".link_play")
ROOT = "/home/pyodide"
for base, dirs, files in os.walk(ROOT + "/tessera"):
    dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "relay"))
    for file in sorted(files):
        name = os.path.relpath(os.path.join(base, file), ROOT)[:-3].replace("/", ".")
        name = name[:-len(".__init__")] if name.endswith(".__init__") else name
        if file.endswith(".py") and not name.startswith(("tessera.cli", "tessera.__main__", "tessera.benchmarks")) \\
                and not name.endswith(LATER):
            importlib.import_module(name)
import tessera.core.registry  # the games add their own catalog parts
import tessera.i18n
tessera.i18n.catalog()  # parsed here, so the page's first t() does not read 65 KB of JSON
`;

// The standard modules the package's sources name: read with ast in a
// Pyodide of its own (SCANNER), since parsing every source takes memory the
// snapshot's heap would keep (wasm memory never shrinks: 36 MiB instead of
// 30, and a heap past what the page's Pyodide has when it restores does not
// restore).
const SCAN_IMPORTS = `
import ast, json, os

def imported_names(root):
    """Absolute module names the package's sources import (any depth); the command line
    and the relay (programs of their own, never run in the page) left out."""
    names = set()
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "relay"))
        for name in sorted(files):
            if not name.endswith(".py") or name in ("__main__.py", "bench.py") \\
                    or name.startswith(("benchmarks", "cli")):   # cli.py, cli_relay.py...
                continue
            with open(os.path.join(base, name), encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module)
                    names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names

json.dumps(sorted(imported_names("/home/pyodide/tessera") | imported_names("/home/pyodide/page")))
`;

// Import every standard module the page will, then write the page's zip.
const PAGE_STDLIB = `
import importlib, json, sys, zipfile

page_modules = json.loads(PAGE_MODULES_JSON)
stdlib_zip = next(p for p in sys.path if p.endswith(".zip"))
wanted = set(json.loads(SOURCE_MODULES_JSON)) | set(page_modules)
failed = []
for name in sorted(wanted):
    if name.split(".")[0] in ("tessera", "js", "pyodide_js", "pyscript", "polyscript", "_pyscript"):
        continue
    try:
        importlib.import_module(name)
    except ImportError:
        if "." not in name or name in page_modules:  # "from pkg import function" is no module
            failed.append(name)

def module_name(path):
    name = path[:-3].replace("/", ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name

prefix = stdlib_zip + "/"
in_snapshot = sorted({m.__spec__.origin[len(prefix):] for m in list(sys.modules.values())
                      if (getattr(getattr(m, "__spec__", None), "origin", None) or "").startswith(prefix)})
with zipfile.ZipFile(stdlib_zip) as full:
    infos = full.infolist()
    loaded = set(sys.modules)
    elsewhere = sorted({module_name(i.filename) for i in infos if i.filename.endswith(".py")} - loaded)
    # The page's zip: only what is read as a file rather than imported.
    with zipfile.ZipFile("/out/python_stdlib.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as small:
        for info in infos:
            if info.filename.startswith("_sysconfigdata"):
                small.writestr(info, full.read(info))

package_in_snapshot = sorted(name for name in sys.modules if name == "tessera" or name.startswith("tessera."))
json.dumps({"in_snapshot": in_snapshot, "fallback_modules": elsewhere, "not_found": failed,
            "files": len(infos), "package_in_snapshot": package_in_snapshot})
`;

// The page's fallback importer for the standard modules the snapshot lacks
// (all but those the page imports): it lives in the snapshot, as module
// _tessera_stdlib, so the page compiles no Python for it.  The loader calls
// install(mount, path) right after the restore; mount(name) fetches Pyodide's
// full python_stdlib.zip, writes it at path and is called at most once.
const FALLBACK_IMPORTER = `
import sys
import zipimport
from importlib.machinery import PathFinder

NAMES = frozenset()  # filled in by make_snapshot.mjs


class TesseraMoreStdlib:
    """Finds the standard modules the snapshot lacks, in python_stdlib_full.zip."""

    def __init__(self, names, mount, path):
        self.names = names
        self.mount = mount
        self.path = path
        self.stdlib = next((p for p in sys.path if p.endswith(".zip")), None)
        self.full = None

    def find_spec(self, name, path=None, target=None):
        if name not in self.names or self.stdlib is None:
            return None
        if self.full is None:
            try:
                self.mount(name)
            except Exception as error:
                raise ImportError(f"{name} is not in this page's standard library and "
                                  f"python_stdlib_full.zip could not be loaded: {error}", name=name) from None
            self.full = self.path
            sys.path_importer_cache.pop(self.full, None)
        if path is None:
            search = [self.full]
        else:
            search = [self.full + p[len(self.stdlib):] for p in path
                      if p == self.stdlib or p.startswith(self.stdlib + "/")]
        return PathFinder.find_spec(name, search, target) if search else None

    def invalidate_caches(self):
        pass


def install(mount, path):
    # The snapshot remembers the table of contents of the zip it was made
    # with; the page has another zip at that path: read it again.  (Not with
    # importlib.invalidate_caches(), which imports importlib.metadata.)
    stdlib = next((p for p in sys.path if p.endswith(".zip")), None)
    zipimport._zip_directory_cache.pop(stdlib, None)
    for importer in list(sys.path_importer_cache.values()):
        if isinstance(importer, zipimport.zipimporter):
            importer.invalidate_caches()
    if not any(isinstance(finder, TesseraMoreStdlib) for finder in sys.meta_path):
        finder = TesseraMoreStdlib(NAMES, mount, path)
        where = sys.meta_path.index(PathFinder) + 1 if PathFinder in sys.meta_path else len(sys.meta_path)
        sys.meta_path.insert(where, finder)
`;

// The loader's own Python (READ_ZIP, the reader of tessera.zip, and
// PYSCRIPT_PYC, which compiles PyScript's modules once the page is idle; in
// assets/js/pyodide-snapshot.mjs) is defined here too, as module
// _tessera_loader, so the page compiles none of it (loaderFunctions there
// says why).  build_site.py gives its source on the standard input, and
// remakes the snapshot when it changes.  The loader still compiles it after
// a start without the snapshot.

// main.py's text and its code, as Pyodide's runPythonAsync would compile it
// (file name "<exec>"), kept in _tessera_loader.
const COMPILE_MAIN = `
import sys
loader = sys.modules["_tessera_loader"]
loader.MAIN_SOURCE = SOURCE
loader.MAIN_CODE = compile(SOURCE, "<exec>", "exec", dont_inherit=True)
del loader
`;

// A module made from SOURCE and put in sys.modules as NAME.
const DEFINE_MODULE = `
import sys, types
module = types.ModuleType(NAME)
exec(compile(SOURCE, f"<{NAME}>", "exec"), module.__dict__)
sys.modules[NAME] = module
`;

function defineModule(pyodide, name, source) {
  const scope = pyodide.toPy({ NAME: name, SOURCE: source });
  pyodide.runPython(DEFINE_MODULE, { globals: scope });
  scope.destroy();
}

// The package's modules are compiled here, in the scanner's Pyodide, to
// bytecode of the page's Python, docstrings left out (the page never reads
// one): hash-based pycs that are never checked against their source (the
// source ships beside them, for tracebacks, and cannot change under a
// build), in each folder's __pycache__, where the import system looks.
// - The snapshot's Pyodide imports its modules from these files (copied
//   into its file system), so the snapshot holds no docstrings either.
// - Those the snapshot does not hold (the parts left for later) go to
//   page_pyc.zip, which build_site.py adds to tessera.zip: compiling them in
//   the page took 50-100 ms of the first screen's task and of the first
//   game's.
// The command line's modules, the benchmarks and the relay are left out:
// the page never runs them.
// PyScript's own modules are left for the page to compile, when it is idle
// (deferPyscriptImport in pyodide-snapshot.mjs).  They were left out so that
// the start did enough work for V8 to tier up the wasm and Chromium kept its
// compiled code for a new tab; the page no longer reads that code (it reads
// the kept wasm itself, without a URL), so shipping them compiled is worth
// measuring again.
const COMPILE_PACKAGE = `
import ast, importlib.util, json, os
from importlib._bootstrap_external import _code_to_hash_pyc

def without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \\
                    and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
    return tree

def module_of(rel):
    name = "tessera." + rel[:-3].replace("/", ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name

root = "/home/pyodide/tessera"
compiled = {}
for base, dirs, files in os.walk(root):
    dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "relay"))
    for name in sorted(files):
        rel = os.path.relpath(os.path.join(base, name), root).replace(os.sep, "/")
        if not name.endswith(".py") or rel.startswith(("cli", "__main__", "benchmarks")):   # the command line's
            continue
        with open(os.path.join(base, name), "rb") as fh:
            source = fh.read()
        tree = without_docstrings(ast.parse(source, os.path.join(base, name)))
        code = compile(tree, os.path.join(base, name), "exec", dont_inherit=True)
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
        folder, _, stem = ("tessera/" + rel).rpartition("/")
        path = f"{folder}/__pycache__/{stem[:-3]}.{sys.implementation.cache_tag}.pyc"
        os.makedirs("/home/pyodide/" + folder + "/__pycache__", exist_ok=True)
        with open("/home/pyodide/" + path, "wb") as fh:
            fh.write(pyc)
        compiled[module_of(rel)] = path
json.dumps(compiled)
`;

// page_pyc.zip: the bytecode of the package's modules the snapshot lacks.
const ZIP_LEFT_OUT = `
import json, zipfile
compiled = json.loads(COMPILED_JSON)
in_snapshot = set(json.loads(IN_SNAPSHOT_JSON))
left = sorted(path for name, path in compiled.items() if name not in in_snapshot)
with zipfile.ZipFile("/out/page_pyc.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for path in left:
        info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        with open("/home/pyodide/" + path, "rb") as fh:
            out.writestr(info, fh.read())
len(left)
`;

// Memory that is free when the snapshot is taken still holds old data (freed
// objects, the compiler's scratch space, dead stack frames): 1.3 MB of the
// gzipped snapshot.  Zero it: take every free block from the allocator (with
// the heap's size capped, so it cannot grow), clear it and give it back, and
// clear the stack below its current top.  Python never reads free memory.
function scrubFreeMemory(pyodide) {
  const M = pyodide._module;
  const needed = ["_malloc", "_free", "_malloc_footprint", "_malloc_footprint_limit", "_malloc_set_footprint_limit",
                  "_emscripten_stack_get_current", "_emscripten_stack_get_end"];
  if (!needed.every((name) => typeof M[name] === "function")) {
    console.warn("make_snapshot: allocator functions missing, free memory not cleared");
    return 0;
  }
  const size = M.HEAPU8.length;
  const limit = M._malloc_footprint_limit();
  const blocks = [];
  let cleared = 0;
  M._malloc_set_footprint_limit(M._malloc_footprint());
  try {
    for (let want = 1 << 24; want >= 8; want >>= 1) {
      for (let p = M._malloc(want); p; p = M._malloc(want)) {
        M.HEAPU8.fill(0, p, p + want);
        blocks.push(p);
        cleared += want;
      }
    }
  } finally {
    for (const p of blocks) M._free(p);
    M._malloc_set_footprint_limit(limit);
  }
  const top = M._emscripten_stack_get_current() - 4096;
  const end = M._emscripten_stack_get_end();
  if (top > end) {
    M.HEAPU8.fill(0, end, top);
    cleared += top - end;
  }
  if (M.HEAPU8.length !== size) throw new Error("make_snapshot: the heap grew while clearing free memory");
  return cleared;
}

function pageFiles(FS) {
  copyTree(FS, join(repo, "py", "tessera"), "/home/pyodide/tessera");
  FS.mkdirTree("/home/pyodide/page");
  FS.writeFile("/home/pyodide/page/main.py", readFileSync(join(repo, "py", "main.py")));
}

const scanner = await loadPyodide();
pageFiles(scanner.FS);
const sourceModules = scanner.runPython(SCAN_IMPORTS);
const compiled = JSON.parse(scanner.runPython("import sys\n" + COMPILE_PACKAGE));

const pyodide = await loadPyodide({ _makeSnapshot: true });
pageFiles(pyodide.FS);
for (const path of Object.values(compiled)) {   // the bytecode the snapshot's modules are imported from
  const folder = path.slice(0, path.lastIndexOf("/"));
  pyodide.FS.mkdirTree(`/home/pyodide/${folder}`);
  pyodide.FS.writeFile(`/home/pyodide/${path}`, scanner.FS.readFile(`/home/pyodide/${path}`));
}
pyodide.FS.mkdirTree("/out");
pyodide.runPython(IMPORT_PACKAGE);
const scope = pyodide.toPy({ PAGE_MODULES_JSON: JSON.stringify(PAGE_MODULES), SOURCE_MODULES_JSON: sourceModules });
const report = JSON.parse(pyodide.runPython(PAGE_STDLIB, { globals: scope }));
scope.destroy();
writeFileSync(join(out, "python_stdlib.zip"), pyodide.FS.readFile("/out/python_stdlib.zip"));
pyodide.FS.unlink("/out/python_stdlib.zip");
scanner.FS.mkdirTree("/out");
const zipScope = scanner.toPy({ COMPILED_JSON: JSON.stringify(compiled),
                                IN_SNAPSHOT_JSON: JSON.stringify(report.package_in_snapshot) });
const compiledModules = scanner.runPython(ZIP_LEFT_OUT, { globals: zipScope });
zipScope.destroy();
writeFileSync(join(out, "page_pyc.zip"), scanner.FS.readFile("/out/page_pyc.zip"));
const NAMES_PLACEHOLDER = "NAMES = frozenset()  # filled in by make_snapshot.mjs";
if (!FALLBACK_IMPORTER.includes(NAMES_PLACEHOLDER)) throw new Error("make_snapshot: FALLBACK_IMPORTER lost its NAMES line");
defineModule(pyodide, "_tessera_stdlib", FALLBACK_IMPORTER.replace(
  NAMES_PLACEHOLDER, `NAMES = frozenset(${JSON.stringify(report.fallback_modules)})`));   // JSON strings are Python's too
defineModule(pyodide, "_tessera_loader", readFileSync(0, "utf8"));
// The page's main.py, compiled here too: PyScript hands its text to
// runPythonAsync, and compiling it was the start's one compile, the first
// call of the wasm's parser and compiler (pyodide-snapshot.mjs, runMainCompiled).
const mainScope = pyodide.toPy({ SOURCE: readFileSync(join(repo, "py", "main.py"), "utf8") });
pyodide.runPython(COMPILE_MAIN, { globals: mainScope });
mainScope.destroy();
// Everything the snapshot holds lives as long as the page: frozen here, out of
// the collector's sight, rather than by the page's own gc.freeze() (tessera.ui.app),
// which then walked every one of these objects (its start() took 29-44 ms of a warm
// reload, 4-12 of them in gc.freeze, and 20-28 ms with them frozen here).
pyodide.runPython("import gc; gc.collect(); gc.freeze()");
const cleared = scrubFreeMemory(pyodide);
const snapshot = pyodide.makeMemorySnapshot();
writeFileSync(join(out, "snapshot.bin.gz"), gzipSync(snapshot, { level: 9 }));
writeFileSync(join(out, "stdlib.json"), JSON.stringify(report, null, 1));
const size = (name) => (statSync(join(out, name)).size / 1e6).toFixed(2);
// A snapshot that cannot be restored would only show in the page, as a slow
// start from scratch: try it now, in a Node process of its own.
const check = spawnSync(process.execPath, [join(repo, "scripts", "check_snapshot.mjs"), join(out, "snapshot.bin.gz")],
                        { encoding: "utf8" });
if (check.status !== 0) {
  console.error(`make_snapshot: the snapshot does not restore (${(snapshot.length / 1e6).toFixed(1)} MB in memory): ` +
                `${(check.stdout + check.stderr).trim().split("\n").slice(-3).join(" ")}`);
  process.exit(1);
}
console.log(`snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB in memory (${(cleared / 1e6).toFixed(1)} MB of it ` +
            `free and cleared), ${size("snapshot.bin.gz")} MB gzipped, ${report.in_snapshot.length} standard ` +
            `modules in it; ${compiledModules} package modules compiled for the page (${size("page_pyc.zip")} MB)` + (report.not_found.length ? `; not importable: ${report.not_found.join(", ")}` : ""));
