// The action panel of the combat tracker (who acts against whom, the kind of action, the
// entries used) and the action itself: one engine `combat` call, its losses applied, a log
// line and a history entry. Who can act, whose turn it is, which entry fights and the
// turn warnings come from the engine's judgement kept in `cv.judged` (the `fight` answer
// after a change, the `combat` answer's `fight` after an action).
// `cv` is the CombatView.

import { h } from "../lib/dom.js";
import { lang, pick, t } from "../lib/i18n.js";
import { newId } from "../lib/ids.js";
import { playStage } from "../stage/stage.js";
import { flash, switchControl } from "../ui/ui.js";
import { combatEntry, partsOf, turnWarning } from "./combat-record.js";
import { logText, renderLast } from "./log.js";
import { actionRequest, AUTO, canAct, skillFor } from "./state.js";
import "./strings.js";
import "../widgets/strings.js";

export function renderAction(cv, system, play) {
  // Who can act, whose turn it is: the engine's `fight` answer (cv.judged), never decided here.
  const judged = cv.judged;
  const up = (p) => canAct(judged, p.id);
  const standing = cv.fight.participants.filter(up);
  if (!cv.participant(cv.action.actor) || !up(cv.participant(cv.action.actor))) {
    cv.action.actor = judged.current ?? standing[0]?.id ?? null;
  }
  const target = cv.participant(cv.action.target);
  const kept = (p) => up(p) || p.id === cv.keptTarget;
  if (!target || !kept(target) || target.id === cv.action.actor) {
    cv.action.target = standing.find((p) => p.id !== cv.action.actor)?.id ?? null;
  }
  const select = (id, value, options, onChange) => {
    const node = h("select", { id });
    for (const [optionValue, text] of options) {
      const option = h("option", { value: optionValue, text });
      option.selected = optionValue === value;
      node.append(option);
    }
    node.addEventListener("change", () => onChange(node.value));
    return node;
  };
  const actorSelect = select("combat-actor", cv.action.actor, standing.map((p) => [p.id, p.name]), (v) => {
    cv.action.actor = v;
    cv.action.actorSkill = AUTO;
    cv.render();
    document.getElementById("combat-actor")?.focus();
  });
  const targets = cv.fight.participants.filter((p) => p.id !== cv.action.actor && kept(p));
  const targetSelect = select("combat-target", cv.action.target, targets.map((p) => [p.id, up(p) ? p.name : t("combat.outShort", { name: p.name })]), (v) => {
    cv.action.target = v;
    cv.action.targetSkill = AUTO;
    cv.render();
    document.getElementById("combat-target")?.focus();
  });
  const kindField = play.combat.fields.find((f) => f.name === "kind");
  const kinds = h("fieldset", { class: ["segmented", "combat-kinds"] }, h("legend", { class: "field-label", text: pick(kindField.label) }));
  const row = h("div", { class: "segmented-options" });
  for (const choice of kindField.choices) {
    const id = `combat-kind-${choice.value}`;
    const radio = h("input", { type: "radio", name: "combat-kind", id, value: choice.value, class: "visually-hidden" });
    radio.checked = choice.value === cv.action.kind;
    radio.addEventListener("change", () => {
      if (!radio.checked) return;
      cv.action.kind = choice.value;
      cv.render();
      document.getElementById(id)?.focus();
    });
    row.append(radio, h("label", { for: id, text: pick(choice.label) }));
  }
  kinds.append(row);
  const concedeField = play.combat.fields.find((f) => f.name === "concede");
  const concede = switchControl({ id: "combat-concede", label: pick(concedeField.label), checked: cv.action.concede, onChange: (on) => (cv.action.concede = on), describedBy: "combat-concede-help" });
  const concedeBox = h("div", { class: "combat-concede" }, concede.row, h("p", { class: "help", id: "combat-concede-help", text: pick(concedeField.help) }));
  concedeBox.hidden = cv.action.kind !== "conflict";
  // Ardeur below 0 (docs/rules.md, « Ardeur sous 0 »): the engine's option, on by default.
  const floorField = play.combat.fields.find((f) => f.name === "ardeur_floor");
  const floor = floorField && switchControl({ id: "combat-ardeur-floor", label: pick(floorField.label), checked: cv.action.ardeurFloor ?? floorField.default, onChange: (on) => (cv.action.ardeurFloor = on), describedBy: "combat-ardeur-floor-help" });
  const floorBox = floor && h("div", { class: "combat-concede combat-ardeur-floor" }, floor.row, h("p", { class: "help", id: "combat-ardeur-floor-help", text: pick(floorField.help) }));
  const skillSelect = (side, participant) => {
    if (!participant) return null;
    const key = side === "actor" ? "actorSkill" : "targetSkill";
    const auto = skillFor(participant, cv.action.kind, AUTO, judged);
    const options = [[AUTO, t("combat.skillAuto", { label: auto.label || t("combat.baseSkill") })], ...participant.skills.map((s, i) => [String(i), s.label || t("combat.baseSkill")])];
    const id = `combat-${side}-skill`;
    return h("div", { class: "field" }, h("label", { for: id, class: "field-label", text: t(side === "actor" ? "combat.actorSkill" : "combat.targetSkill") }), select(id, cv.action[key], options, (v) => (cv.action[key] = v)));
  };
  const actor = cv.participant(cv.action.actor);
  const targetP = cv.participant(cv.action.target);
  const resolveButton = h("button", { type: "button", class: "roll-button", id: "combat-resolve", text: t("combat.resolve") });
  resolveButton.disabled = !actor || !targetP;
  resolveButton.addEventListener("click", () => resolve(cv));
  cv.error = h("p", { class: "form-error", id: "combat-error", role: "alert", hidden: true });
  const warning = actor ? turnWarning(cv.fight, judged, actor.id) : "";
  const hint = t(`combat.hint.${cv.action.kind}`);
  return h(
    "section",
    { class: ["panel", "combat-action-panel"], "aria-labelledby": "combat-action-title" },
    h("h2", { class: "panel-title", id: "combat-action-title", text: t("combat.action") }),
    judged.over ? h("p", { class: "panel-hint", text: t("combat.needTwo") }) : null,
    h(
      "div",
      { class: "combat-pick" },
      h("div", { class: "field" }, h("label", { for: "combat-actor", class: "field-label", text: t("combat.actor") }), actorSelect),
      h("div", { class: "field" }, h("label", { for: "combat-target", class: "field-label", text: t("combat.target") }), targetSelect),
    ),
    kinds,
    h("p", { class: "panel-hint combat-kind-hint", text: hint }),
    concedeBox,
    floorBox,
    h("div", { class: "combat-pick" }, skillSelect("actor", actor), cv.action.kind === "ranged" ? null : skillSelect("target", targetP)),
    warning ? h("p", { class: "combat-warning", id: "combat-warning", role: "status", text: warning }) : null,
    resolveButton,
    cv.error,
    renderLast(cv.fight, cv.judged, cv.last),
  );
}

