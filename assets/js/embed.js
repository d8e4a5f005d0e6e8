// Tessera's <tessera-board> element: a game board in any page, from one script.
//
//   <script type="module" src="https://HOST/PATH/embed.js"></script>
//   <tessera-board game="dots" mode="step" ply="3" controls coords>
//     <script type="application/json">{"format": "tessera/1", ...}</script>
//   </tessera-board>
//
// The README's "Embedding a board" documents every attribute, the events
// and the iframe form (embed.html).  The build copies this file to the
// site's root (site/embed.js), so everything else is found beside it:
// `SITE` is this module's folder, whatever page, origin or sub-path loads it.
//
// How a page stays light:
// - Each board first shows a picture of its position: the build draws one
//   into the site's own pages (SVG from the game's view, in CPython: see
//   py/tessera/ui/embed/pictures.py; `python3 -m tessera pictures` does the
//   same for any page), which this element moves into its shadow root; a
//   page without them gets a placeholder (the game's name, "Loading the
//   board...") the first time, and the picture the board kept of itself
//   after that (keepPicture).  Nothing of Python is fetched yet.
// - When the first board comes into view (IntersectionObserver), or is
//   touched or focused, ONE Pyodide starts for the whole page, from the
//   site's memory snapshot (vendor/pyodide/tessera-pyodide.js, without
//   PyScript), tessera.zip is unpacked where pyscript.toml puts it, and
//   py/tessera/ui/embed/element.py mounts the boards one per task: those in view
//   first, then the others.
// - The board lives in a shadow root with the site's board.css and
//   embed.css, so the host page's CSS cannot break it.
//
// Every word shown here is the catalog's (py/tessera/i18n/embed.json and the
// game titles): the build writes them into STRINGS below.
//
// The app's own rules pages are made of these elements too (<tessera-board
// game=... example=...>: a worked example of the game's rules); there the
// app's Python serves them (startRuntime).
//
// State for pages and tests: the element's data-state is "picture" (or
// "placeholder"), then "loading", then "ready" or "error"; data-ply is the
// ply shown.  JS API: board.goTo(n); events "move" (detail: ply, move, by),
// "solved", "ended", "ready" (CustomEvents that bubble out of the shadow root).

const SITE = new URL("./", import.meta.url);
const STRINGS = {"__TESSERA_EMBED_STRINGS__": 1};
const SPEC_ATTRIBUTES = ["game", "mode", "ply", "controls", "coords", "theme", "lang", "level", "src", "example", "flip"];
// Attributes a live board follows without starting again (it keeps its place).
const LOOK_ATTRIBUTES = ["coords", "flip"];
const FRAGMENT_KEYS = [...SPEC_ATTRIBUTES, "record", "id"];
// The Python modules the boards need beyond the snapshot's, imported one per
// task before tessera.ui.embed.element (which imports the rest of them), so that no
// import makes one long task of the whole start.
const IMPORTS = ["tessera.ui.dom", "tessera.ui.saves.saved_games", "tessera.ui.saves.versions", "tessera.ui.saves.storage",
                 "tessera.ui.settings", "tessera.ui.board.zoom", "tessera.ui.board.access", "tessera.ui.board.motion",
                 "tessera.ui.board.canvas", "tessera.ui.embed.spec", "tessera.ui.embed.board", "tessera.ui.embed.modes"];
const PYTHON_HOME = "/home/pyodide"; // where PyScript unpacks tessera.zip ([files] "./*") and the snapshot expects it
// Just enough style for the first paint; the rest is embed.css, loaded beside it.
const CRITICAL_CSS = `
:host { display: block; }
:host([hidden]) { display: none; }
.tb-picture svg { display: block; width: 100%; height: auto; }
:host([data-theme="dark"]) [data-tessera-picture="light"],
:host(:not([data-theme="dark"])) [data-tessera-picture="dark"] { display: none; }
.tb-picture:not(.has-picture) { aspect-ratio: 1; }
`;

// ----- words ---------------------------------------------------------------------

function catalogLanguage(tag) {
  const text = String(tag || "").trim().toLowerCase();
  const languages = Object.keys(STRINGS).filter((key) => !key.startsWith("__"));
  return languages.find((lang) => text === lang || text.startsWith(lang + "-")) || "en";
}

