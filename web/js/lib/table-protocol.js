// The shared table's protocol (issues 24 and 38), pure: no DOM, no WebRTC (tested with node --test).
//
// Fair dice that no device chooses, one exchange per roll (issue 38: no value travels ahead):
//   1. at the tap, the roller draws a random value r and sends only its commitment
//      c = H(r, request): it is bound to what it rolls before it knows anything of the seed;
//   2. the other side, having seen c, answers its own random value v;
//   3. the seed of roll n is derived from r, v and n (seedOf);
//   4. the roll message reveals r: every device checks H(r, request) = c, derives the seed
//      itself, replays the request in its own engine and compares the whole answer
//      (table-verify.js).
// A player's roll: the player commits, the host answers. The GM's visible roll: the host
// commits, a player answers (its value goes into the GM's dice). Neither side can steer the
// seed: the committer is bound by c before it sees v, and the other cannot guess r from c.
//
// Every message from another device is untrusted (like storage): parseMessage checks its
// size, its shape and its types and rebuilds it from known fields only (no prototype
// tricks: JSON.parse makes "__proto__" an own key, and such keys are refused anyway).

import { cleanColour } from "./dice-colours.js";

export const PROTOCOL = 2; // 2: one commit-reveal exchange per roll (issue 38); 1 sent values ahead
export const MAX_MESSAGE = 64000; // characters of one message (a roll with its answer: ~3 000; a sheet roll more)
export const MAX_NAME = 40; // characters of a player's name
// How many players a table seats is the engine's decision (op "seat", pyrules/ops/table.py).
// This is only a bound on the size of a peers list a device accepts: the host keeps at most
// MAX_ROSTER players on its roster (the oldest gone ones are forgotten first).
export const MAX_ROSTER = 32;
export const MAX_OUTBOX = 200; // rolls made away from the table, sent when it joins again
export const MAX_SHEETS = 40; // characters a player shows the GM
const HEX64 = /^[0-9a-f]{64}$/;
const ID = /^p[1-9][0-9]{0,3}$/; // player ids, given by the host: p1, p2, …
const TOKEN = /^[0-9a-f]{32}$/;
const ROLL_OPS = new Set(["roll", "oppose", "combat"]);
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const MAX_DEPTH = 12;

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** A fresh random value: 32 bytes of crypto.getRandomValues, as 64 hex digits. */
export function randomValue(bytes = 32) {
  return hex(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a text, as 64 hex digits. */
export async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return hex(new Uint8Array(digest));
}

/** JSON with the keys of every object sorted: the same value is the same text on every device. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().filter((k) => value[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A roll request as it is committed to: everything but its seed (the seed comes after) and
 * its Flame-die placement (the API's `params.placement`: the rules let the player choose it
 * once the dice are seen, so a new placement of the same dice keeps the same commitment).
 */
export function committed(request) {
  const { seed, ...rest } = request; // eslint-disable-line no-unused-vars
  if (rest.params && typeof rest.params === "object" && "placement" in rest.params) {
    const { placement, ...params } = rest.params; // eslint-disable-line no-unused-vars
    rest.params = params;
  }
  return rest;
}

/** The commitment to a random value and to the request it will seed (a roll is bound to both). */
export const commitment = (value, request) => sha256(`pyrules-table/commit/${value}/${canonical(committed(request))}`);

/**
 * The seed of roll `n`: the first 53 bits of H(committed value, other value, n), so that it is
 * an exact integer in 0..2**53-1 (a seed the engine and JSON both keep exactly). `n` is a
 * player's roll number, or "gm<number>" for a GM's roll.
 */
export async function seedOf(committed, other, n) {
  const digest = await sha256(`pyrules-table/seed/${committed}/${other}/${n}`);
  return Number(BigInt(`0x${digest.slice(0, 14)}`) >> 3n); // 56 bits -> 53
}

/**
 * The committer's side of one exchange (a player's roll, or the GM's): a fresh value, its
 * commitment with the request sent (send(c) is false when it could not leave), the other
 * side's value awaited at most `ms` (listen(resolve) is handed what to call with it), then
 * the seed of roll `n`. {seed, reveal, commit, value}, or null when no value came.
 */
export async function exchangeSeed(request, { n, send, listen, ms }) {
  const reveal = randomValue();
  const commit = await commitment(reveal, request);
  const value = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    listen((v) => {
      clearTimeout(timer);
      resolve(v);
    });
    if (!send(commit)) {
      clearTimeout(timer);
      resolve(null);
    }
  });
  return value ? { seed: await seedOf(reveal, value, n), reveal, commit, value } : null;
}

