// "Comparer deux choix": two variations of the form's roll, each changing one setting
// (+1 die against +1 augmentation, an exceptional effort or not, ...), their exact odds side
// by side and the difference per tier (engine op `compare`). Which settings may change and
// the two variations offered first come from the engine's `systems` description
// (`compare`); an int setting is changed by an amount added to the form's value, a yes/no
// or a choice is set outright.

import { h } from "../../lib/dom.js";
import { addStrings, formatNumber, pick, t } from "../../lib/i18n.js";
import { formatPercent } from "../../lib/numbers.js";
import { outcomeIcon, outcomeInfo, paint } from "../outcomes.js";
import "./strings.js";

const SIDES = ["a", "b"];

addStrings({
  fr: {
    "compare.effect.helps": "(favorable)",
    "compare.effect.hurts": "(défavorable)",
    "compare.mean": "Moyenne",
    "compare.meanCount": "Réussites en moyenne",
    "compare.atLeastOne": "Au moins une réussite",
    "compare.higher.b": "B fait plus que A",
    "compare.higher.a": "A fait plus que B",
    "compare.higher.tie": "Égalité",
    "compare.sumMore": "En moyenne, le choix B fait {d} de plus que le choix A ; B fait plus que A dans {p} des jets.",
    "compare.sumLess": "En moyenne, le choix B fait {d} de moins que le choix A ; B fait plus que A dans {p} des jets.",
    "compare.sumSame": "Les deux choix ont la même moyenne ; B fait plus que A dans {p} des jets.",
    "compare.countMore": "Le choix B donne {d} de chances d’au moins une réussite de plus que le choix A.",
    "compare.countLess": "Le choix B donne {d} de chances d’au moins une réussite de moins que le choix A.",
    "compare.countSame": "Les deux choix donnent exactement la même chance d’au moins une réussite.",
  },
  en: {
    "compare.effect.helps": "(helps)",
    "compare.effect.hurts": "(hurts)",
    "compare.mean": "Mean",
    "compare.meanCount": "Mean successes",
    "compare.atLeastOne": "At least one success",
    "compare.higher.b": "B rolls higher than A",
    "compare.higher.a": "A rolls higher than B",
    "compare.higher.tie": "Tie",
    "compare.sumMore": "On average, choice B rolls {d} more than choice A; B rolls higher than A in {p} of throws.",
    "compare.sumLess": "On average, choice B rolls {d} less than choice A; B rolls higher than A in {p} of throws.",
    "compare.sumSame": "Both choices have the same mean; B rolls higher than A in {p} of throws.",
    "compare.countMore": "Choice B gives {d} more chance of at least one success than choice A.",
    "compare.countLess": "Choice B gives {d} less chance of at least one success than choice A.",
    "compare.countSame": "Both choices give exactly the same chance of at least one success.",
  },
});

/**
 * Whether a difference p (B − A) in the chance of an outcome helps the roller: more chance
 * of an outcome the engine counts as a success helps, more chance of a failure hurts (and
 * less of it helps). success: the outcome's `success` in the engine's description (the
 * "chance of success" row: true). Returns "helps", "hurts" or "same".
 */
