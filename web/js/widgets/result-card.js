// The result card: the roll shown (app.current), drawn by result.js, animated by stage.js,
// with the replay banner or the name of who rolled above it; the dice animation and skipping
// it; showRolled, the same for a result shown elsewhere (quick rolls, oppositions).

import { h } from "../lib/dom.js";
import { whoText } from "./entry.js";
import { t } from "../lib/i18n.js";
import { renderOppose, renderRoll } from "./result.js";
import { playRoll } from "../stage/stage.js";

// The dice animation of the roll on the result card, and skipping it: any key or pointer
// press lands the dice at once (Space and Enter then do nothing else).
export class RollAnimation {
  constructor(doc = document) {
    this.doc = doc;
    this.control = null; // stage.js's playRoll control while the dice move
    this.keys = (event) => {
      if (!this.control) return;
      if (event.key === " " || event.key === "Enter") event.preventDefault();
      this.finish();
    };
    this.pointer = () => this.finish();
  }

  get running() {
    return this.control !== null;
  }

  /** playRoll's control: the dice move until landed() (a control already done: nothing to skip). */
  started(control) {
    this.control = control.done ? null : control;
    if (this.control) {
      this.doc.addEventListener("keydown", this.keys, true);
      this.doc.addEventListener("pointerdown", this.pointer, true);
    }
  }

  landed() {
    this.control = null;
    this.doc.removeEventListener("keydown", this.keys, true);
    this.doc.removeEventListener("pointerdown", this.pointer, true);
  }

  /** Land the dice now, if they are moving. */
  finish() {
    if (this.control) this.control.skip();
  }
}

/**
 * Show a rendered result ({element, dice, announce}) in `area`, tumble its dice, then call
 * onLanded. Returns the animation control (skip()).
 */
export function showRolled(area, view, { announce, onLanded, before = [] } = {}) {
  area.replaceChildren(...before, view.element);
  area.dataset.shown = String(Number(area.dataset.shown || 0) + 1);
  view.element.classList.add("is-rolling");
  let stop = () => {};
  const control = playRoll(view, () => {
    stop();
    view.element.classList.remove("is-rolling");
    view.element.classList.add("is-landed");
    announce?.(view.announce, view.say);
    onLanded?.();
  });
  if (!control.done) {
    // A tap or a key lands the dice at once, as on the main roller.
    const skip = () => control.skip();
    document.addEventListener("keydown", skip, true);
    document.addEventListener("pointerdown", skip, true);
    stop = () => {
      document.removeEventListener("keydown", skip, true);
      document.removeEventListener("pointerdown", skip, true);
    };
  }
  return control; // the roll stage shows it: the page does not scroll by itself
}

/**
 * The pipeline's default presenter (widgets/pipeline.js): a roll with no result area of its
 * own (a table peer's) plays on the stage alone; resolves once its dice have landed.
 */
export function stagePresenter(systemOf) {
  return {
    play({ request, answer, opts }) {
      const system = systemOf(request.system);
      if (!system || !["roll", "oppose"].includes(request.op)) return Promise.resolve();
      const view = request.op === "oppose" ? renderOppose(system, answer.result) : renderRoll(system, answer.result);
      // opts.colour: another device's roll, thrown in that player's dice colour.
      return new Promise((resolve) => playRoll(view, resolve, view.answer ?? null, { colour: opts?.colour ?? null }));
    },
  };
}

/**
 * The page's live region: say(text, again) says `text`; again(), when given, gives the same
 * announcement in the language of the moment, and is said again after a language switch
 * (a result still on screen is then read in the new language). Call `languageChanged()`
 * from the switch.
 */
export function announcer(live) {
  let again = null;
  return {
    say(text, next = null) {
      again = typeof next === "function" ? next : null;
      announceIn(live, text);
    },
    languageChanged() {
      if (again) announceIn(live, again());
    },
  };
}

/** Say `text` in the live region (emptied first, so that the same text is said again). */
export function announceIn(live, text) {
  live.textContent = "";
  requestAnimationFrame(() => {
    live.textContent = text;
  });
}

/** The names of an opposition's sides, when the roll came from characters. */
export function sideNames(current) {
  const { entry } = current;
  if (current.request.op !== "oppose" || (!entry.actorWho && !entry.opponentWho)) return undefined;
  return { actor: entry.actorWho?.name, opponent: entry.opponentWho?.name };
}

/** The result shown on the card: a placement re-roll keeps the seed of the roll it came from. */
export function shownResult(current) {
  if (current.result === current.base) return current.result;
  return { ...current.result, seed: current.base.seed, physical: current.base.physical };
}

export class ResultCard {
  /**
   * animation: RollAnimation; placement(system): the Flame dice controls of the roll shown
   * (or null); banner(): the replay banner element; announce(text): the live region.
   */
  constructor({ app, byId, animation, placement, banner, announce }) {
    Object.assign(this, { app, $: byId, animation, placement, banner, announce });
  }

  /** Draw app.current; animate: throw the dice first. onLanded: once they have landed. */
  present({ animate, onLanded }) {
    const { app, animation } = this;
    const current = app.current;
    const system = app.currentSystem();
    const view =
      current.request.op === "oppose"
        ? renderOppose(system, current.result, { names: sideNames(current) })
        : renderRoll(system, shownResult(current), { placement: this.placement(system) });
    const area = this.$("result");
    const above = current.replay ? [this.banner()] : current.entry.who ? [h("p", { class: "quick-title", text: whoText(current.entry.who) })] : [];
    area.replaceChildren(...above, view.element);
    area.dataset.shown = String(Number(area.dataset.shown || 0) + 1);
    area.dataset.outcome = current.request.op === "oppose" ? current.result.winner : current.result.outcome;
    if (!animate) {
      onLanded?.();
      return;
    }
    view.element.classList.add("is-rolling");
    this.$("skip-hint").hidden = false;
    const control = playRoll(view, () => {
      animation.landed();
      this.$("skip-hint").hidden = true;
      view.element.classList.remove("is-rolling");
      view.element.classList.add("is-landed");
      this.announce(view.announce, view.say);
      onLanded?.();
    });
    animation.started(control); // reduced motion: landed at once
  }

  /** Draw app.current and throw its dice: resolves once they have landed (the pipeline's present). */
  show() {
    return new Promise((resolve) => this.present({ animate: true, onLanded: resolve }));
  }

  redraw() {
    if (this.app.current) this.present({ animate: false });
  }

  clear() {
    this.animation.finish();
    this.app.current = null;
    this.$("result").replaceChildren(h("p", { class: "result-empty", text: t("result.empty") }));
    delete this.$("result").dataset.outcome;
  }
}
