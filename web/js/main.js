// pyrules in the browser: boots the engine worker, builds the forms from the engine's
// `systems` description, rolls, animates, keeps the history.
//
// Test and scripting hooks (window.pyrules):
//   call(request)  -> Promise of the parsed answer of pyrules.api.handle (object or JSON text)
//   ready          -> Promise resolved once a roll is possible (also performance mark "pyrules:ready")
//   nextSeed       -> set to an integer to make the next roll from the interface use that seed
//                     (also settable with the URL parameter ?seed=N, for the first roll);
//                     quick rolls, opposed rolls between characters and combat actions use it too
//   views          -> the screen switcher (views.show("characters"), …)
//   pendingWork()  -> how many debounced updates are scheduled or running (0: the page is settled)
//   shownFaces()   -> the faces the roll stage's dice show, in the order of the result's dice
//                     (3D: read back from each die's orientation; see stage.js)
//   debug          -> engine test hooks (see engine.js and docs/reliability.md):
//                     kill() crashes the worker, stall() makes it stop answering,
//                     timeouts({call, boot}) shortens the watchdog, delay(ms) holds answers
//
// Table play (saved characters, combat tracker, statistics, replay links) lives in
// characters.js, opposition.js, combat.js, stats.js and replay.js; this file wires them.

// engine.js first: its evaluation starts the worker before any other module reads storage.
import { Engine } from "./engine.js";
import { CharactersView } from "./characters/view.js";
import { CombatView } from "./combat/combat.js";
import { diceSettings } from "./dice-settings.js";
import { debounce, h, nextTask, pendingWork, prefersReducedMotion, storageGet, storageSet } from "./dom.js";
import { GmTools } from "./gm.js";
import { randomSeed } from "./fairness.js";
import { SideForm } from "./forms.js";
import { entryFrom, History, whoText } from "./history.js";
import { applyStatic, lang, onLangChange, pick, setLang, t } from "./i18n.js";
import { Notices } from "./notices.js";
import { oddsChart, versusChart } from "./odds.js";
import { OppositionPanel } from "./opposition.js";
import { drawQR } from "./qr.js";
import { decodeFragment, payloadFits, PREFIX, shareEntry } from "./replay.js";
import { safeStartNotice } from "./safety.js";
import { appliedText, SourcesPanel } from "./sources.js";
import { placementModel, renderOppose, renderRoll } from "./result.js";
import { updateRollBar } from "./rollbar.js";
import { playRoll, preload3d, shownFaces } from "./stage.js";
import { makeLuckRecorder, StatsView } from "./stats.js";
import { Views } from "./views.js";
import "./ui/strings.js";
import "./roll/strings.js";
import "./odds/strings.js";
import "./history/strings.js";
import "./gm/strings.js";
// Until the characters and combat screens have their own strings.js (issue 12 handover).

const STATE_KEY = "pyrules:state";
const SYSTEMS_KEY = "pyrules:systems";
const SIDES = ["actor", "opponent"];
const BOOT_STEPS = ["runtime", "python", "micropip", "pyrules", "ready"];
// Share of the progress bar reached when each step starts.
const BOOT_AT = { worker: 0, version: 2, runtime: 4, python: 66, micropip: 74, pyrules: 82, systems: 96, ready: 100 };

const $ = (id) => document.getElementById(id);
// An odds answer slower than this shows "calcul…" and a Cancel button.
const ODDS_PENDING_MS = 300;

// ---------------------------------------------------------------------------- state

// Filled from storage once the engine has been started (below).
const state = { system: null, mode: "single", physical: false, values: {}, ui: {} };
let systems = null;
let tableInfo = null;
let bundledSystems = null;
let engineReady = false;
let forms = { actor: null, opponent: null };
let current = null; // the roll on the result card: {request, result, entry, base}
let animation = null;
let lastOdds = null;
let refreshSeq = 0;
let liveErrors = new Set(); // "side:field" shown from odds/dice answers
let bootProgress = 0;

const saveState = debounce(() => storageSet(STATE_KEY, state), 300);

function currentSystem() {
  return systems ? systems.find((s) => s.id === state.system) || systems[0] : null;
}

function sideValues(side) {
  const system = currentSystem();
  state.values[system.id] ??= {};
  state.values[system.id][side] ??= {};
  return state.values[system.id][side];
}

function sideUI(side) {
  const system = currentSystem();
  state.ui[system.id] ??= {};
  state.ui[system.id][side] ??= {};
  return state.ui[system.id][side];
}

// ---------------------------------------------------------------------------- engine

