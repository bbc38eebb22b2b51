// pyrules in the browser, composition root: boots the engine worker, creates the roll
// screen's parts (web/js/roll/), loads the play screens (app/play.js) and wires them together.
// The page's test hooks (window.pyrules) are described in hooks.js, beside it.

// engine.js first: its evaluation starts the worker before any other module reads storage.
import { Engine } from "../engine/engine.js";
import { diceSettings } from "../ui/dice-settings.js";
import { debounce, nextTask, storageGet, storageSet } from "../lib/dom.js";
import { GmTools } from "../gm/gm.js";
import { History } from "../history/history.js";
import { Briefs } from "../widgets/briefs.js";
import { applyStatic, lang, t } from "../lib/i18n.js";
import { Notices } from "../ui/notices.js";
import { drawQR } from "../ui/qr.js";
import { linkOf, PREFIX, shareEntry } from "../roll/replay.js";
import { preload3dSoon, testHooks as stageHooks } from "../stage/stage.js";
import { Views } from "../lib/views.js";
import { watchEngine } from "./boot.js";
import { BootPanel } from "./boot-panel.js";
import { RollScreen, SystemPicker, updateLangButtons, wireControls } from "../roll/screen.js";
import { drawRollButton, FormErrors, RollForms } from "../roll/side-forms.js";
import { installHooks } from "./hooks.js";
import { HistoryReplay, ReplayLinks } from "../roll/replay-links.js";
import { PutBack } from "../roll/put-back.js";
import { OddsPanel } from "../roll/odds-panel.js";
import { Placement, Roller, seedTaker } from "../roll/rolling.js";
import { SavedExpressions } from "../roll/saved.js";
import { announcer, ResultCard, RollAnimation, stagePresenter } from "../widgets/result-card.js";
import { createOddsCache, createPipeline } from "../widgets/pipeline.js";
import { SafeStart } from "./safe-start.js";
import { createRollApp, restoreState, restoreSystems, STATE_KEY, STORED_KEYS, SYSTEMS_KEY } from "../roll/state.js";
import { pageStore as store } from "../lib/page-store.js";
import { inviteOffer } from "../lib/table-protocol.js";
import "../ui/strings.js";
import "../widgets/strings.js";
import "../widgets/odds/strings.js";
import "../history/strings.js";
import "../gm/strings.js";
// Until the characters and combat screens have their own strings.js (issue 12 handover).

const $ = (id) => document.getElementById(id);
// The page's one store (lib/page-store.js, issue 42): each slice is written by the module that
// owns it and every screen that shows it subscribes to it.
store.set({ history: [], characters: [], fight: null, table: null });
const app = createRollApp({}, store); // filled from storage once the engine has been started (below)
const saveState = debounce(() => storageSet(STATE_KEY, app.state), 300);

const engine = new Engine(new URL("../engine/worker.js", import.meta.url), { unavailable: () => t("engine.unavailable"), text: (key, args) => t(key, args) });
const gmTools = new GmTools({ call: (request) => engine.call(request) });
const { hooks, resolveReady } = installHooks(engine);
const takeSeed = seedTaker(hooks);

const bootPanel = new BootPanel($);
const updateRollButton = () => drawRollButton(app, $);
app.subscribe(["engineReady", "systems", "mode", "rolling"], updateRollButton); // the roll button follows the store
watchEngine({
  engine, app, panel: bootPanel, hooks, updateRollButton,
  onRestart: (detail) => notices.engineRestarted(detail),
  onSystems: (changed) => { if (changed || app.safeStarted) safe.guarded(buildAll); },
  onReady: (detail, version) => {
    $("footer-version").textContent = t("footer.version", { version });
    updateRollButton();
    odds.refresh.flush();
    performance.mark("pyrules:ready");
    // The other screens come after the engine (app/play.js), before anything else that waits for it.
    openPlay();
    resolveReady(detail);
    replayLinks.open();
    preload3dSoon(); // the 3D dice load after the engine, out of the boot's way
  },
});

// The engine is started before anything reads storage: a stored value, however damaged,
// cannot keep it from starting (issue 14).
engine.start();

