// The host's side of the shared table (issues 24 and 38): the GM's device. It hands out
// invites, gives each player its id, answers each roll's commitment with its own value, checks
// every roll in its own engine (lib/table-verify.js) and relays it, with what any device needs
// to check it again, to the other players. The GM's own rolls are gm-rolls.js's.
// Nothing a player sends is trusted: junk is set aside with a notice, a message can only ever
// speak for the player whose channel it came on, and what one player can make the host do is
// bounded (a rate, a cap on its open rolls and on its rolls waiting for the engine).

import { cleanColour } from "../lib/dice-colours.js";
import { lang } from "../lib/i18n.js";
import { MAX_ROSTER, PROTOCOL, canonical, cleanName, parseMessage, randomValue } from "../lib/table-protocol.js";
import { outcomeOf, tampered, verifyRoll, withHeldSheets } from "../lib/table-verify.js";
import { GmRolls } from "./gm-rolls.js";
import { LIMITS, Peer } from "./peer.js";

export const PING_MS = 1000;
export const GONE_MS = 5000; // silent this long: shown as gone (back as soon as it speaks)
export const DROP_MS = 30000; // silent this long: the link is closed (a new invite brings it back)
export const MAX_PENDING = 4; // a player's rolls committed to, not yet revealed (the oldest goes first)
export const MAX_QUEUED = 8; // a player's messages waiting for the host's engine; more are dropped
const MAX_SERVED = 16; // a player's last exchanges kept for a new placement of their Flame dice
export const RATE = { burst: 30, perSecond: 10 }; // messages a player may send (pings aside)

