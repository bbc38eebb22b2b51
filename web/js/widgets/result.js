// The result card of a roll or of an opposed roll: outcome tier (colour + icon + text),
// margin and the system's key numbers, every die with what it counts for, the Flame
// dice placement controls (when the system has a `placement` field) and the explanation.

import { createDie, d100Parts, setFace } from "../stage/dice.js";
import { h } from "../lib/dom.js";
import { formatSigned, lang, pick, t } from "../lib/i18n.js";
import { outcomeIcon, outcomeInfo, paint } from "./outcomes.js";
import "./strings.js";
import "../ui/strings.js";

// Result fields worth showing next to the margin, when a system's result has them.
const NUMBERS = ["successes", "effective_diff", "ones", "total", "threshold", "impact", "value", "target", "die_rolled", "extreme", "damage"];

export function tierBadge(system, outcomeId, extraClass) {
  const info = outcomeInfo(system, outcomeId);
  const badge = h("div", { class: ["tier-badge", extraClass] }, outcomeIcon(info.icon), h("span", { class: "tier-label", text: info.label }));
  paint(badge, info);
  return badge;
}

function numberText(key, value) {
  if (key === "die_rolled") return `d${value}`;
  if (key === "extreme") return t(`result.extreme.${value}`);
  return String(value);
}

/** The numbers of one roll; margin false: left out (a side of an opposition, judged by the gap). */
function numbers(result, { margin = true } = {}) {
  const list = h("dl", { class: "result-numbers" });
  // Free dice (an answer with `kind`) have no margin: their number is the headline (issue 22).
  if (margin && typeof result.margin === "number") {
    list.append(
      h("div", { class: "number number--margin", dataset: { key: "margin" } }, h("dt", { text: t("result.margin") }), h("dd", { text: formatSigned(result.margin) })),
    );
  }
  for (const key of NUMBERS) {
    const value = result[key];
    if (value === undefined || value === null || Array.isArray(value) || typeof value === "object") continue;
    if (key === "damage" && value === 0) continue; // a roll that deals nothing: no "Dégâts 0"
    list.append(h("div", { class: "number", dataset: { key } }, h("dt", { text: t(`result.${key}`) }), h("dd", { text: numberText(key, value) })));
  }
  return list;
}

function dieDescription(die) {
  const face = die.sides === 100 ? `${die.final} (${t("die.tensUnits", d100Parts(die.final))})` : die.final;
  if (die.kind === "fudge") return t("die.describeFudge", { kind: t("die.kind.fudge"), face: formatSigned(die.final) });
  return t("die.describe", { kind: t(`die.kind.${die.kind}`), sides: die.sides, face });
}

/**
 * What free dice say of each die beyond its face ([] for other systems): a compounded die's
 * parts, as the engine counts them, and, for a die an explosion added, the die it came from
 * (the engine lists the added dice right after the die that exploded, in its group's report).
 */
function chainsOf(result) {
  const report = Array.isArray(result.groups) ? result.groups.flatMap((g) => g.dice || []) : [];
  if (report.length !== result.dice.length) return [];
  let origin = null;
  return report.map((d, index) => {
    if (!d.extra) origin = index;
    return { parts: Array.isArray(d.parts) ? d.parts : null, from: d.extra ? origin : null };
  });
}

/**
 * Draw the dice of one roll result. Returns the tray and the list of {el, face} to animate.
 * placement: null, or {indexes (die index -> flame number), values, canPlus(i), canMinus(i), onStep(i, delta)}
 */
