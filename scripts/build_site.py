#!/usr/bin/env python3
"""Assemble the static site into site/ (called by ``./build.sh build``).

Layout produced (all URLs relative, so the site works from any sub-path):

    site/index.html            repo index.html
    site/pyscript.toml         repo pyscript.toml
    site/main.py               repo py/main.py
    site/tessera.zip           py/tessera/ as tessera/..., with the page's bytecode of the
                               modules the snapshot lacks in __pycache__ (``add_bytecode``),
                               its members stored and the whole in one zstd frame (``frame_zip``)
    site/assets/**             repo assets/ (without sw.js)
    site/sw.js                 assets/sw.js with build version + precache list
    site/manifest.json         the web app manifest (MANIFEST), so the site installs
    site/assets/icons/         its icons, drawn by scripts/site_icons.py (SVG, PNG 192 and 512)
    site/vendor/pyodide/       the Pyodide runtime files (modules as .js; the wasm also as .br), the
                               loader (tessera-pyodide.js), its worker and its unmasking module,
                               the memory snapshot (snapshot.bin.br), the page's standard
                               library zip and Pyodide's full one
    site/vendor/brotli/        the brotli decoder the page inflates both with (npm brotli-dec-wasm)
    site/vendor/pyscript/      PyScript core.js, core.css and the chunks they import
    site/embed.js              assets/js/embed.js, the <tessera-board> element (build_embed)
    site/embed.html            repo embed.html: one board for an iframe
    site/examples/             repo examples/, each board's picture drawn in at build time

The service worker precaches what the page uses, not every file: PyScript
chunks that load only on demand (code editor, terminal, package graph,
archives) and python_stdlib_full.zip stay on the host, fetched (and then
cached) if ever asked for.

The output is deterministic: building twice from the same inputs gives
byte-identical files (and so the same service-worker version).

Any static host, any sub-path: every URL the page, its config and the
manifest name is relative ("./..."), which the build checks
(``check_relative_urls``), and nothing needs a server header.
"""

from __future__ import annotations

import concurrent.futures
import gzip
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import site_icons  # noqa: E402  (scripts/site_icons.py)
from pyodide_runtime import PatchError, patched_pyodide  # noqa: E402  (scripts/pyodide_runtime.py)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SITE = os.path.join(ROOT, "site")
NODE_MODULES = os.path.join(ROOT, "node_modules")

PYODIDE_FILES = {
    "pyodide.mjs": "pyodide.js",
    "pyodide.asm.mjs": "pyodide.asm.js",
    "pyodide.asm.wasm": "pyodide.asm.wasm",
}
"""Pyodide's runtime files and their names in the site.  Its ES modules end
in ``.js`` there, the one ending every static host serves as JavaScript:
stock nginx, for one, sends ``.mjs`` as application/octet-stream, and a
browser refuses a module sent so.  ``pyodide.js`` names ``pyodide.asm.js``
(``PYODIDE_RENAMED``), and our own modules are written with ``.js`` names too."""
PYODIDE_RENAMED = ("pyodide.asm.mjs", "pyodide.asm.js")
"""The one place pyodide.mjs names a module of its own (it imports it by URL)."""
SNAPSHOT_FILES = ["snapshot.bin.gz", "python_stdlib.zip"]
"""Made by scripts/make_snapshot.mjs (and kept in the build cache); python_stdlib.zip is
copied to vendor/pyodide/, the snapshot is shipped as SHIPPED_SNAPSHOT."""
SHIPPED_SNAPSHOT = "snapshot.bin.br"
"""The snapshot as the site ships it: pyodide.asm.wasm's data segments XORed out of its
heap (``mask_snapshot``), its zero pages left out (``sparse_snapshot``), then brotli
(``squeeze``); kept beside the snapshot as SPARSE_SNAPSHOT."""
SPARSE_SNAPSHOT = "snapshot.sparse.bin.br"
"""SHIPPED_SNAPSHOT's name in the snapshot cache (a name of its own: a cache made before
the sparse form has a whole snapshot, and one made before brotli an xz'd one)."""
SHIPPED_WASM = "pyodide.asm.wasm.br"
"""pyodide.asm.wasm as the page fetches it; the plain file stays on the host (not
precached) for a page that cannot inflate it."""
BROTLI_DECODER = ("brotli-dec-wasm", ("pkg/brotli_dec_wasm.js", "pkg/brotli_dec_wasm_bg.wasm"))
"""The npm package that inflates brotli in the page (a wasm build of the Rust
brotli-decompressor), and the two files of its browser build (vendor/brotli/).

Both files ship as brotli, not xz: at the strongest settings 3.71 and 2.77
MB, 0.19 MB more than xz -9e, but its decoder inflates them 3.5-4 times
faster in Chromium (65-70 and 41 ms alone, against the xz decoder's 230-245
and 172), and while a first visit inflates, the two cores are what the page
waits for: its home screen was ready at 1,078 ms instead of 1,216 (medians
of 8 fresh profiles; 1,145 with only the snapshot as brotli).  ``frame_zip``
pays for the bytes."""
COMPILED_MODULES = "page_pyc.zip"
"""Made with the snapshot: bytecode of the modules it lacks, added to tessera.zip (``add_bytecode``)."""
FULL_STDLIB = "python_stdlib_full.zip"
"""Pyodide's own python_stdlib.zip, for a start without the snapshot and for
modules the snapshot lacks (the loader's fallback importer)."""
NOT_PRECACHED = {"vendor/pyodide/" + FULL_STDLIB, "vendor/pyodide/pyodide.asm.wasm"}
"""Files a page loads only when something goes off the usual path."""
PYSCRIPT_ENTRIES = ["core.js", "core.css"]
PYSCRIPT_ON_DEMAND = ("codemirror", "pyodide_graph", "zip")
"""Chunks the core loads only for a feature the app does not use (the code
editor, the packages graph, archives of packages).  The page loads core.js, the
core chunk and what the core chunk names (its plugins, the TOML parser) but for
these; a plugin's own chunks (terminal, editor) load only when the page has
such an element, which it never has.  tests/browser/test_startup.py checks this
against the requests of real sessions."""
SNAPSHOT_LOADER = "js/pyodide-snapshot.mjs"
"""Source of vendor/pyodide/tessera-pyodide.js, PyScript's ``interpreter``."""
SNAPSHOT_WORKER = "js/pyodide-snapshot-worker.mjs"
"""Source of vendor/pyodide/tessera-snapshot-worker.js, which inflates the snapshot and the wasm."""
WASM_DATA = "js/wasm-data.mjs"
"""Source of vendor/pyodide/tessera-wasm-data.js, which unmasks the snapshot (see mask_snapshot)."""
SNAPSHOT_CACHE = os.environ.get("TESSERA_BUILD_CACHE") or os.path.join(ROOT, ".build-cache")
"""Where snapshots are kept between builds; ``$TESSERA_BUILD_CACHE`` gives a private one."""
RUNTIME_CACHE = "runtime"
"""The folder in SNAPSHOT_CACHE with Pyodide's runtime as patched (pyodide_runtime.py)."""

