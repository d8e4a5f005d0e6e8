// PyScript's `interpreter` module (copied to vendor/pyodide/tessera-pyodide.js,
// next to pyodide.js, Pyodide's pyodide.mjs as the site names it, so Pyodide's
// indexURL stays that folder; the site's modules end in .js, see build_site.py).
//
// It starts Pyodide from the build's memory snapshot (snapshot.bin.gz, made
// by scripts/make_snapshot.mjs): the interpreter and the engines come up
// already imported, which saves most of the start-up time.
//
// - The snapshot is fetched and inflated by a module worker
//   (tessera-snapshot-worker.js, beside this file), started when this module
//   is first evaluated (index.html loads it early), so it runs while PyScript
//   and Pyodide load and compile; the inflated ArrayBuffer is transferred,
//   not copied, so the page's main thread only does Pyodide's own copy into
//   wasm memory.  If the worker cannot start, it is inflated here.
// - The worker also keeps the inflated snapshot in Cache Storage once Python
//   has started, so a warm load reads it back instead of inflating it again
//   (`globalThis.tesseraSnapshotFromCache`).
// - Once Pyodide has copied it, the ~31 MB buffer is released: Pyodide keeps
//   its options (and so the promise of the snapshot) for its whole life, so
//   that reference is dropped and the buffer detached.
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

export { version };

const SNAPSHOT_URL = new URL("./snapshot.bin.gz", import.meta.url).href;
const WORKER_URL = new URL("./tessera-snapshot-worker.js", import.meta.url);
// The snapshot's content hash, filled in by scripts/build_site.py: the key of
// the inflated copy the worker keeps in Cache Storage for later loads.
const SNAPSHOT_ID = "__TESSERA_SNAPSHOT_ID__";
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

class WorkerUnavailable extends Error {}

let snapshotWorker = null; // told to keep its inflated copy once Python runs

/** The snapshot worker.  A page of another origin (a board embedded
 * elsewhere) may not start a worker from this site's URL, but may start one
 * of its own that imports it (the site allows cross-origin loading, or
 * nothing of it would have loaded). */
function snapshotWorkerFor(url) {
  const options = { type: "module", name: "tessera-snapshot" };
  if (typeof location === "undefined" || url.origin === location.origin) return new Worker(url, options);
  const source = new Blob([`import ${JSON.stringify(url.href)};\n`], { type: "text/javascript" });
  return new Worker(URL.createObjectURL(source), options);
}

function inflateInWorker() {
  return new Promise((resolve, reject) => {
    let worker;
    try {
      worker = snapshotWorkerFor(WORKER_URL);
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
        fail(new Error((data && data.error) || "snapshot worker: no data"));
        return;
      }
      globalThis.tesseraSnapshotFromCache = !!data.cached;
      mark(data.cached ? "tessera:snapshot-from-cache" : "tessera:snapshot-inflated");
      snapshotWorker = data.cached ? null : worker; // a cached one has nothing to store: it closed itself
      resolve(data.buffer);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new WorkerUnavailable(`snapshot worker failed: ${event.message || "cannot start"}`));
    };
    worker.postMessage({ url: SNAPSHOT_URL, id: SNAPSHOT_ID.startsWith("__TESSERA") ? "" : SNAPSHOT_ID });
  });
}

function finishWorker(store) {
  const worker = snapshotWorker;
  snapshotWorker = null;
  if (!worker) return;
  if (!store) {
    worker.terminate();
    return;
  }
  // Writing 31 MB competes with the app's own start: wait until the page is
  // idle.  The worker closes itself once it has written the copy.
  const go = () => worker.postMessage("store");
  if (typeof requestIdleCallback === "function") requestIdleCallback(go, { timeout: 5000 });
  else setTimeout(go, 1000);
}

async function inflateHere() {
  const response = await fetch(SNAPSHOT_URL);
  if (!response.ok) throw new Error(`snapshot: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.buffer; // the host inflated it
  const plain = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(plain).arrayBuffer();
}

// The worker starts as soon as this module runs: index.html loads it beside
// PyScript's core.js, so the snapshot is on its way before PyScript reads its
// config and asks for the interpreter (100-400 ms later).
let early = null;
if ("DecompressionStream" in globalThis && typeof Worker === "function") {
  mark("tessera:snapshot-requested");
  early = inflateInWorker();
  early.catch(() => {}); // handled when loadPyodide takes it
}

async function fetchSnapshot() {
  const started = early || (typeof Worker === "function" ? inflateInWorker() : null);
  early = null;
  if (started) {
    try {
      return new Uint8Array(await started);
    } catch (error) {
      if (!(error instanceof WorkerUnavailable)) throw error; // the snapshot itself failed
      console.warn("Tessera: inflating the snapshot on the main thread:", error);
    }
  }
  return new Uint8Array(await inflateHere());
}

function mark(name) {
  try {
    performance.mark(name);
  } catch (error) { /* marks are for the bench only */ }
}

function release(pyodide, snapshot) {
  // Pyodide keeps its options as API.config, _loadSnapshot included.
  try {
    if (pyodide._api && pyodide._api.config) delete pyodide._api.config._loadSnapshot;
  } catch (error) { /* private API moved: the detach below still frees the bytes */ }
  const buffer = snapshot && snapshot.buffer;
  if (buffer && typeof buffer.transfer === "function" && !buffer.detached) buffer.transfer(0);
}

export async function loadPyodide(options = {}) {
  if ("DecompressionStream" in globalThis) {
    let snapshot = null;
    const pending = fetchSnapshot().then((bytes) => (snapshot = bytes));
    // Pyodide awaits it only after loading its own files: until then a
    // failure must not count as an unhandled rejection.
    pending.catch(() => {});
    try {
      const pyodide = await loadPlain({ ...options, _loadSnapshot: pending });
      globalThis.tesseraSnapshotUsed = true;
      mark("tessera:python-started");
      release(pyodide, snapshot);
      finishWorker(true);
      try {
        installFallbackImporter(pyodide);
      } catch (error) { // Python runs: only a module the snapshot lacks could now fail to import
        console.warn("Tessera: no fallback importer for the standard library:", error);
      }
      return pyodide;
    } catch (error) {
      release({}, snapshot);
      finishWorker(false);
      console.warn("Tessera: no memory snapshot, starting Python from scratch:", error);
    }
  }
  globalThis.tesseraSnapshotUsed = false;
  return loadPlain({ ...options, stdLibURL: FULL_URL });
}