Object.assign(app.state, restoreState(storageGet(STATE_KEY, {})));
app.subscribe(STORED_KEYS, () => saveState()); // from now on, what is kept between visits follows the store
// The description the forms are drawn from while the engine starts. The bundled page has the
// engine's own answer to {"op": "systems"} written in (BUILT_SYSTEMS, tools/bundle-page.mjs),
// with its digest: drawn from its first tasks with no request, and, when the engine says the
// same digest at ready, never asked for (app/boot.js). A description kept from an earlier
// visit of another build (another digest) is drawn instead, checked as untrusted, and
// replaced by the engine's answer once ready; one that claims this build's digest is not
// read: the build's own is drawn. A page with neither fetches systems.json (screen.js).
{
  const kept = restoreSystems(storageGet(SYSTEMS_KEY, null));
  const built = typeof BUILT_SYSTEMS !== "undefined" ? restoreSystems(BUILT_SYSTEMS) : null;
  const start = built?.systems && (!kept.systems || kept.digest === built.digest) ? built : { ...kept, digest: null };
  ({ systems: app.systems, play: app.play, digest: app.digest } = start);
}
const bundledSystems = app.systems
  ? null
  : fetch(new URL("../../systems.json", import.meta.url))
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null);

// ---------------------------------------------------------------------------- the roll screen

// again(): the same announcement in the new language, said after a switch (result-card.js).
const live = announcer($("announcer"));
const announce = (text, again) => live.say(text, again);
const showView = (name) => views.show(name);
const history = new History({
  store, briefs: new Briefs((request) => engine.call(request)), list: $("history"), count: $("history-count"), systems: () => app.systems,
  onAgain: (entry) => historyReplay.open(entry, { again: true }),
  onReview: (entry) => historyReplay.open(entry, { again: false }),
  onShare: (entry) => shareEntry(entry, { qr: (box, url) => drawQR(box, url, (request) => engine.call(request)) }),
});
// Every roll goes through the one pipeline; odds-like answers are asked once (widgets/pipeline.js).
const systemOf = (id) => (app.systems || []).find((s) => s.id === id);
const pipeline = createPipeline({ call: (request) => engine.call(request), stage: stagePresenter(systemOf), history, store: app.store, takeSeed });
const oddsCache = createOddsCache();
hooks.oddsCache = oddsCache; // tests: clear() makes the next odds be asked again
// The page's own module instances, for tests: the built site is bundled, so a test cannot
// import a module by its path and get the instance the page uses.
hooks.modules = { stage: stageHooks, i18n: { t }, replay: { linkOf }, dice3d: () => import("../stage/dice3d.js") };
// The play context (characters, opposition, combat, statistics, the sources helper).
const ctx = {
  engine, store, history, pipeline, showView, systems: () => app.systems, play: () => app.play,
  announce: (text, again) => announce(text, again),
  formParams: () => forms.formParams(), // the roll form's actor params, for the fair-dice test
};

const errors = new FormErrors({ app, byId: $ });
const odds = new OddsPanel({ app, engine, byId: $, gmTools, cache: oddsCache });
const refresh = () => odds.refresh();
const forms = new RollForms({ app, byId: $, ctx, odds, errors, saveState, announce });
const animation = new RollAnimation();
const card = new ResultCard({ app, byId: $, animation, announce, placement: (system) => placement.model(system), banner: () => replayLinks.banner() });
const picker = new SystemPicker({ app, byId: $, onPick: () => { saveState.flush(); card.clear(); forms.build(); refresh(); } });
const roller = new Roller({ app, pipeline, byId: $, errors, card, animation });
const saved = new SavedExpressions({ app, roller, engine, byId: $ }); // free dice kept by name (issue 23)
const placement = new Placement({ app, pipeline, errors, card, animation, history, announce });
const safe = new SafeStart({ app, showView, card, picker, forms });
const guarded = (step) => safe.guarded(step);
const putBack = new PutBack({ app, animation, picker, forms, refresh, saveState });
const historyReplay = new HistoryReplay({ app, showView, putBack, roller, card });
const replayLinks = new ReplayLinks({ app, showView, errors, card, putBack, roller, guarded, history, announce });

const screen = new RollScreen({ app, picker, forms, card, odds, history, bootPanel, renderPlayView: () => renderPlayView() });
const buildAll = () => screen.buildAll();

// ---------------------------------------------------------------------------- play screens

