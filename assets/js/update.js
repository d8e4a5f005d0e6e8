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
