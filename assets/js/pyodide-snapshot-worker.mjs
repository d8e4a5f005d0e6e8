// Module worker that fetches and inflates one of Pyodide's two big files off
// the main thread (copied to vendor/pyodide/tessera-snapshot-worker.js,
// beside the loader, tessera-pyodide.js, which starts one for each: they
// inflate in parallel).
//
// In:  { url, id, kind, wasmKey }: the file's URL (.br), the build's id
//                         for it, "snapshot" or "wasm"; a snapshot's comes
//                         with a MessagePort on which the page sends the
//                         wasm's data segments (dataMask, which the wasm's
//                         worker made) to unmask the heap with, or {cached:
//                         true} when the page read the wasm from the cache
//                         (this worker then reads it there, at wasmKey);
//      "store"            later, once Python started: keep the inflated copy
//                         (answered { stored }: true once written and older copies deleted).
// Out: { buffer, cached, inflateMs, mask, missed } (ArrayBuffers,
//      transferred, not copied; a snapshot unmasked, sparse as shipped
//      (its zero pages left out, wasm-data.mjs); a wasm's data segments;
//      why a file was inflated rather than read from its kept copy) or
//      { error }.
//
// Both files ship brotli-compressed at its strongest (31% and 22% smaller
// than gzip -9 on these two): the memory snapshot (31 MB, with the wasm's
// data segments XORed out of its heap, see wasm-data.mjs, and its zero
// pages left out: 17 MB) and pyodide.asm.wasm (9.6 MB).  No browser inflates
// brotli itself outside HTTP, so a small wasm decoder, the brotli-dec-wasm
// package, does it here, as the bytes come: alone in Chromium, it inflates
// them in 65-70 and 41 ms, where xz (3% smaller) took 230-245 and 172 ms, and
// a first visit's two cores have the page to start besides.
// The inflated bytes are also kept in Cache Storage (one entry per file
// URL, the build's id in the key), so later loads read them back (~30 ms)
// instead of inflating again; a new build's file replaces the old entry.
// The copy is written after the page has started ("store"), and only where
// Cache Storage exists (secure contexts); the snapshot is kept unmasked and
// sparse as shipped (17 MB, not 31: less to read back), the wasm with its
// type, so the page hands that entry to Pyodide as it is.  Each copy carries
// a sum of its bytes, which this worker checks before it uses one
// (SUM_HEADER); one kept by an earlier version, without it, is inflated again.
// The page reads the kept wasm itself: this worker checks that copy's sum
// when it unmasks a snapshot with it, or a moment after handing over a kept
// snapshot (checkKeptWasm).
// A copy in either form of the snapshot (wasm-data.mjs: whole or sparse) is used.
// A body that starts like the inflated file (a host that serves it with a
// Content-Encoding, which the browser inflates) is used as it is.
// The decoder and the data segments' helpers are imported only to inflate:
// a warm load's worker reads its copy from the cache at once, without
// first fetching and evaluating them (Pyodide is waiting for the snapshot).
const brotliModule = () => import("../brotli/brotli_dec_wasm.js");
const BROTLI_WASM_URL = new URL("../brotli/brotli_dec_wasm_bg.wasm", import.meta.url);
const wasmDataModule = () => import("./tessera-wasm-data.js");

const CACHE_NAME = "tessera-inflated-snapshot";
const MAGIC = {
  snapshot: [[0x00, 0x73, 0x6e, 0x70], [0x74, 0x73, 0x73, 0x70]], // Pyodide's header (0x706e7300); sparse ("tssp")
  wasm: [[0x00, 0x61, 0x73, 0x6d]], // "\0asm"
};
const OUTPUT_BYTES = 1 << 20; // inflated bytes taken from the decoder at a time

let pending = null; // { cache, key, url, copy, headers } waiting for "store"
let afterReply = null; // work left once the page has its file (checkKeptWasm)

