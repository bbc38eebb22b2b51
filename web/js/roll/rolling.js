// Rolling: the form's values checked, the request sent with the page's seed, the answer
// put on the result card and, once the dice have landed, in the history.

import { randomSeed } from "../gm/fairness.js";
import { entryFrom } from "../history/history.js";
import { lang, t } from "../lib/i18n.js";
import { dropReplayHash } from "./replay-links.js";
import { seedOr, sidesOf } from "./state.js";

/**
 * The seed of the next roll: hooks.nextSeed (window.pyrules) if set, else a fresh one from
 * crypto.getRandomValues. The page always chooses it, so a roll the engine had not answered
 * when its worker crashed is sent again with the same seed: same dice.
 */
export function seedTaker(hooks) {
  return () => {
    const seed = hooks.nextSeed;
    hooks.nextSeed = null;
    return seedOr(seed, randomSeed);
  };
}

/** The engine request for the collected params of each side ({actor} or {actor, opponent}). */
export function rollRequest({ mode, systemId, collected, language }) {
  return mode === "oppose"
    ? { op: "oppose", system: systemId, actor: collected.actor, opponent: collected.opponent, lang: language }
    : { op: "roll", system: systemId, params: collected.actor, lang: language };
}

export class Roller {
  /**
   * engine: engine.js's Engine; errors: FormErrors; card: ResultCard; animation:
   * RollAnimation; history: the History list; recordLuck(entry, result): stats.js;
   * takeSeed(): seedTaker; updateRollButton(): RollForms'.
   */
  constructor({ app, engine, byId, errors, card, animation, history, recordLuck, takeSeed, updateRollButton }) {
    Object.assign(this, { app, engine, $: byId, errors, card, animation, history, recordLuck, takeSeed, updateRollButton });
    this.busyFocus = false; // the roll button had the focus when it was disabled for a roll
  }

  setBusy(busy) {
    const button = this.$("roll-button");
    if (busy) this.busyFocus = document.activeElement === button;
    button.dataset.busy = String(busy);
    this.$("roll-form").setAttribute("aria-busy", String(busy));
    this.updateRollButton();
    // A disabled button drops the focus to the page: give it back (Escape, Enter again).
    if (!busy && this.busyFocus && (document.activeElement === document.body || !document.activeElement)) button.focus({ preventScroll: true });
  }

  /** Roll what the form holds; extra: who rolled (history). */
  async roll(extra = {}) {
    const { app } = this;
    if (!app.engineReady) return;
    this.animation.finish();
    this.errors.hide();
    const system = app.currentSystem();
    const collected = {};
    let firstError = null;
    for (const side of sidesOf(app.state.mode)) {
      const { params, errors } = app.forms[side].collect({ withFaces: app.state.physical });
      for (const error of errors) {
        app.forms[side].setError(error.field, error.message);
        firstError ??= { side, field: error.field };
      }
      collected[side] = params;
    }
    if (firstError) {
      app.forms[firstError.side].focusField(firstError.field);
      return;
    }
    const request = rollRequest({ mode: app.state.mode, systemId: system.id, collected, language: lang() });
    const seed = this.takeSeed();
    if (seed !== undefined && !app.state.physical) request.seed = seed;
    await this.send(request, { animate: true, extra });
  }

  /**
   * Ask the engine, then show the roll. replay: the payload of a replay link (the result is
   * marked "Rejeu" and not recorded unless the user asks); extra: who rolled (history).
   */
  async send(request, { animate, replay = null, extra = {} }) {
    this.setBusy(true);
    let answer;
    try {
      answer = await this.engine.call(request);
    } finally {
      this.setBusy(false);
    }
    if (!answer.ok) {
      if (replay) this.errors.show(t("replay.failed", { message: answer.error.message }));
      else this.errors.api(answer.error);
      return false;
    }
    if (!replay) dropReplayHash();
    const entry = entryFrom(request, answer.result, extra);
    this.app.current = { request, result: answer.result, entry, base: answer.result, replay, recorded: !replay };
    this.card.present({
      animate,
      onLanded: replay
        ? null
        : () => {
            this.history.add(entry);
            this.recordLuck(entry, answer.result);
          },
    });
    return true;
  }
}
