// A player's side of the shared table (issues 24 and 38). It answers the host's invite and
// says hello until welcomed; at each roll it commits to the request and its own random value,
// and rolls once the host's value is there (one round trip, the roll button busy); it sends
// every roll it makes, and checks every roll the host relays with its own engine. Away from
// the table it keeps rolling: those rolls are kept (« hors table », in storage too) and sent
// when it joins again, a few at a time.

import { MAX_OUTBOX, exchangeSeed, parseMessage, randomValue } from "../lib/table-protocol.js";
import { outcomeOf, physicalOf, tampered, verifyRoll } from "../lib/table-verify.js";
import { DROP_MS, PING_MS } from "./host.js";
import { LIMITS, Peer } from "./peer.js";

const KEY = "pyrules:table"; // {id, token, host, seq, outbox}: who this device is at its table
export const HELLO_MS = 1000; // the hello is said again this often until the welcome comes
export const VALUE_MS = 5000; // a roll waits this long for the host's value, then goes « hors table »
export const IN_FLIGHT = 4; // kept rolls sent at a time at a join (the next one at each ack)
const MAX_GIVEN = 64; // GM rolls' values, and exchanges of rolls made, remembered

/** What was kept of this device's table place, checked (storage is untrusted). */
function restore(read) {
  const kept = read(KEY);
  const ok = kept && typeof kept === "object" && !Array.isArray(kept);
  const place = ok && /^p\d{1,4}$/.test(kept.id) && /^[0-9a-f]{32}$/.test(kept.token) ? { id: kept.id, token: kept.token } : null;
  const outbox = ok && Array.isArray(kept.outbox) ? kept.outbox.filter((m) => m && typeof m === "object" && m.t === "roll").slice(-MAX_OUTBOX) : [];
  const seq = ok && Number.isSafeInteger(kept.seq) && kept.seq >= 0 ? kept.seq : 0;
  const host = ok && typeof kept.host === "string" ? kept.host.slice(0, 40) : null;
  return { place, outbox, seq, host };
}


export class TablePlayer {
  /**
   * storage: {read(key), write(key, value)}; call(request): this device's engine (it checks
   * the rolls the host relays); colour(): this device's dice colour (each roll carries it);
   * sheets(): this device's characters (the GM holds them to check sheet rolls); newPeer():
   * a link (peer.js); events: onChange(), onRoll(entry) (a roll of another device, checked
   * here), onNotice(info) ({kind: "junk" | "timeout" | "closed", …}).
   */
  constructor({ storage, call = null, colour = () => null, sheets = () => [], newPeer = () => new Peer(), onChange = () => {}, onRoll = () => {}, onNotice = () => {} }) {
    Object.assign(this, { storage, call, colour, sheets, newPeer, onChange, onRoll, onNotice });
    ({ place: this.place, outbox: this.outbox, seq: this.seq, host: this.host } = restore(storage.read));
    this.unacked = new Map(); // k -> a roll sent, not yet acknowledged by the host
    this.peer = null;
    this.connected = false;
    this.failed = null; // why the last join did not complete ("timeout"), until the next one
    this.joining = false; // an answer was given, the welcome has not come yet
    this.list = [];
    this.next = 0; // this device's next roll number at its table
    this.waiting = new Map(); // n -> resolve(value): rolls committed to, waiting for the host's value
    this.issued = new Map(); // seed -> {n, reveal}: the exchange of a roll being made
    this.made = new Map(); // seed -> {n, reveal}: the exchange of a roll sent (a new placement uses it again)
    this.given = new Map(); // GM roll number -> the value this device gave for it
    this.checks = Promise.resolve(); // the relayed rolls, checked one at a time
    this.tamper = false;
    this.timer = null;
    this.helloTimer = null;
    this.joinTimer = null;
  }

  save() {
    this.storage.write(KEY, { ...(this.place ?? {}), host: this.host, seq: this.seq, outbox: this.outbox });
  }

  /** Answer an invite's offer text ("<number>.<offer>"): the answer text for the host. */
  async answer(inviteText, { name, colour = null }) {
    const match = typeof inviteText === "string" ? inviteText.match(/^(\d{1,4})\.(.+)$/s) : null;
    if (!match) throw new Error("bad-invite");
    this.leave(false);
    this.failed = null;
    this.joining = true;
    const peer = this.newPeer();
    this.peer = peer;
    const text = await peer.answer(match[2]);
    if (!text) throw new Error("bad-invite");
    const hello = JSON.stringify({ t: "hello", v: 2, name, colour, ...(this.place ? { back: this.place } : {}) });
    // Said until the welcome comes: a first message lost on its way never leaves a join waiting.
    peer.onOpen = () => {
      this.lastSeen = Date.now();
      this.startJoinLimit(peer);
      peer.send(hello);
      clearInterval(this.helloTimer);
      this.helloTimer = setInterval(() => peer.send(hello), HELLO_MS);
    };
    peer.onMessage = (raw) => this.receive(raw);
    peer.onClose = () => this.lost(peer);
    return `${match[1]}.${text}`;
  }

