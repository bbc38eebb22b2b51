// Quick rolls from the sheet (the app's dice or the player's own), and the d6 efforts they
// spend. Methods of CharactersView (view.js mixes them in). A quick roll is the contract's
// sheet roll ({"sheet": {character, entry, situation}}: the engine builds the params and
// spends an effort), sent through the roll pipeline (widgets/pipeline.js): one call a tap.

import { h } from "../lib/dom.js";
import { SideForm } from "../widgets/forms.js";
import { lang, t } from "../lib/i18n.js";
import { renderRoll } from "../widgets/result.js";
import { flash } from "../ui/ui.js";
import { showRolled } from "../widgets/result-card.js";
import { formSystem } from "./formdata.js";
import { effortState } from "./sheet.js";
import "./strings.js";

/** The params of a quick roll: the sheet, the entry's id and what the situation form holds. */
export function sheetRoll(character, entry, situation = {}) {
  const kept = Object.fromEntries(Object.entries(situation || {}).filter(([, v]) => v !== null && v !== undefined && v !== ""));
  return { sheet: { character, entry: entry.id, ...(Object.keys(kept).length ? { situation: kept } : {}) } };
}

export class QuickPart {
  async effortAction(character, action) {
    character = this.byId(character.id) || character;
    const state = effortState(this.system(character.system), character);
    const answer = await this.ctx.engine.call({ ...state.request(action), lang: lang() });
    if (!answer.ok) {
      flash(this.quickError, answer.error.message, "error");
      return;
    }
    const updated = { ...character, stats: { ...character.stats, [state.usedKey]: answer.result.used }, updated: new Date().toISOString() };
    try {
      await this.put(updated);
    } catch (error) {
      this.storageFailed(this.quickError, error);
      return;
    }
    this.knowEfforts(updated, this.system(updated.system), answer.result); // the redraw shows this answer
    this.render();
    this.ctx.announce(t("efforts.restored", { total: answer.result.per_day }));
    document.getElementById("efforts-rest")?.focus();
  }

  async quickRoll(character, entry) {
    if (this.ctx.pipeline.rolling("quick")) return; // a second tap: the roll in flight is the one
    character = this.byId(character.id) || character;
    const system = this.system(character.system);
    const form = this.situationForm;
    this.quickError.hidden = true;
    const { params: situation, errors } = form.collect({ withFaces: false });
    if (errors.length) {
      for (const error of errors) form.setError(error.field, error.message);
      form.focusField(errors[0].field);
      return;
    }
    const params = sheetRoll(character, entry, situation);
    if (this.quickPhysical) await this.askFaces(character, entry, system, params);
    else await this.rollEntry(character, entry, system, params);
  }

  /** Physical dice: the faces boxes of the dice this roll needs, in the result area. */
  async askFaces(character, entry, system, params) {
    const plan = await this.ctx.engine.call({ op: "dice", system: system.id, params, lang: lang() });
    if (!plan.ok) {
      flash(this.quickError, t("quick.error", { label: entry.label, message: plan.error.message }), "error");
      return;
    }
    const facesForm = new SideForm({
      side: "quick",
      system: formSystem(system.id, system.fields.filter((f) => f.type === "faces")),
      values: {},
      ui: {},
      onInput: () => {},
    });
    facesForm.setPhysical(true);
    facesForm.setDiceGroups(plan.result.groups);
    const submit = h("button", { type: "submit", class: ["button", "button--primary"], id: "quick-faces-roll", text: t("quick.facesRoll") });
    const cancel = h("button", { type: "button", class: "button", id: "quick-faces-cancel", text: t("quick.facesCancel") });
    const box = h(
      "form",
      { class: "quick-faces", id: "quick-faces", dataset: { entry: entry.id }, novalidate: true },
      h("p", { class: "quick-title", text: t("quick.title", { name: character.name, label: entry.label }) }),
      facesForm.element,
      h("div", { class: "quick-faces-actions" }, submit, cancel),
    );
    box.addEventListener("submit", (event) => {
      event.preventDefault();
      const { params: faces, errors } = facesForm.collect({ withFaces: true });
      if (errors.length) {
        for (const error of errors) facesForm.setError(error.field, error.message);
        facesForm.focusField(errors[0].field);
        return;
      }
      this.rollEntry(character, entry, system, params, facesForm, faces);
    });
    cancel.addEventListener("click", () => {
      this.quickResult.replaceChildren();
      this.root.querySelector(`.entry-roll[data-entry="${entry.id}"]`)?.focus();
    });
    this.quickResult.replaceChildren(box);
    this.quickResult.dataset.entry = entry.id;
    delete this.quickResult.dataset.outcome;
    box.querySelector("input")?.focus();
  }

