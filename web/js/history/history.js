// History of rolls, kept in localStorage so it survives a reload (history-store.js: every
// roll kept, tabs merged). Each entry keeps the time, system, effective params, outcome,
// margin and seed, so any roll can be replayed. The list shows the newest PAGE rolls and
// a button for the next ones; the exports hold them all.
//
// An entry whose params do not fit the engine's description of its system, or that throws
// while drawn, is set aside with a notice (storage.js setAside) and never stops the page.

import { paramsFit } from "../lib/checks.js";
import { csvCell } from "../lib/csv.js";
import { h, storageGet, storageSet } from "../lib/dom.js";
import { colon, lang, onLangChange, pick, t } from "../lib/i18n.js";
import { FILTERS, FILTER_KEY, passes, renderHistoryEntry } from "./history-entry.js";
import { entryHeadline, sameRoll, whoText } from "../widgets/entry.js";
import { HISTORY_KEY, HistoryStore } from "./history-store.js";
import { setAside } from "../lib/storage.js";
import { download, stamp } from "../ui/ui.js";
import "./strings.js";
import "../ui/strings.js";

const PAGE = 200; // rolls drawn at a time (all are kept)

export class History {
  /**
   * store: the page's store, whose `history` slice this writes (every roll kept, newest
   * first); briefs: a widgets/briefs.js Briefs, the engine's words for each entry's roll.
   */
  constructor({ store, briefs, list, count, systems, onAgain, onReview, onShare }) {
    this.pageStore = store;
    this.briefs = briefs;
    // The briefs asked for entries drawn without one (read back from storage) came in.
    briefs.onChange(() => this.render());
    this.list = list;
    this.count = count;
    this.systems = systems; // () => systems description list
    this.onAgain = onAgain; // a new roll with the entry's settings
    this.onReview = onReview; // the same roll shown again, not recorded
    this.onShare = onShare;
    this.shown = PAGE;
    // « Tout / Moi / Table »: every roll, this device's, or the shared table's (remembered).
    this.filter = storageGet(FILTER_KEY, "all");
    this.filterControl = this.buildFilter(list.closest?.(".history-panel")?.querySelector(".history-head"));
    this.store = new HistoryStore();
    this.notify();
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

  /** The rolls the filter shows, newest first. */
  get visible() {
    return this.filter === "all" ? this.entries : this.entries.filter((e) => passes(e, this.filter));
  }

  /**
   * The filter as a segmented control (radio buttons: one choice, arrow keys move it), after
   * the title in `head`; null without a head (no panel on the page).
   */
  buildFilter(head) {
    if (!head) return null;
    const legend = h("legend", { class: "visually-hidden", text: t("history.filter") });
    const row = h("div", { class: "segmented-options" });
    const labels = [];
    for (const name of FILTERS) {
      const id = `history-filter-${name}`;
      const radio = h("input", { type: "radio", name: "history-filter", id, value: name, class: "visually-hidden" });
      radio.checked = name === this.filter;
      radio.addEventListener("change", () => radio.checked && this.setFilter(name));
      const label = h("label", { for: id, text: t(`history.filter.${name}`) });
      labels.push([label, name]);
      row.append(radio, label);
    }
    const control = h("fieldset", { class: ["segmented", "history-filter"], id: "history-filter" }, legend, row);
    onLangChange(() => {
      legend.textContent = t("history.filter");
      for (const [label, name] of labels) label.textContent = t(`history.filter.${name}`);
    });
    head.querySelector(".panel-title")?.after(control);
    return control;
  }

  setFilter(name) {
    if (!FILTERS.includes(name)) return;
    this.filter = name;
    storageSet(FILTER_KEY, name);
    for (const radio of this.filterControl?.querySelectorAll("input") ?? []) radio.checked = radio.value === name;
    this.shown = PAGE;
    this.render();
  }
  /** The store's `history` slice follows every change (add, update, clear, another tab). */
  notify() {
    this.pageStore?.set({ history: this.entries });
  }

  find(id) {
    return this.entries.find((e) => e.id === id) || null;
  }

  system(id) {
    return (this.systems() || []).find((s) => s.id === id);
  }

  /**
   * An entry as the history keeps it: the brief its answer carried (entry.js) is remembered,
   * not stored. A brief read back would be a second reading of the params to trust: entries
   * read from storage are worded by the engine again (Briefs).
   */
  kept(entry) {
    const { brief, actorBrief, opponentBrief, ...rest } = entry;
    if (entry.mode === "oppose") {
      this.briefs.remember(this.item(entry, entry.actor), actorBrief);
      this.briefs.remember(this.item(entry, entry.opponent), opponentBrief);
    } else this.briefs.remember(this.item(entry, entry.params), brief);
    return rest;
  }

  /** What the engine words of one side's params (Briefs' item). */
  item(entry, params) {
    return { system: entry.system, params: params || {} };
  }

  /** Record a roll; false when it is already there (the same answer, or the same seeded roll). */
  add(made) {
    const entry = this.kept(made);
    if (this.entries.some((e) => sameRoll(e, entry))) return false; // the same seeded roll: never twice
    if (!this.store.add(entry)) return false; // one entry per answer, never twice
    if (this.entries.length > this.shown) this.shown += 1; // the same older rolls stay drawn
    this.notify();
    if (!passes(entry, this.filter)) {
      this.updateCount(); // kept, not shown under this filter
      return true;
    }
    const empty = this.list.querySelector(".history-empty");
    if (empty) empty.remove();
    const item = this.draw(entry);
    if (item) this.list.prepend(item);
    this.updateCount();
    return true;
  }

  /** Replace an entry (the Flame dice placement changed the outcome of the last roll). */
  update(made) {
    const entry = this.kept(made);
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
    const total = this.entries.length;
    const shown = this.filter === "all" ? total : this.visible.length;
    this.count.textContent = !total ? "" : shown === total ? t("history.count", { n: total }) : t("history.countOf", { n: shown, total });
  }

  render() {
    const items = [];
    const visible = this.visible;
    for (const entry of visible.slice(0, this.shown)) {
      const item = this.draw(entry);
      if (item) items.push(item);
    }
    if (!visible.length) {
      const empty = this.entries.length ? t("history.emptyFilter") : t("history.empty");
      this.list.replaceChildren(h("li", { class: "history-empty", text: empty }));
    } else {
      const rest = visible.length - this.shown;
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
        const text = this.briefs.text(this.item(entry, params));
        return who ? (withName ? `${whoText(who)} — ${text}` : whoText(who)) : text;
      };
      return t("history.opposed", { actor: side(entry.actorWho, entry.actor), opponent: side(entry.opponentWho, entry.opponent) });
    }
    const text = this.briefs.text(this.item(entry, entry.params));
    if (!entry.who) return text;
    const label = entry.who.label ? `${entry.who.label}${colon()}${text}` : text;
    return withName ? `${entry.who.name} · ${label}` : label;
  }

