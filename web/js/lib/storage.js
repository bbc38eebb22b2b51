// Safe storage: every read and write of the app's localStorage keys goes through here.
//
// Reading: a value that is not JSON, or not of the shape the app expects (a `check`
// function decides, and may salvage part of it), is never dropped. Its raw text is copied
// under "pyrules:quarantine:<key>:<ISO time>" first, then the key is cleared or rewritten
// with what could be salvaged, and a "corrupt" report is sent to the page (notices.js shows
// it, with a download of everything set aside). If even the copy cannot be written (the
// storage is full), the raw text is kept in memory and the key is left untouched until the
// player has downloaded it or dismissed the notice.
//
// Writing: a failed localStorage.setItem (QuotaExceededError, or storage switched off) is
// reported once per key until a write to that key works again; the value already stored
// stays as it was (setItem changes nothing when it throws). IndexedDB failures of store.js
// are reported the same way through reportWriteFailure().
//
// This module imports nothing, so dom.js, i18n.js and store.js can all use it.

export const QUARANTINE_PREFIX = "pyrules:quarantine:";
const KEEP_PER_KEY = 5; // quarantined copies kept per key (the oldest go first)

const reports = [];
const listeners = new Set();
const failing = new Set(); // keys whose last write failed
const held = new Map(); // key -> raw text that could not be copied aside: key not overwritten
const items = []; // everything set aside during this visit: {key, reason, time, raw, savedAs, store}

function emit(report) {
  reports.push(report);
  for (const listener of listeners) {
    try {
      listener(report);
    } catch (error) {
      console.error(error);
    }
  }
}

/** Listen to storage reports; the reports sent before the call are replayed first. */
export function onStorageReport(listener) {
  listeners.add(listener);
  for (const report of reports) listener(report);
  return () => listeners.delete(listener);
}

/** Everything set aside during this visit (for the download). */
export function quarantinedItems() {
  return items.slice();
}

/** Whether an error is a "storage full" one (localStorage or IndexedDB, any browser). */
export function isQuotaError(error) {
  if (!error) return false;
  const name = error.name || "";
  return name === "QuotaExceededError" || name === "NS_ERROR_DOM_QUOTA_REACHED" || error.code === 22 || error.code === 1014;
}

function local() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage switched off: reading throws SecurityError
  }
}

function stamp() {
  return new Date().toISOString();
}

/** Copy `raw` aside under a quarantine key (no duplicate of an identical copy). */
function copyAside(storage, key, raw) {
  const prefix = `${QUARANTINE_PREFIX}${key}:`;
  const existing = [];
  for (let i = 0; i < storage.length; i += 1) {
    const name = storage.key(i);
    if (name && name.startsWith(prefix)) existing.push(name);
  }
  existing.sort();
  for (const name of existing) {
    if (storage.getItem(name) === raw) return name;
  }
  const name = prefix + stamp();
  storage.setItem(name, raw);
  while (existing.length >= KEEP_PER_KEY) storage.removeItem(existing.shift());
  return name;
}

/** Set aside what is stored under `key` (raw text), then clear the key or write `keep` into it. */
function quarantine(storage, key, raw, reason, keep) {
  let savedAs = null;
  try {
    savedAs = copyAside(storage, key, raw);
  } catch (error) {
    held.set(key, raw);
    console.warn(`[pyrules] could not set ${key} aside:`, error);
  }
  if (savedAs) {
    try {
      if (keep === undefined) storage.removeItem(key);
      else storage.setItem(key, JSON.stringify(keep));
    } catch {
      /* the copy exists; the key is rewritten at the next save */
    }
  }
  const item = { key, reason, time: stamp(), raw, savedAs, store: "localStorage" };
  items.push(item);
  emit({ type: "corrupt", key, reason, savedAs, held: !savedAs, item });
}

/**
 * The value stored under `key`, parsed. `check(value)` returns {ok, value}: ok false
 * means the value was (partly) unusable; its `value` is what the app keeps (salvaged).
 */