function word(lang, key, params = {}) {
  const table = STRINGS[lang] || {};
  const english = STRINGS.en || {};
  const text = table[key] ?? english[key] ?? key;
  return text.replace(/\{([A-Za-z_]+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function mark(name) {
  try {
    performance.mark(name);
  } catch (error) { /* marks are for the bench only */ }
}

function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// ----- the one Python of the page ---------------------------------------------------

let runtime = null;

/** Start Pyodide once for the page; resolves to the tessera.ui.embed.element module.
 * In the app, whose rules pages are made of these boards, Python already
 * runs: the app hands its tessera.ui.embed.element over (globalThis.tesseraEmbedModule). */
function startRuntime() {
  if (!runtime && globalThis.tesseraEmbedModule) {
    const embed = globalThis.tesseraEmbedModule;
    runtime = Promise.resolve().then(() => embed);
  }
  if (!runtime) {
    mark("tessera:embed-python-requested");
    runtime = (async () => {
      const drawing = import(new URL("assets/js/draw.js", SITE).href); // sets globalThis.tesseraDraw
      drawing.catch(() => {}); // awaited below; a failure before that must not be an unhandled rejection
      const zip = fetch(new URL("tessera.zip", SITE)).then((response) => {
        if (!response.ok) throw new Error(`tessera.zip: HTTP ${response.status}`);
        return response.arrayBuffer();
      });
      zip.catch(() => {}); // awaited below
      const loader = await import(new URL("vendor/pyodide/tessera-pyodide.js", SITE).href);
      const pyodide = await loader.loadPyodide({ indexURL: new URL("vendor/pyodide/", SITE).href });
      // Each step its own task, so the page can paint and take input between them.
      const files = await zip;
      await nextTask();
      pyodide.unpackArchive(files, "zip", { extractDir: PYTHON_HOME });
      await drawing;
      for (const name of IMPORTS) {
        await nextTask();
        pyodide.pyimport(name).destroy();
      }
      await nextTask();
      const embed = pyodide.pyimport("tessera.ui.embed.element");
      mark("tessera:embed-python-ready");
      return embed;
    })();
  }
  return runtime;
}

// ----- pictures a board keeps of itself ---------------------------------------------
// A page without the build's pictures (a page elsewhere that did not run
// `python3 -m tessera pictures`) shows a placeholder the first time.  Once
// Python has drawn a board, the board keeps a picture of its opening position
// in the page's localStorage, and shows it on the next visit before Python
// starts.  At most KEPT_PICTURES are kept (the least recently drawn go first),
// none longer than MAX_KEPT_CHARS; storage that is full or refused keeps none.

const KEPT_PREFIX = "tessera-board/picture/";
const KEPT_INDEX = "tessera-board/pictures";
const KEPT_PICTURES = 24;
const MAX_KEPT_CHARS = 400000;

function pageStorage() {
  try {
    return globalThis.localStorage || null;
  } catch (error) {
    return null; // storage switched off for this page
  }
}

/** A short name for a long text: two 32-bit FNV-1a hashes with different offsets. */
function textHash(text) {
  const one = (seed) => {
    let hash = seed >>> 0;
    for (let i = 0; i < text.length; i++) {
      hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
    }
    return hash.toString(36);
  };
  return one(2166136261) + "-" + one(0x5bd1e995);
}

function keptPicture(key) {
  const store = pageStorage();
  try {
    return store ? store.getItem(key) : null;
  } catch (error) {
    return null;
  }
}

function keepPicture(key, svg) {
  const store = pageStorage();
  if (!store || !svg || svg.length > MAX_KEPT_CHARS) return;
  try {
    let index = [];
    try {
      index = JSON.parse(store.getItem(KEPT_INDEX) || "[]");
    } catch (error) { /* a broken index is started again */ }
    if (!Array.isArray(index)) index = [];
    index = index.filter((name) => typeof name === "string" && name.startsWith(KEPT_PREFIX) && name !== key);
    while (index.length >= KEPT_PICTURES) store.removeItem(index.shift());
    for (;;) {
      try {
        store.setItem(key, svg);
        break;
      } catch (error) { // full: make room from the oldest, or keep nothing
        if (!index.length) return;
        store.removeItem(index.shift());
      }
    }
    index.push(key);
    store.setItem(KEPT_INDEX, JSON.stringify(index));
  } catch (error) { /* storage refused: nothing kept */ }
}

/** A kept picture's markup as an <svg> element, or null when it is not one. */
function pictureElement(markup) {
  try {
    const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
    const svg = doc.documentElement;
    if (!svg || svg.localName !== "svg" || doc.getElementsByTagName("parsererror").length) return null;
    for (const node of [...svg.querySelectorAll("script, foreignObject")]) node.remove();
    return document.importNode(svg, true);
  } catch (error) {
    return null;
  }
}

// ----- waking boards up -----------------------------------------------------------

const boards = new Set(); // connected <tessera-board> elements
const inView = new Set();
let awake = false;
let mounting = Promise.resolve();

const observer = typeof IntersectionObserver === "function"
  ? new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) inView.add(entry.target);
      else inView.delete(entry.target);
    }
    if (inView.size) wake();
  }, { rootMargin: "200px" })
  : null;