const engine = new Engine(new URL("./worker.js", import.meta.url), { unavailable: () => t("engine.unavailable"), text: (key, args) => t(key, args) });
const gmTools = new GmTools({ call: (request) => engine.call(request) });
let resolveAppReady;
const appReady = new Promise((resolve) => {
  resolveAppReady = resolve;
});
const urlSeed = new URLSearchParams(location.search).get("seed");
window.pyrules = {
  call: (request) => engine.call(request),
  ready: appReady,
  nextSeed: urlSeed !== null && /^\d+$/.test(urlSeed) ? Number(urlSeed) : null,
  version: null,
  debug: engine.debug,
  pendingWork, // debounced work (odds, dice groups, sources, stats) not done yet: tests wait for 0
  shownFaces,
};

/**
 * The seed of the next roll: window.pyrules.nextSeed if set, else a fresh one from
 * crypto.getRandomValues. The page always chooses it, so a roll the engine had not
 * answered when its worker crashed is sent again with the same seed: same dice.
 */
function takeSeed() {
  const seed = window.pyrules.nextSeed;
  window.pyrules.nextSeed = null;
  return Number.isSafeInteger(seed) && seed >= 0 ? seed : randomSeed();
}

engine.addEventListener("progress", (event) => showProgress(event.detail));
engine.addEventListener("error", (event) => showBootError(event.detail.step, event.detail.message));
let booted = false; // the first boot is over (later "ready" events: the worker was restarted)
engine.addEventListener("restart", (event) => notices.engineRestarted(event.detail));
engine.addEventListener("ready", async (event) => {
  if (booted) {
    engineReady = true;
    showProgress({ step: "ready" });
    updateRollButton();
    return;
  }
  showProgress({ step: "systems" });
  let answer;
  try {
    answer = await engine.call({ op: "systems", lang: lang() });
  } catch (error) {
    showBootError("systems", error.message);
    return;
  }
  if (!answer.ok) {
    showBootError("systems", answer.error.message);
    return;
  }
  window.pyrules.version = event.detail.version;
  const fresh = answer.result.systems;
  const changed = JSON.stringify(fresh) !== JSON.stringify(systems) || JSON.stringify(answer.result.table) !== JSON.stringify(tableInfo);
  systems = fresh;
  tableInfo = answer.result.table ?? null;
  storageSet(SYSTEMS_KEY, { version: answer.result.version, systems: fresh, table: tableInfo });
  if (changed || safeStarted) guarded(buildAll);
  engineReady = true;
  booted = true;
  showProgress({ step: "ready" });
  $("footer-version").textContent = t("footer.version", { version: answer.result.version });
  updateRollButton();
  refresh.flush();
  performance.mark("pyrules:ready");
  resolveAppReady(event.detail);
  openReplayLink();
  setTimeout(preload3d, 0); // the 3D dice load after the engine: the boot does not pay for them
});

// The engine is started before anything reads storage: a stored value, however damaged,
// cannot keep it from starting (issue 14).
engine.start();

const saved = storageGet(STATE_KEY, {});
Object.assign(state, {
  system: typeof saved.system === "string" ? saved.system : null,
  mode: saved.mode === "oppose" ? "oppose" : "single",
  physical: Boolean(saved.physical),
  values: saved.values && typeof saved.values === "object" ? saved.values : {},
  ui: saved.ui && typeof saved.ui === "object" ? saved.ui : {},
});
const cached = storageGet(SYSTEMS_KEY, null);
systems = cached && Array.isArray(cached.systems) ? cached.systems : null;
tableInfo = cached && cached.table && typeof cached.table === "object" ? cached.table : null;
// A first visit has no description kept from an earlier one: the build ships the engine's
// own answer to {"op": "systems"} (systems.json), so that the forms can be filled in while
// the engine starts. The engine's answer replaces it once ready.
bundledSystems = systems
  ? null
  : fetch(new URL("../systems.json", import.meta.url))
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null);

// ---------------------------------------------------------------------------- boot panel

function showProgress({ step, loaded = 0, total = 0 }) {
  const panel = $("boot");
  panel.dataset.state = step === "ready" ? "ready" : "booting";
  $("boot-error").hidden = true;
  let percent = BOOT_AT[step] ?? bootProgress;
  if (step === "runtime" && total > 0) {
    percent = BOOT_AT.runtime + ((BOOT_AT.python - BOOT_AT.runtime) * Math.min(loaded, total)) / total;
  }
  bootProgress = step === "worker" ? 0 : Math.max(bootProgress, percent);
  const bar = $("boot-bar");
  bar.setAttribute("aria-valuenow", String(Math.round(bootProgress)));
  $("boot-fill").style.width = `${bootProgress}%`;
  const active = step === "worker" || step === "version" ? "runtime" : step === "systems" ? "pyrules" : step;
  const activeIndex = BOOT_STEPS.indexOf(active);
  for (const item of $("boot-steps").children) {
    const index = BOOT_STEPS.indexOf(item.dataset.step);
    item.dataset.state = index < activeIndex || step === "ready" ? "done" : index === activeIndex ? "active" : "pending";
  }
  let text = `${t(`boot.step.${step}`)}…`;
  if (step === "runtime" && total > 0) {
    // Not Intl.NumberFormat: the first one a page builds costs ~30 ms of the main thread,
    // and the page is starting. One decimal, with the decimal sign of the language.
    const mb = (n) => (n / 1e6).toFixed(1).replace(".", t("number.decimal"));
    text += ` ${t("boot.megabytes", { loaded: mb(loaded), total: mb(total) })}`;
  }
  $("boot-text").textContent = step === "ready" ? t("boot.ready") : text;
  $("boot-text").dataset.step = step;
  $("engine-status").dataset.state = step === "ready" ? "ready" : "booting";
  $("engine-status-text").textContent = step === "ready" ? t("boot.ready") : `${t("boot.loadingHint")} ${Math.round(bootProgress)} %`;
}