function diceTray(result, placement) {
  const tray = h("ul", { class: ["dice-tray", result.dice.length <= 3 ? "is-few" : ""], "aria-label": t("result.dice") });
  const animated = [];
  const counts = result.successes !== undefined;
  const chains = chainsOf(result);
  result.dice.forEach((die, index) => {
    const el = createDie(die.sides, die.kind);
    setFace(el, die.final);
    animated.push({ el, face: die.final, sides: die.sides, kind: die.kind });
    const caption = h("div", { class: "die-caption" });
    // A Fudge die reads +1, 0 or −1, as its faces are marked.
    const value = die.kind === "fudge" ? formatSigned(die.value) : die.value;
    caption.append(h("span", { class: "die-value", text: counts ? t("die.success", { n: die.value }) : t("die.face", { n: value }) }));
    if (die.delta) {
      caption.append(h("span", { class: ["chip", "chip--delta"], text: `${formatSigned(die.delta)} (${die.rolled}→${die.final})` }));
    }
    const chain = chains[index];
    // A compounded die (!!) counts the sum of its parts: they are said, 6 + 6 + 3.
    if (chain?.parts) caption.append(h("span", { class: "die-parts", text: chain.parts.join(" + ") }));
    // A die an explosion added is linked to the die that exploded.
    if (chain && chain.from !== null) caption.append(h("span", { class: "die-from", dataset: { from: chain.from }, text: t("die.from", { n: chain.from + 1 }) }));
    // A rerolled die counts its last face; the face it threw first is beside it, struck through.
    if ((die.tags || []).includes("rerolled")) {
      caption.append(h("s", { class: "die-discarded", title: t("die.discarded", { n: die.rolled }), text: String(die.rolled) }));
    }
    for (const tag of die.tags || []) {
      caption.append(h("span", { class: ["chip", `chip--${tag}`], text: t(`die.tag.${tag}`) }));
    }
    const cell = h(
      "li",
      {
        class: ["die-cell", `kind--${die.kind}`, ...(die.tags || []).map((tag) => `tag--${tag}`)],
        dataset: { kind: die.kind, sides: die.sides, face: die.final, rolled: die.rolled, value: die.value, tags: (die.tags || []).join(" "), index },
      },
      el,
      h("span", { class: "visually-hidden", text: dieDescription(die) }),
      caption,
    );
    const flame = placement ? placement.indexes.get(index) : undefined;
    if (flame !== undefined) {
      const minus = h("button", { type: "button", class: ["place", "place--minus"], "aria-label": t("placement.minus", { n: flame + 1 }), text: "−" });
      const plus = h("button", { type: "button", class: ["place", "place--plus"], "aria-label": t("placement.plus", { n: flame + 1 }), text: "+" });
      minus.disabled = !placement.canMinus(flame);
      plus.disabled = !placement.canPlus(flame);
      minus.addEventListener("click", () => placement.onStep(flame, -1));
      plus.addEventListener("click", () => placement.onStep(flame, 1));
      cell.classList.add("placeable");
      cell.append(h("div", { class: "place-controls" }, minus, plus));
    }
    tray.append(cell);
  });
  return { tray, animated };
}

function explanation(result, open = true) {
  const lines = (result.explanations && pick(result.explanations)) || result.explanation || [];
  if (!lines.length) return null;
  return h("details", { class: "explanation", open }, h("summary", { text: t("result.explanation") }), h("ol", {}, lines.map((line) => h("li", { text: line }))));
}

function meta(result) {
  const parts = [];
  if (result.seed !== null && result.seed !== undefined) parts.push(`${t("result.seed")} ${result.seed}`);
  if (result.physical) parts.push(t("result.physical"));
  return h("p", { class: "result-meta", text: parts.join(" · ") });
}

/**
 * Placement controls of a pool-like result. The engine's answer says, for each Flame die,
 * which one-point moves it accepts (`placement_moves`) and what is left
 * (`placement_left`): the page offers exactly those and decides none itself.
 */
export function placementModel(system, result, onChange, onReset) {
  if (!system.fields.some((f) => f.type === "placement") || !Array.isArray(result.placement)) return null;
  if (!Array.isArray(result.placement_moves)) return null;
  if (!result.augmentations && !result.diminutions) return null; // nothing to place
  // The die each placement value moves, as the engine answers it (`placement_dice`).
  const indexes = new Map();
  (Array.isArray(result.placement_dice) ? result.placement_dice : []).forEach((die, n) => {
    if (Number.isInteger(die) && die >= 0 && die < result.dice.length && n < result.placement.length) indexes.set(die, n);
  });
  if (indexes.size === 0) return null;
  const values = result.placement.slice();
  const moves = result.placement_moves;
  const left = result.placement_left || {};
  return {
    indexes,
    values,
    leftAug: left.augmentations ?? 0,
    leftDim: left.diminutions ?? 0,
    canPlus: (n) => Boolean(moves[n]?.plus),
    canMinus: (n) => Boolean(moves[n]?.minus),
    onStep: (n, delta) => {
      const next = values.slice();
      next[n] += delta;
      onChange(next);
    },
    onReset,
  };
}

