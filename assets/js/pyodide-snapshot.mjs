// PyScript's `interpreter` module (copied to vendor/pyodide/tessera-pyodide.js,
// next to pyodide.js, Pyodide's pyodide.mjs as the site names it, so Pyodide's
// indexURL stays that folder; the site's modules end in .js, see build_site.py).
//
// It starts Pyodide from the build's memory snapshot (made by
// scripts/make_snapshot.mjs): the interpreter and the engines come up
// already imported, which saves most of the start-up time.
//
// - Both big files ship brotli-compressed, a fifth to a third smaller than
//   gzip: the snapshot as snapshot.bin.br, with pyodide.asm.wasm's data segments
//   XORed out of its heap (tessera-wasm-data.js: they come back from the
//   wasm), and pyodide.asm.wasm as pyodide.asm.wasm.br.  Each is fetched and
//   inflated by a module worker of its own (tessera-snapshot-worker.js,
//   beside this file, with the brotli-dec-wasm package's wasm decoder), both
//   started when this module is first evaluated (index.html loads it early),
//   so they run in parallel while PyScript and Pyodide load; the inflated
//   ArrayBuffers are transferred, not copied; the wasm's worker also sends
//   the wasm's data segments, which the page passes on to the snapshot's
//   worker to unmask the heap with.  If a worker cannot start, the file is
//   inflated here.  Pyodide's own request for pyodide.asm.wasm is answered
//   with the inflated wasm (the plain file stays on the host, where a
//   request goes only if inflating failed).
// - The workers also keep the inflated files in Cache Storage once Python
//   has started (the snapshot unmasked), so a warm load reads them back
//   instead of inflating them again: the wasm's entry goes to Pyodide as it
//   is, which compiles it as it reads it, and no worker starts for it
//   (`globalThis.tesseraSnapshotFromCache`, `tesseraWasmFromCache`;
//   `tesseraInflateMs` has the time each inflation took).
// - Once Pyodide has copied it, the ~31 MB buffer is released: Pyodide keeps
//   its options (and so the promise of the snapshot) for its whole life, so
//   those references are dropped and the buffer detached (`release`).
// - If anything about the snapshot fails, Python starts the ordinary way:
//   slower, never broken.  `globalThis.tesseraSnapshotUsed` says which.
// - The standard modules the page imports are all in the snapshot
//   (scripts/make_snapshot.mjs), so the python_stdlib.zip Pyodide fetches
//   for it is nearly empty; right after the restore the zip's table of
//   contents, which the snapshot remembers from the full zip, is read again.
//   A module the snapshot lacks is found by a fallback importer (in the
//   snapshot too) in python_stdlib_full.zip (Pyodide's own), fetched
//   (synchronously: imports are) the first time one is asked for: a
//   download, never a broken page.
//   `globalThis.tesseraStdlibFallback` lists the modules that needed it.
//   A start without the snapshot uses the full zip as its standard library.
import { loadPyodide as loadPlain, version } from "./pyodide.js";
import { copyHeapPages, dataMask, heapPages, holdsHeapPages, xorMask } from "./tessera-wasm-data.js";

export { version };

const WORKER_URL = new URL("./tessera-snapshot-worker.js", import.meta.url);
// The decoder, for the main thread's fallback (the workers import it themselves).
const BROTLI_URL = new URL("../brotli/brotli_dec_wasm.js", import.meta.url).href;
const BROTLI_WASM_URL = new URL("../brotli/brotli_dec_wasm_bg.wasm", import.meta.url).href;
const WASM_URL = new URL("./pyodide.asm.wasm", import.meta.url).href; // what Pyodide asks for
const RUNTIME_URL = new URL("./pyodide.asm.js", import.meta.url).href; // the wasm's JavaScript side
// The files as shipped, and the content hashes of each, filled in by
// scripts/build_site.py: the keys of the inflated copies the workers keep
// in Cache Storage for later loads.
const FILES = {
  snapshot: { url: new URL("./snapshot.bin.br", import.meta.url).href, id: "__TESSERA_SNAPSHOT_ID__" },
  wasm: { url: new URL("./pyodide.asm.wasm.br", import.meta.url).href, id: "__TESSERA_WASM_ID__" },
};
// The inflated snapshot's length, filled in by scripts/build_site.py: Pyodide
// sizes the heap with it before instantiating the wasm (see SnapshotStandIn).
const SNAPSHOT_SIZE = Number("__TESSERA_SNAPSHOT_SIZE__");
const FULL_URL = new URL("./python_stdlib_full.zip", import.meta.url).href;
const FULL_PATH = "/lib/tessera_stdlib_full.zip"; // where the fallback importer mounts it

function mountFullStdlib(pyodide, name) {
  // Imports are synchronous, so is this request (the only one of the app).
  const request = new XMLHttpRequest();
  request.open("GET", FULL_URL, false);
  request.overrideMimeType("text/plain; charset=x-user-defined");
  request.send();
  if (request.status !== 200) throw new Error(`HTTP ${request.status}`);
  const text = request.responseText;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  pyodide.FS.writeFile(FULL_PATH, bytes);
  console.warn(`Tessera: ${name} is not in the snapshot; loaded python_stdlib_full.zip`);
  return FULL_PATH;
}

// The importer itself is in the snapshot (module _tessera_stdlib, see
// scripts/make_snapshot.mjs), with the names of the modules it may fetch.
function installFallbackImporter(pyodide) {
  globalThis.tesseraStdlibFallback = [];
  const mount = (name) => {
    globalThis.tesseraStdlibFallback.push(String(name));
    return mountFullStdlib(pyodide, name);
  };
  const module = pyodide.pyimport("_tessera_stdlib");
  try {
    module.install(mount, FULL_PATH);
  } finally {
    module.destroy();
  }
}