function showBootError(step, message) {
  engineReady = false;
  const panel = $("boot");
  panel.dataset.state = "error";
  panel.dataset.failedStep = step;
  $("boot-error").hidden = false;
  $("boot-error-step").textContent = t("boot.failedStep", { step: t(`boot.step.${step}`) });
  $("boot-error-message").textContent = message;
  $("engine-status").dataset.state = "error";
  $("engine-status-text").textContent = t("boot.failed");
  for (const item of $("boot-steps").children) {
    if (item.dataset.state === "active") item.dataset.state = "failed";
  }
  updateRollButton();
}

// ---------------------------------------------------------------------------- building the page

function buildSystemPicker() {
  const box = $("systems");
  box.replaceChildren();
  for (const system of systems) {
    const id = `system-${system.id}`;
    const radio = h("input", { type: "radio", name: "system", id, value: system.id, class: "visually-hidden" });
    radio.checked = system.id === currentSystem().id;
    radio.addEventListener("change", () => {
      if (!radio.checked) return;
      state.system = system.id;
      saveState.flush();
      clearResult();
      buildForms();
      refresh();
    });
    box.append(radio, h("label", { for: id, dataset: { system: system.id } }, h("span", { class: "system-name", text: pick(system.name).replace(/(\S)–(\S)/g, "$1\u2060–\u2060$2") })));
  }
  $("system-description").textContent = pick(currentSystem().description);
}

function buildForms() {
  const system = currentSystem();
  state.system = system.id;
  $("system-description").textContent = pick(system.description);
  const holder = $("forms");
  holder.replaceChildren();
  holder.classList.remove("is-skeleton");
  for (const side of SIDES) {
    const form = new SideForm({ side, system, values: sideValues(side), ui: sideUI(side), onInput });
    form.setPhysical(state.physical);
    forms[side] = form;
    const title = h("h3", { class: "side-title", text: t(side === "actor" ? "form.actor" : "form.opponent") });
    const section = h("section", { class: ["side", `side--${side}`], dataset: { side } }, title, form.element);
    if (side === "actor") {
      const panel = sourcesPanelFor(system);
      if (panel) section.append(panel.element);
    }
    section.hidden = side === "opponent" && state.mode !== "oppose";
    holder.append(section);
  }
  liveErrors = new Set();
  applyMode();
}

/** The pool's "where augmentations come from" helper under the actor's form. */
let rollSources = null;

function sourcesPanelFor(system) {
  rollSources = null;
  if (!tableInfo?.sources || tableInfo.sources.system !== system.id) return null;
  const ui = sideUI("actor");
  ui.sources ??= {};
  const values = (ui.sourcesValues ??= {});
  values.flame = String(sideValues("actor").flame ?? values.flame ?? 0);
  rollSources = new SourcesPanel({
    ctx,
    prefix: "roll-sources",
    side: "rsrc",
    values,
    ui: ui.sources,
    onApply: (result) => {
      forms.actor.load({ augmentations: result.augmentations, diminutions: result.diminutions, modifiers: result.modifiers || "" });
      saveState();
      refresh();
      announce(appliedText(result));
    },
    onError: (message) => showFormError(message),
  });
  return rollSources;
}

function buildAll() {
  if (!systems) return;
  buildSystemPicker();
  buildForms();
  if (current) redrawResult();
  history.render();
  renderTableView();
}

function applyMode() {
  document.body.dataset.mode = state.mode;
  $("mode-single").checked = state.mode === "single";
  $("mode-oppose").checked = state.mode === "oppose";
  $("physical").checked = state.physical;
  document.body.classList.toggle("physical-mode", state.physical);
  for (const side of SIDES) {
    const section = document.querySelector(`.side--${side}`);
    if (section) section.hidden = side === "opponent" && state.mode !== "oppose";
    forms[side]?.setPhysical(state.physical);
  }
  updateRollButton();
}