function placementBox(model) {
  if (!model) return null;
  const reset = h("button", { type: "button", class: ["button", "button--ghost", "placement-reset"], text: t("placement.optimal") });
  reset.addEventListener("click", () => model.onReset());
  return h(
    "div",
    { class: "placement-box" },
    h("p", { class: "placement-help", text: t("placement.help") }),
    h("p", { class: "placement-left", text: t("placement.left", { aug: model.leftAug, dim: model.leftDim }) }),
    reset,
  );
}

/**
 * The headline of a free-dice answer (`kind` "sum" or "count", docs/api.md): its total, or
 * its successes, as the engine says; null for an answer without a `kind`.
 */
export function headlineOf(result) {
  if (!result || (result.kind !== "sum" && result.kind !== "count")) return null;
  const value = result.headline ?? result.total;
  return typeof value === "number" ? { kind: result.kind, value } : null;
}

/** The engine's headline as a screen reader says it, in the page's language (or null). */
export function spokenHeadline(result) {
  const said = result?.headline_spoken?.[lang()];
  return typeof said === "string" && said ? said : null;
}

/** The neutral badge of a sum: its total in large type, no tier colour, tick or margin. */
function totalBadge(headline, extraClass) {
  const label = t(headline.kind === "count" ? "result.successes" : "result.total");
  return h(
    "div",
    { class: ["tier-badge", "tier-badge--total", extraClass], dataset: { kind: headline.kind } },
    h("span", { class: "tier-label", text: label }),
    h("span", { class: "headline-value", dataset: { headline: "" }, text: String(headline.value) }),
  );
}

/** A single roll. Returns {element, dice, announce}. */
export function renderRoll(system, result, { placement } = {}) {
  const headline = headlineOf(result);
  const sum = headline?.kind === "sum";
  const info = outcomeInfo(system, result.outcome);
  const card = h("article", { class: ["result-card", "result-card--roll", sum ? "result-card--sum" : ""], dataset: { system: system.id } });
  if (sum) card.dataset.kind = "sum";
  else paint(card, info);
  const { tray, animated } = diceTray(result, placement);
  // A sum: its total alone; a count: its successes first, then its tier (at least one or none).
  const badges = sum ? [totalBadge(headline, "tier-badge--big")] : [headline ? totalBadge(headline, "tier-badge--big") : "", tierBadge(system, result.outcome, "tier-badge--big")];
  card.append(h("header", { class: "result-head" }, ...badges, numbers(result)), tray, placementBox(placement) || "", explanation(result) || "", meta(result));
  // say(): the announcement in the language of the moment (said again after a switch).
  // The engine's headline first, as a screen reader says it (« 9 réussites », « 12 au total »).
  const say = () => {
    const label = outcomeInfo(system, result.outcome).label;
    const first = spokenHeadline(result);
    if (!headline) return first ? t("result.announceHeadline", { headline: first, outcome: label, margin: formatSigned(result.margin) }) : t("result.announce", { outcome: label, margin: formatSigned(result.margin) });
    if (sum) return first ? t("result.announceSpoken", { headline: first }) : t("result.announceTotal", { total: headline.value });
    return first ? t("result.announceCountSpoken", { headline: first, outcome: label }) : t("result.announceTotal", { total: headline.value });
  };
  const verdict = () =>
    // The engine's headline words say what the number is (« Total 12 »): no label repeats it.
    headline ? stageVerdict(system, sum ? null : result.outcome, null, null, null, result.headline_texts ? null : headline) : stageVerdict(system, result.outcome, formatSigned(result.margin));
  return { element: card, dice: animated, announce: say(), say, answer: result, verdict };
}

/**
 * What the roll stage shows in large type once the dice land: tier (or who won), margin;
 * for free dice, what the stage's headline is (a total, successes), and no margin.
 */
function stageVerdict(system, outcomeId, margin, winnerText = null, winner = null, headline = null) {
  const box = h("div", { class: "verdict", dataset: winner ? { winner } : {} });
  // The number itself is the stage's own headline (stage/headline.js, the answer's): here its name.
  if (headline) box.append(h("p", { class: "verdict-winner", text: t(headline.kind === "count" ? "result.successes" : "result.total") }));
  if (winnerText) box.append(h("p", { class: "verdict-winner", text: winnerText }));
  if (outcomeId) box.append(tierBadge(system, outcomeId, "tier-badge--stage"));
  if (margin !== null) box.append(h("p", { class: "verdict-margin", text: t("stage.margin", { margin }) }));
  return box;
}

function sideKey(roll) {
  for (const key of ["total", "successes", "margin"]) {
    if (roll[key] !== undefined && roll[key] !== null) return roll[key];
  }
  return "—";
}

