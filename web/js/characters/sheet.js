// The character model, with no DOM.
//
// A character is {id, system, name, note, pc, stats, entries, created, updated}:
//   stats    the numbers of the sheet, shared by every roll (a list stat: a list of ints);
//   entries  [{id, label, params, sources?}]: one skill or action each, `params` holding the
//            system's fields the entry stores.
//
// What a sheet holds and how it becomes a roll are the engine's (issue 21): the `sheet` of
// each system's description gives the stats (field descriptors, name = stat key), the
// names of the fields an entry stores, the per-entry extras, the situation fields of a quick
// roll (each with its mode) and the efforts per day. A roll from a sheet is asked as the
// params `{"sheet": {character, entry, situation?}}`: the engine builds the real params. A
// character is checked and normalised by the engine's `character` op (`characters` for an
// import: one call); the page stores what it answered. Nothing here judges a value.

import { isObject } from "../lib/checks.js";
import { both } from "../lib/i18n.js";
import "./strings.js";

/** The engine's description of what a system's sheet holds (empty when it has none). */
export function sheetOf(system) {
  return isObject(system?.sheet) ? system.sheet : {};
}

/** What one character holds at most (the engine's `sheet.limits`: name_max, note_max, label_max, ...). */
export function limits(system) {
  const given = sheetOf(system).limits;
  return isObject(given) ? given : {};
}

const descriptors = (list) => (Array.isArray(list) ? list.filter((f) => isObject(f) && typeof f.name === "string") : []);

/** The engine's description of a system's exceptional efforts, or null. */
function effortsSpec(system) {
  const spec = sheetOf(system).efforts_per_day;
  const named = (value) => typeof value === "string";
  const request = spec?.request && typeof spec.request === "object" && Object.values(spec.request).every(named);
  return spec && named(spec.field) && named(spec.used) && named(spec.param) && request ? spec : null;
}

/** Field descriptors of a system's sheet numbers, in display order. */
export function statFields(system) {
  return descriptors(sheetOf(system).stats).map((f) => ({ ...f, group: "main" }));
}

/** The system's fields an entry stores (the engine's `entry_fields`). */
export function entryFields(system) {
  const names = new Set(sheetOf(system).entry_fields || []);
  return (system?.fields || []).filter((f) => names.has(f.name));
}

/** Per-entry extra fields (pool: linked, specialty for `sources`). */
export function extraFields(system) {
  return descriptors(sheetOf(system).extras);
}

/** Field descriptors of the situation form of a quick roll, each with its `mode`. */
export function situationFields(system) {
  return descriptors(sheetOf(system).situation).map((field) => {
    const copy = { ...field, group: "main" };
    if (field.mode === "replace") Object.assign(copy, { optional: true, default: null, help: field.help ?? both("situation.replaceHelp") });
    else if (field.mode === "add") Object.assign(copy, { default: field.default ?? 0, help: field.help ?? both("situation.addHelp") });
    else if (field.mode === "append") Object.assign(copy, { default: field.default ?? "", help: field.help ?? both("situation.appendHelp") });
    else if (field.mode === "or") copy.default = false;
    return copy;
  });
}

/** A new sheet's numbers: each stat's default (a list: nothing listed). */
export function defaultStats(system) {
  const stats = {};
  for (const field of statFields(system)) stats[field.name] = field.type === "list" ? [] : field.default ?? 0;
  return stats;
}

/**
 * The params of a roll of `entry` by `character` (with an optional situation), as the
 * engine takes them anywhere params go: it builds the real params from the sheet.
 */
export function sheetParams(character, entry, situation = null) {
  const sheet = { character, entry: entry.id };
  if (situation && Object.keys(situation).length) sheet.situation = situation;
  return { sheet };
}

/**
 * The efforts of a character whose system has them (the engine's `sheet.efforts_per_day`),
 * or null: `request(action)` is the `effort` op's request with the sheet's numbers as
 * stored (the engine judges and counts them), `param` the situation field that spends one,
 * `perDayKey` / `usedKey` the stats giving them per day / counting the used ones.
 */
export function effortState(system, character) {
  const spec = effortsSpec(system);
  if (!spec) return null;
  const stats = character.stats || {};
  const number = (key, fallback) => (stats[key] === undefined || stats[key] === null ? fallback : stats[key]);
  return {
    param: spec.param,
    perDayKey: spec.field,
    usedKey: spec.used,
    // The effort op's params, each from the sheet number the engine's description names.
    request: (action) => ({ op: "effort", params: { ...Object.fromEntries(Object.entries(spec.request).map(([param, stat]) => [param, number(stat, 0)])), action } }),
  };
}

// ------------------------------------------------------------------------------ refusals

/**
 * Where a refusal of the `character` op points (its dotted `field`): {part, index?, name?}
 * with part "name" | "system" | "note" | "pc" | "stats" | "label" | "params" | "sources" |
 * "other".
 */
export function refusalTarget(field) {
  const parts = typeof field === "string" ? field.split(".") : [];
  if (parts[0] === "stats" && parts.length >= 2) return { part: "stats", name: parts.slice(1).join(".") };
  if (parts[0] === "entries" && /^\d+$/.test(parts[1] ?? "")) {
    const index = Number(parts[1]);
    if (parts[2] === "label") return { part: "label", index };
    if ((parts[2] === "params" || parts[2] === "sources") && parts.length >= 4) return { part: parts[2], index, name: parts.slice(3).join(".") };
    return { part: "entry", index };
  }
  if (["name", "system", "note", "pc"].includes(parts[0]) && parts.length === 1) return { part: parts[0] };
  return { part: "other" };
}

// ------------------------------------------------------------------------------ files

export const EXPORT_FORMAT = "pyrules-characters";

export function exportDocument(characters, expressions = []) {
  // The saved free-dice expressions ride beside the characters (lib/expressions.js); a file
  // without them (older ones) imports as before.
  return { format: EXPORT_FORMAT, version: 1, exported: new Date().toISOString(), characters, expressions };
}

/** The characters of an export file (or {error}): the object form or a bare array. */
export function importList(data) {
  if (Array.isArray(data)) return { list: data };
  if (isObject(data) && data.format === EXPORT_FORMAT && Array.isArray(data.characters)) return { list: data.characters };
  return { error: { key: "import.format", vars: {} } };
}

/** The characters by name (then id), as the list shows them: a new list. */
export function sorted(list) {
  return [...list].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
