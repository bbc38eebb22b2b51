// The check of a table roll (issues 24 and 38), pure: the engine is injected as call(). The
// host checks each player's roll, and each player checks every roll the host relays.
//
// A device replays the request in its own engine, with the seed IT derives from the two
// values of the roll's exchange, and compares the whole answer. Verdicts:
//   "yes"       the commitment holds, the seed is the derived one, the answers are equal;
//   "no"        anything differs (listed in diff, shown in red as « non vérifié »);
//   "physical"  dice thrown by hand: the faces are the player's, the answer matches them;
//   "offline"   rolled away from the table (« hors table »): its own seed, the answer matches.

import { commitment, seedOf } from "./table-protocol.js";

const MAX_DIFF = 8;

/** The paths where two JSON values differ ("result.dice[0].final: 3 ≠ 5"), at most MAX_DIFF. */
export function diffPaths(a, b, path = "", out = []) {
  if (out.length >= MAX_DIFF) return out;
  const show = (v) => {
    const text = JSON.stringify(v);
    return text === undefined ? "—" : text.length > 40 ? `${text.slice(0, 37)}…` : text;
  };
  const bothObjects = a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) {
    if (!Object.is(a, b)) out.push(`${path || "answer"}: ${show(a)} ≠ ${show(b)}`);
    return out;
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) out.push(`${path}.length: ${a.length} ≠ ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) diffPaths(a[i], b[i], `${path}[${i}]`, out);
    return out;
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const key of keys) diffPaths(a[key], b[key], path ? `${path}.${key}` : key, out);
  return out;
}

/**
 * Check one roll with this device's own engine. roll: {request, answer, offline?} as it
 * travelled; exchange: how it was seeded at the table, {commit, reveal, value, n} (n: the
 * roll's number, or "gm<number>" for a GM's roll), or null for a roll made away from the table
 * or with physical dice; call(request): this device's engine. The request is replayed with
 * the seed THIS device derives, and the whole answer compared. `held`: the request as this
 * device holds it (the GM's copy of the sheets it rolls from) and what differed, replayed
 * instead. Answers {verdict, diff, seed, answer}: answer is this device's own (null when the
 * request could not be replayed).
 */
export async function verifyRoll(roll, exchange, call, held = null) {
  const diff = [...(held?.diff ?? [])];
  const request = { ...(held?.request ?? roll.request) };
  let verdict;
  if (exchange) {
    if ((await commitment(exchange.reveal, roll.request)) !== exchange.commit) diff.push("commitment");
    const seed = await seedOf(exchange.reveal, exchange.value, exchange.n);
    if (request.seed !== seed) diff.push(`seed: ${JSON.stringify(request.seed ?? null)} ≠ ${seed}`);
    request.seed = seed;
    verdict = "yes";
  } else {
    verdict = roll.offline ? "offline" : "physical";
  }
  const answer = await call(request);
  if (!answer || !answer.ok) {
    return { verdict: "no", diff: [...diff, `engine: ${answer?.error?.message ?? "?"}`.slice(0, 200)], seed: request.seed ?? null, answer: null };
  }
  const physical = physicalOf(answer);
  // Faces typed by hand decide the dice: never « vérifié », whatever the message claims.
  if (physical) verdict = diff.length ? "no" : "physical";
  else if (verdict === "physical") diff.push("physical: false");
  diff.push(...diffPaths(roll.answer, answer, "").slice(0, MAX_DIFF - diff.length));
  return { verdict: diff.length ? "no" : verdict, diff, seed: request.seed ?? null, answer };
}

const SHEET_SIDES = ["params", "actor", "opponent"];

/**
 * A sheet roll as the GM holds it: each sheet it rolls from replaced by the GM's copy of that
 * character (`characters`, what the player showed it), and what differed. {request, diff}.
 */
export function withHeldSheets(request, characters) {
  const diff = [];
  const out = { ...request };
  for (const side of SHEET_SIDES) {
    const sheet = request[side]?.sheet;
    const character = sheet?.character;
    if (!character || typeof character !== "object") continue;
    const name = typeof character.name === "string" ? character.name.slice(0, 40) : "?";
    const kept = Array.isArray(characters) ? characters.find((c) => c && c.id === character.id) : null;
    if (!kept) {
      diff.push(`sheet: ${name} (not shown to the GM)`);
      continue;
    }
    const differs = diffPaths(kept, character, "sheet");
    if (differs.length) {
      diff.push(...differs.map((d) => `${d} (${name})`));
      out[side] = { ...request[side], sheet: { ...sheet, character: kept } };
    }
  }
  return { request: out, diff: diff.slice(0, MAX_DIFF) };
}

/** An answer altered on its way (the debug hooks' planted fault: a device that lies). */
export function tampered(answer) {
  const copy = structuredClone(answer);
  if (copy?.result) {
    copy.result.margin = (Number(copy.result.margin) || 0) + 1;
    copy.result.outcome = `${copy.result.outcome}*`;
  }
  return copy;
}

/** Whether an answer's dice were typed by hand (a roll's, or an opposition's actor's). */
export function physicalOf(answer) {
  return answer?.result?.physical === true || answer?.result?.actor?.physical === true;
}

/** The outcome an answer shows: a roll's outcome, an opposition's winner. */
export function outcomeOf(answer) {
  const result = answer?.result;
  if (!result || typeof result !== "object") return null;
  return result.outcome ?? result.winner ?? null;
}
