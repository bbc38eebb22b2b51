// Saved characters, kept on the device in IndexedDB (database "pyrules", store
// "characters", one record per character keyed by its id). Where IndexedDB cannot be
// opened (some private modes), the same API falls back to localStorage, so the app keeps
// working. Every write of several characters happens in one transaction: an import is
// all or nothing.

import { storageGet, storageSet } from "./dom.js";

const DB_NAME = "pyrules";
const DB_VERSION = 1;
const STORE = "characters";
const FALLBACK_KEY = "pyrules:characters";

let opening = null;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function openDB() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      if (typeof indexedDB === "undefined") {
        reject(new Error("no IndexedDB"));
        return;
      }
      let req;
      try {
        req = indexedDB.open(DB_NAME, DB_VERSION);
      } catch (error) {
        reject(error);
        return;
      }
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: "id" });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error("IndexedDB blocked"));
    }).catch(() => null); // null: use the localStorage fallback
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

function fallbackAll() {
  const map = storageGet(FALLBACK_KEY, {});
  return map && typeof map === "object" ? map : {};
}

/** Every saved character (order: by name, then id). */
export async function loadCharacters() {
  const db = await openDB();
  let list;
  if (db) {
    const tx = db.transaction(STORE, "readonly");
    list = await request(tx.objectStore(STORE).getAll());
  } else {
    list = Object.values(fallbackAll());
  }
  return list.sort((a, b) => String(a.name).localeCompare(String(b.name)) || String(a.id).localeCompare(String(b.id)));
}

/** Save (insert or replace) several characters at once: all are written, or none. */
export async function saveCharacters(characters) {
  const db = await openDB();
  if (db) {
    const tx = db.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    for (const character of characters) store.put(character);
    await transactionDone(tx);
    return;
  }
  const map = fallbackAll();
  for (const character of characters) map[character.id] = character;
  if (!storageSet(FALLBACK_KEY, map)) throw new Error("storage full");
}

export function saveCharacter(character) {
  return saveCharacters([character]);
}

export async function deleteCharacter(id) {
  const db = await openDB();
  if (db) {
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).delete(id);
    await transactionDone(tx);
    return;
  }
  const map = fallbackAll();
  delete map[id];
  storageSet(FALLBACK_KEY, map);
}

/** "indexeddb" or "localstorage": where the characters live on this device. */
export async function backend() {
  return (await openDB()) ? "indexeddb" : "localstorage";
}
