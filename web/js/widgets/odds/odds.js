// Odds panel: exact chance of each outcome tier as a bar chart (plain HTML/CSS).
// The percentage is the visible text, the exact fraction is in the title (hover) and
// in data-exact.

import { h } from "../../lib/dom.js";
import { t } from "../../lib/i18n.js";
import { formatPercent } from "../../lib/numbers.js";
import { outcomeIcon, outcomeInfo, paint } from "../outcomes.js";
import { totalsChart } from "./totals.js";
import "./strings.js";

function fractionValue(text) {
  const [num, den] = String(text).split("/");
  return Number(num) / (den === undefined ? 1 : Number(den));
}

/** One chart for one side: a row per outcome, best first. */
export function oddsChart(system, odds, title) {
  if (odds.distribution) return totalsChart(system, odds, title); // free dice: every total
  const chart = h("div", { class: "odds-chart", dataset: { system: system.id } });
  if (title) chart.append(h("h3", { class: "odds-side", text: title }));
  const list = h("ul", { class: "odds-rows" });
  for (const outcome of system.outcomes) {
    const exact = odds.exact[outcome.id] ?? "0";
    const p = odds.probabilities?.[outcome.id] ?? fractionValue(exact);
    const info = outcomeInfo(system, outcome.id);
    const bar = h("span", { class: "odds-bar" });
    bar.style.width = `${(p * 100).toFixed(3)}%`;
    const percent = formatPercent(fractionValue(exact));
    const row = h(
      "li",
      { class: ["odds-row", p === 0 ? "is-zero" : ""], title: `${info.label} — ${exact}`, dataset: { outcome: outcome.id, exact } },
      h("span", { class: "odds-label" }, outcomeIcon(info.icon), h("span", { text: info.label })),
      h("span", { class: "odds-track", "aria-hidden": "true" }, bar),
      h("span", { class: "odds-percent", text: percent }),
    );
    paint(row, info);
    list.append(row);
  }
  chart.append(list);
  if (odds.success !== undefined) {
    chart.append(
      h(
        "p",
        { class: "odds-success", title: String(odds.success), dataset: { exact: odds.success } },
        h("span", { text: t("odds.success") }),
        h("strong", { text: formatPercent(fractionValue(odds.success)) }),
      ),
    );
  }
  return chart;
}

/**
 * Who wins an opposition: the engine's oppose_odds answer as three rows (actor, opponent,
 * tie), the exact fraction in each row's title and data-exact. Spans the panel's width.
 */
export function versusChart(odds) {
  const chart = h("div", { class: ["odds-chart", "odds-versus"], dataset: { system: odds.system } });
  chart.append(h("h3", { class: "odds-side", text: t("odds.versus.title") }));
  const list = h("ul", { class: "odds-rows" });
  for (const who of ["actor", "opponent", "tie"]) {
    const exact = odds.exact[who];
    const p = odds.probabilities[who];
    const bar = h("span", { class: "odds-bar" });
    bar.style.width = `${(p * 100).toFixed(3)}%`;
    const label = t(`odds.versus.${who}`);
    list.append(
      h(
        "li",
        // A tie rerolled 100 times gives fractions of hundreds of digits: kept in data-exact only.
        { class: ["odds-row", p === 0 ? "is-zero" : ""], title: exact.length <= 40 ? `${label} — ${exact}` : label, dataset: { who, exact } },
        h("span", { class: "odds-label" }, h("span", { text: label })),
        h("span", { class: "odds-track", "aria-hidden": "true" }, bar),
        h("span", { class: "odds-percent", text: formatPercent(fractionValue(exact)) }),
      ),
    );
  }
  chart.append(list);
  if (odds.tie_rerolls > 0) {
    chart.append(h("p", { class: "panel-hint odds-versus-note", text: t("odds.versus.rerolled", { n: odds.tie_rerolls }) }));
  }
  return chart;
}
