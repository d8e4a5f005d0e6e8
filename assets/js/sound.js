// Tessera: short move sounds made with the Web Audio API (no sound files).
//
// tesseraSound.play(kind) plays one of:
//   "move"    a soft wooden "tock" (a quiet move),
//   "capture" two quick rising notes (a capture, a conversion),
//   "end"     three notes (the game is over).
// Browsers let a page make sound only after the player has touched it, so
// the audio context is created on the first play after a click, tap or key
// (navigator.userActivation) and a sound asked for before that is skipped
// quietly (no console noise).  `played` keeps the last kinds asked for, for
// the tests.  Loaded as a classic script; sets globalThis.tesseraSound.
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
    end: [
      { from: 523, to: 523, wave: "sine", at: 0, length: 0.16, gain: 0.2 },
      { from: 659, to: 659, wave: "sine", at: 0.13, length: 0.16, gain: 0.2 },
      { from: 784, to: 784, wave: "sine", at: 0.26, length: 0.3, gain: 0.2 },
    ],
  };
  const played = [];
  let context = null;

  function activated() {
    const activation = navigator.userActivation;
    return !activation || activation.hasBeenActive;
  }

  function audio() {
    if (context) return context;
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context || !activated()) return null;
    try {
      context = new Context();
    } catch (e) {
      return null;
    }
    return context;
  }

  function note(ctx, start, spec) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    const t0 = start + spec.at;
    const t1 = t0 + spec.length;
    oscillator.type = spec.wave;
    oscillator.frequency.setValueAtTime(spec.from, t0);
    if (spec.to !== spec.from) oscillator.frequency.exponentialRampToValueAtTime(spec.to, t1);
    gain.gain.setValueAtTime(0.0001, t0);
    gain.gain.exponentialRampToValueAtTime(spec.gain, t0 + 0.008);
    gain.gain.exponentialRampToValueAtTime(0.0001, t1);
    oscillator.connect(gain);
    gain.connect(ctx.destination);
    oscillator.start(t0);
    oscillator.stop(t1 + 0.02);
  }

  /** Play `kind` ("move", "capture", "end"); false when it could not sound. */
  function play(kind) {
    played.push(kind);
    if (played.length > 20) played.shift();
    const notes = SOUNDS[kind];
    const ctx = notes ? audio() : null;
    if (!ctx) return false;
    try {
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      const start = ctx.currentTime + 0.01;
      for (const spec of notes) note(ctx, start, spec);
      return true;
    } catch (e) {
      return false;
    }
  }

  globalThis.tesseraSound = { play, played };
})();
