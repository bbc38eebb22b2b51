// History of rolls, kept in localStorage so it survives a reload. Each entry keeps the
// time, system, effective params, outcome, margin and seed, so any roll can be replayed.

import { h, storageGet, storageSet } from "./dom.js";
import { lang, pick, t } from "./i18n.js";
import { summarize } from "./forms.js";
import { renderHistoryEntry } from "./history-entry.js";
import { download, stamp } from "./ui.js";

const STORAGE_KEY = "pyrules:history";
const MAX_ENTRIES = 500;

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
      actorFaces: finalFaces(result.actor),
      opponentFaces: finalFaces(result.opponent),
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
    faces: finalFaces(result),
    ...(result.extreme !== undefined ? { extreme: result.extreme } : {}),
  };
}

/** The faces a roll's dice show (after any placement), for the history line. */
function finalFaces(result) {
  return Array.isArray(result?.dice) ? result.dice.map((d) => d.final) : undefined;
}

/**
 * The same roll: same system, mode, seed and params. A seeded roll is fully given by
 * them, so a second entry would count it twice (Statistics). Rolls of physical dice
 * have no seed: two of them are two rolls, even with the same faces.
 */
export function sameRoll(a, b) {
  if (a.seed === null || a.seed === undefined || a.seed !== b.seed) return false;
  if (a.combat || b.combat) return false; // each combat action changes the fight: its own entry
  if (a.system !== b.system || a.mode !== b.mode) return false;
  const key = (e) => JSON.stringify(e.mode === "oppose" ? [e.actor, e.opponent] : e.params);
  return key(a) === key(b);
}

/** "Alice (Épée)" for a {name, label} of who rolled. */
export function whoText(who) {
  if (!who || !who.name) return "";
  return who.label ? `${who.name} (${who.label})` : who.name;
}

export class History {
  constructor({ list, count, systems, onAgain, onReview, onShare }) {
    this.list = list;
    this.count = count;
    this.systems = systems; // () => systems description list
    this.onAgain = onAgain; // a new roll with the entry's settings
    this.onReview = onReview; // the same roll shown again, not recorded
    this.onShare = onShare;
    this.listeners = new Set();
    this.entries = storageGet(STORAGE_KEY, []);
    if (!Array.isArray(this.entries)) this.entries = [];
  }

  save() {
    if (this.entries.length > MAX_ENTRIES) this.entries.length = MAX_ENTRIES;
    storageSet(STORAGE_KEY, this.entries);
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

  /** Record a roll; false when it is already there (the same answer, or the same seeded roll). */
  add(entry) {
    if (this.find(entry.id) || this.entries.some((e) => sameRoll(e, entry))) return false; // never twice
    this.entries.unshift(entry);
    this.save();
    const empty = this.list.querySelector(".history-empty");
    if (empty) empty.remove();
    this.list.prepend(this.renderEntry(entry));
    if (this.list.children.length > MAX_ENTRIES) this.list.lastElementChild.remove();
    this.updateCount();
    return true;
  }

  /** Replace an entry (the Flame dice placement changed the outcome of the last roll). */
  update(entry) {
    const index = this.entries.findIndex((e) => e.id === entry.id);
    if (index < 0) return;
    this.entries[index] = entry;
    this.save();
    const old = this.list.querySelector(`[data-id="${CSS.escape(entry.id)}"]`);
    if (old) old.replaceWith(this.renderEntry(entry));
  }

  clear() {
    this.entries = [];
    this.save();
    this.render();
  }

  updateCount() {
    this.count.textContent = this.entries.length ? t("history.count", { n: this.entries.length }) : "";
  }

  render() {
    if (!this.entries.length) {
      this.list.replaceChildren(h("li", { class: "history-empty", text: t("history.empty") }));
    } else {
      this.list.replaceChildren(...this.entries.map((entry) => this.renderEntry(entry)));
    }
    this.updateCount();
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
    return renderHistoryEntry(this, entry, { onAgain: this.onAgain, onReview: this.onReview, onShare: this.onShare });
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

function csvCell(value) {
  const text = String(value ?? "");
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

