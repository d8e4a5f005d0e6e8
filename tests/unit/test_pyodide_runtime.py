"""Pyodide's runtime as the site ships it (scripts/pyodide_runtime.py): the
patches apply to the pinned Pyodide exactly once, and a runtime they do not
fit stops the build instead of shipping unpatched beside a snapshot made
with them."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

if sys.platform == "emscripten":
    pytest.skip("a build tool's test: the runtime is patched in CPython, at build time", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import pyodide_runtime  # noqa: E402
from pyodide_runtime import FILES, PATCHES, PatchError, patched_pyodide  # noqa: E402

PINNED = ROOT / "node_modules" / "pyodide"


def fake_node_modules(tmp_path: Path, runtime: str) -> Path:
    """A node_modules with a pyodide package whose pyodide.asm.mjs is ``runtime``."""
    folder = tmp_path / "node_modules" / "pyodide"
    folder.mkdir(parents=True)
    for name in FILES:
        (folder / name).write_text(runtime if name == "pyodide.asm.mjs" else name, encoding="utf-8")
    return folder.parent


def test_each_patch_is_applied_once(tmp_path: Path) -> None:
    runtime = "var GOT={};" + pyodide_runtime.GOT_OLD + "if(isInternalSym(symName)){continue}}};"
    folder = Path(patched_pyodide(str(fake_node_modules(tmp_path, runtime)), str(tmp_path / "cache")))
    patched = (folder / "pyodide.asm.mjs").read_text(encoding="utf-8")
    assert patched.count(pyodide_runtime.GOT_NEW) == 1 and patched != runtime
    assert sorted(path.name for path in folder.iterdir()) == sorted(FILES)
    assert (folder / "pyodide.mjs").read_text(encoding="utf-8") == "pyodide.mjs"   # the others as they are


def test_the_folder_is_made_once_and_an_older_one_goes(tmp_path: Path) -> None:
    runtime = pyodide_runtime.GOT_OLD
    cache = tmp_path / "cache"
    first = patched_pyodide(str(fake_node_modules(tmp_path, runtime)), str(cache))
    marker = Path(first) / "pyodide.mjs"
    marker.write_text("kept", encoding="utf-8")
    assert patched_pyodide(str(tmp_path / "node_modules"), str(cache)) == first
    assert marker.read_text(encoding="utf-8") == "kept"   # not made again
    (tmp_path / "node_modules" / "pyodide" / "pyodide.mjs").write_text("a new version", encoding="utf-8")
    second = patched_pyodide(str(tmp_path / "node_modules"), str(cache))
    assert second != first and not Path(first).exists()
    assert [path.name for path in cache.iterdir()] == [Path(second).name]


@pytest.mark.parametrize("runtime", ["var nothing;", pyodide_runtime.GOT_OLD * 2])
def test_a_runtime_the_patch_does_not_fit_stops_the_build(tmp_path: Path, runtime: str) -> None:
    with pytest.raises(PatchError, match="exactly once"):
        patched_pyodide(str(fake_node_modules(tmp_path, runtime)), str(tmp_path / "cache"))
    assert not any(path.name.startswith("pyodide-") and ".tmp" not in path.name
                   for path in (tmp_path / "cache").iterdir())


def test_a_missing_file_stops_the_build(tmp_path: Path) -> None:
    node_modules = fake_node_modules(tmp_path, pyodide_runtime.GOT_OLD)
    (node_modules / "pyodide" / "pyodide.asm.wasm").unlink()
    with pytest.raises(PatchError, match="missing"):
        patched_pyodide(str(node_modules), str(tmp_path / "cache"))


@pytest.mark.skipif(not (PINNED / "pyodide.asm.mjs").is_file(), reason="node_modules not installed (npm ci)")
def test_the_pinned_pyodide_takes_every_patch(tmp_path: Path) -> None:
    node_modules = tmp_path / "node_modules"
    shutil.copytree(PINNED, node_modules / "pyodide",
                    ignore=lambda folder, names: [name for name in names if name not in FILES])
    folder = Path(patched_pyodide(str(node_modules), str(tmp_path / "cache")))
    for name, old, new in PATCHES:
        text = (folder / name).read_text(encoding="utf-8")
        assert text.count(new) == 1 and text.count(old) == 1   # new begins with old