MANIFEST = {
    "name": "Tessera",
    "short_name": "Tessera",
    "description": "Rare abstract board games in your browser, offline, with bots.",
    "lang": "en",
    # Relative to the manifest, which sits beside index.html: the site's own
    # folder, whatever sub-path the host puts it under.
    "start_url": ".",
    "scope": ".",
    "display": "standalone",
    "theme_color": site_icons.BACKGROUND,
    "background_color": site_icons.BACKGROUND,
}
"""The web app manifest (site/manifest.json; ``icons`` is added by the build).
A ``.json`` name, not ``.webmanifest``: every host knows its type."""
ICONS_DIR = "assets/icons"

SERVER_ONLY = ("relay",)
"""Folders of the package the page never imports (the relay is a server program), left out of its zip."""
SKIP_DIRS = {"__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache"}
SKIP_SUFFIXES = (".pyc", ".pyo", ".map", "~", ".swp")
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def fail(msg: str) -> None:
    print(f"build: error: {msg}", file=sys.stderr)
    sys.exit(1)


def wanted(name: str) -> bool:
    return not name.startswith(".") and not name.endswith(SKIP_SUFFIXES)


def walk_files(base: str):
    """Yield paths relative to base, sorted, skipping caches and hidden files."""
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if wanted(name):
                yield os.path.relpath(os.path.join(dirpath, name), base)


def copy(src: str, dst: str) -> None:
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)


