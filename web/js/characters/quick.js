// Quick rolls from the sheet (the app's dice or the player's own), and the d6 efforts they
// spend. Methods of CharactersView (view.js mixes them in).

import { h } from "../lib/dom.js";
import { SideForm } from "../widgets/forms.js";
import { entryFrom } from "../widgets/entry.js";
import { lang, t } from "../lib/i18n.js";
import { renderRoll } from "../widgets/result.js";
import { flash } from "../ui/ui.js";
import { showRolled } from "../widgets/result-card.js";
import { formSystem } from "./formdata.js";
import { effortState, rollParams } from "./sheet.js";
import "./strings.js";

export class QuickPart {
  /** Spend an exceptional effort if the params ask for one: {ok, commit()} or {ok:false, message}. */
  async effortFor(character, params) {
    character = this.byId(character.id) || character; // the sheet may be older than the last spend
    const state = effortState(this.system(character.system), character);
    if (!state || !params[state.param]) return { ok: true, commit: async () => {} };
    const answer = await this.ctx.engine.call({ ...state.request("use"), lang: lang() });
    if (!answer.ok) return { ok: false, message: answer.error.message };
    return {
      ok: true,
      spent: answer.result,
      commit: async () => {
        const fresh = this.byId(character.id) || character;
        const updated = { ...fresh, stats: { ...fresh.stats, [state.usedKey]: answer.result.used }, updated: new Date().toISOString() };
        try {
          await this.put(updated);
        } catch (error) {
          // The roll stands; the spent effort could not be written (the notice says why).
          this.storageFailed(this.quickError?.isConnected ? this.quickError : this.message, error);
        }
      },
    };
  }

  async effortAction(character, action) {
    character = this.byId(character.id) || character;
    const state = effortState(this.system(character.system), character);
    const answer = await this.ctx.engine.call({ ...state.request(action), lang: lang() });
    if (!answer.ok) {
      flash(this.quickError, answer.error.message, "error");
      return;
    }
    try {
      await this.put({ ...character, stats: { ...character.stats, [state.usedKey]: answer.result.used }, updated: new Date().toISOString() });
    } catch (error) {
      this.storageFailed(this.quickError, error);
      return;
    }
    this.render();
    this.ctx.announce(t("efforts.restored", { total: answer.result.per_day }));
    document.getElementById("efforts-rest")?.focus();
  }

  async quickRoll(character, entry) {
    if (this.busy) return;
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
    const params = rollParams(system, character, entry, situation);
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
      this.rollEntry(character, entry, system, { ...params, ...faces }, facesForm);
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
   * Roll `entry` with `params`: the RNG (the page's seed), or the faces already in params
   * (physical dice, typed in `facesForm`, where a wrong face is then shown).
   */
  async rollEntry(character, entry, system, params, facesForm = null) {
    if (this.busy) return;
    const form = this.situationForm;
    this.busy = true;
    try {
      const effort = await this.effortFor(character, params);
      if (!effort.ok) {
        // The refusal replaces the last roll's result: it must not read as this roll's.
        this.quickResult.replaceChildren();
        delete this.quickResult.dataset.outcome;
        flash(this.quickError, effort.message, "error");
        this.ctx.announce(effort.message);
        return;
      }
      const request = { op: "roll", system: system.id, params, lang: lang() };
      if (!facesForm) {
        const seed = this.ctx.takeSeed();
        if (seed !== undefined) request.seed = seed;
      }
      const answer = await this.ctx.engine.call(request);
      if (!answer.ok) {
        const field = answer.error.field;
        if (!(field && (facesForm?.setError(field, answer.error.message) || form.setError(field, answer.error.message)))) {
          flash(this.quickError, t("quick.error", { label: entry.label, message: answer.error.message }), "error");
        }
        if (field && facesForm?.hasError(field)) facesForm.focusField(field);
        return;
      }
      await effort.commit();
      const who = { id: character.id, name: character.name, label: entry.label };
      const historyEntry = entryFrom(request, answer.result, { who });
      const view = renderRoll(system, answer.result);
      const title = h("p", { class: "quick-title", text: t("quick.title", { name: character.name, label: entry.label }) });
      if (effort.spent) this.renderAfterEffort(effort.spent);
      showRolled(this.quickResult, view, {
        before: [title],
        announce: (text) => this.ctx.announce(`${character.name}, ${entry.label} : ${text}`),
        onLanded: () => {
          this.ctx.history.add(historyEntry);
          this.ctx.recordLuck(historyEntry);
        },
      });
      this.quickResult.dataset.outcome = answer.result.outcome;
      this.quickResult.dataset.entry = entry.id;
    } finally {
      this.busy = false;
    }
  }

  /** Redraw the efforts box and the sheet's "used" figure from the engine's count of the spend (keeps the result area). */
  renderAfterEffort(spent) {
    const character = this.selected;
    const old = document.getElementById("efforts");
    if (!character || !old) return;
    const system = this.system(character.system);
    old.replaceWith(this.effortsBox(character, system, { ok: true, result: spent }));
    const state = effortState(system, character);
    const used = this.root.querySelector(`.sheet-stat[data-stat="${state.usedKey}"] dd`);
    if (used) used.textContent = String(spent.used);
  }
}
