// The odds panel: the engine's odds for what the form holds (and, in an opposition, who
// wins), asked again 150 ms after the last change; "calcul…" and Cancel when an answer is
// slow; the last charts kept, dimmed, while a side's fields are not valid.

import { debounce, h } from "../lib/dom.js";
import { lang, t } from "../lib/i18n.js";
import { formatDecimal, formatPercent } from "../lib/numbers.js";
import { oddsChart, versusChart } from "../widgets/odds/odds.js";
import { sidesOf } from "./state.js";
import "../widgets/strings.js";

// An odds answer slower than this shows "calcul…" and a Cancel button.
export const ODDS_PENDING_MS = 300;

/**
 * What the panel shows after a refresh: the charts drawn (charts), the opposition's chart
 * (versus: the new one, else the previous one unless a side is incomplete), stale (something
 * is not up to date) and incomplete (a side's fields are not valid). answers: one per side,
 * {side, odds, skipped}; versus: the oppose_odds answer or null; previous: the last state.
 */
/**
 * Whether the engine gave no odds because they would cost too much (code `odds_too_costly`):
 * the form is fine and its roll rolls (docs/api.md), only its odds are not given.
 */
export const tooCostly = (answer) => answer?.ok === false && answer.error?.code === "odds_too_costly";

/**
 * Whether the engine refused a text field (a free-dice expression it cannot read): the odds
 * of the previous expression say nothing of this one, so the panel shows the refusal instead
 * (a number out of range keeps its last chart, dimmed: it is the same roll, mid-typing).
 */
export const unreadable = (system, answer) =>
  answer?.ok === false && Boolean(answer.error?.field) && (system?.fields ?? []).some((f) => f.name === answer.error.field && f.type === "text");

export function nextOdds({ systemId, mode, charts, answers, versus, previous }) {
  const previousVersus = previous && previous.system === systemId && previous.mode === "oppose" ? previous.versus : null;
  return {
    system: systemId,
    mode,
    charts,
    versus: mode !== "oppose" ? null : versus && versus.ok ? versus.result : tooCostly(versus) || answers.some((a) => a.skipped) ? null : previousVersus,
    stale: answers.some((a) => a.skipped || !(a.odds?.ok || tooCostly(a.odds))) || (mode === "oppose" && !(versus?.ok || tooCostly(versus))),
    incomplete: answers.some((a) => a.skipped),
  };
}

export class OddsPanel {
  /**
   * app: the roll screen's state; engine: engine.js's Engine; gmTools: told the actor's params;
   * cache: the page's odds cache (widgets/pipeline.js): an answer already had is not asked again.
   */
  constructor({ app, engine, byId, gmTools, cache = null }) {
    this.app = app;
    this.engine = engine;
    this.ask = (request) => (cache ? cache.ask(request, (r) => engine.call(r)) : engine.call(request));
    this.$ = byId;
    this.gmTools = gmTools;
    this.last = null; // what is drawn: see nextOdds
    this.seq = 0;
    this.liveErrors = new Set(); // "side:field" shown from odds/dice answers
    this.refresh = debounce(() => this.update(), 150);
    // The form shows an error, or no longer does: the roll bar greys its chance out, or not.
    app.subscribe(["formError"], () => {
      if (this.last) updateRollBar(this.last, app.formError);
    });
  }

  /** New forms: no error of theirs comes from an odds answer. */
  clearLive() {
    this.liveErrors = new Set();
  }

  /** The user changed this field: an error an odds answer put there is theirs to fix. */
  forget(side, field) {
    this.liveErrors.delete(`${side}:${field}`);
  }

