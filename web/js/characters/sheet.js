// The character model, with no DOM.
//
// A character is {id, system, name, note, pc, stats, entries, created, updated}:
//   stats    the base numbers of the sheet (per system, below), shared by every roll;
//   entries  [{id, label, params, sources?}]: one skill or action each, `params` being the
//            API params of that roll as the registry-driven form builds them.
//
// Which stats exist and how they go into a roll is the only per-system knowledge, kept
// in the SHEETS table. Field descriptors (labels, bounds, defaults) come from the
// engine's `systems` answer (the system's fields and the `table` ops' fields) so they
// are the same as everywhere else; the accessories number takes the bounds of the roll
// param it adds to. The efforts per day are the engine's (`sheet.efforts_per_day` of the
// description, counted by the `effort` op). No bound is decided here: the engine judges
// every number (validation.js builds the requests).

import { paramsFit } from "../lib/checks.js";
import { both } from "../lib/i18n.js";
import "./strings.js";

export const NAME_MAX = 60;
export const NOTE_MAX = 500;
export const LABEL_MAX = 60;
export const ENTRIES_MAX = 100;
export const IMPORT_MAX = 500;

/**
 * stats:     [key, where the descriptor comes from, name there]
 *            where: "system" (the system's fields), "sources" / "effort" (table ops' fields),
 *            "participant" (the combat participant fields), "local" (LOCAL_FIELDS)
 * set:       roll param <- stat (the stat replaces the entry's value)
 * add:       roll param <- entry's value + stat
 * pc:        roll param that carries the character's PC flag
 *            (the d6 efforts stat is added from the engine's `sheet.efforts_per_day`)
 * extras:    per-entry fields of a table op stored in entry.sources (pool: for `sources`)
 * situation: fields a player may change just before a quick roll, and how:
 *            "replace" (blank keeps the entry's value), "set", "add", "or" (bool), "append" (text)
 */
export const SHEETS = {
  pool: {
    stats: [
      ["flame", "system", "flame"],
      ["aspect", "sources", "aspect"],
      ["dark_aspect", "sources", "dark_aspect"],
    ],
    set: { flame: "flame" },
    extras: ["linked", "specialty"],
    situation: [
      ["diff", "replace"],
      ["augmentations", "add"],
      ["diminutions", "add"],
      ["modifiers", "append"],
    ],
  },
  d6: {
    stats: [
      ["flame", "system", "flame"],
      ["clarity", "system", "clarity"],
    ],
    set: { flame: "flame", clarity: "clarity" },
    pc: "pc",
    situation: [
      ["difficulty", "replace"],
      ["effort", "or"],
      ["take_time", "or"],
    ],
  },
  d100: {
    stats: [],
    situation: [["modifier", "add"]],
  },
  steps: {
    stats: [
      ["ardeur", "participant", "ardeur"],
      ["accessories", "local", "accessories"],
      ["weapons", "system", "weapons"],
      ["protections", "system", "protections"],
    ],
    add: { bonus: "accessories" },
    // Several weapons and protections may be listed; the engine counts only the best of each.
    set: { weapons: "weapons", protections: "protections" },
    situation: [
      ["threshold", "replace"],
      ["edge", "set"],
      ["bonus", "add"],
    ],
  },
};

/** Numbers only the sheet has: their own label, the bounds of the roll param they add to. */
const LOCAL_LABELS = {
  accessories: { label: "sheet.accessories", help: "sheet.accessoriesHelp" },
};

export function sheetOf(systemId) {
  return SHEETS[systemId] || { stats: [], situation: [] };
}

/** The engine's description of a system's exceptional efforts, or null. */
function effortsSpec(system) {
  const spec = system?.sheet?.efforts_per_day;
  return spec && typeof spec.field === "string" && typeof spec.used === "string" && typeof spec.param === "string" ? spec : null;
}

/** The sheet's stats: the table's, then the efforts count when the engine describes one. */
function statSpecs(system) {
  const specs = [...sheetOf(system.id).stats];
  const efforts = effortsSpec(system);
  if (efforts) specs.push([efforts.used, "effort", "used"]);
  return specs;
}

/** A local number: the descriptor of the param it is added to, under its own name and label. */
function localField(system, name) {
  const param = Object.entries(sheetOf(system.id).add || {}).find(([, stat]) => stat === name)?.[0];
  const target = system.fields.find((f) => f.name === param);
  const texts = LOCAL_LABELS[name];
  if (!target || !texts) return null;
  return { ...target, name, default: 0, optional: false, label: both(texts.label), help: both(texts.help) };
}

/** A field of the engine's table description ("participant": a combat participant's). */
export function fromTable(table, where, name) {
  if (!table) return null;
  const list = where === "participant" ? table.combat?.participant : table[where]?.fields;
  return (list || []).find((f) => f.name === name) || null;
}

