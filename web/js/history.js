// History of rolls, kept in localStorage so it survives a reload (history-store.js: every
// roll kept, tabs merged). Each entry keeps the time, system, effective params, outcome,
// margin and seed, so any roll can be replayed. The list shows the newest PAGE rolls and
// a button for the next ones; the exports hold them all.
//
// An entry whose params do not fit the engine's description of its system, or that throws
// while drawn, is set aside with a notice (storage.js setAside) and never stops the page.

import { paramsFit } from "./checks.js";
import { csvCell } from "./csv.js";
import { h } from "./dom.js";
import { addStrings, formatSigned, formatTime, lang, pick, t } from "./i18n.js";
import { summarize } from "./forms.js";
import { HISTORY_KEY, HistoryStore } from "./history-store.js";
import { tierBadge } from "./result.js";
import { setAside } from "./storage.js";
import { download, stamp } from "./ui.js";

const PAGE = 200; // rolls drawn at a time (all are kept)

addStrings({
  fr: { "history.more": "Afficher {n} jets plus anciens" },
  en: { "history.more": "Show {n} older rolls" },
});

/**
 * Build a history entry from an API request and its answer. `extra` may name who rolled:
 * {who: {id, name, label}} for a roll, {actorWho, opponentWho} for an opposed roll.
 */
export function entryFrom(request, result, extra = {}) {
  const base = {
    id: `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`,
    time: new Date().toISOString(),
    system: request.system,
    ...extra,
  };
  if (request.op === "oppose") {
    return {
      ...base,
      mode: "oppose",
      // Effective params, plus the faces typed for physical dice (not echoed in params).
      actor: { ...request.actor, ...result.actor.params },
      opponent: { ...request.opponent, ...result.opponent.params },
      outcome: result.winner,
      actorOutcome: result.actor.outcome,
      opponentOutcome: result.opponent.outcome,
      margin: result.margin,
      seed: result.seed ?? result.actor.seed ?? null,
      physical: Boolean(result.physical ?? result.actor.physical),
    };
  }
  return {
    ...base,
    mode: "roll",
    params: { ...request.params, ...result.params },
    outcome: result.outcome,
    margin: result.margin,
    seed: result.seed ?? null,
    physical: Boolean(result.physical),
    ...(result.extreme !== undefined ? { extreme: result.extreme } : {}),
  };
}

/** "Alice (Épée)" for a {name, label} of who rolled. */
export function whoText(who) {
  if (!who || !who.name) return "";
  return who.label ? `${who.name} (${who.label})` : who.name;
}

export class History {
  constructor({ list, count, systems, onReplay, onShare }) {
    this.list = list;
    this.count = count;
    this.systems = systems; // () => systems description list
    this.onReplay = onReplay;
    this.onShare = onShare;
    this.listeners = new Set();
    this.shown = PAGE;
    this.store = new HistoryStore();
    // Another tab rolled, placed or cleared: draw what is stored now.
    this.store.onChange(() => {
      this.render();
      this.notify();
    });
  }

  /** Every roll kept, newest first. */
  get entries() {
    return this.store.entries;
  }

  notify() {
    for (const listener of this.listeners) listener(this.entries);
  }

  /** Called with the entries after every change (add, update, clear). */
  onChange(listener) {
    this.listeners.add(listener);
  }

  find(id) {
    return this.entries.find((e) => e.id === id) || null;
  }

  system(id) {
    return (this.systems() || []).find((s) => s.id === id);
  }

  add(entry) {
    if (!this.store.add(entry)) return; // one entry per answer, never twice
    if (this.entries.length > this.shown) this.shown += 1; // the same older rolls stay drawn
    this.notify();
    const empty = this.list.querySelector(".history-empty");
    if (empty) empty.remove();
    const item = this.draw(entry);
    if (item) this.list.prepend(item);
    this.updateCount();
  }

  /** Replace an entry (the Flame dice placement changed the outcome of the last roll). */
  update(entry) {
    if (!this.find(entry.id)) return;
    this.store.update(entry);
    this.notify();
    const old = this.list.querySelector(`[data-id="${CSS.escape(entry.id)}"]`);
    const item = old && this.draw(entry);
    if (item) old.replaceWith(item);
    else old?.remove();
  }

  clear() {
    this.store.clear();
    this.notify();
    this.render();
  }

  /**
   * The list item of one entry, or null when the entry does not fit its system's fields
   * or throws while drawn: then it is set aside (copied, reported) and removed.
   */
  draw(entry) {
    try {
      const system = this.system(entry.system);
      const fits = !system || (entry.mode === "oppose" ? paramsFit(system, entry.actor) && paramsFit(system, entry.opponent) : paramsFit(system, entry.params));
      if (!fits) throw new Error("params do not fit the system");
      return this.renderEntry(entry);
    } catch (error) {
      console.warn("[pyrules] history entry set aside:", error);
      setAside(HISTORY_KEY, entry, "draw");
      this.store.remove(entry.id);
      return null;
    }
  }

  updateCount() {
    this.count.textContent = this.entries.length ? t("history.count", { n: this.entries.length }) : "";
  }