  /**
   * A join whose link is up completes within LIMITS.join, or says so (a link that never comes
   * up ends as the browser gives it up: the peer closes, and the screen says the table is lost).
   */
  startJoinLimit(peer) {
    if (this.joinTimer) return;
    this.joinTimer = setTimeout(() => {
      if (this.peer !== peer || this.connected) return;
      this.joinTimer = null; // said here, not again when the link closes
      this.failJoin(peer);
    }, LIMITS.join);
  }

  /** The join whose link was up did not complete: said once, the link closed. */
  failJoin(peer) {
    peer.close();
    this.joinTimedOut();
  }

  joinTimedOut() {
    this.failed = "timeout";
    this.onNotice({ kind: "timeout" });
  }

  receive(raw) {
    this.lastSeen = Date.now();
    const read = parseMessage(raw, "host");
    if (!read.ok) return this.onNotice({ kind: "junk", from: "host", error: read.error });
    const m = read.message;
    if (m.t === "welcome") return this.welcome(m);
    if (!this.connected) return;
    if (m.t === "value") this.waiting.get(m.n)?.(m.value);
    else if (m.t === "ask") this.give(m);
    else if (m.t === "ack") {
      this.unacked.delete(m.k);
      this.flush();
    } else if (m.t === "peers") {
      this.list = m.peers;
      this.onChange();
    } else if (m.t === "roll") this.checks = this.checks.then(() => this.relayed(m)).catch((error) => console.error(error));
    else if (m.t === "closed") this.closed();
  }

  welcome(m) {
    if (this.connected) return; // the same welcome again (a hello was said twice)
    clearInterval(this.helloTimer);
    clearTimeout(this.joinTimer);
    this.joinTimer = null;
    this.place = { id: m.id, token: m.token };
    this.host = m.host;
    this.next = m.next;
    this.connected = true;
    this.joining = false;
    this.failed = null;
    clearInterval(this.timer);
    this.timer = setInterval(() => this.beat(), PING_MS);
    this.save();
    this.shareSheets();
    this.flush(); // what was rolled away from the table goes now, oldest first
    this.onChange();
  }

  /** This device's characters, to the GM (at the join and whenever they change). */
  shareSheets() {
    if (!this.connected) return;
    const characters = this.sheets();
    if (Array.isArray(characters)) this.peer.send(JSON.stringify({ t: "sheets", characters }));
  }

  /** Kept rolls go a few at a time: the next one leaves when the host acknowledges one. */
  flush() {
    let sent = false;
    while (this.connected && this.outbox.length && this.unacked.size < IN_FLIGHT) {
      const message = this.outbox.shift();
      if (!this.peer.send(JSON.stringify(message))) {
        this.outbox.unshift(message);
        break;
      }
      if (message.k !== undefined) this.unacked.set(message.k, message);
      sent = true;
    }
    if (sent) this.save();
  }

  /**
   * The seed of this device's roll of `request`, from the fair exchange: the commitment to the
   * request and a fresh value leaves, the host's value comes back. Null away from the table,
   * or when the host's value does not come in time (the roll then goes « hors table »).
   */
  async seedFor(request) {
    if (!this.connected) return null;
    const n = this.next;
    this.next += 1;
    const made = await exchangeSeed(request, {
      n, ms: VALUE_MS, listen: (resolve) => this.waiting.set(n, resolve), send: (c) => this.peer.send(JSON.stringify({ t: "commit", n, c })),
    });
    this.waiting.delete(n);
    if (!made) return null;
    this.issued.set(made.seed, { n, reveal: made.reveal });
    return made.seed;
  }

  /** The engine refused the request seeded by `request.seed`: the host sees it refused too. */
  refused(request) {
    const seeded = this.issued.get(request.seed);
    if (!seeded) return;
    this.issued.delete(request.seed);
    if (this.connected) this.peer.send(JSON.stringify({ t: "void", n: seeded.n, reveal: seeded.reveal, request }));
  }

  /** The GM's roll n asks for this device's value: given, and remembered to check that roll. */
  give(m) {
    const value = randomValue();
    this.given.set(m.n, { value, commit: m.c });
    if (this.given.size > MAX_GIVEN) this.given.delete(this.given.keys().next().value);
    this.peer.send(JSON.stringify({ t: "give", n: m.n, value }));
  }

  /**
   * A roll the host relays, checked by this device's own engine: « vérifié » only when it
   * agrees. A GM's roll without a player's value is the GM's word (« MJ »).
   */
  async relayed(m) {
    const entry = {
      from: m.from, name: m.name, colour: m.colour, system: m.hidden ? m.system : m.request.system, hidden: m.hidden,
      seed: m.hidden ? null : (m.answer?.result?.seed ?? m.request.seed ?? null), outcome: m.hidden ? null : outcomeOf(m.answer),
      verified: false, status: m.verified, diff: m.diff ?? [], request: m.request ?? null, answer: m.answer ?? null, time: m.time,
      h: m.h, revealed: m.revealed === true, placed: m.placed === true,
    };
    if (!m.hidden && this.call) Object.assign(entry, await this.check(m));
    this.onRoll(entry);
  }