def make_zip(src_dir: str, arc_root: str, dst: str, leave_out: tuple[str, ...] = ()) -> int:
    """Zip ``src_dir`` under ``arc_root``, but for the top-level folders ``leave_out``,
    its members stored (``frame_zip`` compresses the whole)."""
    count = 0
    with zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_STORED) as zf:
        for rel in walk_files(src_dir):
            if rel.split(os.sep, 1)[0] in leave_out:
                continue
            arcname = arc_root + "/" + rel.replace(os.sep, "/")
            info = zipfile.ZipInfo(arcname, date_time=ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_STORED
            with open(os.path.join(src_dir, rel), "rb") as fh:
                zf.writestr(info, fh.read())
            count += 1
    return count


LOCAL_REF = re.compile(r"""["'`]\./([A-Za-z0-9_.\-]+\.(?:m?js|css))["'`]""")


def rename_pyodide_module(path: str) -> None:
    """Make the site's pyodide.js import pyodide.asm.js (``PYODIDE_RENAMED``)."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    old, new = PYODIDE_RENAMED
    if text.count(old) != 1:
        fail(f"{path}: expected to name {old} exactly once (a new Pyodide version? see PYODIDE_FILES)")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace(old, new))


def pyscript_closure(dist: str) -> list[str]:
    """core.js, core.css and every local chunk they reference (transitively)."""
    todo = list(PYSCRIPT_ENTRIES)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = os.path.join(dist, name)
        if not os.path.isfile(path):
            fail(f"PyScript file {name} missing from {dist} (npm ci?)")
        seen.add(name)
        if name.endswith((".js", ".mjs")):
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for ref in LOCAL_REF.findall(text):
                if os.path.isfile(os.path.join(dist, ref)) and ref not in seen:
                    todo.append(ref)
    return sorted(seen)


def add_bytecode(package_zip: str, compiled_zip: str) -> int:
    """Add to ``package_zip`` the page's bytecode (``page_pyc.zip``, see
    make_snapshot.mjs's COMPILE_PACKAGE and ZIP_LEFT_OUT) of the sources it holds; returns how many."""
    added = 0
    with zipfile.ZipFile(package_zip) as package:
        sources = set(package.namelist())
    with zipfile.ZipFile(compiled_zip) as compiled, \
            zipfile.ZipFile(package_zip, "a", compression=zipfile.ZIP_STORED) as package:
        for info in compiled.infolist():
            folder, _, name = info.filename.rpartition("/__pycache__/")
            if f"{folder}/{name.split('.')[0]}.py" in sources:
                body = compiled.read(info)
                info.compress_type = zipfile.ZIP_STORED
                package.writestr(info, body)
                added += 1
    return added


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def frame_zip(path: str) -> None:
    """Replace the zip at ``path`` (its members stored) by one zstd frame of it.

    Compressed whole, tessera.zip is 0.67 MB instead of 0.99 with each member
    deflated: the modules share most of their words.  The page's loader
    inflates the frame with Python's own zstd as it reads the zip's local
    headers (assets/js/pyodide-snapshot.mjs, READ_ZIP, which says why that is
    quicker too, and why the frame has its checksum: scripts/zstd.mjs).  The
    name stays: PyScript picks the unpacking by it.

    Measured against a gzip frame (0.85 MB), which the page inflated with the
    browser's DecompressionStream as it came and wrote from JavaScript: the
    unpacking took 11-13 ms instead of 50, but a first visit's home screen
    was ready at 801 ms against 812 (medians of 8) and warm reloads at 306
    against 309 ms, for 180 KB more on the wire: not kept.
    """
    with open(path, "rb") as fh:
        plain = fh.read()
    compress_in_node("zstd.mjs", plain, path)
    with open(path, "rb") as fh:
        if fh.read(4) != ZSTD_MAGIC:
            fail(f"{path}: not a zstd frame")


def compress_in_node(script: str, plain: bytes, out: str) -> None:
    """``plain`` compressed into ``out`` by ``scripts/<script>`` (``node SCRIPT OUT < IN``):
    the build's Python is the system's, which has neither brotli nor zstd."""
    result = subprocess.run(["node", os.path.join(ROOT, "scripts", script), out], input=plain, capture_output=True)
    if result.returncode != 0:
        fail(f"{script} failed: {result.stderr.decode(errors='replace')}")


def loader_python() -> str:
    """The loader's own Python (READ_ZIP, PYSCRIPT_PYC), which make_snapshot.mjs
    (given it on its standard input) compiles into the snapshot as module
    _tessera_loader."""
    with open(os.path.join(ROOT, "assets", SNAPSHOT_LOADER), encoding="utf-8") as fh:
        loader = fh.read()
    sources = []
    for name in ("READ_ZIP", "PYSCRIPT_PYC"):
        opening = f"const {name} = `"
        start = loader.find(opening)
        end = loader.find("\n`;", start)
        if start < 0 or end < 0:
            fail(f"{SNAPSHOT_LOADER} must define {name} as a template literal")
        sources.append(loader[start + len(opening):end + 1])
    return "\n".join(sources)


def make_snapshot(dst_dir: str, pyodide_dir: str) -> tuple[dict, str]:
    """The memory snapshot and the split standard library, remade only when their inputs change.

    A snapshot's bytes differ from run to run, so reusing it when nothing
    changed keeps the build deterministic (same service-worker version, no
    re-download).  The page's python_stdlib.zip is kept with it.
    Returns make_snapshot.mjs's report (stdlib.json) and the cache folder it is kept in.
    """
    inputs = hashlib.sha256()
    for path in [os.path.join(ROOT, "scripts", "make_snapshot.mjs"), os.path.join(ROOT, "package-lock.json"),
                 os.path.join(ROOT, "py", "main.py")]:
        with open(path, "rb") as fh:
            inputs.update(fh.read())
    loader_source = loader_python()
    inputs.update(loader_source.encode())   # compiled into the snapshot too (make_snapshot.mjs)
    inputs.update(os.path.basename(pyodide_dir).encode())   # the runtime and its patches (pyodide_runtime.py)
    pkg = os.path.join(ROOT, "py", "tessera")
    for rel in walk_files(pkg):
        inputs.update(rel.encode() + b"\0")
        with open(os.path.join(pkg, rel), "rb") as fh:
            inputs.update(hashlib.sha256(fh.read()).digest())
    cached = os.path.join(SNAPSHOT_CACHE, inputs.hexdigest()[:20])
    if not all(os.path.isfile(os.path.join(cached, name)) for name in SNAPSHOT_FILES + ["stdlib.json", COMPILED_MODULES]):
        os.makedirs(SNAPSHOT_CACHE, exist_ok=True)
        prune_snapshot_cache()
        making = f"{cached}.tmp{os.getpid()}"   # two builds at once (a test builds a site) each make their own
        result = subprocess.run(["node", os.path.join(ROOT, "scripts", "make_snapshot.mjs"), ROOT, making],
                                input=loader_source, capture_output=True, text=True, env=runtime_env(pyodide_dir))
        if result.returncode != 0:
            shutil.rmtree(making, ignore_errors=True)
            fail(f"making the Pyodide snapshot failed:\n{result.stdout}{result.stderr}")
        shutil.rmtree(cached, ignore_errors=True)
        os.replace(making, cached)
    copy(os.path.join(cached, "python_stdlib.zip"), os.path.join(dst_dir, "python_stdlib.zip"))
    with open(os.path.join(cached, "stdlib.json"), encoding="utf-8") as fh:
        return json.load(fh), cached


def runtime_env(pyodide_dir: str) -> dict[str, str]:
    """The environment for make_snapshot.mjs and check_snapshot.mjs: they load
    the runtime the site ships (``TESSERA_PYODIDE_DIR``, pyodide_runtime.py)."""
    return {**os.environ, "TESSERA_PYODIDE_DIR": pyodide_dir}


def wasm_data_segments(wasm: bytes) -> list[tuple[int, int, int]]:
    """(heap offset, offset in the file, length) of each active data segment of a wasm module."""
    pos = 8

    def leb() -> int:
        nonlocal pos
        value = shift = 0
        while True:
            byte = wasm[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    while pos < len(wasm):
        section = wasm[pos]
        pos += 1
        size = leb()
        end = pos + size
        if section == 11:
            segments = []
            for _ in range(leb()):
                flags = leb()
                offset = None
                if flags in (0, 2):   # active: (memory index), i32.const offset, end
                    if flags == 2:
                        leb()
                    if wasm[pos] != 0x41:
                        fail("pyodide.asm.wasm: a data segment's offset is not an i32.const")
                    pos += 1
                    offset = leb()
                    if wasm[pos] != 0x0B:
                        fail("pyodide.asm.wasm: a data segment's offset expression is too long")
                    pos += 1
                length = leb()
                if offset is not None:
                    segments.append((offset, pos, length))
                pos += length
            return segments
        pos = end
    return []


def mask_snapshot(snapshot: bytes, wasm: bytes) -> bytes:
    """The snapshot with the wasm's data segments XORed out of its heap.

    A Pyodide heap starts as a copy of the wasm's data segments (3.2 MB, most
    of which never change): XORed with them, those bytes become zeros, and the
    xz'd snapshot 1.0 MB smaller (3.66 MB instead of 4.63; alike with brotli, as shipped).  The page XORs
    them back in from the wasm it loads anyway (assets/js/wasm-data.mjs).
    """
    header = int.from_bytes(snapshot[4:8], "little")   # Pyodide's header: magic, its length, ...
    out = bytearray(snapshot)
    for offset, at, length in wasm_data_segments(wasm):
        start = header + offset
        if start + length > len(out):
            fail("pyodide.asm.wasm has a data segment beyond the snapshot's heap")
        mixed = int.from_bytes(out[start:start + length], "little") ^ int.from_bytes(wasm[at:at + length], "little")
        out[start:start + length] = mixed.to_bytes(length, "little")
    return bytes(out)


SPARSE_MAGIC = 0x70737374
PAGE_BYTES = 4096


def sparse_snapshot(snapshot: bytes, keep_below: int) -> bytes:
    """The snapshot in the sparse form the page reads (assets/js/wasm-data.mjs,
    ``heapPages``): its heap's pages of zeros left out, but for those below
    ``keep_below`` (the heap's offset), where the page XORs the data segments
    back in, and the last one.

    Nearly half of the heap is zero pages: left out, the page's decoder
    writes 17 MB instead of 31 (xz in Node: 258 ms instead of 318).  The layout,
    32-bit little-endian words [SPARSE_MAGIC, the whole snapshot's length,
    where its heap starts, the heap's page count], a bitmap of the pages kept
    (padded to 8 bytes), Pyodide's header, then the pages kept, in order.
    """
    heap_start = int.from_bytes(snapshot[4:8], "little")
    heap = memoryview(snapshot)[heap_start:]
    pages = -(-len(heap) // PAGE_BYTES)
    bitmap = bytearray((((pages + 7) >> 3) + 7) & ~7)
    kept = []
    zero = bytes(PAGE_BYTES)
    for page in range(pages):
        start = page * PAGE_BYTES
        body = heap[start:start + PAGE_BYTES]
        if page == pages - 1 or start < keep_below or body != zero:
            bitmap[page >> 3] |= 1 << (page & 7)
            kept.append(body)
    head = b"".join(value.to_bytes(4, "little") for value in (SPARSE_MAGIC, len(snapshot), heap_start, pages))
    return b"".join([head, bytes(bitmap), snapshot[:heap_start], *kept])


def data_segments_end(wasm: bytes) -> int:
    """Where the wasm's data segments end in the heap: the page XORs them back in below it."""
    return max((offset + length for offset, _, length in wasm_data_segments(wasm)), default=0)


def snapshot_size(cached: str) -> int:
    """The inflated snapshot's length: the page sizes Python's heap with it before the bytes come.

    Read from the gzip member's trailer (ISIZE, the length modulo 2**32; the
    heap is far below 4 GB), not by inflating 31 MB on every build.
    """
    with open(os.path.join(cached, "snapshot.bin.gz"), "rb") as fh:
        fh.seek(-4, os.SEEK_END)
        return int.from_bytes(fh.read(4), "little")


def shipped_runtime(cached: str, pyodide_dir: str, dst_dir: str) -> None:
    """SHIPPED_SNAPSHOT and SHIPPED_WASM into dst_dir, made once per snapshot (kept beside it).

    Brotli at its strongest (``squeeze``) takes about 25 s for the two (in
    parallel); a new one is checked to restore, as the page restores it
    (scripts/check_snapshot.mjs), with the runtime in ``pyodide_dir``.
    """
    with open(os.path.join(pyodide_dir, "pyodide.asm.wasm"), "rb") as fh:
        wasm = fh.read()
    shipped_as = {SPARSE_SNAPSHOT: SHIPPED_SNAPSHOT, SHIPPED_WASM: SHIPPED_WASM}
    missing = [name for name in shipped_as if not os.path.isfile(os.path.join(cached, name))]
    if missing:
        with open(os.path.join(cached, "snapshot.bin.gz"), "rb") as fh:
            sources = {SPARSE_SNAPSHOT: lambda: sparse_snapshot(mask_snapshot(gzip.decompress(fh.read()), wasm),
                                                                data_segments_end(wasm)),
                       SHIPPED_WASM: lambda: wasm}
            plain = {name: sources[name]() for name in missing}
        with concurrent.futures.ThreadPoolExecutor(2) as pool:   # each a node process
            made = dict(zip(missing, pool.map(lambda name: squeeze(plain[name], os.path.join(cached, name)),
                                              missing)))
        check = subprocess.run(["node", os.path.join(ROOT, "scripts", "check_snapshot.mjs"),
                                made.get(SPARSE_SNAPSHOT, os.path.join(cached, SPARSE_SNAPSHOT)),
                                made.get(SHIPPED_WASM, os.path.join(cached, SHIPPED_WASM))],
                               capture_output=True, text=True, env=runtime_env(pyodide_dir))
        if check.returncode != 0:
            for path in made.values():
                os.remove(path)
            fail(f"the shipped snapshot does not restore:\n{check.stdout}{check.stderr}")
        for name, path in made.items():
            os.replace(path, os.path.join(cached, name))
    for name in shipped_as:
        copy(os.path.join(cached, name), os.path.join(dst_dir, shipped_as[name]))


SHIPPED_MAGIC = ((0x00, 0x61, 0x73, 0x6D), (0x00, 0x73, 0x6E, 0x70), (0x74, 0x73, 0x73, 0x70))
"""The first bytes of an inflated wasm, snapshot and sparse snapshot: the page
uses a body that starts so as it is (a host that sent it inflated)."""


def squeeze(plain: bytes, path: str) -> str:
    """``plain`` compressed with brotli at its strongest (quality 11, a 16 MB
    window) into ``path`` + ``.tmp<pid>``, by Node's zlib; returns that path."""
    making = f"{path}.tmp{os.getpid()}"
    compress_in_node("brotli.mjs", plain, making)
    with open(making, "rb") as fh:
        if tuple(fh.read(4)) in SHIPPED_MAGIC:   # the page would take it for the file itself
            fail(f"{path}: compressed bytes that look inflated")
    return making


def vendor_brotli_decoder(dst_dir: str) -> None:
    """BROTLI_DECODER's two files into dst_dir, the module with a line that says what it is."""
    package, files = BROTLI_DECODER
    with open(os.path.join(NODE_MODULES, package, "package.json"), encoding="utf-8") as fh:
        meta = json.load(fh)
    for rel in files:
        src = os.path.join(NODE_MODULES, package, *rel.split("/"))
        if not os.path.isfile(src):
            fail(f"{src} missing (npm ci?)")
        dst = os.path.join(dst_dir, os.path.basename(rel))
        if rel.endswith(".js"):
            with open(src, encoding="utf-8") as fh:
                code = fh.read()
            os.makedirs(dst_dir, exist_ok=True)
            with open(dst, "w", encoding="utf-8") as fh:
                fh.write(f"// {package} {meta['version']} ({meta['license']}), {rel} (scripts/build_site.py).\n")
                fh.write(code.rstrip() + "\n")
        else:
            copy(src, dst)


SNAPSHOTS_KEPT = 3
"""Snapshots the cache keeps: the newest, so that switching branches back and forth
does not remake them, and a build running at the same time keeps its own."""


def prune_snapshot_cache() -> None:
    entries = [os.path.join(SNAPSHOT_CACHE, name) for name in os.listdir(SNAPSHOT_CACHE) if name != RUNTIME_CACHE]
    entries.sort(key=lambda path: os.path.getmtime(path) if os.path.exists(path) else 0, reverse=True)
    for old in entries[SNAPSHOTS_KEPT - 1:]:
        try:
            if ".tmp" not in old or time.time() - os.path.getmtime(old) > 3600:   # a fresh .tmp is being made
                shutil.rmtree(old, ignore_errors=True) if os.path.isdir(old) else os.remove(old)
        except OSError:   # another build removed it first
            pass


def trimmed_lock(src: str, dst: str) -> None:
    """pyodide-lock.json without its packages: the app loads none (119 KB less to fetch)."""
    with open(src, encoding="utf-8") as fh:
        lock = json.load(fh)
    lock["packages"] = {}
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w", encoding="utf-8") as fh:
        json.dump(lock, fh, separators=(",", ":"), sort_keys=True)


def pyscript_runtime(dist: str, files: list[str]) -> list[str]:
    """The PyScript files the page loads: see PYSCRIPT_ON_DEMAND."""
    def stem(name: str) -> str:
        return re.sub(r"-[A-Za-z0-9_-]{8}\.(m?js|css)$", "", name)

    core = [name for name in files if stem(name) == "core" and name.endswith(".js") and name != "core.js"]
    used = set(PYSCRIPT_ENTRIES) | set(core)
    for name in core:
        with open(os.path.join(dist, name), encoding="utf-8", errors="replace") as fh:
            refs = LOCAL_REF.findall(fh.read())
        used.update(ref for ref in refs if ref in files and not stem(ref).startswith(PYSCRIPT_ON_DEMAND))
    return sorted(used)


URL_ATTR = re.compile(r"""\b(?:src|href|config)\s*=\s*["']([^"']*)["']""")
TOML_URL = re.compile(r"""["'](\.{0,2}/[^"']*)["']""")


def check_relative_urls(site: str) -> None:
    """Fail unless every URL in index.html, pyscript.toml and manifest.json is
    relative and, when it names a file of the site, that file exists.

    An absolute path ("/assets/...") or another origin would tie the site to
    one host or to the root of a domain.
    """
    def check(source: str, url: str) -> None:
        if url.startswith(("#", "data:")):
            return
        if not url.startswith("./") and url != ".":
            fail(f"{source}: {url!r} is not a relative URL starting with './'")
        path = url.split("#")[0].split("?")[0].removeprefix("./")
        if path not in ("", ".") and not path.endswith("/") and not os.path.isfile(os.path.join(site, path)):
            fail(f"{source}: {url!r} names a file the site lacks")

    with open(os.path.join(site, "index.html"), encoding="utf-8") as fh:
        for url in URL_ATTR.findall(fh.read()):
            check("index.html", url)
    with open(os.path.join(site, "pyscript.toml"), encoding="utf-8") as fh:
        for line in fh:
            if not line.lstrip().startswith("#"):
                for url in TOML_URL.findall(line):
                    if not url.endswith("/*"):  # "./*": where [files] unpacks, not a file
                        check("pyscript.toml", url)
    with open(os.path.join(site, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    for url in [manifest["start_url"], manifest["scope"]] + [icon["src"] for icon in manifest["icons"]]:
        check("manifest.json", url)


def write_manifest(site: str) -> None:
    """manifest.json at the site's root and the icons it names."""
    icons = site_icons.write_icons(os.path.join(site, *ICONS_DIR.split("/")), "./" + ICONS_DIR + "/")
    with open(os.path.join(site, "manifest.json"), "w", encoding="utf-8") as fh:
        json.dump({**MANIFEST, "icons": icons}, fh, indent=2)
        fh.write("\n")


# ----- embedded boards: <tessera-board> (assets/js/embed.js), embed.html, examples/ -----

EMBED_SCRIPT = "js/embed.js"
"""Source of site/embed.js: moved to the site's root, beside what it loads."""
EMBED_STRINGS_TOKEN = '{"__TESSERA_EMBED_STRINGS__": 1}'
EMBED_JS_KEYS = ("embed.loading", "embed.start_failed")
"""Catalog words embed.js shows before Python runs (besides the games' titles)."""
EXAMPLES_DIR = "examples"


def build_embed(site: str) -> list[str]:
    """site/embed.js (with its words from the catalog), site/embed.html and
    site/examples/, where every <tessera-board> gets a picture of the position
    it opens at, drawn in CPython by the game's view (``tessera.ui.embed.pictures``):
    a page of the site shows its boards before any Python is fetched.
    Returns what went wrong with boards that could not be drawn."""
    sys.path.insert(0, os.path.join(ROOT, "py"))
    from tessera import i18n
    from tessera.core import registry
    from tessera.ui.embed.pictures import add_pictures

    moved = os.path.join(site, "assets", *EMBED_SCRIPT.split("/"))
    with open(moved, encoding="utf-8") as fh:
        script = fh.read()
    os.remove(moved)
    if script.count(EMBED_STRINGS_TOKEN) != 1:
        fail(f"assets/{EMBED_SCRIPT} must contain the placeholder {EMBED_STRINGS_TOKEN} exactly once")
    catalog = i18n.catalog()
    keys = list(EMBED_JS_KEYS) + [game.title_key for game in registry.GAMES]
    words = {lang: {key: catalog[lang][key] for key in keys if key in catalog[lang]} for lang in i18n.LANGUAGES}
    with open(os.path.join(site, "embed.js"), "w", encoding="utf-8") as fh:
        fh.write(script.replace(EMBED_STRINGS_TOKEN, json.dumps(words, ensure_ascii=False, sort_keys=True)))
    copy(os.path.join(ROOT, "embed.html"), os.path.join(site, "embed.html"))

    problems: list[str] = []
    examples = os.path.join(ROOT, EXAMPLES_DIR)
    for rel in walk_files(examples) if os.path.isdir(examples) else []:
        src, dst = os.path.join(examples, rel), os.path.join(site, EXAMPLES_DIR, rel)
        if not rel.endswith(".html"):
            copy(src, dst)
            continue
        folder = os.path.dirname(src)

        def read_src(url: str, folder: str = folder) -> str:
            path = os.path.normpath(os.path.join(folder, url.split("#")[0].split("?")[0]))
            if ":" in url or not path.startswith(examples + os.sep) or not os.path.isfile(path):
                raise OSError(f"{url} is not a file of {EXAMPLES_DIR}/")
            with open(path, encoding="utf-8") as fh:
                return fh.read()

        with open(src, encoding="utf-8") as fh:
            page, found = add_pictures(fh.read(), read_src)
        problems += [f"{EXAMPLES_DIR}/{rel}: {problem}" for problem in found]
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w", encoding="utf-8") as fh:
            fh.write(page)
    return problems


def site_version(site: str, files: list[str]) -> str:
    h = hashlib.sha256()
    for rel in files:
        h.update(rel.encode() + b"\0")
        with open(os.path.join(site, rel), "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()[:16]


def build(out: str, relays: list[str] | None = None) -> dict:
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)

    # Page, config, entry script.
    for src, dst in [("index.html", "index.html"),
                     ("pyscript.toml", "pyscript.toml"),
                     (os.path.join("py", "main.py"), "main.py")]:
        path = os.path.join(ROOT, src)
        if not os.path.isfile(path):
            fail(f"{src} is missing")
        copy(path, os.path.join(tmp, dst))
    name_relays(tmp, relays or [])

    # Python package.
    pkg = os.path.join(ROOT, "py", "tessera")
    if not os.path.isdir(pkg):
        fail("py/tessera/ is missing")
    n_py = make_zip(pkg, "tessera", os.path.join(tmp, "tessera.zip"), SERVER_ONLY)

    # Static assets (sw.js is generated separately at the site root).
    assets = os.path.join(ROOT, "assets")
    n_assets = 0
    if os.path.isdir(assets):
        for rel in walk_files(assets):
            if rel in ("sw.js", SNAPSHOT_LOADER, SNAPSHOT_WORKER, WASM_DATA):
                continue
            copy(os.path.join(assets, rel), os.path.join(tmp, "assets", rel))
            n_assets += 1

    # Installing: the web app manifest and its icons.
    write_manifest(tmp)

    # Embedded boards: embed.js at the root, embed.html, examples/ with their pictures.
    for problem in build_embed(tmp):
        print(f"build: warning: {problem}", file=sys.stderr)

    # Vendored runtimes.
    try:
        pyodide_dir = patched_pyodide(NODE_MODULES, os.path.join(SNAPSHOT_CACHE, RUNTIME_CACHE))
    except PatchError as error:
        fail(str(error))
    vendor_pyodide = os.path.join(tmp, "vendor", "pyodide")
    for name, site_name in PYODIDE_FILES.items():
        copy(os.path.join(pyodide_dir, name), os.path.join(vendor_pyodide, site_name))
    rename_pyodide_module(os.path.join(vendor_pyodide, PYODIDE_FILES["pyodide.mjs"]))
    copy(os.path.join(pyodide_dir, "python_stdlib.zip"), os.path.join(vendor_pyodide, FULL_STDLIB))
    trimmed_lock(os.path.join(pyodide_dir, "pyodide-lock.json"), os.path.join(vendor_pyodide, "pyodide-lock.json"))
    stdlib, cached = make_snapshot(vendor_pyodide, pyodide_dir)
    shipped_runtime(cached, pyodide_dir, vendor_pyodide)
    n_pyc = add_bytecode(os.path.join(tmp, "tessera.zip"), os.path.join(cached, COMPILED_MODULES))
    frame_zip(os.path.join(tmp, "tessera.zip"))
    with open(os.path.join(assets, SNAPSHOT_LOADER), encoding="utf-8") as fh:
        loader = fh.read()
    # The keys of the inflated files the page keeps in Cache Storage.
    for token, name in (('"__TESSERA_SNAPSHOT_ID__"', SHIPPED_SNAPSHOT), ('"__TESSERA_WASM_ID__"', SHIPPED_WASM)):
        if loader.count(token) != 1:
            fail(f"{SNAPSHOT_LOADER} must contain the placeholder {token} exactly once")
        with open(os.path.join(vendor_pyodide, name), "rb") as fh:
            loader = loader.replace(token, json.dumps(hashlib.sha256(fh.read()).hexdigest()[:16]))
    if loader.count('"__TESSERA_SNAPSHOT_SIZE__"') != 1:
        fail(f"{SNAPSHOT_LOADER} must contain the placeholder \"__TESSERA_SNAPSHOT_SIZE__\" exactly once")
    loader = loader.replace('"__TESSERA_SNAPSHOT_SIZE__"', str(snapshot_size(cached)))
    with open(os.path.join(vendor_pyodide, "tessera-pyodide.js"), "w", encoding="utf-8") as fh:
        fh.write(loader)
    copy(os.path.join(assets, SNAPSHOT_WORKER), os.path.join(vendor_pyodide, "tessera-snapshot-worker.js"))
    copy(os.path.join(assets, WASM_DATA), os.path.join(vendor_pyodide, "tessera-wasm-data.js"))
    vendor_brotli_decoder(os.path.join(tmp, "vendor", "brotli"))
    dist = os.path.join(NODE_MODULES, "@pyscript", "core", "dist")
    pyscript_files = pyscript_closure(dist)
    for name in pyscript_files:
        copy(os.path.join(dist, name), os.path.join(tmp, "vendor", "pyscript", name))
    pyscript_used = {"vendor/pyscript/" + name for name in pyscript_runtime(dist, pyscript_files)}

    check_relative_urls(tmp)

    # Service worker: version = hash of every other file; precache = what the page uses.
    files = [rel.replace(os.sep, "/") for rel in walk_files(tmp)]
    version = site_version(tmp, files)
    precached = [rel for rel in files if rel not in NOT_PRECACHED
                 and (not rel.startswith("vendor/pyscript/") or rel in pyscript_used)]
    sw_src = os.path.join(assets, "sw.js")
    if not os.path.isfile(sw_src):
        fail("assets/sw.js is missing")
    with open(sw_src, encoding="utf-8") as fh:
        sw = fh.read()
    precache = ["./" + rel for rel in precached]  # sw.js itself is not precached
    for token in ('"__TESSERA_BUILD_VERSION__"', '["__TESSERA_PRECACHE__"]'):
        if sw.count(token) != 1:
            fail(f"assets/sw.js must contain the placeholder {token} exactly once")
    sw = sw.replace('"__TESSERA_BUILD_VERSION__"', json.dumps(version))
    sw = sw.replace('["__TESSERA_PRECACHE__"]', json.dumps(precache, indent=2))
    with open(os.path.join(tmp, "sw.js"), "w", encoding="utf-8") as fh:
        fh.write(sw)

    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)

    size = sum(os.path.getsize(os.path.join(out, f)) for f in files + ["sw.js"])
    return {
        "version": version,
        "files": len(files) + 1,
        "bytes": size,
        "precached": len(precached),
        "precached_bytes": sum(os.path.getsize(os.path.join(out, f)) for f in precached),
        "python_files": n_py,
        "compiled_modules": n_pyc,
        "assets": n_assets,
        "pyscript_files": len(pyscript_files),
        "pyscript_precached": len(pyscript_used),
        "stdlib_in_snapshot": len(stdlib["in_snapshot"]),
    }


SITE_CONFIG = os.path.join(ROOT, "site.json")
"""Optional: ``{"relays": ["wss://..."]}``, the relays a build of the site names."""
RELAYS_META = '<meta name="tessera-relays" content="">'
"""The placeholder in index.html the build fills with the relays named (JSON, HTML-escaped)."""


def named_relays(given: list[str]) -> list[str]:
    """The relays the site names: ``--relay`` arguments, else ``site.json``'s; each a ws:// or wss:// URL."""
    relays = list(given)
    if not relays and os.path.isfile(SITE_CONFIG):
        try:
            with open(SITE_CONFIG, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError) as error:
            fail(f"site.json cannot be read: {error}")
        relays = data.get("relays", []) if isinstance(data, dict) else None
        if not isinstance(relays, list) or not all(isinstance(r, str) for r in relays):
            fail('site.json: "relays" must be a list of addresses')
    for relay in relays:
        if not relay.startswith(("ws://", "wss://")) or any(ch.isspace() or ch in "<>\"'" for ch in relay) \
                or len(relay) > 500:
            fail(f"not a relay address (ws:// or wss://): {relay!r}")
    return relays


def name_relays(site: str, relays: list[str]) -> None:
    """Write the relays into the built index.html (the new-game dialog offers them)."""
    path = os.path.join(site, "index.html")
    with open(path, encoding="utf-8") as fh:
        page = fh.read()
    if RELAYS_META not in page:
        fail("index.html lacks the relays' meta tag")
    filled = RELAYS_META.replace('content=""', f'content="{html.escape(json.dumps(relays), quote=True)}"')
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(page.replace(RELAYS_META, filled))


def main() -> int:
    args = sys.argv[1:]
    relays: list[str] = []
    while "--relay" in args:
        at = args.index("--relay")
        if at + 1 >= len(args):
            fail("--relay needs an address (wss://...)")
        relays.append(args[at + 1])
        del args[at:at + 2]
    out = os.path.abspath(args[0]) if args else SITE
    info = build(out, named_relays(relays))
    print(f"build: {os.path.relpath(out, os.getcwd())}/ version {info['version']}: "
          f"{info['files']} files, {info['bytes'] / 1e6:.1f} MB, "
          f"{info['precached']} precached ({info['precached_bytes'] / 1e6:.1f} MB) "
          f"({info['python_files']} files in tessera.zip and {info['compiled_modules']} compiled, {info['assets']} assets, "
          f"{info['pyscript_precached']} of {info['pyscript_files']} PyScript files used, "
          f"{info['stdlib_in_snapshot']} standard modules in the snapshot)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