export function readJSON(key, { fallback = null, check = null } = {}) {
  const storage = local();
  if (!storage || held.has(key)) return fallback;
  let raw;
  try {
    raw = storage.getItem(key);
  } catch {
    return fallback;
  }
  if (raw === null) return fallback;
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    quarantine(storage, key, raw, "json", undefined);
    return fallback;
  }
  if (!check) return value;
  let verdict;
  try {
    verdict = check(value);
  } catch {
    verdict = { ok: false, value: fallback };
  }
  if (verdict.ok) return verdict.value;
  const kept = verdict.value ?? fallback;
  const keepStored = kept !== fallback && kept !== null && kept !== undefined ? kept : undefined;
  quarantine(storage, key, raw, "shape", keepStored);
  return kept;
}

/**
 * Store `value` as JSON under `key` (`text`: its JSON, when the caller has it already);
 * false (and a report) when it could not be written.
 */
export function writeJSON(key, value, text = undefined) {
  if (held.has(key)) return false; // its unreadable old value waits to be downloaded
  const storage = local();
  try {
    if (!storage) throw Object.assign(new Error("localStorage unavailable"), { name: "SecurityError" });
    storage.setItem(key, text ?? JSON.stringify(value));
  } catch (error) {
    reportWriteFailure(key, error);
    return false;
  }
  if (failing.delete(key)) emit({ type: "write-ok", key });
  return true;
}

/** Write a hint whose loss costs only time, not a player's data (lib/kept-snapshot.js):
 * null removes it; a failure is not reported. */
export function writeHint(key, value) {
  if (value === null) {
    removeKey(key);
    return;
  }
  try {
    local()?.setItem(key, JSON.stringify(value));
  } catch {
    /* the next start looks for what the hint would have named, or downloads it */
  }
}

export function removeKey(key) {
  try {
    local()?.removeItem(key);
  } catch {
    /* nothing stored anyway */
  }
}

/** A write that failed (localStorage key, or "characters" for IndexedDB). Reported once per key. */
export function reportWriteFailure(key, error) {
  if (failing.has(key)) return;
  failing.add(key);
  emit({ type: "write-failed", key, quota: isQuotaError(error), name: (error && error.name) || "Error", message: (error && error.message) || String(error) });
}

/** A write of `key` worked again (IndexedDB side). */
export function reportWriteOK(key) {
  if (failing.delete(key)) emit({ type: "write-ok", key });
}

/** Something set aside outside localStorage (IndexedDB records, a broken object store). */
export function reportQuarantine({ key, reason, raw, savedAs, store, error = null }) {
  const item = { key, reason, time: stamp(), raw, savedAs, store, ...(error ? { error } : {}) };
  items.push(item);
  emit({ type: "corrupt", key, reason, savedAs, held: false, item });
}

/**
 * Characters set aside earlier are back in the list (the engine accepts them now): `count`
 * of them; `kept` the items still set aside (the engine refuses them), for the download.
 */
export function reportRestored({ key, count, kept = [] }) {
  emit({ type: "restored", key, count, kept });
}

/**
 * Set one stored item aside that could not be used (it threw while drawn, or does not fit
 * the engine's description): its JSON text is copied under a quarantine key of `key` when
 * possible, kept in memory for the download otherwise, and reported (notices.js).
 */
export function setAside(key, value, reason) {
  let raw;
  try {
    raw = JSON.stringify(value) ?? String(value);
  } catch {
    raw = "[unserialisable]";
  }
  let savedAs = null;
  const storage = local();
  try {
    if (storage) savedAs = copyAside(storage, key, raw);
  } catch {
    savedAs = null;
  }
  const item = { key, reason, time: stamp(), raw, savedAs, store: "localStorage" };
  items.push(item);
  emit({ type: "corrupt", key, reason, savedAs, held: false, item });
}

/** Listen to changes another tab makes to `key` (the storage event): listener(parsed value). */
export function onOtherTab(key, listener) {
  if (typeof window === "undefined") return () => {};
  const handler = (event) => {
    if (event.key !== key && event.key !== null) return; // null: the other tab cleared everything
    listener();
  };
  window.addEventListener("storage", handler);
  return () => window.removeEventListener("storage", handler);
}

/** The player downloaded or dismissed what was held in memory: writes to those keys resume. */
export function releaseHeld() {
  held.clear();
}