  async check(m) {
    const proof = m.proof;
    const diff = [];
    if (proof?.gm && proof.by === this.place?.id) {
      // This device gave the value of that GM's roll: it must be the one used.
      const given = this.given.get(proof.n);
      if (!given || given.value !== proof.value || given.commit !== proof.commit) diff.push("value");
    }
    const exchange = proof ? { ...proof, n: proof.gm ? `gm${proof.n}` : proof.n } : null;
    if (!exchange && m.from === "gm" && m.verified === "host") {
      // The GM rolled alone (no player was there to give a value): its word, not a check.
      return { status: physicalOf(m.answer) ? "physical" : "host", verified: false };
    }
    const judged = await verifyRoll({ request: m.request, answer: m.answer, offline: m.offline }, exchange, this.call);
    diff.push(...judged.diff);
    // The host's own verdict counts too (it holds what only it can check: the player's sheets).
    if (m.verified === "no") diff.push(...m.diff.filter((d) => !diff.includes(d)));
    const status = diff.length ? "no" : judged.verdict;
    return { status, verified: status === "yes", diff: diff.slice(0, 8), own: judged.answer };
  }

  /** The GM closed the table: this device is no longer at it. */
  closed() {
    this.place = null;
    this.host = null;
    this.outbox = [];
    this.save();
    this.leave(false);
    this.onNotice({ kind: "closed" });
  }

  /**
   * A roll this device made (pipeline onRolled): to the table, or kept until it joins again.
   * placed: a new placement of the Flame dice of a roll made before (its seed), seeded by that
   * roll's exchange.
   */
  async rolled({ request, answer, placed = false }) {
    // Not at a table (never joined, left on purpose, or the GM closed it): nothing to do.
    if (!this.place) return "none";
    let payload = answer;
    if (this.tamper && payload?.result) {
      this.tamper = false;
      payload = tampered(payload);
    }
    const base = { t: "roll", k: this.seq, request: { ...request }, answer: payload, time: new Date().toISOString(), colour: this.colour(), placed };
    this.seq += 1;
    const seeded = placed ? this.made.get(request.seed) : this.issued.get(request.seed);
    if (!placed && seeded) {
      this.issued.delete(request.seed);
      this.made.set(request.seed, seeded);
      if (this.made.size > MAX_GIVEN) this.made.delete(this.made.keys().next().value);
    }
    let message;
    if (seeded && this.connected) message = { ...base, n: seeded.n, reveal: seeded.reveal };
    else message = physicalOf(answer) ? base : { ...base, offline: true };
    if (this.connected && !this.outbox.length && this.peer.send(JSON.stringify(message))) {
      this.unacked.set(message.k, message);
      this.save(); // seq
      return "sent";
    }
    this.keep([message]);
    this.flush();
    return this.unacked.has(message.k) ? "sent" : "kept";
  }

  /**
   * Keep rolls until the table is joined again. A table value is void by then, so a table
   * roll goes as « hors table »; its number k lets the host count it once if it did arrive.
   */
  keep(messages) {
    const kept = messages.map(({ n, reveal, ...rest }) => (physicalOf(rest.answer) ? rest : { ...rest, offline: true })); // eslint-disable-line no-unused-vars
    this.outbox = [...this.outbox, ...kept].sort((a, b) => (a.k ?? 0) - (b.k ?? 0)).slice(-MAX_OUTBOX);
    this.save();
    this.onChange();
  }

  sendRaw(text) {
    return this.peer?.send(String(text)) ?? false;
  }

  beat() {
    if (!this.connected) return;
    // The host silent this long: the link is given up (what it did not acknowledge is kept).
    if (Date.now() - this.lastSeen > DROP_MS) this.peer.close();
    else this.peer.send('{"t":"ping"}');
  }

  /** The link is gone: what the host had not acknowledged may be lost with it, and is kept. */
  drop() {
    this.connected = false;
    this.joining = false;
    clearInterval(this.timer);
    clearInterval(this.helloTimer);
    clearTimeout(this.joinTimer);
    this.joinTimer = null;
    for (const resolve of this.waiting.values()) resolve(null);
    this.issued.clear();
    this.made.clear();
    const unacked = [...this.unacked.values()];
    this.unacked.clear();
    if (unacked.length) this.keep(unacked);
    this.onChange();
  }

  lost(peer) {
    if (peer !== this.peer) return;
    // The host gave the join up first (its limit counts from its accept): the same failure.
    const joinFailed = this.joinTimer !== null && !this.connected;
    this.drop();
    if (joinFailed) this.joinTimedOut();
  }

  /**
   * Leave the table (notify: « Quitter la table », on purpose: bye, the host shows this device
   * gone at once, and this device is no longer at a table; else only this link is dropped).
   */
  leave(notify = true) {
    if (notify) {
      this.peer?.send('{"t":"bye"}');
      this.place = null;
      this.host = null;
      this.save();
    }
    if (!this.peer) return this.onChange();
    const peer = this.peer;
    this.peer = null;
    peer.close();
    this.drop();
  }

  peers() {
    return this.list.map((p) => ({ id: p.id, name: p.name, colour: p.colour, connected: p.connected }));
  }
}
