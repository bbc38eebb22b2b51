// The host's side of the shared table (issue 24): the GM's device. It hands out invites,
// gives each player its id, answers each player's commitments with its own values, checks
// every roll in its own engine (lib/table-verify.js) and relays it to the other players.
// Nothing a player sends is trusted: junk is set aside with a notice, and a message can
// only ever speak for the player whose channel it came on.

import { cleanColour } from "../lib/dice-colours.js";
import { lang } from "../lib/i18n.js";
import { MAX_ROSTER, WINDOW, parseMessage, randomValue } from "../lib/table-protocol.js";
import { verifyRoll } from "../lib/table-verify.js";
import { Peer } from "./peer.js";

export const PING_MS = 1000;
export const GONE_MS = 5000; // silent this long: shown as gone (back as soon as it speaks)
export const DROP_MS = 30000; // silent this long: the link is closed (a new invite brings it back)

export class TableHost {
  /**
   * call(request): the engine; name: the GM's name; colour(): this device's dice colour;
   * roster: what a reload kept (host-store.js readHostState: players shown gone until they
   * come back); events: onChange() (players), onRoll(entry) (a verified or refused roll),
   * onNotice(text) (junk, failures).
   */
  constructor({ call, name = "MJ", colour = () => null, roster = null, onChange = () => {}, onRoll = () => {}, onNotice = () => {} }) {
    Object.assign(this, { call, name, colour, onChange, onRoll, onNotice });
    this.players = new Map(); // id -> {id, name, colour, token, conn, connected, pending, next, acked}
    this.invites = new Map(); // invite number -> Peer waiting for its answer
    this.count = roster?.count ?? 0; // invites made (numbers never reused, even across a reload)
    this.lastId = roster?.lastId ?? 0;
    for (const p of roster?.players ?? []) this.players.set(p.id, { ...p, conn: null, connected: false, pending: new Map() });
    this.restored = Boolean(roster); // the page was reloaded with a table: say so until all are back
    this.queue = Promise.resolve(); // rolls are checked one at a time, in arrival order
    this.junk = 0;
    this.timer = setInterval(() => this.beat(), PING_MS);
  }

  /** Seats taken: the players there (but `except`) and the invites still open. */
  seats(except = null) {
    return [...this.players.values()].filter((p) => p.connected && p !== except).length + this.invites.size;
  }

  /**
   * Whether one more player may sit, with `taken` seats taken: the engine decides (op
   * "seat": how many a table seats is a rule, not the page's). With `text`, its answer also
   * carries that text's QR code (the invite's tap is one engine call). {ok, qr?, message?}.
   */
  async seat(taken, text = undefined) {
    const answer = await this.call({ op: "seat", taken, ...(text === undefined ? {} : { text }), lang: lang() });
    return answer?.ok ? { ok: true, qr: answer.result.qr ?? null, free: answer.result.free } : { ok: false, message: answer?.error?.message ?? "?" };
  }

  /**
   * A fresh single-use invite, once the engine gives it a seat: {number, text, link, qr}
   * (text "<number>.<offer>", link = linkOf(text)), or {error, message} (the table is full).
   */
  async invite(linkOf = (text) => text) {
    this.count += 1;
    const number = this.count;
    const peer = new Peer();
    this.invites.set(number, peer); // counted at once: two invites at the same time take two seats
    const taken = this.seats() - 1;
    const drop = () => {
      this.invites.delete(number);
      peer.close();
    };
    try {
      const text = `${number}.${await peer.offer()}`;
      const link = linkOf(text);
      const seat = await this.seat(taken, link);
      if (!seat.ok) {
        drop();
        return { error: "full", message: seat.message };
      }
      this.onChange();
      return { number, text, link, qr: seat.qr };
    } catch (error) {
      drop();
      throw error;
    }
  }

