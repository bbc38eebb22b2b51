// Flame dice placement: the same dice (the seed, or the typed faces, replays them) with another placement (null: the
// engine's optimal one), the history entry updated in place.

import { lang, pick, t } from "../lib/i18n.js";
import { placementModel } from "./result.js";

/**
 * The history entry of a placed roll: its replay params (the rolled faces of a physical
 * roll, else the seeded params) with the placement, the new outcome and margin, no luck.
 */
export function placedEntry(entry, base, params, placement, result) {
  const replayParams = { ...(base.physical ? params : base.params), placement };
  const updated = { ...entry, params: replayParams, outcome: result.outcome, margin: result.margin };
  delete updated.luck;
  return updated;
}

export class Placement {
  /**
   * engine: engine.js's Engine; errors: FormErrors; card: ResultCard; animation:
   * RollAnimation; history: the History list; recordLuck(entry): stats.js; announce(text).
   */
  constructor({ app, engine, errors, card, animation, history, recordLuck, announce }) {
    Object.assign(this, { app, engine, errors, card, animation, history, recordLuck, announce });
    this.placing = false;
  }

  /** The Flame dice controls of the roll shown (result.js placementModel), or null. */
  model(system) {
    if (this.app.current.request.op !== "roll") return null;
    return placementModel(system, this.app.current.result, (values) => this.place(values), () => this.place(null));
  }

  /** Re-roll the same faces with another placement (null: the engine's optimal one). */
  async place(placement) {
    if (!this.app.current || this.animation.running || this.placing) return;
    this.placing = true;
    try {
      await this.placeNow(placement);
    } finally {
      this.placing = false;
    }
  }

  async placeNow(placement) {
    const { app, engine } = this;
    const { base, request, entry } = app.current;
    const system = app.currentSystem();
    // The same dice again, never sent back down: the seed replays them (physical dice: the
    // faces the player typed, in the request), and the engine applies the placement.
    const params = { ...request.params, placement };
    const answer = await engine.call({ op: "roll", system: system.id, params, ...(base.physical ? {} : { seed: base.seed }), lang: lang() });
    if (!answer.ok) {
      this.errors.api(answer.error);
      return;
    }
    const updated = placedEntry(entry, base, params, placement, answer.result);
    app.current = { ...app.current, request, result: answer.result, entry: updated, base };
    this.history.update(updated);
    if (app.current.recorded) this.recordLuck(updated);
    this.card.present({ animate: false });
    this.announce(t("result.announce", { outcome: pick(system.outcomes.find((o) => o.id === answer.result.outcome)?.label), margin: answer.result.margin }));
  }
}
