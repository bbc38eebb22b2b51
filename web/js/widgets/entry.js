// A history entry made from an engine request and its answer (what the history, the
// statistics and a replay link keep of a roll), and the words for who rolled. Pure.

/**
 * Build a history entry from an API request and its answer. `extra` may name who rolled:
 * {who: {id, name, label}} for a roll, {actorWho, opponentWho} for an opposed roll.
 */
export function entryFrom(request, result, extra = {}) {
  const base = {
    id: `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`,
    time: new Date().toISOString(),
    system: request.system,
    ...extra,
  };
  if (request.op === "oppose") {
    return {
      ...base,
      mode: "oppose",
      // Effective params, plus the faces typed for physical dice (not echoed in params).
      actor: { ...request.actor, ...result.actor.params },
      opponent: { ...request.opponent, ...result.opponent.params },
      outcome: result.winner,
      actorOutcome: result.actor.outcome,
      opponentOutcome: result.opponent.outcome,
      margin: result.margin,
      seed: result.seed ?? result.actor.seed ?? null,
      physical: Boolean(result.physical ?? result.actor.physical),
      actorFaces: finalFaces(result.actor),
      opponentFaces: finalFaces(result.opponent),
      // Each side's params in the engine's words (history.js remembers them, never stores them).
      actorBrief: result.actor?.brief,
      opponentBrief: result.opponent?.brief,
    };
  }
  return {
    ...base,
    mode: "roll",
    params: { ...request.params, ...result.params },
    outcome: result.outcome,
    margin: result.margin,
    seed: result.seed ?? null,
    physical: Boolean(result.physical),
    faces: finalFaces(result),
    brief: result.brief, // the params in the engine's words (remembered by history.js, not stored)
    ...(result.extreme !== undefined ? { extreme: result.extreme } : {}),
    // Free dice (docs/api.md): the answer's kind ("sum" / "count") and its headline number.
    ...(typeof result.kind === "string" ? { kind: result.kind, headline: result.headline ?? result.total ?? null } : {}),
  };
}

/**
 * The headline of a free-dice entry: {kind: "sum" | "count", value}, or null for any other
 * roll. Entries made before the engine's answer had a `kind` (free dice then always answered
 * outcome "total" with the total as margin) read as the sum they were.
 */
export function entryHeadline(entry) {
  if (!entry || entry.mode === "oppose") return null;
  if ((entry.kind === "sum" || entry.kind === "count") && typeof entry.headline === "number") return { kind: entry.kind, value: entry.headline };
  if (entry.kind === undefined && entry.outcome === "total" && typeof entry.margin === "number") return { kind: "sum", value: entry.margin };
  return null;
}

/** The faces a roll's dice show (after any placement), for the history line. */
function finalFaces(result) {
  return Array.isArray(result?.dice) ? result.dice.map((d) => d.final) : undefined;
}

/**
 * The same roll: same system, mode, seed and params. A seeded roll is fully given by
 * them, so a second entry would count it twice (Statistics). Rolls of physical dice
 * have no seed: two of them are two rolls, even with the same faces.
 */
export function sameRoll(a, b) {
  if (a.seed === null || a.seed === undefined || a.seed !== b.seed) return false;
  if (a.combat || b.combat) return false; // each combat action changes the fight: its own entry
  if (a.system !== b.system || a.mode !== b.mode) return false;
  const key = (e) => JSON.stringify(e.mode === "oppose" ? [e.actor, e.opponent] : e.params);
  return key(a) === key(b);
}

/** "Alice (Épée)" for a {name, label} of who rolled. */
export function whoText(who) {
  if (!who || !who.name) return "";
  return who.label ? `${who.name} (${who.label})` : who.name;
}
