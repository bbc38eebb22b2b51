// Saved free-dice expressions (issue 23): a name and an expression kept on this device
// (« Attaque du gobelin » = 1d20+4), rolled with one tap from the free-dice screen, carried
// in the characters' export file beside the characters.
//
// The engine owns what an expression means: one is saved, or imported, only as the
// engine's `validate` of its `roll` request answers it (its params as the engine reads
// them, `grammar` included). Read back from storage, the list is untrusted: checks.js
// isSavedExpression keeps the well-formed items, storage.js sets the raw text aside when
// anything was unreadable (nothing lost, the app goes on).

import { isObject, isSavedExpression } from "./checks.js";
import { storageGet, storageSet } from "./dom.js";

export const EXPRESSIONS_KEY = "pyrules:expressions";
export const EXPRESSIONS_MAX = 200;
const SYSTEM = "notation";
/** Window event: the list changed elsewhere in this page (an import); its views redraw. */
export const EXPRESSIONS_CHANGED = "pyrules:expressions-changed";

/** The saved expressions, as stored (checked). */
export function readExpressions() {
  const list = storageGet(EXPRESSIONS_KEY, []);
  return Array.isArray(list) ? list : [];
}

/** Store the list; false when it could not be written (reported by storage.js). */
export function writeExpressions(list) {
  return storageSet(EXPRESSIONS_KEY, list);
}

export function newExpressionId() {
  return `x-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
}

/** The engine request that rolls a saved expression (one tap, one call). */
export function expressionRequest(item, language) {
  const params = { expression: item.expression };
  if (Number.isInteger(item.grammar)) params.grammar = item.grammar;
  return { op: "roll", system: SYSTEM, params, lang: language };
}

/**
 * Ask the engine whether `expression` (with `grammar`, if given) rolls; resolves
 * {item} (named `name`, the params as the engine read them) or {error} (the engine's,
 * naming the field, in `language`). call(request) -> answer (engine.js).
 */
export async function checkedExpression(call, { id, name, expression, grammar }, language) {
  const params = { expression };
  if (grammar !== undefined && grammar !== null) params.grammar = grammar;
  const answer = await call({ op: "validate", request: { op: "roll", system: SYSTEM, params, lang: language }, lang: language });
  if (!answer.ok) return { error: answer.error };
  const read = answer.result.params || {};
  const item = { id: id || newExpressionId(), name: String(name).trim().slice(0, 60), expression: String(read.expression ?? expression) };
  if (Number.isInteger(read.grammar)) item.grammar = read.grammar;
  return isSavedExpression(item) ? { item } : { error: { field: "name", message: "" } };
}

/**
 * The expressions of an export file: [] for a file without any (older files), or {error}
 * when the part is there but not a list of objects.
 */
export function importedExpressions(data) {
  if (!isObject(data) || data.expressions === undefined) return { list: [] };
  if (!Array.isArray(data.expressions) || data.expressions.length > EXPRESSIONS_MAX) return { error: true };
  if (!data.expressions.every((item) => isObject(item) && typeof item.name === "string" && typeof item.expression === "string")) return { error: true };
  return { list: data.expressions };
}

/** `incoming` added after `existing`: an id already taken gets a new one; nothing replaced. */
export function mergeExpressions(existing, incoming) {
  const taken = new Set(existing.map((item) => item.id));
  const added = incoming.map((item) => {
    const id = !item.id || taken.has(item.id) ? newExpressionId() : item.id;
    taken.add(id);
    return { ...item, id };
  });
  return [...existing, ...added];
}
