// "Comparer deux choix": two variations of the form's roll, each changing one setting
// (+1 die against +1 augmentation, an exceptional effort or not, ...), their exact odds side
// by side and the difference per tier (engine op `compare`). Which settings may change and
// the two variations offered first come from the engine's `systems` description
// (`compare`); an int setting is changed by an amount added to the form's value, a yes/no
// or a choice is set outright.

import { h } from "../lib/dom.js";
import { formatNumber, pick, t } from "../lib/i18n.js";
import { formatPercent } from "./odds.js";
import { outcomeIcon, outcomeInfo, paint } from "../widgets/outcomes.js";
import "./strings.js";

const SIDES = ["a", "b"];

/** "+2,4 pts": a difference of chances in percentage points, signed. */
function points(p) {
  const n = formatNumber(p * 100, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "exceptZero" });
  return t("compare.points", { n });
}

export class ComparePanel {
  /** @param {{call: Function, ui: object}} options  ui keeps {open, choices: {system: {a, b}}} */
  constructor({ call, ui }) {
    this.call = call;
    this.ui = ui;
    this.ui.choices ??= {};
    this.system = null;
    this.params = null;
    this.seq = 0;
    this.choices = h("div", { class: "compare-choices" });
    this.table = h("table", { class: "gm-table compare-table", id: "compare-table" });
    this.verdict = h("p", { class: "compare-verdict", id: "compare-verdict", "aria-live": "polite" });
    this.message = h("p", { class: "panel-hint", id: "compare-message", hidden: true });
    this.summary = h("summary", {});
    this.hint = h("p", { class: "panel-hint" });
    this.element = h("details", { class: "gm-tool compare-panel", id: "compare-panel", open: Boolean(ui.open) },
      this.summary, this.hint, this.choices, this.message, this.verdict, h("div", { class: "gm-table-scroll" }, this.table));
    this.element.addEventListener("toggle", () => {
      this.ui.open = this.element.open;
      if (this.element.open && this.system) this.redraw();
    });
  }

  /** The form's roll changed (or the language): redrawn and recomputed when open only. */
  update(system, params, valid) {
    if (system !== this.system) this.table.replaceChildren();
    this.system = system;
    this.params = valid ? params : null;
    this.summary.textContent = t("compare.title");
    this.hint.textContent = t("compare.hint");
    this.element.hidden = !system.compare; // a system with nothing to compare
    if (this.element.open) this.redraw();
  }

  redraw() {
    this.drawChoices();
    if (!this.params) this.show(t("compare.invalid"));
    else this.compute();
  }

  /** This system's two choices: remembered, else the engine's preset. */
  sides() {
    const spec = this.system.compare;
    if (!spec) return null;
    const kept = this.ui.choices[this.system.id];
    // Kept choices come from storage (untrusted): a known setting with a sane change or value.
    const valid = (c) => {
      const field = c && typeof c === "object" && spec.fields.includes(c.field) ? this.system.fields.find((f) => f.name === c.field) : null;
      if (!field) return false;
      if (field.type === "int") return Number.isSafeInteger(c.delta) && Math.abs(c.delta) <= 1000;
      if (field.type === "bool") return typeof c.value === "boolean";
      return field.choices.some((choice) => choice.value === c.value);
    };
    if (kept && valid(kept.a) && valid(kept.b)) return kept;
    this.ui.choices[this.system.id] = { a: { ...spec.a }, b: { ...spec.b } };
    return this.ui.choices[this.system.id];
  }

  drawChoices() {
    const sides = this.sides();
    if (!sides) {
      this.choices.replaceChildren();
      return;
    }
    this.choices.replaceChildren(...SIDES.map((side) => this.choiceBox(side, sides[side])));
  }

