"""The page's own unpacking of tessera.zip (``READ_ZIP`` in assets/js/pyodide-snapshot.mjs).

PyScript and the bots' worker unpack the package with ``pyodide.unpackArchive``;
the page routes a zip through this shorter way instead (it was one long task
at every start): Python reads and checks the members, JavaScript writes
them.  tessera.zip ships as one zstd frame of a zip of stored members,
which the page inflates as it reads the members (Python 3.14's
``compression.zstd``: those tests run in Pyodide, and skip in a CPython
without it).  The Python is
read from the module as shipped and run here, its
members written as ``writeMembers`` writes them: the files must be what
``zipfile`` would write, and whatever it does not expect must be refused
before anything is written, so that Pyodide's own unpacking takes over.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parents[2] / "assets" / "js" / "pyodide-snapshot.mjs"


class JsBytes:
    """What the page passes: a JsProxy of an ArrayBuffer (``to_bytes`` copies it)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def to_bytes(self) -> bytes:
        return self.data


def loader_scope() -> dict:
    """READ_ZIP, as shipped, run here: its functions by name."""
    source = re.search(r"const READ_ZIP = `(.*?)`;", MODULE.read_text(encoding="utf-8"), re.S)
    assert source, "READ_ZIP is gone from pyodide-snapshot.mjs"
    assert "${" not in source.group(1) and "\\" not in source.group(1), "a JS template would change this text"
    scope: dict = {}
    exec(compile(source.group(1), "READ_ZIP", "exec"), scope)
    return scope


def write_members(members, folder: str) -> None:
    """As the page's ``writeMembers`` writes them."""
    for path, body in members:
        assert path.startswith(folder + "/") and not path.endswith("/")
        if body is None:
            os.makedirs(path, exist_ok=True)
            continue
        os.makedirs(path.rpartition("/")[0], exist_ok=True)
        Path(path).write_bytes(body)


def extractor():
    """READ_ZIP's function, then the members written as the page's ``writeMembers`` does."""
    scope = loader_scope()
    read = scope["_tessera_read_zip"]
    assert scope["_tessera_inner_zip"] is not None

    def extract(data: JsBytes, folder: str) -> None:
        write_members(read(data, folder), folder)
    return extract


def sliced_extractor(size: int, batches: list | None = None, finder=None):
    """The later writing's way (``_tessera_zip_slices``, the page's ``laterWriter``): a slice at
    a time, each slice's members written as they come; ``batches`` gets each slice's size."""
    slices_of = loader_scope()["_tessera_zip_slices"]

    def extract(data: JsBytes, folder: str) -> None:
        slices = slices_of(data, folder, finder)
        while (members := slices.next(size)) is not None:
            if batches is not None:
                batches.append(sum(100 + len(body or b"") for _, body in members))
            write_members(members, folder)
    return extract


def archive(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compression) as zf:
        zf.writestr("tessera/", b"")   # a folder entry, as some tools write
        for name, body in members.items():
            zf.writestr(name, body)
    return out.getvalue()


MEMBERS = {
    "tessera/__init__.py": b"",
    "tessera/games/dots/rules.py": b"# dots\n" * 500,
    "tessera/i18n/messages.json": '{"ru": "Ходы"}'.encode(),
    "tessera/ui/__pycache__/app.cpython-314.pyc": bytes(range(256)) * 40,
}


