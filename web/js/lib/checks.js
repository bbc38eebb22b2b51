// The shape every localStorage key of the app must have, checked when it is read
// (dom.js storageGet -> storage.js readJSON). Each check returns {ok, value}: ok false when
// something was unusable, with `value` what the app can still use (the good history
// entries, the well-formed parts of the saved form state). What was unusable is never
// dropped: storage.js sets the raw text aside first.
//
// The checks follow what the code reading each value relies on (a history entry's time must
// be a date Intl can format, a fight's log lines need their arrays, ...), so that no stored
// value can throw while the page is drawn. No DOM, no imports.

export const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isScalar = (value) => value === null || ["string", "number", "boolean"].includes(typeof value);
const isDate = (value) => typeof value === "string" && value.length < 40 && !Number.isNaN(Date.parse(value));
const isText = (value, max = 10000) => typeof value === "string" && value.length <= max;
const optional = (value, test) => value === undefined || value === null || test(value);

const good = (value) => ({ ok: true, value });
const bad = (value) => ({ ok: false, value });

// ------------------------------------------------------------------------------ history

function isWho(who) {
  return isObject(who) && isText(who.name, 200) && optional(who.label, (l) => isText(l, 200)) && optional(who.id, (i) => isText(i, 200));
}

/** A shared table's marks on a roll of another device: who, the verdict, its dice colour, what differed. */
function isTableMark(table) {
  return isObject(table) && isText(table.from, 20) && isText(table.status, 20) && optional(table.colour, (c) => isText(c, 20)) &&
    optional(table.diff, (d) => Array.isArray(d) && d.length <= 8 && d.every((x) => isText(x, 200)));
}

/** A value a form field can hold: a scalar, or a short list of numbers (faces, placement). */
export function isParamValue(value) {
  if (isScalar(value)) return typeof value !== "string" || value.length <= 400;
  return Array.isArray(value) && value.length <= 400 && value.every((v) => typeof v === "number" && Number.isFinite(v));
}

/** Roll params as stored: flat, every value a field value (no object can hide a throwing toString). */
export function isParams(params) {
  if (!isObject(params)) return false;
  const entries = Object.entries(params);
  return entries.length <= 60 && entries.every(([, v]) => isParamValue(v)) && optional(params.placement, (p) => Array.isArray(p) && p.every(Number.isInteger));
}

/**
 * Whether `params` fit the engine's own description of `system` (its `systems` answer):
 * every key a field of the system, every value of that field's type. A stored value that
 * fails is set aside before anything is drawn from it.
 */
export function paramsFit(system, params) {
  if (!isParams(params) || !system || !Array.isArray(system.fields)) return false;
  const fields = new Map(system.fields.map((f) => [f.name, f]));
  for (const [name, value] of Object.entries(params)) {
    const field = fields.get(name);
    if (!field) return false;
    if (value === null) continue;
    if (field.type === "faces" || field.type === "placement" || field.type === "list") {
      if (!(Array.isArray(value) || typeof value === "string")) return false;
    } else if (Array.isArray(value)) return false;
  }
  return true;
}

/** The params without their dice faces: a sheet or a link never carries faces into a roll. */
export function withoutFaces(system, params) {
  const out = {};
  const faces = new Set((system?.fields || []).filter((f) => f.type === "faces").map((f) => f.name));
  for (const [name, value] of Object.entries(params || {})) if (!faces.has(name)) out[name] = value;
  return out;
}

/** One roll of the history, as history.js and stats.js read it. */
export function isHistoryEntry(entry) {
  if (!isObject(entry)) return false;
  if (!isText(entry.id, 200) || !entry.id || !isText(entry.system, 100) || !isDate(entry.time)) return false;
  if (!isScalar(entry.outcome) || !optional(entry.margin, (m) => typeof m === "number")) return false;
  if (!optional(entry.seed, Number.isSafeInteger)) return false;
  if (!optional(entry.luck, (l) => typeof l === "number")) return false;
  // Free dice: outcome and margin may be null (a sum), with the answer's kind and headline.
  if (!optional(entry.kind, (k) => isText(k, 20)) || !optional(entry.headline, (n) => typeof n === "number")) return false;
  for (const key of ["who", "actorWho", "opponentWho"]) if (!optional(entry[key], isWho)) return false;
  if (!optional(entry.table, isTableMark)) return false;
  if (entry.mode === "roll") return isParams(entry.params);
  if (entry.mode === "oppose") return isParams(entry.actor) && isParams(entry.opponent);
  return false;
}

function checkHistory(value) {
  if (!Array.isArray(value)) return bad([]);
  const kept = value.filter(isHistoryEntry);
  return kept.length === value.length ? good(value) : bad(kept);
}

// ------------------------------------------------------------------------------ form state