function updateRollButton() {
  const button = $("roll-button");
  button.textContent = t(state.mode === "oppose" ? "roll.opposeButton" : "roll.button");
  const busy = button.dataset.busy === "true";
  button.disabled = !engineReady || !systems || busy;
  $("roll-hint").textContent = engineReady ? "" : t("boot.loadingHint");
  $("roll-hint").hidden = engineReady;
}

// ---------------------------------------------------------------------------- inputs, odds, dice groups

function onInput(side, field) {
  if (side === "actor" && field === "flame" && rollSources) {
    rollSources.form.values.flame = sideValues("actor").flame;
    rollSources.changed();
  }
  liveErrors.delete(`${side}:${field}`);
  hideFormError();
  saveState();
  refresh();
}

const refresh = debounce(async () => {
  const seq = ++refreshSeq;
  const system = currentSystem();
  if (!engineReady || !system) return;
  const sides = state.mode === "oppose" ? SIDES : ["actor"];
  const collected = Object.fromEntries(sides.map((side) => [side, forms[side].collect({ withFaces: false })]));
  gmTools.update(system, collected.actor);
  const jobs = sides.map(async (side) => {
    const { params, errors } = collected[side];
    if (errors.length) return { side, skipped: true };
    const [odds, dice] = await Promise.all([
      engine.call({ op: "odds", system: system.id, params, lang: lang() }),
      state.physical ? engine.call({ op: "dice", system: system.id, params, lang: lang() }) : null,
    ]);
    return { side, odds, dice };
  });
  // In an opposition, also who wins (only when both sides' fields are valid).
  const valid = sides.length === 2 && sides.every((side) => !collected[side].errors.length);
  const versusJob = valid
    ? engine.call({ op: "oppose_odds", system: system.id, actor: collected.actor.params, opponent: collected.opponent.params, lang: lang() })
    : Promise.resolve(null);
  const slow = setTimeout(() => {
    if (seq === refreshSeq) oddsPending("busy");
  }, ODDS_PENDING_MS);
  const [answers, versus] = await Promise.all([Promise.all(jobs), versusJob]);
  clearTimeout(slow);
  if (seq !== refreshSeq || system !== currentSystem()) return; // a newer refresh (or Cancel) wins
  oddsPending("idle");
  // A side whose params are not valid right now keeps its last chart, dimmed.
  const previous = lastOdds && lastOdds.system === system.id ? lastOdds.charts : [];
  const charts = [];
  for (const { side, odds, dice, skipped } of answers) {
    const keep = () => {
      const old = previous.find((c) => c.side === side);
      if (old) charts.push(old);
    };
    if (skipped) continue; // a field left empty or not a number: no figures rather than old ones
    const form = forms[side];
    for (const key of [...liveErrors]) {
      const [errSide, field] = key.split(":");
      if (errSide === side) {
        form.clearError(field);
        liveErrors.delete(key);
      }
    }
    for (const answer of [odds, dice]) {
      if (answer && !answer.ok && answer.error.field) {
        if (form.setError(answer.error.field, answer.error.message)) liveErrors.add(`${side}:${answer.error.field}`);
      }
    }
    if (dice && dice.ok) {
      // Redrawing the faces boxes must not wipe an error a roll has just put there (the
      // answer to an earlier refresh can arrive after the roll's).
      const kept = [...form.controls].filter(([, c]) => c.field.type === "faces" && !c.error.hidden).map(([name, c]) => [name, c.error.textContent]);
      form.setDiceGroups(dice.result.groups);
      for (const [name, message] of kept) form.setError(name, message);
    }
    if (odds.ok) charts.push({ side, odds: odds.result });
    else keep();
  }
  const previousVersus = lastOdds && lastOdds.system === system.id && lastOdds.mode === "oppose" ? lastOdds.versus : null;
  lastOdds = {
    system: system.id,
    mode: state.mode,
    charts,
    versus: state.mode !== "oppose" ? null : versus && versus.ok ? versus.result : answers.some((a) => a.skipped) ? null : previousVersus,
    stale: answers.some((a) => a.skipped || !a.odds?.ok) || (state.mode === "oppose" && !(versus && versus.ok)),
    incomplete: answers.some((a) => a.skipped),
  };
  drawOdds();
}, 150);