// PyScript's [files] and the bots' worker unpack tessera.zip with
// pyodide.unpackArchive, whose Python path (a temporary file, shutil,
// zipfile's stream per member) is one long task at every start.  A zip
// goes this shorter way instead: Python slices each member's bytes from the
// archive and inflates them at once, their CRCs still checked, and returns
// them; JavaScript writes the files (Emscripten's FS.writeFile: 261 files
// took 7 ms so, 31-64 ms through Python's open() and write(), measured in
// Pyodide under Node).  Anything it does not expect (a name outside the
// folder, an unknown compression, a bad CRC) hands the archive back to
// Pyodide's own unpacking, before a file is written.
// tessera.zip ships as one zstd frame of a zip whose members are stored
// (scripts/build_site.py, frame_zip): compressed whole, the package is 0.67
// MB instead of 0.99 with each member deflated, and Python's own zstd (in
// Pyodide's wasm) with the reading of its local headers takes less than
// zlib took for the members (in Pyodide under Node, after the first call:
// 11-16 ms against 18-25).  PyScript picks the unpacking by the file's
// name, so the name stays; every page unpacks it through here, and the
// general way gets the inflated zip.
const READ_ZIP = `
ZSTD_MAGIC = bytes((0x28, 0xB5, 0x2F, 0xFD))
LOCAL_HEADER = bytes((0x50, 0x4B, 3, 4))
CENTRAL_HEADER = bytes((0x50, 0x4B, 1, 2))
EMPTY_CENTRAL_END = bytes((0x50, 0x4B, 5, 6))
CHUNK = 1 << 16

def _tessera_inner_zip(data):
    """A zip's bytes: those of the zstd frame it ships in, inflated whole (for
    Pyodide's own unpacking, when this one refused the archive)."""
    data = data.to_bytes()
    if data[:4] == ZSTD_MAGIC:
        from compression import zstd
        data = zstd.decompress(data)
    return data

def _tessera_member(folder, name):
    if name.startswith("/") or ".." in name.split("/"):
        raise ValueError(f"not extracted here: {name}")
    return f"{folder}/{name}"

def _tessera_framed_members(data, folder):
    """The members of a zip of stored members in one zstd frame, read from
    its local headers as the frame is inflated, a chunk at a time: the page's
    wasm memory is never given back, and held whole (one 2.7 MB buffer) the
    zip left 2.5-3 MB more of the renderer's memory in use than members
    inflated one by one (this way, about 1 MB).  The local headers' names
    are not in the members' CRCs: the frame's own checksum, checked at its
    end, covers them."""
    import struct, zlib
    from compression import zstd
    inflater = zstd.ZstdDecompressor()
    pending = bytearray(inflater.decompress(data, max_length=CHUNK))
    def need(size):
        while len(pending) < size:
            if inflater.eof or inflater.needs_input:
                raise ValueError("tessera.zip: the zstd frame is cut short")
            pending.extend(inflater.decompress(b"", max_length=CHUNK))
    while True:
        need(4)
        signature = bytes(pending[:4])
        if signature in (CENTRAL_HEADER, EMPTY_CENTRAL_END):
            while not inflater.eof:   # to the frame's end, where zstd checks its checksum
                if inflater.needs_input:
                    raise ValueError("tessera.zip: the zstd frame is cut short")
                inflater.decompress(b"", max_length=CHUNK)
            return
        need(30)
        if signature != LOCAL_HEADER:
            raise ValueError("tessera.zip: not a zip")
        flags, method, _, _, crc, size, file_size, name_size, extra_size = struct.unpack_from("<HHHHIIIHH", pending, 6)
        if flags & 8 or method != 0 or size != file_size:
            raise ValueError("not extracted here: a member not stored, or its size after it")
        begin = 30 + name_size + extra_size
        need(begin + size)
        name = bytes(pending[30:30 + name_size]).decode("utf-8" if flags & 0x800 else "cp437")
        body = bytes(pending[begin:begin + size])
        del pending[:begin + size]
        target = _tessera_member(folder, name)
        if name.endswith("/"):
            yield (target.rstrip("/"), None)
            continue
        if zlib.crc32(body) != crc:
            raise ValueError(f"damaged: {name}")
        yield (target, body)

def _tessera_read_framed(data, folder):
    return list(_tessera_framed_members(data, folder))

class _TesseraZipSlices:
    """A zstd-framed zip's members a slice at a time (next), for the files
    written once the first screen is up: read and written whole, they were
    one task of 80-365 ms right after a first visit's home screen (2.7 MB
    inflated and checked, 212 files written), which held up a first click.
    The first slices read, the next ones give members to write: none is
    given before the frame's checksum is checked at its end, since a damaged
    name is in no member's CRC.  While a slice is read, the finder that has
    the files written first lets imports pass: the reader's own (an
    encoding, zstd) need no file of the package."""

    def __init__(self, data, folder, finder):
        self.reading = _tessera_framed_members(data.to_bytes(), folder)
        self.members = []   # read, and once all are, reversed: the next to write is last
        self.finder = finder

    def next(self, size):
        """Members to write, about size bytes of them; an empty list while the
        zip is still read, None once every member was given."""
        if self.reading is not None:
            self._read(size)
            return []
        if not self.members:
            return None
        given, got = [], 0
        while self.members and got < size:
            given.append(self.members.pop())
            got += _tessera_cost(given[-1])
        return given

    def _read(self, size):
        if self.finder is not None:
            self.finder.reading = True
        try:
            got = 0
            for member in self.reading:
                self.members.append(member)
                got += _tessera_cost(member)
                if got >= size:
                    return
            self.reading = None   # read to the frame's end: its checksum is checked
            self.members.reverse()
        finally:
            if self.finder is not None:
                self.finder.reading = False

def _tessera_cost(member):
    """A member's share of a slice: its bytes, and 100 for making its file."""
    return 100 + len(member[1] or b"")

def _tessera_zip_slices(data, folder, finder):
    return _TesseraZipSlices(data, folder, finder)

class _TesseraFilesFirst:
    """A finder, first on sys.meta_path while the package's files wait to be
    written: the first import of a module Python does not hold yet (one the
    snapshot lacks) has them written first, then lets the other finders look."""

    def __init__(self, write):
        self.write = write
        self.reading = False   # set while _TesseraZipSlices reads

    def find_spec(self, name, path=None, target=None):
        if self.reading:
            return None
        write, self.write = self.write, None
        self.remove()
        if write is not None:
            write()
        return None

    def remove(self):
        import sys
        if self in sys.meta_path:
            sys.meta_path.remove(self)

    def invalidate_caches(self):
        pass

def _tessera_files_first(write):
    import sys
    finder = _TesseraFilesFirst(write)
    sys.meta_path.insert(0, finder)
    return finder

def _tessera_files_written():
    """The folders' listings the import system keeps were read before the files came."""
    import sys
    for finder in list(sys.path_importer_cache.values()):
        if finder is not None and hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()

def _tessera_read_zip(data, folder):
    import io, struct, zipfile, zlib
    data = data.to_bytes()
    if data[:4] == ZSTD_MAGIC:
        return _tessera_read_framed(data, folder)
    members = []
    for info in zipfile.ZipFile(io.BytesIO(data)).infolist():
        name = info.filename
        if info.compress_type not in (0, 8):
            raise ValueError(f"not extracted here: {name}")
        target = _tessera_member(folder, name)
        if name.endswith("/"):
            members.append((target.rstrip("/"), None))
            continue
        start = info.header_offset
        name_size, extra_size = struct.unpack_from("<HH", data, start + 26)
        begin = start + 30 + name_size + extra_size
        body = data[begin:begin + info.compress_size]
        if info.compress_type == 8:
            body = zlib.decompress(body, -15)
        if zlib.crc32(body) != info.CRC or len(body) != info.file_size:
            raise ValueError(f"damaged: {name}")
        members.append((target, body))
    return members
`;

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

