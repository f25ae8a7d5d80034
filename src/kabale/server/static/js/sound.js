// Card sounds, made with Web Audio from filtered noise (no files, no beeps): off unless the
// player turns them on. A card laid down is a short snap of band-passed noise, a card turned
// up a softer, brighter one, a row dealt or a new game a riffle of snaps (a shuffle), a move
// the rules refuse a dull low tap, and a win a riffle that ends in a soft chord.

let audio = null;
let noise = null;   // one second of white noise, made once and played through filters

/** One card's snap at `at`: noise through a band-pass filter at `freq` Hz, `len` s long. */
function snap(at, { freq = 2400, q = 0.9, len = 0.045, gain = 0.22, type = "bandpass" } = {}) {
  const source = audio.createBufferSource();
  source.buffer = noise;
  const filter = audio.createBiquadFilter();
  filter.type = type;
  filter.frequency.value = freq;
  filter.Q.value = q;
  const level = audio.createGain();
  level.gain.setValueAtTime(0.0001, at);
  level.gain.exponentialRampToValueAtTime(gain, at + 0.004);
  level.gain.exponentialRampToValueAtTime(0.0001, at + len);
  source.connect(filter).connect(level).connect(audio.destination);
  // a different stretch of the noise each time, so that no two snaps sound alike
  source.start(at, Math.random() * 0.8, len + 0.01);
}

/** `n` snaps in a row from `at`, about `gap` s apart (a riffle); returns when it ends. */
function riffle(at, n, gap) {
  let t = at;
  for (let i = 0; i < n; i++) {
    snap(t, { freq: 1800 + Math.random() * 1600, len: 0.035, gain: 0.12 + Math.random() * 0.06 });
    t += gap * (0.7 + Math.random() * 0.6);
  }
  return t;
}

/** A soft chord (the win), sine tones fading out. */
function chord(at) {
  for (const freq of [523.25, 659.25, 783.99]) {
    const osc = audio.createOscillator(), level = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    level.gain.setValueAtTime(0.0001, at);
    level.gain.exponentialRampToValueAtTime(0.05, at + 0.02);
    level.gain.exponentialRampToValueAtTime(0.0001, at + 0.9);
    osc.connect(level).connect(audio.destination);
    osc.start(at);
    osc.stop(at + 0.95);
  }
}

const SOUNDS = {
  move: (at) => snap(at),
  flip: (at) => snap(at + 0.07, { freq: 4200, q: 0.7, len: 0.03, gain: 0.1, type: "highpass" }),
  draw: (at) => snap(at, { freq: 3200, len: 0.035, gain: 0.14 }),
  deal: (at) => riffle(at, 10, 0.035),
  shuffle: (at) => riffle(at, 26, 0.022),
  refuse: (at) => snap(at, { freq: 260, q: 1.2, len: 0.09, gain: 0.3, type: "lowpass" }),
  win: (at) => chord(riffle(at, 14, 0.03)),
};

/** Play the card sound `kind` (move, flip, draw, deal, shuffle, refuse, win) when `on`. */
export function sound(kind, on) {
  if (!on || !SOUNDS[kind]) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    if (!noise) {
      noise = audio.createBuffer(1, audio.sampleRate, audio.sampleRate);
      const data = noise.getChannelData(0);
      for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
    }
    SOUNDS[kind](audio.currentTime + 0.005);
  } catch { /* no audio here: stay silent */ }
}

/** The sounds of a move just shown: the card laid down (a draw or a dealt row for the stock),
 *  then a softer snap for each card it turned face up. */
export function moveSounds(before, after, move, on) {
  if (!on) return;
  const klondike = before.variant.startsWith("klondike");
  sound(move === "d" ? (klondike ? "draw" : "deal") : "move", on);
  const hidden = (obs) => obs.columns.reduce((n, col) => n + col.filter((c) => c === "??").length, 0);
  if (move !== "d" && hidden(after) < hidden(before)) sound("flip", on);
}
