// What a combat action leaves outside the tracker, and what the tracker warns about:
//   - the history entry of each action (melee, ranged, conflict, skirmish), recorded like
//     any other roll (who acted, the dice, the verdict) so that History and Statistics
//     see it: a ranged shot is the shooter's roll against their own threshold, the other
//     kinds an opposed roll of the steps system. Same seed, same dice: "Revoir" shows it
//     again with the engine's `roll` / `oppose` op;
//   - the warning when the one about to act is not the one whose turn it is, or already
//     acted this round, as the engine's `fight` answer names it (a warning, never a refusal);
//   - the Ardeur of both sides after the action, next to its outcome.

import { h } from "../lib/dom.js";
import { entryFrom } from "../widgets/entry.js";
import { luckOf } from "../widgets/pipeline.js";
import { t } from "../lib/i18n.js";
import { canAct, judgedOf } from "./state.js";
import "./strings.js";

const who = (participant, skill) => ({ ...(participant.characterId ? { id: participant.characterId } : {}), name: participant.name, label: skill?.label || "" });

/**
 * The history entry of one combat action ({entry}), with the luck its answer gives each roll.
 * request/result: the `combat` call and its answer; skills: the skill each side used.
 */
export function combatEntry({ request, result, actor, target, actorSkill, targetSkill }) {
  const kind = request.params.kind;
  const [first, second] = result.rolls;
  const common = { seed: result.seed ?? null, physical: Boolean(result.physical) };
  if (kind === "ranged" || !second) {
    const params = { ...actorSkill.params };
    const shot = { ...first, ...common };
    const entry = { ...entryFrom({ op: "roll", system: "steps", params }, shot, { who: who(actor, actorSkill), combat: kind }), ...luckOf({ op: "roll" }, shot) };
    return { entry };
  }
  const sides = { actor: first, opponent: second };
  const both = { winner: result.winner, margin: result.margin, ...common, ...sides };
  const entry = {
    ...entryFrom({ op: "oppose", system: "steps", actor: { ...actorSkill.params }, opponent: { ...targetSkill.params } }, both, { actorWho: who(actor, actorSkill), opponentWho: who(target, targetSkill), combat: kind }),
    ...luckOf({ op: "oppose" }, both),
  };
  return { entry };
}

const WARNINGS = { acted: "combat.warn.again", not_turn: "combat.warn.notTurn" };

/** The warning before `actorId` acts, or "": the engine's `warning` for them in `judged`. */
export function turnWarning(fight, judged, actorId) {
  const actor = fight.participants.find((p) => p.id === actorId);
  const code = judgedOf(judged, actorId)?.warning;
  if (!actor || !WARNINGS[code]) return "";
  const current = fight.participants.find((p) => p.id === judged.current);
  return t(WARNINGS[code], { name: actor.name, current: current?.name ?? "" });
}

/** Both sides' Ardeur after an action, with their bars, to sit next to its outcome. */
export function ardeurAfter(fight, judged, line) {
  const rows = [];
  for (const [id, name] of [
    [line.actorId, line.actor],
    [line.targetId, line.target],
  ]) {
    const p = fight.participants.find((x) => x.id === id);
    if (!p) continue;
    const meter = h("span", { class: "ardeur-meter", "aria-hidden": "true" }, h("span", { class: "ardeur-fill" }));
    const ratio = p.start > 0 ? Math.max(0, Math.min(1, p.ardeur / p.start)) : 0;
    meter.firstChild.style.width = `${(ratio * 100).toFixed(1)}%`;
    rows.push(h("li", { class: canAct(judged, id) ? "" : "is-out", dataset: { id, ardeur: p.ardeur } }, h("span", { text: `${name} · ${t("combat.ardeur", { n: p.ardeur, max: p.start })}` }), meter));
  }
  return rows.length ? h("ul", { class: "combat-after", id: "combat-after", "aria-label": t("combat.after") }, rows) : null;
}

/** The engine's own line giving a side's total as its parts ("D10 : 3, bonus +2, total 5"), by language. */
export function partsOf(roll) {
  const lines = roll.explanations;
  if (!lines || typeof lines !== "object") return null;
  return Object.fromEntries(Object.entries(lines).map(([code, list]) => [code, Array.isArray(list) ? String(list[0] ?? "") : ""]));
}
