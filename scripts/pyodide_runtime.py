"""Pyodide's runtime as the site and its snapshot use it: node_modules/pyodide
with ``PATCHES`` applied, in a folder of its own (``patched_pyodide``).

The page, the bots' worker and embedded boards load the site's copy
(vendor/pyodide/); make_snapshot.mjs and check_snapshot.mjs load this
folder (``$TESSERA_PYODIDE_DIR``).  Both must be the same runtime: the
snapshot's heap holds indices into the wasm's function table, which the
runtime's dynamic linking fills at every start.
"""

from __future__ import annotations

import hashlib
import os
import shutil

FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
         "package.json")
"""What the folder holds: what loadPyodide reads, and the package's own description."""

GOT_OLD = "var updateGOT=(exports,replace)=>{for(var symName in exports){"
GOT_NEW = GOT_OLD + "if(!replace&&!GOT[symName])continue;"
PATCHES = (("pyodide.asm.mjs", GOT_OLD, GOT_NEW),)
"""(file, text, its replacement), each text found exactly once.

Only GOT entries something imports.  Emscripten's dynamic linking gives
every export of the main module a GOT entry (a WebAssembly.Global) and every
exported function a slot in the function table: 8,560 exports, for side
modules (Pyodide's packages with C code) to link against.  The site loads no
side module, so only the entries the main module imports itself are needed,
and those already exist when its exports are linked (made at instantiation,
set to -1).  A side module loaded all the same would still link: the
entries it imports are made then, and ``reportUndefinedSymbols`` resolves
every entry still at -1 from the main module's exports.  Linking the others,
and then checking every entry for an
undefined symbol, took 33-43 ms of a warm reload (``updateGOT`` 15-19 ms,
``reportUndefinedSymbols`` 18-24 ms); the runtime was then ready 36 ms after
the snapshot instead of 58 (medians of 12 warm reloads).  With ``replace`` (a
side module's own exports) every entry is linked as before."""


class PatchError(Exception):
    """node_modules/pyodide is not the runtime these patches were written for."""


def patched_pyodide(node_modules: str, cache: str) -> str:
    """The folder of Pyodide's runtime with ``PATCHES`` applied, made once per
    Pyodide version and patch set (under ``cache``).  Raises PatchError when a
    file is missing or a patch's text is not found exactly once."""
    source = os.path.join(node_modules, "pyodide")
    digest = hashlib.sha256(repr(PATCHES).encode())
    for name in FILES:
        path = os.path.join(source, name)
        if not os.path.isfile(path):
            raise PatchError(f"{path} missing (npm ci?)")
        with open(path, "rb") as fh:
            digest.update(name.encode() + b"\0" + hashlib.sha256(fh.read()).digest())
    folder = os.path.join(cache, "pyodide-" + digest.hexdigest()[:20])
    if all(os.path.isfile(os.path.join(folder, name)) for name in FILES):
        return folder
    making = f"{folder}.tmp{os.getpid()}"   # two builds at once each make their own
    shutil.rmtree(making, ignore_errors=True)
    os.makedirs(making)
    try:
        for name in FILES:
            shutil.copyfile(os.path.join(source, name), os.path.join(making, name))
        for name, old, new in PATCHES:
            path = os.path.join(making, name)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            if text.count(old) != 1:
                raise PatchError(f"{name}: expected {old!r} exactly once (a new Pyodide version? see PATCHES)")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text.replace(old, new))
        for name in os.listdir(cache):   # an older version's or patch set's
            if name.startswith("pyodide-") and ".tmp" not in name and name != os.path.basename(folder):
                shutil.rmtree(os.path.join(cache, name), ignore_errors=True)
        try:
            os.replace(making, folder)
        except OSError:   # another build made it meanwhile
            if not all(os.path.isfile(os.path.join(folder, name)) for name in FILES):
                raise
    finally:
        shutil.rmtree(making, ignore_errors=True)
    return folder
