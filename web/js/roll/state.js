// The roll screen's state: what is kept between visits (system, mode, physical dice, the
// values typed per system and side) and what the page knows while it runs (the engine's
// description of the systems, whether the engine answers, the forms, the roll shown).
// Pure: no page, no storage; main.js reads storage and hands the values in.

import { bindKeys, createStore } from "../lib/store.js";

export const STATE_KEY = "pyrules:state";
export const SYSTEMS_KEY = "pyrules:systems";
export const SIDES = ["actor", "opponent"];

/** The stored state, checked field by field (anything else falls back to the default). */
export function restoreState(saved) {
  const stored = saved && typeof saved === "object" ? saved : {};
  return {
    system: typeof stored.system === "string" ? stored.system : null,
    mode: stored.mode === "oppose" ? "oppose" : "single",
    physical: Boolean(stored.physical),
    values: stored.values && typeof stored.values === "object" ? stored.values : {},
    ui: stored.ui && typeof stored.ui === "object" ? stored.ui : {},
  };
}

/**
 * A kept description of the systems ({systems, play, digest}); nulls if none. `digest` is the
 * engine's digest of that description: the page skips its `systems` call when the engine has
 * the same (app/boot.js).
 */
export function restoreSystems(kept) {
  const systems = kept && Array.isArray(kept.systems) ? kept.systems : null;
  return {
    systems,
    play: kept && kept.play && typeof kept.play === "object" ? kept.play : null,
    digest: systems && typeof kept.digest === "string" ? kept.digest : null,
  };
}

/** The sides a mode rolls: the actor alone, or both in an opposition. */
export function sidesOf(mode) {
  return mode === "oppose" ? SIDES : ["actor"];
}

/** The seed asked for when it is a non-negative safe integer, else a fresh one. */
export function seedOr(asked, fresh) {
  return Number.isSafeInteger(asked) && asked >= 0 ? asked : fresh();
}

/** The keys of the state kept between visits (app.state), and those that live while the page does. */
export const STORED_KEYS = ["system", "mode", "physical", "values", "ui"];
export const LIVE_KEYS = ["systems", "play", "digest", "engineReady", "booted", "safeStarted", "forms", "current", "rolling", "formError"];

/**
 * The roll screen's state, in one store (lib/store.js): `app.store` holds every key, and
 * `app.key = v` / `app.state.key = v` are store writes whose subscribers run. `state` is
 * what is stored; the rest lives while the page does: systems, play and digest (the engine's
 * description and its digest), engineReady, booted (the first boot is over), safeStarted, forms (one
 * SideForm per side), current (the roll on the result card: {request, result, entry, base,
 * replay, recorded}), rolling (a roll is being sent: the pipeline's origin, or null) and
 * formError (a side of the roll form shows an error: the roll bar greys its chance out).
 * Modules read app.key and subscribe with app.subscribe(keys, fn).
 */
export function createRollApp(stored = {}, store = createStore()) {
  store.set({
    ...restoreState(stored),
    systems: null,
    play: null,
    digest: null,
    engineReady: false,
    booted: false,
    safeStarted: false,
    forms: { actor: null, opponent: null },
    current: null,
    rolling: null,
    formError: false,
  });
  const app = {
    store,
    state: bindKeys({}, store, STORED_KEYS),
    subscribe: (keys, fn) => store.subscribe(keys, fn),
    /** The chosen system, or the first one when the stored id is unknown. */
    currentSystem() {
      const systems = store.get("systems");
      return systems ? systems.find((s) => s.id === store.get("system")) || systems[0] : null;
    },
    /** The values typed on one side for the current system (created on first use). */
    sideValues(side) {
      return slot(store, "values", app.currentSystem().id, side);
    },
    /** The interface state (open panels…) of one side for the current system. */
    sideUI(side) {
      return slot(store, "ui", app.currentSystem().id, side);
    },
    /** The form's values changed in place (a field typed): the store's subscribers hear it. */
    valuesChanged() {
      store.set({ values: { ...store.get("values") } });
    },
  };
  return bindKeys(app, store, LIVE_KEYS);
}

/** The object of one side of one system under the store's `key`, made through the store
 * when it is missing (a new top-level object: its subscribers hear it). */
function slot(store, key, system, side) {
  const all = store.get(key);
  if (all[system]?.[side]) return all[system][side];
  const made = {};
  store.set({ [key]: { ...all, [system]: { ...all[system], [side]: made } } });
  return made;
}