/** A token bucket: take() is false once a player sent more than its rate allows. */
function bucket({ burst, perSecond }) {
  let tokens = burst;
  let at = Date.now();
  return () => {
    const now = Date.now();
    tokens = Math.min(burst, tokens + ((now - at) / 1000) * perSecond);
    at = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

export class TableHost {
  /**
   * call(request): the engine; name: the GM's name; colour(): this device's dice colour;
   * roster: what a reload kept (host-store.js readHostState: players shown gone until they
   * come back); newPeer(): a link (peer.js; an in-memory one in node tests); events:
   * onChange() (players, invites), onRoll(entry) (a checked roll), onNotice(info) (junk,
   * failures).
   */
  constructor({ call, name = "MJ", colour = () => null, roster = null, newPeer = () => new Peer(), onChange = () => {}, onRoll = () => {}, onNotice = () => {} }) {
    Object.assign(this, { call, name, colour, newPeer, onChange, onRoll, onNotice });
    this.players = new Map(); // id -> {id, name, colour, token, conn, connected, pending, next, acked, sheets}
    this.invites = new Map(); // invite number -> Peer waiting for its answer
    this.count = roster?.count ?? 0; // invites made (numbers never reused, even across a reload)
    this.lastId = roster?.lastId ?? 0;
    for (const p of roster?.players ?? []) this.players.set(p.id, { ...p, conn: null, connected: false, pending: new Map(), served: new Map(), sheets: null });
    this.restored = Boolean(roster); // the page was reloaded with a table: say so until all are back
    this.queue = Promise.resolve(); // messages needing the engine are handled one at a time, in arrival order
    this.junk = 0;
    // The GM's own rolls (gm-rolls.js): seeded with a player's value, shown, hidden, revealed.
    this.gmRolls = new GmRolls({
      players: () => this.players.values(), send: (player, message) => this.send(player, message), broadcast: (message) => this.broadcast(message),
      author: () => ({ from: "gm", name: this.name, colour: cleanColour(this.colour()) }), relayed: (answer) => this.relayed(answer),
    });
    this.tamperRelay = false; // debug.tamperNextRelay(): the next relayed roll is altered
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

  /** The invites nobody answered are withdrawn: only the one on screen holds a seat. */
  withdraw() {
    for (const peer of this.invites.values()) peer.close();
    this.invites.clear();
  }

  /**
   * A fresh single-use invite, once the engine gives it a seat: {number, text, link, qr}
   * (text "<number>.<offer>", link = linkOf(text)), or {error, message} (the table is full).
   * The previous invite, if nobody used it, is withdrawn.
   */
  async invite(linkOf = (text) => text) {
    this.withdraw();
    this.count += 1;
    const number = this.count;
    const peer = this.newPeer();
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
      if (this.invites.get(number) !== peer) return { error: "withdrawn" }; // a newer invite took its place
      this.onChange();
      return { number, text, link, qr: seat.qr };
    } catch (error) {
      drop();
      throw error;
    }
  }

  /**
   * A player's answer text. Resolves {ok: true, id} once the player has said hello, or
   * {ok: false, error, message?} ("bad-answer", "no-invite", "unreachable", "timeout" (linked,
   * but no hello within LIMITS.join), "closed", or "full" with the engine's message).
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
    this.invites.delete(Number(match[1])); // used: it leaves the screen
    this.onChange();
    return new Promise((resolve) => {
      let done = false;
      const joined = (result) => {
        if (done) return;
        done = true;
        clearTimeout(limit);
        resolve(result);
      };
      const conn = { peer, player: null, lastSeen: Date.now(), joined, queued: 0, allow: bucket(RATE) };
      // A join that does not complete says so: never a silent wait.
      const limit = setTimeout(() => {
        if (conn.player) return;
        joined({ ok: false, error: peer.open ? "timeout" : "unreachable" });
        peer.close();
      }, LIMITS.join);
      peer.onMessage = (raw) => this.receive(conn, raw);
      peer.onOpen = () => (conn.lastSeen = Date.now());
      peer.onClose = (reason) => {
        if (conn.player) this.gone(conn.player, conn);
        else joined({ ok: false, error: reason === "unreachable" ? "unreachable" : "closed" });
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

  /** A message set aside: counted, and said on the GM's screen; nothing else changes. */
  refuse(conn, error) {
    this.junk += 1;
    this.onNotice({ kind: "junk", from: conn.player?.name ?? "?", error });
  }

  receive(conn, raw) {
    conn.lastSeen = Date.now();
    if (conn.player && conn.player.conn !== conn) return conn.peer.close(); // an old link of a player back on a new one
    if (conn.player && !conn.player.connected) {
      conn.player.connected = true; // silent for a while, speaking again
      this.sharePeers();
    }
    const read = parseMessage(raw, "player");
    if (!read.ok) return this.refuse(conn, read.error);
    const message = read.message;
    if (message.t === "ping") return;
    if (!conn.allow()) return this.refuse(conn, "too many messages");
    if (message.t === "hello") return this.enqueue(conn, () => this.hello(conn, message));
    const player = conn.player;
    if (!player) return this.refuse(conn, "no hello");
    if (message.t === "commit") return this.commit(player, message);
    if (message.t === "give") return this.gmRolls.given(player, message);
    if (message.t === "sheets") return this.sheets(player, message.characters);
    if (message.t === "bye") return conn.peer.close();
    // A roll naming an exchange this host never opened costs nothing: no engine replay.
    if (message.n !== undefined && !(message.placed ? player.served : player.pending).has(message.n)) return this.refuse(conn, `no open roll ${message.n}`);
    if (conn.queued >= MAX_QUEUED) return this.refuse(conn, "too many rolls waiting");
    if (message.t === "void") return this.enqueue(conn, () => this.void(player, message));
    return this.enqueue(conn, () => this.roll(player, message));
  }

  /** One at a time, in arrival order: a hello waits on the engine (its seat), the rolls after it wait for it. */
  enqueue(conn, task) {
    conn.queued += 1;
    this.queue = this.queue
      .then(task)
      .catch((e) => this.onNotice({ kind: "error", error: String(e) }))
      .finally(() => (conn.queued -= 1));
  }

  async hello(conn, message) {
    if (conn.peer.closed) return;
    // A hello said again (its welcome was lost, or is on its way): the same welcome again.
    if (conn.welcome) return conn.peer.send(JSON.stringify(conn.welcome));
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
      player = { id, token: randomValue(16), next: 0, acked: -1, sheets: null };
      this.players.set(id, player);
    }
    Object.assign(player, { name: message.name, colour: message.colour, conn, connected: true, pending: new Map(), served: new Map() });
    this.forget();
    conn.player = player;
    conn.welcome = { t: "welcome", v: PROTOCOL, id: player.id, token: player.token, next: player.next, host: this.name, peers: [] };
    conn.peer.send(JSON.stringify(conn.welcome));
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

  /** A player commits to its roll n: the host's value for it leaves now, and only now. */
  commit(player, message) {
    if (message.n < player.next) return this.refuse(player.conn, `roll ${message.n} already opened`);
    player.next = message.n + 1;
    if (player.pending.size >= MAX_PENDING) {
      const [oldest] = player.pending.keys();
      player.pending.delete(oldest);
      this.onNotice({ kind: "abandoned", from: player.name, n: oldest });
    }
    const value = randomValue();
    player.pending.set(message.n, { commit: message.c, value });
    this.send(player, { t: "value", n: message.n, value });
  }

  /** The exchange of a player's roll n, taken (a value serves once), or null. */
  exchange(player, message) {
    if (message.n === undefined) return null;
    // A new placement of a roll's Flame dice is seeded by that roll's exchange, served already.
    const open = message.placed ? player.served.get(message.n) : player.pending.get(message.n);
    if (!open) return null;
    if (!message.placed) {
      player.pending.delete(message.n);
      player.served.set(message.n, open);
      if (player.served.size > MAX_SERVED) player.served.delete(player.served.keys().next().value);
    }
    return { n: message.n, commit: open.commit, reveal: message.reveal, value: open.value };
  }

  async roll(player, message) {
    // Each roll has its number k on its device: one sent again (its ack was lost) counts once.
    if (message.k !== undefined) {
      if (message.k <= player.acked) return this.send(player, { t: "ack", k: message.k });
      player.acked = message.k;
    }
    const exchange = this.exchange(player, message);
    if (message.n !== undefined && !exchange) return; // its value was given up meanwhile
    // A sheet roll verifies only against the sheet the GM holds.
    const judged = await verifyRoll(message, exchange, this.call, withHeldSheets(message.request, player.sheets));
    const answer = judged.answer ?? message.answer;
    if (message.colour) player.colour = message.colour; // the dice colour it rolled with
    const entry = {
      from: player.id, name: player.name, colour: player.colour, system: message.request.system, seed: judged.seed,
      outcome: outcomeOf(answer), verified: judged.verdict === "yes", status: judged.verdict, diff: judged.diff,
      request: message.request, answer, time: message.time, offline: message.offline, placed: message.placed,
      own: judged.answer, // this device's own answer (null: it could not replay the request)
    };
    this.onRoll(entry);
    if (message.k !== undefined) this.send(player, { t: "ack", k: message.k });
    this.broadcast({
      t: "roll", from: player.id, name: player.name, colour: player.colour, verified: judged.verdict, request: message.request, answer: this.relayed(answer),
      diff: judged.diff, time: message.time, offline: message.offline, placed: message.placed, ...(exchange ? { proof: exchange } : {}),
    }, player);
  }

  /**
   * A request the player's engine refused: no roll, no trace, once the host's engine refuses
   * it too. A request the host's engine would roll is a roll the player chose not to show.
   */
  async void(player, message) {
    const exchange = this.exchange(player, message);
    if (!exchange) return;
    const judged = await verifyRoll({ request: message.request, answer: { ok: false } }, exchange, this.call);
    if (!judged.answer && !judged.diff.includes("commitment")) return; // refused here too: nothing happened
    this.onRoll({
      from: player.id, name: player.name, colour: player.colour, system: message.request.system, seed: judged.seed, outcome: outcomeOf(judged.answer),
      verified: false, status: "no", diff: ["abandoned", ...judged.diff].slice(0, 8), request: message.request, answer: judged.answer, time: new Date().toISOString(), offline: false,
    });
  }

  /** A player's characters, as this device holds them (the Table screen lists them, and says which changed). */
  sheets(player, characters) {
    const before = new Map((player.sheets ?? []).map((c) => [c.id, canonical(c)]));
    const changed = player.sheets === null ? [] : characters.filter((c) => before.get(c.id) !== canonical(c)).map((c) => cleanName(c.name));
    player.sheets = characters;
    if (changed.length) this.onNotice({ kind: "sheets", from: player.name, names: changed.join(", ") });
    this.onChange();
  }

  /** The answer as it is relayed: altered once after debug.tamperNextRelay() (a lying GM's device). */
  relayed(answer) {
    if (!this.tamperRelay) return answer;
    this.tamperRelay = false;
    return tampered(answer);
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

  /** The table ends: every player is told, every link closed. */
  close() {
    clearInterval(this.timer);
    this.broadcast({ t: "closed" });
    this.withdraw();
    for (const player of this.players.values()) player.conn?.peer.closeSoon();
  }
}
