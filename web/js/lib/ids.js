// Fresh identifiers and seeds the page makes for itself: a record's id (a participant, a
// character before the engine keeps it) and a roll's random seed.

/** "c-mx48kpmg-81a7d2a276c9": a prefix, the time, and random hex. */
export function newId(prefix = "c") {
  const random = typeof crypto !== "undefined" && crypto.randomUUID ? crypto.randomUUID().slice(0, 13) : Math.random().toString(36).slice(2, 12);
  return `${prefix}-${Date.now().toString(36)}-${random}`;
}

/** A random seed of 53 bits (a safe integer), from the platform's cryptographic RNG. */
export function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];
}
