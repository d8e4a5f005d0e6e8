// Tessera: the page theme, decided before anything is painted.
//
// The setting (tessera/v1/settings/theme: "auto", "light" or "dark"; the
// settings menu in py/tessera/ui/settings.py writes it) is resolved to
// <html data-theme="light|dark">; "auto" follows the system's
// prefers-color-scheme, also when it changes while the page is open, and
// then fires a "tessera-theme" event on window so the boards redraw.
// Loaded as a classic, blocking script in <head>; sets globalThis.tesseraTheme.
(function () {
  "use strict";

  const KEY = "tessera/v1/settings/theme";
  const BACKGROUND = { light: "#f5f4f0", dark: "#15171b" };
  const root = document.documentElement;
  const media = globalThis.matchMedia ? globalThis.matchMedia("(prefers-color-scheme: dark)") : null;
  let setting = "auto";
  try {
    const stored = localStorage.getItem(KEY);
    if (stored === "light" || stored === "dark" || stored === "auto") setting = stored;
  } catch (e) { /* storage blocked: follow the system */ }

  function resolve() {
    if (setting === "light" || setting === "dark") return setting;
    return media && media.matches ? "dark" : "light";
  }

  function apply() {
    const theme = resolve();
    root.dataset.theme = theme;
    const meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.setAttribute("content", BACKGROUND[theme]);
    return theme;
  }

  if (media) {
    const changed = () => {
      if (setting !== "auto") return;
      const theme = apply();
      globalThis.dispatchEvent(new CustomEvent("tessera-theme", { detail: theme }));
    };
    if (media.addEventListener) media.addEventListener("change", changed);
    else if (media.addListener) media.addListener(changed);
  }

  /** Use the setting `value` ("auto", "light", "dark"); returns the theme in force. */
  function set(value) {
    setting = value === "light" || value === "dark" ? value : "auto";
    return apply();
  }

  apply();
  globalThis.tesseraTheme = { set, current: resolve };
})();