function descriptor(system, table, [key, where, name]) {
  let field = null;
  if (where === "system") field = system.fields.find((f) => f.name === name);
  else if (where === "local") field = localField(system, name);
  else field = fromTable(table, where, name);
  return field ? { ...field, name: key, group: "main" } : null;
}

/** Field descriptors of a system's sheet numbers. */
export function statFields(system, table) {
  return statSpecs(system)
    .map((spec) => descriptor(system, table, spec))
    .filter(Boolean);
}

/** The fields a stored entry may hold (everything but faces and placement). */
function entryFieldsAll(system) {
  return system.fields.filter((f) => f.type !== "faces" && f.type !== "placement");
}

/** Params the sheet fills in (so the entry form does not ask for them). */
function controlled(systemId) {
  const sheet = sheetOf(systemId);
  return new Set([...Object.keys(sheet.set || {}), ...(sheet.pc ? [sheet.pc] : [])]);
}

/** The system's fields an entry stores (no faces, no placement, none the sheet sets). */
export function entryFields(system) {
  const skip = controlled(system.id);
  return system.fields.filter((f) => f.type !== "faces" && f.type !== "placement" && !skip.has(f.name));
}

/** Per-entry fields of a table op (pool: linked, specialty for `sources`). */
export function extraFields(system, table) {
  const names = sheetOf(system.id).extras || [];
  return names.map((name) => fromTable(table, "sources", name)).filter(Boolean);
}

/** Field descriptors of the situation form of a quick roll. */
export function situationFields(system) {
  const out = [];
  for (const [name, mode] of sheetOf(system.id).situation) {
    const field = system.fields.find((f) => f.name === name);
    if (!field) continue;
    const copy = { ...field, group: "main", mode };
    if (mode === "replace") {
      copy.optional = true;
      copy.default = null;
      copy.help = both("situation.replaceHelp");
    } else if (mode === "add") {
      copy.default = 0;
      copy.help = both("situation.addHelp");
    } else if (mode === "append") {
      copy.default = "";
      copy.help = both("situation.appendHelp");
    } else if (mode === "or") {
      copy.default = false;
    }
    out.push(copy);
  }
  return out;
}

/** A stat's value before anything is typed: "" for a list (nothing listed), else the default. */
function emptyStat(field) {
  return field.type === "list" ? "" : field.default ?? 0;
}

export function defaultStats(system, table) {
  const stats = {};
  for (const field of statFields(system, table)) stats[field.name] = emptyStat(field);
  return stats;
}

/** The params of a roll of `entry` by `character`, with an optional situation. */
export function rollParams(system, character, entry, situation = null) {
  const sheet = sheetOf(system.id);
  // A stored sheet never brings dice faces (or a placement) into a roll.
  const params = {};
  for (const field of entryFieldsAll(system)) if (entry.params && entry.params[field.name] !== undefined) params[field.name] = entry.params[field.name];
  const stats = character.stats || {};
  const fieldDefault = (name) => system.fields.find((f) => f.name === name)?.default;
  for (const [param, stat] of Object.entries(sheet.set || {})) {
    if (stats[stat] !== undefined && stats[stat] !== null && stats[stat] !== "") params[param] = stats[stat];
  }
  for (const [param, stat] of Object.entries(sheet.add || {})) {
    if (stats[stat]) params[param] = (params[param] ?? fieldDefault(param) ?? 0) + stats[stat];
  }
  if (sheet.pc) params[sheet.pc] = Boolean(character.pc);
  if (situation) {
    for (const [name, mode] of sheet.situation) {
      const value = situation[name];
      if (value === undefined || value === null || value === "") continue;
      if (mode === "replace" || mode === "set") params[name] = value;
      else if (mode === "add") {
        if (value) params[name] = (params[name] ?? fieldDefault(name) ?? 0) + value;
      } else if (mode === "or") {
        if (value) params[name] = true;
      } else if (mode === "append") {
        const text = String(value).trim();
        if (text) params[name] = `${params[name] || ""}${/^[+-]/.test(text) ? "" : "+"}${text}`;
      }
    }
  }
  return params;
}

/**
 * The efforts of a character whose system has them (the engine's `sheet.efforts_per_day`),
 * or null: `request(action)` is the `effort` op's request with the sheet's numbers as
 * stored (the engine judges and counts them), `param` the roll param that spends one,
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
    request: (action) => ({ op: "effort", params: { flame: number(spec.field, 0), used: number(spec.used, 0), action } }),
  };
}

// ------------------------------------------------------------------------------ ids

export function newId(prefix = "c") {
  const random = typeof crypto !== "undefined" && crypto.randomUUID ? crypto.randomUUID().slice(0, 13) : Math.random().toString(36).slice(2, 12);
  return `${prefix}-${Date.now().toString(36)}-${random}`;
}

// ------------------------------------------------------------------------------ schema

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Whether a stat value has a shape the page can hold: a number (an int field), or a list's
 * text or numbers. Only the shape: whether it is a whole number within the bounds is the
 * engine's to say (validation.js), as for every roll param.
 */
