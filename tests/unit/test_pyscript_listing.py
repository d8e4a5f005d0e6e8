"""The loader's listing of PyScript's modules (``PYSCRIPT_PYC`` in assets/js/pyodide-snapshot.mjs).

Once the first screen is up, the page compiles the modules ``import pyscript``
loads, then imports it, each in an idle callback.  Listing them used
``re``, whose first patterns compiled made most of a 30-70 ms task on a
first visit; it now scans the text with ``str.find``.  These tests hold the
scan to what ``re.findall`` found, on PyScript's own files and on random text.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "assets" / "js" / "pyodide-snapshot.mjs"
PYSCRIPT = ROOT / "node_modules" / "@pyscript" / "core" / "src" / "stdlib" / "pyscript"


def loader_scope() -> dict:
    source = re.search(r"const PYSCRIPT_PYC = `(.*?)`;", MODULE.read_text(encoding="utf-8"), re.S)
    assert source, "PYSCRIPT_PYC is gone from pyodide-snapshot.mjs"
    assert "${" not in source.group(1) and "\\" not in source.group(1), "a JS template would change this text"
    scope: dict = {}
    exec(compile(source.group(1), "PYSCRIPT_PYC", "exec"), scope)
    return scope


def with_re(text: str) -> list[str]:
    """What the listing found with re, before."""
    names = re.findall("pyscript[.]([A-Za-z0-9_]+)", text)
    for listed in re.findall("from pyscript import ([A-Za-z0-9_, ]+)", text):
        names += [name.strip() for name in listed.split(",")]
    return names


def with_scan(scope: dict, text: str) -> list[str]:
    runs_after, identifier = scope["_tessera_runs_after"], scope["IDENTIFIER"]
    names = runs_after(text, "pyscript.", identifier)
    for listed in runs_after(text, "from pyscript import ", identifier + ", "):
        names += [name.strip() for name in listed.split(",")]
    return names


@pytest.mark.skipif(not PYSCRIPT.is_dir(), reason="npm ci has not run (node_modules/@pyscript/core)")
def test_the_scan_finds_what_re_found_in_pyscripts_files(tmp_path: Path, monkeypatch) -> None:
    scope = loader_scope()
    for path in sorted(PYSCRIPT.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert with_scan(scope, text) == with_re(text), path.name
    # The whole listing, from a folder on sys.path: __init__.py first, then what it names.
    shutil.copytree(PYSCRIPT, tmp_path / "pyscript")
    monkeypatch.syspath_prepend(str(tmp_path))
    listed = [Path(path).name for path in scope["_tessera_pyscript_sources"]()]   # a generator
    assert listed[0] == "__init__.py" and len(listed) == len(set(listed)) >= 10
    assert "fs.py" not in listed and "media.py" not in listed


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["pyscript", ".", "from ", "import ", " ", ",", "a", "_", "9", "é", "\n",
                                 "pyscript.", "from pyscript import "]), max_size=40).map("".join))
def test_the_scan_finds_what_re_found_in_any_text(text: str) -> None:
    assert with_scan(loader_scope(), text) == with_re(text)


def test_the_page_takes_the_sources_one_at_a_time(tmp_path: Path, monkeypatch) -> None:
    """``_tessera_next_source`` gives each listed source once, then None: the page's cue to import."""
    (tmp_path / "pyscript").mkdir()
    (tmp_path / "pyscript" / "__init__.py").write_text("from pyscript import a, b\nimport pyscript.b\n")
    (tmp_path / "pyscript" / "a.py").write_text("x = 1\n")
    (tmp_path / "pyscript" / "b.py").write_text("from pyscript import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    scope = loader_scope()
    sources = scope["_tessera_pyscript_sources"]()
    taken = []
    while (path := scope["_tessera_next_source"](sources)) is not None:
        taken.append(Path(path).name)
    assert taken == ["__init__.py", "b.py", "a.py"]