/** {system, mode, physical, values: {system: {side: {field: scalar}}}, ui: {system: {side: {...}}}} */
function checkState(value) {
  if (!isObject(value)) return bad({});
  let ok = true;
  const out = {};
  for (const key of ["system", "mode"]) {
    if (value[key] === undefined) continue;
    if (typeof value[key] === "string") out[key] = value[key];
    else ok = false;
  }
  if (value.physical !== undefined) out.physical = Boolean(value.physical);
  for (const part of ["values", "ui"]) {
    if (value[part] === undefined) continue;
    if (!isObject(value[part])) {
      ok = false;
      continue;
    }
    out[part] = {};
    for (const [system, sides] of Object.entries(value[part])) {
      if (!isObject(sides)) {
        ok = false;
        continue;
      }
      out[part][system] = {};
      for (const [side, fields] of Object.entries(sides)) {
        const fine =
          isObject(fields) &&
          (part === "values"
            ? Object.values(fields).every(isParamValue)
            : Object.entries(fields).every(([key, v]) => (key === "sources" || key === "sourcesValues" ? isObject(v) && Object.values(v).every(isScalar) : isScalar(v))));
        if (fine) out[part][system][side] = fields;
        else ok = false;
      }
    }
  }
  return ok ? good(value) : bad(out);
}

// ------------------------------------------------------------------------------ the rest

/** A text of the description: a string, or {fr, en, ...} of strings. */
const isLabel = (value) => isText(value, 2000) || (isObject(value) && Object.values(value).every((v) => isText(v, 2000)));
const isNumber = (value) => typeof value === "number" && Number.isFinite(value);

/** JSON of bounded depth whose leaves are scalars (the parts of the description read as data). */
function isPlain(value, depth = 0) {
  if (isScalar(value)) return true;
  if (depth > 6) return false;
  if (Array.isArray(value)) return value.length <= 1000 && value.every((v) => isPlain(v, depth + 1));
  return isObject(value) && Object.values(value).every((v) => isPlain(v, depth + 1));
}

function isField(field) {
  return (
    isObject(field) &&
    isText(field.name, 100) &&
    isText(field.type, 40) &&
    optional(field.label, isLabel) &&
    optional(field.help, isLabel) &&
    optional(field.group, (g) => isText(g, 40)) &&
    optional(field.default, isParamValue) &&
    ["min", "max", "max_length", "sides"].every((key) => optional(field[key], isNumber)) &&
    optional(field.choices, (c) => Array.isArray(c) && c.every((choice) => isObject(choice) && isScalar(choice.value) && isLabel(choice.label)))
  );
}

function isSystem(system) {
  return (
    isObject(system) &&
    isText(system.id, 100) &&
    optional(system.name, isLabel) &&
    optional(system.description, isLabel) &&
    optional(system.oppose, isLabel) &&
    optional(system.sheet, isPlain) &&
    Array.isArray(system.fields) &&
    system.fields.every(isField) &&
    Array.isArray(system.outcomes) &&
    system.outcomes.every((o) => isObject(o) && isText(o.id, 100) && optional(o.label, isLabel) && optional(o.rank, isNumber))
  );
}

/** The `systems` answer cached for the next start (forms before the engine is up). */
function checkSystems(value) {
  const fine =
    isObject(value) &&
    Array.isArray(value.systems) &&
    value.systems.length > 0 &&
    value.systems.every(isSystem) &&
    optional(value.play, (play) => isObject(play) && isPlain(play)) &&
    optional(value.play?.sources, (src) => isObject(src) && optional(src.fields, (f) => Array.isArray(f) && f.every(isField)));
  return fine ? good(value) : bad(null);
}

function checkLang(value) {
  return value === "fr" || value === "en" ? good(value) : bad("fr");
}

function checkSession(value) {
  return isObject(value) && isDate(value.start) ? good(value) : bad(null);
}

const isInt = Number.isInteger;

function isSkill(skill) {
  return isObject(skill) && optional(skill.label, (l) => isText(l, 200)) && isParams(skill.params);
}

function isFighter(p) {
  return (
    isObject(p) &&
    typeof p.id === "string" &&
    /^[\w-]{1,100}$/.test(p.id) &&
    isText(p.name, 200) &&
    isInt(p.ardeur) &&
    isInt(p.start) &&
    Array.isArray(p.skills) &&
    p.skills.length > 0 &&
    p.skills.every(isSkill)
  );
}

function isPair(value) {
  return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "number");
}

// The kinds of combat action are the engine's (`play.combat.kinds` of its description):
// given them, a line of another kind fails; without them (reading storage before the engine
// has answered), a kind must be a plain name, and the tracker checks it against the engine's.
function isKind(kind, kinds) {
  return typeof kind === "string" && (kinds ? kinds.includes(kind) : /^[a-z_]{1,40}$/.test(kind));
}

function isLogLine(entry, kinds) {
  return (
    isObject(entry) &&
    isKind(entry.kind, kinds) &&
    isInt(entry.round) &&
    isText(entry.actor, 200) &&
    isText(entry.target, 200) &&
    isPair(entry.actorArdeur) &&
    isPair(entry.targetArdeur) &&
    Array.isArray(entry.knockedOut) &&
    entry.knockedOut.every((n) => typeof n === "string") &&
    optional(entry.explanations, (e) => isObject(e) && Object.values(e).every((lines) => Array.isArray(lines))) &&
    Array.isArray(entry.rolls) &&
    entry.rolls.every((r) => isObject(r) && Array.isArray(r.faces) && Array.isArray(r.sides) && Array.isArray(r.tags))
  );
}