/** Resolves once the page has painted a frame and its first contentful paint
 * has been shown (or after a second at most: a hidden tab paints none), so the
 * pictures are on screen before Python is asked for.  Two animation frames
 * alone say a frame was made, not that it was shown: under a full test run the
 * first paint's time came 2 ms after Python's first request. */
function painted() {
  const shown = new Promise((resolve) => {
    if (typeof PerformanceObserver !== "function"
        || !(PerformanceObserver.supportedEntryTypes || []).includes("paint")) {
      resolve();
      return;
    }
    const paints = new PerformanceObserver((list) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      paints.disconnect();
      resolve();
    });
    paints.observe({ type: "paint", buffered: true });
  });
  const framed = new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)));
  });
  return Promise.race([Promise.all([shown, framed]), new Promise((resolve) => setTimeout(resolve, 1000))]);
}

/** Start Python (once) and mount every board not mounted yet: those in view first. */
function wake(first = null) {
  if (!awake) {
    awake = true;
    mounting = painted().then(() => startRuntime().catch(() => {})); // each board reports a failure itself
  }
  const waiting = [...boards].filter((board) => !board._queued);
  waiting.sort((a, b) => (b === first) - (a === first) || inView.has(b) - inView.has(a));
  for (const board of waiting) {
    board._queued = true;
    mounting = mounting.then(() => board._mount()).then(nextTask);
  }
}

const media = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;
if (media && media.addEventListener) {
  media.addEventListener("change", () => {
    for (const board of boards) board._applyTheme();
  });
}

// ----- the element --------------------------------------------------------------------

class TesseraBoard extends HTMLElement {
  static get observedAttributes() {
    return SPEC_ATTRIBUTES;
  }

  constructor() {
    super();
    this._boardId = 0;
    this._queued = false;
    this._pendingPly = null;
    this._frame = null;
    this._pictures = [];
  }

  connectedCallback() {
    if (!this.shadowRoot) this._build();
    this._applyTheme();
    boards.add(this);
    if (observer) observer.observe(this);
    // In the app (Python already runs) a board wakes at once, in view or not.
    if (awake || !observer || globalThis.tesseraEmbedModule) wake();
  }

  disconnectedCallback() {
    boards.delete(this);
    inView.delete(this);
    if (observer) observer.unobserve(this);
    this._unmount();
  }

  attributeChangedCallback(name, before, after) {
    if (!this.shadowRoot || before === after) return;
    this._applyTheme();
    if (name === "theme") return;
    if (LOOK_ATTRIBUTES.includes(name)) {
      if (this._boardId && runtime) runtime.then((embed) => embed.set_look(this._boardId, name, after));
      return;
    }
    // Another record, mode or ply: the board starts again.
    this._unmount();
    if (this.isConnected && awake) wake();
  }

  /** Show ply `n` of the record (play: play on from there; puzzle: start again there). */
  goTo(n) {
    const ply = Number(n);
    if (!Number.isFinite(ply)) return;
    if (this._boardId && runtime) runtime.then((embed) => embed.go_to(this._boardId, ply));
    else this._pendingPly = ply;
  }