function isZstdFrame(buffer) {
  try {
    const bytes = ArrayBuffer.isView(buffer)
      ? new Uint8Array(buffer.buffer, buffer.byteOffset, Math.min(4, buffer.byteLength))
      : new Uint8Array(buffer, 0, Math.min(4, buffer.byteLength));
    return bytes.length === 4 && ZSTD_MAGIC.every((byte, i) => bytes[i] === byte);
  } catch (error) {
    return false; // not bytes: Pyodide's own unpacking says what it is
  }
}

/** Write what READ_ZIP returned: [[path, bytes or null for a folder], ...]. */
function writeMembers(FS, members) {
  const made = new Set();
  const folder = (path) => {
    if (!made.has(path)) {
      FS.mkdirTree(path);
      made.add(path);
    }
  };
  for (const [path, body] of members) {
    if (body === null || body === undefined) {
      folder(path);
      continue;
    }
    folder(path.slice(0, path.lastIndexOf("/")) || "/");
    FS.writeFile(path, body, { canOwn: true });
  }
}

/** Python functions of the loader (READ_ZIP's, PYSCRIPT_PYC's), by name, and
 * where they came from: the snapshot's module _tessera_loader, which
 * make_snapshot.mjs compiles from these same sources ("snapshot"), or
 * `source` compiled here after a start without it ("compiled").  Compiled
 * in the page, READ_ZIP was a first visit's first Python compile: 45-120 ms
 * of the task that unpacks the package, most of it V8 compiling the wasm's
 * parser and compiler on their first call. */
function loaderFunctions(pyodide, source, names) {
  const module = loaderModule(pyodide);
  const namespace = module || pyodide.toPy({});
  try {
    if (!module) pyodide.runPython(source, { globals: namespace });
    const found = {};
    // A module's attributes are borrowed (destroyed with its proxy): copies.
    for (const name of names) found[name] = module ? module[name].copy() : namespace.get(name);
    return [found, module ? "snapshot" : "compiled"];
  } finally {
    namespace.destroy();
  }
}

/** The snapshot's module _tessera_loader (a proxy the caller destroys), or
 * undefined after a start without the snapshot. */
function loaderModule(pyodide) {
  const sys = pyodide.pyimport("sys");
  const modules = sys.modules;
  try {
    return modules.get("_tessera_loader");
  } finally {
    modules.destroy();
    sys.destroy();
  }
}

function installZipExtractor(pyodide, { later = false } = {}) {
  const general = pyodide.unpackArchive.bind(pyodide);
  const counts = globalThis.tesseraUnpacked = { short: 0, general: 0, deferred: 0 }; // for the tests
  let functions = null;
  const python = () => {
    if (!functions) {
      const names = ["_tessera_read_zip", "_tessera_inner_zip", "_tessera_files_first", "_tessera_files_written",
                     "_tessera_zip_slices"];
      const [got, from] = loaderFunctions(pyodide, READ_ZIP, names);
      functions = { read: got._tessera_read_zip, inner: got._tessera_inner_zip, first: got._tessera_files_first,
                    written: got._tessera_files_written, slices: got._tessera_zip_slices };
      globalThis.tesseraUnzipFrom = from;
    }
    return functions;
  };
  /** The zip inside a zstd frame, for Pyodide's own unpacking (which knows no zstd). */
  const innerZip = (buffer) => {
    const bytes = python().inner(buffer);
    try {
      const view = bytes.getBuffer("u8");
      try {
        return view.data.slice();
      } finally {
        view.release();
      }
    } finally {
      bytes.destroy();
    }
  };
  // An archive the short way (and the deferred one) takes: a zip into a folder, no other option.
  const intoFolder = (format, options) => String(format).toLowerCase() === "zip" && Boolean(options.extractDir)
    && Object.keys(options).length === 1;
  const unpackGeneral = (buffer, format, options) => {
    counts.general += 1;
    return general(isZstdFrame(buffer) ? innerZip(buffer) : buffer, format, options);
  };
  const unpack = (buffer, format, options) => {
    if (intoFolder(format, options)) {
      try {
        const members = python().read(buffer, folderOf(options));
        let list;
        try {
          list = members.toJs();
        } finally {
          members.destroy();
        }
        writeMembers(pyodide.FS, list);
        counts.short += 1;
        return undefined;
      } catch (error) {
        console.warn("Tessera: the zip is unpacked the general way:", error);
      }
    }
    return unpackGeneral(buffer, format, options);
  };
  const writer = later ? laterWriter(pyodide, python, unpackGeneral, counts) : null;
  pyodide.unpackArchive = (buffer, format, options = {}) => {
    if (writer && isZstdFrame(buffer) && intoFolder(format, options)) {
      try {
        writer.add(buffer, format, options);
        return undefined;
      } catch (error) {
        console.warn("Tessera: the package's files are written now:", error);
      }
    }
    return unpack(buffer, format, options);
  };
}

/** Where a zip is unpacked: its extractDir without a trailing slash. */
function folderOf(options) {
  return String(options.extractDir).replace(/\/+$/, "") || "/";
}

const SLICE_BYTES = 1 << 15; // a step of the later writing: about 32 KB of files
const SLICE_MS = 8; // its steps in one idle callback

/** After a start from the snapshot, tessera.zip's files (PyScript's [files],
 * the bots' worker's and embed.js's unpacking) are written once the first
 * screen is up, not before it: the snapshot holds every module that screen
 * and a game need, and writing the files took 45-65 ms of a first visit's
 * start.  They are written a slice at a time in idle callbacks: read and
 * written whole, they were one task of 80-365 ms just after a first visit's
 * home screen.  What needs them sooner gets them at once: an import of a
 * module Python does not hold yet (a rules page's, left for later) has the
 * rest written first (READ_ZIP's _TesseraFilesFirst), and a module that
 * reads its own files reads them when imported (so the snapshot holds what
 * it read).  Files that cannot be read the short way are unpacked by
 * Pyodide's own unpacking; when that fails too (a damaged zip), the page
 * says so (packageDamaged).  `add` takes an archive to write. */
function laterWriter(pyodide, python, unpackGeneral, counts) {
  const slicing = globalThis.tesseraLaterWrites = { callbacks: 0, steps: 0 }; // for the tests
  const waiting = [];
  let current = null; // [buffer, format, options, its reader or null], being written
  let finder = null;
  const pending = () => current !== null || waiting.length > 0;
  const step = () => {
    slicing.steps += 1;
    if (!current) current = [...waiting.shift(), null];
    const [buffer, format, options] = current;
    try {
      if (!current[3]) current[3] = python().slices(buffer, folderOf(options), finder);
      const got = current[3].next(SLICE_BYTES);
      if (got !== undefined && got !== null) { // else every member was given
        let members;
        try {
          members = got.toJs();
        } finally {
          got.destroy();
        }
        writeMembers(pyodide.FS, members);
        return;
      }
      counts.short += 1;
    } catch (error) {
      console.warn("Tessera: the zip is unpacked the general way:", error);
      try {
        unpackGeneral(buffer, format, options);
      } catch (failed) {
        packageDamaged(failed);
      }
    }
    if (current[3]) current[3].destroy();
    current = null;
  };
  const finish = () => {
    if (finder) {
      const found = finder;
      finder = null;
      try {
        found.remove();
      } finally {
        found.destroy();
      }
    }
    try {
      python().written();
    } catch (error) { /* the listings are read again when the folders change */ }
    mark("tessera:files-written");
  };
  const writeAll = () => {
    if (!pending()) return; // written already
    while (pending()) step();
    finish();
  };
  const writeSlice = () => {
    if (!pending()) return; // written already (an import asked first)
    slicing.callbacks += 1;
    const until = performance.now() + SLICE_MS;
    do step(); while (pending() && performance.now() < until);
    if (pending()) whenIdle(writeSlice, 500);
    else finish();
  };
  return {
    add(buffer, format, options) {
      if (!finder) finder = python().first(writeAll);
      const idle = !pending();
      waiting.push([buffer, format, options]);
      counts.deferred += 1;
      // A worker (the bots') writes them only if an import asks: it reads no file.
      if (idle && globalThis.document) afterPageReady(writeSlice, 2000);
    },
  };
}

