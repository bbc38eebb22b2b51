// Redrawing the roll screen as a whole: from a new description of the systems, in a new
// language, or from the build's systems.json while the engine starts.

import { restoreSystems } from "./state.js";
import { h } from "../lib/dom.js";
import { lang, onLangChange, pick, setLang } from "../lib/i18n.js";

export class RollScreen {
  /**
   * picker: SystemPicker; forms: RollForms; card: ResultCard; odds: OddsPanel; history: the
   * History list; bootPanel: BootPanel; renderPlayView(): the play screen shown.
   */
  constructor({ app, picker, forms, card, odds, history, bootPanel, renderPlayView }) {
    Object.assign(this, { app, picker, forms, card, odds, history, bootPanel, renderPlayView });
  }

  /** Everything drawn again from app.systems (nothing while there is none). */
  buildAll() {
    if (!this.app.systems) return;
    this.picker.build();
    this.forms.build();
    if (this.app.current) this.card.redraw();
    this.history.render();
    this.renderPlayView();
  }

  /** The language changed: every word drawn again, the odds asked again. */
  languageChanged() {
    const { app } = this;
    if (app.systems) this.buildAll();
    else this.history.render();
    if (!app.current) this.card.clear();
    this.forms.updateRollButton();
    if (app.engineReady) this.bootPanel.progress({ step: "ready" });
    this.odds.redraw();
    this.odds.refresh();
  }

  /** Build the forms from the build's systems.json, unless the engine answered first. */
  adoptBundled(description) {
    const bundled = restoreSystems(description);
    if (this.app.systems || !bundled.systems) return;
    ({ systems: this.app.systems, play: this.app.play } = bundled);
    this.buildAll();
    this.forms.applyMode();
  }
}

// The system picker: one radio button per system of the engine's description.

/** A system's name with its en dashes kept on one line with their neighbours. */
export function pickerName(name) {
  return name.replace(/(\S)–(\S)/g, "$1\u2060–\u2060$2");
}

export class SystemPicker {
  /** onPick(): called once app.state.system holds the newly chosen system. */
  constructor({ app, byId, onPick }) {
    this.app = app;
    this.$ = byId;
    this.onPick = onPick;
    this.frame = 0; // the frame that puts the chosen system in view
  }

  build() {
    const { app } = this;
    const box = this.$("systems");
    box.replaceChildren();
    for (const system of app.systems) {
      const id = `system-${system.id}`;
      const radio = h("input", { type: "radio", name: "system", id, value: system.id, class: "visually-hidden" });
      radio.checked = system.id === app.currentSystem().id;
      radio.addEventListener("change", () => {
        if (!radio.checked) return;
        app.state.system = system.id;
        this.onPick();
      });
      box.append(radio, h("label", { for: id, dataset: { system: system.id } }, h("span", { class: "system-name", text: pickerName(pick(system.name)) })));
    }
    this.$("system-description").textContent = pick(app.currentSystem().description);
    // Measured at the next frame, when the page is laid out for it anyway: measured here, at
    // start, the page was laid out once for the picker and again for the forms drawn next.
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.showChosen());
  }

  /** A phone's picker scrolls sideways (css/controls.css): the chosen system in view. */
  showChosen() {
    const box = this.$("systems");
    const chosen = box.querySelector("input:checked + label");
    if (chosen && box.scrollWidth > box.clientWidth) box.scrollLeft = Math.max(0, chosen.offsetLeft - box.offsetLeft - 8);
  }
}

// The roll screen's controls: the form's submit, the mode and physical-dice switches, the
// odds' Cancel, the boot panel's Retry, the language buttons, the history's buttons, and
// saving when the page is left.

/** The language buttons show which language is on. */
export function updateLangButtons() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === lang()));
  }
}

/**
 * gmTools: gm.js's panel, after the odds; roller: Roller; card: ResultCard; forms: RollForms; odds: OddsPanel; bootPanel: BootPanel;
 * history: the History list; saveState: the debounced save; openReplayLink(); onLang(): the
 * language changed (after the buttons).
 */
export function wireControls({ app, byId: $, engine, gmTools, roller, card, forms, odds, bootPanel, history, saveState, openReplayLink, onLang }) {
  $("roll-form").addEventListener("submit", (event) => {
    event.preventDefault();
    roller.roll();
  });
  for (const id of ["mode-single", "mode-oppose"]) {
    $(id).addEventListener("change", (event) => {
      if (!event.target.checked) return;
      app.state.mode = event.target.value;
      saveState.flush();
      card.clear();
      forms.applyMode();
      odds.refresh();
    });
  }
  $("physical").addEventListener("change", (event) => {
    app.state.physical = event.target.checked;
    saveState.flush();
    forms.applyMode();
    odds.refresh();
  });
  $("odds-cancel").addEventListener("click", () => odds.cancel());
  $("odds").after(gmTools.element);
  $("retry").addEventListener("click", () => {
    bootPanel.reset();
    engine.retry();
  });
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => setLang(button.dataset.lang));
  }
  onLangChange(() => {
    updateLangButtons();
    onLang();
  });
  // Typing is saved 300 ms after the last key; leaving the page saves at once.
  window.addEventListener("pagehide", () => saveState.flush());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") saveState.flush();
  });
  window.addEventListener("hashchange", () => openReplayLink());
  $("export-json").addEventListener("click", () => history.exportJSON());
  $("export-csv").addEventListener("click", () => history.exportCSV());
  const dialog = $("confirm-clear");
  $("clear-history").addEventListener("click", () => dialog.showModal());
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "confirm") history.clear();
    $("clear-history").focus();
  });
}