  /** The ply shown (the record's position at first), or null before Python draws the board. */
  get ply() {
    return this.dataset.ply === undefined ? null : Number(this.dataset.ply);
  }

  _lang() {
    const owner = this.closest("[lang]");
    return (owner && owner.getAttribute("lang")) || navigator.language || "en";
  }

  _theme() {
    const asked = String(this.getAttribute("theme") || "auto").toLowerCase();
    if (asked === "light" || asked === "dark") return asked;
    return media && media.matches ? "dark" : "light";
  }

  _applyTheme() {
    const theme = this._theme();
    if (this.dataset.theme === theme) return;
    this.dataset.theme = theme;
    if (this._boardId && runtime) runtime.then((embed) => embed.set_theme(this._boardId, theme));
  }

  _build() {
    const root = this.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = CRITICAL_CSS;
    root.append(style);
    for (const sheet of ["assets/css/board.css", "assets/css/embed.css"]) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL(sheet, SITE).href;
      root.append(link);
    }
    // The build's pictures (one per theme), kept to show again if the board restarts.
    this._pictures = [...this.querySelectorAll(":scope > svg[data-tessera-picture]")];
    this._frame = document.createElement("div");
    this._frame.className = "tb";
    this._frame.setAttribute("part", "frame");
    root.append(this._frame);
    this._showPicture();
    // Touching or focusing a board starts Python at once, that board first.
    const touched = () => wake(this);
    this.addEventListener("pointerdown", touched, { passive: true });
    this.addEventListener("focusin", touched);
  }

  _showPicture() {
    const picture = document.createElement("div");
    picture.className = "tb-picture";
    picture.tabIndex = 0;
    const lang = catalogLanguage(this._lang());
    const kept = this._pictures.length ? null : this._keptPicture();
    if (this._pictures.length) {
      picture.classList.add("has-picture");
      picture.append(...this._pictures);
      this.dataset.state = "picture";
    } else if (kept) {
      picture.classList.add("has-picture", "kept-picture");
      picture.append(kept);
      this.dataset.state = "picture";
    } else {
      const game = this.getAttribute("game") || this._gameOfRecord();
      const title = game ? word(lang, `game.${game}.title`) : "";
      picture.setAttribute("role", "img");
      picture.setAttribute("aria-label", word(lang, "embed.loading"));
      const name = document.createElement("span");
      name.className = "tb-game";
      name.textContent = game && title !== `game.${game}.title` ? title : "";
      const note = document.createElement("span");
      note.className = "tb-loading";
      note.textContent = word(lang, "embed.loading");
      picture.append(name, note);
      this.dataset.state = "placeholder";
    }
    this._frame.replaceChildren(picture);
  }

  /** Where this board's own picture is kept: its site, attributes, language, theme and record. */
  _pictureKey() {
    const attributes = SPEC_ATTRIBUTES.map((name) => this.getAttribute(name));
    const record = this.getAttribute("src") ? "" : this._recordText();
    return KEPT_PREFIX + textHash(JSON.stringify([SITE.href, attributes, this._lang(), this._theme(), record]));
  }

  _keptPicture() {
    if (globalThis.tesseraEmbedModule) return null; // in the app: drawn at once anyway
    const markup = keptPicture(this._pictureKey());
    return markup ? pictureElement(markup) : null;
  }

  /** After the board is live: keep its picture for the next visit (once, in a task of its own). */
  _keepPicture(embed) {
    if (this._pictures.length || globalThis.tesseraEmbedModule) return;
    const key = this._pictureKey();
    if (keptPicture(key) !== null) return;
    setTimeout(() => {
      if (!this._boardId || !this.isConnected) return;
      const svg = embed.picture(this._boardId, this.dataset.theme);
      if (svg) keepPicture(key, svg);
    }, 0);
  }

  _gameOfRecord() {
    const match = /"game"\s*:\s*"([a-z0-9_]{1,32})"/.exec(this._recordText().slice(0, 2000));
    return match ? match[1] : "";
  }

  _recordText() {
    const script = this.querySelector(":scope > script");
    if (script) return script.textContent;
    let text = "";
    for (const node of this.childNodes) if (node.nodeType === Node.TEXT_NODE) text += node.data;
    return text;
  }

  async _options() {
    const options = { theme: this._theme(), lang: this._lang(), record: null, fetchError: null,
                      fragmentError: this.dataset.fragmentError ?? null };
    for (const name of SPEC_ATTRIBUTES) {
      if (name !== "theme" && name !== "lang") options[name] = this.getAttribute(name);
    }
    options.lang = this.getAttribute("lang") || options.lang;
    const src = this.getAttribute("src");
    if (src) {
      try {
        const response = await fetch(new URL(src, document.baseURI));
        if (response.ok) options.record = await response.text();
        else options.fetchError = `HTTP ${response.status}`;
      } catch (error) {
        options.fetchError = String((error && error.message) || error);
      }
    } else {
      options.record = this._recordText();
    }
    return options;
  }

  async _mount() {
    if (!this.isConnected || this._boardId) return;
    this.dataset.state = "loading";
    let embed;
    try {
      embed = await startRuntime();
    } catch (error) {
      console.error("tessera-board: Python did not start:", error);
      this._fail(word(catalogLanguage(this._lang()), "embed.start_failed"));
      return;
    }
    if (!this.isConnected || this._boardId) return;
    const options = await this._options();
    if (!this.isConnected) return;
    this._boardId = embed.mount(this, this._frame, options);
    if (this._boardId) {
      mark("tessera:embed-board-ready");
      this._keepPicture(embed);
      if (this._pendingPly !== null) embed.go_to(this._boardId, this._pendingPly);
      this.dispatchEvent(new CustomEvent("ready", { bubbles: true, composed: true, detail: { ply: this.ply } }));
    }
    this._pendingPly = null;
  }

  _unmount() {
    const id = this._boardId;
    this._boardId = 0;
    this._queued = false;
    if (id && runtime) runtime.then((embed) => embed.unmount(id));
    if (this._frame && this.dataset.state !== "picture" && this.dataset.state !== "placeholder") {
      this._showPicture();
    }
  }

  _fail(text) {
    const message = document.createElement("p");
    message.className = "tb-error";
    message.setAttribute("role", "alert");
    message.textContent = text;
    this._frame.replaceChildren(message);
    this.dataset.state = "error";
  }
}