/** The package's files could not be written (tessera.zip damaged where the
 * service worker keeps it): the app, which runs from the snapshot, says so
 * and offers the reload that fetches the files again (tessera:files-damaged,
 * py/tessera/ui/update_notice.py). */
function packageDamaged(error) {
  console.warn("Tessera: the package's files could not be written:", error);
  globalThis.tesseraFilesDamaged = String((error && error.message) || error);
  try {
    globalThis.dispatchEvent(new Event("tessera:files-damaged"));
  } catch (failed) { /* no events here (a worker without them): the flag stays */ }
}

// Work that can wait for the app's first screen: the page says so by
// changing data-tessera on <html> ("loading" to "ready", or "error");
// a page that never says (a board embedded elsewhere) waits LATER_MS.
// Then it runs when the page is idle.
const LATER_MS = 5000;

function whenIdle(job, timeoutMs = 2000) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(job, { timeout: timeoutMs });
  else setTimeout(job, 0);
}

function afterPageReady(job, idleTimeoutMs) {
  const root = globalThis.document && document.documentElement;
  let timer = 0;
  let observer = null;
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (observer) observer.disconnect();
    whenIdle(job, idleTimeoutMs);
  };
  if (root && root.dataset.tessera && root.dataset.tessera !== "loading") {
    go();
    return;
  }
  timer = setTimeout(go, LATER_MS);
  if (root && typeof MutationObserver === "function") {
    observer = new MutationObserver(() => { if (root.dataset.tessera !== "loading") go(); });
    observer.observe(root, { attributes: true, attributeFilter: ["data-tessera"] });
  }
}

// Before the page's own script, PyScript runs a bootstrap that writes its
// `pyscript` package into the file system and imports it: 14 modules compiled
// from source, 40-90 ms of every start (measured in warm reloads).  The app
// never uses that package, so its import waits until the page is ready and
// idle (the files are written as before; a script that imports it meanwhile
// gets it at once).  The import still happens: its compiling is part of what
// makes V8 keep the wasm's compiled code for a new tab.
//
// In one task that import took 70-190 ms on a first visit, most of it
// compiling.  So the modules are compiled first, one per idle callback, each
// written beside its source as a .pyc (as `py_compile` would, whose own
// import took 100 ms); the import then only reads and runs them (22-39 ms).
// PYSCRIPT_PYC's functions come from the snapshot, like READ_ZIP's
// (loaderFunctions).
const PYSCRIPT_BOOTSTRAP = "import os as _os\n";
const PYSCRIPT_IMPORT = "\nimport pyscript as _pyscript\n";
const PYSCRIPT_PYC = `
IDENTIFIER = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

def _tessera_runs_after(text, prefix, chars):
    """Each run of chars right after prefix in text: re.findall(prefix +
    "([chars]+)") without re, whose first patterns compiled in a first
    visit's page were most of 30-70 ms of this listing's task."""
    found, at = [], text.find(prefix)
    while at >= 0:
        start = end = at + len(prefix)
        while end < len(text) and text[end] in chars:
            end += 1
        if end > start:
            found.append(text[start:end])
        at = text.find(prefix, end)
    return found

def _tessera_pyscript_sources():
    # The modules "import pyscript" loads: its __init__.py and the modules
    # those name, in that order (12 of its 14 files: not .fs or .media).
    # A generator, a file read at each step: listed at once, they were a
    # task of 30-60 ms of a first visit; the page compiles each as it comes.
    import os, sys
    for folder in sys.path:
        package = os.path.join(folder or ".", "pyscript")
        if os.path.isfile(os.path.join(package, "__init__.py")):
            break
    else:
        return
    sources, names = [], ["__init__"]
    while names:
        path = os.path.join(package, names.pop(0) + ".py")
        if path in sources or not os.path.isfile(path):
            continue
        sources.append(path)
        with open(path, encoding="utf-8") as source:
            text = source.read()
        names += _tessera_runs_after(text, "pyscript.", IDENTIFIER)
        for listed in _tessera_runs_after(text, "from pyscript import ", IDENTIFIER + ", "):
            names += [name.strip() for name in listed.split(",")]
        yield path

def _tessera_next_source(sources):
    return next(sources, None)

def _tessera_write_pyc(path):
    import os
    from importlib import _bootstrap_external as external
    try:
        stat = os.stat(path)
        with open(path, "rb") as source:
            code = compile(source.read(), path, "exec", dont_inherit=True)
        cache = external.cache_from_source(path)
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache, "wb") as out:
            out.write(external._code_to_timestamp_pyc(code, stat.st_mtime, stat.st_size))
        return True
    except Exception:   # the import then compiles this one itself
        return False
`;

// The bootstrap itself is Python that writes each file of that package:
// `_path = _Path("./pyscript/x.py")` then `_path.write_text("<JSON>",...)`,
// after making the folder.  Compiling its 33 KB was 15-18 ms of every start;
// with the zip's reader in the snapshot it would also be a first visit's
// first compile, the one that waits for V8 to compile the wasm's parser and
// compiler (45-120 ms for READ_ZIP).  So the loader writes the files itself
// when every line is one it knows, and runs the bootstrap in Python
// otherwise.
const BOOTSTRAP_LINES_WITHOUT_EFFECT = new Set([
  "", "import os as _os", "from pathlib import Path as _Path", "_path = None", "_pyscript = None",
  "del _Path", "del _path", "del _os", "del _pyscript"]);
const BOOTSTRAP_PATH = /^_path = _Path\("([^"\\]+)"\)$/;
const BOOTSTRAP_WRITE = /^_path\.write_text\((".*"),encoding="utf-8"\)$/;
const BOOTSTRAP_FOLDER = /^if not _os\.path\.exists\("([^"\\]+)"\):$/;
const BOOTSTRAP_MKDIR = "    _path.mkdir(parents=True, exist_ok=True)";

