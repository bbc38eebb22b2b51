// "Courbe des chances": the chance of each outcome tier of the form's roll as one of its
// fields sweeps its range (engine op `sweep`; which fields may be swept comes from the
// engine's `systems` description). Drawn as stacked bands in an SVG made here: the
// successes at the bottom, so the top of the last success band is the chance of success,
// read against the 50 % line. The current value is marked; the engine says which value
// gives an even chance, in words under the chart. The chart is a slider for keyboard and
// screen readers (arrows move the examined value, its chances are read out), a tap picks
// a value, and every number is in the table under it.

import { h, s } from "../../lib/dom.js";
import { formatNumber, pick, t } from "../../lib/i18n.js";
import { formatPercent } from "../../lib/numbers.js";
import { outcomeInfo, paint } from "../outcomes.js";
import "./strings.js";

// The drawing's size follows the chart's width on screen, so that its text stays readable
// from a phone to a landscape tablet.
const size = (width) => {
  const w = Math.round(Math.min(720, Math.max(280, width || 360)));
  return [w, Math.round(Math.min(300, Math.max(190, w * 0.5)))];
};
const PAD = { left: 40, right: 10, top: 10, bottom: 34 };

const fieldOf = (system, name) => system.fields.find((f) => f.name === name);
const fieldLabel = (system, name) => pick(fieldOf(system, name)?.label ?? { fr: name, en: name }).split(" (")[0];

/** The sentence that answers "which value gives 50 %?" from the engine's `half`. */
export function halfText(system, answer) {
  const field = fieldLabel(system, answer.field);
  const chance = (value) => formatPercent(answer.rows.find((r) => r.value === value).success_probability);
  const { half } = answer;
  const nearest = { field, value: half.nearest, p: chance(half.nearest) };
  if (half.exact.length) return t("curve.exact", { field, values: half.exact.join(", ") });
  if (half.between.length) {
    const [a, b] = half.between[0];
    return `${t("curve.between", { field, a, b, pa: chance(a), pb: chance(b) })} ${t("curve.nearest", nearest)}`;
  }
  return t("curve.none", nearest);
}

export class CurvePanel {
  /** @param {{call: Function, ui: object}} options  ui keeps {open, field: {system: name}} */
  constructor({ call, ui }) {
    this.call = call;
    this.ui = ui;
    this.ui.field ??= {};
    this.system = null;
    this.params = null;
    this.answer = null;
    this.cursor = null;
    this.seq = 0;
    this.select = h("select", { id: "curve-field", class: "gm-select" });
    this.select.addEventListener("change", () => {
      this.ui.field[this.system.id] = this.select.value;
      this.compute();
    });
    this.halfLine = h("p", { class: "curve-half", id: "curve-half", "aria-live": "polite" });
    this.svg = s("svg", { class: "curve-svg", id: "curve-svg", role: "slider", tabindex: "0", "aria-orientation": "horizontal" });
    this.svg.addEventListener("keydown", (event) => this.key(event));
    this.svg.addEventListener("pointerdown", (event) => this.pointer(event));
    this.readout = h("p", { class: "curve-readout", id: "curve-readout", "aria-live": "polite" });
    this.legend = h("ul", { class: "curve-legend", "aria-hidden": "true" });
    this.table = h("table", { class: "gm-table curve-table", id: "curve-table" });
    this.message = h("p", { class: "panel-hint curve-message", id: "curve-message", hidden: true });
    this.body = h("div", { class: "curve-body" }, this.halfLine, this.svg, this.legend, this.readout,
      h("details", { class: "curve-numbers" }, h("summary", { "data-text": "curve.numbers" }), h("div", { class: "gm-table-scroll" }, this.table)));
    this.summary = h("summary", {});
    this.hint = h("p", { class: "panel-hint" });
    this.fieldLabel = h("label", { for: "curve-field" });
    this.element = h("details", { class: "gm-tool curve-panel", id: "curve-panel", open: Boolean(ui.open) },
      this.summary, this.hint, h("div", { class: "gm-row" }, this.fieldLabel, this.select), this.message, this.body);
    this.element.addEventListener("toggle", () => {
      this.ui.open = this.element.open;
      this.lockField();
      if (this.element.open && !this.answer) this.compute();
    });
    let width = 0;
    window.addEventListener("resize", () => {
      if (this.element.open && this.answer && this.svg.clientWidth !== width) {
        width = this.svg.clientWidth;
        this.draw();
      }
    });
    this.texts();
  }

  texts() {
    this.summary.textContent = t("curve.title");
    this.hint.textContent = t("curve.hint");
    this.fieldLabel.textContent = t("curve.field");
    this.svg.setAttribute("aria-label", t("curve.examined"));
    for (const node of this.element.querySelectorAll("[data-text]")) node.textContent = t(node.dataset.text);
  }

