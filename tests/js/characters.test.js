import assert from "node:assert/strict";
import { test } from "node:test";

import { CHECKS, isCharacter } from "../../web/js/lib/checks.js";
import { importList } from "../../web/js/characters/sheet.js";
import { engineCall } from "./helpers.js";

const character = (changes = {}) => ({
  id: "c-1",
  system: "steps",
  name: "Lame",
  note: "",
  pc: true,
  stats: {},
  entries: [{ id: "e-1", label: "Épée", params: { die: 8, bonus: 1 } }],
  ...changes,
});

test("a stored character with plain params passes", () => {
  assert.equal(isCharacter(character()), true);
});

test("a stored character whose skill param is a trap is refused", () => {
  assert.equal(isCharacter(character({ entries: [{ id: "e", label: "x", params: { die: { toString: null } } }] })), false);
});

test("the storage guard keeps a list stat stored as text or as a list (issue 21)", () => {
  for (const weapons of ["", "2, 1", [2, 1], []]) {
    assert.equal(isCharacter(character({ stats: { ardeur: 10, accessories: 0, weapons, protections: null } })), true, JSON.stringify(weapons));
  }
});

test("the storage guard refuses prototype tricks and unbounded records, nothing else", () => {
  const proto = JSON.parse('{"__proto__": {"polluted": 1}}'); // an own key, as JSON.parse makes it
  assert.equal(isCharacter(character({ stats: proto })), false);
  assert.equal(isCharacter(character({ entries: [{ id: "e", label: "x", params: JSON.parse('{"constructor": 1}') }] })), false);
  assert.equal(isCharacter(Object.assign(Object.create({ inherited: true }), character())), false);
  assert.equal(isCharacter(character({ stats: { weapons: new Array(5000).fill(1) } })), false);
  assert.equal(isCharacter(character({ entries: [{ id: "e", label: "x", params: { die: [[8]] } }] })), false);
  // Values the engine judges (out of bounds, unknown names) are not the guard's business.
  assert.equal(isCharacter(character({ stats: { flame: 10 ** 9, anything: "text" } })), true);
  // An id of "__proto__" is a value like any other.
  assert.equal(isCharacter(character({ id: "__proto__" })), true);
});

test("an import is judged by the engine in one call: faces on a sheet and foreign params refused", async () => {
  const answer = await engineCall({
    op: "characters",
    characters: [
      character(),
      character({ entries: [{ id: "e", label: "Épée", params: { die: 8, dice: [8] } }] }),
      character({ entries: [{ id: "e", label: "Épée", params: { pot: 4 } }] }),
    ],
  });
  const [kept, faces, foreign] = answer.result.characters;
  assert.equal(kept.ok, true);
  assert.equal(kept.character.entries[0].params.die, 8);
  assert.equal(faces.ok, false);
  assert.match(faces.error.field, /^entries\.0\.params\.dice$/);
  assert.equal(foreign.ok, false);
  assert.equal(foreign.error.field, "entries.0.params.pot");
});

test("importList accepts the export document and a bare list, nothing else", () => {
  assert.equal(importList([character()]).list.length, 1);
  assert.equal(importList({ format: "pyrules-characters", version: 1, characters: [] }).list.length, 0);
  assert.equal(importList({ characters: [] }).error.key, "import.format");
});

test("the localStorage fallback keeps an id of __proto__ as a key", () => {
  const proto = character({ id: "__proto__" });
  const map = JSON.parse(`{"__proto__": ${JSON.stringify(proto)}}`); // as read from storage
  const verdict = CHECKS["pyrules:characters"](map);
  assert.equal(verdict.ok, true);
  assert.deepEqual(Object.keys(verdict.value), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(verdict.value), null);
});