/** The folders and files (path, text) the bootstrap makes, or null if it does anything else. */
function bootstrapFiles(code) {
  const folders = [];
  const files = [];
  let path = null;
  const lines = code.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (BOOTSTRAP_LINES_WITHOUT_EFFECT.has(line)) continue;
    let match = BOOTSTRAP_PATH.exec(line);
    if (match) {
      path = match[1];
      continue;
    }
    match = BOOTSTRAP_WRITE.exec(line);
    if (match && path !== null) {
      try {
        files.push([path, JSON.parse(match[1])]);
      } catch (error) {
        return null;
      }
      continue;
    }
    match = BOOTSTRAP_FOLDER.exec(line);
    if (match && match[1] === path && lines[i + 1] === BOOTSTRAP_MKDIR) {
      folders.push(path);
      i += 1;
      continue;
    }
    return null;
  }
  return files.every(([, text]) => typeof text === "string") ? { folders, files } : null;
}

/** Make what bootstrapFiles found, relative to the working folder as Python would; true if done. */
function writeBootstrapFiles(FS, made) {
  const cwd = FS.cwd();
  const absolute = (path) => (path.startsWith("/") ? path : `${cwd === "/" ? "" : cwd}/${path.replace(/^[.][/]/, "")}`);
  try {
    for (const folder of made.folders) FS.mkdirTree(absolute(folder));
    for (const [path, text] of made.files) FS.writeFile(absolute(path), text);
    return true;
  } catch (error) {
    console.warn("Tessera: PyScript's package is written by its own bootstrap:", error);
    return false;
  }
}

function deferPyscriptImport(pyodide) {
  let scheduled = false;
  const importNow = () => {
    try {
      pyodide.pyimport("pyscript").destroy();
      mark("tessera:pyscript-imported");
    } catch (error) {
      console.warn("Tessera: PyScript's own module did not import:", error);
    }
  };
  // Idle callbacks: a source listed and compiled in each; then the import.
  const compileThenImport = () => {
    let sources = null;
    let found = null;
    globalThis.tesseraPyscriptPyc = 0;
    const next = () => {
      let path = null;
      try {
        path = sources ? found._tessera_next_source(sources) : null;
      } catch (error) {
        console.warn("Tessera: the rest of PyScript's modules are imported without compiling them first:", error);
      }
      if (path !== null && path !== undefined) {
        if (found._tessera_write_pyc(path)) globalThis.tesseraPyscriptPyc += 1;
        whenIdle(next);
        return;
      }
      if (sources) sources.destroy();
      if (found) Object.values(found).forEach((proxy) => proxy.destroy());
      importNow();
    };
    try {
      [found] = loaderFunctions(pyodide, PYSCRIPT_PYC,
        ["_tessera_pyscript_sources", "_tessera_next_source", "_tessera_write_pyc"]);
      sources = found._tessera_pyscript_sources();
    } catch (error) {
      console.warn("Tessera: PyScript's modules are imported without compiling them first:", error);
    }
    next();
  };
  const later = () => {
    if (scheduled) return;
    scheduled = true;
    afterPageReady(compileThenImport, 2000);
  };
  for (const name of ["runPython", "runPythonAsync"]) {
    const run = pyodide[name].bind(pyodide);
    pyodide[name] = (code, ...rest) => {
      if (typeof code === "string" && code.startsWith(PYSCRIPT_BOOTSTRAP) && code.includes(PYSCRIPT_IMPORT)) {
        code = code.replace(PYSCRIPT_IMPORT, "\n_pyscript = None\n");
        globalThis.tesseraPyscriptDeferred = true;
        later();
        const made = bootstrapFiles(code);
        if (made && writeBootstrapFiles(pyodide.FS, made)) {
          globalThis.tesseraPyscriptWritten = made.files.length;
          return name === "runPythonAsync" ? Promise.resolve(undefined) : undefined;
        }
      }
      return run(code, ...rest);
    };
  }
}

/** PyScript runs the page's main.py by handing its text to runPython(Async),
 * which compiles it: the start's only compile, and so the first call of the
 * wasm's parser and compiler, which V8 compiles as they are first called.
 * The snapshot holds main.py's text and code (make_snapshot.mjs, COMPILE_MAIN):
 * given that same text, the code is run instead (in one test build, 27 ms
 * from main.py's arrival to its first line instead of 32).  Any other text,
 * or a snapshot without them, is compiled as before. */
function runMainCompiled(pyodide) {
  let main = null;
  try {
    const loader = loaderModule(pyodide);
    if (loader) {
      try {
        const source = loader.MAIN_SOURCE;
        // A module's attributes are borrowed (destroyed with its proxy): a copy.
        if (typeof source === "string" && loader.MAIN_CODE !== undefined) main = { source, code: loader.MAIN_CODE.copy() };
      } finally {
        loader.destroy();
      }
    }
  } catch (error) {
    main = null; // compiled as before
  }
  if (!main) return;
  for (const name of ["runPython", "runPythonAsync"]) {
    const run = pyodide[name].bind(pyodide);
    pyodide[name] = (code, options = {}, ...rest) => {
      if (!main || code !== main.source) return run(code, options, ...rest);
      const { code: compiled } = main;
      main = null; // once: the page has one main.py
      const builtins = pyodide.pyimport("builtins");
      try {
        builtins.exec(compiled, (options && options.globals) || pyodide.globals);
        globalThis.tesseraMainCompiled = true;
      } catch (error) {
        if (name === "runPythonAsync") return Promise.reject(error);
        throw error;
      } finally {
        builtins.destroy();
        compiled.destroy();
      }
      return name === "runPythonAsync" ? Promise.resolve(undefined) : undefined;
    };
  }
}

class WorkerUnavailable extends Error {}

const workers = []; // [kind, worker]: told to keep their inflated copies once Python runs
globalThis.tesseraStored = []; // the kinds whose copies were written ("snapshot", "wasm"): tests wait for them
globalThis.tesseraInflateMs = {}; // per file: the worker's time to inflate it (absent: read from the cache)
globalThis.tesseraCacheMissed = {}; // per file inflated: why no kept copy was used (the tests report it)

/** A worker to inflate a file.  A page of another origin (a board embedded
 * elsewhere) may not start a worker from this site's URL, but may start one
 * of its own that imports it (the site allows cross-origin loading, or
 * nothing of it would have loaded). */
function inflaterFor(url) {
  const options = { type: "module", name: "tessera-inflate" };
  if (typeof location === "undefined" || url.origin === location.origin) return new Worker(url, options);
  const source = new Blob([`import ${JSON.stringify(url.href)};\n`], { type: "text/javascript" });
  return new Worker(URL.createObjectURL(source), options);
}

const CACHE_NAME = "tessera-inflated-snapshot"; // the workers' copies (tessera-snapshot-worker.js)
const cacheKey = (kind) => `${FILES[kind].url}?inflated=${encodeURIComponent(FILES[kind].id)}`;
const built = () => !FILES.snapshot.id.startsWith("__TESSERA"); // a site's loader, not its source

