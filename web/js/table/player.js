// A player's side of the shared table (issue 24). It answers the host's invite, keeps
// WINDOW commitments ahead (lib/table-protocol.js), turns the host's values into the seeds
// of its next rolls, and sends every roll it makes. Away from the table it keeps rolling:
// those rolls are kept (« hors table », in storage too) and sent when it joins again.

import { WINDOW, MAX_OUTBOX, commitment, parseMessage, randomValue, seedOf } from "../lib/table-protocol.js";
import { DROP_MS, PING_MS, outcomeOf } from "./host.js";
import { Peer } from "./peer.js";

const KEY = "pyrules:table"; // {id, token, seq, outbox}: who this device is at its table

/** What was kept of this device's table place, checked (storage is untrusted). */
function restore(read) {
  const kept = read(KEY);
  const ok = kept && typeof kept === "object" && !Array.isArray(kept);
  const place = ok && /^p\d{1,4}$/.test(kept.id) && /^[0-9a-f]{32}$/.test(kept.token) ? { id: kept.id, token: kept.token } : null;
  const outbox = ok && Array.isArray(kept.outbox) ? kept.outbox.filter((m) => m && typeof m === "object" && m.t === "roll").slice(-MAX_OUTBOX) : [];
  const seq = ok && Number.isSafeInteger(kept.seq) && kept.seq >= 0 ? kept.seq : 0;
  return { place, outbox, seq };
}

const physicalOf = (answer) => answer?.result?.physical === true || answer?.result?.actor?.physical === true;

export class TablePlayer {
  /**
   * storage: {read(key), write(key, value)}; colour(): this device's dice colour (each roll
   * carries it); events: onChange(), onRoll(entry) (a roll of another device), onNotice(info).
   */
  constructor({ storage, colour = () => null, onChange = () => {}, onRoll = () => {}, onNotice = () => {} }) {
    Object.assign(this, { storage, colour, onChange, onRoll, onNotice });
    ({ place: this.place, outbox: this.outbox, seq: this.seq } = restore(storage.read));
    this.unacked = new Map(); // k -> a roll sent, not yet acknowledged by the host
    this.peer = null;
    this.connected = false;
    this.list = [];
    this.ready = new Map(); // n -> {seed, reveal}: seeds of the next rolls, ready before them
    this.unpaired = []; // values committed to whose host value has not come yet (in order)
    this.issued = new Map(); // seed -> {n, reveal}: handed to a roll, not sent yet
    this.tamper = false;
    this.timer = null;
  }

  save() {
    this.storage.write(KEY, { ...(this.place ?? {}), seq: this.seq, outbox: this.outbox });
  }

  /** Answer an invite's offer text ("<number>.<offer>"): the answer text for the host. */
  async answer(inviteText, { name, colour = null }) {
    const match = typeof inviteText === "string" ? inviteText.match(/^(\d{1,4})\.(.+)$/s) : null;
    if (!match) throw new Error("bad-invite");
    this.leave(false);
    const peer = new Peer();
    this.peer = peer;
    const text = await peer.answer(match[2]);
    if (!text) throw new Error("bad-invite");
    this.ready.clear();
    this.unpaired = Array.from({ length: WINDOW }, () => randomValue());
    const commits = await Promise.all(this.unpaired.map(commitment));
    peer.onOpen = () => {
      this.lastSeen = Date.now();
      peer.send(JSON.stringify({ t: "hello", v: 1, name, colour, commits, ...(this.place ? { back: this.place } : {}) }));
    };
    peer.onMessage = (raw) => this.receive(raw);
    peer.onClose = () => this.lost(peer);
    return `${match[1]}.${text}`;
  }

  receive(raw) {
    this.lastSeen = Date.now();
    const read = parseMessage(raw, "host");
    if (!read.ok) return this.onNotice({ kind: "junk", from: "host", error: read.error });
    const m = read.message;
    if (m.t === "welcome") this.welcome(m);
    else if (m.t === "value") this.pair(m.n, m.value);
    else if (m.t === "ack") this.unacked.delete(m.k);
    else if (m.t === "peers") {
      this.list = m.peers;
      this.onChange();
    } else if (m.t === "roll") {
      this.onRoll({
        from: m.from, name: m.name, colour: m.colour, system: m.hidden ? m.system : m.request.system, hidden: m.hidden,
        seed: m.hidden ? null : (m.answer?.result?.seed ?? m.request.seed ?? null), outcome: m.hidden ? null : outcomeOf(m.answer),
        verified: m.verified === "yes", status: m.verified, diff: m.diff ?? [], request: m.request ?? null, answer: m.answer ?? null, time: m.time,
      });
    }
  }

