// Session statistics: how lucky the rolls were against their exact odds.
//
// Each roll's answer carries its luck (the percentile of its margin under the exact odds of
// its params, 0.5 being an average roll) and its chance of success; the roll pipeline
// (widgets/pipeline.js) keeps them in the history entry, each side's own for an opposed
// roll or a combat action. Nothing is asked again here.
//
// The statistics screen reads the history since "Nouvelle session": rolls, average
// luck, criticals and fumbles (the best and worst outcome tiers of each system; with a
// two-tier system, the extreme die instead), overall and per character, with a
// histogram of the percentiles and a bar per character (plain HTML/CSS bars).

import { debounce, h, storageGet, storageSet } from "../lib/dom.js";
import { FairnessPanel } from "./fairness.js";
import { entryHeadline } from "../widgets/entry.js";
import { formatNumber, formatTime, t } from "../lib/i18n.js";
import "./strings.js";

const SESSION_KEY = "pyrules:session";
const BINS = 10;
const NOBODY = "\u0000none";

// ------------------------------------------------------------------------------ session

export function sessionStart() {
  const saved = storageGet(SESSION_KEY, null);
  return saved && typeof saved.start === "string" ? saved.start : null;
}

export function newSession() {
  storageSet(SESSION_KEY, { start: new Date().toISOString() });
}

/**
 * Rolls of the session, per side: [{key, name, system, outcome, luck, extreme}]. Luck is
 * judged on seeded rolls only: faces typed from physical dice (or any roll without a seed)
 * count as rolls, never as luck (issue 14: a loaded die must not read "chance 100 %").
 */
export function sessionRolls(entries, start) {
  const rolls = [];
  for (const entry of entries) {
    if (start && entry.time < start) continue;
    const fair = Number.isSafeInteger(entry.seed) && !entry.physical;
    if (entry.mode === "oppose") {
      for (const side of ["actor", "opponent"]) {
        const who = entry[`${side}Who`];
        rolls.push({ key: who ? who.id || `npc:${who.name}` : NOBODY, name: who?.name || null, system: entry.system, outcome: entry[`${side}Outcome`], luck: fair ? entry[`${side}Luck`] : null, extreme: null });
      }
    } else {
      const who = entry.who;
      // Free dice (entryHeadline) have no tiers: never a critical nor a fumble, luck alone.
      const free = entryHeadline(entry) !== null;
      rolls.push({ key: who ? who.id || `npc:${who.name}` : NOBODY, name: who?.name || null, system: entry.system, outcome: free ? null : entry.outcome, luck: fair ? entry.luck : null, extreme: free ? null : (entry.extreme ?? null) });
    }
  }
  return rolls;
}

/** "critical", "fumble" or null: best / worst tier of the system (or the extreme die). */
export function tierKind(system, roll) {
  const outcomes = system?.outcomes || [];
  if (outcomes.length > 2) {
    if (roll.outcome === outcomes[0].id) return "critical";
    if (roll.outcome === outcomes[outcomes.length - 1].id) return "fumble";
    return null;
  }
  if (roll.extreme === "high") return "critical";
  if (roll.extreme === "low") return "fumble";
  return null;
}

export function summarizeRolls(rolls, systems) {
  const blank = (key, name) => ({ key, name, rolls: 0, lucks: [], critical: 0, fumble: 0 });
  const total = blank("all", null);
  const groups = new Map();
  for (const roll of rolls) {
    const system = systems.find((s) => s.id === roll.system);
    const kind = tierKind(system, roll);
    if (!groups.has(roll.key)) groups.set(roll.key, blank(roll.key, roll.name));
    for (const group of [total, groups.get(roll.key)]) {
      group.rolls += 1;
      if (typeof roll.luck === "number") group.lucks.push(roll.luck);
      if (kind) group[kind] += 1;
    }
  }
  const mean = (list) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : null);
  for (const group of [total, ...groups.values()]) group.luck = mean(group.lucks);
  const people = [...groups.values()].sort((a, b) => (a.key === NOBODY) - (b.key === NOBODY) || b.rolls - a.rolls || String(a.name).localeCompare(String(b.name)));
  return { total, people };
}

function percent(value) {
  return value === null ? "—" : formatNumber(value, { style: "percent", maximumFractionDigits: 0 });
}

export class StatsView {
  constructor(ctx, root) {
    this.ctx = ctx;
    this.root = root;
    this.refresh = debounce(() => this.render(), 120);
    this.fairness = new FairnessPanel(ctx); // kept across redraws: a test may be running
    ctx.store.subscribe(["history"], () => {
      if (!this.root.hidden) this.refresh();
    });
  }

