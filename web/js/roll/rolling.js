// Rolling: the form's values checked and the request built; the pipeline (widgets/pipeline.js)
// sends it with the page's seed, the result card shows it, the history records it once landed.

import { randomSeed } from "../lib/ids.js";
import { luckOf } from "../widgets/pipeline.js";
import { lang, pick, t } from "../lib/i18n.js";
import { dropReplayHash } from "./replay-links.js";
import { seedOr, sidesOf } from "./state.js";
import { placementModel } from "../widgets/result.js";

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

/** Who rolled, from the history's fields ({who} or {actorWho, opponentWho}) to the pipeline's. */
export function pipelineWho(request, extra = {}) {
  if (request.op === "oppose") return extra.actorWho || extra.opponentWho ? { actor: extra.actorWho, opponent: extra.opponentWho } : null;
  return extra.who ?? null;
}

export class Roller {
  /**
   * pipeline: widgets/pipeline.js (sends, records); errors: FormErrors; card: ResultCard;
   * animation: RollAnimation. The roll button follows app.rolling (the store), set by the
   * pipeline while a roll of origin "roll" is sent.
   */
  constructor({ app, pipeline, byId, errors, card, animation }) {
    Object.assign(this, { app, pipeline, $: byId, errors, card, animation });
    this.busyFocus = false; // the roll button had the focus when it was disabled for a roll
    app.subscribe(["rolling"], () => this.busyChanged(app.rolling === "roll"));
    // A second tap on « Lancer » while a roll is in flight (sent, or its dice still rolling)
    // does nothing: not even land the dice of the first (which would make the tap a new roll).
    if (typeof window !== "undefined") {
      window.addEventListener(
        "pointerdown",
        (event) => {
          if (this.pipeline.rolling("roll") && event.target instanceof Element && event.target.closest("#roll-button")) event.stopPropagation();
        },
        true,
      );
    }
  }

  busyChanged(busy) {
    const button = this.$("roll-button");
    button.dataset.busy = String(busy);
    this.$("roll-form").setAttribute("aria-busy", String(busy));
    // A disabled button drops the focus to the page: give it back (Escape, Enter again).
    if (!busy && this.busyFocus && (document.activeElement === document.body || !document.activeElement)) button.focus({ preventScroll: true });
  }

  /** Roll what the form holds; extra: who rolled (history: {who} or {actorWho, opponentWho}). */
  async roll(extra = {}) {
    const { app } = this;
    if (!app.engineReady || this.pipeline.rolling("roll")) return; // a second tap: the roll in flight is the one
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
    await this.send(request, { extra, physical: app.state.physical });
  }

  /**
   * Roll `request` through the pipeline and show it on the result card. replay: the payload of
   * a replay link or {fromHistory} (the result is marked "Rejeu" and not recorded unless the
   * user asks); extra: who rolled (history); physical: the faces are in the request (no seed).
   */
  async send(request, { replay = null, extra = {}, physical = false }) {
    this.busyFocus = document.activeElement === this.$("roll-button");
    const done = await this.pipeline.roll(request, pipelineWho(request, extra), {
      origin: "roll",
      physical,
      record: !replay,
      present: ({ request: sent, answer, entry }) => {
        if (!replay) dropReplayHash();
        this.app.current = { request: sent, result: answer.result, entry, base: answer.result, replay, recorded: !replay };
        return this.card.show();
      },
    });
    if (!done) return false; // a roll was in flight: this tap did nothing
    const { answer } = done;
    if (!answer.ok) {
      if (replay) this.errors.show(t("replay.failed", { message: answer.error.message }));
      else this.errors.api(answer.error);
      return false;
    }
    return true;
  }
}

// Flame dice placement: the same dice (the seed, or the typed faces, replays them) with another placement (null: the
// engine's optimal one), the history entry updated in place.

/**
 * The history entry of a placed roll: its replay params (the rolled faces of a physical
 * roll, else the seeded params) with the placement, the new outcome and margin, no luck.
 */
export function placedEntry(entry, base, params, placement, result) {
  const replayParams = { ...(base.physical ? params : base.params), placement };
  const updated = { ...entry, params: replayParams, outcome: result.outcome, margin: result.margin, brief: result.brief };
  delete updated.luck;
  return updated;
}

export class Placement {
  /**
   * pipeline: the roll pipeline (a new placement is a roll like any: the table hears it);
   * errors: FormErrors; card: ResultCard; animation: RollAnimation; history: the History
   * list; announce(text).
   */
  constructor({ app, pipeline, errors, card, animation, history, announce }) {
    Object.assign(this, { app, pipeline, errors, card, animation, history, announce });
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
    const { app } = this;
    const { base, request, entry } = app.current;
    const system = app.currentSystem();
    // The same dice again, never sent back down: the seed replays them (physical dice: the
    // faces the player typed, in the request), and the engine applies the placement. The
    // history entry is updated in place (not recorded again), the card drawn without a throw.
    const params = { ...request.params, placement };
    const placed = { op: "roll", system: system.id, params, ...(base.physical ? {} : { seed: base.seed }), lang: lang() };
    const present = async ({ answer }) => {
      // The luck and the chance come with the answer (one tap, one call).
      const updated = { ...placedEntry(entry, base, params, placement, answer.result), ...luckOf({ op: "roll" }, answer.result) };
      app.current = { ...app.current, request, result: answer.result, entry: updated, base };
      this.history.update(updated);
      this.card.present({ animate: false });
      const say = () => t("result.announce", { outcome: pick(system.outcomes.find((o) => o.id === answer.result.outcome)?.label), margin: answer.result.margin });
      this.announce(say(), say);
    };
    const done = await this.pipeline.roll(placed, null, { origin: "placement", physical: base.physical, record: false, placement: true, present });
    if (done && !done.answer.ok) this.errors.api(done.answer.error);
  }
}