/** One action between the picked participants (the "Résoudre" button): one engine call. */
export async function resolve(cv) {
  if (cv.busy || cv.ctx.pipeline.rolling("combat")) return; // a second tap: the action in flight is the one
  cv.busy = true;
  try {
    await act(cv);
  } finally {
    cv.busy = false;
  }
}

async function act(cv) {
  // One `combat` call: the fight as it stands and who acts against whom; the engine picks the
  // entries and Ardeur from the state, and answers the roll with its judgement of the fight
  // after it (who is out, whose turn, warnings). Nothing is asked before nor after.
  const actor = cv.participant(cv.action.actor);
  const target = cv.participant(cv.action.target);
  if (!actor || !target || actor === target) {
    flash(cv.error, t("combat.pickBoth"), "error");
    return;
  }
  const request = { ...actionRequest(cv.fight, { ...cv.action, actor: actor.id, target: target.id }), lang: lang() };
  // The entries the engine rolled (its answer names them by index), for the log and the history.
  const used = (p, index) => p.skills[index] ?? { label: "", params: {} };
  const skills = (result) => ({ actorSkill: used(actor, result.actor.skill), targetSkill: result.opponent.skill === null ? null : used(target, result.opponent.skill) });
  const done = await cv.ctx.pipeline.roll(request, null, {
    origin: "combat",
    // The history entry of the action (combat-record.js), its luck from the answer's rolls.
    entry: (sent, answer) => combatEntry({ request: sent, result: answer.result, actor, target, ...skills(answer.result) }).entry,
    present: ({ request: sent, answer }) => landAction(cv, { request: sent, result: answer.result, actor, target, ...skills(answer.result) }),
  });
  if (done && !done.answer.ok) flash(cv.error, t("combat.error", { message: done.answer.error.message }), "error");
}