  render() {
    const systems = this.ctx.systems() || [];
    const start = sessionStart();
    const rolls = sessionRolls(this.ctx.store.get("history"), start);
    const { total, people } = summarizeRolls(rolls, systems);
    const again = h("button", { type: "button", class: ["button", "button--primary"], id: "session-new", text: t("stats.newSession") });
    again.addEventListener("click", () => {
      newSession();
      this.render();
      this.ctx.announce(t("stats.sessionStarted"), () => t("stats.sessionStarted"));
      document.getElementById("session-new")?.focus();
    });
    const tile = (key, label, value) => h("div", { class: "stat-tile", dataset: { key } }, h("dt", { text: label }), h("dd", { text: value }));
    const jump = h("button", { type: "button", class: ["button", "button--ghost"], id: "fair-jump", text: t("fair.jump") });
    jump.addEventListener("click", () => {
      const title = document.getElementById("fair-title");
      title?.scrollIntoView({ block: "start" });
      title?.focus({ preventScroll: true });
    });
    const parts = [
      h("div", { class: "panel-head" }, h("h2", { class: "panel-title", id: "stats-title", text: t("stats.title") }), h("div", { class: "stats-tools" }, jump, again)),
      h("p", { class: "panel-hint", id: "session-since", text: start ? t("stats.since", { time: formatTime(start) }) : t("stats.sinceStart") }),
      h(
        "dl",
        { class: "stat-tiles", id: "stats-totals" },
        tile("rolls", t("stats.rolls"), String(total.rolls)),
        tile("luck", t("stats.luck"), percent(total.luck)),
        tile("critical", t("stats.critical"), String(total.critical)),
        tile("fumble", t("stats.fumble"), String(total.fumble)),
      ),
    ];
    if (!rolls.length) {
      parts.push(h("p", { class: "char-empty", id: "stats-empty", text: t("stats.empty") }));
    } else {
      parts.push(this.histogram(rolls), this.perPerson(people));
    }
    parts.push(h("p", { class: "panel-hint stats-explain", text: t("stats.explain") }));
    this.fairness.render();
    this.root.replaceChildren(h("section", { class: ["panel", "stats-panel"], "aria-labelledby": "stats-title" }, ...parts), this.fairness.element);
  }

  histogram(rolls) {
    const counts = new Array(BINS).fill(0);
    let judged = 0;
    for (const roll of rolls) {
      if (typeof roll.luck !== "number") continue;
      judged += 1;
      counts[Math.min(BINS - 1, Math.floor(roll.luck * BINS))] += 1;
    }
    const top = Math.max(1, ...counts);
    const bars = counts.map((count, i) => {
      const from = (i * 100) / BINS;
      const to = ((i + 1) * 100) / BINS;
      const bar = h("span", { class: "histo-bar" });
      bar.style.height = `${((count / top) * 100).toFixed(1)}%`;
      const label = t("stats.binLabel", { from, to, n: count });
      return h(
        "li",
        { class: ["histo-bin", i < BINS / 2 ? "is-unlucky" : "is-lucky"], dataset: { bin: i, count }, title: label },
        h("span", { class: "histo-count", text: count ? String(count) : "" }),
        h("span", { class: "histo-track", "aria-hidden": "true" }, bar),
        h("span", { class: "visually-hidden", text: label }),
      );
    });
    return h(
      "figure",
      { class: "luck-histogram", id: "luck-histogram", dataset: { judged } },
      h("figcaption", { class: "sheet-subtitle", text: t("stats.histogram") }),
      h("ol", { class: "histo-bins" }, bars),
      h("p", { class: "histo-axis", "aria-hidden": "true" }, h("span", { text: t("stats.unlucky") }), h("span", { text: t("stats.average") }), h("span", { text: t("stats.lucky") })),
    );
  }

  perPerson(people) {
    const rows = people.map((group) => {
      const name = group.name || t("stats.nobody");
      const bar = h("span", { class: "luck-bar" });
      const luck = group.luck ?? 0.5;
      // A bar from the middle (0.5, an average roll) to the group's mean.
      bar.style.left = `${(Math.min(luck, 0.5) * 100).toFixed(1)}%`;
      bar.style.width = `${(Math.abs(luck - 0.5) * 100).toFixed(1)}%`;
      bar.classList.add(luck >= 0.5 ? "is-lucky" : "is-unlucky");
      return h(
        "li",
        { class: "luck-row", dataset: { who: name, rolls: group.rolls, luck: group.luck ?? "", critical: group.critical, fumble: group.fumble } },
        h("p", { class: "luck-name", text: name }),
        h("p", { class: "luck-numbers", text: t("stats.personLine", { n: group.rolls, luck: percent(group.luck), critical: group.critical, fumble: group.fumble }) }),
        h("span", { class: "luck-track", "aria-hidden": "true" }, h("span", { class: "luck-mid" }), bar),
      );
    });
    return h("section", { class: "luck-people", "aria-labelledby": "luck-people-title" }, h("h3", { class: "sheet-subtitle", id: "luck-people-title", text: t("stats.byCharacter") }), h("ul", { class: "luck-rows", id: "stats-people" }, rows));
  }
}