/** The odds panel's line under the title: "calcul…" + Cancel, "Calcul annulé", or nothing. */
function oddsPending(stateName) {
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
function cancelOdds() {
  refreshSeq += 1;
  oddsPending("cancelled");
  if (lastOdds) {
    lastOdds.stale = true;
    drawOdds();
  }
}

function drawOdds() {
  const box = $("odds");
  const system = currentSystem();
  if (!lastOdds || !system || lastOdds.system !== system.id) {
    box.replaceChildren(h("p", { class: "odds-empty", text: t("odds.unavailable") }));
    return;
  }
  const titled = lastOdds.mode === "oppose";
  if (lastOdds.incomplete && !lastOdds.charts.length) {
    box.replaceChildren(h("p", { class: "odds-empty", id: "odds-incomplete", text: t("odds.incomplete") }));
    return;
  }
  box.replaceChildren(
    ...(titled && lastOdds.versus ? [versusChart(lastOdds.versus)] : []),
    ...lastOdds.charts.map(({ side, odds }) => {
      const chart = oddsChart(system, odds, titled ? t(side === "actor" ? "form.actor" : "form.opponent") : null);
      chart.dataset.side = side;
      return chart;
    }),
  );
  box.classList.toggle("is-stale", lastOdds.stale);
  updateRollBar(lastOdds);
  $("odds-hint").textContent = t(titled ? "odds.opposeHint" : "odds.hint");
}

// ---------------------------------------------------------------------------- rolling

function showFormError(message) {
  const box = $("form-error");
  box.textContent = message;
  box.hidden = false;
}

function hideFormError() {
  $("form-error").hidden = true;
  $("form-error").textContent = "";
}

/** Put an API error next to its field ("pot", "actor.pot"); elsewhere when it has no field. */
function showApiError(error) {
  let side = "actor";
  let field = error.field;
  if (field && state.mode === "oppose") {
    const [first, ...rest] = field.split(".");
    if (SIDES.includes(first) && rest.length) {
      side = first;
      field = rest.join(".");
    }
  }
  if (field && forms[side] && forms[side].setError(field, error.message)) {
    forms[side].focusField(field);
    return;
  }
  showFormError(t("roll.error", { message: error.message }));
}

let busyFocus = false; // the roll button had the focus when it was disabled for a roll

function setBusy(busy) {
  const button = $("roll-button");
  if (busy) busyFocus = document.activeElement === button;
  button.dataset.busy = String(busy);
  $("roll-form").setAttribute("aria-busy", String(busy));
  updateRollButton();
  // A disabled button drops the focus to the page: give it back (Escape, Enter again).
  if (!busy && busyFocus && (document.activeElement === document.body || !document.activeElement)) button.focus({ preventScroll: true });
}

async function roll(extra = {}) {
  if (!engineReady) return;
  finishAnimation();
  hideFormError();
  const system = currentSystem();
  const sides = state.mode === "oppose" ? SIDES : ["actor"];
  const collected = {};
  let firstError = null;
  for (const side of sides) {
    const { params, errors } = forms[side].collect({ withFaces: state.physical });
    for (const error of errors) {
      forms[side].setError(error.field, error.message);
      firstError ??= { side, field: error.field };
    }
    collected[side] = params;
  }
  if (firstError) {
    forms[firstError.side].focusField(firstError.field);
    return;
  }
  const request =
    state.mode === "oppose"
      ? { op: "oppose", system: system.id, actor: collected.actor, opponent: collected.opponent, lang: lang() }
      : { op: "roll", system: system.id, params: collected.actor, lang: lang() };
  const seed = takeSeed();
  if (seed !== undefined && !state.physical) request.seed = seed;
  await send(request, { animate: true, extra });
}

/**
 * Ask the engine, then show the roll. replay: the payload of a replay link (the result is
 * marked "Rejeu" and not recorded unless the user asks); extra: who rolled (history).
 */
async function send(request, { animate, replay = null, extra = {} }) {
  setBusy(true);
  let answer;
  try {
    answer = await engine.call(request);
  } finally {
    setBusy(false);
  }
  if (!answer.ok) {
    if (replay) showFormError(t("replay.failed", { message: answer.error.message }));
    else showApiError(answer.error);
    return false;
  }
  if (!replay) dropReplayHash();
  const entry = entryFrom(request, answer.result, extra);
  current = { request, result: answer.result, entry, base: answer.result, replay, recorded: !replay };
  present({
    animate,
    onLanded: replay
      ? null
      : () => {
          history.add(entry);
          recordLuck(entry, answer.result);
        },
  });
  return true;
}

function names() {
  const { entry } = current;
  if (current.request.op !== "oppose" || (!entry.actorWho && !entry.opponentWho)) return undefined;
  return { actor: entry.actorWho?.name, opponent: entry.opponentWho?.name };
}

function present({ animate, onLanded }) {
  const system = currentSystem();
  const view = current.request.op === "oppose" ? renderOppose(system, current.result, { names: names() }) : renderRoll(system, shownResult(), { placement: placementFor(system) });
  const area = $("result");
  area.replaceChildren(...(current.replay ? [replayBanner()] : current.entry.who ? [whoLine(current.entry.who)] : []), view.element);
  area.dataset.shown = String(Number(area.dataset.shown || 0) + 1);
  area.dataset.outcome = current.request.op === "oppose" ? current.result.winner : current.result.outcome;
  if (!animate) {
    onLanded?.();
    return;
  }
  view.element.classList.add("is-rolling");
  $("skip-hint").hidden = false;
  const control = playRoll(view, () => {
    animation = null;
    stopSkipListeners();
    $("skip-hint").hidden = true;
    view.element.classList.remove("is-rolling");
    view.element.classList.add("is-landed");
    announce(view.announce);
    onLanded?.();
  });
  animation = control.done ? null : control; // reduced motion: landed at once
  if (animation) startSkipListeners();
}

/** The result shown on the card: a placement re-roll keeps the seed of the roll it came from. */
function shownResult() {
  if (current.result === current.base) return current.result;
  return { ...current.result, seed: current.base.seed, physical: current.base.physical };
}

function redrawResult() {
  if (current) present({ animate: false });
}

function clearResult() {
  finishAnimation();
  current = null;
  $("result").replaceChildren(h("p", { class: "result-empty", text: t("result.empty") }));
  delete $("result").dataset.outcome;
}

function announce(text) {
  const live = $("announcer");
  live.textContent = "";
  requestAnimationFrame(() => {
    live.textContent = text;
  });
}

const skipKeys = (event) => {
  if (!animation) return;
  if (event.key === " " || event.key === "Enter") event.preventDefault();
  finishAnimation();
};
const skipPointer = () => finishAnimation();

function startSkipListeners() {
  document.addEventListener("keydown", skipKeys, true);
  document.addEventListener("pointerdown", skipPointer, true);
}

function stopSkipListeners() {
  document.removeEventListener("keydown", skipKeys, true);
  document.removeEventListener("pointerdown", skipPointer, true);
}

function finishAnimation() {
  if (animation) animation.skip();
}

// ---------------------------------------------------------------------------- Flame dice placement

function placementFor(system) {
  if (current.request.op !== "roll") return null;
  return placementModel(system, current.result, (values) => place(values), () => place(null));
}

/** Re-roll the same faces with another placement (null: the engine's optimal one). */
let placing = false;

async function place(placement) {
  if (!current || animation || placing) return;
  placing = true;
  try {
    await placeNow(placement);
  } finally {
    placing = false;
  }
}

async function placeNow(placement) {
  const { base, request, entry } = current;
  const system = currentSystem();
  // The same dice again, never sent back down: the seed replays them (physical dice: the
  // faces the player typed, in the request), and the engine applies the placement.
  const params = { ...request.params, placement };
  const answer = await engine.call({ op: "roll", system: system.id, params, ...(base.physical ? {} : { seed: base.seed }), lang: lang() });
  if (!answer.ok) {
    showApiError(answer.error);
    return;
  }
  const replayParams = { ...(base.physical ? params : base.params), placement };
  const updated = { ...entry, params: replayParams, outcome: answer.result.outcome, margin: answer.result.margin };
  delete updated.luck;
  current = { ...current, request, result: answer.result, entry: updated, base };
  history.update(updated);
  if (current.recorded) recordLuck(updated);
  present({ animate: false });
  announce(t("result.announce", { outcome: pick(system.outcomes.find((o) => o.id === answer.result.outcome)?.label), margin: answer.result.margin }));
}

// ---------------------------------------------------------------------------- history

const history = new History({
  list: $("history"),
  count: $("history-count"),
  systems: () => systems,
  onAgain: (entry) => fromHistory(entry, { again: true }),
  onReview: (entry) => fromHistory(entry, { again: false }),
  onShare: (entry) => shareEntry(entry, { qr: (box, url) => drawQR(box, url, (request) => engine.call(request)) }),
});

/**
 * A history entry's settings back in the form, then either a new roll with them (again:
 * a fresh seed; physical dice: the faces boxes wait for the new faces) or the same roll
 * shown again, marked and not recorded a second time.
 */
function fromHistory(entry, { again }) {
  if (!engineReady || !systems.some((s) => s.id === entry.system)) return;
  views.show("roll");
  finishAnimation();
  state.system = entry.system;
  state.mode = entry.mode === "oppose" ? "oppose" : "single";
  state.physical = entry.physical;
  buildSystemPicker();
  buildForms();
  const system = currentSystem();
  const drop = again ? new Set(system.fields.filter((f) => f.type === "faces" || f.type === "placement").map((f) => f.name)) : new Set();
  const strip = (params) => Object.fromEntries(Object.entries(params || {}).filter(([k, v]) => v !== null && !drop.has(k)));
  let request;
  if (entry.mode === "oppose") {
    forms.actor.load(strip(entry.actor));
    forms.opponent.load(strip(entry.opponent));
    request = { op: "oppose", system: system.id, actor: strip(entry.actor), opponent: strip(entry.opponent), lang: lang() };
  } else {
    forms.actor.load(strip(entry.params));
    request = { op: "roll", system: system.id, params: strip(entry.params), lang: lang() };
  }
  applyMode();
  saveState();
  refresh();
  window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? "auto" : "smooth" });
  const extra = {};
  for (const key of ["who", "actorWho", "opponentWho"]) if (entry[key]) extra[key] = entry[key];
  if (!again) {
    if (entry.seed !== null && entry.seed !== undefined) request.seed = entry.seed;
    send(request, { animate: true, replay: { fromHistory: true }, extra });
  } else if (state.physical) {
    clearResult();
    const first = system.fields.find((f) => f.type === "faces");
    if (first) forms.actor.focusField(first.name);
  } else {
    roll(extra);
  }
}

