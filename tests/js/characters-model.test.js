// The character model (web/js/characters/sheet.js): what a sheet holds comes from the
// engine's description, every judgement from the engine's `character` / `characters` ops,
// and the storage guard (checks.js isCharacter) never refuses what the engine accepted.

import assert from "node:assert/strict";
import { test } from "node:test";

import { isCharacter } from "../../web/js/lib/checks.js";
import { defaultStats, effortState, entryFields, extraFields, refusalTarget, sheetParams, situationFields, statFields } from "../../web/js/characters/sheet.js";
import { formSystem, rawFrom } from "../../web/js/characters/formdata.js";
import { engineCall, system, systemsDescription } from "./helpers.js";

const d6 = (stats, entries = []) => ({ id: "c-1", system: "d6", name: "Darate", note: "", pc: true, stats, entries });
const field = (fields, name) => fields.find((f) => f.name === name);
const withSheet = () => systemsDescription().systems.filter((s) => s.sheet && Array.isArray(s.sheet.stats));

test("the sheet follows the engine's description, whatever it says", () => {
  const steps = system("steps");
  const sheet = steps.sheet;
  assert.deepEqual(statFields(steps).map((f) => f.name), sheet.stats.map((f) => f.name));
  assert.deepEqual(entryFields(steps).map((f) => f.name).sort(), [...sheet.entry_fields].sort());
  // Other bounds, another stat, one entry field less: the page follows, it has none of its own.
  sheet.stats[0] = { ...sheet.stats[0], min: 1, max: 3 };
  sheet.stats.push({ name: "luck", type: "int", min: 0, max: 9, default: 4, label: { fr: "Chance", en: "Luck" } });
  sheet.entry_fields = sheet.entry_fields.slice(1);
  const stats = statFields(steps);
  assert.deepEqual([stats[0].min, stats[0].max], [1, 3]);
  assert.equal(field(stats, "luck").default, 4);
  assert.equal(entryFields(steps).length, sheet.entry_fields.length);
  assert.equal(defaultStats(steps).luck, 4);
  // No sheet described: nothing to hold, nothing invented.
  assert.deepEqual(statFields({ id: "x", fields: [] }), []);
  assert.deepEqual(situationFields({ id: "x", fields: [] }), []);
});

test("a new sheet's list stats start empty, its numbers at their defaults", () => {
  for (const described of withSheet()) {
    const stats = defaultStats(described);
    for (const f of statFields(described)) assert.deepEqual(stats[f.name], f.type === "list" ? [] : f.default ?? 0, `${described.id}.${f.name}`);
  }
});

test("the situation fields and their modes are the engine's", () => {
  for (const described of withSheet()) {
    const fields = situationFields(described);
    assert.deepEqual(fields.map((f) => [f.name, f.mode]), (described.sheet.situation || []).map((f) => [f.name, f.mode]));
    for (const f of fields) if (f.mode === "replace") assert.equal(f.default, null);
  }
  assert.ok(extraFields(system("pool")).some((f) => f.name === "specialty"));
});

test("a roll from a sheet is asked as the sheet itself", () => {
  const character = d6({ flame: 2 }, [{ id: "e-1", label: "Épée", params: { attribute: 4 } }]);
  assert.deepEqual(sheetParams(character, character.entries[0]), { sheet: { character, entry: "e-1" } });
  assert.deepEqual(sheetParams(character, character.entries[0], { effort: true }).sheet.situation, { effort: true });
  assert.equal("situation" in sheetParams(character, character.entries[0], {}).sheet, false);
});

test("a refusal's dotted field says where it goes in the editor", () => {
  assert.deepEqual(refusalTarget("name"), { part: "name" });
  assert.deepEqual(refusalTarget("stats.weapons"), { part: "stats", name: "weapons" });
  assert.deepEqual(refusalTarget("entries.2.label"), { part: "label", index: 2 });
  assert.deepEqual(refusalTarget("entries.0.params.attribute"), { part: "params", index: 0, name: "attribute" });
  assert.deepEqual(refusalTarget("entries.1.sources.linked"), { part: "sources", index: 1, name: "linked" });
  assert.deepEqual(refusalTarget(null), { part: "other" });
  assert.deepEqual(refusalTarget("entries.x"), { part: "other" });
});

