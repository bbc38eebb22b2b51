// "D'où viennent les augmentations ?" — the pool's sources of augmentations and
// diminutions (engine op `sources`): aspect and dark aspect (by light or black Flame, when
// the characteristic is linked), a specialty, the GM's rewards, the plain-roll diminution,
// Éclat. Each source is listed with what it gives and the engine's explanation; one tap
// hands the totals (and the +yDF modifier of Éclat) to a roll form.
//
// Used on a character's sheet (prefilled from the sheet and the chosen skill) and under
// the main roller's pool form.

import { debounce, h } from "../lib/dom.js";
import { SideForm } from "./forms.js";
import { lang, pick, t } from "../lib/i18n.js";
import "./strings.js";
import "../ui/strings.js";

export class SourcesPanel {
  /**
   * @param {object} options
   * @param {object} options.ctx        app context (engine, play(), announce)
   * @param {string} options.prefix     id prefix of the panel's elements ("sources", "roll-sources")
   * @param {string} options.side       SideForm side of its fields ("src" -> #f-src-pool-rewards)
   * @param {object} options.values     raw form values, kept by the caller
   * @param {object} options.ui         remembered UI state ({open})
   * @param {Node[]} [options.before]   extra controls shown above the fields
   * @param {Function} options.onApply  called with the engine's answer when "Apply" is tapped
   * @param {Function} [options.onError] called with a message the panel cannot place
   */
  constructor({ ctx, prefix, side, values, ui, before = [], onApply, onError }) {
    this.ctx = ctx;
    this.prefix = prefix;
    this.onApply = onApply;
    this.onError = onError;
    this.ui = ui;
    this.last = null;
    this.refresh = debounce(() => this.compute(), 150);
    const play = ctx.play();
    const fields = play.sources.fields;
    this.form = new SideForm({ side, system: { id: play.sources.system, fields, outcomes: [] }, values, ui: {}, onInput: () => this.refresh() });
    this.list = h("ul", { class: "sources-list", id: `${prefix}-list` });
    this.totals = h("p", { class: "sources-totals", id: `${prefix}-totals` });
    this.apply = h("button", { type: "button", class: ["button", "button--primary"], id: `${prefix}-apply`, text: t("sources.apply") });
    this.apply.disabled = true;
    this.apply.addEventListener("click", () => {
      if (this.last) this.onApply(this.last);
    });
    this.element = h(
      "details",
      { class: "sources-panel", id: `${prefix}-panel`, open: Boolean(ui.open) },
      h("summary", { text: t("sources.title") }),
      h("p", { class: "panel-hint", text: t("sources.hint") }),
      ...before,
      this.form.element,
      h("h4", { class: "sources-subtitle", text: t("sources.found") }),
      this.list,
      this.totals,
      this.apply,
    );
    this.element.addEventListener("toggle", () => {
      ui.open = this.element.open;
      if (!this.element.open) return;
      // Redraw only if the caller changed the values while it was closed (redrawing would
      // otherwise replace an input the player may already be typing in).
      if (this.stale) this.reload();
      else this.refresh();
      this.stale = false;
    });
    if (ui.open) this.refresh();
  }

  /** The caller changed the values: redraw now if open, else when opened. */
  changed() {
    if (this.element.open) this.reload();
    else this.stale = true;
  }

  /** Redraw the fields after the caller changed the values. */
  reload() {
    this.form.render();
    this.refresh();
  }

  async compute() {
    const form = this.form;
    if (!this.element.isConnected) return;
    const { params, errors } = form.collect({ withFaces: false });
    if (errors.length) {
      for (const error of errors) form.setError(error.field, error.message);
      this.apply.disabled = true;
      return;
    }
    const answer = await this.ctx.engine.call({ op: "sources", params, lang: lang() });
    if (!this.element.isConnected) return;
    if (!answer.ok) {
      if (!form.setError(answer.error.field, answer.error.message)) this.onError?.(answer.error.message);
      this.apply.disabled = true;
      return;
    }
    form.clearErrors();
    const result = answer.result;
    this.last = result;
    const amount = (n, key) => (n ? `${key === "diminutions" ? "−" : "+"}${n} ${t(`sources.unit.${key}`)}` : null);
    this.list.replaceChildren(
      ...(result.sources.length
        ? result.sources.map((source) =>
            h(
              "li",
              { class: "source", dataset: { source: source.id, augmentations: source.augmentations, diminutions: source.diminutions, flameDice: source.flame_dice } },
              h("strong", { class: "source-amount", text: [amount(source.augmentations, "augmentations"), amount(source.diminutions, "diminutions"), amount(source.flame_dice, "flame_dice")].filter(Boolean).join(", ") }),
              h("span", { class: "source-text", text: pick(source.explanations) || source.explanation }),
            ),
          )
        : [h("li", { class: "source source--none", text: t("sources.none") })]),
    );
    this.totals.textContent = t("sources.totals", { aug: result.augmentations, dim: result.diminutions, modifiers: result.modifiers || t("form.none") });
    Object.assign(this.totals.dataset, { augmentations: result.augmentations, diminutions: result.diminutions, modifiers: result.modifiers });
    this.apply.disabled = false;
  }
}

/** The announcement after the totals were applied. */
export function appliedText(result) {
  return t("sources.applied", { aug: result.augmentations, dim: result.diminutions, modifiers: result.modifiers || t("form.none") });
}