// ---------------------------------------------------------------------------- replay links

function dropReplayHash() {
  if (location.hash.startsWith(PREFIX)) window.history.replaceState(null, "", location.pathname + location.search);
}

/**
 * Show the roll carried by a #replay= link, marked as a replay, not recorded. A link that
 * does not fit the engine's description, or fails anywhere (engine or drawing the form),
 * gives the "invalid link" message and changes nothing.
 */
function openReplayLink() {
  if (!location.hash.startsWith(PREFIX) || !engineReady) return;
  const payload = decodeFragment(location.hash);
  views.show("roll");
  const invalid = () => {
    clearResult();
    showFormError(t("replay.invalid"));
  };
  if (!payload || !payloadFits(systems.find((s) => s.id === payload.system), payload)) {
    invalid();
    return;
  }
  const before = JSON.stringify(state);
  const restore = () => {
    Object.assign(state, JSON.parse(before));
    guarded(() => {
      buildSystemPicker();
      buildForms();
      applyMode();
    });
    saveState();
  };
  try {
    openPayload(payload).then((shown) => {
      if (!shown) restore();
    });
  } catch (error) {
    console.warn("[pyrules] replay link failed:", error);
    restore();
    invalid();
  }
}

function openPayload(payload) {
  finishAnimation();
  hideFormError();
  state.system = payload.system;
  state.mode = payload.mode === "oppose" ? "oppose" : "single";
  state.physical = payload.seed === null;
  buildSystemPicker();
  buildForms();
  const strip = (params) => Object.fromEntries(Object.entries(params || {}).filter(([, v]) => v !== null));
  let request;
  const extra = {};
  if (payload.mode === "oppose") {
    forms.actor.load(payload.actor);
    forms.opponent.load(payload.opponent);
    request = { op: "oppose", system: payload.system, actor: strip(payload.actor), opponent: strip(payload.opponent), lang: lang() };
    if (payload.actorWho) extra.actorWho = payload.actorWho;
    if (payload.opponentWho) extra.opponentWho = payload.opponentWho;
  } else {
    forms.actor.load(payload.params);
    request = { op: "roll", system: payload.system, params: strip(payload.params), lang: lang() };
    if (payload.who) extra.who = payload.who;
  }
  if (payload.seed !== null) request.seed = payload.seed;
  applyMode();
  refresh();
  return send(request, { animate: true, replay: payload, extra }).then((shown) => {
    if (shown) saveState();
    return shown;
  });
}