// ------------------------------------------------------------------------- untrusted input

const isPlain = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const isCount = (v, max = 1e9) => Number.isInteger(v) && v >= 0 && v <= max;

/** Whether a parsed JSON value is plain data: no forbidden key, not too deep. */
export function isPlainData(value, depth = 0) {
  if (depth > MAX_DEPTH) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isPlainData(v, depth + 1));
  if (!isPlain(value)) return false;
  return Object.keys(value).every((k) => !FORBIDDEN_KEYS.has(k) && isPlainData(value[k], depth + 1));
}

/** A name shown to the table: text only, trimmed, no control characters, at most MAX_NAME. */
export function cleanName(name, fallback = "?") {
  if (typeof name !== "string") return fallback;
  // eslint-disable-next-line no-control-regex
  const text = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").replace(/\s+/g, " ").trim();
  return text ? Array.from(text).slice(0, MAX_NAME).join("") : fallback;
}


/** A roll request from a peer: one of the roll ops, plain data (the engine checks the rest). */
function cleanRequest(request) {
  if (!isPlain(request) || !ROLL_OPS.has(request.op) || typeof request.system !== "string") return null;
  if (request.seed !== undefined && !(Number.isSafeInteger(request.seed) && request.seed >= 0)) return null;
  return request;
}

const fail = (error) => ({ ok: false, error });

/**
 * Read one message from another device. `from`: "player" (what the host accepts) or "host"
 * (what a player accepts). Answers {ok: true, message} with only the known fields, or
 * {ok: false, error} naming what is wrong (the host shows it as a notice, nothing changes).
 */
export function parseMessage(text, from) {
  if (typeof text !== "string") return fail("not text");
  if (text.length > MAX_MESSAGE) return fail(`too long (${text.length} > ${MAX_MESSAGE})`);
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return fail("not JSON");
  }
  if (!isPlain(data) || !isPlainData(data)) return fail("not a plain object");
  const check = (from === "host" ? HOST_MESSAGES : PLAYER_MESSAGES)[data.t];
  if (!check || !Object.hasOwn(from === "host" ? HOST_MESSAGES : PLAYER_MESSAGES, data.t)) return fail("unknown type");
  const message = check(data);
  return message ? { ok: true, message } : fail(`bad ${String(data.t).slice(0, 20)} message`);
}

/** A roll as it travels: the request, the answer, and how it was seeded. */
function cleanRoll(d) {
  const request = cleanRequest(d.request);
  if (!request || !isPlain(d.answer)) return null;
  const roll = { request, answer: d.answer, hidden: d.hidden === true, offline: d.offline === true, time: typeof d.time === "string" ? d.time.slice(0, 40) : null };
  if (d.k !== undefined) {
    if (!isCount(d.k)) return null;
    roll.k = d.k; // the roll's number on its device (acknowledged by the host)
  }
  if (d.n !== undefined) {
    if (!isCount(d.n) || !isHex(d.reveal)) return null;
    roll.n = d.n; // the exchange that seeded it
    roll.reveal = d.reveal;
  }
  roll.placed = d.placed === true; // a new placement of the Flame dice of a roll already shown
  return roll;
}

const isHex = (v) => typeof v === "string" && HEX64.test(v);

/** What a relayed roll carries for any device to check it: both values, the commitment, the number. */
function cleanProof(p) {
  if (!isPlain(p) || !isCount(p.n) || !isHex(p.commit) || !isHex(p.reveal) || !isHex(p.value)) return null;
  const proof = { n: p.n, commit: p.commit, reveal: p.reveal, value: p.value, gm: p.gm === true };
  if (proof.gm) {
    if (!ID.test(p.by)) return null;
    proof.by = p.by; // the player whose value went into the GM's roll
  }
  return proof;
}

