// The roll screen's controls: the form's submit, the mode and physical-dice switches, the
// odds' Cancel, the boot panel's Retry, the language buttons, the history's buttons, and
// saving when the page is left.

import { lang, onLangChange, setLang } from "../lib/i18n.js";

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