function inflateInWorker(kind, port = null) {
  return new Promise((resolve, reject) => {
    let worker;
    try {
      worker = inflaterFor(WORKER_URL);
    } catch (error) {
      reject(new WorkerUnavailable(String(error)));
      return;
    }
    const fail = (error) => {
      worker.terminate();
      reject(error);
    };
    worker.onmessage = ({ data }) => {
      if (!data || !(data.buffer instanceof ArrayBuffer)) {
        fail(new Error((data && data.error) || `${kind} worker: no data`));
        return;
      }
      if (kind === "snapshot") globalThis.tesseraSnapshotFromCache = !!data.cached;
      else globalThis.tesseraWasmFromCache = !!data.cached;
      mark(data.cached ? `tessera:${kind}-from-cache` : `tessera:${kind}-inflated`);
      if (!data.cached) { // a cached one has nothing to store: it closes itself (checkKeptWasm first)
        globalThis.tesseraInflateMs[kind] = data.inflateMs;
        globalThis.tesseraCacheMissed[kind] = String(data.missed);
        workers.push([kind, worker]);
      }
      resolve(data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new WorkerUnavailable(`${kind} worker failed: ${event.message || "cannot start"}`));
    };
    const { url, id } = FILES[kind];
    const message = { url, id: built() ? id : "", kind, wasmKey: built() ? cacheKey("wasm") : "" };
    if (port) worker.postMessage(message, [port]);
    else worker.postMessage(message);
  });
}

function finishWorkers(store) {
  // Writing 27 MB (the sparse snapshot's 17 and the wasm's 9.6) competes
  // with the app's own start: wait until the first screen is up and the
  // page idle (only idle, the copies were written before the home screen
  // in 3 of 4 first visits; waiting for it too, the home screen was ready
  // at 1,276 ms instead of 1,310, medians of 6).  A worker closes itself
  // once it has written its copy.
  for (const [kind, worker] of workers.splice(0)) {
    if (!store) {
      worker.terminate();
      continue;
    }
    worker.onmessage = ({ data }) => {
      if (!data || !data.stored) return;
      globalThis.tesseraStored.push(kind);
      mark(`tessera:${kind}-stored`);
    };
    afterPageReady(() => worker.postMessage("store"), 5000);
  }
}

/** The first bytes of each file inflated: Pyodide's snapshot, the sparse form, the wasm (the
 * snapshot worker's MAGIC: each module has its own, as the worker imports none on a warm load). */
const INFLATED = {
  snapshot: [[0x00, 0x73, 0x6e, 0x70], [0x74, 0x73, 0x73, 0x70]],
  wasm: [[0x00, 0x61, 0x73, 0x6d]],
};

