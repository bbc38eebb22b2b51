// Odds of a free-dice expression (system "notation"): the engine's exact distribution of
// the total as a histogram (one bar per total, the exact fraction in its title and
// data-exact), its mean, and the same numbers in a table for keyboards and screen readers.
// Also the words for the free dice' own die tags (rerolled, exploded…) and Fudge dice.

import { h } from "../lib/dom.js";
import { formatNumber, t } from "../lib/i18n.js";
import "./strings.js";

// Bars drawn one by one up to this many totals; beyond, the chart stays (thin bars) and the
// table is the way to read single values.
const TABLE_ROWS_MAX = 400;

function value(text) {
  const [num, den] = String(text).split("/");
  return Number(num) / (den === undefined ? 1 : Number(den));
}

function percent(p) {
  const options = { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 };
  if (p > 0 && p < 0.0005) return `< ${formatNumber(0.001, options)}`;
  if (p < 1 && p >= 0.9995) return `> ${formatNumber(0.999, options)}`;
  return formatNumber(p, options);
}

/** The chart of an odds answer that carries a `distribution` (total -> "num/den"). */
export function totalsChart(system, odds, title) {
  const rows = Object.entries(odds.distribution)
    .map(([total, exact]) => ({ total: Number(total), exact, p: value(exact) }))
    .sort((a, b) => a.total - b.total);
  const chart = h("div", { class: ["odds-chart", "totals-chart"], dataset: { system: system.id } });
  if (title) chart.append(h("h3", { class: "odds-side", text: title }));
  const low = rows[0].total;
  const high = rows[rows.length - 1].total;
  chart.append(
    h(
      "p",
      { class: "totals-summary" },
      h("span", { text: t("totals.range", { low, high }) }),
      h("span", { class: "totals-mean", title: odds.mean, dataset: { exact: odds.mean } }, `${t("totals.mean")} ${formatNumber(odds.mean_value, { maximumFractionDigits: 2 })}`),
    ),
  );
  // Exploding dice: the engine caps each die's explosions (docs/rules.md § 5); the odds say so.
  if (odds.explodes && Number.isInteger(odds.explode_cap)) {
    chart.append(h("p", { class: "totals-cap", dataset: { cap: odds.explode_cap }, text: t("totals.cap", { n: odds.explode_cap }) }));
  }
  const peak = Math.max(...rows.map((r) => r.p));
  const bars = h("div", { class: "totals-bars", "aria-hidden": "true" });
  for (const row of rows) {
    const bar = h("span", { class: "totals-bar", title: `${row.total} — ${row.exact}`, dataset: { total: row.total, exact: row.exact } });
    bar.style.height = `${((row.p / peak) * 100).toFixed(2)}%`;
    bars.append(bar);
  }
  chart.append(bars, h("div", { class: "totals-axis", "aria-hidden": "true" }, h("span", { text: String(low) }), h("span", { text: String(high) })));

  const table = h("table", { class: "totals-table" });
  table.append(h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("totals.total") }), h("th", { scope: "col", text: t("totals.chance") }), h("th", { scope: "col", text: t("totals.atLeast") }))));
  const body = h("tbody");
  let above = 1;
  for (const row of rows.slice(0, TABLE_ROWS_MAX)) {
    body.append(
      h(
        "tr",
        { dataset: { total: row.total, exact: row.exact } },
        h("th", { scope: "row", text: String(row.total) }),
        h("td", { title: row.exact, text: percent(row.p) }),
        h("td", { text: percent(Math.max(0, above)) }),
      ),
    );
    above -= row.p;
  }
  table.append(body);
  chart.append(h("details", { class: "totals-details" }, h("summary", { text: t("totals.table") }), table));
  return chart;
}
