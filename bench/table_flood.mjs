// The shared table under a flood (issue 38): how long an honest player's roll takes to be
// verified on the GM's device while another player floods it with 6,000 junk rolls (3,000
// naming exchanges never opened, 3,000 « hors table »), against the same roll on a quiet
// table, side by side in one run.
//
//   node bench/table_flood.mjs [--rounds N]
//
// The GM and two players run as in tests/js/table-flow.test.js: the real host.js, player.js
// and roll pipeline on the in-memory network (tests/js/table-net.js), every engine call
// answered by pyrules.api.handle in one CPython (the engine's own cost is the same in both
// columns; the ratio is what the table's bounds buy). Prints one JSON object: each round's
// milliseconds, the medians, the ratio flood/quiet, and how many rolls of the flood reached
// the GM's engine.
import { parseArgs } from "node:util";

import { TableHost } from "../web/js/sharing/host.js";
import { TablePlayer } from "../web/js/sharing/player.js";
import { createPipeline } from "../web/js/widgets/pipeline.js";
import { engineProcess } from "../tests/js/helpers.js";
import { network } from "../tests/js/table-net.js";

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "7" } } });
const D6 = { op: "roll", system: "d6", params: { attribute: 3, skill: 2, difficulty: 9 }, lang: "fr" };
const engine = engineProcess();

const until = async (cond) => {
  while (!cond()) await new Promise((resolve) => setTimeout(resolve, 0));
};

function device(net) {
  const player = new TablePlayer({ storage: { read: () => null, write: () => {} }, call: engine.call, newPeer: net.newPeer });
  const pipeline = createPipeline({ call: engine.call });
  pipeline.setSeedSource((request) => player.seedFor(request), { refused: (request) => player.refused(request) });
  pipeline.onRolled(({ request, answer }) => player.rolled({ request, answer }));
  return { player, pipeline };
}

async function table() {
  const net = network();
  const rolls = [];
  const host = new TableHost({ call: engine.call, newPeer: net.newPeer, onRoll: (e) => rolls.push(e) });
  const seat = async (d, name) => {
    const invite = await host.invite();
    await host.accept(await d.player.answer(invite.text, { name }));
    await until(() => d.player.connected);
  };
  const a = device(net);
  const b = device(net);
  await seat(a, "Aïcha");
  await seat(b, "Bruno");
  return { host, rolls, a, b };
}

/** ms from Bruno's tap to his roll verified on the GM's device; flood: Aïcha's junk first. */
async function round(flood) {
  const { host, rolls, a, b } = await table();
  const before = engine.asked.roll ?? 0;
  if (flood) {
    const junk = JSON.stringify({ t: "roll", k: 1, n: 999, reveal: "a".repeat(64), request: D6, answer: { ok: true, result: {} } });
    for (let i = 0; i < 3000; i += 1) a.player.sendRaw(junk);
    for (let k = 0; k < 3000; k += 1) a.player.sendRaw(JSON.stringify({ t: "roll", k, offline: true, request: { ...D6, seed: k }, answer: { ok: true, result: {} } }));
  }
  const start = performance.now();
  await b.pipeline.roll(D6);
  await until(() => rolls.some((e) => e.from === "p2" && e.status === "yes"));
  const ms = performance.now() - start;
  await until(() => host.players.get("p1").conn.queued === 0);
  const replays = (engine.asked.roll ?? 0) - before - 2; // Bruno's own roll and the GM's replay of it
  host.close();
  return { ms, replays };
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const rounds = [];
await round(false); // warm-up: the engine's first answers
for (let i = 0; i < Number(args.rounds); i += 1) {
  const quiet = await round(false);
  const flooded = await round(true);
  rounds.push({ quiet: Math.round(quiet.ms), flood: Math.round(flooded.ms), floodReplays: flooded.replays });
}
engine.close();
const quiet = median(rounds.map((r) => r.quiet));
const flood = median(rounds.map((r) => r.flood));
console.log(JSON.stringify({ rounds, quiet, flood, ratio: Number((flood / quiet).toFixed(2)), maxFloodReplays: Math.max(...rounds.map((r) => r.floodReplays)) }, null, 1));
