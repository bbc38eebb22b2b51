// What the GM's device keeps of its table across a reload (issue 24): the roster (each
// player's id, name, dice colour, secret token, last roll acknowledged) and the table's
// rolls, under "pyrules:table-host". After a reload the host shows its table again, every
// player gone until re-invited; a player coming back with its token keeps its id.
// What is read back is untrusted (storage): each part is checked here, junk is dropped,
// nothing throws.

import { cleanColour } from "../lib/dice-colours.js";
import { MAX_ROSTER, cleanName } from "../lib/table-protocol.js";

export const HOST_KEY = "pyrules:table-host";
export const MAX_KEPT = 200; // rolls of the table kept across a reload (each list)

const ID = /^p[1-9][0-9]{0,3}$/;
const TOKEN = /^[0-9a-f]{32}$/;
const STATUSES = new Set(["yes", "no", "physical", "offline", "host", "sent", "kept"]);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isCount = (v, min = 0) => Number.isSafeInteger(v) && v >= min;
const text = (v, max) => (typeof v === "string" ? v.slice(0, max) : null);
const isDate = (v) => typeof v === "string" && v.length < 40 && !Number.isNaN(Date.parse(v));

/** One player of a kept roster, or null. */
function cleanPlayer(p) {
  if (!isObject(p) || !ID.test(p.id) || !TOKEN.test(p.token)) return null;
  return { id: p.id, name: cleanName(p.name), colour: cleanColour(p.colour), token: p.token, acked: isCount(p.acked, -1) ? p.acked : -1, next: isCount(p.next) ? p.next : 0 };
}

/** One roll of a kept log (the fields the Table screen and log() show), or null. */
export function cleanLogEntry(e) {
  if (!isObject(e) || !(ID.test(e.from) || e.from === "gm" || e.from === "me")) return null;
  if (typeof e.system !== "string" || !e.system || e.system.length > 40) return null;
  const seed = Number.isSafeInteger(e.seed) && e.seed >= 0 ? e.seed : null;
  const outcome = typeof e.outcome === "string" || typeof e.outcome === "number" ? e.outcome : null;
  return {
    from: e.from, name: cleanName(e.name), colour: cleanColour(e.colour), system: e.system, seed,
    outcome: typeof outcome === "string" ? outcome.slice(0, 40) : outcome,
    headline: typeof e.headline === "string" ? e.headline.slice(0, 40) : "",
    verified: e.verified === true, status: STATUSES.has(e.status) ? e.status : "no", hidden: e.hidden === true,
    revealed: e.revealed === true, placed: e.placed === true,
    diff: Array.isArray(e.diff) ? e.diff.filter((d) => typeof d === "string").slice(0, 8).map((d) => d.slice(0, 200)) : [],
    time: isDate(e.time) ? e.time : null, offline: e.offline === true,
  };
}

const cleanLog = (list) => (Array.isArray(list) ? list.slice(-MAX_KEPT).map(cleanLogEntry).filter(Boolean) : []);

/**
 * The table kept by a GM's device, checked: {roster: {players, lastId, count}, received,
 * mine, hidden}, or null when nothing usable was kept (no roster: no table to restore).
 */
export function readHostState(kept) {
  if (!isObject(kept) || !isObject(kept.roster) || !Array.isArray(kept.roster.players)) return null;
  const players = [];
  const ids = new Set();
  for (const raw of kept.roster.players.slice(0, MAX_ROSTER)) {
    const player = cleanPlayer(raw);
    if (player && !ids.has(player.id)) {
      ids.add(player.id);
      players.push(player);
    }
  }
  // Ids are never given twice: the next one is past every id kept.
  const highest = Math.max(0, ...players.map((p) => Number(p.id.slice(1))));
  const lastId = Math.min(9999, Math.max(highest, isCount(kept.roster.lastId) ? kept.roster.lastId : 0));
  const count = isCount(kept.roster.count) ? Math.min(kept.roster.count, 9000) : 0;
  return { roster: { players, lastId, count }, received: cleanLog(kept.received), mine: cleanLog(kept.mine), hidden: kept.hidden === true };
}

/** What a GM's device stores of its table: the roster and both logs, without requests or answers. */
export function hostState({ roster, received, mine, hidden }) {
  const fields = ({ from, name, colour, system, seed, outcome, headline, verified, status, hidden: h, revealed, placed, diff, time, offline }) => ({ from, name, colour, system, seed, outcome, headline, verified, status, hidden: h, revealed, placed, diff, time, offline });
  return { roster, received: received.slice(-MAX_KEPT).map(fields), mine: mine.slice(-MAX_KEPT).map(fields), hidden };
}
