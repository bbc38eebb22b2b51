// The roll bar: the roll screen's "Lancer" row stays in reach at the bottom of the screen
// (CSS: .roll-row is fixed while the roll screen shows) and tells the chance of success.
// The figure is the engine's own odds answer (success_probability of `odds`, or the actor's
// chance in `oppose_odds`), never computed here.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { formatPercent } from "../odds/odds.js";
import "./strings.js";

function chanceNode() {
  let node = document.getElementById("roll-chance");
  if (!node) {
    node = h("p", { class: "roll-chance", id: "roll-chance" });
    document.getElementById("roll-button").after(node);
  }
  return node;
}

/** Show the chance of the odds answer kept by main.js ({mode, charts, versus, stale}). */
export function updateRollBar(lastOdds) {
  const node = chanceNode();
  let text = "";
  let p = null;
  if (lastOdds && lastOdds.mode === "oppose" && lastOdds.versus && lastOdds.versus.probabilities) {
    p = lastOdds.versus.probabilities.actor;
    text = t("rollbar.versus", { p: formatPercent(p) });
  } else if (lastOdds && lastOdds.mode !== "oppose" && lastOdds.charts.length) {
    p = lastOdds.charts[0].odds.success_probability;
    if (typeof p === "number") text = t("rollbar.chance", { p: formatPercent(p) });
  }
  node.textContent = text;
  node.hidden = !text;
  node.classList.toggle("is-stale", Boolean(lastOdds && lastOdds.stale));
  if (typeof p === "number") node.dataset.p = String(p);
  else delete node.dataset.p;
}