async function inflateHere(kind) {
  const response = await fetch(FILES[kind].url);
  if (!response.ok) throw new Error(`${kind}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (INFLATED[kind].some((magic) => magic.every((byte, i) => bytes[i] === byte))) return bytes; // the host inflated it
  const decoder = await import(BROTLI_URL);
  const wasm = await fetch(BROTLI_WASM_URL); // as bytes: a host may send .wasm with another type
  if (!wasm.ok) throw new Error(`brotli decoder: HTTP ${wasm.status}`);
  await decoder.default({ module_or_path: await wasm.arrayBuffer() });
  const started = performance.now();
  const plain = decoder.decompress(bytes);
  globalThis.tesseraInflateMs[kind] = performance.now() - started;
  return plain;
}

/** The inflated wasm a worker kept from an earlier load, read from Cache Storage here. */
async function storedWasm() {
  if (!built() || !globalThis.caches) return null;
  try {
    return (await (await caches.open(CACHE_NAME)).match(cacheKey("wasm"))) || null;
  } catch (error) {
    return null; // storage blocked: inflate
  }
}

/** The inflated wasm a worker kept from an earlier load: a Response Pyodide
 * compiles as it reads it.
 *
 * Read here, the Response has no URL, so Chromium keeps no compiled code
 * beside it and a new tab compiles the wasm again (lazily).  Fetched through
 * the service worker instead (the entry then keeps its key as its URL), a new
 * tab read that code, but the page's renderer held 13-16 MB more (measured
 * after a warm reload and a forced GC: 112.7-115.4 MB anonymous against
 * 99.9-102.5 read here, the bare PyScript page 98-99; about half of it freed
 * only when the service worker stopped).  Read here, the bench's warm reload
 * was ready at 441 ms instead of 489 and a new tab at 788 instead of 693
 * (medians of 3); later reloads were as quick either way (the renderer still
 * has the module). */
async function cachedWasm() {
  const hit = await storedWasm();
  if (hit) {
    globalThis.tesseraWasmFromCache = true;
    mark("tessera:wasm-from-cache");
  }
  return hit;
}

/** Whether this is a window no service worker controls: almost always a first visit (see start). */
function uncontrolledWindow() {
  try {
    return Boolean(globalThis.document) && !(navigator.serviceWorker && navigator.serviceWorker.controller);
  } catch (error) {
    return false; // Firefox throws on reading navigator.serviceWorker where storage is blocked
  }
}

/** Start getting both files: { wasm: Promise of a Response, snapshot: Promise of the unmasked bytes }. */
function start() {
  const workers = typeof Worker === "function";
  if (workers) mark("tessera:snapshot-requested");
  const channel = new MessageChannel(); // the wasm's data segments, for the snapshot's worker
  let mask = null; // the same, for this thread
  // A page no service worker controls is almost always a first visit, with
  // no kept copy to find: its wasm's worker starts at once, beside the
  // snapshot's, rather than after this thread has looked in Cache Storage
  // (a fresh profile's, opened while this thread is busy with PyScript: the
  // wasm's worker started 60-270 ms after the snapshot's, and the two files
  // were inflated 30 and 57 ms later than now, medians of 8).  The worker
  // looks there itself, so a copy kept all the same (a reload that bypassed
  // the service worker) is still used, checked by its sum.
  const wasm = (uncontrolledWindow() ? Promise.resolve(null) : cachedWasm()).then(async (hit) => {
    if (hit) {
      channel.port1.postMessage({ cached: true });
      return hit;
    }
    try {
      let bytes = null;
      if (workers) {
        try {
          const data = await inflateInWorker("wasm");
          bytes = new Uint8Array(data.buffer);
          // A copy kept meanwhile (after this page looked: written by its own
          // first load's worker, or another tab's) comes without the data
          // segments: the snapshot's worker then reads them from that copy.
          if (data.mask) mask = new Uint8Array(data.mask);
        } catch (error) {
          if (!(error instanceof WorkerUnavailable)) throw error; // the file itself failed
          console.warn("Tessera: inflating the wasm on the main thread:", error);
        }
      }
      if (!bytes) {
        bytes = await inflateHere("wasm");
        mask = dataMask(bytes);
      }
      channel.port1.postMessage(mask ? { mask: mask.buffer } : { cached: true }); // a copy: 3.2 MB
      return new Response(bytes, { headers: { "Content-Type": "application/wasm" } });
    } catch (error) {
      channel.port1.postMessage({ failed: true });
      throw error;
    }
  });
  const here = async () => {
    const bytes = await inflateHere("snapshot");
    await wasm.catch(() => {});
    if (!mask) { // the wasm came from the cache
      const hit = await storedWasm();
      if (!hit) throw new Error("snapshot: the wasm's data segments are missing");
      mask = dataMask(new Uint8Array(await hit.arrayBuffer()));
    }
    return xorMask(bytes, mask);
  };
  const snapshot = !workers ? here() : inflateInWorker("snapshot", channel.port2).then(
    (data) => new Uint8Array(data.buffer),
    (error) => {
      if (!(error instanceof WorkerUnavailable)) throw error; // the snapshot itself failed
      console.warn("Tessera: inflating the snapshot on the main thread:", error);
      return here();
    });
  return { wasm, snapshot };
}

// The workers start as soon as this module runs: index.html loads it beside
// PyScript's core.js, so both files are on their way before PyScript reads
// its config and asks for the interpreter (100-400 ms later).
// Started earlier still, the files were inflated no sooner: a first visit's
// two cores are busy throughout.  Run by a dynamic import from an inline
// script at the top of <head> (its imports preloaded), this module asked for
// the snapshot at 119 ms instead of 167, which was inflated at 677 ms instead
// of 681, and the home screen was ready at 887 ms against 897 (medians of 8
// first visits; `async` on this module's tag ran it no sooner: Chromium ran
// it after the first frame).  Nor did one worker inflating both files, the
// wasm first (a second worker and decoder saved): home screen 856 against
// 869 ms, within the runs' spread.
let early = null;
if (typeof ReadableStream === "function") {
  early = start();
  early.wasm.catch(() => {}); // handled when loadPyodide takes them
  early.snapshot.catch(() => {});
}

// PyScript fetches the page's package (tessera.zip) and script (main.py)
// only once Python runs, one after the other.  index.html names them in
// <template id="python-files">: fetched as this module runs, their
// responses answer PyScript's requests, once each.  Over a 30 Mbit/s, 40 ms
// network (emulated) a first visit waited 360 ms for them.  On the loopback,
// with main.py run as compiled (runMainCompiled), Python's start to the home
// screen took 147 ms instead of 169 (medians of 8 first visits).
const pageFiles = fetchPageFiles();
answerPageFiles(pageFiles);

function requestUrl(input) {
  return input instanceof URL ? input.href : typeof input === "string" ? input : input && input.url;
}

/** { absolute URL: Promise of its Response } for the files index.html lists
 * as Python's own (none on another page, or where anything fails). */
function fetchPageFiles() {
  const files = new Map();
  try {
    const list = globalThis.document && document.getElementById("python-files");
    for (const link of list && list.content ? list.content.querySelectorAll("link[href]") : []) {
      const url = new URL(link.getAttribute("href"), document.baseURI).href;
      // Low: on a slow network they must not take bandwidth from the snapshot
      // and the wasm, which Python needs first (their workers' requests are High).
      const response = fetch(url, { priority: "low" });
      response.catch(() => {}); // PyScript's request then goes to the network itself
      files.set(url, response);
    }
  } catch (error) { /* PyScript fetches them itself */ }
  return files;
}

/** Answer the first request for each of `files` with its early response (a
 * failed one with a request of its own).  A response nobody asked for by the
 * time the page's first screen is up is let go. */
function answerPageFiles(files) {
  if (!files.size) return;
  const original = globalThis.fetch;
  globalThis.fetch = function fetch(input, init) {
    let key = null;
    try {
      const url = requestUrl(input);
      key = url ? new URL(url, document.baseURI).href : null;
    } catch (error) { /* not a URL: fetch itself says so */ }
    const response = key && files.get(key);
    if (!response) return original.call(this, input, init);
    files.delete(key);
    return response.catch(() => original.call(this, input, init));
  };
  afterPageReady(() => {
    if (document.documentElement.dataset.tessera === "loading") return; // still starting (a slow network)
    for (const response of files.values()) {
      response.then((unused) => unused.body && unused.body.cancel()).catch(() => {});
    }
    files.clear();
  }, 5000);
}

/** Answer Pyodide's request for pyodide.asm.wasm with the inflated wasm, once
 * (a second start, without the snapshot, gets the plain file from the host).
 * Returns the function that stops answering. */
function answerWasmRequests(wasm) {
  const original = globalThis.fetch;
  let answered = false;
  const answering = function fetch(input, init) {
    const url = requestUrl(input);
    if (!answered && url && new URL(url, WASM_URL).href === WASM_URL) {
      answered = true;
      return wasm.catch(() => original(input, init));
    }
    return original(input, init);
  };
  globalThis.fetch = answering;
  return () => {
    if (globalThis.fetch === answering) globalThis.fetch = original;
  };
}

/** A promise rejected when WebAssembly.instantiateStreaming fails while it is
 * watched: Pyodide logs such a failure and then waits forever (a kept wasm
 * that does not compile would leave the page loading).  Returns { failed,
 * stop }. */
function watchInstantiation() {
  const wasm = globalThis.WebAssembly;
  let reject = null;
  const failed = new Promise((resolve, fail) => { reject = fail; });
  failed.catch(() => {});
  if (!wasm || typeof wasm.instantiateStreaming !== "function") return { failed, stop() {} };
  const original = wasm.instantiateStreaming;
  const watching = function instantiateStreaming(...args) {
    const result = original.apply(this, args);
    result.catch(reject);
    return result;
  };
  wasm.instantiateStreaming = watching;
  return {
    failed,
    stop() {
      if (wasm.instantiateStreaming === watching) wasm.instantiateStreaming = original;
    },
  };
}

function mark(name) {
  try {
    performance.mark(name);
  } catch (error) { /* marks are for the bench only */ }
}

/** What Pyodide is given for the snapshot while the bytes are still coming.
 * Pyodide awaits its snapshot before it even instantiates the wasm, for the
 * length alone (the heap's initial size): on a warm load the wasm then
 * compiles and Python's runtime starts only once the 31 MB copy is read,
 * one after the other.  This stand-in has that length (the build's), so the
 * wasm is instantiated while the snapshot comes; Pyodide's module factory
 * (`moduleAwaiting`) then waits for the bytes, which the restore gets in
 * its place. */
class SnapshotStandIn extends Uint8Array {
  constructor(size) {
    super(0);
    Object.defineProperty(this, "length", { value: size });
  }
}

// Whether the start got as far as the kept snapshot copy's bytes, the wasm
// compiled and instantiated: a failure from then on is the copy's to answer
// for (loadPyodide drops it), one before it is not.
let keptSnapshotReached = false;

/** Pyodide's module factory (pyodide.asm.js), resolved only once the snapshot
 * is here too, with its restore given those bytes instead of the stand-in. */
async function moduleAwaiting({ wasm, snapshot }, standIn) {
  // Pyodide's module factory compiles its 1.2 MB body lazily, when first
  // called: 45-70 ms of a first visit's main thread.  Wrapped in parentheses,
  // V8 compiles it with the script, off the main thread (30-38 ms left), but
  // the wasm was then inflated 64 ms later, that compile sharing the cores with
  // the workers: the home screen was ready at 889 ms against 864 (medians
  // of 8 first visits), so pyodide.asm.js is shipped as it comes.
  const { default: createModule } = await import(RUNTIME_URL);
  return async (settings) => {
    // Not before the wasm is here: on a first visit both files are still
    // being inflated, each by a worker, and a runtime started at once shared
    // the two cores with them (a first visit's longest task, medians of 6:
    // 334-514 ms, against 240-244 ms before; started so, 232 ms, median of 8).
    await wasm.catch(() => {});
    const [module, snapshotBytes] = await Promise.all([createModule(settings), snapshot]);
    mark("tessera:runtime-ready");
    keptSnapshotReached = globalThis.tesseraSnapshotFromCache === true;
    let pages = heapPages(snapshotBytes); // either form (wasm-data.mjs); dropped once restored (see release)
    if (pages.length !== standIn.length) throw new Error(`snapshot: ${pages.length} bytes, not ${standIn.length}`);
    const api = module.API;
    const restore = api.restoreSnapshot;
    api.restoreSnapshot = function restoreSnapshot(given) {
      api.restoreSnapshot = restore;
      if (given !== standIn) return restore.call(this, given);
      const taken = pages;
      pages = null;
      // Pyodide's restore reads its header and copies what follows it: given
      // the header alone, it copies nothing, and the heap is copied here, a
      // page at a time, its zero pages left out.
      const header = restore.call(this, taken.header);
      const counts = globalThis.tesseraHeapPages = copyHeapPages(module.HEAP8, taken, heapInUse(module));
      if (globalThis.tesseraCheckHeapCopy === true) counts.identical = holdsHeapPages(module.HEAP8, taken); // tests
      return header;
    };
    // The runtime's set-up and Python's restore each take a long task of their
    // own: in one, in a new tab (the wasm's functions compiled as first
    // called), they were the start's longest task, 170-195 ms.
    await nextTask();
    return module;
  };
}

/** A new task, soon: scheduler.yield() where there is one (the start then goes
 * on ahead of other tasks), else a message (a timer waits up to a second in
 * a hidden tab). */
function nextTask() {
  if (globalThis.scheduler && typeof globalThis.scheduler.yield === "function") return globalThis.scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** How far the runtime has used the wasm memory before the restore (its
 * data, stack and heap lie below the heap's break, `sbrk(0)`): the memory
 * above is untouched, so zero.  The whole memory when that is not known. */
function heapInUse(module) {
  try {
    const top = typeof module._sbrk === "function" ? module._sbrk(0) >>> 0 : 0;
    return top > 0 && top <= module.HEAP8.byteLength ? top : module.HEAP8.byteLength;
  } catch (error) {
    return module.HEAP8.byteLength;
  }
}

/** Let the snapshot's 31 MB go once Python runs.  Detaching the buffer is
 * not enough: the bytes came from a worker (or a Response), so Blink holds
 * them too, for as long as the buffer's JavaScript object lives (measured:
 * 26-30 MB of the renderer kept for the page's life).  So nothing may keep
 * that object either: Pyodide keeps its options as API.config, and with
 * them _loadSnapshot and our module factory, whose closure holds the
 * promise of the bytes (the restore's wrapper drops its own reference). */
function release(pyodide, snapshot) {
  try {
    const config = pyodide._api && pyodide._api.config;
    if (config) {
      delete config._loadSnapshot;
      delete config.createPyodideModule;
    }
  } catch (error) { /* private API moved: the detach below still frees the V8 side */ }
  const buffer = snapshot && snapshot.buffer;
  if (buffer && typeof buffer.transfer === "function" && !buffer.detached) buffer.transfer(0);
}

/** Python started the ordinary way (its full standard library), unpacking zips as the snapshot's does:
 * tessera.zip is a zstd frame that Pyodide's own unpacking cannot read. */
async function startPlain(options) {
  globalThis.tesseraSnapshotUsed = false;
  const pyodide = await loadPlain({ ...options, stdLibURL: FULL_URL });
  installZipExtractor(pyodide);
  return pyodide;
}

export async function loadPyodide(options = {}) {
  const files = early || (typeof ReadableStream === "function" ? start() : null);
  early = null;
  if (!files) return startPlain(options);
  let snapshot = null;
  // Pyodide awaits the snapshot only after loading its own files: until then
  // a failure must not count as an unhandled rejection.
  const pending = files.snapshot.then((bytes) => {
    snapshot = bytes;
    mark("tessera:snapshot-ready");
    return bytes;
  });
  pending.catch(() => {});
  const stopAnswering = answerWasmRequests(files.wasm);
  const instantiation = watchInstantiation();
  try {
    let settings = { ...options, _loadSnapshot: pending };
    if (Number.isSafeInteger(SNAPSHOT_SIZE) && SNAPSHOT_SIZE > 0) {
      const standIn = new SnapshotStandIn(SNAPSHOT_SIZE);
      settings = { ...options, _loadSnapshot: standIn, createPyodideModule: await moduleAwaiting({ wasm: files.wasm, snapshot: pending }, standIn) };
    }
    const pyodide = await Promise.race([loadPlain(settings), instantiation.failed]);
    globalThis.tesseraSnapshotUsed = true;
    mark("tessera:python-started");
    release(pyodide, snapshot);
    finishWorkers(true);
    installZipExtractor(pyodide, { later: true });
    deferPyscriptImport(pyodide);
    runMainCompiled(pyodide);
    try {
      installFallbackImporter(pyodide);
    } catch (error) { // Python runs: only a module the snapshot lacks could now fail to import
      console.warn("Tessera: no fallback importer for the standard library:", error);
    }
    return pyodide;
  } catch (error) {
    release({}, snapshot);
    finishWorkers(false);
    // A kept copy may be what failed: the wasm (it did not compile), or the
    // snapshot once its bytes were in hand.  The worker checks a kept copy's
    // sum before it hands it over, so such a copy passed it: a form not the
    // build's, or damage the sum missed (a heap garbled but whole in form
    // restores, and Python's bootstrap then traps, or loops for ever).
    // Dropped, it is made again by the next load instead of failing every
    // load (each then started the plain way, 1.5-2.4 s).
    const kept = [["wasm", globalThis.tesseraWasmFromCache], ["snapshot", keptSnapshotReached]];
    for (const [kind, drop] of kept) {
      if (drop === true && globalThis.caches) {
        caches.open(CACHE_NAME).then((cache) => cache.delete(cacheKey(kind))).catch(() => {});
      }
    }
    console.warn("Tessera: no memory snapshot, starting Python from scratch:", error);
  } finally {
    stopAnswering();
    instantiation.stop();
  }
  return startPlain(options);
}
