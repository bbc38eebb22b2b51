// A history entry's settings back in the roll form, then either a new roll with them
// ("again") or the same roll shown again ("review"), marked and not recorded twice.

import { prefersReducedMotion } from "../lib/dom.js";
import { lang } from "../lib/i18n.js";

/**
 * What an entry puts back: the params to load in each side's form and the request to send.
 * again: the faces and placement are left out (a new roll); otherwise, empty values only.
 */
export function historyRequest(entry, system, { again, language }) {
  const drop = again ? new Set(system.fields.filter((f) => f.type === "faces" || f.type === "placement").map((f) => f.name)) : new Set();
  const strip = (params) => Object.fromEntries(Object.entries(params || {}).filter(([k, v]) => v !== null && !drop.has(k)));
  if (entry.mode === "oppose") {
    return {
      load: { actor: strip(entry.actor), opponent: strip(entry.opponent) },
      request: { op: "oppose", system: system.id, actor: strip(entry.actor), opponent: strip(entry.opponent), lang: language },
    };
  }
  return { load: { actor: strip(entry.params) }, request: { op: "roll", system: system.id, params: strip(entry.params), lang: language } };
}

/** Who rolled, as the entry says (who, actorWho, opponentWho): given to the new entry. */
export function entryWho(entry) {
  const extra = {};
  for (const key of ["who", "actorWho", "opponentWho"]) if (entry[key]) extra[key] = entry[key];
  return extra;
}

export class HistoryReplay {
  /**
   * showView(name): the screen switcher; animation: RollAnimation; picker: SystemPicker;
   * forms: RollForms; refresh(): the odds; saveState(); roller: Roller; card: ResultCard.
   */
  constructor({ app, showView, animation, picker, forms, refresh, saveState, roller, card }) {
    Object.assign(this, { app, showView, animation, picker, forms, refresh, saveState, roller, card });
  }

  /**
   * again: a fresh seed (physical dice: the faces boxes wait for the new faces); otherwise
   * the same roll shown again, marked and not recorded a second time.
   */
  open(entry, { again }) {
    const { app } = this;
    if (!app.engineReady || !app.systems.some((s) => s.id === entry.system)) return;
    this.showView("roll");
    this.animation.finish();
    app.state.system = entry.system;
    app.state.mode = entry.mode === "oppose" ? "oppose" : "single";
    app.state.physical = entry.physical;
    this.picker.build();
    this.forms.build();
    const system = app.currentSystem();
    const { load, request } = historyRequest(entry, system, { again, language: lang() });
    app.forms.actor.load(load.actor);
    if (load.opponent) app.forms.opponent.load(load.opponent);
    this.forms.applyMode();
    this.saveState();
    this.refresh();
    window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? "auto" : "smooth" });
    const extra = entryWho(entry);
    if (!again) {
      if (entry.seed !== null && entry.seed !== undefined) request.seed = entry.seed;
      this.roller.send(request, { animate: true, replay: { fromHistory: true }, extra });
    } else if (app.state.physical) {
      this.card.clear();
      const first = system.fields.find((f) => f.type === "faces");
      if (first) app.forms.actor.focusField(first.name);
    } else {
      this.roller.roll(extra);
    }
  }
}
