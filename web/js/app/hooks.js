// The page's test and scripting hooks, window.pyrules:
//   call(request)  -> Promise of the parsed answer of pyrules.api.handle (object or JSON text)
//   ready          -> Promise resolved once a roll is possible (also performance mark "pyrules:ready")
//   nextSeed       -> set to an integer to make the next roll from the interface use that seed
//                     (also settable with the URL parameter ?seed=N, for the first roll);
//                     quick rolls, opposed rolls between characters and combat actions use it too
//   pendingWork()  -> how many debounced updates are scheduled or running (0: the page is settled)
//   shownFaces()   -> the faces the roll stage's dice show, in the order of the result's dice
//                     (3D: read back from each die's orientation; see stage.js)
//   shownLayout()  -> where each 3D die shows on screen: [{index, role, x}] (a d100's tens
//                     and units; x from -1, left, to 1, right)
//   debug          -> engine test hooks (see engine.js and docs/reliability.md):
//                     kill() crashes the worker, stall() makes it stop answering,
//                     timeouts({call, boot}) shortens the watchdog, delay(ms) holds answers;
//                     the table's (sharing/table.js): tableCut(), tableSend(text),
//                     tamperNextTableRoll(), tableLimits({gather, connect}) shortens its waits
//   version        -> the engine's version, once ready
//   oddsCache      -> the page's cache of odds answers (widgets/pipeline.js): clear() makes the
//                     next odds, dice plans and oppositions' odds be asked again (set by main.js)
//   modules        -> the page's own module instances for tests (set by main.js): stage (the
//                     stage's testHooks), i18n ({t}), replay ({linkOf}), dice3d() (the 3D
//                     dice module, imported on first use)
//   store          -> the page's one store, read only (set by main.js): heard() counts the
//                     changes its subscribers heard, by key; sizes() the rolls kept, the
//                     characters and the fighters its slices hold
//   table          -> the shared table, read only (sharing/table.js): peers(), log(), mine();
//                     set once the play screens are made
//   playScreens    -> the characters, combat, statistics and table screens (app/play.js, set
//                     by main.js): null until made (after ready, or when a tab of theirs is
//                     shown, an invite is opened or a roll asks the table for its seed),
//                     "loading" until the stored characters are read and judged, then "loaded"

import { pendingWork } from "../lib/dom.js";
import { shownFaces, shownLayout } from "../stage/stage.js";

/** The seed a ?seed=N parameter asks for (digits only), or null. */
export function urlSeed(search) {
  const seed = new URLSearchParams(search).get("seed");
  return seed !== null && /^\d+$/.test(seed) ? Number(seed) : null;
}

/**
 * Set window.pyrules and return it with ready() to call once a roll is possible.
 */
export function installHooks(engine, search = location.search) {
  let resolveReady;
  const ready = new Promise((resolve) => {
    resolveReady = resolve;
  });
  window.pyrules = {
    call: (request) => engine.call(request),
    ready,
    nextSeed: urlSeed(search),
    version: null,
    debug: engine.debug,
    pendingWork, // debounced work (odds, dice groups, sources, stats) not done yet: tests wait for 0
    shownFaces,
    shownLayout,
    playScreens: null,
  };
  return { hooks: window.pyrules, resolveReady };
}
