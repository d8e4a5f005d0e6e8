// Tessera: short move sounds, synthesized here (no sound files).
//
// tesseraSound.play(kind) plays one of:
//   "move"    a soft wooden "tock" (a quiet move),
//   "capture" two quick rising notes (a capture, a conversion),
//   "end"     three notes (the game is over),
//   "low"     two short high beeps (your clock is running low).
// Each sound is rendered once into a small WAV (16-bit mono) and played by
// an <audio> element.  Not the Web Audio API: creating the first
// AudioContext starts the browser's audio service on the main thread, a
// task of about 75 ms measured here, in the middle of the player's move.
// Browsers let a page make sound only after the player has touched it
// (navigator.userActivation), so a sound asked for before that is skipped
// quietly.  `played` keeps the last kinds asked for, for the tests.
// Loaded as a classic script; sets globalThis.tesseraSound.
(function () {
  "use strict";

  // Each note: frequency (Hz) at the start and the end, wave, start and
  // length (s), peak gain.
  const SOUNDS = {
    move: [
      { from: 520, to: 180, wave: "triangle", at: 0, length: 0.09, gain: 0.35 },
    ],
    capture: [
      { from: 660, to: 660, wave: "sine", at: 0, length: 0.09, gain: 0.25 },
      { from: 990, to: 990, wave: "sine", at: 0.075, length: 0.14, gain: 0.22 },
    ],
    low: [
      { from: 1175, to: 1175, wave: "square", at: 0, length: 0.07, gain: 0.12 },
      { from: 1175, to: 1175, wave: "square", at: 0.13, length: 0.07, gain: 0.12 },
    ],
    end: [
      { from: 523, to: 523, wave: "sine", at: 0, length: 0.16, gain: 0.2 },
      { from: 659, to: 659, wave: "sine", at: 0.13, length: 0.16, gain: 0.2 },
      { from: 784, to: 784, wave: "sine", at: 0.26, length: 0.3, gain: 0.2 },
    ],
  };
  const RATE = 22050;
  const played = [];
  const urls = {};

  function activated() {
    const activation = navigator.userActivation;
    return !activation || activation.hasBeenActive;
  }

  // One note into `out`: the pitch glides exponentially from `from` to `to`,
  // the level rises in 8 ms and falls away exponentially by the end.
  function note(out, spec) {
    const first = Math.round(spec.at * RATE);
    const count = Math.round(spec.length * RATE);
    const attack = Math.max(1, Math.round(0.008 * RATE));
    let phase = 0;
    for (let i = 0; i < count && first + i < out.length; i++) {
      const f = spec.from * Math.pow(spec.to / spec.from, i / count);
      phase += f / RATE;
      const cycle = phase - Math.floor(phase);
      const wave = spec.wave === "triangle" ? 1 - 4 * Math.abs(cycle - 0.5) : Math.sin(2 * Math.PI * cycle);
      const level = i < attack ? spec.gain * (i / attack)
        : spec.gain * Math.pow(0.0001 / spec.gain, (i - attack) / Math.max(1, count - attack));
      out[first + i] += wave * level;
    }
  }

  function wav(samples) {
    const bytes = new DataView(new ArrayBuffer(44 + samples.length * 2));
    const text = (at, word) => { for (let i = 0; i < word.length; i++) bytes.setUint8(at + i, word.charCodeAt(i)); };
    text(0, "RIFF"); bytes.setUint32(4, 36 + samples.length * 2, true); text(8, "WAVE");
    text(12, "fmt "); bytes.setUint32(16, 16, true); bytes.setUint16(20, 1, true); bytes.setUint16(22, 1, true);
    bytes.setUint32(24, RATE, true); bytes.setUint32(28, RATE * 2, true); bytes.setUint16(32, 2, true);
    bytes.setUint16(34, 16, true); text(36, "data"); bytes.setUint32(40, samples.length * 2, true);
    for (let i = 0; i < samples.length; i++) {
      bytes.setInt16(44 + i * 2, Math.max(-1, Math.min(1, samples[i])) * 32767, true);
    }
    return new Blob([bytes.buffer], { type: "audio/wav" });
  }

  function url(kind) {
    if (!urls[kind]) {
      const notes = SOUNDS[kind];
      const seconds = Math.max(...notes.map((spec) => spec.at + spec.length)) + 0.02;
      const samples = new Float32Array(Math.ceil(seconds * RATE));
      for (const spec of notes) note(samples, spec);
      urls[kind] = URL.createObjectURL(wav(samples));
    }
    return urls[kind];
  }

  function start(kind) {
    try {
      const sound = new Audio(url(kind));
      const started = sound.play();
      if (started && started.catch) started.catch(() => {});
    } catch (e) { /* no sound, nothing else lost */ }
  }

  /** Play `kind` ("move", "capture", "end", "low"); false when it cannot sound.
   * The sound starts in a task of its own: the first one renders its WAV and
   * starts the page's media pipeline (about 10 ms), which would otherwise
   * lengthen the move that asked for it. */
  function play(kind) {
    played.push(kind);
    if (played.length > 20) played.shift();
    if (!SOUNDS[kind] || !activated() || typeof Audio === "undefined") return false;
    setTimeout(start, 0, kind);
    return true;
  }

  globalThis.tesseraSound = { play, played };
})();
