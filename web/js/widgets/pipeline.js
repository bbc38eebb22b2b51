// The roll pipeline (issue 21): one module owns every roll,
// wherever it starts (the roll screen, quick rolls, oppositions, combat actions, replays, the
// shared table). A flow only builds its engine request; the pipeline
//   - adds the seed (the request's own, else the seed source's, else the page's),
//   - sends ONE engine call (the answer carries the luck and the chance: contract item 5),
//   - plays the answer (the flow's own result area, or the stage),
//   - records it once landed in the history (one entry, its luck and chance from the answer),
//   - tells its listeners.
// A second roll() of the same origin while one is in flight (sent, not yet landed) is ignored:
// a double tap is one roll.
//
//   const pipeline = createPipeline({ call, stage, history, stats, store, takeSeed })
//     call(request) -> Promise<answer>            the engine (engine.js's call)
//     stage.play({request, answer, who, opts})    -> Promise, resolved once the dice have landed
//     history.add(entry) -> bool                  the history list
//     stats?.record(entry, answer)                after an entry was recorded (optional)
//     store?                                       lib/store.js: `rolling` = the origin in flight
//     takeSeed?() -> seed                          the page's seed (window.pyrules.nextSeed, else fresh)
//   await pipeline.roll(request, who, opts) -> {answer, entry, request} | {answer, request} (refused)
//                                           | null (ignored: this origin is already rolling)
//     who: {id?, name, label?} for a roll; {actor: who, opponent: who} for an opposition
//     opts: origin (or source: "roll" by default; "table" for the shared table), physical (no seed: the faces are in the request),
//           hidden (recorded, not played), record (false: shown, not recorded — a replay),
//           present({request, answer, entry, who}) -> Promise (the flow's own area instead of
//           the stage), entry(request, answer) -> entry (a flow's own history entry: combat),
//           sent(request) (called once the request is on its way: the flow's busy state)
//           placement (true: a new placement of the Flame dice of the roll shown; the
//           listeners hear it even when not recorded: the shared table sends it)
//   pipeline.onRolled(listener)   listener({request, answer, entry, who, opts}) after landing
//   pipeline.setSeedSource(fn, {refused}?)  fn(request) -> Promise<seed|null> (null: the engine
//                                 draws one); refused(request): the engine refused the request
//                                 that seed was given to (a seed's whole life is the pipeline's)
//   pipeline.show(answer, who, opts)  play + record an answer from elsewhere (opts.request: its request)
//   pipeline.rolling(origin)      whether a roll of that origin is in flight
//
// createOddsCache(max): the page's cache of odds-like answers, keyed by the request's JSON.

import { entryFrom } from "./entry.js";

/** The statistics of a roll, read from the engine's answer: {luck, success} or each side's luck. */
export function luckOf(request, result) {
  if (request.op === "oppose") {
    const side = (s) => (result[s] && !(result.physical ?? result[s].physical) ? (result[s].luck ?? result[s].own?.luck ?? null) : null);
    return { actorLuck: side("actor"), opponentLuck: side("opponent") };
  }
  if (result.physical) return {};
  // A free-dice sum is no success test: no chance of success is kept (its chance object says 1).
  if (result.kind === "sum") return { luck: result.luck ?? null, success: null };
  return { luck: result.luck ?? null, success: result.chance?.success ?? null };
}

/** Who rolled, as a history entry keeps it: {who} for a roll, {actorWho, opponentWho} for an opposition. */
export function whoFields(request, who) {
  if (!who) return {};
  if (request.op === "oppose") {
    const out = {};
    if (who.actor) out.actorWho = who.actor;
    if (who.opponent) out.opponentWho = who.opponent;
    return out;
  }
  return { who };
}

/**
 * The request as a history entry keeps it: a sheet roll ({sheet: {character, entry, situation}})
 * keeps the params the engine built from the sheet (the answer's), not a copy of the sheet.
 */
export function withoutSheets(request) {
  const strip = (params) => {
    if (!params || typeof params !== "object" || !("sheet" in params)) return params;
    const { sheet, ...rest } = params; // eslint-disable-line no-unused-vars
    return rest;
  };
  const out = { ...request };
  for (const key of ["params", "actor", "opponent"]) if (key in out) out[key] = strip(out[key]);
  return out;
}