function statShapeFits(field, value) {
  if (field.type === "list") {
    if (typeof value === "string") return value.length <= NOTE_MAX;
    return Array.isArray(value) && value.length <= NOTE_MAX && value.every(Number.isFinite);
  }
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * Check the shape of one character (from a file, or from the editor) and return a clean
 * copy, or {error: {key, vars}} naming what is wrong. Its numbers and the params of its
 * entries are not judged here: the engine checks them (validation.js).
 */
export function cleanCharacter(raw, systems, table) {
  const fail = (key, vars = {}) => ({ error: { key, vars } });
  if (!isPlainObject(raw)) return fail("import.notObject");
  const system = systems.find((s) => s.id === raw.system);
  if (!system) return fail("import.system", { system: String(raw.system ?? "").slice(0, 40) });
  const name = typeof raw.name === "string" ? raw.name.trim() : "";
  if (!name) return fail("import.name");
  if (name.length > NAME_MAX) return fail("import.nameLong", { name: name.slice(0, 40), max: NAME_MAX });
  const vars = { name };
  if (raw.note !== undefined && typeof raw.note !== "string") return fail("import.note", vars);
  const note = (raw.note || "").slice(0, NOTE_MAX);
  if (raw.pc !== undefined && typeof raw.pc !== "boolean") return fail("import.pc", vars);
  if (raw.id !== undefined && (typeof raw.id !== "string" || !raw.id || raw.id.length > 100)) return fail("import.id", vars);
  const fields = statFields(system, table);
  if (raw.stats !== undefined && !isPlainObject(raw.stats)) return fail("import.stats", vars);
  const stats = {};
  for (const [key, value] of Object.entries(raw.stats || {})) {
    const field = fields.find((f) => f.name === key);
    if (!field) return fail("import.statUnknown", { ...vars, stat: key.slice(0, 40) });
    if (!statShapeFits(field, value)) return fail("import.statValue", { ...vars, stat: key });
    stats[key] = value;
  }
  for (const field of fields) if (!(field.name in stats)) stats[field.name] = emptyStat(field);
  if (raw.entries !== undefined && !Array.isArray(raw.entries)) return fail("import.entries", vars);
  const list = raw.entries || [];
  if (list.length > ENTRIES_MAX) return fail("import.entriesMany", { ...vars, max: ENTRIES_MAX });
  const extras = extraFields(system, table);
  const entries = [];
  for (const item of list) {
    if (!isPlainObject(item)) return fail("import.entry", vars);
    const label = typeof item.label === "string" ? item.label.trim() : "";
    if (!label || label.length > LABEL_MAX) return fail("import.entryLabel", { ...vars, max: LABEL_MAX });
    if (item.params !== undefined && !(isPlainObject(item.params) && paramsFit(system, item.params))) return fail("import.entryParams", { ...vars, label });
    // No dice faces on a sheet: faces come only from the RNG, or from physical dice typed
    // for one roll (issue 14: an imported skill with `dice` loaded every quick roll).
    const loaded = system.fields.find((f) => (f.type === "faces" || f.type === "placement") && item.params?.[f.name] !== undefined && item.params[f.name] !== null);
    if (loaded) return fail("import.entryFaces", { ...vars, label, field: loaded.name });
    const entry = { id: typeof item.id === "string" && item.id ? item.id.slice(0, 100) : newId("e"), label, params: { ...(item.params || {}) } };
    if (item.sources !== undefined) {
      if (!isPlainObject(item.sources)) return fail("import.entrySources", { ...vars, label });
      entry.sources = {};
      for (const [key, value] of Object.entries(item.sources)) {
        const field = extras.find((f) => f.name === key);
        const type = field?.type === "bool" ? "boolean" : "number";
        if (!field || typeof value !== type) return fail("import.entrySources", { ...vars, label });
        entry.sources[key] = value;
      }
    }
    entries.push(entry);
  }
  const now = new Date().toISOString();
  return {
    character: {
      id: raw.id || newId(),
      system: system.id,
      name,
      note,
      pc: raw.pc ?? true,
      stats,
      entries,
      created: typeof raw.created === "string" ? raw.created : now,
      updated: typeof raw.updated === "string" ? raw.updated : now,
    },
  };
}

export const EXPORT_FORMAT = "pyrules-characters";

export function exportDocument(characters) {
  return { format: EXPORT_FORMAT, version: 1, exported: new Date().toISOString(), characters };
}

/** The characters of an export file (or {error}): the object form or a bare array. */
export function importList(data) {
  let list;
  if (Array.isArray(data)) list = data;
  else if (isPlainObject(data) && data.format === EXPORT_FORMAT && Array.isArray(data.characters)) list = data.characters;
  else return { error: { key: "import.format", vars: {} } };
  if (list.length > IMPORT_MAX) return { error: { key: "import.tooMany", vars: { max: IMPORT_MAX } } };
  return { list };
}