  /**
   * Roll `entry` with `params` (the contract's sheet roll: the engine builds the params from the
   * sheet, the entry and the situation, and spends a d6 exceptional effort the situation asks
   * for): one engine call through the pipeline, the RNG with the page's seed, or the faces
   * typed in `facesForm` beside the sheet (physical dice; a wrong face is shown by its box).
   * The answer carries the sheet with the effort spent, which is stored.
   */
  async rollEntry(character, entry, system, params, facesForm = null, faces = null) {
    const request = { op: "roll", system: system.id, params: faces ? { ...params, ...faces } : params, lang: lang() };
    const who = { id: character.id, name: character.name, label: entry.label };
    const done = await this.ctx.pipeline.roll(request, who, {
      origin: "quick",
      physical: Boolean(facesForm),
      present: ({ answer }) => this.showQuick(character, entry, system, answer.result),
    });
    if (done && !done.answer.ok) this.quickRefused(entry, done.answer.error, facesForm);
  }

  /** A refused quick roll: the error by its field (situation or faces), else on the error line. */
  quickRefused(entry, error, facesForm) {
    const form = this.situationForm;
    // The refusal replaces the last roll's result: it must not read as this roll's.
    if (!facesForm) {
      this.quickResult.replaceChildren();
      delete this.quickResult.dataset.outcome;
    }
    const field = error.field;
    const local = field?.startsWith("situation.") ? field.slice("situation.".length) : field;
    if (!(local && (facesForm?.setError(local, error.message) || form.setError(local, error.message)))) {
      flash(this.quickError, t("quick.error", { label: entry.label, message: error.message }), "error");
      this.ctx.announce(error.message);
    }
    if (local && facesForm?.hasError(local)) facesForm.focusField(local);
  }

  /** The quick roll's result area: its dice thrown; resolves once they have landed. */
  async showQuick(character, entry, system, result) {
    if (result.character) await this.keepSpent(result.character, result.efforts);
    const view = renderRoll(system, result);
    const title = h("p", { class: "quick-title", text: t("quick.title", { name: character.name, label: entry.label }) });
    this.quickResult.dataset.outcome = result.outcome;
    this.quickResult.dataset.entry = entry.id;
    return new Promise((resolve) => {
      showRolled(this.quickResult, view, {
        before: [title],
        announce: (text, again) => {
          const who = (said) => t("quick.announce", { name: character.name, label: entry.label, text: said });
          this.ctx.announce(who(text), again && (() => who(again())));
        },
        onLanded: resolve,
      });
    });
  }

  /** The sheet the engine answered after spending an effort: stored, and its efforts box redrawn from the answer's `efforts`. */
  async keepSpent(updated, efforts) {
    try {
      await this.put(updated);
    } catch (error) {
      // The roll stands; the spent effort could not be written (the notice says why).
      this.storageFailed(this.quickError?.isConnected ? this.quickError : this.message, error);
      return;
    }
    this.renderAfterEffort(updated, efforts);
  }

  /**
   * Redraw the efforts box and the sheet's "used" figure (keeps the result area) from the
   * engine's answer: its `efforts` ({per_day, used, available}, as the `effort` op counts them).
   */
  renderAfterEffort(updated, efforts) {
    const system = this.system(updated.system);
    this.knowEfforts(updated, system, efforts);
    const old = document.getElementById("efforts");
    if (!old || !efforts || this.selected?.id !== updated.id) return;
    old.replaceWith(this.effortsBox(updated, system, { ok: true, result: efforts }));
    const usedKey = effortState(system, updated).usedKey;
    const cell = this.root.querySelector(`.sheet-stat[data-stat="${usedKey}"] dd`);
    if (cell) cell.textContent = String(updated.stats?.[usedKey] ?? "");
  }
}
