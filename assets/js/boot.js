// Tessera start-up: shows progress before Python is ready, lets the runtime
// start from hosts that send wasm with another type, and turns a failed start
// into a clear message (the service worker is assets/js/update.js's).
// Loaded as a classic script in <head>; everything after start-up comes from
// the Python message catalog, so only these few strings live here.
(function () {
  "use strict";

  const TEXT = {
    en: {
      loading: "Loading Tessera…",
      starting: "Starting the game engine…",
      failed: "Tessera could not start.",
      reload: "Reload",
      repairs: "Reloading fetches Tessera's files again; your games are kept.",
      stalled: "Tessera's scripts ran, but the app did not come up.",
    },
    ru: {
      loading: "Загрузка Tessera…",
      starting: "Запуск игрового движка…",
      failed: "Не удалось запустить Tessera.",
      reload: "Перезагрузить",
      repairs: "При перезагрузке файлы Tessera будут скачаны заново; ваши партии сохранятся.",
      stalled: "Скрипты Tessera выполнились, но приложение не запустилось.",
    },
  };

  function pickLanguage() {
    let saved = null;
    try { saved = localStorage.getItem("tessera/v1/lang"); } catch (e) { /* storage blocked */ }
    if (saved === "en" || saved === "ru") return saved;
    const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    return String(langs[0] || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
  }

  const lang = pickLanguage();
  const text = TEXT[lang];
  const started = performance.now();
  let stage = 0;          // 0 loading runtime, 1 Python running our code, 2 done, -1 failed
  let timer = null;
  document.documentElement.lang = lang;

  function byId(id) { return document.getElementById(id); }

  // How far the start has got, by the loader's marks (tessera-pyodide.js):
  // the bar's width at each.  A start without them (Python started the plain
  // way) moves on the clock alone.
  const STAGE_WIDTH = {
    "tessera:snapshot-requested": 8,
    "tessera:wasm-inflated": 35,
    "tessera:wasm-from-cache": 35,
    "tessera:snapshot-inflated": 55,
    "tessera:snapshot-from-cache": 55,
    "tessera:runtime-ready": 65,
    "tessera:python-started": 75,
  };
  let reached = 0;
  // Every frame of the loading screen is work for the two cores that inflate
  // and start Python: the screen changes only when the start reaches a stage,
  // and counts the seconds only once a load has taken SLOW_MS (as the tiles
  // pulse only then, app.css), every TICK_MS.  With a 100 ms clock from the
  // start, a first visit took 120 ms more of the cores' time, and its home
  // screen was ready 30-120 ms later (medians of 6 and 8 fresh profiles).
  const SLOW_MS = 2000;
  const TICK_MS = 100;

  function stopClock() {
    clearTimeout(timer);
    clearInterval(timer);
  }

  function render() {
    const ms = performance.now() - started;
    const label = byId("boot-text");
    const bar = byId("boot-bar");
    const elapsed = byId("boot-elapsed");
    if (!label) return;
    label.textContent = stage >= 1 ? text.starting : text.loading;
    // No byte counts are available: the stage reached, or the clock easing
    // towards 90% (runtime) and 97% (app), whichever is further.
    const seconds = ms / 1000;
    const target = stage >= 1 ? 97 : 90;
    const base = stage >= 1 ? 75 : 0;
    const pace = stage >= 1 ? 1.5 : 4;
    const pct = Math.max(reached, base + (target - base) * (1 - Math.exp(-seconds / pace)));
    if (bar) bar.style.width = pct.toFixed(1) + "%";
    if (elapsed) elapsed.textContent = ms >= SLOW_MS ? seconds.toFixed(1) + " s" : "";
  }

  function followStages() {
    if (typeof PerformanceObserver !== "function") return;
    try {
      const observer = new PerformanceObserver((list) => {
        let moved = false;
        for (const entry of list.getEntries()) {
          const width = STAGE_WIDTH[entry.name];
          if (width > reached) {
            reached = width;
            moved = true;
          }
        }
        if (moved && stage === 0) render();
        if (stage === 2 || stage === -1) observer.disconnect();
      });
      observer.observe({ type: "mark", buffered: true });
    } catch (error) { /* no marks here: the clock alone */ }
  }

  function fail(message) {
    if (stage === 2 || stage === -1) return;
    stage = -1;
    stopClock();
    document.documentElement.dataset.tessera = "error";
    const boot = byId("boot");
    if (!boot) return;
    boot.classList.add("boot-failed");
    boot.setAttribute("role", "alert");
    boot.textContent = "";
    const title = document.createElement("p");
    title.className = "boot-error-text";
    title.textContent = text.failed;
    const detail = document.createElement("pre");
    detail.className = "boot-error-detail";
    detail.textContent = String(message || "").slice(-2000);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-primary";
    button.textContent = text.reload;
    const repair = repairable();
    button.addEventListener("click", () => (repair ? repairAndReload() : location.reload()));
    boot.append(title, detail);
    if (repair) {
      const note = document.createElement("p");
      note.className = "boot-error-note";
      note.textContent = text.repairs;
      boot.append(note);
    }
    boot.append(button);
  }

  // A start that fails with the service worker serving the page may have
  // failed on a file its cache holds damaged (storage no version of the app
  // wrote): reloaded as it is, it would fail the same way on every load, as
  // the worker answers from that cache first.  So, online, the reload first
  // lets go of the site's caches and its worker: the files come from the host
  // again, and the worker is registered anew once the app is up.  Saved games
  // live in localStorage and stay.  Offline, that would leave nothing to
  // load: a plain reload.
  function repairable() {
    try {
      return Boolean(navigator.serviceWorker && navigator.serviceWorker.controller && globalThis.caches)
        && navigator.onLine !== false;
    } catch (error) {
      return false;
    }
  }

  async function repairAndReload() {
    try {
      // The worker's caches are named for its scope (sw.js, CACHE_PREFIX).
      const registration = await navigator.serviceWorker.getRegistration();
      const scope = registration ? registration.scope : new URL("./", location.href).href;
      const ours = (name) => name === "tessera-inflated-snapshot" || name.startsWith(`tessera|${scope}|`);
      const names = await caches.keys();
      await Promise.all(names.filter(ours).map((name) => caches.delete(name)));
      if (registration) await registration.unregister();
    } catch (error) { /* reload all the same */ }
    location.reload();
  }

  function done() {
    if (stage === -1) return;
    stage = 2;
    stopClock();
  }

  // PyScript reports Python errors by adding .py-error boxes to <body>;
  // the stylesheet hides them and, before the app is up, this shows ours.
  function watchErrors() {
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node.nodeType === 1 && node.classList.contains("py-error") && stage !== 2) {
            fail(node.textContent);
          }
        }
      }
    });
    observer.observe(document.body, { childList: true });
  }

  addEventListener("py:ready", () => { if (stage === 0) { stage = 1; render(); } });
  // Once PyScript has run every script, the app's first screen is two short
  // tasks away, or the app has said why not (tessera.ui.entry, App.start): a
  // script that ran and did neither (main.py emptied or cut short, with no
  // error to show) would leave the loading screen spinning for ever.
  // STALL_MS is far more than those tasks take, even in a tab opened in the
  // background (whose timers wait up to a second each), and a hidden tab is
  // not judged until it is shown; tests may shorten it (tesseraBootStallMs).
  const STALL_MS = 20000;
  addEventListener("py:all-done", () => {
    const wait = Number(globalThis.tesseraBootStallMs) > 0 ? Number(globalThis.tesseraBootStallMs) : STALL_MS;
    const judge = () => {
      if (stage === 2 || stage === -1) return;
      if (document.visibilityState === "hidden") setTimeout(judge, wait);
      else fail(text.stalled);
    };
    setTimeout(judge, wait);
  });
  addEventListener("error", (event) => {
    const message = String(event.message || "");
    if (stage !== 2 && /PythonError|pyodide|WebAssembly/i.test(message)) fail(message);
  });
  addEventListener("unhandledrejection", (event) => {
    const reason = event.reason && (event.reason.message || event.reason);
    // A Python error's message is its traceback alone: its name says what it is.
    const name = event.reason && typeof event.reason === "object" ? String(event.reason.name || "") : "";
    if (stage !== 2 && /PythonError|pyodide|WebAssembly|Failed to fetch|import/i.test(`${name} ${reason}`)) {
      fail(reason);
    }
  });

  // Pyodide compiles its wasm with WebAssembly.instantiateStreaming, which
  // refuses a response whose Content-Type is not exactly application/wasm
  // (a host with an old or bare MIME table sends application/octet-stream),
  // and Pyodide then waits forever.  Such a response is compiled from its
  // bytes instead: a little slower, never a page that does not start.
  //
  // Once the module is instantiated, the page yields one task before Pyodide
  // goes on: its next steps (the glue's set-up, restoring the snapshot) run
  // as promise callbacks of the instantiation, and without the yield they
  // joined the end of the compile in one task of 250-350 ms in a new tab.
  function tolerateWasmContentType() {
    const wasm = globalThis.WebAssembly;
    if (!wasm || typeof wasm.instantiateStreaming !== "function") return;
    const streaming = wasm.instantiateStreaming.bind(wasm);
    const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
    wasm.instantiateStreaming = async function (source, imports) {
      const response = await source;
      const type = String(response.headers.get("Content-Type") || "").trim().toLowerCase();
      const result = type === "application/wasm" ? await streaming(response, imports)
        : await wasm.instantiate(await response.arrayBuffer(), imports);
      await nextTask();
      return result;
    };
  }

  document.addEventListener("DOMContentLoaded", () => {
    render();
    followStages();
    timer = setTimeout(() => { // stopClock() clears it, or the interval it starts
      if (stage === 2 || stage === -1) return;
      render();
      timer = setInterval(render, TICK_MS);
    }, Math.max(0, SLOW_MS - (performance.now() - started)));
    watchErrors();
  });
  tolerateWasmContentType();

  // A reload that first lets go of the site's caches when they may be what is
  // damaged (the app's notice of damaged files, py/tessera/ui/update_notice.py).
  const repair = () => (repairable() ? repairAndReload() : location.reload());

  globalThis.tesseraBoot = { fail, done, lang, repair };
})();