  /** The form's roll changed (or the language): recompute when open, else on opening. */
  update(system, params, valid) {
    const changed = system !== this.system;
    this.system = system;
    this.texts();
    if (changed) this.fillFields();
    if (!valid) {
      this.showMessage(t("curve.invalid"));
      return;
    }
    const same = JSON.stringify(params) === JSON.stringify(this.params) && this.answer && !changed;
    this.params = params;
    if (same) this.draw();
    else if (this.element.open) this.compute();
    else this.answer = null;
  }

  fillFields() {
    const sweeps = this.system.sweep || [];
    this.select.replaceChildren(...sweeps.map((spec) => h("option", { value: spec.field, text: fieldLabel(this.system, spec.field) })));
    const kept = this.ui.field[this.system.id];
    if (sweeps.some((spec) => spec.field === kept)) this.select.value = kept;
    this.lockField();
    this.element.hidden = sweeps.length === 0; // a system with nothing to sweep
    this.answer = null;
    this.cursor = null;
  }

  /**
   * One field only can vary: its select shows it, disabled, but only while the panel is open.
   * In Chromium, a select disabled as it was built inside the closed <details> kept the page
   * drawing a frame every 16 ms, idle (a tablet's battery; tests/browser/test_idle.py).
   */
  lockField() {
    this.select.disabled = this.element.open && this.select.options.length < 2;
  }

  showMessage(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
    this.body.hidden = Boolean(text);
  }

  async compute() {
    if (!this.system || !this.params || !this.element.open) return;
    if (!this.select.value) {
      this.showMessage(t("curve.none.fields"));
      return;
    }
    const seq = ++this.seq;
    const field = this.select.value;
    const answer = await this.call({ op: "sweep", system: this.system.id, params: this.params, field });
    if (seq !== this.seq) return;
    if (!answer.ok) {
      this.showMessage(answer.error.message);
      return;
    }
    this.showMessage("");
    // Another field or a new current value: the examined value goes back to the current one.
    if (this.answer?.field !== field || this.answer?.current !== answer.result.current) this.cursor = null;
    this.answer = answer.result;
    const values = this.answer.rows.map((r) => r.value);
    if (!values.includes(this.cursor)) this.cursor = this.answer.current;
    this.draw();
  }

  draw() {
    const answer = this.answer;
    if (!answer || !this.system) return;
    const system = this.system;
    const rows = answer.rows;
    const field = fieldLabel(system, answer.field);
    const half = halfText(system, answer);
    this.halfLine.textContent = half;
    this.element.dataset.field = answer.field;
    this.element.dataset.half = String(answer.half.nearest);
    this.drawChart(system, rows, answer.current);
    this.drawLegend(system);
    this.drawTable(system, rows, answer.current, field);
    const first = rows[0].value;
    const last = rows[rows.length - 1].value;
    this.svg.setAttribute("aria-valuemin", String(first));
    this.svg.setAttribute("aria-valuemax", String(last));
    this.svg.setAttribute("aria-description", t("curve.summary", { field, from: first, to: last, half }));
    this.moveCursor(this.cursor ?? answer.current);
  }

  drawChart(system, rows, current) {
    const [W, H] = size(this.svg.clientWidth);
    this.width = W;
    this.svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const x0 = PAD.left;
    const x1 = W - PAD.right;
    const y0 = H - PAD.bottom;
    const y1 = PAD.top;
    const values = rows.map((r) => r.value);
    const lo = values[0];
    const hi = values[values.length - 1];
    this.xOf = (v) => (hi === lo ? (x0 + x1) / 2 : x0 + ((v - lo) / (hi - lo)) * (x1 - x0));
    const yOf = (p) => y0 - p * (y0 - y1);
    // Bands from the bottom: the best success first, the worst failure last.
    const order = [...system.outcomes.filter((o) => o.success), ...system.outcomes.filter((o) => !o.success).reverse()];
    const below = rows.map(() => 0);
    const nodes = [];
    for (const outcome of order) {
      const above = rows.map((r, i) => below[i] + (r.probabilities[outcome.id] ?? 0));
      const top = rows.map((r, i) => `${this.xOf(r.value).toFixed(1)},${yOf(above[i]).toFixed(1)}`);
      const bottom = rows.map((r, i) => `${this.xOf(r.value).toFixed(1)},${yOf(below[i]).toFixed(1)}`).reverse();
      nodes.push(s("polygon", { class: "curve-band", points: [...top, ...bottom].join(" "), fill: outcomeInfo(system, outcome.id).colour, "data-outcome": outcome.id }));
      above.forEach((v, i) => {
        below[i] = v;
      });
    }
    const grid = [0, 0.25, 0.5, 0.75, 1].flatMap((p) => [
      s("line", { class: p === 0.5 ? "curve-half-line" : "curve-grid", x1: x0, x2: x1, y1: yOf(p), y2: yOf(p) }),
      s("text", { class: "curve-tick", x: x0 - 4, y: yOf(p) + 4, "text-anchor": "end", text: formatNumber(p, { style: "percent" }) }),
    ]);
    const every = Math.ceil(rows.length / 10);
    const ticks = rows
      .filter((r, i) => i % every === 0 || r.value === current)
      .map((r) => s("text", { class: ["curve-tick", r.value === current ? "is-current" : ""], x: this.xOf(r.value), y: y0 + 14, "text-anchor": "middle", text: String(r.value) }));
    const success = rows.map((r) => `${this.xOf(r.value).toFixed(1)},${yOf(r.success_probability).toFixed(1)}`).join(" ");
    const dots = rows.map((r) => s("circle", { class: "curve-dot", cx: this.xOf(r.value), cy: yOf(r.success_probability), r: 2.5 }));
    const cx = this.xOf(current);
    this.cursorLine = s("line", { class: "curve-cursor", y1: y1, y2: y0 });
    this.svg.replaceChildren(
      ...nodes,
      ...grid,
      s("polyline", { class: "curve-success", points: success }),
      ...dots,
      s("line", { class: "curve-current", id: "curve-current", x1: cx, x2: cx, y1: y1, y2: y0, "data-value": String(current) }),
      s("text", { class: "curve-current-label", x: Math.min(Math.max(cx, x0 + 20), x1 - 20), y: H - 4, "text-anchor": "middle", text: t("curve.current") }),
      this.cursorLine,
      ...ticks,
    );
  }