  render() {
    const items = [];
    for (const entry of this.entries.slice(0, this.shown)) {
      const item = this.draw(entry);
      if (item) items.push(item);
    }
    if (!this.entries.length) {
      this.list.replaceChildren(h("li", { class: "history-empty", text: t("history.empty") }));
    } else {
      const rest = this.entries.length - this.shown;
      if (rest > 0) items.push(this.moreButton(rest));
      this.list.replaceChildren(...items);
    }
    this.updateCount();
  }

  moreButton(rest) {
    const button = h("button", { type: "button", class: ["button", "button--small"], id: "history-more", text: t("history.more", { n: Math.min(rest, PAGE) }) });
    button.addEventListener("click", () => {
      this.shown += PAGE;
      this.render();
    });
    return h("li", { class: "history-more" }, button);
  }

  summary(entry, { withName = true } = {}) {
    const system = this.system(entry.system);
    if (!system) return "";
    if (entry.mode === "oppose") {
      // On screen, named sides read "Alice (Épée) contre Brute"; exports keep the numbers.
      const side = (who, params) => {
        const text = summarize(system, params || {});
        return who ? (withName ? `${whoText(who)} — ${text}` : whoText(who)) : text;
      };
      return t("history.opposed", { actor: side(entry.actorWho, entry.actor), opponent: side(entry.opponentWho, entry.opponent) });
    }
    const text = summarize(system, entry.params || {});
    if (!entry.who) return text;
    const label = entry.who.label ? `${entry.who.label}${lang() === "fr" ? " : " : ": "}${text}` : text;
    return withName ? `${entry.who.name} · ${label}` : label;
  }

  outcomeLabel(entry) {
    const system = this.system(entry.system);
    if (entry.mode === "oppose") {
      const who = entry.outcome === "actor" ? entry.actorWho : entry.outcome === "opponent" ? entry.opponentWho : null;
      if (who && who.name) return t("result.winnerNamed", { name: who.name });
      return entry.outcome === "actor" ? t("result.winnerActor") : entry.outcome === "opponent" ? t("result.winnerOpponent") : t("result.tie");
    }
    const outcome = system && system.outcomes.find((o) => o.id === entry.outcome);
    return outcome ? pick(outcome.label) : entry.outcome;
  }

  renderEntry(entry) {
    const system = this.system(entry.system);
    const time = formatTime(entry.time);
    const replay = h("button", { type: "button", class: ["button", "button--small", "history-replay"], "aria-label": t("history.replayLabel", { time }), text: t("history.replay") });
    replay.disabled = !system;
    replay.addEventListener("click", () => this.onReplay(entry));
    const share = h("button", { type: "button", class: ["button", "button--small", "history-share"], "aria-label": t("share.label", { time }), text: t("share.button") });
    share.disabled = !system || !this.onShare;
    share.addEventListener("click", () => this.onShare?.(entry, share));
    const badge =
      entry.mode === "oppose" || !system
        ? h("span", { class: ["tier-badge", "tier-badge--plain"], text: this.outcomeLabel(entry) })
        : tierBadge(system, entry.outcome);
    const metaParts = [`${t("result.margin")} ${entry.mode === "oppose" ? entry.margin : formatSigned(entry.margin)}`];
    metaParts.push(entry.seed !== null && entry.seed !== undefined ? `${t("result.seed")} ${entry.seed}` : t("result.physical"));
    const luck = entry.mode === "oppose" ? null : entry.luck;
    if (typeof luck === "number") metaParts.push(t("stats.luckShort", { percent: Math.round(luck * 100) }));
    const who = entry.mode === "oppose" ? "" : entry.who?.name || "";
    return h(
      "li",
      {
        class: ["history-entry", `history-entry--${entry.mode}`],
        dataset: { id: entry.id, system: entry.system, outcome: entry.outcome, seed: entry.seed ?? "", who: who, luck: typeof luck === "number" ? String(luck) : "" },
      },
      h(
        "div",
        { class: "history-main" },
        h(
          "p",
          { class: "history-top" },
          h("time", { datetime: entry.time, text: time }),
          h("span", { class: "history-system", text: system ? pick(system.name) : entry.system }),
          who ? h("span", { class: "history-who", text: who }) : null,
        ),
        h("p", { class: "history-summary", text: this.summary(entry, { withName: !who && entry.mode !== "oppose" }) }),
      ),
      h("div", { class: "history-outcome" }, badge, h("p", { class: "history-meta", text: metaParts.join(" · ") })),
      h("div", { class: "history-buttons" }, replay, share),
    );
  }

  exportJSON() {
    const blob = new Blob([JSON.stringify(this.entries, null, 2) + "\n"], { type: "application/json" });
    download(blob, `pyrules-${stamp()}.json`);
  }

  exportCSV() {
    const header = ["time", "system", "mode", "params", "outcome", "margin", "seed", "physical"].map((k) => t(`csv.${k}`));
    const rows = this.entries.map((entry) => [
      entry.time,
      entry.system,
      entry.mode,
      this.summary(entry),
      this.outcomeLabel(entry),
      entry.margin,
      entry.seed ?? "",
      entry.physical ? "1" : "0",
    ]);
    const text = [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
    // BOM so spreadsheet programs read the accents as UTF-8.
    download(new Blob(["\uFEFF" + text], { type: "text/csv;charset=utf-8" }), `pyrules-${stamp()}.csv`);
  }
}