const PLAYER_MESSAGES = {
  hello: (d) => {
    if (d.v !== PROTOCOL) return null;
    const back = isPlain(d.back) && ID.test(d.back.id) && TOKEN.test(d.back.token) ? { id: d.back.id, token: d.back.token } : null;
    return { t: "hello", name: cleanName(d.name), colour: cleanColour(d.colour), back };
  },
  // The commitment of the player's roll n (the host answers its value).
  commit: (d) => (isCount(d.n) && isHex(d.c) ? { t: "commit", n: d.n, c: d.c } : null),
  roll: (d) => {
    const roll = cleanRoll(d);
    if (!roll) return null;
    // The colour of the player's dice when it rolled (its dice setting): a known id, or none.
    return { t: "roll", ...roll, colour: cleanColour(d.colour) };
  },
  // Roll n was refused by the player's engine: its value, so the host can see it refused too.
  void: (d) => {
    const request = cleanRequest(d.request);
    return isCount(d.n) && isHex(d.reveal) && request ? { t: "void", n: d.n, reveal: d.reveal, request } : null;
  },
  // The player's value for the GM's roll n (asked by "ask").
  give: (d) => (isCount(d.n) && isHex(d.value) ? { t: "give", n: d.n, value: d.value } : null),
  // The player's characters, as the GM holds them to check its sheet rolls (the engine checks each).
  sheets: (d) => (Array.isArray(d.characters) && d.characters.length <= MAX_SHEETS && d.characters.every(isPlain) ? { t: "sheets", characters: d.characters } : null),
  ping: () => ({ t: "ping" }),
  bye: () => ({ t: "bye" }),
};

const cleanPeers = (list) =>
  Array.isArray(list) && list.length <= MAX_ROSTER + 1
    ? list.filter((p) => isPlain(p) && (ID.test(p.id) || p.id === "gm")).map((p) => ({ id: p.id, name: cleanName(p.name), colour: cleanColour(p.colour), connected: p.connected === true }))
    : null;

const VERDICTS = ["yes", "no", "offline", "physical", "host"];

const HOST_MESSAGES = {
  welcome: (d) => {
    const peers = cleanPeers(d.peers);
    if (!ID.test(d.id) || !TOKEN.test(d.token) || !peers || !isCount(d.next)) return null;
    return { t: "welcome", id: d.id, token: d.token, peers, next: d.next, host: cleanName(d.host, "MJ") };
  },
  value: (d) => (isCount(d.n) && isHex(d.value) ? { t: "value", n: d.n, value: d.value } : null),
  // The GM commits to its roll n and asks this player for a value.
  ask: (d) => (isCount(d.n) && isHex(d.c) ? { t: "ask", n: d.n, c: d.c } : null),
  ack: (d) => (isCount(d.k) ? { t: "ack", k: d.k } : null),
  peers: (d) => {
    const peers = cleanPeers(d.peers);
    return peers ? { t: "peers", peers } : null;
  },
  // A roll of another device, relayed by the host with its verdict (or the host's own), and
  // what this device needs to check it with its own engine (proof).
  roll: (d) => {
    if (!(ID.test(d.from) || d.from === "gm")) return null;
    const verified = VERDICTS.includes(d.verified) ? d.verified : null;
    if (!verified) return null;
    const base = { t: "roll", from: d.from, name: cleanName(d.name), colour: cleanColour(d.colour), verified, time: typeof d.time === "string" ? d.time.slice(0, 40) : null };
    // A GM's hidden roll: only that it was made (its number h, to be revealed later by it).
    const h = isCount(d.h) ? d.h : null;
    if (d.hidden === true) return { ...base, hidden: true, h, system: typeof d.system === "string" ? d.system.slice(0, 40) : "?" };
    const request = cleanRequest(d.request);
    if (!request || !isPlain(d.answer)) return null;
    const proof = d.proof === undefined ? null : cleanProof(d.proof);
    if (d.proof !== undefined && !proof) return null;
    return { ...base, hidden: false, h, revealed: d.revealed === true, request, answer: d.answer, proof, offline: d.offline === true, placed: d.placed === true, diff: Array.isArray(d.diff) ? d.diff.filter((x) => typeof x === "string").slice(0, 8).map((x) => x.slice(0, 200)) : [] };
  },
  closed: () => ({ t: "closed" }),
  ping: () => ({ t: "ping" }),
};

// ------------------------------------------------------------------------- invite and answer

const INVITE_KEY = "table=";

/** The invite link: this very site (relative to the page, so /<repo>/ on GitHub Pages). */
export function inviteLink(pageHref, offerText) {
  const url = new URL(".", pageHref);
  url.search = "";
  url.hash = `${INVITE_KEY}${offerText}`;
  return url.href;
}

/** The offer text of an invite link or fragment, or null. */
export function inviteOffer(hashOrLink) {
  if (typeof hashOrLink !== "string") return null;
  const at = hashOrLink.indexOf(`#${INVITE_KEY}`);
  if (at < 0) return null;
  const text = hashOrLink.slice(at + 1 + INVITE_KEY.length).trim();
  return text && text.length <= 2000 ? text : null;
}
