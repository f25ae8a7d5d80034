// Short sounds, made with Web Audio (no files): off unless the player turns them on.

let audio = null;
const TONES = {
  move: [[520, 0.05]], flip: [[700, 0.04]], deal: [[400, 0.04], [460, 0.04]],
  refuse: [[180, 0.12]], win: [[523, 0.12], [659, 0.12], [784, 0.2]],
};

/** Play the sound `kind` (move, flip, deal, refuse, win) when `on`. */
export function sound(kind, on) {
  if (!on || !TONES[kind]) return;
  try {
    audio = audio || new AudioContext();
    let at = audio.currentTime;
    for (const [freq, len] of TONES[kind]) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = freq;
      osc.type = kind === "refuse" ? "square" : "triangle";
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + len);
      at += len * 0.9;
    }
  } catch { /* no audio here: stay silent */ }
}
