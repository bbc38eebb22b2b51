// The host's check of a player's roll (issue 24), pure: the engine is injected as call().
//
// The host replays the player's request in its own engine, with the seed IT derives from
// the revealed value and its own value, and compares the whole answer. Verdicts:
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
 * Judge one roll message (table-protocol parseMessage's "roll") of a player.
 * pending: the host's record of that player's open rolls, Map n -> {commit, value};
 * call(request): the host's engine. Answers {verdict, diff, seed, answer}: answer is the
 * HOST's answer (what the table is shown), null when the request could not be replayed.
 */
export async function verifyRoll(roll, pending, call) {
  const diff = [];
  const request = { ...roll.request };
  let verdict;
  if (roll.n !== undefined) {
    const open = pending.get(roll.n);
    if (!open) return { verdict: "no", diff: [`n: ${roll.n} (no open value)`], seed: request.seed ?? null, answer: null };
    pending.delete(roll.n);
    if ((await commitment(roll.reveal)) !== open.commit) diff.push("commitment");
    const seed = await seedOf(roll.reveal, open.value, roll.n);
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
  const physical = answer.result?.physical === true || answer.result?.actor?.physical === true;
  // Faces typed by hand decide the dice: never « vérifié », whatever the message claims.
  if (physical) verdict = diff.length ? "no" : "physical";
  else if (verdict === "physical") diff.push("physical: false");
  diff.push(...diffPaths(roll.answer, answer, "").slice(0, MAX_DIFF - diff.length));
  return { verdict: diff.length ? "no" : verdict, diff, seed: request.seed ?? null, answer };
}