test("every character the engine accepts passes the storage guard (one call for them all)", async () => {
  const characters = [];
  for (const described of withSheet()) {
    const filled = Object.fromEntries(statFields(described).map((f) => [f.name, f.type === "list" ? "2, 1" : f.default ?? 0]));
    characters.push({ system: described.id, name: `${described.id} défaut`, stats: defaultStats(described) });
    characters.push({ system: described.id, name: `${described.id} rempli`, note: "n", pc: false, stats: filled, entries: [{ label: "Compétence", params: {} }] });
  }
  // What an earlier version stored: list stats as typed text, empty or not.
  characters.push({ system: "steps", name: "Lame", stats: { weapons: "", protections: "1" } });
  const answer = await engineCall({ op: "characters", characters });
  assert.equal(answer.ok, true, JSON.stringify(answer.error));
  assert.equal(answer.result.characters.length, characters.length);
  for (const [index, verdict] of answer.result.characters.entries()) {
    assert.equal(verdict.ok, true, `${characters[index].name}: ${JSON.stringify(verdict.error)}`);
    assert.equal(isCharacter(verdict.character), true, characters[index].name);
    // The engine's answer is what it keeps: asked again, it answers the same.
    const again = await engineCall({ op: "character", character: verdict.character });
    assert.deepEqual(again.result.character, verdict.character);
  }
  const lame = answer.result.characters.at(-1).character;
  assert.deepEqual([lame.stats.weapons, lame.stats.protections], [[], [1]]);
});

test("the engine's refusal of a sheet number names it, and the editor has that field", async () => {
  const answer = await engineCall({ op: "character", character: d6({ flame: 99 }) });
  assert.equal(answer.ok, false);
  const target = refusalTarget(answer.error.field);
  assert.equal(target.part, "stats");
  assert.ok(field(statFields(system("d6")), target.name));
  const faces = await engineCall({ op: "character", character: d6({}, [{ label: "Épée", params: { dice: [6, 6] } }]) });
  assert.equal(faces.ok, false);
});

test("the efforts come from the engine's description of the sheet, or not at all", () => {
  const described = system("d6");
  const spec = described.sheet.efforts_per_day;
  const state = effortState(described, d6({ flame: 2, clarity: 2, [spec.used]: 5 }));
  assert.equal(state.param, spec.param);
  // The stored numbers go to the engine as they are: it clamps and counts, not the page.
  assert.deepEqual(state.request("use"), { op: "effort", params: { flame: 2, used: 5, action: "use" } });
  // The op's params are read from the sheet numbers the description names, not from names the page knows.
  described.sheet.efforts_per_day = { ...spec, used: "spent", request: { flame: "flame", used: "spent" } };
  assert.equal(effortState(described, d6({ spent: 1 })).request("check").params.used, 1);
  described.sheet.efforts_per_day = { ...spec, request: { per_day: "flame", used: spec.used } };
  assert.deepEqual(effortState(described, d6({ flame: 3 })).request("rest").params, { per_day: 3, used: 0, action: "rest" });
  delete described.sheet.efforts_per_day;
  assert.equal(effortState(described, d6({ flame: 2 })), null);
  assert.equal(effortState(system("pool"), { system: "pool", stats: {} }), null);
});

test("the engine counts the efforts the sheet shows", async () => {
  const state = effortState(system("d6"), d6({ flame: 2, clarity: 2, efforts_used: 1 }));
  const check = await engineCall(state.request("check"));
  assert.deepEqual(check.result, { per_day: 2, used: 1, available: 1 });
});

test("a skill the engine refuses with the sheet's numbers is named by its place", async () => {
  const character = d6({ flame: 2, clarity: 2, efforts_used: 0 }, [
    { id: "a", label: "Épée", params: { attribute: 4 } },
    { id: "b", label: "Trop", params: { attribute: 42 } },
  ]);
  const answer = await engineCall({ op: "character", character });
  assert.deepEqual(refusalTarget(answer.error.field), { part: "params", index: 1, name: "attribute" });
  character.entries.pop();
  assert.equal((await engineCall({ op: "character", character })).ok, true);
});

test("form values round-trip from API params", () => {
  const fields = system("d6").fields.filter((f) => ["attribute", "effort", "difficulty"].includes(f.name));
  assert.deepEqual(rawFrom(fields, { attribute: 4, effort: 1, difficulty: null }), { attribute: "4", effort: true, difficulty: "" });
  assert.deepEqual(formSystem("d6", fields), { id: "d6", fields, outcomes: [] });
  assert.deepEqual(rawFrom([{ name: "weapons", type: "list" }], { weapons: [2, 1] }), { weapons: "2, 1" });
});