  outcomeLabel(entry) {
    const system = this.system(entry.system);
    if (entry.mode === "oppose") {
      const who = entry.outcome === "actor" ? entry.actorWho : entry.outcome === "opponent" ? entry.opponentWho : null;
      if (who && who.name) return t("result.winnerNamed", { name: who.name });
      return entry.outcome === "actor" ? t("result.winnerActor") : entry.outcome === "opponent" ? t("result.winnerOpponent") : t("result.tie");
    }
    // A free-dice sum has no outcome: its total is what it says (docs/api.md).
    const head = entryHeadline(entry);
    if (head?.kind === "sum") return `${t("result.total")} ${head.value}`;
    const outcome = system && system.outcomes.find((o) => o.id === entry.outcome);
    return outcome ? pick(outcome.label) : (entry.outcome ?? "");
  }

  renderEntry(entry) {
    return renderHistoryEntry(this, entry, { onAgain: this.onAgain, onReview: this.onReview, onShare: this.onShare });
  }

  exportJSON() {
    const blob = new Blob([JSON.stringify(this.entries, null, 2) + "\n"], { type: "application/json" });
    download(blob, `pyrules-${stamp()}.json`);
  }

  /** The CSV file of every roll, once the engine has worded each one's params. */
  async exportCSV() {
    const sides = (e) => (e.mode === "oppose" ? [e.actor, e.opponent] : [e.params]);
    await this.briefs.ready(this.entries.flatMap((e) => sides(e).map((params) => this.item(e, params))));
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
