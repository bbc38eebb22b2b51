import assert from "node:assert/strict";
import { test } from "node:test";

import { compactSDP, expandSDP, readCompact } from "../../web/js/lib/table-sdp.js";
import {
  MAX_MESSAGE, canonical, cleanName, commitment, inviteLink, inviteOffer, parseMessage, randomValue, seedOf, sha256,
} from "../../web/js/lib/table-protocol.js";
import { diffPaths, verifyRoll } from "../../web/js/lib/table-verify.js";
import { engineCall } from "./helpers.js";

test("sha256 is the standard digest", async () => {
  assert.equal(await sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

test("seeds fit 0..2**53-1, depend on both values and the roll number", async () => {
  const p = randomValue();
  const h = randomValue();
  const seeds = new Set();
  for (let n = 0; n < 50; n += 1) {
    const seed = await seedOf(p, h, n);
    assert.ok(Number.isSafeInteger(seed) && seed >= 0 && seed <= 2 ** 53 - 1);
    seeds.add(seed);
  }
  assert.equal(seeds.size, 50);
  assert.notEqual(await seedOf(p, h, 0), await seedOf(randomValue(), h, 0));
  assert.notEqual(await seedOf(p, h, 0), await seedOf(p, randomValue(), 0));
  assert.equal(await seedOf(p, h, 7), await seedOf(p, h, 7));
  // The largest digest prefix gives the largest seed: 53 bits exactly.
  assert.equal(Number(BigInt("0xffffffffffffff") >> 3n), 2 ** 53 - 1);
});

const D6 = { op: "roll", system: "d6", params: { attribute: 3, skill: 2, difficulty: 9 }, lang: "fr" };

test("the commitment hides the value and binds it to the request, whatever its seed and key order", async () => {
  const v = randomValue();
  assert.match(v, /^[0-9a-f]{64}$/);
  const c = await commitment(v, D6);
  assert.match(c, /^[0-9a-f]{64}$/);
  assert.equal(await commitment(v, D6), c);
  assert.equal(await commitment(v, { ...D6, seed: 12 }), c); // the seed comes after the commitment
  assert.equal(await commitment(v, { lang: "fr", params: { difficulty: 9, skill: 2, attribute: 3 }, system: "d6", op: "roll" }), c);
  assert.notEqual(await commitment(randomValue(), D6), c);
  assert.notEqual(await commitment(v, { ...D6, params: { ...D6.params, attribute: 4 } }), c); // another roll
  assert.ok(!c.includes(v.slice(0, 16)));
  assert.equal(canonical({ b: [1, { d: null, c: "x" }], a: true }), '{"a":true,"b":[1,{"c":"x","d":null}]}');
});

const hello = async (extra = {}) => JSON.stringify({ t: "hello", v: 2, name: "Aïcha", ...extra });

test("messages: a good hello is read, junk is refused with a reason", async () => {
  const good = parseMessage(await hello(), "player");
  assert.equal(good.ok, true);
  assert.equal(good.message.name, "Aïcha");
  const junk = [
    "", "not json", "[]", "null", "42", '"text"', "x".repeat(MAX_MESSAGE + 1),
    '{"t":"constructor"}', '{"t":"toString"}', '{"t":"__proto__"}', '{"t":"welcome","id":"p1"}',
    '{"t":"hello","v":1,"commits":[]}', '{"t":"commit","n":-1,"c":"00"}', '{"t":"void","n":1,"reveal":"zz","request":{"op":"roll","system":"d6"}}',
    '{"t":"give","n":1,"value":"x"}', '{"t":"sheets","characters":[1]}', '{"t":"roll","request":{"op":"odds","system":"d6"},"answer":{}}',
    '{"t":"roll","request":{"op":"roll","system":"d6","seed":-1},"answer":{}}',
    '{"t":"roll","request":{"op":"roll","system":"d6"},"answer":{},"n":0,"reveal":"zz"}',
  ];
  for (const text of junk) {
    const read = parseMessage(text, "player");
    assert.equal(read.ok, false, text.slice(0, 60));
    assert.equal(typeof read.error, "string");
  }
  const proto = await hello();
  const tricked = proto.replace('"t":"hello"', '"t":"hello","__proto__":{"admin":true}');
  assert.equal(parseMessage(tricked, "player").ok, false);
  const deep = JSON.stringify({ t: "roll", request: { op: "roll", system: "d6", params: JSON.parse("[".repeat(30) + "]".repeat(30)) }, answer: {} });
  assert.equal(parseMessage(deep, "player").ok, false);
});

test("messages keep only known fields; names are text, trimmed, without control characters", async () => {
  const read = parseMessage(await hello({ name: " <b>Bob</b>\u0000\n\u202e ".repeat(20), extra: 1, back: { id: "p3", token: "0".repeat(32) } }), "player");
  assert.equal(read.ok, true);
  assert.equal(read.message.extra, undefined);
  assert.ok(Array.from(read.message.name).length <= 40);
  assert.doesNotMatch(read.message.name, /[\u0000-\u001f]/);
  assert.deepEqual(read.message.back, { id: "p3", token: "0".repeat(32) });
  assert.equal(cleanName(42), "?");
  assert.equal(cleanName("   "), "?");
  // A player's message cannot claim to be from another player: the field is not read.
  const roll = parseMessage(JSON.stringify({ t: "roll", from: "p2", request: { op: "roll", system: "d6" }, answer: { ok: true }, offline: true }), "player");
  assert.equal(roll.ok, true);
  assert.equal(roll.message.from, undefined);
  // A roll's number on its device (the host acknowledges it): a count, or the message is refused.
  const numbered = { t: "roll", k: 3, request: { op: "roll", system: "d6" }, answer: { ok: true }, offline: true };
  assert.equal(parseMessage(JSON.stringify(numbered), "player").message.k, 3);
  assert.equal(parseMessage(JSON.stringify({ ...numbered, k: -1 }), "player").ok, false);
  assert.equal(parseMessage(JSON.stringify({ ...numbered, k: "3" }), "player").ok, false);
  assert.deepEqual(parseMessage('{"t":"ack","k":3}', "host").message, { t: "ack", k: 3 });
  assert.equal(parseMessage('{"t":"ack","k":1.5}', "host").ok, false);
  // What a player accepts from the host is checked the same way.
  assert.equal(parseMessage('{"t":"roll","from":"x","verified":"yes"}', "host").ok, false);
  assert.equal(parseMessage('{"t":"roll","from":"gm","verified":"host","hidden":true,"system":"d6"}', "host").ok, true);
  assert.equal(parseMessage('{"t":"hello","v":1}', "host").ok, false);
  // A relayed roll's proof: both values, the commitment and the number, or the message is refused.
  const proof = { n: 2, commit: "a".repeat(64), reveal: "b".repeat(64), value: "c".repeat(64) };
  const relay = { t: "roll", from: "p1", name: "A", verified: "yes", request: { op: "roll", system: "d6" }, answer: { ok: true } };
  assert.deepEqual(parseMessage(JSON.stringify({ ...relay, proof }), "host").message.proof, { ...proof, gm: false });
  assert.equal(parseMessage(JSON.stringify({ ...relay, proof: { ...proof, value: "x" } }), "host").ok, false);
  assert.equal(parseMessage(JSON.stringify({ ...relay, proof: { ...proof, gm: true } }), "host").ok, false); // a GM's roll names its giver
  assert.equal(parseMessage(JSON.stringify({ ...relay, proof: { ...proof, gm: true, by: "p2" } }), "host").message.proof.by, "p2");
  assert.deepEqual(parseMessage('{"t":"closed"}', "host").message, { t: "closed" });
});

test("the invite is a link to the page's own folder, the offer in the fragment", () => {
  const link = inviteLink("https://me.github.io/pyrules/index.html?seed=3#replay=x", "1~a~b");
  assert.equal(link, "https://me.github.io/pyrules/#table=1~a~b");
  assert.equal(inviteOffer(link), "1~a~b");
  assert.equal(inviteOffer("#table=1~a"), "1~a");
  assert.equal(inviteOffer("#replay=1"), null);
  assert.equal(inviteOffer(null), null);
});

const SDP = [
  "v=0", "o=- 3255647050696102116 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
  "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
  "a=candidate:356508292 1 udp 2113937151 39de5fe8-99c3-4a86-a192-5d405ec9e963.local 34596 typ host generation 0 network-cost 999",
  "a=candidate:307072564 1 udp 2113942271 192.168.1.20 37552 typ host generation 0 network-cost 999",
  "a=candidate:307072565 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active",
  "a=ice-ufrag:XYSP", "a=ice-pwd:hRiISF3JVdSOoSMNK5KhpT+9", "a=ice-options:trickle",
  "a=fingerprint:sha-256 F6:DB:F1:85:C6:C3:65:B2:03:2D:DB:E2:74:79:F6:8D:B6:45:EF:1E:37:76:D4:1E:4A:EF:CD:12:91:53:99:61",
  "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "",
].join("\r\n");

test("an SDP offer becomes a short URL-safe text and back", () => {
  const text = compactSDP(SDP);
  assert.ok(text.length < 160, text);
  assert.match(text, /^[A-Za-z0-9~_.:-]+$/);
  const fields = readCompact(text);
  assert.equal(fields.ufrag, "XYSP");
  assert.equal(fields.pwd, "hRiISF3JVdSOoSMNK5KhpT+9");
  assert.equal(fields.setup, "actpass");
  assert.deepEqual(fields.candidates, [
    { address: "39de5fe8-99c3-4a86-a192-5d405ec9e963.local", port: 34596 },
    { address: "192.168.1.20", port: 37552 },
  ]);
  const sdp = expandSDP(text);
  assert.match(sdp, /a=fingerprint:sha-256 F6:DB:F1:85:C6:C3:65:B2:03:2D:DB:E2:74:79:F6:8D:B6:45:EF:1E:37:76:D4:1E:4A:EF:CD:12:91:53:99:61\r\n/);
  assert.match(sdp, /a=candidate:1 1 udp \d+ 39de5fe8-99c3-4a86-a192-5d405ec9e963\.local 34596 typ host/);
  assert.equal(compactSDP(sdp), text);
  for (const bad of ["", "2~a~x", `${text}~<script>_1`, text.replace("~a~", "~z~"), "x".repeat(2000)]) assert.equal(expandSDP(bad), null, bad.slice(0, 30));
  assert.throws(() => compactSDP("v=0\r\n"));
});

test("diffPaths names what differs", () => {
  assert.deepEqual(diffPaths({ a: 1, b: [1, 2] }, { a: 1, b: [1, 2] }), []);
  assert.deepEqual(diffPaths({ a: 1, b: [1, 3] }, { a: 2, b: [1, 2], c: true }), ["a: 1 ≠ 2", "b[1]: 3 ≠ 2", "c: — ≠ true"]);
});

// The whole exchange against the real engine (pyrules.api.handle through python).
async function exchange() {
  const reveal = randomValue();
  const value = randomValue();
  const seed = await seedOf(reveal, value, 5);
  const request = { ...D6, seed };
  const answer = await engineCall(request);
  return { reveal, proof: { n: 5, commit: await commitment(reveal, D6), reveal, value }, seed, request, answer };
}

test("an honest roll is verified by replaying it in the engine", async () => {
  const { proof, seed, request, answer } = await exchange();
  const judged = await verifyRoll({ request, answer }, proof, engineCall);
  assert.equal(judged.verdict, "yes", judged.diff.join());
  assert.equal(judged.seed, seed);
});

test("a changed answer, a chosen seed, a false reveal or another request are « non vérifié », with what differed", async () => {
  const base = await exchange();
  const tampered = structuredClone(base.answer);
  tampered.result.margin += 1;
  let judged = await verifyRoll({ request: base.request, answer: tampered }, base.proof, engineCall);
  assert.equal(judged.verdict, "no");
  assert.ok(judged.diff.some((d) => d.startsWith("result.margin")), judged.diff.join());

  const request = { ...base.request, seed: 42 };
  judged = await verifyRoll({ request, answer: await engineCall(request) }, base.proof, engineCall);
  assert.equal(judged.verdict, "no");
  assert.ok(judged.diff.some((d) => d.startsWith("seed: 42")), judged.diff.join());

  judged = await verifyRoll({ request: base.request, answer: base.answer }, { ...base.proof, reveal: randomValue() }, engineCall);
  assert.equal(judged.verdict, "no");
  assert.ok(judged.diff.includes("commitment"));

  // The seed known, another request rolled with it: the commitment was to the first one.
  const other = { ...base.request, params: { ...D6.params, attribute: 5 } };
  judged = await verifyRoll({ request: other, answer: await engineCall(other) }, base.proof, engineCall);
  assert.equal(judged.verdict, "no");
  assert.ok(judged.diff.includes("commitment"));
});

test("faces typed by hand are never « vérifié »: physical, or « non vérifié » when claimed as a table roll", async () => {
  const { proof, seed } = await exchange();
  const request = { op: "roll", system: "d6", params: { attribute: 3, skill: 2, difficulty: 9, dice: [6] }, lang: "fr" };
  const answer = await engineCall(request);
  const physical = await verifyRoll({ request, answer }, null, engineCall);
  assert.equal(physical.verdict, "physical", physical.diff.join());
  const claimed = await verifyRoll({ request: { ...request, seed }, answer }, proof, engineCall);
  assert.notEqual(claimed.verdict, "yes");
  const offline = await verifyRoll({ offline: true, request: { ...request, params: { attribute: 3 }, seed: 9 }, answer: await engineCall({ ...request, params: { attribute: 3 }, seed: 9 }) }, null, engineCall);
  assert.equal(offline.verdict, "offline", offline.diff.join());
});

test("a dice colour from another device is one of the dice settings' ids, or none", async () => {
  const colourOf = async (colour) => parseMessage(await hello({ colour }), "player").message.colour;
  assert.equal(await colourOf("purple"), "purple");
  for (const junk of ["#ff0000", "toString", "__proto__", "hasOwnProperty", "PURPLE", 3, null, { body: "#fff" }]) assert.equal(await colourOf(junk), null, String(junk));
  // Each roll carries the colour the player's dice had when it rolled.
  const roll = (colour) => parseMessage(JSON.stringify({ t: "roll", k: 1, colour, request: { op: "roll", system: "d6" }, answer: { ok: true }, offline: true }), "player").message.colour;
  assert.equal(roll("green"), "green");
  assert.equal(roll("constructor"), null);
  // And so do the host's relays and its list of players.
  const relay = parseMessage(JSON.stringify({ t: "roll", from: "p1", name: "A", colour: "blue", verified: "yes", request: { op: "roll", system: "d6" }, answer: { ok: true } }), "host").message;
  assert.equal(relay.colour, "blue");
  const peers = parseMessage(JSON.stringify({ t: "peers", peers: [{ id: "gm", name: "MJ", colour: "black", connected: true }, { id: "p1", name: "A", colour: "#123456", connected: false }] }), "host").message.peers;
  assert.deepEqual(peers.map((p) => p.colour), ["black", null]);
});
