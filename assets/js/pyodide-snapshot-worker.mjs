// Module worker that fetches and inflates the memory snapshot off the main
// thread (copied to vendor/pyodide/tessera-snapshot-worker.js, beside the
// loader, tessera-pyodide.js, which starts it).
//
// In:  { url, id }  the snapshot's URL and the build's id for it;
//      "store"      later, once Python started: keep the inflated copy.
// Out: { buffer, cached } (the ArrayBuffer, transferred, not copied) or { error }.
//
// Inflating ~31 MB takes 100-300 ms of CPU; here it never blocks the page.
// The inflated bytes are also kept in Cache Storage (one entry per snapshot
// URL, the build's id in the key), so later loads read them back (~30 ms)
// instead of inflating again; a new build's snapshot replaces the old entry.
// The copy is written after the page has started ("store"), and only where
// Cache Storage exists (secure contexts).  When a host sent the file with
// Content-Encoding: gzip, the browser has inflated it already: the body does
// not start with the gzip magic bytes and is used as it is.

const CACHE_NAME = "tessera-inflated-snapshot";
const SNAPSHOT_MAGIC = [0x00, 0x73, 0x6e, 0x70]; // Pyodide's snapshot header (little-endian 0x706e7300)

let pending = null; // { cache, key, url, response } waiting for "store"

async function openCache() {
  try {
    return globalThis.caches ? await caches.open(CACHE_NAME) : null;
  } catch (error) {
    return null; // storage blocked (private mode, policy): just inflate
  }
}

function looksLikeSnapshot(buffer) {
  const head = new Uint8Array(buffer, 0, Math.min(4, buffer.byteLength));
  return head.length === 4 && SNAPSHOT_MAGIC.every((byte, i) => head[i] === byte);
}

async function inflate(url) {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`snapshot: HTTP ${response.status}`);
  const reader = response.body.getReader();
  const first = await reader.read();
  const head = first.done ? new Uint8Array(0) : first.value;
  const gzipped = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  const body = new ReadableStream({
    start(controller) {
      if (head.length) controller.enqueue(head);
      if (first.done) controller.close();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const plain = gzipped ? body.pipeThrough(new DecompressionStream("gzip")) : body;
  return new Response(plain).arrayBuffer();
}

async function load({ url, id }) {
  const cache = id ? await openCache() : null;
  const key = `${url}?inflated=${encodeURIComponent(id)}`;
  if (cache) {
    try {
      const hit = await cache.match(key);
      if (hit) {
        const buffer = await hit.arrayBuffer();
        if (looksLikeSnapshot(buffer)) return { buffer, cached: true };
        await cache.delete(key);
      }
    } catch (error) { /* unreadable entry: inflate */ }
  }
  const buffer = await inflate(url);
  if (cache && looksLikeSnapshot(buffer)) {
    // new Response copies the bytes, so the buffer itself can be transferred.
    pending = { cache, key, url, response: new Response(buffer) };
  }
  return { buffer, cached: false };
}

async function store() {
  const job = pending;
  pending = null;
  if (!job) return;
  try {
    await job.cache.put(job.key, job.response);
    for (const request of await job.cache.keys()) {
      if (request.url.startsWith(`${job.url}?inflated=`) && request.url !== job.key) {
        await job.cache.delete(request);
      }
    }
  } catch (error) { /* quota or storage errors only cost the next load some time */ }
}

self.onmessage = async ({ data }) => {
  if (data === "store") {
    await store();
    self.close();
    return;
  }
  try {
    const { buffer, cached } = await load(data);
    self.postMessage({ buffer, cached }, [buffer]);
  } catch (error) {
    self.postMessage({ error: String((error && error.message) || error) });
  }
  if (!pending) self.close();
  else setTimeout(() => self.close(), 60_000); // no "store" (the page failed): give up the copy
};
