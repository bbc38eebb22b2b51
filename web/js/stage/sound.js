// Dice sound, synthesised with WebAudio (no audio file): a short filtered noise burst per
// impact. Off by default; the choice is kept with the dice settings (dice-prefs.js).

let audio = null;

function context() {
  if (audio) return audio;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  try {
    audio = new Ctor();
  } catch {
    audio = null;
  }
  return audio;
}

/** Counts the clicks played (tests read it: the sound switch must silence them). */
export const soundLog = { played: 0 };

/** One click of a die on the table; strength 0..1. */
export function click(strength = 0.5) {
  const ctx = context();
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  soundLog.played += 1;
  const length = Math.floor(ctx.sampleRate * 0.05);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800 + Math.random() * 1400;
  filter.Q.value = 1.4;
  const gain = ctx.createGain();
  gain.gain.value = Math.min(1, 0.15 + strength * 0.6);
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start();
}
