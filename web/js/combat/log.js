// The outcome of combat actions as the tracker shows them: the sentences of a log line
// (from the engine's answer kept in the line), the last action's card (dice, totals,
// both sides' Ardeur after it) and the fight log with each action's explanation.

import { createDie, setFace } from "../stage/dice.js";
import { h } from "../lib/dom.js";
import { pick, t } from "../lib/i18n.js";
import { ardeurAfter } from "./combat-record.js";
import "./strings.js";
import "../ui/strings.js";

/** The sentences of a log entry, in the current language. */
export function logText(entry) {
  const lines = [];
  const winnerName = entry.winner === "actor" ? entry.actor : entry.target;
  const loserName = entry.winner === "actor" ? entry.target : entry.actor;
  const loss = (name, n, [from, to]) => t("combat.log.loss", { name, n, from, to });
  if (entry.kind === "ranged") {
    lines.push(entry.winner === "actor" ? t("combat.log.hit", { actor: entry.actor, target: entry.target, n: entry.targetLoss }) : t("combat.log.miss", { actor: entry.actor, target: entry.target }));
    if (entry.targetLoss) lines.push(loss(entry.target, entry.targetLoss, entry.targetArdeur));
  } else if (entry.kind === "skirmish") {
    lines.push(t(entry.winner === "actor" ? "combat.log.skirmishWon" : "combat.log.skirmishTwist", { actor: entry.actor, target: entry.target }));
    lines.push(t("combat.log.heroSafe", { actor: entry.actor }));
  } else if (entry.winner === "tie") {
    lines.push(t("combat.log.tie"));
  } else {
    lines.push(t("combat.log.wins", { name: winnerName, margin: entry.margin }));
    if (entry.concede) lines.push(t("combat.log.conceded", { name: loserName }));
    if (entry.actorLoss) lines.push(loss(entry.actor, entry.actorLoss, entry.actorArdeur));
    if (entry.targetLoss) lines.push(loss(entry.target, entry.targetLoss, entry.targetArdeur));
  }
  for (const name of entry.knockedOut) lines.push(t("combat.log.out", { name }));
  return lines;
}

/** The card of the last action (`entry`, or nothing when it is not the newest log line). */
export function renderLast(fight, judged, last) {
  const entry = last && fight.log[0] === last ? last : null;
  const box = h("div", { class: "combat-last", id: "combat-last", "aria-live": "off" });
  if (!entry) return box;
  const names = [entry.actor, entry.target];
  const sides = entry.rolls.map((roll, i) => {
    const dice = roll.faces.map((face, j) => {
      const die = createDie(roll.sides[j], "normal");
      setFace(die, face);
      if ((roll.tags[j] || []).includes("dropped")) die.classList.add("is-dropped");
      return die;
    });
    return h(
      "div",
      { class: "combat-roll", dataset: { side: i === 0 ? "actor" : "opponent", faces: roll.faces.join(","), total: roll.total } },
      h("p", { class: "combat-roll-name", text: names[i] }),
      h("div", { class: "combat-roll-dice" }, dice),
      h("p", { class: "combat-roll-total", text: t("combat.total", { total: roll.total }) }),
      roll.parts ? h("p", { class: "combat-roll-parts", text: pick(roll.parts) }) : null,
    );
  });
  box.dataset.winner = entry.winner;
  box.append(
    h("div", { class: "combat-rolls" }, sides),
    h("ul", { class: "combat-last-text" }, logText(entry).map((line) => h("li", { text: line }))),
    ardeurAfter(fight, judged, entry) || "",
  );
  return box;
}

/** The fight log panel, newest first. */
export function renderLog(fight) {
  const items = fight.log.map((entry) =>
    h(
      "li",
      { class: ["combat-log-entry", `kind--${entry.kind}`], dataset: { kind: entry.kind, winner: entry.winner } },
      h("p", { class: "combat-log-head" }, h("span", { class: "tag", text: t("combat.roundShort", { n: entry.round }) }), h("strong", { text: t(`combat.kind.${entry.kind}`, { actor: entry.actor, target: entry.target }) })),
      h("p", { class: "combat-log-text", text: logText(entry).join(" ") }),
      h("details", { class: "explanation" }, h("summary", { text: t("result.explanation") }), h("ol", {}, (pick(entry.explanations) || []).map((line) => h("li", { text: line })))),
    ),
  );
  return h(
    "section",
    { class: ["panel", "combat-log-panel"], "aria-labelledby": "combat-log-title" },
    h("h2", { class: "panel-title", id: "combat-log-title", text: t("combat.log.title") }),
    h("ol", { class: "combat-log", id: "combat-log" }, items.length ? items : h("li", { class: "char-empty", text: t("combat.log.empty") })),
  );
}