  welcome(m) {
    this.place = { id: m.id, token: m.token };
    this.host = m.host;
    this.connected = true;
    m.values.forEach((v) => this.pair(v.n, v.value));
    clearInterval(this.timer);
    this.timer = setInterval(() => this.beat(), PING_MS);
    // What was rolled away from the table goes now, oldest first.
    for (const message of this.outbox) {
      this.peer.send(JSON.stringify(message));
      if (message.k !== undefined) this.unacked.set(message.k, message);
    }
    this.outbox = [];
    this.save();
    this.onChange();
  }

  async pair(n, value) {
    const reveal = this.unpaired.shift();
    if (!reveal) return;
    this.ready.set(n, { reveal, seed: await seedOf(reveal, value, n) });
  }

  /** The seed of this device's next table roll, or null (away from the table, none ready). */
  takeSeed() {
    if (!this.connected || !this.ready.size) return null;
    const n = Math.min(...this.ready.keys());
    const { seed, reveal } = this.ready.get(n);
    this.ready.delete(n);
    this.issued.set(seed, { n, reveal });
    return seed;
  }

  /** A roll this device made (pipeline onRolled): to the table, or kept until it joins again. */
  async rolled({ request, answer }) {
    // Not at a table in this page's life (never joined, or left on purpose): nothing to do.
    if (!this.place || !this.peer) return "none";
    const sent = { ...request };
    let payload = structuredClone(answer);
    if (this.tamper && payload?.result) {
      this.tamper = false;
      payload.result.margin = (Number(payload.result.margin) || 0) + 1;
      payload.result.outcome = `${payload.result.outcome}*`;
    }
    const base = { t: "roll", k: this.seq, request: sent, answer: payload, time: new Date().toISOString(), colour: this.colour() };
    this.seq += 1;
    const seeded = this.issued.get(request.seed);
    let message;
    if (seeded && this.connected) {
      this.issued.delete(request.seed);
      const reveal = randomValue();
      this.unpaired.push(reveal);
      message = { ...base, n: seeded.n, reveal: seeded.reveal, commit: await commitment(reveal) };
    } else {
      message = physicalOf(answer) ? base : { ...base, offline: true };
    }
    if (this.connected && this.peer.send(JSON.stringify(message))) {
      this.unacked.set(message.k, message);
      this.save(); // seq
      return "sent";
    }
    this.keep([message]);
    return "kept";
  }

  /**
   * Keep rolls until the table is joined again. A table value is void by then, so a table
   * roll goes as « hors table »; its number k lets the host count it once if it did arrive.
   */
  keep(messages) {
    const kept = messages.map(({ n, reveal, commit, ...rest }) => (physicalOf(rest.answer) ? rest : { ...rest, offline: true }));
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

  lost(peer) {
    if (peer !== this.peer) return;
    this.connected = false;
    clearInterval(this.timer);
    this.ready.clear();
    this.issued.clear();
    // What the host had not acknowledged may be lost with the link: it is sent again.
    const unacked = [...this.unacked.values()];
    this.unacked.clear();
    if (unacked.length) this.keep(unacked);
    this.onChange();
  }

  /** Leave the table (bye: the host shows this device gone at once). */
  leave(notify = true) {
    if (!this.peer) return;
    if (notify) this.peer.send('{"t":"bye"}');
    const peer = this.peer;
    this.peer = null;
    this.connected = false;
    clearInterval(this.timer);
    peer.close();
    const unacked = [...this.unacked.values()];
    this.unacked.clear();
    if (unacked.length) this.keep(unacked);
    this.onChange();
  }

  peers() {
    return this.list.map((p) => ({ id: p.id, name: p.name, colour: p.colour, connected: p.connected }));
  }
}
