// Saved characters, kept on the device in IndexedDB (database "pyrules", store
// "characters", one record per character keyed by its id). Where IndexedDB cannot be
// opened (some private modes), the same API falls back to localStorage, so the app keeps
// working. Every write of several characters happens in one transaction: an import is
// all or nothing.
//
// Damage is repaired, never hidden (see docs/reliability.md):
// - a record that is not a character (checks.js isCharacter) is moved, as stored, into the
//   store "quarantine" of the same database, and reported (the notice offers a download);
// - a missing "characters" store, or one with another key path, is rebuilt at once (a
//   version change); the records of a wrong store are kept when they are characters, set
//   aside in "quarantine" otherwise;
// - a write that fails (QuotaExceededError, ...) rejects, so the caller says so next to
//   the form, and is reported once (storage.js); what was stored before is untouched.

import { isCharacter } from "../lib/checks.js";
import { storageGet, storageSet } from "../lib/dom.js";
import { reportQuarantine, reportWriteFailure, reportWriteOK } from "../lib/storage.js";

const DB_NAME = "pyrules";
const STORE = "characters";
const QUARANTINE = "quarantine";
const FALLBACK_KEY = "pyrules:characters";
const REPORT_KEY = "characters";

let opening = null;

// Tabs of the app hear each other's character changes (IndexedDB has no change event).
let channel = null;

function tabs() {
  if (!channel && typeof BroadcastChannel !== "undefined") channel = new BroadcastChannel("pyrules");
  return channel;
}

function notifyTabs() {
  try {
    tabs()?.postMessage({ type: "characters" });
  } catch {
    /* nothing listens */
  }
}

/** listener() runs when another tab saved, imported or deleted characters. */
export function onOtherTabChange(listener) {
  tabs()?.addEventListener("message", (event) => {
    if (event.data && event.data.type === "characters") listener();
  });
}

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Raw JSON text of a stored record, for the quarantine download (never throws). */
function rawText(value) {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Whether the database has both stores, the characters one keyed by "id". */
function healthy(db) {
  if (!db.objectStoreNames.contains(STORE) || !db.objectStoreNames.contains(QUARANTINE)) return false;
  try {
    const tx = db.transaction(STORE, "readonly");
    return tx.objectStore(STORE).keyPath === "id";
  } catch {
    return false;
  }
}

/** Open at `version` (undefined: as it is); `upgrade(db, tx, oldVersion)` runs on a version change. */
function openAt(version, upgrade) {
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = version === undefined ? indexedDB.open(DB_NAME) : indexedDB.open(DB_NAME, version);
    } catch (error) {
      reject(error);
      return;
    }
    req.onupgradeneeded = (event) => upgrade(req.result, req.transaction, event.oldVersion);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error("IndexedDB blocked"));
  });
}

/** Create what is missing; rebuild a characters store with the wrong key path. */
function repair(db, tx, oldVersion) {
  if (!db.objectStoreNames.contains(QUARANTINE)) db.createObjectStore(QUARANTINE, { autoIncrement: true });
  const quarantine = tx.objectStore(QUARANTINE);
  if (!db.objectStoreNames.contains(STORE)) {
    db.createObjectStore(STORE, { keyPath: "id" });
    if (oldVersion > 0) {
      reportQuarantine({ key: "indexedDB:characters", reason: "missing-store", raw: "", savedAs: null, store: "indexedDB" });
    }
    return;
  }
  const old = tx.objectStore(STORE);
  if (old.keyPath === "id") return;
  // A store of that name but keyed otherwise: take its records, rebuild it, put them back.
  const all = old.getAll();
  all.onsuccess = () => {
    const records = all.result;
    db.deleteObjectStore(STORE);
    const fresh = db.createObjectStore(STORE, { keyPath: "id" });
    let aside = 0;
    for (const record of records) {
      if (isCharacter(record)) {
        fresh.put(record);
      } else {
        aside += 1;
        quarantine.add({ time: new Date().toISOString(), reason: "wrong-store", record });
        reportQuarantine({ key: "indexedDB:characters", reason: "shape", raw: rawText(record), savedAs: `indexedDB:${QUARANTINE}`, store: "indexedDB" });
      }
    }
    if (!aside) {
      reportQuarantine({ key: "indexedDB:characters", reason: "wrong-store", raw: "", savedAs: null, store: "indexedDB" });
    }
  };
}

async function openRepaired() {
  if (typeof indexedDB === "undefined") throw new Error("no IndexedDB");
  let db = await openAt(undefined, repair);
  if (!healthy(db)) {
    const next = db.version + 1;
    db.close();
    db = await openAt(next, repair);
  }
  // Another tab (or a newer version of the app) wants to change the database: let it.
  db.onversionchange = () => {
    db.close();
    opening = null;
  };
  return db;
}