  choiceBox(side, choice) {
    const system = this.system;
    const id = `compare-${side}`;
    const field = system.fields.find((f) => f.name === choice.field);
    const select = h("select", { id: `${id}-field`, class: "gm-select" },
      ...system.compare.fields.map((name) => h("option", { value: name, text: pick(system.fields.find((f) => f.name === name).label).split(" (")[0] })));
    select.value = choice.field;
    select.addEventListener("change", () => {
      const next = system.fields.find((f) => f.name === select.value);
      choice.field = next.name;
      delete choice.delta;
      delete choice.value;
      if (next.type === "int") choice.delta = 1;
      else if (next.type === "bool") choice.value = !this.base(next);
      else choice.value = next.choices[0].value;
      this.drawChoices();
      this.compute();
      document.getElementById(`${id}-field`)?.focus();
    });
    let control;
    const gives = h("span", { class: "compare-gives", id: `${id}-gives` });
    if (field.type === "int") {
      control = h("input", { id: `${id}-value`, class: "gm-input", type: "number", inputmode: "numeric", step: "1", value: String(choice.delta ?? 0), "aria-describedby": `${id}-gives` });
      const show = () => {
        gives.textContent = `→ ${pick(field.label).split(" (")[0]} ${this.variant(choice)[field.name]}`;
      };
      control.addEventListener("input", () => {
        if (/^[-+]?\d+$/.test(control.value.trim())) {
          choice.delta = Number.parseInt(control.value, 10);
          show();
          this.compute();
        }
      });
      if (this.params) show();
    } else {
      const options = field.type === "bool"
        ? [[true, t("compare.yes")], [false, t("compare.no")]]
        : field.choices.map((c) => [c.value, pick(c.label)]);
      control = h("select", { id: `${id}-value`, class: "gm-select" }, ...options.map(([v, label]) => h("option", { value: String(v), text: label })));
      control.value = String(choice.value ?? this.base(field));
      control.addEventListener("change", () => {
        choice.value = options.find(([v]) => String(v) === control.value)[0];
        this.compute();
      });
    }
    const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
    return h(
      "fieldset",
      { class: "compare-choice", dataset: { side } },
      h("legend", { text: t("compare.choice", { side: side.toUpperCase() }) }),
      h("label", { for: `${id}-field`, text: t("compare.field") }),
      select,
      h("label", { for: `${id}-value`, text: t(field.type === "int" ? "compare.delta" : "compare.value") }),
      h("span", { class: "compare-control" }, control, gives),
      error,
    );
  }

  base(field) {
    return this.params?.[field.name] ?? field.default;
  }

  /** The form's params with one choice applied. */
  variant(choice) {
    const field = this.system.fields.find((f) => f.name === choice.field);
    const value = field.type === "int" ? Number(this.base(field) ?? 0) + Number(choice.delta ?? 0) : choice.value;
    return { ...this.params, [choice.field]: value };
  }

  show(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
    if (text) {
      this.verdict.textContent = "";
      this.table.replaceChildren();
    }
  }

  async compute() {
    if (!this.element.open || !this.params || !this.system?.compare) return;
    const sides = this.sides();
    const seq = ++this.seq;
    const answer = await this.call({ op: "compare", system: this.system.id, a: this.variant(sides.a), b: this.variant(sides.b) });
    if (seq !== this.seq) return;
    for (const side of SIDES) {
      const box = document.getElementById(`compare-${side}-error`);
      if (box) box.hidden = true;
    }
    if (!answer.ok) {
      const side = String(answer.error.field || "").split(".")[0];
      const box = document.getElementById(`compare-${side}-error`);
      if (box) {
        box.textContent = answer.error.message;
        box.hidden = false;
        this.show("");
        this.verdict.textContent = "";
        this.table.replaceChildren();
      } else this.show(answer.error.message);
      return;
    }
    this.show("");
    this.draw(answer.result);
  }

  draw(result) {
    const system = this.system;
    const head = h("tr", {}, h("th", { scope: "col", text: t("compare.tier") }), h("th", { scope: "col", text: "A" }), h("th", { scope: "col", text: "B" }), h("th", { scope: "col", text: t("compare.diff") }));
    const cell = (row, id) => h("td", { title: row.exact[id], text: formatPercent(row.probabilities[id]) });
    const diffCell = (exact, p) => h("td", { class: ["compare-diff", p > 0 ? "is-up" : p < 0 ? "is-down" : ""], title: exact, dataset: { exact }, text: exact === "0" ? "=" : points(p) });
    const rows = system.outcomes.map((o) => {
      const info = outcomeInfo(system, o.id);
      const tr = h("tr", { dataset: { outcome: o.id } },
        h("th", { scope: "row" }, h("span", { class: "compare-tier" }, outcomeIcon(info.icon), h("span", { text: info.label }))),
        cell(result.a, o.id), cell(result.b, o.id), diffCell(result.difference[o.id], result.difference_probabilities[o.id]));
      paint(tr, info);
      return tr;
    });
    const success = h("tr", { class: "compare-success", dataset: { outcome: "success" } },
      h("th", { scope: "row", text: t("compare.success") }),
      h("td", { title: result.a.success, text: formatPercent(result.a.success_probability) }),
      h("td", { title: result.b.success, text: formatPercent(result.b.success_probability) }),
      diffCell(result.success_difference, result.success_difference_probability));
    this.table.replaceChildren(h("thead", {}, head), h("tbody", {}, ...rows, success));
    const d = result.success_difference_probability;
    this.verdict.textContent = result.success_difference === "0" ? t("compare.same")
      : t(d > 0 ? "compare.better" : "compare.worse", { d: points(Math.abs(d)).replace(/^\+/, "") });
    this.element.dataset.successDifference = result.success_difference;
  }
}