/** The action's answer applied to the fight (losses, log, the engine's judgement after it), then its dice on the stage; resolves once landed. */
async function landAction(cv, { request, result, actor, target, actorSkill, targetSkill }) {
  const kind = request.params.kind;
  cv.checkpoint();
  const before = { actor: actor.ardeur, target: target.ardeur };
  const up = { actor: canAct(cv.judged, actor.id), target: canAct(cv.judged, target.id) };
  actor.ardeur = result.actor.ardeur;
  target.ardeur = result.opponent.ardeur;
  const entry = {
    id: newId("l"),
    time: new Date().toISOString(),
    round: cv.fight.round,
    kind,
    concede: request.params.concede,
    actor: actor.name,
    target: target.name,
    actorId: actor.id,
    targetId: target.id,
    actorSkill: actorSkill.label,
    targetSkill: kind === "ranged" ? null : targetSkill?.label ?? "",
    winner: result.winner,
    margin: result.margin,
    actorLoss: result.actor.loss,
    targetLoss: result.opponent.loss,
    actorArdeur: [before.actor, actor.ardeur],
    targetArdeur: [before.target, target.ardeur],
    knockedOut: [result.actor.knocked_out && up.actor ? actor.name : null, result.opponent.knocked_out && up.target ? target.name : null].filter(Boolean),
    seed: result.seed,
    explanations: result.explanations,
    rolls: result.rolls.map((roll) => ({ sides: roll.dice.map((d) => d.sides), faces: roll.dice.map((d) => d.final), tags: roll.dice.map((d) => d.tags), total: roll.total, bonus: roll.params.bonus, parts: partsOf(roll) })),
  };
  cv.fight.log.unshift(entry);
  cv.last = entry;
  // "Contre qui" stays on the one just fought, even knocked out (a skirmish puts the extras out).
  cv.keptTarget = target.id;
  cv.save();
  // The new state as the engine judged it in the same answer (who is out, whose turn it is).
  cv.judgedBy(result.fight);
  cv.render();
  document.getElementById("combat-resolve")?.focus();
  const dice = result.rolls.flatMap((roll, i) => roll.dice.map((d) => ({ sides: d.sides, face: d.final, kind: d.kind, side: i ? "opponent" : "actor" })));
  const verdict = h("div", { class: "verdict", dataset: { winner: result.winner } }, logText(entry).slice(0, 2).map((line, i) => h("p", { class: i ? "verdict-margin" : "verdict-winner", text: line })));
  // The outcome card stays hidden, and nothing is announced, until the dice have landed.
  const last = document.getElementById("combat-last");
  last?.classList.add("stage-pending");
  await new Promise((landed) => {
    playStage({ dice, verdict, detail: last, answer: result }, () => {
      last?.classList.remove("stage-pending");
      // The engine's « 12 contre 7 » first, then what the log says.
      const said = () => {
        const rest = logText(entry).join(" ");
        const head = result.headline_spoken?.[lang()];
        return head ? t("result.announceThen", { headline: head, rest }) : rest;
      };
      cv.ctx.announce(said(), said);
      landed();
    });
  });
}
