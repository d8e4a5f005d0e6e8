// Module worker: the bots' own Python, so the page's main thread only draws
// (started by py/tessera/ui/think_worker.py; copied as is to
// site/assets/js/think-worker.js).
//
// It starts Pyodide from the site's memory snapshot with the same loader
// the page uses (vendor/pyodide/tessera-pyodide.js: the inflated snapshot
// comes from Cache Storage once the page has kept it), unpacks tessera.zip
// and hands every message from the page to tessera.bots.service's
// ThinkService.  Work runs in slices of SLICE_MS; between two slices the
// worker's event loop takes the page's newer messages (a cancel, a move
// made meanwhile), so nothing waits for a whole search to end.
//
// In:  JSON text, one request (see bots/service.py).
// Out: JSON text, a list of messages: {type: "ready", ...} once, then the
//      service's answers; {type: "failed", error} if Python cannot start
//      (the page then thinks on its own thread).

import { loadPyodide } from "../../vendor/pyodide/tessera-pyodide.js";

const SLICE_MS = 40;
const INDEX_URL = new URL("../../vendor/pyodide/", import.meta.url).href;
const ZIP_URL = new URL("../../tessera.zip", import.meta.url).href;

let service = null;
const early = []; // messages that came before Python was ready
let scheduled = false;
const tick = new MessageChannel(); // a turn of the event loop without setTimeout's clamping

function post(text) {
  if (text) self.postMessage(text);
}

function fail(error) {
  service = null;
  post(JSON.stringify([{ type: "failed", error: String((error && error.message) || error) }]));
  self.close();
}

function schedule() {
  if (!scheduled) {
    scheduled = true;
    tick.port2.postMessage(null);
  }
}

tick.port1.onmessage = () => {
  scheduled = false;
  if (!service) return;
  try {
    post(service.step(SLICE_MS));
    if (service.busy()) schedule();
  } catch (error) {
    fail(error); // Python itself broke (memory): the page takes over
  }
};

function deliver(text) {
  try {
    post(service.receive(String(text)));
    schedule();
  } catch (error) {
    fail(error);
  }
}

self.onmessage = ({ data }) => {
  if (service) deliver(data);
  else early.push(data);
};

async function start() {
  const began = performance.now();
  const pyodide = await loadPyodide({ indexURL: INDEX_URL });
  const started = performance.now();
  const response = await fetch(ZIP_URL);
  if (!response.ok) throw new Error(`tessera.zip: HTTP ${response.status}`);
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/home/pyodide" });
  const module = pyodide.pyimport("tessera.bots.service");
  try {
    service = module.ThinkService();
  } finally {
    module.destroy();
  }
  post(JSON.stringify([{
    type: "ready",
    start_ms: started - began,
    import_ms: performance.now() - started,
    snapshot: globalThis.tesseraSnapshotUsed === true,
    unpacked: globalThis.tesseraUnpacked ?? null, // which way tessera.zip went (pyodide-snapshot.mjs)
    heap_mb: pyodide._module && pyodide._module.HEAP8 ? pyodide._module.HEAP8.length / 1e6 : null,
  }]));
  for (const text of early.splice(0)) deliver(text);
}

start().catch(fail);
