// Redrawing the roll screen as a whole: from a new description of the systems, in a new
// language, or from the build's systems.json while the engine starts.

import { restoreSystems } from "./state.js";

export class RollScreen {
  /**
   * picker: SystemPicker; forms: RollForms; card: ResultCard; odds: OddsPanel; history: the
   * History list; bootPanel: BootPanel; renderTableView(): the table-play screen shown.
   */
  constructor({ app, picker, forms, card, odds, history, bootPanel, renderTableView }) {
    Object.assign(this, { app, picker, forms, card, odds, history, bootPanel, renderTableView });
  }

  /** Everything drawn again from app.systems (nothing while there is none). */
  buildAll() {
    if (!this.app.systems) return;
    this.picker.build();
    this.forms.build();
    if (this.app.current) this.card.redraw();
    this.history.render();
    this.renderTableView();
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
    ({ systems: this.app.systems, table: this.app.table } = bundled);
    this.buildAll();
    this.forms.applyMode();
  }
}
