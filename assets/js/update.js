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
// measurably sooner, 816 against 832).
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
    return "serviceWorker" in navigator && location.protocol !== "file:";
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
  const WARM_LATEST_MS = 30000; // a page that never says it is ready

  /** The module scripts this page loaded from vendor/ (PyScript's and Pyodide's; not the
   * workers' scripts, which the resource timeline lists as "other"). */
  function vendorModules() {
    const base = new URL("./vendor/", location.href).href;
    return [...new Set(performance.getEntriesByType("resource")
      .filter((entry) => entry.initiatorType === "script" && entry.name.startsWith(base)
              && new URL(entry.name).pathname.endsWith(".js"))
      .map((entry) => entry.name))];
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
    const root = document.documentElement;
    let started = false;
    const idle = () => {
      if (started) return;
      started = true;
      if (typeof requestIdleCallback === "function") requestIdleCallback(go, { timeout: 5000 });
      else setTimeout(go, 1000);
    };
    if (root.dataset.tessera === "ready") {
      idle();
      return;
    }
    const latest = setTimeout(() => { observer.disconnect(); idle(); }, WARM_LATEST_MS);
    const observer = new MutationObserver(() => {
      if (root.dataset.tessera !== "ready") return;
      observer.disconnect();
      clearTimeout(latest);
      idle();
    });
    observer.observe(root, { attributes: true, attributeFilter: ["data-tessera"] });
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

  addEventListener("load", start);

  globalThis.tesseraUpdate = {
    apply,
    /** Whether a new build is installed and waiting for this tab to let it in. */
    get waiting() { return waiting !== null; },
    event: READY_EVENT,
  };
})();