if (!customElements.get("tessera-board")) customElements.define("tessera-board", TesseraBoard);

// ----- the iframe form: embed.html#game=...&record=...&ply=...&mode=... -------------

function readFragment(hash) {
  const values = {};
  let error = null;
  for (const part of String(hash || "").replace(/^#/, "").split("&")) {
    if (!part) continue;
    const at = part.indexOf("=");
    const key = at < 0 ? part : part.slice(0, at);
    if (!FRAGMENT_KEYS.includes(key)) continue;
    try {
      values[key] = at < 0 ? "" : decodeURIComponent(part.slice(at + 1));
    } catch (problem) {
      error = `${key}: ${problem.message}`;
    }
  }
  return { values, error };
}

/** embed.html's whole script: one board from the fragment; its height and events go to the parent. */
export function hostFrame() {
  const { values, error } = readFragment(location.hash);
  const board = document.createElement("tessera-board");
  for (const name of SPEC_ATTRIBUTES) {
    if (name in values) board.setAttribute(name, values[name]);
  }
  if (values.lang) document.documentElement.lang = values.lang;
  else document.documentElement.removeAttribute("lang");
  if (values.record) {
    const record = document.createElement("script");
    record.type = "text/plain";
    record.textContent = values.record;
    board.append(record);
  }
  if (error) board.dataset.fragmentError = error;
  document.body.append(board);
  const id = values.id ?? null;
  const tell = (message) => {
    if (parent !== window) parent.postMessage({ ...message, id }, "*");
  };
  let last = -1;
  const report = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      tell({ type: "tessera-embed-height", height });
    }
  };
  new ResizeObserver(report).observe(document.body);
  report();
  for (const name of ["ready", "move", "solved", "ended"]) {
    board.addEventListener(name, (event) => tell({ type: "tessera-embed-event", event: name, detail: event.detail }));
  }
  addEventListener("hashchange", () => location.reload());
}
