import assert from "node:assert/strict";
import { test } from "node:test";

import { CHECKS, isFight } from "../../web/js/lib/checks.js";
import { systemsDescription } from "./helpers.js";

// The kinds of combat action, as the engine describes them.
const KINDS = systemsDescription().play.combat.kinds;

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
  assert.equal(isFight(fight({ log: [{ ...line, kind: "duel" }] }), KINDS), false);
  assert.equal(isFight(fight(), KINDS), true);
  assert.equal(isFight(fight({ participants: [{ ...fighter("a"), id: "<b>" }] })), false);
});

test("an undo stack of several good fights passes whole", () => {
  const verdict = CHECKS["pyrules:fight-undo"]([fight(), fight({ round: 2 }), fight({ turn: 1 })]);
  assert.equal(verdict.ok, true);
  assert.equal(verdict.value.length, 3);
});

test("the undo steps keep the good fights only", () => {
  const verdict = CHECKS["pyrules:fight-undo"]([fight(), { round: "x" }]);
  assert.equal(verdict.ok, false);
  assert.equal(verdict.value.length, 1);
});

// ------------------------------------------------------------------ the engine's judgement

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

import { turnWarning } from "../../web/js/combat/combat-record.js";
import { AUTO, canAct, fightRequest, skillFor } from "../../web/js/combat/state.js";

/** The engine's answer to one request, from pyrules itself. */
function engine(request) {
  const code = "import sys; from pyrules.api import handle; print(handle(sys.stdin.read()))";
  const cwd = fileURLToPath(new URL("../..", import.meta.url));
  const answer = JSON.parse(execFileSync(process.env.PYTHON || "python3", ["-c", code], { cwd, input: JSON.stringify(request), encoding: "utf-8" }));
  assert.equal(answer.ok, true, JSON.stringify(answer));
  return answer.result;
}

const knight = { id: "k", name: "Aldric", ardeur: 4, start: 4, unarmed: false, skills: [{ label: "Tir", params: { die: 10 } }, { label: "Bagarre", params: { die: 6 } }, { label: "Épée", params: { die: 8 } }] };
const fallen = { id: "f", name: "Sbire", ardeur: 0, start: 3, skills: [{ label: "", params: {} }] };
const bandit = { id: "b", name: "Bandit", ardeur: 5, start: 5, skills: [{ label: "", params: {} }] };

test("the fight request carries the state and who acted this round, and the engine takes it", () => {
  const state = fight({ round: 2, turn: 0, participants: [knight, fallen, bandit], log: [{ ...line, round: 2, actorId: "b" }, { ...line, round: 1, actorId: "k" }] });
  const request = fightRequest(state);
  assert.deepEqual(request.fight.acted, ["b"]);
  assert.deepEqual(request.fight.participants[0], { id: "k", ardeur: 4, unarmed: false, skills: ["Tir", "Bagarre", "Épée"] });
  const judged = engine(request);
  assert.equal(canAct(judged, "f"), false);
  assert.equal(canAct(judged, "k"), true);
  assert.deepEqual(judged.next, { turn: 2, round: 2 }); // the fallen one is skipped
  assert.equal(turnWarning(state, judged, "b"), "Bandit a déjà agi pendant ce round.");
  assert.equal(turnWarning(state, judged, "k"), "");
});

test("the entry that fights is the engine's, unless one is picked by hand", () => {
  const state = fight({ participants: [knight, { ...knight, id: "u", unarmed: true }] });
  const judged = engine(fightRequest(state));
  assert.equal(skillFor(knight, "ranged", AUTO, judged).label, "Tir");
  assert.equal(skillFor(knight, "melee", AUTO, judged).label, "Épée");
  assert.equal(skillFor(state.participants[1], "melee", AUTO, judged).label, "Bagarre");
  assert.equal(skillFor(knight, "melee", "1", judged).label, "Bagarre");
});

test("someone else's turn is warned, with whose turn it is", () => {
  const state = fight({ turn: 0, participants: [knight, bandit], log: [] });
  const judged = engine(fightRequest(state));
  assert.equal(turnWarning(state, judged, "b"), "Ce n’est pas le tour de Bandit\u00a0: c’est au tour d’Aldric.");
});
