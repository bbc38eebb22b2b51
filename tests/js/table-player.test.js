import assert from "node:assert/strict";
import { test } from "node:test";

import { TablePlayer } from "../../web/js/sharing/player.js";

const storage = (kept) => {
  const written = [];
  return { read: () => kept, write: (key, value) => written.push([key, value]), written };
};

test("what storage kept of a table place is checked: junk is dropped, never thrown", () => {
  for (const junk of [null, 42, "text", [], { id: "p1" }, { id: "admin", token: "0".repeat(32) }, { outbox: "x", seq: -3 }, { outbox: [null, 1, { t: "hello" }] }]) {
    const player = new TablePlayer({ storage: storage(junk) });
    assert.equal(player.place, null, JSON.stringify(junk));
    assert.deepEqual(player.outbox, []);
    assert.equal(player.seq, 0);
  }
  const good = new TablePlayer({ storage: storage({ id: "p2", token: "a".repeat(32), seq: 7, outbox: [{ t: "roll", k: 6 }] }) });
  assert.deepEqual(good.place, { id: "p2", token: "a".repeat(32) });
  assert.equal(good.seq, 7);
  assert.equal(good.outbox.length, 1);
});

const answer = (physical) => ({ ok: true, result: { outcome: "success", margin: 1, seed: physical ? null : 5, physical } });

test("away from any table a roll is neither sent nor kept", async () => {
  const player = new TablePlayer({ storage: storage(null) });
  assert.equal(await player.rolled({ request: { op: "roll", system: "d6", seed: 5 }, answer: answer(false) }), "none");
  assert.deepEqual(player.outbox, []);
});

test("a roll made while the link is down is kept « hors table », numbered, and stored", async () => {
  const store = storage({ id: "p1", token: "b".repeat(32) });
  const player = new TablePlayer({ storage: store });
  player.peer = { send: () => false, close() {} }; // joined in this page's life, link down
  assert.equal(await player.rolled({ request: { op: "roll", system: "d6", seed: 5 }, answer: answer(false) }), "kept");
  assert.equal(await player.rolled({ request: { op: "roll", system: "d6", params: { dice: [3] } }, answer: answer(true) }), "kept");
  assert.deepEqual(player.outbox.map((m) => [m.k, m.offline === true]), [[0, true], [1, false]]); // physical dice stay physical
  const [, saved] = store.written.at(-1);
  assert.equal(saved.seq, 2);
  assert.equal(saved.outbox.length, 2);
});

test("a table roll not acknowledged when the link breaks is kept, without its table value", () => {
  const player = new TablePlayer({ storage: storage({ id: "p1", token: "c".repeat(32) }) });
  const peer = { send: () => true, close() {} };
  player.peer = peer;
  player.unacked.set(4, { t: "roll", k: 4, n: 9, reveal: "d".repeat(64), commit: "e".repeat(64), request: { op: "roll", system: "d6", seed: 1 }, answer: answer(false) });
  player.lost(peer);
  assert.equal(player.outbox.length, 1);
  const kept = player.outbox[0];
  assert.equal(kept.k, 4);
  assert.equal(kept.offline, true);
  assert.equal(kept.n, undefined);
  assert.equal(kept.reveal, undefined);
  assert.equal(player.unacked.size, 0);
});