// The characters, combat, statistics and table screens are a chunk of their own
// (app/play.js), not parsed in the page's first tasks: imported once the engine is ready, or
// at once when one of their tabs is shown first or the page is given a table's invite.
const PLAY_VIEWS = ["characters", "combat", "stats", "table"];
let play = null; // {characters, combat, stats, table} once made
let playing = null; // the import under way
const tableNeeds = { call: (request) => engine.call(request), pipeline, takeSeed, showView, hooks, systems: () => app.systems, sheets: () => store.get("characters") };
function loadPlay() {
  playing ??= import("./play.js").then(
    ({ playScreens }) => {
      play = playScreens(ctx, $, tableNeeds);
      hooks.playScreens = "loading";
      play.loaded.finally(() => {
        hooks.playScreens = "loaded";
      });
      renderPlayView();
      return play;
    },
    (error) => {
      playing = null; // asked again at the next tab shown
      throw error;
    },
  );
  return playing;
}
/** loadPlay() where nothing waits for it: a failure is told in the console (and asked again). */
function openPlay() {
  loadPlay().catch((error) => console.error("the play screens could not be loaded", error));
}
// Until the table is made, a roll asks for it first: a device reloaded at a table rolls
// with the table's seed from its first roll (the Table, once made, is the seed source).
// Without the chunk (it could not be loaded) no table runs: the page's own seed.
pipeline.setSeedSource((request) => loadPlay().then((screens) => screens.table.seed(request, takeSeed), () => takeSeed()));
// An invite pasted into this tab's address before the table is made (it listens itself then).
addEventListener("hashchange", () => {
  if (!play && inviteOffer(location.hash)) openPlay();
});
const notices = new Notices($("notices"), { history: () => history.exportJSON(), characters: () => loadPlay().then((screens) => screens.characters.exportAll()) });
const views = new Views($("view-tabs"), (name) => {
  // The history list is one element: shown under the roller, or alone on its own screen.
  const panel = $("history-panel");
  const home = name === "history" ? $("view-history") : $("view-roll");
  if (panel.parentElement !== home) home.append(panel);
  if (!play && PLAY_VIEWS.includes(name)) openPlay();
  renderPlayView(false);
});
const heard = {}; // tests read what the store's subscribers heard (hooks.store)
store.subscribe(null, (keys) => keys.forEach((key) => { heard[key] = (heard[key] ?? 0) + 1; }));
hooks.store = {
  heard: () => ({ ...heard }),
  sizes: () => ({ history: store.get("history").length, characters: store.get("characters").length, fighters: store.get("fight")?.participants.length ?? 0, players: store.get("table")?.players.length ?? 0 }),
};

/** Draw the play screen on show (force: the language or the systems changed). */
function renderPlayView(force = true) {
  if (!play) return; // drawn once loaded (loadPlay)
  const { characters, combat, stats, table } = play;
  const name = views.current;
  if (name === "characters") {
    if (force || characters.renderedLang !== lang()) characters.render();
  } else if (name === "combat") combat.render();
  else if (name === "stats") stats.render();
  else if (name === "table") table.shown(); // drawn whenever its tab is shown: a fresh device can host
}

// ---------------------------------------------------------------------------- start

// The page starts in two tasks, none over 50 ms on a slow machine: the static text, the
// events and the screen; the forms. Nothing it writes at start builds an Intl object (the
// first costs 20–40 ms: lib/numbers.js). Each step runs guarded: a throw while drawing means
// the safe start.
async function startPage() {
  applyStatic(document);
  updateLangButtons();
  wireControls({ app, byId: $, engine, gmTools, roller, card, forms, odds, bootPanel, history, saveState, openReplayLink: () => replayLinks.open(), onLang: () => { screen.languageChanged(); saved.render(); live.languageChanged(); } });
  card.clear();
  odds.draw();
  $("skip-hint").after(diceSettings());
  views.show(location.hash.startsWith(PREFIX) ? "roll" : inviteOffer(location.hash) ? "table" : views.initial());
  await nextTask();
  if (app.systems) buildAll();
  else history.render();
  forms.applyMode();
  saved.render();
}

async function init() {
  try {
    await startPage();
  } catch (error) {
    safe.start(error);
  }
  if (bundledSystems) {
    const description = await bundledSystems;
    guarded(() => screen.adoptBundled(description));
  }
}

init();