  async update() {
    const { app } = this;
    const seq = ++this.seq;
    const system = app.currentSystem();
    if (!app.engineReady || !system) return;
    const { state, forms } = app;
    const sides = sidesOf(state.mode);
    const collected = Object.fromEntries(sides.map((side) => [side, forms[side].collect({ withFaces: false })]));
    this.gmTools.update(system, collected.actor);
    const jobs = sides.map(async (side) => {
      const { params, errors } = collected[side];
      if (errors.length) return { side, skipped: true };
      const [odds, dice] = await Promise.all([
        this.ask({ op: "odds", system: system.id, params, lang: lang() }),
        state.physical ? this.ask({ op: "dice", system: system.id, params, lang: lang() }) : null,
      ]);
      return { side, odds, dice };
    });
    // In an opposition, also who wins (only when both sides' fields are valid).
    const valid = sides.length === 2 && sides.every((side) => !collected[side].errors.length);
    const versusJob = valid
      ? this.ask({ op: "oppose_odds", system: system.id, actor: collected.actor.params, opponent: collected.opponent.params, lang: lang() })
      : Promise.resolve(null);
    const slow = setTimeout(() => {
      if (seq === this.seq) this.pending("busy");
    }, ODDS_PENDING_MS);
    const [answers, versus] = await Promise.all([Promise.all(jobs), versusJob]);
    clearTimeout(slow);
    if (seq !== this.seq || system !== app.currentSystem()) return; // a newer refresh (or Cancel) wins
    this.pending("idle");
    // A side whose params are not valid right now keeps its last chart, dimmed.
    const previous = this.last && this.last.system === system.id ? this.last.charts : [];
    const charts = [];
    for (const { side, odds, dice, skipped } of answers) {
      if (skipped) continue; // a field left empty or not a number: no figures rather than old ones
      this.showErrors(side, [tooCostly(odds) ? null : odds, dice]); // odds too costly: not the field's fault
      if (dice && dice.ok) {
        // Redrawing the faces boxes must not wipe an error a roll has just put there (the
        // answer to an earlier refresh can arrive after the roll's).
        const form = forms[side];
        const kept = [...form.controls].filter(([, c]) => c.field.type === "faces" && !c.error.hidden).map(([name, c]) => [name, c.error.textContent]);
        form.setDiceGroups(dice.result.groups);
        for (const [name, message] of kept) form.setError(name, message);
      }
      if (odds.ok) charts.push({ side, odds: odds.result });
      else if (tooCostly(odds)) charts.push({ side, refused: odds.error.message });
      else if (unreadable(system, odds)) charts.push({ side, refused: odds.error.message, invalid: true });
      else {
        const old = previous.find((c) => c.side === side);
        if (old) charts.push(old);
      }
    }
    this.last = nextOdds({ systemId: system.id, mode: state.mode, charts, answers, versus, previous: this.last });
    this.draw();
  }

  /** The errors the odds and dice answers name, next to their fields (the old ones cleared). */
  showErrors(side, answers) {
    const form = this.app.forms[side];
    for (const key of [...this.liveErrors]) {
      const [errSide, field] = key.split(":");
      if (errSide === side) {
        form.clearError(field);
        this.liveErrors.delete(key);
      }
    }
    for (const answer of answers) {
      if (answer && !answer.ok && answer.error.field) {
        if (form.setError(answer.error.field, answer.error.message)) this.liveErrors.add(`${side}:${answer.error.field}`);
      }
    }
  }

  /** The line under the title: "calcul…" + Cancel (busy), "Calcul annulé" (cancelled), or nothing. */
  pending(stateName) {
    const $ = this.$;
    const box = $("odds-pending");
    const cancel = $("odds-cancel");
    const hadFocus = cancel === document.activeElement;
    box.dataset.state = stateName;
    $("odds-pending-text").textContent = stateName === "busy" ? t("odds.pending") : stateName === "cancelled" ? t("odds.cancelled") : "";
    cancel.hidden = stateName !== "busy";
    if (hadFocus && cancel.hidden) {
      const title = $("odds-title");
      title.tabIndex = -1;
      title.focus();
    }
  }

  /** Cancel: the pending odds answer is dropped when it comes (the engine cannot be interrupted). */
  cancel() {
    this.seq += 1;
    this.pending("cancelled");
    if (this.last) {
      this.last.stale = true;
      this.draw();
    }
  }

  /** The language changed: the same panel, in the new words. */
  redraw() {
    this.draw();
    const state = this.$("odds-pending").dataset.state;
    if (state !== "idle") this.pending(state);
  }

