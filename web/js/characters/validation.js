// What the engine is asked before a character is kept (editor save, import): one request
// per check, with how the `field` of a refusal maps back to a sheet number or a skill.
// No verdict is taken here: every bound and combination is the engine's (`validate` op,
// docs/api.md), so a sheet can never accept what a roll would refuse, nor the reverse.
// No DOM: the node tests run these checks against the engine itself.

import { effortState, rollParams, sheetOf, statFields } from "./sheet.js";

const present = (value) => value !== undefined && value !== null && value !== "";

/**
 * Requests checking a character's sheet numbers: [{request, stats: {field: stat}}].
 *   the numbers that go into every roll (`set`, `add`): a roll of no skill carries them;
 *   the efforts count: the `effort` op with the sheet's numbers (action "check");
 *   the numbers of a table op (pool `sources`, steps combat `participant`): that op.
 */
export function statChecks(system, table, character) {
  const sheet = sheetOf(system.id);
  const stats = character.stats || {};
  const checks = [];
  const rolled = {};
  for (const [param, stat] of [...Object.entries(sheet.set || {}), ...Object.entries(sheet.add || {})]) {
    if (present(stats[stat])) rolled[param] = stat;
  }
  if (Object.keys(rolled).length) {
    checks.push({ request: { op: "roll", system: system.id, params: rollParams(system, character, { params: {} }) }, stats: rolled });
  }
  const efforts = effortState(system, character);
  if (efforts) checks.push({ request: efforts.request("check"), stats: { flame: efforts.perDayKey, used: efforts.usedKey } });
  const byWhere = {};
  for (const [key, where, name] of sheet.stats) {
    if ((where === "sources" || where === "participant") && present(stats[key])) (byWhere[where] ??= []).push([key, name]);
  }
  if (byWhere.sources && table?.sources?.system === system.id) {
    const params = Object.fromEntries(byWhere.sources.map(([key, name]) => [name, stats[key]]));
    checks.push({ request: { op: "sources", params }, stats: Object.fromEntries(byWhere.sources.map(([key, name]) => [name, key])) });
  }
  if (byWhere.participant && table?.combat?.system === system.id) {
    const actor = Object.fromEntries(byWhere.participant.map(([key, name]) => [name, stats[key]]));
    checks.push({
      request: { op: "combat", params: {}, actor, opponent: {} },
      stats: Object.fromEntries(byWhere.participant.map(([key, name]) => [`actor.${name}`, key])),
    });
  }
  return checks;
}

/** Requests checking each skill of a character, as it would be rolled from the sheet. */
export function entryChecks(system, character) {
  return character.entries.map((entry, index) => ({ request: { op: "roll", system: system.id, params: rollParams(system, character, entry) }, entry: index }));
}

/** `call` (engine.call) for a check's request, through the engine's `validate` op. */
function asker(call, lang) {
  return (request) => call({ op: "validate", request: { ...request, lang }, lang });
}

/** The engine's refusals of a character's sheet numbers: [{stat, field, message}] (stat null: not one of the sheet's). */
export async function judgeStats(call, system, table, character, lang) {
  const ask = asker(call, lang);
  const refused = [];
  for (const check of statChecks(system, table, character)) {
    const answer = await ask(check.request);
    if (answer.ok) continue;
    const stat = check.stats[answer.error.field] ?? null;
    // A number in two checks (the d6 Flame: rolls and efforts) is refused once.
    if (!stat || !refused.some((r) => r.stat === stat)) refused.push({ stat, field: answer.error.field, message: answer.error.message });
  }
  return refused;
}

/** The engine's refusal of the first skill it refuses, rolled with the sheet: {index, field, message} or null. */
export async function judgeEntries(call, system, character, lang) {
  const ask = asker(call, lang);
  for (const check of entryChecks(system, character)) {
    const answer = await ask(check.request);
    if (!answer.ok) return { index: check.entry, field: answer.error.field, message: answer.error.message };
  }
  return null;
}

/**
 * Ask the engine about a character: null when it keeps everything, else {stats: [...],
 * entry: {...} | null}. Every sheet number is checked; the skills only when the numbers
 * pass (a skill rolls with them).
 */
export async function judgeCharacter(call, system, table, character, lang) {
  const stats = await judgeStats(call, system, table, character, lang);
  if (stats.length) return { stats, entry: null };
  const entry = await judgeEntries(call, system, character, lang);
  return entry ? { stats, entry } : null;
}

/** The descriptor of a sheet number, for the message next to it. */
export function statField(system, table, stat) {
  return statFields(system, table).find((f) => f.name === stat) || null;
}