function replayBanner() {
  const add = h("button", { type: "button", class: ["button", "button--small"], id: "replay-add", text: t(current.recorded ? "replay.added" : "replay.add") });
  add.disabled = current.recorded;
  add.addEventListener("click", () => {
    if (!current || current.recorded) return;
    current.recorded = true;
    const added = history.add(current.entry); // false: this very roll is already there
    if (added) recordLuck(current.entry, current.result);
    add.disabled = true;
    add.textContent = t(added ? "replay.added" : "replay.already");
    announce(add.textContent);
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

function whoLine(who) {
  return h("p", { class: "quick-title", text: whoText(who) });
}

// ---------------------------------------------------------------------------- table play screens

function announceText(text) {
  announce(text);
}

const ctx = {
  engine,
  systems: () => systems,
  table: () => tableInfo,
  history,
  announce: announceText,
  takeSeed,
  recordLuck: (entry, result) => recordLuck(entry, result),
  showView: (name) => views.show(name),
  /** The roll form's actor params, for the fair-dice test: {system, params} or {error}. */
  formParams: () => {
    const system = currentSystem();
    if (!system || !forms.actor) return { error: t("fair.noForm") };
    const { params, errors } = forms.actor.collect({ withFaces: false });
    return errors.length ? { error: t("fair.formErrors") } : { system, params };
  },
};
const recordLuck = makeLuckRecorder(ctx);
const characters = new CharactersView(ctx, $("view-characters"));
characters.opposition = new OppositionPanel(ctx, characters);
const combat = new CombatView(ctx, $("view-combat"), characters);
const stats = new StatsView(ctx, $("view-stats"));
const notices = new Notices($("notices"), { history: () => history.exportJSON(), characters: () => characters.exportAll() });
const views = new Views($("view-tabs"), (name) => {
  // The history list is one element: shown under the roller, or alone on its own screen.
  const panel = $("history-panel");
  const home = name === "history" ? $("view-history") : $("view-roll");
  if (panel.parentElement !== home) home.append(panel);
  renderTableView(false);
});
window.pyrules.views = views;

/** Draw the table-play screen on show (force: the language or the systems changed). */
function renderTableView(force = true) {
  const name = views.current;
  if (name === "characters") {
    if (force || characters.renderedLang !== lang()) characters.render();
  } else if (name === "combat") combat.render();
  else if (name === "stats") stats.render();
}

// ---------------------------------------------------------------------------- wiring

function wire() {
  $("roll-form").addEventListener("submit", (event) => {
    event.preventDefault();
    roll();
  });
  for (const id of ["mode-single", "mode-oppose"]) {
    $(id).addEventListener("change", (event) => {
      if (!event.target.checked) return;
      state.mode = event.target.value;
      saveState.flush();
      clearResult();
      applyMode();
      refresh();
    });
  }
  $("physical").addEventListener("change", (event) => {
    state.physical = event.target.checked;
    saveState.flush();
    applyMode();
    refresh();
  });
  $("odds-cancel").addEventListener("click", cancelOdds);
  $("odds").after(gmTools.element);
  $("retry").addEventListener("click", () => {
    bootProgress = 0;
    engine.retry();
  });
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => setLang(button.dataset.lang));
  }
  onLangChange(() => {
    updateLangButtons();
    if (systems) buildAll();
    else history.render();
    if (!current) clearResult();
    updateRollButton();
    if (engineReady) showProgress({ step: "ready" });
    drawOdds();
    if ($("odds-pending").dataset.state !== "idle") oddsPending($("odds-pending").dataset.state);
    refresh();
  });
  // Typing is saved 300 ms after the last key; leaving the page saves at once.
  window.addEventListener("pagehide", () => saveState.flush());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") saveState.flush();
  });
  window.addEventListener("hashchange", () => openReplayLink());
  $("export-json").addEventListener("click", () => history.exportJSON());
  $("export-csv").addEventListener("click", () => history.exportCSV());
  const dialog = $("confirm-clear");
  $("clear-history").addEventListener("click", () => dialog.showModal());
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "confirm") history.clear();
    $("clear-history").focus();
  });
}

