// The host's side of the shared table (issue 24): the GM's device. It hands out invites,
// gives each player its id, answers each player's commitments with its own values, checks
// every roll in its own engine (lib/table-verify.js) and relays it to the other players.
// Nothing a player sends is trusted: junk is set aside with a notice, and a message can
// only ever speak for the player whose channel it came on.

import { MAX_PLAYERS, WINDOW, parseMessage, randomValue } from "../lib/table-protocol.js";
import { verifyRoll } from "../lib/table-verify.js";
import { Peer } from "./peer.js";

export const PING_MS = 1000;
export const GONE_MS = 5000; // silent this long: shown as gone (back as soon as it speaks)
export const DROP_MS = 30000; // silent this long: the link is closed (a new invite brings it back)
// Colours of the players' dice on the table's screens (the GM's is the app's own).
const COLORS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c564b", "#6a3d9a"];

export class TableHost {
  /**
   * call(request): the engine; name: the GM's name; events: onChange() (players),
   * onRoll(entry) (a verified or refused roll), onNotice(text) (junk, failures).
   */
  constructor({ call, name = "MJ", onChange = () => {}, onRoll = () => {}, onNotice = () => {} }) {
    Object.assign(this, { call, name, onChange, onRoll, onNotice });
    this.players = new Map(); // id -> {id, name, color, token, conn, connected, pending, next, acked}
    this.invites = new Map(); // invite number -> Peer waiting for its answer
    this.count = 0; // invites made
    this.lastId = 0;
    this.queue = Promise.resolve(); // rolls are checked one at a time, in arrival order
    this.junk = 0;
    this.timer = setInterval(() => this.beat(), PING_MS);
  }

  seats() {
    return [...this.players.values()].filter((p) => p.connected).length + this.invites.size;
  }

  /** A fresh single-use invite: {number, text} ("<number>.<offer>"). */
  async invite() {
    if (this.seats() >= MAX_PLAYERS) throw new Error("full");
    this.count += 1;
    const number = this.count;
    const peer = new Peer();
    this.invites.set(number, peer);
    try {
      return { number, text: `${number}.${await peer.offer()}` };
    } catch (error) {
      this.invites.delete(number);
      peer.close();
      throw error;
    }
  }

  /**
   * A player's answer text. Resolves {ok: true, id} once the player has said hello, or
   * {ok: false, error} ("bad-answer", "no-invite", "unreachable").
   */
  async accept(text) {
    const match = typeof text === "string" ? text.trim().match(/^(\d{1,4})\.(.+)$/s) : null;
    if (!match) return { ok: false, error: "bad-answer" };
    const peer = this.invites.get(Number(match[1]));
    if (!peer) return { ok: false, error: "no-invite" };
    let applied = false;
    try {
      applied = await peer.accept(match[2]);
    } catch {
      applied = false;
    }
    if (!applied) return { ok: false, error: "bad-answer" };
    this.invites.delete(Number(match[1]));
    return new Promise((resolve) => {
      const conn = { peer, player: null, lastSeen: Date.now(), joined: resolve };
      peer.onMessage = (raw) => this.receive(conn, raw);
      peer.onOpen = () => (conn.lastSeen = Date.now());
      peer.onClose = (reason) => {
        if (conn.player) this.gone(conn.player, conn);
        else resolve({ ok: false, error: reason === "unreachable" ? "unreachable" : "closed" });
      };
    });
  }

  peers() {
    return [...this.players.values()].map((p) => ({ id: p.id, name: p.name, color: p.color, connected: p.connected }));
  }

  /** To a player on its current link (even while it looks silent: values must not be lost). */
  send(player, message) {
    if (player.conn && !player.conn.peer.closed) player.conn.peer.send(JSON.stringify(message));
  }

  broadcast(message, except = null) {
    for (const player of this.players.values()) if (player !== except) this.send(player, message);
  }

  /** Raw text to every player (debug.tableSend). */
  sendRaw(text) {
    for (const player of this.players.values()) player.conn?.peer.send(String(text));
  }

  sharePeers() {
    const list = [{ id: "gm", name: this.name, color: null, connected: true }, ...this.peers()];
    this.broadcast({ t: "peers", peers: list });
    this.onChange();
  }