// A kept copy carries a sum of its bytes (a response header), checked before
// the copy is used: a snapshot garbled in storage, its form intact, restored
// a heap that Python's bootstrap either trapped on or looped in for ever on
// the page's main thread (the page frozen, and every load the same, as the
// copy was never found wrong).  A copy without the sum (kept by an earlier
// version), or whose sum differs, is inflated again.
const SUM_HEADER = "X-Tessera-Sum";

/** Fletcher's sum of bytes (over 16-bit halves, little-endian, modulo
 * 65521), with their length, fed in parts as they are read: 6 ms for the
 * 17 MB snapshot in a new worker.  Its two sums stay small integers (reduced
 * every 64 halves), which V8 keeps unboxed before it optimizes the loop: on
 * 32-bit words the same sum took 20-25 ms there. */
class RunningSum {
  a = 1;
  b = 0;
  length = 0;
  odd = -1; // a part's last byte, when its length was odd: the low half of the next half-word

  add(bytes) {
    let a = this.a;
    let b = this.b;
    let from = 0;
    if (this.odd >= 0 && bytes.length) {
      a = (a + this.odd + bytes[0] * 256) % 65521;
      b = (b + a) % 65521;
      this.odd = -1;
      from = 1;
    }
    const count = (bytes.length - from) >>> 1;
    const start = bytes.byteOffset + from;
    const halves = start & 1 ? new Uint16Array(bytes.slice(from, from + 2 * count).buffer)
      : new Uint16Array(bytes.buffer, start, count);
    for (let i = 0; i < count;) {
      for (const end = Math.min(count, i + 64); i < end; i++) {
        a += halves[i];
        b += a;
      }
      a %= 65521;
      b %= 65521;
    }
    if ((bytes.length - from) & 1) this.odd = bytes[bytes.length - 1];
    this.a = a;
    this.b = b;
    this.length += bytes.length;
    return this;
  }

  result() {
    let { a, b } = this;
    if (this.odd >= 0) {
      a = (a + this.odd) % 65521;
      b = (b + a) % 65521;
    }
    return `${this.length}:${a.toString(16)}:${b.toString(16)}`;
  }
}

function contentSum(buffer) {
  return new RunningSum().add(new Uint8Array(buffer)).result();
}

/** Whether a kept copy's bytes still give the sum it was kept with; read as a stream, so
 * that the 9.6 MB of a wasm checked beside the page's start are never held at once. */
async function keptWhole(response) {
  const kept = response.headers.get(SUM_HEADER);
  if (!kept || !response.body) return false;
  const sum = new RunningSum();
  const reader = response.body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) sum.add(part.value);
  return sum.result() === kept;
}

async function openCache() {
  try {
    return globalThis.caches ? await caches.open(CACHE_NAME) : null;
  } catch (error) {
    return null; // storage blocked (private mode, policy): just inflate
  }
}

function startsLike(kind, bytes) {
  return bytes.length >= 4 && MAGIC[kind].some((magic) => magic.every((byte, i) => bytes[i] === byte));
}

function looksLike(kind, buffer) {
  return startsLike(kind, new Uint8Array(buffer, 0, Math.min(4, buffer.byteLength)));
}

/** The brotli decoder's module, its wasm instantiated (once per worker).  Its
 * wasm is fetched as bytes, not handed over as a URL: a host that sends .wasm
 * files with another type than application/wasm would cost a failed
 * streaming compile first, and a warning. */
async function brotliDecoder() {
  const [decoder, wasm] = await Promise.all([brotliModule(), fetch(BROTLI_WASM_URL).then(wasmBytes)]);
  await decoder.default({ module_or_path: wasm });
  return decoder;
}