/**
 * An opposed roll. Returns {element, dice, announce}. names: optional {actor, opponent}
 * (characters' names) used instead of "Actor" / "Opponent".
 */
export function renderOppose(system, result, { names } = {}) {
  const named = (side) => names && names[side];
  const winnerOf = () =>
    result.winner === "tie"
      ? t("result.tie")
      : named(result.winner)
        ? t("result.winnerNamed", { name: named(result.winner) })
        : result.winner === "actor"
          ? t("result.winnerActor")
          : t("result.winnerOpponent");
  const winnerText = winnerOf();
  const card = h("article", { class: ["result-card", "result-card--oppose"], dataset: { system: system.id, winner: result.winner } });
  const decides = ((result.explanations && pick(result.explanations)) || result.explanation || [])[0];
  const head = h(
    "header",
    { class: "oppose-head" },
    h("p", { class: "winner", text: winnerText }),
    // What decided, in the system's own terms (the engine's first line: "3 réussite(s) contre 8…").
    decides ? h("p", { class: "oppose-decides", text: decides }) : "",
    h("dl", { class: "result-numbers" }, h("div", { class: "number number--margin", dataset: { key: "margin" } }, h("dt", { text: t("result.gap") }), h("dd", { text: String(result.margin) }))),
  );
  if (result.winner_outcome) {
    head.append(h("div", { class: "winner-outcome" }, h("span", { class: "small-label", text: t("result.winnerOutcome") }), tierBadge(system, result.winner_outcome)));
  }
  const extra = h("dl", { class: "result-numbers" });
  if (result.winner_impact !== undefined && result.winner_impact !== null) {
    extra.append(h("div", { class: "number", dataset: { key: "winner_impact" } }, h("dt", { text: t("result.winnerImpact") }), h("dd", { text: String(result.winner_impact) })));
  }
  if (result.ardeur_loss !== undefined && result.ardeur_loss !== null) {
    extra.append(h("div", { class: "number", dataset: { key: "ardeur_loss" } }, h("dt", { text: t("result.ardeurLoss") }), h("dd", { text: String(result.ardeur_loss) })));
  }
  if (extra.children.length) head.append(extra);
  card.append(head);
  const sides = h("div", { class: "oppose-sides" });
  const animated = [];
  for (const side of ["actor", "opponent"]) {
    const roll = result[side];
    const sideHeadline = headlineOf(roll);
    const { tray, animated: dice } = diceTray(roll, null);
    for (const die of dice) die.side = side;
    animated.push(...dice);
    const section = h(
      "section",
      { class: ["oppose-side", `oppose-side--${side}`, result.winner === side ? "is-winner" : ""], dataset: { side } },
      h("h3", { text: named(side) || t(side === "actor" ? "form.actor" : "form.opponent") }),
      sideHeadline?.kind === "sum" ? totalBadge(sideHeadline) : tierBadge(system, roll.outcome),
      numbers(roll, { margin: false }),
      tray,
      // Open: each total with its parts ("D10 : 3, bonus +2, total 5").
      explanation(roll, true) || "",
    );
    if (sideHeadline?.kind !== "sum") paint(section, outcomeInfo(system, roll.outcome));
    sides.append(section);
  }
  card.append(sides);
  if (result.rerolls && result.rerolls.length) {
    card.append(
      h(
        "div",
        { class: "rerolls" },
        h("h3", { text: t("result.rerolls") }),
        h("ol", {}, result.rerolls.map((pair, i) => h("li", { text: t("result.reroll", { n: i + 1, actor: sideKey(pair.actor), opponent: sideKey(pair.opponent) }) }))),
      ),
    );
  }
  // The whole explanation only when it says more than the line already on top.
  const lines = (result.explanations && pick(result.explanations)) || result.explanation || [];
  card.append(lines.length > 1 ? explanation(result) : "", meta({ seed: result.seed ?? result.actor.seed, physical: result.physical ?? result.actor.physical }));
  const say = () => {
    const first = spokenHeadline(result);
    const rest = t("result.announceOppose", { winner: winnerOf(), margin: result.margin });
    return first ? t("result.announceThen", { headline: first, rest }) : rest;
  };
  const verdict = () => stageVerdict(system, result.winner_outcome, String(result.margin), winnerText, result.winner);
  return { element: card, dice: animated, announce: say(), say, answer: result, verdict };
}