  receive(conn, raw) {
    conn.lastSeen = Date.now();
    if (conn.player && conn.player.conn !== conn) return conn.peer.close(); // an old link of a player back on a new one
    if (conn.player && !conn.player.connected) {
      conn.player.connected = true; // silent for a while, speaking again
      this.sharePeers();
    }
    const read = parseMessage(raw, "player");
    if (!read.ok) {
      this.junk += 1;
      this.onNotice({ kind: "junk", from: conn.player?.name ?? "?", error: read.error });
      return;
    }
    const message = read.message;
    if (message.t === "hello") this.hello(conn, message);
    else if (!conn.player) this.onNotice({ kind: "junk", from: "?", error: "no hello" });
    else if (message.t === "roll") this.queue = this.queue.then(() => this.roll(conn.player, message)).catch((e) => this.onNotice({ kind: "error", error: String(e) }));
    else if (message.t === "bye") conn.peer.close();
  }

  hello(conn, message) {
    if (conn.player) return; // one hello per channel
    const back = message.back && this.players.get(message.back.id);
    let player;
    if (back && back.token === message.back.token) {
      player = back;
      if (back.conn && back.conn !== conn) back.conn.peer.close(); // its old link, if still open
    } else {
      if ([...this.players.values()].filter((p) => p.connected).length >= MAX_PLAYERS) {
        conn.peer.close();
        conn.joined({ ok: false, error: "full" });
        return;
      }
      this.lastId += 1;
      const id = `p${this.lastId}`;
      player = { id, token: randomValue(16), next: 0, acked: -1, color: message.color ?? COLORS[(this.lastId - 1) % COLORS.length] };
      this.players.set(id, player);
    }
    Object.assign(player, { name: message.name, conn, connected: true, pending: new Map() });
    conn.player = player;
    const values = message.commits.map((commit, i) => {
      const value = randomValue();
      player.pending.set(player.next + i, { commit, value });
      return { n: player.next + i, value };
    });
    const next = player.next;
    player.next += WINDOW;
    this.send(player, { t: "welcome", id: player.id, token: player.token, values, next, host: this.name, peers: [] });
    this.sharePeers();
    conn.joined({ ok: true, id: player.id });
  }

  async roll(player, message) {
    // Each roll has its number k on its device: one sent again (its ack was lost) counts once.
    if (message.k !== undefined) {
      if (message.k <= player.acked) return this.send(player, { t: "ack", k: message.k });
      player.acked = message.k;
    }
    // The value for the roll WINDOW further on leaves first: the player never waits on the check.
    if (message.n !== undefined) {
      const n = player.next;
      player.next += 1;
      const value = randomValue();
      player.pending.set(n, { commit: message.commit, value });
      this.send(player, { t: "value", n, value });
    }
    const judged = await verifyRoll(message, player.pending, this.call);
    const answer = judged.answer ?? message.answer;
    const entry = {
      from: player.id, name: player.name, color: player.color, system: message.request.system, seed: judged.seed,
      outcome: outcomeOf(answer), verified: judged.verdict === "yes", status: judged.verdict, diff: judged.diff,
      request: message.request, answer, time: message.time, offline: message.offline,
    };
    this.onRoll(entry);
    if (message.k !== undefined) this.send(player, { t: "ack", k: message.k });
    this.broadcast({ t: "roll", from: player.id, name: player.name, color: player.color, verified: judged.verdict, request: message.request, answer, diff: judged.diff, time: message.time }, player);
  }

  /** The GM's own roll, to every player (hidden: only that the GM rolled, and in which system). */
  shareOwn({ request, answer, hidden }) {
    const base = { t: "roll", from: "gm", name: this.name, verified: "host", time: new Date().toISOString() };
    this.broadcast(hidden ? { ...base, hidden: true, system: request.system } : { ...base, request, answer });
  }

  gone(player, conn) {
    if (player.conn !== conn) return;
    player.conn = null;
    player.pending = new Map();
    if (player.connected) {
      player.connected = false;
      this.sharePeers();
    }
  }

  beat() {
    const now = Date.now();
    for (const player of this.players.values()) {
      if (!player.conn) continue;
      const silent = now - player.conn.lastSeen;
      if (silent > DROP_MS) player.conn.peer.close();
      else if (silent > GONE_MS && player.connected) {
        player.connected = false;
        this.sharePeers();
      }
      player.conn?.peer.send('{"t":"ping"}');
    }
  }

  close() {
    clearInterval(this.timer);
    for (const peer of this.invites.values()) peer.close();
    for (const player of this.players.values()) player.conn?.peer.close();
  }
}

/** The outcome an answer shows: a roll's outcome, an opposition's winner. */
export function outcomeOf(answer) {
  const result = answer?.result;
  if (!result || typeof result !== "object") return null;
  return result.outcome ?? result.winner ?? null;
}
