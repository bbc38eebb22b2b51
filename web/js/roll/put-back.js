// A roll's settings put back in the roll form (a replay link, a history entry's « Revoir » and
// « Relancer »): the system, the mode, physical dice and each side's values, drawn, kept and
// the odds asked again. The flows that do it only say which settings.

export class PutBack {
  /**
   * app: the roll screen's state; animation: RollAnimation (a throw in flight is finished);
   * picker: SystemPicker; forms: RollForms; refresh(): the odds; saveState(): the debounced save.
   */
  constructor({ app, animation, picker, forms, refresh, saveState }) {
    Object.assign(this, { app, animation, picker, forms, refresh, saveState });
  }

  /** settings: {system (its id), mode ("single" | "oppose"), physical, actor, opponent?}: each side's values to load. */
  put({ system, mode, physical, actor, opponent }) {
    const { app } = this;
    this.animation.finish();
    Object.assign(app.state, { system, mode, physical });
    this.picker.build();
    this.forms.build();
    app.forms.actor.load(actor);
    if (opponent) app.forms.opponent.load(opponent);
    this.forms.applyMode();
    this.refresh();
    this.saveState();
  }

  /** The form drawn again from the state as it is now (kept settings put back), and kept. */
  redraw() {
    this.picker.build();
    this.forms.build();
    this.forms.applyMode();
    this.saveState();
  }
}
