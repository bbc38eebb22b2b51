// The roll form: one SideForm per side (the opponent's shown in an opposition), the pool's
// "where augmentations come from" helper under the actor's, the mode and physical-dice
// switches, and the roll button's state.

import { h } from "../lib/dom.js";
import { SideForm } from "../widgets/forms.js";
import { pick, t } from "../lib/i18n.js";
import { appliedText, SourcesPanel } from "../widgets/sources.js";
import { SIDES, sidesOf } from "./state.js";
import "../widgets/strings.js";
import "./strings.js";

export class RollForms {
  /**
   * app: the roll screen's state; ctx: the play context (for the sources helper);
   * odds: the OddsPanel (refresh, its live errors); errors: FormErrors; saveState: the
   * debounced save; announce(text): the live region.
   */
  constructor({ app, byId, ctx, odds, errors, saveState, announce }) {
    Object.assign(this, { app, $: byId, ctx, odds, errors, saveState, announce });
    this.sources = null; // the pool's sources helper, when the system has one
  }

  build() {
    const { app } = this;
    const system = app.currentSystem();
    app.state.system = system.id;
    this.$("system-description").textContent = pick(system.description);
    const holder = this.$("forms");
    holder.replaceChildren();
    holder.classList.remove("is-skeleton");
    for (const side of SIDES) {
      const form = new SideForm({ side, system, values: app.sideValues(side), ui: app.sideUI(side), onInput: (s, field) => this.input(s, field), onErrors: () => this.errorsChanged() });
      form.setPhysical(app.state.physical);
      app.forms = { ...app.forms, [side]: form };
      const title = h("h3", { class: "side-title", text: t(side === "actor" ? "form.actor" : "form.opponent") });
      const section = h("section", { class: ["side", `side--${side}`], dataset: { side } }, title, form.element);
      if (side === "actor") {
        const panel = this.sourcesPanel(system);
        if (panel) section.append(panel.element);
      }
      section.hidden = side === "opponent" && app.state.mode !== "oppose";
      holder.append(section);
    }
    this.odds.clearLive();
    this.applyMode();
  }

  /** The store says whether a side of the form shows an error (the roll bar reads it). */
  errorsChanged() {
    const { app } = this;
    app.formError = sidesOf(app.state.mode).some((side) => app.forms[side]?.hasErrors());
  }

  /** The pool's "where augmentations come from" helper under the actor's form. */
  sourcesPanel(system) {
    const { app } = this;
    this.sources = null;
    if (!app.play?.sources || app.play.sources.system !== system.id) return null;
    const ui = app.sideUI("actor");
    ui.sources ??= {};
    const values = (ui.sourcesValues ??= {});
    values.flame = String(app.sideValues("actor").flame ?? values.flame ?? 0);
    this.sources = new SourcesPanel({
      ctx: this.ctx,
      prefix: "roll-sources",
      side: "rsrc",
      values,
      ui: ui.sources,
      onApply: (result) => {
        app.forms.actor.load({ augmentations: result.augmentations, diminutions: result.diminutions, modifiers: result.modifiers || "" });
        this.saveState();
        this.odds.refresh();
        this.announce(appliedText(result), () => appliedText(result));
      },
      onError: (message) => this.errors.show(message),
    });
    return this.sources;
  }

  /** A field changed: keep it, ask the odds again. */
  input(side, field) {
    if (side === "actor" && field === "flame" && this.sources) {
      this.sources.form.values.flame = this.app.sideValues("actor").flame;
      this.sources.changed();
    }
    this.odds.forget(side, field);
    this.errors.hide();
    this.app.valuesChanged(); // kept by the store's subscriber (main.js: saveState)
    this.odds.refresh();
  }

  /** The roll form's actor params, for the fair-dice test: {system, params} or {error}. */
  formParams() {
    const system = this.app.currentSystem();
    if (!system || !this.app.forms.actor) return { error: t("roll.fair.noForm") };
    const { params, errors } = this.app.forms.actor.collect({ withFaces: false });
    return errors.length ? { error: t("roll.fair.formErrors") } : { system, params };
  }

  /** The page shows the mode and the physical-dice switch the state holds. */
  applyMode() {
    const { state, forms } = this.app;
    document.body.dataset.mode = state.mode;
    this.$("mode-single").checked = state.mode === "single";
    this.$("mode-oppose").checked = state.mode === "oppose";
    this.$("physical").checked = state.physical;
    document.body.classList.toggle("physical-mode", state.physical);
    for (const side of SIDES) {
      const section = document.querySelector(`.side--${side}`);
      if (section) section.hidden = side === "opponent" && state.mode !== "oppose";
      forms[side]?.setPhysical(state.physical);
    }
    this.errorsChanged();
    this.updateRollButton();
  }

  updateRollButton() {
    drawRollButton(this.app, this.$);
  }
}

/** The roll button: its words for the mode; enabled once the engine is ready and not busy. */
export function drawRollButton(app, $) {
  const button = $("roll-button");
  button.textContent = t(app.state.mode === "oppose" ? "roll.opposeButton" : "roll.button");
  const busy = app.rolling === "roll"; // the pipeline is sending a roll of this screen
  button.disabled = !app.engineReady || !app.systems || busy;
  $("roll-hint").textContent = app.engineReady ? "" : t("boot.loadingHint");
  $("roll-hint").hidden = app.engineReady;
}

// The roll form's error line, and an engine error put next to its field when it names one.

/**
 * Where an API error's field goes: "pot" is the actor's; in an opposition "opponent.pot"
 * is the opponent's pot. {side, field}; field is undefined when the error names none.
 */
export function errorTarget(field, mode) {
  if (field && mode === "oppose") {
    const [first, ...rest] = field.split(".");
    if (SIDES.includes(first) && rest.length) return { side: first, field: rest.join(".") };
  }
  return { side: "actor", field };
}

export class FormErrors {
  /** app: the roll screen's state (roll/state.js); byId: document.getElementById. */
  constructor({ app, byId }) {
    this.app = app;
    this.$ = byId;
  }

  show(message) {
    const box = this.$("form-error");
    box.textContent = message;
    box.hidden = false;
  }

  hide() {
    this.$("form-error").hidden = true;
    this.$("form-error").textContent = "";
  }

  /** Put an API error next to its field ("pot", "actor.pot"); on the error line when it has none. */
  api(error) {
    const { side, field } = errorTarget(error.field, this.app.state.mode);
    const form = this.app.forms[side];
    if (field && form && form.setError(field, error.message)) {
      form.focusField(field);
      return;
    }
    this.show(t("roll.error", { message: error.message }));
  }
}
