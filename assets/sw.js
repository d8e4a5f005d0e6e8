/* Tessera service worker (source).
 *
 * ./build.sh build turns this file into site/sw.js, filling in
 *   BUILD_VERSION  a hash of the built site's contents, and
 *   PRECACHE       the files the page uses, as URLs relative to this script
 *                  (so the site works from any sub-path): every file of the
 *                  site but the PyScript chunks it never loads (code editor,
 *                  terminal, ...), python_stdlib_full.zip (for modules
 *                  the memory snapshot lacks) and the plain pyodide.asm.wasm
 *                  (the page inflates pyodide.asm.wasm.br; the plain one is
 *                  for a page that cannot), which are fetched and kept the
 *                  first time something asks for them.
 *
 * Strategy:
 *   - install: precache this build's files in a cache named for this build
 *     (and scope).  A first install activates at once (nothing controls the
 *     page yet).  An update does not: it waits while a tab of the older
 *     build is open, so no tab has its files swapped under it; the page
 *     (assets/js/update.js) says a new version is ready and, when the player
 *     chooses to reload, posts "tessera:skip-waiting" here;
 *   - activate: delete this scope's caches of older builds, clients.claim()
 *     (the tabs then see "controllerchange" and reload once);
 *   - fetch: cache-first for same-origin GET requests inside the scope,
 *     matched by URL first, then with ignoreSearch so "?v=..." style query
 *     strings still hit (an ignoreSearch match reads every entry: as the
 *     first try it made each of a warm start's requests wait, and a warm
 *     start took 688 ms instead of 607, medians of 16);
 *     a navigation to a directory URL is answered with its index.html; on a
 *     miss, go to the network and keep a copy of good same-scope answers.
 *     A request made with cache: "reload" goes to the network first (the
 *     cache when offline) and its answer replaces the kept copy: the page's
 *     inflating workers ask so for a file that would not inflate.
 *
 * The page registers it with:
 *   navigator.serviceWorker.register("./sw.js", { scope: "./" })
 * so its scope is the folder the site is served from, whatever the host.
 */
"use strict";

const BUILD_VERSION = "__TESSERA_BUILD_VERSION__";
const PRECACHE = ["__TESSERA_PRECACHE__"];

const SCOPE = self.registration.scope; // e.g. "https://host/games/tessera/"
const CACHE_PREFIX = "tessera|" + SCOPE + "|";
const CACHE_NAME = CACHE_PREFIX + BUILD_VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE_NAME);
    // The cache is named for this build, so what it holds is this build's:
    // an install that starts again (one cut short when the tab closed, or a
    // worker unregistered while its cache stayed) fetches only what it lacks.
    const held = new Set((await cache.keys()).map((request) => request.url));
    const missing = PRECACHE.map((url) => new URL(url, self.location).href).filter((url) => !held.has(url));
    // "no-cache" revalidates with the server (cheap 304s for files the page
    // just downloaded) so a new build never precaches stale HTTP-cache copies.
    await cache.addAll(missing.map((url) => new Request(url, { cache: "no-cache" })));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names
      .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

function inScope(url) {
  return url.href.startsWith(SCOPE);
}

let precache = null; // this build's cache, opened once per start of the worker

/** This build's cache; a failure to open it (storage blocked) is tried again next time. */
function openPrecache() {
  precache ??= caches.open(CACHE_NAME).catch((error) => {
    precache = null;
    throw error;
  });
  return precache;
}

async function fromCache(request, url) {
  let cache;
  try {
    cache = await openPrecache();
  } catch (error) {
    return undefined; // the network answers
  }
  // An exact match is a lookup by URL; ignoreSearch compares the request with
  // every entry of the cache, so it is only the second try.
  let hit = await cache.match(request, { ignoreVary: true });
  if (!hit && url.search) hit = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
  if (!hit && url.pathname.endsWith("/")) {
    hit = await cache.match(new URL("index.html", url).href, { ignoreVary: true });
  }
  return hit;
}

async function handle(event, request, url) {
  // A request for the host's own copy (cache: "reload": the page's inflating
  // workers ask so once when the kept file would not inflate, damaged in this
  // cache) goes to the network first, and its answer replaces the kept one.
  const fresh = request.cache === "reload";
  const hit = fresh ? undefined : await fromCache(request, url);
  if (hit) return hit;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const kept = fresh ? await fromCache(request, url) : undefined; // offline: what there is
    if (kept) return kept;
    throw error;
  }
  if (response.ok && response.status === 200 && response.type === "basic") {
    const copy = response.clone();
    event.waitUntil(openPrecache().then((cache) => cache.put(request, copy)).catch(() => {}));
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.headers.has("range")) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !inScope(url)) return;
  if (url.pathname.endsWith("/sw.js")) return;
  event.respondWith(handle(event, request, url));
});

self.addEventListener("message", (event) => {
  if (event.data === "tessera:version" && event.source) {
    event.source.postMessage({ type: "tessera:version", version: BUILD_VERSION });
  } else if (event.data === "tessera:skip-waiting") {
    // Only a waiting worker is told this, by a page whose player chose to reload.
    event.waitUntil(self.skipWaiting());
  }
});
