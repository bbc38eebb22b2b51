import assert from "node:assert/strict";
import { test } from "node:test";

import { TableHost } from "../../web/js/sharing/host.js";
import { HOST_KEY, hostState, readHostState } from "../../web/js/sharing/host-store.js";
import { engineAnswers, engineCall } from "./helpers.js";

/** A data channel as the host sees it once a player's answer was taken (no WebRTC in node). */
function link() {
  const sent = [];
  const peer = { closed: false, sent, send: (text) => sent.push(JSON.parse(text)) && true, close() { this.closed = true; }, closeSoon() { this.closed = true; } };
  let joined;
  // Always just heard from (the host's beat would show a player silent for 5 s as gone).
  const conn = { peer, player: null, get lastSeen() { return Date.now(); }, set lastSeen(_) {}, joined: (r) => (joined = r) };
  return { conn, sent, result: () => joined };
}

const hello = async (extra = {}) => ({ t: "hello", name: "Joueur", colour: "red", back: null, ...extra });

// The engine's answers, each asked once (one python per call is slow; an answer depends only
// on its request): the seat questions these tests ask are answered up front, by one python.
const answers = new Map();
const LINK = "https://example.org/#table=1.x";
const asked = [...Array.from({ length: 10 }, (_, taken) => ({ op: "seat", taken, lang: "fr" })), ...[7, 8].map((taken) => ({ op: "seat", taken, text: LINK, lang: "fr" }))];
engineAnswers(asked).forEach((answer, i) => answers.set(JSON.stringify(asked[i]), answer));

/** The engine as the page has it, counting the seat questions it is asked. */
function engine() {
  const asked = [];
  const call = async (request) => {
    if (request.op === "seat") asked.push(request.taken);
    const key = JSON.stringify(request);
    if (!answers.has(key)) answers.set(key, await engineCall(request));
    return structuredClone(answers.get(key));
  };
  return { call, asked };
}

test("the 9th player is refused a seat by the engine, with its words; a player who left frees one", async () => {
  const { call, asked } = engine();
  const host = new TableHost({ call });
  try {
    const links = [];
    for (let i = 0; i < 8; i += 1) {
      const l = link();
      await host.hello(l.conn, await hello({ name: `J${i + 1}` }));
      assert.deepEqual(l.result(), { ok: true, id: `p${i + 1}` });
      links.push(l);
    }
    assert.deepEqual(asked, [0, 1, 2, 3, 4, 5, 6, 7]); // the page asks; the engine decides
    const ninth = link();
    await host.hello(ninth.conn, await hello({ name: "Neuf" }));
    const refused = ninth.result();
    assert.equal(refused.ok, false);
    assert.equal(refused.error, "full");
    assert.match(refused.message, /La table est pleine\u00a0: 8 joueurs au plus/);
    assert.equal(ninth.conn.peer.closed, true);
    assert.equal(host.players.size, 8); // no id given, nothing changed
    // One leaves: its seat is free, the next one sits (with a new id).
    host.gone(host.players.get("p3"), links[2].conn);
    const next = link();
    await host.hello(next.conn, await hello({ name: "Neuf" }));
    assert.deepEqual(next.result(), { ok: true, id: "p9" });
    // A player coming back with its token keeps its id, and needs a seat like anyone.
    const back = link();
    await host.hello(back.conn, await hello({ back: { id: "p3", token: host.players.get("p3").token } }));
    assert.equal(back.result().ok, false);
    assert.equal(host.players.get("p3").connected, false);
  } finally {
    host.close();
  }
});

test("an invite is refused before any offer is shown when the engine says the table is full", async () => {
  const { call } = engine();
  const host = new TableHost({ call });
  try {
    for (let i = 0; i < 8; i += 1) host.players.set(`p${i + 1}`, { id: `p${i + 1}`, name: "x", connected: true, conn: null });
    const seat = await host.seat(host.seats(), LINK);
    assert.equal(seat.ok, false);
    assert.match(seat.message, /pleine/);
    host.players.delete("p8");
    const given = await host.seat(host.seats(), LINK);
    assert.equal(given.ok, true);
    assert.equal(given.free, 0);
    assert.ok(Array.isArray(given.qr.rows) && given.qr.rows.length === given.qr.size); // the invite's QR code, same call
  } finally {
    host.close();
  }
});

