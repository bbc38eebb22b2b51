import assert from "node:assert/strict";
import { test } from "node:test";

import { CHECKS, isFight } from "../../web/js/checks.js";

const fighter = (id, ardeur = 5) => ({ id, name: id, ardeur, start: 5, skills: [{ label: "Lame", params: { die: 8 } }] });
const line = {
  kind: "melee",
  round: 1,
  actor: "a",
  target: "b",
  actorArdeur: [5, 5],
  targetArdeur: [5, 2],
  knockedOut: [],
  rolls: [{ faces: [6], sides: [8], tags: [[]] }],
};
const fight = (changes = {}) => ({ round: 1, turn: 0, participants: [fighter("a"), fighter("b")], log: [line], ...changes });

test("a fight as the tracker stores it passes", () => {
  assert.equal(isFight(fight()), true);
});

test("a fighter whose skill param is a trap fails the fight check", () => {
  const bad = fight({ participants: [{ ...fighter("a"), skills: [{ label: "x", params: { die: { toString: null } } }] }] });
  assert.equal(isFight(bad), false);
  assert.equal(CHECKS["pyrules:fight"](bad).ok, false);
});

test("an unknown kind of action or a bad id fails", () => {
  assert.equal(isFight(fight({ log: [{ ...line, kind: "duel" }] })), false);
  assert.equal(isFight(fight({ participants: [{ ...fighter("a"), id: "<b>" }] })), false);
});

test("the undo steps keep the good fights only", () => {
  const verdict = CHECKS["pyrules:fight-undo"]([fight(), { round: "x" }]);
  assert.equal(verdict.ok, false);
  assert.equal(verdict.value.length, 1);
});