/** The fight of the combat tracker (combat/), its log lines of the engine's `kinds` if given. */
export function isFight(value, kinds = null) {
  return (
    isObject(value) &&
    isInt(value.round) &&
    isInt(value.turn) &&
    Array.isArray(value.participants) &&
    value.participants.every(isFighter) &&
    Array.isArray(value.log) &&
    value.log.every((line) => isLogLine(line, kinds))
  );
}

function checkFight(value) {
  return isFight(value) ? good(value) : bad(null);
}

function checkUndo(value) {
  if (!Array.isArray(value)) return bad([]);
  const kept = value.filter((fight) => isFight(fight));
  return kept.length === value.length ? good(value) : bad(kept);
}

// ------------------------------------------------------------------------------ characters

// What a character is, is the engine's to say (the `character` op checks and normalises it
// before it is stored). Read back from storage, a record only has to be safe for the page to
// hold and draw: plain JSON of bounded size, no key that could reach a prototype. The guard is
// deliberately looser than any engine bound, so it never refuses a character the engine
// accepted (issue 21: a list stat stored as text or as a list made every step-dice character
// vanish at the next reload).

const LIMIT = { text: 20000, list: 1000, keys: 200, entries: 1000 };
const TRICK_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** A plain object (JSON, structured clone) with a bounded number of harmless own keys. */
function isRecord(value, keys = LIMIT.keys) {
  if (!isObject(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const names = Object.keys(value);
  return names.length <= keys && names.every((key) => key.length <= 200 && !TRICK_KEYS.has(key));
}

/** A stored scalar: null, a bounded string, a finite number, a boolean. */
const isStoredScalar = (value) =>
  value === null || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)) || isText(value, LIMIT.text);

/** A stored field value: a scalar, or a bounded list of scalars (a list stat, typed text or numbers). */
const isStoredValue = (value) => isStoredScalar(value) || (Array.isArray(value) && value.length <= LIMIT.list && value.every(isStoredScalar));

/** {name: field value}: a sheet's numbers, an entry's params or extras. */
const isStoredFields = (value) => isRecord(value) && Object.values(value).every(isStoredValue);

function isStoredEntry(entry) {
  return (
    isRecord(entry) &&
    isText(entry.id, 200) &&
    isText(entry.label, LIMIT.text) &&
    isStoredFields(entry.params) &&
    optional(entry.sources, isStoredFields)
  );
}

/** A saved character, safe for the page to hold (the structural guard; the engine judges the rest). */
export function isCharacter(c) {
  return (
    isRecord(c) &&
    isText(c.id, 200) &&
    c.id.length > 0 &&
    isText(c.system, 100) &&
    isText(c.name, LIMIT.text) &&
    optional(c.note, (n) => isText(n, LIMIT.text)) &&
    optional(c.pc, (v) => typeof v === "boolean") &&
    optional(c.created, (v) => isText(v, 200)) &&
    optional(c.updated, (v) => isText(v, 200)) &&
    isStoredFields(c.stats) &&
    Array.isArray(c.entries) &&
    c.entries.length <= LIMIT.entries &&
    c.entries.every(isStoredEntry)
  );
}

function checkCharacterMap(value) {
  if (!isObject(value)) return bad({});
  // Object.create(null): an id such as "__proto__" is a key like any other.
  const kept = Object.create(null);
  let all = true;
  for (const [id, c] of Object.entries(value)) {
    if (isCharacter(c) && c.id === id) kept[id] = c;
    else all = false;
  }
  return all ? good(kept) : bad(kept);
}

// ------------------------------------------------------------------------------ saved expressions

/** A saved free-dice expression as stored (lib/expressions.js); the engine checked it when saved. */
export function isSavedExpression(item) {
  if (!isObject(item) || !isText(item.id, 100) || !item.id || !isText(item.name, 60) || !item.name.trim()) return false;
  return isText(item.expression, 60) && Boolean(item.expression) && optional(item.grammar, Number.isInteger);
}

/** The saved expressions: a list; the good items are kept, the rest set aside (storage.js). */
function checkExpressions(value) {
  if (!Array.isArray(value)) return bad([]);
  const kept = value.filter(isSavedExpression).slice(0, 200);
  return kept.length === value.length ? good(value) : bad(kept);
}

/** The history's filter (history-entry.js FILTERS): one of three names, else every roll. */
function checkHistoryFilter(value) {
  return ["all", "mine", "table"].includes(value) ? good(value) : bad("all");
}

/** The check of each localStorage key, by key. */
export const CHECKS = {
  "pyrules:history": checkHistory,
  "pyrules:state": checkState,
  "pyrules:systems": checkSystems,
  "pyrules:lang": checkLang,
  "pyrules:session": checkSession,
  "pyrules:fight": checkFight,
  "pyrules:fight-undo": checkUndo,
  "pyrules:characters": checkCharacterMap,
  "pyrules:expressions": checkExpressions,
  "pyrules:history-filter": checkHistoryFilter,
};