function openDB() {
  if (!opening) {
    opening = openRepaired().catch((error) => {
      console.warn("[pyrules] IndexedDB unavailable, characters kept in localStorage:", error);
      return null; // null: use the localStorage fallback
    });
  }
  return opening;
}

function transactionDone(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("transaction aborted"));
  });
}

/** The localStorage fallback, id -> character, with no prototype: "__proto__" is an id like any other. */
function fallbackAll() {
  const map = storageGet(FALLBACK_KEY, null);
  const out = Object.create(null);
  if (map && typeof map === "object") for (const [id, character] of Object.entries(map)) out[id] = character;
  return out;
}

/** Move records into the quarantine store, with why (one transaction). */
async function setAside(db, bad, reason = "shape") {
  const tx = db.transaction([STORE, QUARANTINE], "readwrite");
  const characters = tx.objectStore(STORE);
  const quarantine = tx.objectStore(QUARANTINE);
  for (const { key, record } of bad) {
    quarantine.add({ time: new Date().toISOString(), reason, key, record });
    characters.delete(key);
  }
  await transactionDone(tx);
}

/**
 * Move one character into the quarantine store, and report it: `reason` "draw" (it threw
 * while drawn) or "refused" (the engine's `characters` check refuses it, `error` its words).
 */
export async function setAsideCharacter(character, reason = "draw", error = null) {
  const db = await openDB();
  let savedAs = null;
  if (db) {
    try {
      await setAside(db, [{ key: character.id, record: character }], reason);
      savedAs = `indexedDB:${QUARANTINE}`;
    } catch (error) {
      console.warn("[pyrules] could not move a character aside:", error);
    }
  } else if (reason === "refused") {
    // No quarantine store: it stays where it is (nothing is lost), left out of the list at
    // each start while the engine refuses it.
    savedAs = `localStorage:${FALLBACK_KEY}`;
  } else {
    const map = fallbackAll();
    delete map[character.id];
    storageSet(FALLBACK_KEY, map);
  }
  reportQuarantine({ key: "indexedDB:characters", reason, raw: rawText(character), savedAs, store: db ? "indexedDB" : "localStorage", ...(error ? { error } : {}) });
  notifyTabs();
}

/** Every saved character (order: by name, then id). Records of the wrong shape are set aside. */
export async function loadCharacters() {
  const db = await openDB();
  let list;
  if (db) {
    const tx = db.transaction(STORE, "readonly");
    const store = tx.objectStore(STORE);
    const [keys, records] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
    list = [];
    const bad = [];
    records.forEach((record, index) => {
      if (isCharacter(record) && record.id === keys[index]) list.push(record);
      else bad.push({ key: keys[index], record });
    });
    if (bad.length) {
      let savedAs = `indexedDB:${QUARANTINE}`;
      try {
        await setAside(db, bad);
      } catch (error) {
        savedAs = null; // left where it was (and skipped): nothing is deleted
        console.warn("[pyrules] could not move damaged characters aside:", error);
      }
      for (const { record } of bad) {
        reportQuarantine({ key: "indexedDB:characters", reason: "shape", raw: rawText(record), savedAs, store: "indexedDB" });
      }
    }
  } else {
    list = Object.values(fallbackAll());
  }
  return list.sort((a, b) => String(a.name).localeCompare(String(b.name)) || String(a.id).localeCompare(String(b.id)));
}

// ------------------------------------------------------------------------------ restore

// What an earlier version set aside may be a character the engine accepts today (issue 21:
// every steps character was set aside by a storage check stricter than the engine). At each
// start, the records set aside by the storage check ("shape", "wrong-store") or by the
// engine's check at load ("refused") are offered to the engine again (view.js); those it
// accepts come back, the rest stay where they are.
// Records set aside because they threw while drawn ("draw") are not offered again.
const RESTORABLE = new Set(["shape", "wrong-store", "refused"]);
const RESTORE_MAX = 500; // the engine's `characters` op takes up to 500 at once
const FALLBACK_ASIDE = `pyrules:quarantine:${FALLBACK_KEY}:`;