test("a GM's reload: the roster comes back from storage, players gone, each back at its id", async () => {
  const { call } = engine();
  const before = new TableHost({ call, name: "MJ" });
  let tokens;
  try {
    for (const name of ["Aïcha", "Bruno"]) await before.hello(link().conn, await hello({ name }));
    before.players.get("p1").acked = 4; // p1's rolls up to number 4 are counted
    tokens = Object.fromEntries([...before.players.values()].map((p) => [p.id, p.token]));
    const log = [{ from: "p1", name: "Aïcha", colour: "red", system: "d6", seed: 12, outcome: "success", headline: "13", verified: true, status: "yes", hidden: false, diff: [], time: "2026-12-01T08:00:00.000Z", request: { op: "roll" }, answer: { ok: true } }];
    const stored = JSON.parse(JSON.stringify(hostState({ roster: before.roster(), received: log, mine: [], hidden: true })));
    assert.equal(stored.received[0].request, undefined); // no request or answer kept: what the log shows
    const kept = readHostState(stored);
    assert.deepEqual(kept.received[0].from, "p1");
    assert.equal(kept.received[0].headline, "13"); // the feed still leads with the number after a reload
    assert.equal(kept.hidden, true);
    const after = new TableHost({ call, name: "MJ", roster: kept.roster });
    try {
      assert.deepEqual(after.peers(), [
        { id: "p1", name: "Aïcha", colour: "red", connected: false },
        { id: "p2", name: "Bruno", colour: "red", connected: false },
      ]);
      assert.equal(after.restored, true);
      const again = link();
      await after.hello(again.conn, await hello({ name: "Aïcha", back: { id: "p1", token: tokens.p1 } }));
      assert.deepEqual(again.result(), { ok: true, id: "p1" });
      assert.equal(again.sent.find((m) => m.t === "welcome").id, "p1");
      assert.equal(after.players.get("p1").acked, 4); // a roll sent again is still counted once
      // A wrong token is a new player, with a new id (never one given before).
      const stranger = link();
      await after.hello(stranger.conn, await hello({ back: { id: "p2", token: "0".repeat(32) } }));
      assert.deepEqual(stranger.result(), { ok: true, id: "p3" });
      await after.hello(link().conn, await hello({ back: { id: "p2", token: tokens.p2 } }));
      assert.equal(after.restored, false); // everyone is back: nothing more to say
    } finally {
      after.close();
    }
  } finally {
    before.close();
  }
});

test("what storage kept of a GM's table is checked: junk is dropped, never thrown", () => {
  assert.equal(HOST_KEY, "pyrules:table-host");
  for (const junk of [null, 1, "x", [], {}, { roster: [] }, { roster: { players: "p1" } }]) assert.equal(readHostState(junk), null, JSON.stringify(junk));
  const kept = readHostState({
    roster: {
      lastId: "7",
      count: -2,
      players: [
        { id: "p2", token: "a".repeat(32), name: "<b>Bob</b>\u0000", colour: "#ff0000", acked: "3" },
        { id: "p2", token: "b".repeat(32), name: "Twice" },
        { id: "admin", token: "a".repeat(32) },
        { id: "p5", token: "short" },
        { id: "p4", token: "c".repeat(32), name: "Chloé", colour: "green", acked: 9, next: 12 },
        null,
      ],
    },
    received: [null, { from: "p2", system: "d6", seed: -4, status: "hacked", diff: [1, "x"], time: "soon", outcome: { a: 1 } }, { from: "../x", system: "d6" }],
    mine: "x",
    hidden: "yes",
  });
  assert.deepEqual(kept.roster.players.map((p) => p.id), ["p2", "p4"]);
  assert.equal(kept.roster.players[0].colour, null);
  assert.equal(kept.roster.players[0].acked, -1);
  assert.doesNotMatch(kept.roster.players[0].name, /\u0000/);
  assert.deepEqual([kept.roster.players[1].acked, kept.roster.players[1].next], [9, 12]);
  assert.equal(kept.roster.lastId, 4); // past every id kept: never given twice
  assert.equal(kept.roster.count, 0);
  assert.equal(kept.received.length, 1);
  assert.deepEqual([kept.received[0].seed, kept.received[0].status, kept.received[0].diff, kept.received[0].time, kept.received[0].outcome], [null, "no", ["x"], null, null]);
  assert.deepEqual(kept.mine, []);
  assert.equal(kept.hidden, false);
});