async function wasmBytes(response) {
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** The file's bytes, inflated as they come. */
async function inflate(url, kind, cache = "default") {
  const decoder = brotliDecoder(); // fetched and compiled while the file comes
  decoder.catch(() => {});
  const response = await fetch(url, { cache });
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
  const reader = response.body.getReader();
  let chunk = await reader.read();
  if (!chunk.done && startsLike(kind, chunk.value)) { // a host that sent it inflated (Content-Encoding: br)
    const parts = [];
    let total = 0;
    for (; !chunk.done; chunk = await reader.read()) {
      parts.push(chunk.value);
      total += chunk.value.length;
    }
    return { buffer: joined(parts, total), inflateMs: 0 };
  }
  const { BrotliDecStream, BrotliStreamResultCode: Code } = await decoder;
  const started = performance.now();
  const stream = new BrotliDecStream();
  const parts = [];
  let total = 0;
  let whole = false;
  try {
    for (; !chunk.done; chunk = await reader.read()) {
      let input = chunk.value;
      for (;;) {
        const result = stream.dec(input, OUTPUT_BYTES); // throws on bytes that are not brotli
        const { buf, code, input_offset: used } = result;
        result.free();
        if (buf.length) parts.push(buf);
        total += buf.length;
        input = input.subarray(used);
        if (code === Code.ResultSuccess) {
          whole = true;
          while (!(await reader.read()).done); // the body's end (a cancelled fetch shows as failed)
          return { buffer: joined(parts, total), inflateMs: performance.now() - started };
        }
        if (code === Code.NeedsMoreInput) break; // (NeedsMoreOutput: decode on)
      }
    }
    throw new Error(`${url}: cut short`);
  } finally {
    stream.free();
    if (!whole) reader.cancel().catch(() => {});
  }
}

function joined(parts, total) {
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out.buffer;
}

/** The file inflated, checked to be what it should be.  A file that does not
 * inflate to that (cut short, garbled, not brotli) is asked for once more
 * from the host, past every cache: the service worker answers from its own
 * first, so a copy damaged there would otherwise fail every load the same way
 * (each then started Python the plain way), and its fresh answer replaces
 * the damaged copy (sw.js). */
async function inflatedFromHost(url, kind) {
  const inflated = async (cache) => {
    const result = await inflate(url, kind, cache);
    if (!looksLike(kind, result.buffer)) throw new Error(`${url}: not a ${kind} once inflated`);
    return result;
  };
  try {
    return await inflated("default");
  } catch (error) {
    console.warn(`Tessera: ${url} is asked for again from the host:`, error);
    return inflated("reload");
  }
}

/** What the page says of its wasm on the port: { mask } (inflated), { cached: true } (the kept
 * copy) or { failed: true }; null when there is no port, or no word within `waitMs`. */
function pageWasm(port, waitMs = Infinity) {
  if (!port) return Promise.resolve(null);
  return new Promise((resolve) => {
    port.onmessage = ({ data }) => resolve(data);
    if (waitMs < Infinity) setTimeout(() => resolve(null), waitMs);
  });
}

/** The wasm's data segments, from the wasm's worker or, when the page had the wasm cached, from there. */
async function maskFrom(port, cache, wasmKey) {
  const message = await pageWasm(port);
  if (message && message.mask) return new Uint8Array(message.mask);
  const hit = cache && wasmKey ? await cache.match(wasmKey) : null;
  if (!hit) throw new Error("snapshot: the wasm's data segments are missing");
  const sum = hit.headers.get(SUM_HEADER);
  const bytes = await hit.arrayBuffer();
  if (!sum || sum !== contentSum(bytes)) {
    // Unmasked with damaged data segments, the heap would be kept damaged under a right sum.
    await cache.delete(wasmKey);
    throw new Error(`snapshot: the kept wasm is damaged (${bytes.byteLength} bytes)`);
  }
  return (await wasmDataModule()).dataMask(new Uint8Array(bytes));
}

// The page compiles the kept wasm itself, unchecked.  Damage in its code
// fails the compile, and the page drops the copy; damage in its data
// segments compiles, and does no harm beside a kept snapshot (which brings
// the heap's data), but a snapshot later unmasked with those segments would
// be garbled: maskFrom checks the copy then, at the cost of a plain start.
// So that it does not come to that, this worker checks the copy a moment
// after handing over a kept snapshot and drops a damaged one; the next load
// inflates it again.  It waits so as not to take a core from the start (a
// warm start's home screen is up 250-450 ms after the snapshot is handed over).
const WASM_CHECK_DELAY_MS = 1500;

/** Check the kept wasm the page compiled, if it did; drop it if its sum is wrong. */
async function checkKeptWasm(port, cache, wasmKey) {
  const message = await pageWasm(port, 30_000);
  if (!message || !message.cached) return;
  await new Promise((resolve) => { setTimeout(resolve, WASM_CHECK_DELAY_MS); });
  try {
    const hit = await cache.match(wasmKey);
    if (hit && !(await keptWhole(hit))) {
      await cache.delete(wasmKey);
      console.warn("Tessera: the kept wasm was damaged; the next load makes it again");
    }
  } catch (error) {
    // storage errors: checked again by the next load
  }
}

async function load({ url, id, kind, wasmKey }, port) {
  const cache = id ? await openCache() : null;
  const key = `${url}?inflated=${encodeURIComponent(id)}`;
  let missed = id ? "no cache" : "not a build"; // why the file is inflated: for the tests and the bench
  if (cache) {
    try {
      const hit = await cache.match(key);
      missed = "no copy";
      if (hit) {
        const buffer = await hit.arrayBuffer();
        const sum = hit.headers.get(SUM_HEADER);
        const shaped = looksLike(kind, buffer);
        if (shaped && sum && sum === contentSum(buffer)) {
          if (kind === "snapshot" && wasmKey) afterReply = () => checkKeptWasm(port, cache, wasmKey);
          return { buffer, cached: true };
        }
        missed = shaped && !sum ? `an unchecked copy (${buffer.byteLength} bytes)`
          : `a damaged copy (${buffer.byteLength} bytes)`;
        await cache.delete(key);
      }
    } catch (error) {
      missed = `an unreadable copy: ${String((error && error.message) || error)}`; // inflate
    }
  }
  const wasmData = wasmDataModule(); // fetched while the file comes (it took 20-40 ms after it)
  wasmData.catch(() => {});
  const { buffer, inflateMs } = await inflatedFromHost(url, kind);
  const bytes = new Uint8Array(buffer);
  // A copy to keep, so the buffer itself can be transferred; a snapshot's is
  // made while it waits for the wasm's data segments, then unmasked with them.
  const copy = cache ? buffer.slice(0) : null;
  let mask = null;
  if (kind === "wasm") {
    mask = (await wasmData).dataMask(bytes).buffer;
  } else { // sparse as shipped (wasm-data.mjs), unmasked here
    const { xorMask } = await wasmData;
    const segments = await maskFrom(port, cache, wasmKey);
    xorMask(bytes, segments);
    if (copy) xorMask(new Uint8Array(copy), segments);
  }
  if (copy) pending = { cache, key, url, copy, headers: kind === "wasm" ? { "Content-Type": "application/wasm" } : {} };
  return { buffer, cached: false, inflateMs, mask, missed };
}

/** Keep the inflated copy and delete older builds' copies; whether that was done. */
async function store() {
  const job = pending;
  pending = null;
  if (!job) return false;
  try {
    const headers = { ...job.headers, [SUM_HEADER]: contentSum(job.copy) };
    await job.cache.put(job.key, new Response(job.copy, { headers }));
    for (const request of await job.cache.keys()) {
      if (request.url.startsWith(`${job.url}?inflated=`) && request.url !== job.key) {
        await job.cache.delete(request);
      }
    }
    return true;
  } catch (error) {
    return false; // quota or storage errors only cost the next load some time
  }
}

self.onmessage = async (event) => {
  const { data } = event;
  if (data === "store") {
    self.postMessage({ stored: await store() }); // true: the copy is written and older ones are gone
    self.close();
    return;
  }
  try {
    const { buffer, cached, inflateMs, mask, missed } = await load(data, event.ports[0]);
    self.postMessage({ buffer, cached, inflateMs, mask, missed }, mask ? [buffer, mask] : [buffer]);
  } catch (error) {
    self.postMessage({ error: String((error && error.message) || error) });
  }
  if (afterReply) await afterReply();
  if (!pending) self.close();
  else setTimeout(() => self.close(), 60_000); // no "store" (the page failed): give up the copy
};
