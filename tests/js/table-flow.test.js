// The shared table's protocol below the browser (issue 38): a host and players on an
// in-memory network (table-net.js), each checking rolls with the real engine (one python,
// pyrules.api.handle), the rolls made through the real roll pipeline.

import assert from "node:assert/strict";
import { after, test } from "node:test";

import { RATE, TableHost } from "../../web/js/sharing/host.js";
import { TablePlayer } from "../../web/js/sharing/player.js";
import { LIMITS } from "../../web/js/sharing/peer.js";
import { createPipeline } from "../../web/js/widgets/pipeline.js";
import { commitment, randomValue, seedOf } from "../../web/js/lib/table-protocol.js";
import { engineProcess } from "./helpers.js";
import { network } from "./table-net.js";

const engine = engineProcess();
after(() => engine.close());

const D6 = { op: "roll", system: "d6", params: { attribute: 3, skill: 2, difficulty: 9 }, lang: "fr" };

/**
 * Resolves once cond() holds (checked after every turn of the event loop): never a fixed
 * wait. The bound only says how long a failure takes to be told, on a busy machine.
 */
async function until(cond, what = "condition") {
  const limit = Date.now() + 120000;
  while (!cond()) {
    if (Date.now() > limit) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const memory = (kept = {}) => ({ data: kept, read: (key) => kept[key] ?? null, write: (key, value) => (kept[key] = structuredClone(value)) });

/** A GM's device: its host, and the rolls it logged. */
function gm(net, options = {}) {
  const rolls = [];
  const notices = [];
  const host = new TableHost({ call: engine.call, newPeer: net.newPeer, onRoll: (e) => rolls.push(e), onNotice: (n) => notices.push(n), ...options });
  return { host, rolls, notices };
}

/** A player's device: its table side, the rolls it saw, and its roll pipeline (seeded by the table). */
function device(net, { storage = memory(), sheets = () => [] } = {}) {
  const rolls = [];
  const notices = [];
  const player = new TablePlayer({ storage, call: engine.call, sheets, newPeer: net.newPeer, onRoll: (e) => rolls.push(e), onNotice: (n) => notices.push(n) });
  const pipeline = createPipeline({ call: engine.call });
  // As the page's table.js: the fair exchange's seed at a table, else one of the device's own.
  const own = () => Math.floor(Math.random() * 2 ** 40);
  pipeline.setSeedSource(async (request) => (await player.seedFor(request)) ?? own(), { refused: (request) => player.refused(request) });
  pipeline.onRolled(({ request, answer, opts }) => player.rolled({ request, answer, placed: Boolean(opts.placement) }));
  return { player, rolls, notices, pipeline, storage };
}

/** A GM and two players seated, Aïcha (a) and Bruno (b), for `body`; the table closed after. */
async function seated(body) {
  const net = network();
  const g = gm(net);
  const a = device(net);
  const b = device(net);
  try {
    await join(g, a);
    await join(g, b, "Bruno");
    await body({ net, g, a, b });
  } finally {
    g.host.close();
  }
}

async function join(g, d, name = "Aïcha") {
  const invite = await g.host.invite();
  const text = await d.player.answer(invite.text, { name });
  const result = await g.host.accept(text);
  await until(() => d.player.connected, "welcome");
  return result;
}

test("a player joins, rolls, and the GM and the other player each verify it with their own engine", async () => {
  const net = network();
  const g = gm(net);
  const a = device(net);
  const b = device(net);
  try {
    assert.deepEqual(await join(g, a), { ok: true, id: "p1" });
    assert.deepEqual(await join(g, b, "Bruno"), { ok: true, id: "p2" });
    const rolled = await a.pipeline.roll(D6);
    await until(() => g.rolls.length === 1 && b.rolls.length === 1, "the roll everywhere");
    assert.equal(g.rolls[0].status, "yes", g.rolls[0].diff.join());
    assert.equal(g.rolls[0].seed, rolled.request.seed);
    assert.equal(b.rolls[0].status, "yes", b.rolls[0].diff.join());
    assert.equal(b.rolls[0].verified, true);
    assert.equal(b.rolls[0].answer.result.headline, rolled.answer.result.headline);
  } finally {
    g.host.close();
  }
});

test("after the tap the player commits, then gets the host's value, then sends its roll: no seed is known before", async () => {
  const net = network();
  const g = gm(net);
  const a = device(net);
  try {
    await join(g, a);
    const start = net.log.length;
    const rolled = await a.pipeline.roll(D6);
    await until(() => g.rolls.length === 1);
    const talk = net.log.slice(start).map(({ from, text }) => ({ from, m: JSON.parse(text) })).filter(({ m }) => m.t !== "ping");
    assert.deepEqual(talk.map(({ from, m }) => `${from}:${m.t}`), ["player:commit", "host:value", "player:roll", "host:ack"]);
    const [commit, value, roll] = talk.map(({ m }) => m);
    // The commitment binds the request and the player's value, revealed only in the roll.
    assert.equal(commit.n, value.n);
    assert.equal(roll.n, commit.n);
    assert.equal(await commitment(roll.reveal, rolled.request), commit.c);
    assert.equal(await seedOf(roll.reveal, value.value, commit.n), rolled.request.seed);
    // Nothing the host sent before the commitment could have told the seed: no value at all.
    const before = net.log.slice(0, start).map(({ text }) => JSON.parse(text));
    assert.ok(!before.some((m) => m.t === "value"), "a value travelled ahead of its roll");
  } finally {
    g.host.close();
  }
});

test("a join whose first message is lost completes: the hello is said again, the welcome repeated", async () => {
  const seen = { hello: 0, welcome: 0 };
  const net = network({ drop: (side, text) => Object.hasOwn(seen, JSON.parse(text).t) && seen[JSON.parse(text).t]++ === 0 });
  const g = gm(net);
  const a = device(net);
  try {
    assert.deepEqual(await join(g, a), { ok: true, id: "p1" });
    assert.ok(seen.hello >= 3 && seen.welcome >= 2, JSON.stringify(seen)); // the first hello and the first welcome were lost
    assert.equal(g.host.players.size, 1);
  } finally {
    g.host.close();
  }
});

test("a join that never completes says so on both sides within the join limit", async () => {
  const before = { ...LIMITS };
  LIMITS.join = 300; // the same timer, not the same patience
  const net = network({ drop: (side, text) => JSON.parse(text).t === "hello" });
  const g = gm(net);
  const a = device(net);
  try {
    const invite = await g.host.invite();
    const text = await a.player.answer(invite.text, { name: "Aïcha" });
    assert.deepEqual(await g.host.accept(text), { ok: false, error: "timeout" });
    await until(() => a.notices.some((n) => n.kind === "timeout"), "the player is told");
    assert.equal(a.player.failed, "timeout");
    assert.equal(a.player.connected, false);
  } finally {
    Object.assign(LIMITS, before);
    g.host.close();
  }
});

test("a join the host gives up first is said on the player's side too", async () => {
  // The host's limit counts from its accept, the player's from its link being up: the host
  // may close first. The player is told the join failed, not left with a link that just went.
  const before = { ...LIMITS };
  LIMITS.join = 600000; // neither side's own limit can say it here: only the host's close
  const net = network({ drop: (side, text) => JSON.parse(text).t === "hello" });
  const hostPeers = [];
  const g = gm({ ...net, newPeer: (...args) => hostPeers.at(hostPeers.push(net.newPeer(...args)) - 1) });
  const a = device(net);
  try {
    const invite = await g.host.invite();
    const text = await a.player.answer(invite.text, { name: "Aïcha" });
    const accepted = g.host.accept(text);
    await until(() => a.player.joinTimer !== null, "the player's link is up");
    hostPeers.at(-1).close(); // the host gives the join up
    await until(() => a.notices.some((n) => n.kind === "timeout"), "the player is told");
    assert.equal(a.player.failed, "timeout");
    assert.equal(a.notices.filter((n) => n.kind === "timeout").length, 1);
    assert.equal((await accepted).ok, false);
  } finally {
    Object.assign(LIMITS, before);
    g.host.close();
  }
});

test("only the invite on screen holds a seat: ten unused invites leave room, a used one is gone", async () => {
  const net = network();
  const g = gm(net);
  try {
    assert.equal(await g.host.gmRolls.seed(D6), null); // no player yet: the GM rolls alone, unchecked
    for (let i = 0; i < 10; i += 1) assert.ok((await g.host.invite()).text);
    assert.equal(g.host.invites.size, 1);
    assert.equal(g.host.seats(), 1);
    const a = device(net);
    await join(g, a);
    assert.equal(g.host.invites.size, 0);
    assert.equal(g.host.seats(), 1);
  } finally {
    g.host.close();
  }
});

test("six refused rolls spend no seed: the seventh, a good one, is verified", async () => {
  const net = network();
  const g = gm(net);
  const a = device(net);
  try {
    await join(g, a);
    for (let i = 0; i < 6; i += 1) {
      const refused = await a.pipeline.roll({ op: "roll", system: "notation", params: { expression: "3d6+" }, lang: "fr" });
      assert.equal(refused.answer.ok, false);
    }
    await a.pipeline.roll(D6);
    await until(() => g.rolls.length === 1);
    assert.equal(g.rolls[0].status, "yes", g.rolls[0].diff.join());
    assert.equal(g.host.players.get("p1").pending.size, 0); // each refused roll was voided, none waits
  } finally {
    g.host.close();
  }
});

test("a roll altered by the player, or relayed altered by the host, is « non vérifié » where it is checked", () =>
  seated(async ({ g, a, b }) => {
    a.player.tamper = true;
    await a.pipeline.roll(D6);
    await until(() => g.rolls.length === 1 && b.rolls.length === 1);
    assert.equal(g.rolls[0].status, "no");
    assert.ok(g.rolls[0].diff.some((d) => d.startsWith("result.margin")), g.rolls[0].diff.join());
    assert.equal(b.rolls[0].status, "no");
    // An honest roll, altered by the host on its way to the others: the GM's device says
    // « vérifié », the other player's own engine does not.
    g.host.tamperRelay = true;
    await a.pipeline.roll(D6);
    await until(() => g.rolls.length === 2 && b.rolls.length === 2);
    assert.equal(g.rolls[1].status, "yes");
    assert.equal(b.rolls[1].status, "no");
    assert.equal(b.rolls[1].verified, false);
    assert.ok(b.rolls[1].diff.some((d) => d.startsWith("result.margin")), b.rolls[1].diff.join());
  }));

test("the GM's visible roll takes a player's value; one seeded by the GM alone is not verified", () =>
  seated(async ({ g, a, b }) => {
    const seed = await g.host.gmRolls.seed(D6);
    assert.ok(Number.isSafeInteger(seed));
    const request = { ...D6, seed };
    g.host.gmRolls.share({ request, answer: await engine.call(request), hidden: false });
    await until(() => a.rolls.length === 1 && b.rolls.length === 1);
    assert.equal(a.rolls[0].status, "yes", a.rolls[0].diff.join()); // a gave the value, and checks it was used
    assert.equal(b.rolls[0].status, "yes", b.rolls[0].diff.join());
    // Planted wrong: the GM picks the seed itself, and shows a player's value it never used.
    const honest = await g.host.gmRolls.seed(D6);
    const proof = g.host.gmRolls.own.get(honest);
    const chosen = { ...D6, seed: 4242 };
    g.host.gmRolls.own.set(4242, proof);
    g.host.gmRolls.share({ request: chosen, answer: await engine.call(chosen), hidden: false });
    await until(() => a.rolls.length === 2 && b.rolls.length === 2);
    for (const d of [a, b]) {
      assert.equal(d.rolls[1].status, "no");
      assert.ok(d.rolls[1].diff.some((x) => x.startsWith("seed: 4242")), d.rolls[1].diff.join());
    }
    // And a roll that claims a player's value that player never gave: that player says so.
    const lie = { ...proof, value: randomValue() };
    const lieSeed = await seedOf(lie.reveal, lie.value, `gm${lie.n}`);
    g.host.gmRolls.own.set(lieSeed, lie);
    const lied = { ...D6, seed: lieSeed };
    g.host.gmRolls.share({ request: lied, answer: await engine.call(lied), hidden: false });
    await until(() => a.rolls.length === 3);
    const giver = proof.by === a.player.place.id ? a : b;
    await until(() => giver.rolls.length === 3);
    assert.equal(giver.rolls[2].status, "no");
    assert.ok(giver.rolls[2].diff.includes("value"), giver.rolls[2].diff.join());
  }));

test("the GM's hidden roll is shown to nobody, then revealed and checked by every player", () =>
  seated(async ({ g, a, b }) => {
    const seed = await g.host.gmRolls.seed(D6);
    const request = { ...D6, seed };
    const answer = await engine.call(request);
    const { h } = g.host.gmRolls.share({ request, answer, hidden: true });
    await until(() => a.rolls.length === 1 && b.rolls.length === 1);
    for (const d of [a, b]) {
      assert.equal(d.rolls[0].hidden, true);
      assert.equal(d.rolls[0].request, null); // nothing of it but that it was made
      assert.equal(d.rolls[0].h, h);
    }
    assert.equal(g.host.gmRolls.reveal(h), true);
    assert.equal(g.host.gmRolls.reveal(h), false); // once
    await until(() => a.rolls.length === 2 && b.rolls.length === 2);
    for (const d of [a, b]) {
      const shown = d.rolls[1];
      assert.equal(shown.revealed, true);
      assert.equal(shown.h, h);
      assert.equal(shown.status, "yes", shown.diff.join());
      assert.equal(shown.answer.result.headline, answer.result.headline);
    }
  }));

test("a sheet roll verifies only against the sheet the GM holds: an inflated one is « non vérifié »", async () => {
  const net = network();
  const g = gm(net);
  const made = await engine.call({ op: "character", character: { id: "c1", system: "d6", name: "Darate", pc: true, stats: { flame: 2, clarity: 2, efforts_used: 0 }, entries: [{ id: "e1", label: "Épée", params: { attribute: 5, skill: 3 } }] } });
  const darate = made.result.character;
  let characters = [darate];
  const a = device(net, { sheets: () => characters });
  try {
    await join(g, a);
    await until(() => g.host.players.get("p1").sheets?.length === 1, "the sheets reach the GM");
    const sheetRoll = (character) => ({ op: "roll", system: "d6", params: { sheet: { character, entry: "e1" } }, lang: "fr" });
    await a.pipeline.roll(sheetRoll(darate));
    await until(() => g.rolls.length === 1);
    assert.equal(g.rolls[0].status, "yes", g.rolls[0].diff.join());
    // The player's device inflates the sheet for one roll, without showing the GM.
    const inflated = structuredClone(darate);
    inflated.entries[0].params.attribute = 9;
    await a.pipeline.roll(sheetRoll(inflated));
    await until(() => g.rolls.length === 2);
    assert.equal(g.rolls[1].status, "no");
    assert.ok(g.rolls[1].diff.some((d) => d.includes("entries[0].params.attribute: 5 ≠ 9")), g.rolls[1].diff.join());
    // Shown to the GM (the sheet changed on the device), it is the GM's copy, and verifies.
    characters = [inflated];
    a.player.shareSheets();
    await until(() => g.notices.some((n) => n.kind === "sheets" && n.names === "Darate"), "the GM is told what changed");
    await a.pipeline.roll(sheetRoll(inflated));
    await until(() => g.rolls.length === 3);
    assert.equal(g.rolls[2].status, "yes", g.rolls[2].diff.join());
  } finally {
    g.host.close();
  }
});

test("a new placement of the Flame dice reaches the table, seeded by its roll's exchange; another seed is not", () =>
  seated(async ({ g, a, b }) => {
    const pool = { op: "roll", system: "pool", params: { pot: 4, flame: 2, augmentations: 1, diminutions: 1 }, lang: "fr" };
    // A legal move of the Flame dice, as the engine's answer offers them (placement_moves).
    const moveOf = (result) => {
      const i = result.placement_moves.findIndex((m) => m.plus || m.minus);
      return i < 0 ? null : result.placement_moves.map((m, j) => (j === i ? (m.plus ? 1 : -1) : 0));
    };
    let first = await a.pipeline.roll(pool);
    while (!moveOf(first.answer.result)) first = await a.pipeline.roll(pool); // dice that cannot move: another roll
    // Each of these rolls seen everywhere (its ack is back once the GM has logged it).
    await until(() => a.player.unacked.size === 0 && b.rolls.length === g.rolls.length, "every roll seen");
    const before = g.rolls.length;
    // As roll/rolling.js's Placement: the same seed, a placement, not recorded again.
    const place = (seed, placement) => a.pipeline.roll({ ...pool, params: { ...pool.params, placement }, seed }, null, { origin: "placement", record: false, placement: true });
    const move = moveOf(first.answer.result);
    const placed = await place(first.request.seed, move);
    assert.equal(placed.answer.ok, true, JSON.stringify(placed.answer.error));
    await until(() => g.rolls.length === before + 1 && b.rolls.length === before + 1);
    for (const seen of [g.rolls.at(-1), b.rolls.at(-1)]) {
      assert.equal(seen.status, "yes", seen.diff.join());
      assert.deepEqual(seen.request.params.placement, move);
    }
    assert.equal(g.rolls.at(-1).placed, true);
    // The GM's own placement, the same way.
    let seed;
    let own;
    do {
      seed = await g.host.gmRolls.seed(pool);
      own = await engine.call({ ...pool, seed });
    } while (!moveOf(own.result));
    g.host.gmRolls.share({ request: { ...pool, seed }, answer: own, hidden: false });
    const moved = { ...pool, params: { ...pool.params, placement: moveOf(own.result) }, seed };
    g.host.gmRolls.share({ request: moved, answer: await engine.call(moved), hidden: false, placed: true });
    await until(() => b.rolls.length === before + 3);
    assert.deepEqual(b.rolls.slice(-2).map((e) => e.status), ["yes", "yes"], b.rolls.map((e) => e.diff.join()).join(" | "));
    // A « placement » of a roll this device never made at the table: not a table roll.
    await place(first.request.seed + 1, [0, 0]);
    await until(() => g.rolls.length === before + 2);
    assert.equal(g.rolls.at(-1).status, "offline"); // no exchange of its own: its own seed, « hors table »
  }));

test("a flood of junk rolls costs the GM's engine nothing, and an honest roll still comes through", () =>
  seated(async ({ g, a, b }) => {
    const replays = engine.asked.roll ?? 0;
    // Rolls naming an exchange never opened, then rolls « hors table », 3,000 of each.
    const junk = JSON.stringify({ t: "roll", k: 1, n: 999, reveal: "a".repeat(64), request: D6, answer: { ok: true, result: {} } });
    for (let i = 0; i < 3000; i += 1) a.player.sendRaw(junk);
    for (let k = 0; k < 3000; k += 1) a.player.sendRaw(JSON.stringify({ t: "roll", k, offline: true, request: { ...D6, seed: k }, answer: { ok: true, result: {} } }));
    await until(() => g.host.junk >= 5900, "the flood is read");
    await until(() => g.host.players.get("p1").conn.queued === 0, "what was let through is checked");
    // At most the rate's burst reached the engine (and what the rate gave back meanwhile).
    const flood = engine.asked.roll - replays;
    assert.ok(flood <= RATE.burst + 10, `${flood} replays`);
    await b.pipeline.roll(D6);
    await until(() => g.rolls.some((e) => e.from === "p2" && e.status === "yes"), "the other player's roll verified");
    // A second hello changes nothing: not the name, not whose place it is.
    const back = { id: "p2", token: g.host.players.get("p2").token };
    b.player.sendRaw(JSON.stringify({ t: "hello", v: 2, name: "Mallory", back }));
    a.player.sendRaw(JSON.stringify({ t: "hello", v: 2, name: "Mallory", back }));
    await until(() => g.host.players.get("p2").conn.queued === 0);
    assert.deepEqual(g.host.peers().map((p) => [p.id, p.name, p.connected]), [["p1", "Aïcha", true], ["p2", "Bruno", true]]);
  }));

test("a player who reloads keeps its place: its rolls are kept « hors table » and reach the GM once it rejoins", async () => {
  const net = network();
  const g = gm(net);
  const storage = memory();
  const first = device(net, { storage });
  try {
    await join(g, first);
    first.player.peer.close(); // the page goes away
    // The reloaded page: a new player from the same storage, at no table yet.
    const again = device(net, { storage });
    assert.equal(again.player.place.id, "p1");
    assert.equal(again.player.host, "MJ");
    assert.equal(await again.player.seedFor(D6), null); // at no table: no exchange
    await again.pipeline.roll(D6); // its own seed, kept for the GM
    await again.pipeline.roll(D6);
    assert.deepEqual(again.player.outbox.map((m) => m.offline), [true, true]);
    await join(g, again);
    await until(() => g.rolls.length === 2, "the kept rolls arrive");
    assert.deepEqual(g.rolls.map((e) => [e.from, e.status]), [["p1", "offline"], ["p1", "offline"]], g.rolls[0].diff.join());
    assert.equal(g.host.players.size, 1); // the same place
  } finally {
    g.host.close();
  }
});

test("when the GM closes the table the players are told, and are at no table any more", async () => {
  const net = network();
  const g = gm(net);
  const a = device(net);
  await join(g, a);
  g.host.close();
  await until(() => a.notices.some((n) => n.kind === "closed"), "told");
  assert.equal(a.player.place, null);
  assert.equal(a.player.connected, false);
  assert.equal(await a.player.rolled({ request: D6, answer: { ok: true, result: {} } }), "none");
});
