// The last resort: something stored passed the checks but threw while drawn.

import { safeStartNotice } from "../ui/safety.js";

export class SafeStart {
  /** showView(name); card: ResultCard; picker: SystemPicker; forms: RollForms. */
  constructor({ app, showView, card, picker, forms }) {
    Object.assign(this, { app, showView, card, picker, forms });
  }

  /** Run one drawing step; a failure falls back to the safe start (never stops the page). */
  guarded(step) {
    try {
      step();
    } catch (error) {
      this.start(error);
    }
  }

  /**
   * The roll screen starts with the default form and no history drawn, and a notice says
   * so; what was stored is kept (copied aside) for the download.
   */
  start(error) {
    const { app } = this;
    console.error("[pyrules] safe start:", error);
    app.safeStarted = true;
    safeStartNotice(app.state, error);
    Object.assign(app.state, { mode: "single", physical: false, values: {}, ui: {} });
    app.current = null;
    document.body.dataset.safeStart = "true";
    try {
      this.showView("roll");
      this.card.clear();
      if (app.systems) {
        this.picker.build();
        this.forms.build();
      }
      this.forms.applyMode();
    } catch (again) {
      console.error("[pyrules] safe start could not draw the form (the engine's answer will):", again);
      app.systems = null; // redrawn from the engine's own description when it is ready
    }
  }
}