  /**
   * A player's answer text. Resolves {ok: true, id} once the player has said hello, or
   * {ok: false, error, message?} ("bad-answer", "no-invite", "unreachable", "closed", or
   * "full" with the engine's message).
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
    return [...this.players.values()].map((p) => ({ id: p.id, name: p.name, colour: p.colour, connected: p.connected }));
  }

  /** What a reload keeps of the roster (host-store.js): ids, names, colours, tokens, counters. */
  roster() {
    const players = [...this.players.values()].map(({ id, name, colour, token, acked, next }) => ({ id, name, colour, token, acked, next }));
    return { players, lastId: this.lastId, count: this.count };
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
    const list = [{ id: "gm", name: this.name, colour: cleanColour(this.colour()), connected: true }, ...this.peers()];
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
    if (message.t === "ping") return;
    // One at a time, in arrival order: a hello waits on the engine (its seat), the rolls after it wait for it.
    this.queue = this.queue.then(() => this.handle(conn, message)).catch((e) => this.onNotice({ kind: "error", error: String(e) }));
  }

  handle(conn, message) {
    if (message.t === "hello") return this.hello(conn, message);
    if (!conn.player) return this.onNotice({ kind: "junk", from: "?", error: "no hello" });
    if (message.t === "roll") return this.roll(conn.player, message);
    if (message.t === "bye") conn.peer.close();
  }

  async hello(conn, message) {
    if (conn.player || conn.peer.closed) return; // one hello per channel
    const known = message.back && this.players.get(message.back.id);
    const back = known && known.token === message.back.token ? known : null;
    // A seat for it, the engine says (a player coming back takes one too, unless still there).
    const seat = await this.seat(this.seats(back));
    if (!seat.ok) {
      conn.peer.close();
      conn.joined({ ok: false, error: "full", message: seat.message });
      return;
    }
    let player;
    if (back) {
      player = back;
      if (back.conn && back.conn !== conn) back.conn.peer.close(); // its old link, if still open
    } else {
      this.lastId += 1;
      const id = `p${this.lastId}`;
      player = { id, token: randomValue(16), next: 0, acked: -1 };
      this.players.set(id, player);
    }
    Object.assign(player, { name: message.name, colour: message.colour, conn, connected: true, pending: new Map() });
    this.forget();
    conn.player = player;
    const values = message.commits.map((commit, i) => {
      const value = randomValue();
      player.pending.set(player.next + i, { commit, value });
      return { n: player.next + i, value };
    });
    const next = player.next;
    player.next += WINDOW;
    this.send(player, { t: "welcome", id: player.id, token: player.token, values, next, host: this.name, peers: [] });
    if ([...this.players.values()].every((p) => p.connected)) this.restored = false; // everyone is back
    this.sharePeers();
    conn.joined({ ok: true, id: player.id });
  }

  /** The roster stays under MAX_ROSTER: the players gone longest are forgotten first. */
  forget() {
    for (const [id, p] of this.players) {
      if (this.players.size <= MAX_ROSTER) break;
      if (!p.connected && !p.conn) this.players.delete(id);
    }
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
    if (message.colour) player.colour = message.colour; // the dice colour it rolled with
    const entry = {
      from: player.id, name: player.name, colour: player.colour, system: message.request.system, seed: judged.seed,
      outcome: outcomeOf(answer), verified: judged.verdict === "yes", status: judged.verdict, diff: judged.diff,
      request: message.request, answer, time: message.time, offline: message.offline,
    };
    this.onRoll(entry);
    if (message.k !== undefined) this.send(player, { t: "ack", k: message.k });
    this.broadcast({ t: "roll", from: player.id, name: player.name, colour: player.colour, verified: judged.verdict, request: message.request, answer, diff: judged.diff, time: message.time }, player);
  }

  /** The GM's own roll, to every player (hidden: only that the GM rolled, and in which system). */
  shareOwn({ request, answer, hidden }) {
    const base = { t: "roll", from: "gm", name: this.name, colour: cleanColour(this.colour()), verified: "host", time: new Date().toISOString() };
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
