// Small browser helpers the Python UI calls (kept in JS so no JS lives in
// Python strings). Loaded as a classic script; sets globalThis.tesseraUtil.
(function () {
  "use strict";

  /** Offer `text` as a file download named `filename`. */
  function download(filename, text, mime) {
    const blob = new Blob([text], { type: mime || "application/json" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = filename;
    link.style.display = "none";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** Copy text to the clipboard; resolves true on success, false otherwise. */
  async function copyText(text) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (e) { /* fall back below */ }
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    area.remove();
    return ok;
  }

  /** The text of the first file chosen in an <input type=file>, or null;
   * `{tooLarge: size}` for a file over `maxBytes` (refused before reading it:
   * a chosen file may be any size), `{unreadable: true}` if reading fails. */
  async function readChosenFile(input, maxBytes) {
    const file = input.files && input.files[0];
    if (!file) return null;
    if (maxBytes && file.size > maxBytes) return { tooLarge: file.size };
    try {
      return await file.text();
    } catch (e) {
      return { unreadable: true };
    }
  }

  globalThis.tesseraUtil = { download, copyText, readChosenFile };
})();