/** The localStorage copies set aside of the fallback map: [{name, map}] (unreadable ones skipped). */
function fallbackCopies() {
  const copies = [];
  const storage = globalThis.localStorage; // reachable: the fallback reads it (a throw is the caller's)
  for (let i = 0; storage && i < storage.length; i += 1) {
    const name = storage.key(i);
    if (!name || !name.startsWith(FALLBACK_ASIDE)) continue;
    try {
      const map = JSON.parse(storage.getItem(name));
      if (map && typeof map === "object" && !Array.isArray(map)) copies.push({ name, map });
    } catch {
      /* not JSON: it stays set aside, for the download */
    }
  }
  return copies.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Records set aside that may be characters: [{ref, record}] (at most RESTORE_MAX), `ref`
 * saying where each sits, for restoreCharacters().
 */
export async function setAsideCharacters() {
  const db = await openDB();
  const found = [];
  if (db) {
    const tx = db.transaction(QUARANTINE, "readonly");
    const store = tx.objectStore(QUARANTINE);
    const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
    values.forEach((value, index) => {
      if (value && typeof value === "object" && RESTORABLE.has(value.reason) && value.record && typeof value.record === "object") {
        found.push({ ref: { key: keys[index] }, record: value.record });
      }
    });
  } else {
    const current = fallbackAll();
    const seen = new Set();
    for (const { name, map } of fallbackCopies()) {
      for (const [id, record] of Object.entries(map)) {
        if (id in current || seen.has(id) || !record || typeof record !== "object") continue;
        seen.add(id);
        found.push({ ref: { copy: name, id }, record });
      }
    }
  }
  return found.slice(0, RESTORE_MAX);
}

/**
 * Put characters back in the list and take them out of what is set aside: [{ref, character}],
 * all or nothing (IndexedDB: one transaction).
 */
export async function restoreCharacters(restored) {
  if (!restored.length) return;
  const db = await openDB();
  if (db) {
    await writing(async () => {
      const tx = db.transaction([STORE, QUARANTINE], "readwrite");
      const done = transactionDone(tx);
      for (const { ref, character } of restored) {
        tx.objectStore(STORE).put(character);
        tx.objectStore(QUARANTINE).delete(ref.key);
      }
      await done;
    });
  } else {
    const map = fallbackAll();
    for (const { character } of restored) map[character.id] = character;
    if (!storageSet(FALLBACK_KEY, map)) throw Object.assign(new Error("storage full"), { name: "QuotaExceededError" });
    // The copies set aside keep only what did not come back (a copy left empty goes).
    const storage = globalThis.localStorage;
    const byCopy = new Map();
    for (const { ref } of restored) (byCopy.get(ref.copy) ?? byCopy.set(ref.copy, new Set()).get(ref.copy)).add(ref.id);
    for (const { name, map: copy } of fallbackCopies()) {
      const gone = byCopy.get(name);
      if (!gone) continue;
      const rest = Object.fromEntries(Object.entries(copy).filter(([id]) => !gone.has(id)));
      try {
        if (Object.keys(rest).length) storage.setItem(name, JSON.stringify(rest));
        else storage.removeItem(name);
      } catch {
        /* the copy stays as it was: its characters are in the list anyway */
      }
    }
  }
  notifyTabs();
}

/** Run a write; a failure is reported (storage full, ...) and rethrown for the caller. */
async function writing(action) {
  try {
    await action();
  } catch (error) {
    reportWriteFailure(REPORT_KEY, error);
    throw error;
  }
  reportWriteOK(REPORT_KEY);
}

/** Save (insert or replace) several characters at once: all are written, or none. */
export async function saveCharacters(characters) {
  const db = await openDB();
  if (db) {
    await writing(async () => {
      const tx = db.transaction(STORE, "readwrite");
      const done = transactionDone(tx);
      try {
        const store = tx.objectStore(STORE);
        for (const character of characters) store.put(character);
      } catch (error) {
        tx.abort(); // all or nothing
        done.catch(() => {});
        throw error;
      }
      await done;
    });
    notifyTabs();
    return;
  }
  const map = fallbackAll();
  for (const character of characters) map[character.id] = character;
  if (!storageSet(FALLBACK_KEY, map)) throw Object.assign(new Error("storage full"), { name: "QuotaExceededError" });
  notifyTabs();
}

export function saveCharacter(character) {
  return saveCharacters([character]);
}

export async function deleteCharacter(id) {
  const db = await openDB();
  if (db) {
    await writing(async () => {
      const tx = db.transaction(STORE, "readwrite");
      tx.objectStore(STORE).delete(id);
      await transactionDone(tx);
    });
    notifyTabs();
    return;
  }
  const map = fallbackAll();
  delete map[id];
  if (!storageSet(FALLBACK_KEY, map)) throw Object.assign(new Error("storage full"), { name: "QuotaExceededError" });
  notifyTabs();
}

/** "indexeddb" or "localstorage": where the characters live on this device. */
export async function backend() {
  return (await openDB()) ? "indexeddb" : "localstorage";
}
