// Replay links (#replay=…): the roll a link carries, shown marked "Rejeu" and not recorded
// unless the user adds it; the banner above such a roll.

import { h, prefersReducedMotion } from "../lib/dom.js";
import { whoText } from "../widgets/entry.js";
import { lang, t } from "../lib/i18n.js";
import { decodeFragment, payloadFits, PREFIX, withOldReading } from "./replay.js";

/** A roll not from a link: the address loses its #replay= part. */
export function dropReplayHash() {
  if (location.hash.startsWith(PREFIX)) window.history.replaceState(null, "", location.pathname + location.search);
}

/** A link's or entry's sides with the former free-dice reading where they predate it (replay.js). */
function sidesWithOldReading(system, item) {
  if (item.mode === "oppose") return { ...item, actor: withOldReading(system, item.actor), opponent: withOldReading(system, item.opponent) };
  return { ...item, params: withOldReading(system, item.params) };
}

/** What a decoded link puts back: the params to load per side, the request, who rolled. */
export function payloadRequest(payload, language) {
  const strip = (params) => Object.fromEntries(Object.entries(params || {}).filter(([, v]) => v !== null));
  payload = sidesWithOldReading(payload.system, payload);
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
   * showView(name); errors: FormErrors; card: ResultCard; putBack: PutBack (the link's
   * settings in the roll form); roller: Roller; guarded(step): a drawing step that falls back
   * to the safe start; history: the History list; announce(text).
   */
  constructor({ app, showView, errors, card, putBack, roller, guarded, history, announce }) {
    Object.assign(this, { app, showView, errors, card, putBack, roller, guarded, history, announce });
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
      this.guarded(() => this.putBack.redraw());
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
    this.errors.hide();
    const { load, request, extra } = payloadRequest(payload, lang());
    const mode = payload.mode === "oppose" ? "oppose" : "single";
    this.putBack.put({ system: payload.system, mode, physical: payload.seed === null, actor: load.actor, opponent: mode === "oppose" ? load.opponent : null });
    return this.roller.send(request, { replay: payload, extra, physical: payload.seed === null });
  }

  /** Above a replayed roll: the badge, what it is, and "add to the history" (not for a review). */
  banner() {
    const current = this.app.current;
    const add = h("button", { type: "button", class: ["button", "button--small"], id: "replay-add", text: t(current.recorded ? "replay.added" : "replay.add") });
    add.disabled = current.recorded;
    add.addEventListener("click", () => {
      const now = this.app.current;
      if (!now || now.recorded) return;
      this.app.current = { ...now, recorded: true };
      const added = this.history.add(now.entry); // false: this very roll is already there
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

// A history entry's settings back in the roll form, then either a new roll with them
// ("again") or the same roll shown again ("review"), marked and not recorded twice.

/**
 * What an entry puts back: the params to load in each side's form and the request to send.
 * again: the faces and placement are left out (a new roll); otherwise, empty values only.
 */
export function historyRequest(entry, system, { again, language }) {
  entry = sidesWithOldReading(system.id, entry);
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
   * showView(name): the screen switcher; putBack: PutBack (the entry's settings in the roll
   * form); roller: Roller; card: ResultCard.
   */
  constructor({ app, showView, putBack, roller, card }) {
    Object.assign(this, { app, showView, putBack, roller, card });
  }

  /**
   * again: a fresh seed (physical dice: the faces boxes wait for the new faces); otherwise
   * the same roll shown again, marked and not recorded a second time.
   */
  open(entry, { again }) {
    const { app } = this;
    if (!app.engineReady || !app.systems.some((s) => s.id === entry.system)) return;
    this.showView("roll");
    const system = app.systems.find((s) => s.id === entry.system);
    const { load, request } = historyRequest(entry, system, { again, language: lang() });
    this.putBack.put({ system: entry.system, mode: entry.mode === "oppose" ? "oppose" : "single", physical: entry.physical, ...load });
    window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? "auto" : "smooth" });
    const extra = entryWho(entry);
    if (!again) {
      if (entry.seed !== null && entry.seed !== undefined) request.seed = entry.seed;
      this.roller.send(request, { replay: { fromHistory: true }, extra, physical: request.seed === undefined });
    } else if (app.state.physical) {
      this.card.clear();
      const first = system.fields.find((f) => f.type === "faces");
      if (first) app.forms.actor.focusField(first.name);
    } else {
      this.roller.roll(extra);
    }
  }
}