  drawLegend(system) {
    this.legend.replaceChildren(
      ...system.outcomes.map((o) => {
        const item = h("li", { class: "curve-key" }, h("span", { class: "curve-swatch" }), h("span", { text: pick(o.label) }));
        paint(item, outcomeInfo(system, o.id));
        return item;
      }),
      h("li", { class: "curve-key curve-key--success" }, h("span", { class: "curve-swatch" }), h("span", { text: t("curve.success") })),
    );
  }

  drawTable(system, rows, current, field) {
    const head = h("tr", {}, h("th", { scope: "col", text: field }), ...system.outcomes.map((o) => h("th", { scope: "col", text: pick(o.label) })), h("th", { scope: "col", text: t("curve.success") }));
    const body = rows.map((r) =>
      h(
        "tr",
        { class: r.value === current ? "is-current" : "", "aria-current": r.value === current ? "true" : null, dataset: { value: String(r.value), success: r.success } },
        h("th", { scope: "row", text: r.value === current ? `${r.value} (${t("curve.current")})` : String(r.value) }),
        ...system.outcomes.map((o) => h("td", { title: r.exact[o.id], dataset: { exact: r.exact[o.id] }, text: formatPercent(r.probabilities[o.id]) })),
        h("td", { class: "curve-success-cell", title: r.success, text: formatPercent(r.success_probability) }),
      ),
    );
    this.table.replaceChildren(h("thead", {}, head), h("tbody", {}, ...body));
  }

  /** Examine one value: the cursor line, the slider's value and the read-out. */
  moveCursor(value) {
    const answer = this.answer;
    const row = answer.rows.find((r) => r.value === value) || answer.rows[0];
    this.cursor = row.value;
    const x = this.xOf(row.value);
    for (const [k, v] of [["x1", x], ["x2", x]]) this.cursorLine.setAttribute(k, String(v));
    const tiers = this.system.outcomes
      .filter((o) => (row.probabilities[o.id] ?? 0) > 0)
      .map((o) => `${pick(o.label)} ${formatPercent(row.probabilities[o.id])}`)
      .join(", ");
    const text = t("curve.at", {
      field: fieldLabel(this.system, answer.field),
      value: row.value,
      current: row.value === answer.current ? ` (${t("curve.current")})` : "",
      p: formatPercent(row.success_probability),
      tiers,
    });
    this.readout.textContent = text;
    this.svg.setAttribute("aria-valuenow", String(row.value));
    this.svg.setAttribute("aria-valuetext", text);
    this.svg.dataset.cursor = String(row.value);
  }

  key(event) {
    if (!this.answer) return;
    const values = this.answer.rows.map((r) => r.value);
    const i = values.indexOf(this.cursor);
    const moves = { ArrowRight: i + 1, ArrowUp: i + 1, ArrowLeft: i - 1, ArrowDown: i - 1, Home: 0, End: values.length - 1, PageUp: i + 5, PageDown: i - 5 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    this.moveCursor(values[Math.max(0, Math.min(values.length - 1, moves[event.key]))]);
  }

  pointer(event) {
    if (!this.answer) return;
    const box = this.svg.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * this.width;
    let best = this.answer.rows[0].value;
    for (const r of this.answer.rows) if (Math.abs(this.xOf(r.value) - x) < Math.abs(this.xOf(best) - x)) best = r.value;
    this.moveCursor(best);
  }
}
