// Where the history of rolls lives: the localStorage key "pyrules:history", newest first,
// every roll kept (no silent limit: issue 14). Each change is one operation applied to
// what is stored NOW (re-read just before the write), never a rewrite of a copy held in
// memory, so that two tabs rolling at once both keep their rolls:
//   add(entry)     prepend one entry (nothing if its id is already there)
//   update(entry)  replace the entry of that id
//   clear()        empty it, and remember when ("pyrules:history-cleared")
// Tabs hear each other through the storage event: a tab that sees a stored list missing
// a roll it added itself (two writes crossed) puts it back, so both tabs converge on the
// union. A write the device refuses (storage full) is reported by storage.js: the notice
// offers the export, and the entries stay in memory for this visit.

import { CHECKS } from "../lib/checks.js";
import { onOtherTab, readJSON, writeJSON } from "../lib/storage.js";

export const HISTORY_KEY = "pyrules:history";
const CLEARED_KEY = "pyrules:history-cleared";

function rawText() {
  try {
    return window.localStorage.getItem(HISTORY_KEY);
  } catch {
    return null;
  }
}

const byTimeDesc = (a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0);

export class HistoryStore {
  constructor() {
    this.mine = new Map(); // id -> entry this tab added (re-added if another tab's write lost it)
    this.listeners = new Set();
    this.lastText = null;
    this.entries = [];
    this.entries = this.read();
    onOtherTab(HISTORY_KEY, () => this.fromOtherTab());
    onOtherTab(CLEARED_KEY, () => this.fromOtherTab());
  }

  /**
   * The stored list. When the stored text is the one this tab last wrote or read (no other
   * tab wrote since), the list in memory is it: no parse, no check (a roll with thousands
   * kept costs one JSON.stringify, not three passes).
   */
  read() {
    const raw = rawText();
    if (raw !== null && raw === this.lastText) return this.entries;
    const list = readJSON(HISTORY_KEY, { fallback: [], check: CHECKS[HISTORY_KEY] });
    const clean = Array.isArray(list) ? list : [];
    this.lastText = rawText() === raw ? raw : null; // the check may have rewritten it
    return clean;
  }

  write(list) {
    const text = JSON.stringify(list);
    if (writeJSON(HISTORY_KEY, list, text)) this.lastText = text;
  }

  clearedAt() {
    const value = readJSON(CLEARED_KEY, { fallback: null });
    return typeof value === "string" ? value : "";
  }

  /**
   * What is stored, plus the rolls this tab added that it lacks (another tab's write crossed
   * ours, or the device refused our write): nothing this tab rolled is ever dropped.
   */
  current() {
    const cleared = this.clearedAt();
    for (const [id, entry] of this.mine) if (cleared && entry.time <= cleared) this.mine.delete(id);
    const list = this.read();
    const ids = new Set(list.map((e) => e.id));
    const lost = [...this.mine.values()].filter((entry) => !ids.has(entry.id));
    return { list: lost.length ? [...lost, ...list].sort(byTimeDesc) : list, lost: lost.length };
  }

  /** Apply `change(list)` to the stored list and write it; memory follows even if the write fails. */
  apply(change) {
    const changed = change(this.current().list);
    this.entries = changed;
    this.write(changed);
    return changed;
  }

  add(entry) {
    if (this.entries.some((e) => e.id === entry.id)) return false;
    this.mine.set(entry.id, entry);
    this.apply((list) => (list.some((e) => e.id === entry.id) ? list : [entry, ...list]));
    return true;
  }

  update(entry) {
    if (this.mine.has(entry.id)) this.mine.set(entry.id, entry);
    this.apply((list) => list.map((e) => (e.id === entry.id ? entry : e)));
  }

  clear() {
    this.mine.clear();
    writeJSON(CLEARED_KEY, new Date().toISOString());
    this.apply(() => []);
  }

  /** Remove one entry (set aside: it could not be drawn). */
  remove(id) {
    this.mine.delete(id);
    this.apply((list) => list.filter((e) => e.id !== id));
  }

  /** Called with the entries when another tab changed them. */
  onChange(listener) {
    this.listeners.add(listener);
  }

  fromOtherTab() {
    const { list, lost } = this.current();
    if (lost) this.write(list);
    this.entries = list;
    for (const listener of this.listeners) listener(list);
  }
}
