// The GM's own rolls at the shared table (issue 38), as fair as a player's: the GM's
// device commits to the request and a random value of its own, asks one player there for a
// value, and derives the seed from both (lib/table-protocol.js seedOf, numbered "gm<n>"). The
// roll then travels with that exchange (its proof), so every player's engine checks it, and
// the player who gave the value checks it was the one used. A hidden roll is kept until the
// GM reveals it, and is checked then.

import { exchangeSeed } from "../lib/table-protocol.js";

export const ASK_MS = 4000; // how long a GM's roll waits for a player's value, then rolls alone
const MAX_OWN = 64;

export class GmRolls {
  /**
   * players(): the host's players; send(player, message): to a player on its link;
   * broadcast(message): to every player; author(): {from, name, colour} of the GM's rolls;
   * relayed(answer): the answer as the host relays it (debug.tamperNextRelay alters it).
   */
  constructor({ players, send, broadcast, author, relayed }) {
    Object.assign(this, { players, send, broadcast, author, relayed });
    this.next = 0; // the GM's roll numbers
    this.asks = new Map(); // roll number -> {by, resolve}: waiting for a player's value
    this.own = new Map(); // seed -> the exchange of the GM's roll it seeds
    this.served = new Map(); // seed -> the exchange of a GM's roll made (a new placement uses it again)
    this.hidden = new Map(); // h -> a hidden roll {request, answer, proof, time}, until the GM reveals it
    this.hiddenCount = 0;
  }

  /** A hidden roll kept to be revealed later (the oldest go first): its number h. */
  keepHidden(roll) {
    const h = this.hiddenCount;
    this.hiddenCount += 1;
    this.hidden.set(h, roll);
    if (this.hidden.size > MAX_OWN) this.hidden.delete(this.hidden.keys().next().value);
    return h;
  }

  /**
   * The seed of the GM's roll of `request`, with a player's value in it (the GM commits first,
   * exactly as a player does), or null when no player is there to give one in time.
   */
  async seed(request) {
    const by = [...this.players()].find((p) => p.connected && p.conn);
    if (!by) return null;
    const n = this.next;
    this.next += 1;
    const ask = (c) => {
      this.send(by, { t: "ask", n, c });
      return true;
    };
    const made = await exchangeSeed(request, { n: `gm${n}`, ms: ASK_MS, listen: (resolve) => this.asks.set(n, { by: by.id, resolve }), send: ask });
    this.asks.delete(n);
    if (!made) return null;
    const { seed, commit, reveal, value } = made;
    this.own.set(seed, { n, commit, reveal, value, gm: true, by: by.id });
    if (this.own.size > MAX_OWN) this.own.delete(this.own.keys().next().value); // taken, never rolled
    return seed;
  }

  /** A player's value for roll n: taken only from the player it was asked of. */
  given(player, { n, value }) {
    const ask = this.asks.get(n);
    if (ask?.by === player.id) ask.resolve(value);
  }

  /** Whether `seed` is one of the GM's exchanges, not yet rolled. */
  has(seed) {
    return this.own.has(seed);
  }

  /**
   * The exchange that seeded the GM's roll (its proof), once; null when it rolled alone.
   * again: a new placement of that roll's Flame dice, seeded by the exchange served already.
   */
  take(seed, { again = false } = {}) {
    if (again) return this.served.get(seed) ?? null;
    const proof = this.own.get(seed) ?? null;
    this.own.delete(seed);
    if (proof) {
      this.served.set(seed, proof);
      if (this.served.size > MAX_OWN) this.served.delete(this.served.keys().next().value);
    }
    return proof;
  }

  /**
   * The GM's roll, to every player (hidden: only that the GM rolled, in which system, and its
   * number h to reveal it by); placed: a new placement of its Flame dice, seeded by that roll's
   * exchange. Answers {proof, h}.
   */
  share({ request, answer, hidden, placed = false }) {
    const proof = this.take(request.seed, { again: placed });
    const base = { t: "roll", ...this.author(), verified: "host", time: new Date().toISOString() };
    if (hidden) {
      const h = this.keepHidden({ request, answer, proof, time: base.time });
      this.broadcast({ ...base, hidden: true, h, system: request.system });
      return { h, proof };
    }
    this.broadcast({ ...base, request, answer: this.relayed(answer), placed, ...(proof ? { proof } : {}) });
    return { proof };
  }

  /** The GM reveals its hidden roll h: the players see it now, and check it with its exchange. */
  reveal(h) {
    const kept = this.hidden.get(h);
    if (!kept) return false;
    this.hidden.delete(h);
    const { request, answer, proof, time } = kept;
    this.broadcast({ t: "roll", ...this.author(), verified: "host", time, h, revealed: true, request, answer, ...(proof ? { proof } : {}) });
    return true;
  }
}
