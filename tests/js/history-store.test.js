import assert from "node:assert/strict";
import { test } from "node:test";

import { fakeWindow } from "./helpers.js";

const { storage } = fakeWindow();
const { HistoryStore, HISTORY_KEY } = await import("../../web/js/history/history-store.js");

const roll = (id, second) => ({
  id,
  time: `2026-01-01T10:00:${String(second).padStart(2, "0")}.000Z`,
  system: "d100",
  mode: "roll",
  params: { value: 50 },
  outcome: "success",
  margin: 1,
  seed: second,
  physical: false,
});
const stored = () => JSON.parse(storage.getItem(HISTORY_KEY) || "[]").map((e) => e.id);

test("two tabs adding at once keep both rolls", () => {
  storage.data.clear();
  const a = new HistoryStore();
  const b = new HistoryStore(); // read before a's roll: its memory is stale
  a.add(roll("a1", 1));
  b.add(roll("b1", 2));
  assert.deepEqual(stored(), ["b1", "a1"]);
});

test("a tab whose roll was overwritten by a crossing write puts it back", () => {
  storage.data.clear();
  const a = new HistoryStore();
  a.add(roll("a1", 1));
  storage.setItem(HISTORY_KEY, JSON.stringify([roll("b1", 2)])); // the other tab's stale write
  a.fromOtherTab();
  assert.deepEqual(stored(), ["b1", "a1"]);
  assert.deepEqual(a.entries.map((e) => e.id), ["b1", "a1"]);
});

test("a clear in one tab is not undone by the other", () => {
  storage.data.clear();
  const a = new HistoryStore();
  const b = new HistoryStore();
  b.add(roll("b1", 1));
  a.fromOtherTab();
  a.clear();
  b.fromOtherTab();
  assert.deepEqual(stored(), []);
  assert.deepEqual(b.entries, []);
});

test("nothing is cut: 600 rolls stay (the old limit was 500)", () => {
  storage.data.clear();
  const a = new HistoryStore();
  for (let i = 0; i < 600; i += 1) a.add({ ...roll(`r${i}`, 0), time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() });
  assert.equal(stored().length, 600);
});

test("a refused write keeps the roll in memory, and later writes carry it", () => {
  storage.data.clear();
  const a = new HistoryStore();
  a.add(roll("a1", 1));
  storage.full = true;
  a.add(roll("a2", 2));
  assert.deepEqual(stored(), ["a1"]);
  a.update({ ...roll("a2", 2), luck: 0.5 });
  assert.deepEqual(a.entries.map((e) => e.id), ["a2", "a1"]);
  storage.full = false;
  a.add(roll("a3", 3));
  assert.deepEqual(stored(), ["a3", "a2", "a1"]);
});
