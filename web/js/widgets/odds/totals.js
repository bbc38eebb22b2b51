// Odds of a free-dice expression (system "notation"): the engine's distribution of the total
// as a histogram (one bar per total, the exact fraction in its title and data-exact), its
// mean, and the same numbers in a table for keyboards and screen readers. Past the engine's
// exact budget the answer carries an `estimate` (docs/api.md): everything then reads
// « environ », the method and its error bound are said, and no fraction is shown as exact.
// More totals than BARS_MAX share bars (each bar: a run of consecutive totals).
// Also the words for the free dice' own die tags (rerolled, exploded…) and Fudge dice.

import { h } from "../../lib/dom.js";
import { formatNumber, t } from "../../lib/i18n.js";
import { formatDecimal, formatPercent } from "../../lib/numbers.js";
import "./strings.js";

// Bars drawn one by one up to this many totals; beyond, the chart stays (thin bars) and the
// table is the way to read single values.
const TABLE_ROWS_MAX = 400;
// At most this many bars: past it, consecutive totals share a bar (a chart of 10,000 bars
// is no easier to read, costs the page, and 120 bars and their gaps fit a phone).
export const BARS_MAX = 120;

function value(text) {
  const [num, den] = String(text).split("/");
  return Number(num) / (den === undefined ? 1 : Number(den));
}

/** What an estimate's note says: its method and the bound of its error (docs/rules.md §5). */
function estimateNote(estimate) {
  const bound = formatNumber(estimate.bound * 100, { maximumFractionDigits: 2 });
  if (estimate.method === "monte_carlo") {
    return t("totals.estimate.sampled", { n: formatNumber(estimate.samples), bound, seed: estimate.seed });
  }
  return t("totals.estimate.normal", { bound });
}

/** Consecutive totals grouped into at most BARS_MAX runs: {total, last, p, exact}. */
export function barsOf(rows) {
  const size = Math.ceil(rows.length / BARS_MAX);
  if (size <= 1) return rows.map((r) => ({ ...r, last: r.total }));
  const out = [];
  for (let i = 0; i < rows.length; i += size) {
    const run = rows.slice(i, i + size);
    out.push({ total: run[0].total, last: run[run.length - 1].total, p: run.reduce((sum, r) => sum + r.p, 0), exact: null });
  }
  return out;
}

/** The chart of an odds answer that carries a `distribution` (total -> "num/den"). */
export function totalsChart(system, odds, title) {
  const estimate = odds.estimate ?? null;
  const about = (text) => (estimate ? t("totals.about", { text }) : text);
  const rows = Object.entries(odds.distribution)
    .map(([total, exact]) => ({ total: Number(total), exact, p: value(exact) }))
    .sort((a, b) => a.total - b.total);
  const chart = h("div", { class: ["odds-chart", "totals-chart", estimate ? "is-estimate" : ""], dataset: { system: system.id, ...(estimate ? { estimate: estimate.method } : {}) } });
  if (title) chart.append(h("h3", { class: "odds-side", text: title }));
  const low = rows[0].total;
  const high = rows[rows.length - 1].total;
  // An estimate leaves out the totals whose chance rounds to 0: its own range is said.
  const range = estimate ? { low: estimate.low, high: estimate.high } : { low, high };
  const mean = formatDecimal(odds.mean_value, { max: 2 });
  chart.append(
    h(
      "p",
      { class: "totals-summary" },
      h("span", { text: t("totals.range", range) }),
      h("span", { class: "totals-mean", ...(estimate ? {} : { title: odds.mean, dataset: { exact: odds.mean } }) }, `${t("totals.mean")} ${about(mean)}`),
    ),
  );
  // What the engine warns of although the expression is valid (a space after an explosion).
  for (const warning of odds.warnings ?? []) chart.append(h("p", { class: "totals-warning", role: "note", dataset: { code: warning.code }, text: warning.message }));
  if (estimate) chart.append(h("p", { class: "totals-estimate", dataset: { method: estimate.method, bound: estimate.bound }, text: estimateNote(estimate) }));
  // Exploding dice: the engine caps each die's explosions (docs/rules.md § 5); the odds say so.
  if (odds.explodes && Number.isInteger(odds.explode_cap)) {
    chart.append(h("p", { class: "totals-cap", dataset: { cap: odds.explode_cap }, text: t("totals.cap", { n: odds.explode_cap }) }));
  }
  const bars = barsOf(rows);
  const peak = Math.max(...bars.map((r) => r.p));
  const strip = h("div", { class: "totals-bars", "aria-hidden": "true" });
  for (const bar of bars) {
    const totals = bar.last === bar.total ? String(bar.total) : `${bar.total}–${bar.last}`;
    // An exact chance shows its fraction; an estimate only its rounded percent, « environ ».
    const shown = estimate || bar.exact === null ? about(formatPercent(bar.p)) : bar.exact;
    const data = { total: bar.total, ...(bar.last !== bar.total ? { last: bar.last } : {}), ...(estimate || bar.exact === null ? {} : { exact: bar.exact }) };
    const node = h("span", { class: "totals-bar", title: `${totals} — ${shown}`, dataset: data });
    node.style.height = `${((bar.p / peak) * 100).toFixed(2)}%`;
    strip.append(node);
  }
  chart.append(strip, h("div", { class: "totals-axis", "aria-hidden": "true" }, h("span", { text: String(low) }), h("span", { text: String(high) })));

  const table = h("table", { class: "totals-table" });
  table.append(h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("totals.total") }), h("th", { scope: "col", text: t("totals.chance") }), h("th", { scope: "col", text: t("totals.atLeast") }))));
  const body = h("tbody");
  let above = 1;
  for (const row of rows.slice(0, TABLE_ROWS_MAX)) {
    body.append(
      h(
        "tr",
        { dataset: { total: row.total, ...(estimate ? {} : { exact: row.exact }) } },
        h("th", { scope: "row", text: String(row.total) }),
        h("td", { ...(estimate ? {} : { title: row.exact }), text: about(formatPercent(row.p)) }),
        h("td", { text: about(formatPercent(Math.max(0, above))) }),
      ),
    );
    above -= row.p;
  }
  table.append(body);
  chart.append(h("details", { class: "totals-details" }, h("summary", { text: t("totals.table") }), table));
  return chart;
}
