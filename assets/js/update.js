// Tessera's service worker, seen from the page: registration and updates.
//
// A new build's worker (site/sw.js) installs beside the running one and
// waits: a tab never has its files swapped under it.  This script notices a
// waiting worker, tells the app (window event "tessera:update-ready"; the
// notice and its words are Python's, py/tessera/ui/update_notice.py), and
// when the player chooses to reload, asks that worker to take over
// ("tessera:skip-waiting"); every tab of the site then reloads once, on
// "controllerchange", so none keeps running the old build's code against the
// new build's files.  A first install (no worker controlled the page) takes
// over without a reload: it has nothing to replace.
//
// The worker is registered once the app's first screen is up (`whenReady`):
// a first install downloads and stores the whole site, which must not
// compete with the start.
//
// A tab left open for hours looks for an update when it is shown again, at
// most once an hour (the browser itself looks on every load).
//
// After a first install the page has Chromium compile its module scripts
// once more, now through the service worker (`warmModules`): a script
// served from the worker's cache gets its compiled code kept beside it only
// once it has been compiled from there, which was otherwise the first
// reload (the core chunk and pyodide.asm.js compiled and their code made on
// the main thread, about 25 ms of it).  A hidden frame of `modulepreload`
// links compiles them without running them, once the first screen is up and
// the page is idle: the next reload's home screen was ready at 444 ms
// instead of 503 (medians of 4, alternating builds; a new tab's was not
// measurably sooner, 816 against 832).  Measured again later: 318
// against 336 ms (first reloads, 5 each).  The first reload still makes the
// modules' code once more, with the functions their run compiled (17-52 ms
// of its main thread, 1.2 MB for pyodide.asm.js); a second warming frame
// did not spare it that, as only running the code compiles those.
// Loaded as a classic script in <head>; sets globalThis.tesseraUpdate.
(function () {
  "use strict";

  const READY_EVENT = "tessera:update-ready";
  const CHECK_EVERY_MS = 60 * 60 * 1000;
  let registration = null;
  let waiting = null;     // the worker of a new build, installed, waiting
  let reloading = false;
  let lastCheck = Date.now();

  function supported() {
    try { // Firefox throws on reading navigator.serviceWorker where storage is blocked
      return location.protocol !== "file:" && Boolean(navigator.serviceWorker);
    } catch (error) {
      return false;
    }
  }

  function offer(worker) {
    // With no controller this is a first install, which activates by itself.
    if (!worker || !navigator.serviceWorker.controller || worker === waiting) return;
    waiting = worker;
    worker.addEventListener("statechange", () => {
      if (worker.state === "redundant" && waiting === worker) waiting = null;
    });
    dispatchEvent(new CustomEvent(READY_EVENT));
  }

  function watch(reg) {
    registration = reg;
    if (reg.waiting) offer(reg.waiting);
    reg.addEventListener("updatefound", () => {
      const worker = reg.installing;
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed") offer(worker);
      });
    });
  }

  const WARM_SETTLE_MS = 5000; // how long the hidden frame stays after it loaded
  const READY_LATEST_MS = 30000; // a page that never says it is ready (whenReady)

  /** The module scripts this page loaded from vendor/ (PyScript's and Pyodide's; not the
   * workers' scripts, which the resource timeline lists as "other"). */
  function vendorModules() {
    const base = new URL("./vendor/", location.href).href;
    return [...new Set(performance.getEntriesByType("resource")
      .filter((entry) => entry.initiatorType === "script" && entry.name.startsWith(base)
              && new URL(entry.name).pathname.endsWith(".js"))
      .map((entry) => entry.name))];
  }

  /** Run `job` once the app has put up its first screen (data-tessera on <html>
   * is no longer "loading": "ready", or "error" when it could not start), or
   * `latestMs` after this call on a page that never says; `idle`: then when
   * the page is idle. */
  function whenReady(job, latestMs, idle) {
    const root = document.documentElement;
    let done = false;
    let observer = null;
    let latest = 0;
    const go = () => {
      if (done) return;
      done = true;
      clearTimeout(latest);
      if (observer) observer.disconnect();
      if (!idle) job();
      else if (typeof requestIdleCallback === "function") requestIdleCallback(job, { timeout: 5000 });
      else setTimeout(job, 1000);
    };
    if (root.dataset.tessera !== "loading") {
      go();
      return;
    }
    latest = setTimeout(go, latestMs);
    observer = new MutationObserver(() => { if (root.dataset.tessera !== "loading") go(); });
    observer.observe(root, { attributes: true, attributeFilter: ["data-tessera"] });
  }

  /** Compile the page's module scripts through the service worker, in a hidden frame, once. */
  function warmModules() {
    const go = () => {
      const modules = vendorModules();
      if (!modules.length || !document.body) return;
      const frame = document.createElement("iframe");
      frame.hidden = true; // out of the layout, the tab order and the accessibility tree
      frame.dataset.tesseraWarm = "";
      const attribute = (url) => url.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
      frame.srcdoc = modules.map((url) => `<link rel="modulepreload" href="${attribute(url)}">`).join("");
      frame.addEventListener("load", () => {
        setTimeout(() => frame.remove(), WARM_SETTLE_MS);
        globalThis.tesseraModulesWarmed = modules.length; // for the tests
      }, { once: true });
      document.body.append(frame);
    };
    whenReady(go, READY_LATEST_MS, true);
  }

  function reloadOnce() {
    if (reloading) return;
    reloading = true;
    location.reload();
  }

  function start() {
    if (!supported()) return;
    let controller = navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      const previous = controller;
      controller = navigator.serviceWorker.controller;
      if (previous) reloadOnce(); // a new build took over: run its code, not ours
      else if (controller) warmModules(); // a first install: the next load finds the code kept
    });
    navigator.serviceWorker.register("./sw.js", { scope: "./" })
      .then(watch)
      .catch(() => { /* offline support is optional */ });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "visible" || !registration) return;
      if (Date.now() - lastCheck < CHECK_EVERY_MS) return;
      lastCheck = Date.now();
      registration.update().catch(() => { /* offline: try again later */ });
    });
  }

  /** Let the waiting build take over; every tab of the site reloads once it has. */
  function apply() {
    if (!waiting) {
      reloadOnce();
      return;
    }
    waiting.postMessage("tessera:skip-waiting");
  }

  /** Link what index.html keeps in <template id="late-links"> (the web app
   * manifest): a browser that reads a manifest checks whether the site
   * installs, fetching its icons, which on a first visit competed with the
   * start.  Nothing needs it before the first screen. */
  function linkLate() {
    const kept = document.getElementById("late-links");
    if (!kept || !kept.content) return;
    kept.remove();
    document.head.append(kept.content);
  }

  whenReady(linkLate, READY_LATEST_MS, true);

  // Registered once the first screen is up: a first install fetches and
  // stores every file of the site (83, 9 MB), which on a first visit
  // competed with inflating Python's snapshot and starting the app (home
  // screen ready at 1,310 ms instead of 1,532, medians of 6 fresh profiles;
  // waiting for the page to be idle as well was no quicker: a saved game's
  // board at 1,498 ms against 1,413).
  whenReady(start, READY_LATEST_MS, false);

  globalThis.tesseraUpdate = {
    apply,
    /** Whether a new build is installed and waiting for this tab to let it in. */
    get waiting() { return waiting !== null; },
    event: READY_EVENT,
  };
})();