  draw() {
    const box = this.$("odds");
    const system = this.app.currentSystem();
    const last = this.last;
    if (!last || !system || last.system !== system.id) {
      box.replaceChildren(h("p", { class: "odds-empty", text: t("odds.unavailable") }));
      return;
    }
    const titled = last.mode === "oppose";
    if (last.incomplete && !last.charts.length) {
      box.replaceChildren(h("p", { class: "odds-empty", id: "odds-incomplete", text: t("odds.incomplete") }));
      return;
    }
    box.replaceChildren(
      ...(titled && last.versus ? [versusChart(last.versus)] : []),
      ...last.charts.map(({ side, odds, refused, invalid }) => {
        const chart = refused ? h("p", { class: ["odds-empty", "odds-refused", invalid ? "odds-invalid" : ""], text: refused }) : oddsChart(system, odds, titled ? t(side === "actor" ? "form.actor" : "form.opponent") : null);
        chart.dataset.side = side;
        return chart;
      }),
    );
    box.classList.toggle("is-stale", last.stale);
    updateRollBar(last, this.app.formError);
    this.$("odds-hint").textContent = t(titled ? "odds.opposeHint" : "odds.hint");
  }
}

// The roll bar: the roll screen's "Lancer" row stays in reach at the bottom of the screen
// (CSS: .roll-row is fixed while the roll screen shows) and tells the chance of success.
// The figure is the engine's own odds answer (success_probability of `odds`, or the actor's
// chance in `oppose_odds`), never computed here.

function chanceNode() {
  let node = document.getElementById("roll-chance");
  if (!node) {
    node = h("p", { class: "roll-chance", id: "roll-chance" });
    document.getElementById("roll-button").after(node);
  }
  return node;
}

/** Show the chance of the odds answer kept by main.js ({mode, charts, versus, stale}). */
/**
 * What the roll bar says ({key, p, stale}; key null: nothing): the chance of the last odds
 * answer, greyed out (stale) when that answer is not up to date or while the form shows an
 * error (issue 22: the figure is then not the chance of what the form holds).
 */
export function rollBarState(lastOdds, formError = false) {
  let key = null;
  let p = null;
  if (lastOdds && lastOdds.mode === "oppose" && lastOdds.versus && lastOdds.versus.probabilities) {
    p = lastOdds.versus.probabilities.actor;
    key = "rollbar.versus";
  } else if (lastOdds && lastOdds.mode !== "oppose" && lastOdds.charts.length) {
    const odds = lastOdds.charts[0].odds ?? {}; // none: too costly to give (tooCostly)
    // Free dice (docs/api.md): a sum has no chance of success, its mean is said instead; a
    // count's chance is that of at least one success.
    // Past the exact budget the odds are an estimate (odds.estimate): the bar says « environ ».
    const about = odds.estimate ? "About" : "";
    if (odds.kind === "sum" && typeof odds.mean_value === "number") {
      return { key: `rollbar.mean${about}`, p: null, mean: odds.mean_value, stale: Boolean(lastOdds.stale || formError) };
    }
    p = odds.success_probability;
    if (typeof p === "number") key = odds.kind === "count" ? `rollbar.atLeastOne${about}` : "rollbar.chance";
  }
  if (typeof p !== "number") return { key: null, p: null, stale: false };
  return { key, p, stale: Boolean(lastOdds.stale || formError) };
}

/** Draw the roll bar's chance (see rollBarState). */
export function updateRollBar(lastOdds, formError = false) {
  const node = chanceNode();
  const { key, p, mean, stale } = rollBarState(lastOdds, formError);
  const text = mean !== undefined ? t(key, { mean: formatDecimal(mean, { max: 2 }) }) : key ? t(key, { p: formatPercent(p) }) : "";
  node.textContent = text;
  node.hidden = !key;
  node.classList.toggle("is-stale", stale);
  node.toggleAttribute("data-stale", stale);
  if (key && p !== null) node.dataset.p = String(p);
  else delete node.dataset.p;
  if (mean !== undefined) node.dataset.mean = String(mean);
  else delete node.dataset.mean;
}