export function effect(success, p) {
  if (!Number.isFinite(p) || p === 0) return "same";
  return p > 0 === Boolean(success) ? "helps" : "hurts";
}

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

  /**
   * Free dice (the engine's `kind`): a sum is no success test, so the table gives each
   * choice's mean and who rolls higher; a count adds the chance of at least one success.
   */
  drawTotals(result) {
    const head = h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: "A" }), h("th", { scope: "col", text: "B" }), h("th", { scope: "col", text: t("compare.diff") }));
    const number = (n, sign) => formatNumber(n, { maximumFractionDigits: 2, ...(sign ? { signDisplay: "exceptZero" } : {}) });
    const row = (key, cells) => h("tr", { dataset: { row: key } }, ...cells);
    const rows = [row("mean", [
      h("th", { scope: "row", text: t(result.kind === "count" ? "compare.meanCount" : "compare.mean") }),
      h("td", { title: result.a.mean, text: number(result.a.mean_value) }),
      h("td", { title: result.b.mean, text: number(result.b.mean_value) }),
      // More or less of a sum is neither good nor bad in itself (damage, a loot table...).
      h("td", { class: ["compare-diff", "is-same"], title: result.mean_difference, dataset: { exact: result.mean_difference, effect: "same" }, text: result.mean_difference === "0" ? "=" : number(result.mean_difference_value, true) }),
    ])];
    if (result.kind === "count") {
      const d = result.success_difference;
      const how = d === "0" ? "same" : effect(true, result.success_difference_probability);
      rows.push(row("success", [
        h("th", { scope: "row", text: t("compare.atLeastOne") }),
        h("td", { title: result.a.at_least_one, text: formatPercent(result.a.at_least_one_probability) }),
        h("td", { title: result.b.at_least_one, text: formatPercent(result.b.at_least_one_probability) }),
        h("td", { class: ["compare-diff", `is-${how}`], title: d, dataset: { exact: d, effect: how }, text: d === "0" ? "=" : points(result.success_difference_probability) }),
      ]));
    }
    for (const side of ["b", "a", "tie"]) {
      rows.push(row(`higher-${side}`, [
        h("th", { scope: "row", text: t(`compare.higher.${side}`) }),
        h("td", { colspan: "3", title: result.higher[side], text: formatPercent(result.higher_probabilities[side]) }),
      ]));
    }
    this.table.replaceChildren(h("thead", {}, head), h("tbody", {}, ...rows));
    if (result.kind === "count") {
      const d = result.success_difference_probability;
      this.verdict.textContent = result.success_difference === "0" ? t("compare.countSame")
        : t(d > 0 ? "compare.countMore" : "compare.countLess", { d: points(Math.abs(d)).replace(/^\+/, "") });
    } else {
      const m = result.mean_difference_value;
      const p = formatPercent(result.higher_probabilities.b);
      this.verdict.textContent = result.mean_difference === "0" ? t("compare.sumSame", { p })
        : t(m > 0 ? "compare.sumMore" : "compare.sumLess", { d: number(Math.abs(m)), p });
    }
    this.element.dataset.kind = result.kind;
    this.element.dataset.meanDifference = result.mean_difference;
    this.element.dataset.successDifference = result.success_difference ?? "";
  }

  draw(result) {
    if (result.kind) {
      this.drawTotals(result);
      return;
    }
    delete this.element.dataset.kind;
    const system = this.system;
    const head = h("tr", {}, h("th", { scope: "col", text: t("compare.tier") }), h("th", { scope: "col", text: "A" }), h("th", { scope: "col", text: "B" }), h("th", { scope: "col", text: t("compare.diff") }));
    const cell = (row, id) => h("td", { title: row.exact[id], text: formatPercent(row.probabilities[id]) });
    // Green when the difference helps the roller, red when it hurts (not by its sign).
    const diffCell = (exact, p, success) => {
      const how = exact === "0" ? "same" : effect(success, p);
      const td = h("td", { class: ["compare-diff", `is-${how}`], title: exact, dataset: { exact, effect: how }, text: exact === "0" ? "=" : points(p) });
      if (how !== "same") td.append(" ", h("span", { class: "visually-hidden", text: t(`compare.effect.${how}`) }));
      return td;
    };
    const rows = system.outcomes.map((o) => {
      const info = outcomeInfo(system, o.id);
      const tr = h("tr", { dataset: { outcome: o.id } },
        h("th", { scope: "row" }, h("span", { class: "compare-tier" }, outcomeIcon(info.icon), h("span", { text: info.label }))),
        cell(result.a, o.id), cell(result.b, o.id), diffCell(result.difference[o.id], result.difference_probabilities[o.id], o.success));
      paint(tr, info);
      return tr;
    });
    const success = h("tr", { class: "compare-success", dataset: { outcome: "success" } },
      h("th", { scope: "row", text: t("compare.success") }),
      h("td", { title: result.a.success, text: formatPercent(result.a.success_probability) }),
      h("td", { title: result.b.success, text: formatPercent(result.b.success_probability) }),
      diffCell(result.success_difference, result.success_difference_probability, true));
    this.table.replaceChildren(h("thead", {}, head), h("tbody", {}, ...rows, success));
    const d = result.success_difference_probability;
    this.verdict.textContent = result.success_difference === "0" ? t("compare.same")
      : t(d > 0 ? "compare.better" : "compare.worse", { d: points(Math.abs(d)).replace(/^\+/, "") });
    this.element.dataset.successDifference = result.success_difference;
  }
}
