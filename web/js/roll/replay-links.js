// Replay links (#replay=…): the roll a link carries, shown marked "Rejeu" and not recorded
// unless the user adds it; the banner above such a roll.

import { h } from "../lib/dom.js";
import { whoText } from "../history/history.js";
import { lang, t } from "../lib/i18n.js";
import { decodeFragment, payloadFits, PREFIX } from "./replay.js";

/** A roll not from a link: the address loses its #replay= part. */
export function dropReplayHash() {
  if (location.hash.startsWith(PREFIX)) window.history.replaceState(null, "", location.pathname + location.search);
}

/** What a decoded link puts back: the params to load per side, the request, who rolled. */
export function payloadRequest(payload, language) {
  const strip = (params) => Object.fromEntries(Object.entries(params || {}).filter(([, v]) => v !== null));
  const extra = {};
  let load;
  let request;
  if (payload.mode === "oppose") {
    load = { actor: payload.actor, opponent: payload.opponent };
    request = { op: "oppose", system: payload.system, actor: strip(payload.actor), opponent: strip(payload.opponent), lang: language };
    if (payload.actorWho) extra.actorWho = payload.actorWho;
    if (payload.opponentWho) extra.opponentWho = payload.opponentWho;
  } else {
    load = { actor: payload.params };
    request = { op: "roll", system: payload.system, params: strip(payload.params), lang: language };
    if (payload.who) extra.who = payload.who;
  }
  if (payload.seed !== null) request.seed = payload.seed;
  return { load, request, extra };
}

export class ReplayLinks {
  /**
   * showView(name); errors: FormErrors; card: ResultCard; animation: RollAnimation; picker:
   * SystemPicker; forms: RollForms; refresh(): the odds; saveState(); roller: Roller;
   * guarded(step): a drawing step that falls back to the safe start; history: the History
   * list; recordLuck(entry, result); announce(text).
   */
  constructor({ app, showView, errors, card, animation, picker, forms, refresh, saveState, roller, guarded, history, recordLuck, announce }) {
    Object.assign(this, { app, showView, errors, card, animation, picker, forms, refresh, saveState, roller, guarded, history, recordLuck, announce });
  }

  /**
   * Show the roll carried by a #replay= link, marked as a replay, not recorded. A link that
   * does not fit the engine's description, or fails anywhere (engine or drawing the form),
   * gives the "invalid link" message and changes nothing.
   */
  open() {
    const { app } = this;
    if (!location.hash.startsWith(PREFIX) || !app.engineReady) return;
    const payload = decodeFragment(location.hash);
    this.showView("roll");
    const invalid = () => {
      this.card.clear();
      this.errors.show(t("replay.invalid"));
    };
    if (!payload || !payloadFits(app.systems.find((s) => s.id === payload.system), payload)) {
      invalid();
      return;
    }
    const before = JSON.stringify(app.state);
    const restore = () => {
      Object.assign(app.state, JSON.parse(before));
      this.guarded(() => {
        this.picker.build();
        this.forms.build();
        this.forms.applyMode();
      });
      this.saveState();
    };
    try {
      this.openPayload(payload).then((shown) => {
        if (!shown) restore();
      });
    } catch (error) {
      console.warn("[pyrules] replay link failed:", error);
      restore();
      invalid();
    }
  }

  openPayload(payload) {
    const { app } = this;
    this.animation.finish();
    this.errors.hide();
    app.state.system = payload.system;
    app.state.mode = payload.mode === "oppose" ? "oppose" : "single";
    app.state.physical = payload.seed === null;
    this.picker.build();
    this.forms.build();
    const { load, request, extra } = payloadRequest(payload, lang());
    app.forms.actor.load(load.actor);
    if (payload.mode === "oppose") app.forms.opponent.load(load.opponent);
    this.forms.applyMode();
    this.refresh();
    return this.roller.send(request, { animate: true, replay: payload, extra }).then((shown) => {
      if (shown) this.saveState();
      return shown;
    });
  }

  /** Above a replayed roll: the badge, what it is, and "add to the history" (not for a review). */
  banner() {
    const current = this.app.current;
    const add = h("button", { type: "button", class: ["button", "button--small"], id: "replay-add", text: t(current.recorded ? "replay.added" : "replay.add") });
    add.disabled = current.recorded;
    add.addEventListener("click", () => {
      const now = this.app.current;
      if (!now || now.recorded) return;
      now.recorded = true;
      const added = this.history.add(now.entry); // false: this very roll is already there
      if (added) this.recordLuck(now.entry, now.result);
      add.disabled = true;
      add.textContent = t(added ? "replay.added" : "replay.already");
      this.announce(add.textContent);
    });
    if (current.replay?.fromHistory) add.hidden = true;
    const who = whoText(current.entry.who) || [current.entry.actorWho, current.entry.opponentWho].filter(Boolean).map(whoText).join(" / ");
    return h(
      "div",
      { class: "replay-banner", id: "replay-banner", role: "note" },
      h("span", { class: "replay-badge", text: t("replay.badge") }),
      h("p", { class: "replay-text", text: t(current.replay?.fromHistory ? "replay.review" : who ? "replay.textWho" : "replay.text", { who }) }),
      add,
    );
  }
}
