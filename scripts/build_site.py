#!/usr/bin/env python3
"""Assemble the static site into site/ (called by ``./build.sh build``).

Layout produced (all URLs relative, so the site works from any sub-path):

    site/index.html            repo index.html
    site/pyscript.toml         repo pyscript.toml
    site/main.py               repo py/main.py
    site/tessera.zip           py/tessera/ as tessera/... (no __pycache__)
    site/assets/**             repo assets/ (without sw.js)
    site/sw.js                 assets/sw.js with build version + precache list
    site/vendor/pyodide/       the Pyodide runtime files
    site/vendor/pyscript/      PyScript core.js, core.css and the chunks they import

The output is deterministic: building twice from the same inputs gives
byte-identical files (and so the same service-worker version).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SITE = os.path.join(ROOT, "site")
NODE_MODULES = os.path.join(ROOT, "node_modules")

PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]
PYSCRIPT_ENTRIES = ["core.js", "core.css"]
SNAPSHOT_LOADER = "js/pyodide-snapshot.mjs"
"""Source of vendor/pyodide/tessera-pyodide.mjs, PyScript's ``interpreter``."""
SNAPSHOT_CACHE = os.path.join(ROOT, ".build-cache")

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


def make_zip(src_dir: str, arc_root: str, dst: str) -> int:
    count = 0
    with zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for rel in walk_files(src_dir):
            arcname = arc_root + "/" + rel.replace(os.sep, "/")
            info = zipfile.ZipInfo(arcname, date_time=ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(os.path.join(src_dir, rel), "rb") as fh:
                zf.writestr(info, fh.read())
            count += 1
    return count


LOCAL_REF = re.compile(r"""["'`]\./([A-Za-z0-9_.\-]+\.(?:m?js|css))["'`]""")


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


def make_snapshot(dst: str) -> None:
    """The Pyodide memory snapshot, rebuilt only when its inputs change.

    Its bytes differ from run to run, so reusing it when nothing changed keeps
    the build deterministic (same service-worker version, no re-download).
    """
    inputs = hashlib.sha256()
    for path in [os.path.join(ROOT, "scripts", "make_snapshot.mjs"), os.path.join(ROOT, "package-lock.json")]:
        with open(path, "rb") as fh:
            inputs.update(fh.read())
    pkg = os.path.join(ROOT, "py", "tessera")
    for rel in walk_files(pkg):
        inputs.update(rel.encode() + b"\0")
        with open(os.path.join(pkg, rel), "rb") as fh:
            inputs.update(hashlib.sha256(fh.read()).digest())
    cached = os.path.join(SNAPSHOT_CACHE, inputs.hexdigest()[:20] + ".bin.gz")
    if not os.path.isfile(cached):
        os.makedirs(SNAPSHOT_CACHE, exist_ok=True)
        for old in os.listdir(SNAPSHOT_CACHE):
            os.remove(os.path.join(SNAPSHOT_CACHE, old))
        result = subprocess.run(["node", os.path.join(ROOT, "scripts", "make_snapshot.mjs"), ROOT, cached + ".tmp"],
                                capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"making the Pyodide snapshot failed:\n{result.stdout}{result.stderr}")
        os.replace(cached + ".tmp", cached)
    copy(cached, dst)


def site_version(site: str, files: list[str]) -> str:
    h = hashlib.sha256()
    for rel in files:
        h.update(rel.encode() + b"\0")
        with open(os.path.join(site, rel), "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()[:16]


def build(out: str) -> dict:
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

    # Python package.
    pkg = os.path.join(ROOT, "py", "tessera")
    if not os.path.isdir(pkg):
        fail("py/tessera/ is missing")
    n_py = make_zip(pkg, "tessera", os.path.join(tmp, "tessera.zip"))

    # Static assets (sw.js is generated separately at the site root).
    assets = os.path.join(ROOT, "assets")
    n_assets = 0
    if os.path.isdir(assets):
        for rel in walk_files(assets):
            if rel in ("sw.js", SNAPSHOT_LOADER):
                continue
            copy(os.path.join(assets, rel), os.path.join(tmp, "assets", rel))
            n_assets += 1

    # Vendored runtimes.
    pyodide_dir = os.path.join(NODE_MODULES, "pyodide")
    for name in PYODIDE_FILES:
        src = os.path.join(pyodide_dir, name)
        if not os.path.isfile(src):
            fail(f"{src} missing (npm ci?)")
        copy(src, os.path.join(tmp, "vendor", "pyodide", name))
    copy(os.path.join(assets, SNAPSHOT_LOADER), os.path.join(tmp, "vendor", "pyodide", "tessera-pyodide.mjs"))
    make_snapshot(os.path.join(tmp, "vendor", "pyodide", "snapshot.bin.gz"))
    dist = os.path.join(NODE_MODULES, "@pyscript", "core", "dist")
    pyscript_files = pyscript_closure(dist)
    for name in pyscript_files:
        copy(os.path.join(dist, name), os.path.join(tmp, "vendor", "pyscript", name))

    # Service worker: version = hash of every other file; precache = all files.
    files = [rel.replace(os.sep, "/") for rel in walk_files(tmp)]
    version = site_version(tmp, files)
    sw_src = os.path.join(assets, "sw.js")
    if not os.path.isfile(sw_src):
        fail("assets/sw.js is missing")
    with open(sw_src, encoding="utf-8") as fh:
        sw = fh.read()
    precache = ["./" + rel for rel in files]  # sw.js itself is not precached
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
        "python_files": n_py,
        "assets": n_assets,
        "pyscript_files": len(pyscript_files),
    }


def main() -> int:
    out = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else SITE
    info = build(out)
    print(f"build: {os.path.relpath(out, os.getcwd())}/ version {info['version']}: "
          f"{info['files']} files, {info['bytes'] / 1e6:.1f} MB "
          f"({info['python_files']} files in tessera.zip, {info['assets']} assets, "
          f"{info['pyscript_files']} PyScript files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