/** The history entry of an answer: entry.js's, with who rolled and the answer's luck and chance. */
export function pipelineEntry(request, result, who) {
  return { ...entryFrom(withoutSheets(request), result, whoFields(request, who)), ...luckOf(request, result) };
}

export function createPipeline({ call, stage = null, history = null, stats = null, store = null, takeSeed = null }) {
  const inFlight = new Set();
  const listeners = new Set();
  let seedSource = null;
  let seedRefused = null;

  const busy = (origin, on) => {
    if (on) inFlight.add(origin);
    else inFlight.delete(origin);
  };
  const sending = (origin) => store?.set({ rolling: origin });

  async function seeded(request, opts) {
    if (request.seed !== undefined || opts.physical) return request;
    let seed = null;
    if (seedSource) seed = await seedSource(request);
    else if (takeSeed) seed = takeSeed();
    return seed === null || seed === undefined ? request : { ...request, seed };
  }

  async function land(request, answer, who, opts) {
    const result = answer.result;
    const entry = opts.entry ? opts.entry(request, answer) : pipelineEntry(request, result, who);
    const present = opts.hidden ? null : opts.present || (stage ? (shown) => stage.play({ ...shown, opts }) : null);
    if (present) await present({ request, answer, entry, who });
    if (opts.record !== false && entry && history) {
      if (history.add(entry)) stats?.record?.(entry, answer);
    }
    for (const listener of [...listeners]) {
      try {
        listener({ request, answer, entry, who, opts });
      } catch (error) {
        console.error("[pyrules] a roll listener failed:", error);
      }
    }
    return entry;
  }

  return {
    async roll(request, who = null, opts = {}) {
      const origin = opts.origin ?? opts.source ?? "roll"; // pipeline.md names it `source`
      if (inFlight.has(origin)) return null; // a double tap: the roll in flight is the one
      busy(origin, true);
      sending(origin); // busy from the tap: a table roll's seed takes a round trip first
      try {
        let sent;
        let answer;
        try {
          sent = await seeded(request, opts);
          opts.sent?.(sent);
          answer = await call(sent);
        } finally {
          if (store?.get("rolling") === origin) sending(null);
        }
        if (!answer.ok) {
          if (sent.seed !== request.seed) seedRefused?.(sent); // the seed this pipeline added: void
          return { answer, request: sent };
        }
        const entry = await land(sent, answer, who, opts);
        return { answer, entry, request: sent };
      } finally {
        busy(origin, false);
      }
    },

    /** Play and record an answer that did not come from this page's call (a peer, a link). */
    async show(answer, who = null, opts = {}) {
      if (!answer?.ok || !opts.request) return null;
      const entry = await land(opts.request, answer, who, opts);
      return { answer, entry, request: opts.request };
    },

    onRolled(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    setSeedSource(fn, { refused = null } = {}) {
      seedSource = typeof fn === "function" ? fn : null;
      seedRefused = typeof refused === "function" ? refused : null;
    },

    rolling(origin = "roll") {
      return inFlight.has(origin);
    },
  };
}

/**
 * The page's cache of answers that only depend on the request (odds, oppose_odds, dice): the
 * same request is never asked twice. Bounded (the oldest use leaves first); only answers that
 * came back ok are kept (a refusal may come from a worker being restarted).
 */
export function createOddsCache(max = 64) {
  const kept = new Map(); // JSON of the request -> Promise of the answer
  const key = (request) => JSON.stringify(request);
  return {
    get(request) {
      const k = key(request);
      if (!kept.has(k)) return undefined;
      const value = kept.get(k);
      kept.delete(k);
      kept.set(k, value); // most recently used last
      return value;
    },
    /** The answer to `request`: the kept one, else call(request) (kept once it is ok). */
    ask(request, call) {
      const hit = this.get(request);
      if (hit) return hit;
      const k = key(request);
      const asked = Promise.resolve(call(request)).then((answer) => {
        if (!answer?.ok) kept.delete(k);
        return answer;
      });
      asked.catch(() => kept.delete(k));
      kept.set(k, asked);
      while (kept.size > max) kept.delete(kept.keys().next().value);
      return asked;
    },
    clear() {
      kept.clear();
    },
    get size() {
      return kept.size;
    },
  };
}