function updateLangButtons() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === lang()));
  }
}

// The page starts in three tasks, none over 50 ms on a slow machine: the static text, the
// events and the screen; then the forms; then the rest. (The engine worker was started
// earlier still, by engine.js.)
let safeStarted = false;

/** Run one drawing step; a failure falls back to the safe start (never stops the page). */
function guarded(step) {
  try {
    step();
  } catch (error) {
    safeStart(error);
  }
}

/**
 * Last resort: something stored passed the checks but threw while drawn. The roll screen
 * starts with the default form and no history drawn, and a notice says so; what was stored
 * is kept (copied aside) for the download.
 */
function safeStart(error) {
  console.error("[pyrules] safe start:", error);
  safeStarted = true;
  safeStartNotice(state, error);
  Object.assign(state, { mode: "single", physical: false, values: {}, ui: {} });
  current = null;
  document.body.dataset.safeStart = "true";
  try {
    views.show("roll");
    clearResult();
    if (systems) {
      buildSystemPicker();
      buildForms();
    }
    applyMode();
  } catch (again) {
    console.error("[pyrules] safe start could not draw the form (the engine's answer will):", again);
    systems = null; // redrawn from the engine's own description when it is ready
  }
}

// The engine was started first (before anything reads storage); each step of the page
// runs guarded: a stored value that throws while drawn leads to the safe start.
async function init() {
  try {
    await startPage();
  } catch (error) {
    safeStart(error);
  }
  if (bundledSystems) {
    const description = await bundledSystems;
    guarded(() => adoptBundled(description));
  }
}

async function startPage() {
  applyStatic(document);
  updateLangButtons();
  wire();
  clearResult();
  drawOdds();
  $("skip-hint").after(diceSettings());
  views.show(location.hash.startsWith(PREFIX) ? "roll" : views.initial());
  await nextTask();
  if (systems) buildAll();
  else history.render();
  applyMode();
  await nextTask();
  characters.load();
}

/** Build the forms from the build's systems.json, unless the engine answered first. */
function adoptBundled(description) {
  if (systems || !description || !Array.isArray(description.systems)) return;
  systems = description.systems;
  tableInfo = description.table && typeof description.table === "object" ? description.table : null;
  buildAll();
  applyMode();
}

init();
