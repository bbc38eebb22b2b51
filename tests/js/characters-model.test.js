// The character model and the checks it asks of the engine (web/js/characters/): every
// bound comes from the engine's description or answer, never from the page.

import assert from "node:assert/strict";
import { test } from "node:test";

import { cleanCharacter, defaultStats, effortState, rollParams, statFields } from "../../web/js/characters/sheet.js";
import { formSystem, rawFrom } from "../../web/js/characters/formdata.js";
import { entryChecks, judgeCharacter, judgeStats, statChecks } from "../../web/js/characters/validation.js";
import { engineCall, system, systemsDescription } from "./helpers.js";

const table = () => systemsDescription().table;
const d6 = (stats, entries = []) => ({ id: "c-1", system: "d6", name: "Darate", note: "", pc: true, stats, entries });
const field = (fields, name) => fields.find((f) => f.name === name);

test("the sheet's numbers take their bounds from the engine's description, whatever they are", () => {
  // A description with other bounds than today's: the sheet follows it, it has none of its own.
  const changed = system("d6");
  Object.assign(field(changed.fields, "flame"), { min: 1, max: 3 });
  const flame = field(statFields(changed, table()), "flame");
  assert.deepEqual([flame.min, flame.max], [1, 3]);
  const steps = system("steps");
  Object.assign(field(steps.fields, "bonus"), { min: -4, max: 5 });
  const accessories = field(statFields(steps, table()), "accessories");
  assert.deepEqual([accessories.min, accessories.max], [-4, 5]);
  assert.notDeepEqual(accessories.label, field(steps.fields, "bonus").label); // its own words, the bonus's bounds
  const ardeur = field(statFields(system("steps"), table()), "ardeur");
  const described = table().combat.participant.find((f) => f.name === "ardeur");
  assert.deepEqual([ardeur.min, ardeur.max], [described.min, described.max]);
});

test("the efforts come from the engine's description of the sheet, or not at all", () => {
  const described = system("d6");
  const spec = described.sheet.efforts_per_day;
  assert.ok(statFields(described, table()).some((f) => f.name === spec.used));
  const state = effortState(described, d6({ flame: 2, clarity: 2, [spec.used]: 5 }));
  assert.equal(state.param, spec.param);
  // The stored numbers go to the engine as they are: it clamps and counts, not the page.
  assert.deepEqual(state.request("use"), { op: "effort", params: { flame: 2, used: 5, action: "use" } });
  // Another name in the description is followed; no description, no efforts.
  described.sheet.efforts_per_day = { ...spec, used: "spent" };
  assert.equal(effortState(described, d6({ spent: 1 })).request("check").params.used, 1);
  assert.ok(field(statFields(described, table()), "spent"));
  delete described.sheet.efforts_per_day;
  assert.equal(effortState(described, d6({ flame: 2 })), null);
  assert.equal(effortState(system("pool"), { system: "pool", stats: {} }), null);
});

test("the engine counts the efforts the sheet shows", async () => {
  const state = effortState(system("d6"), d6({ flame: 2, clarity: 2, efforts_used: 1 }));
  const check = await engineCall(state.request("check"));
  assert.deepEqual(check.result, { per_day: 2, used: 1, available: 1 });
  const none = await engineCall(effortState(system("d6"), d6({ flame: 1, efforts_used: 1 })).request("use"));
  assert.equal(none.ok, false);
  assert.equal(none.error.field, "effort");
});

test("an imported sheet is judged for its shape only: its numbers are the engine's to judge", () => {
  const good = cleanCharacter(d6({ flame: 99 }), systemsDescription().systems, table());
  assert.equal(good.character.stats.flame, 99);
  for (const bad of ["3", Infinity, Number.NaN, [1]]) {
    assert.equal(cleanCharacter(d6({ flame: bad }), systemsDescription().systems, table()).error.key, "import.statValue");
  }
});

test("every sheet number is in one of the checks asked of the engine, named back", () => {
  const steps = system("steps");
  const character = { id: "c", system: "steps", name: "Lame", pc: true, stats: { ardeur: 12, accessories: 2, weapons: "2 1", protections: "" }, entries: [] };
  const named = statChecks(steps, table(), character).flatMap((check) => Object.values(check.stats));
  assert.deepEqual(named.sort(), ["accessories", "ardeur", "weapons"]);
  const pool = { id: "p", system: "pool", name: "Nahel", pc: true, stats: { flame: 1, aspect: 2, dark_aspect: 1 }, entries: [] };
  const poolNamed = statChecks(system("pool"), table(), pool).flatMap((check) => Object.values(check.stats));
  assert.deepEqual(poolNamed.sort(), ["aspect", "dark_aspect", "flame"]);
  const entries = entryChecks(system("d6"), d6({ flame: 3 }, [{ id: "e", label: "Épée", params: { attribute: 4 } }]));
  assert.deepEqual(entries[0].request.params.flame, 3);
  assert.equal(entries[0].request.params.attribute, 4);
});

test("the engine's refusal of a sheet number names that number", async () => {
  const cases = [
    [system("d6"), d6({ flame: 99, clarity: 2, efforts_used: 0 }), "flame"],
    [system("d6"), d6({ flame: 2, clarity: 2, efforts_used: 99 }), "efforts_used"],
    [system("steps"), { id: "s", system: "steps", name: "L", pc: true, stats: { ardeur: 10, accessories: 999 }, entries: [] }, "accessories"],
    [system("steps"), { id: "s", system: "steps", name: "L", pc: true, stats: { ardeur: 10 ** 6, accessories: 0 }, entries: [] }, "ardeur"],
  ];
  for (const [described, character, stat] of cases) {
    const refused = await judgeStats(engineCall, described, table(), character, "en");
    assert.deepEqual(refused.map((r) => r.stat), [stat], stat);
    assert.ok(refused[0].message.length > 0);
  }
  assert.deepEqual(await judgeStats(engineCall, system("d6"), table(), d6({ flame: 2, clarity: 2, efforts_used: 1 }), "fr"), []);
});

test("a skill the engine refuses with the sheet's numbers is named, the rest kept", async () => {
  const character = d6({ flame: 2, clarity: 2, efforts_used: 0 }, [
    { id: "a", label: "Épée", params: { attribute: 4 } },
    { id: "b", label: "Trop", params: { attribute: 42 } },
  ]);
  const verdict = await judgeCharacter(engineCall, system("d6"), table(), character, "fr");
  assert.equal(verdict.entry.index, 1);
  assert.equal(verdict.entry.field, "attribute");
  character.entries.pop();
  assert.equal(await judgeCharacter(engineCall, system("d6"), table(), character, "fr"), null);
});

test("a new sheet's defaults are the engine's, and pass its checks", async () => {
  const described = system("d6");
  const stats = defaultStats(described, table());
  assert.equal(stats.flame, field(described.fields, "flame").default);
  assert.equal(await judgeCharacter(engineCall, described, table(), d6(stats), "fr"), null);
  assert.equal(rollParams(described, d6(stats), { params: {} }).flame, stats.flame);
});

test("form values round-trip from API params", () => {
  const fields = system("d6").fields.filter((f) => ["attribute", "effort", "difficulty"].includes(f.name));
  assert.deepEqual(rawFrom(fields, { attribute: 4, effort: 1, difficulty: null }), { attribute: "4", effort: true, difficulty: "" });
  assert.deepEqual(formSystem("d6", fields), { id: "d6", fields, outcomes: [] });
});