@pytest.mark.parametrize("compression", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_it_writes_what_zipfile_would(tmp_path: Path, compression: int) -> None:
    extractor()(JsBytes(archive(MEMBERS, compression)), str(tmp_path))
    written = {str(path.relative_to(tmp_path)): path.read_bytes()
               for path in tmp_path.rglob("*") if path.is_file()}
    assert written == MEMBERS


def test_the_shipped_package_unpacks_alike(tmp_path: Path) -> None:
    """The real thing: every file of a zip of py/tessera, byte for byte."""
    source = Path(__file__).resolve().parents[2] / "py" / "tessera"
    members = {f"tessera/{path.relative_to(source)}": path.read_bytes()
               for path in sorted(source.rglob("*")) if path.is_file() and "__pycache__" not in path.parts}
    extractor()(JsBytes(archive(members)), str(tmp_path))
    assert {str(path.relative_to(tmp_path)): path.read_bytes()
            for path in tmp_path.rglob("*") if path.is_file()} == members


@pytest.mark.parametrize("in_a_frame", [False, True])
@pytest.mark.parametrize("name", ["../outside.py", "/etc/passwd", "tessera/../../outside.py"])
def test_a_name_outside_the_folder_is_refused(tmp_path: Path, name: str, in_a_frame: bool) -> None:
    data = framed({name: b"x"}) if in_a_frame else archive({name: b"x"})
    with pytest.raises(ValueError):
        extractor()(JsBytes(data), str(tmp_path / "site"))
    assert not (tmp_path / "outside.py").exists()


def test_a_damaged_member_is_refused(tmp_path: Path) -> None:
    data = bytearray(archive({"tessera/a.py": b"print('a')\n" * 50}, zipfile.ZIP_STORED))
    at = data.index(b"print")
    data[at] ^= 0xFF   # the stored bytes no longer match their CRC
    with pytest.raises(ValueError, match="damaged"):
        extractor()(JsBytes(bytes(data)), str(tmp_path))
    assert not any(tmp_path.iterdir())   # refused before a file is written


def test_an_unknown_compression_is_refused(tmp_path: Path) -> None:
    """A method other than stored or deflated (here 99, marked in both headers) is left to Pyodide."""
    data = bytearray(archive({"tessera/a.py": b"a" * 100}, zipfile.ZIP_STORED))
    for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        at = -1
        while (at := data.find(signature, at + 1)) >= 0:
            data[at + offset:at + offset + 2] = (99).to_bytes(2, "little")
    with pytest.raises(ValueError, match="not extracted"):
        extractor()(JsBytes(bytes(data)), str(tmp_path))


def test_not_a_zip_raises(tmp_path: Path) -> None:
    """Whatever it raises, the page catches and unpacks the general way."""
    with pytest.raises(Exception):
        extractor()(JsBytes(b"not a zip at all"), str(tmp_path))


def zstd_module():
    return pytest.importorskip("compression.zstd", reason="Python 3.14's zstd (Pyodide has it)")


def test_a_zstd_frame_of_a_stored_zip_unpacks_alike(tmp_path: Path) -> None:
    """As the site ships tessera.zip (scripts/build_site.py, frame_zip)."""
    framed = zstd_module().compress(archive(MEMBERS, zipfile.ZIP_STORED), level=19)
    extractor()(JsBytes(framed), str(tmp_path))
    assert {str(path.relative_to(tmp_path)): path.read_bytes()
            for path in tmp_path.rglob("*") if path.is_file()} == MEMBERS


@pytest.mark.parametrize("damage", ["cut short", "a flipped byte", "the magic alone", "garbage after the magic"])
def test_a_damaged_zstd_frame_raises_before_writing(tmp_path: Path, damage: str) -> None:
    """The page then hands the archive to Pyodide's own unpacking, which fails as loudly: a file
    half written would be worse."""
    framed = bytearray(zstd_module().compress(archive(MEMBERS, zipfile.ZIP_STORED), level=19))
    if damage == "cut short":
        framed = framed[:len(framed) // 2]
    elif damage == "a flipped byte":
        framed[len(framed) // 2] ^= 0xFF
    elif damage == "the magic alone":
        framed = framed[:4]
    else:
        framed = framed[:4] + bytearray(range(256)) * 4
    with pytest.raises(Exception):
        extractor()(JsBytes(bytes(framed)), str(tmp_path))
    assert not any(tmp_path.iterdir())


def framed(members: dict[str, bytes], compression: int = zipfile.ZIP_STORED) -> bytes:
    """As scripts/zstd.mjs frames tessera.zip (its checksum on)."""
    zstd = zstd_module()
    options = {zstd.CompressionParameter.compression_level: 19, zstd.CompressionParameter.checksum_flag: 1}
    return zstd.compress(archive(members, compression), options=options)


def test_the_shipped_package_in_a_frame_unpacks_alike(tmp_path: Path) -> None:
    """The frame is read from its local headers as it is inflated (``_tessera_read_framed``),
    a chunk at a time: members longer than a chunk, and many of them, come out whole."""
    source = Path(__file__).resolve().parents[2] / "py" / "tessera"
    members = {f"tessera/{path.relative_to(source)}": path.read_bytes()
               for path in sorted(source.rglob("*")) if path.is_file() and "__pycache__" not in path.parts}
    members["tessera/big.bin"] = bytes(range(256)) * 1000   # longer than a chunk (64 KB)
    extractor()(JsBytes(framed(members)), str(tmp_path))
    assert {str(path.relative_to(tmp_path)): path.read_bytes()
            for path in tmp_path.rglob("*") if path.is_file()} == members


def test_a_framed_zip_of_deflated_members_is_left_to_pyodide(tmp_path: Path) -> None:
    """Only stored members are read from a frame; the page then hands Pyodide the inflated zip."""
    with pytest.raises(ValueError, match="not extracted"):
        extractor()(JsBytes(framed(MEMBERS, zipfile.ZIP_DEFLATED)), str(tmp_path))
    assert not any(tmp_path.iterdir())


def test_random_damage_to_a_frame_never_writes_a_wrong_file(tmp_path: Path) -> None:
    """Fuzz: a bit flipped anywhere in the frame raises before anything is written (the page
    then falls back), or leaves every member as it was (a flip in the frame's padding, if any):
    never a wrong file, nor a wrong name (which no member's CRC covers: the frame's checksum
    does)."""
    assert_flips_never_write_a_wrong_file(extractor(), 7, tmp_path)


def assert_flips_never_write_a_wrong_file(extract, seed: int, tmp_path: Path) -> None:
    """60 frames, each with one random bit flipped: ``extract`` raises with no file written, or
    writes every member as it was."""
    import random

    good = framed(MEMBERS)
    rng = random.Random(seed)
    for trial in range(60):
        damaged = bytearray(good)
        at = rng.randrange(len(damaged))
        damaged[at] ^= 1 << rng.randrange(8)
        folder = tmp_path / str(trial)
        try:
            extract(JsBytes(bytes(damaged)), str(folder))
        except Exception:
            assert not folder.exists() or not any(folder.rglob("*.*"))
            continue
        written = {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()}
        assert written == MEMBERS, at


def test_the_shipped_package_in_slices_unpacks_alike(tmp_path: Path) -> None:
    """Written a slice at a time once the first screen is up: the same files, in many short
    slices (none much above its size but for a member bigger than a slice), and not one of
    them given before the whole frame is read."""
    source = Path(__file__).resolve().parents[2] / "py" / "tessera"
    members = {f"tessera/{path.relative_to(source)}": path.read_bytes()
               for path in sorted(source.rglob("*")) if path.is_file() and "__pycache__" not in path.parts}
    members["tessera/big.bin"] = bytes(range(256)) * 1000   # bigger than a slice, and than a chunk
    batches: list[int] = []
    sliced_extractor(1 << 15, batches)(JsBytes(framed(members)), str(tmp_path))
    assert {str(path.relative_to(tmp_path)): path.read_bytes()
            for path in tmp_path.rglob("*") if path.is_file()} == members
    total = sum(100 + len(body) for body in members.values())
    reading = batches.index(next(size for size in batches if size))   # slices that gave nothing
    assert reading >= total // ((1 << 15) + 256_100) and all(batches[reading:])
    assert all(size < (1 << 15) + 256_100 for size in batches[reading:])
    assert len(batches) - reading >= total // ((1 << 15) + 256_100)


def test_random_damage_to_a_frame_never_writes_a_file_in_slices(tmp_path: Path) -> None:
    """Fuzz, as for the whole read: a slice raises before any file is written (the page then
    falls back to Pyodide's unpacking), or every member comes out as it was."""
    assert_flips_never_write_a_wrong_file(sliced_extractor(700), 11, tmp_path)


class RecordingFinder:
    """Stands for _TesseraFilesFirst: what ``reading`` was set to, in order."""

    def __init__(self) -> None:
        self.set: list[bool] = []

    @property
    def reading(self) -> bool:
        return self.set[-1] if self.set else False

    @reading.setter
    def reading(self, value: bool) -> None:
        self.set.append(value)


def test_the_finder_lets_imports_pass_while_a_slice_is_read(tmp_path: Path) -> None:
    """An import the reader makes itself (an encoding, zstd) must not have the files written
    from inside the reading: the finder passes while ``reading`` is set, and only then."""
    finder = RecordingFinder()
    sliced_extractor(1 << 12, finder=finder)(JsBytes(framed(MEMBERS)), str(tmp_path))
    assert finder.set and finder.set[::2] == [True] * (len(finder.set) // 2) and finder.set[1::2] == [False] * (
        len(finder.set) // 2)
    calls: list[str] = []
    real = loader_scope()["_TesseraFilesFirst"](lambda: calls.append("write"))
    real.reading = True
    assert real.find_spec("tessera.games.dots.rules_page") is None and calls == []
    real.reading = False
    assert real.find_spec("tessera.games.dots.rules_page") is None and calls == ["write"]
    assert real.find_spec("tessera.games.corners.rules_page") is None and calls == ["write"]   # once
