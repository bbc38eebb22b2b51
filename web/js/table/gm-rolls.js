// The GM's own visible rolls at the shared table (issue 38), as fair as a player's: the GM's
// device commits to the request and a random value of its own, asks one player there for a
// value, and derives the seed from both (lib/table-protocol.js seedOf, numbered "gm<n>"). The
// roll then travels with that exchange (its proof), so every player's engine checks it, and
// the player who gave the value checks it was the one used.

import { commitment, randomValue, seedOf } from "../lib/table-protocol.js";

export const ASK_MS = 4000; // how long a GM's roll waits for a player's value, then rolls alone
const MAX_OWN = 64;

export class GmRolls {
  /** players(): the host's players; send(player, message): to a player on its link. */
  constructor({ players, send }) {
    Object.assign(this, { players, send });
    this.next = 0; // the GM's roll numbers
    this.asks = new Map(); // roll number -> {by, resolve}: waiting for a player's value
    this.own = new Map(); // seed -> the exchange of the GM's roll it seeds
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
    const reveal = randomValue();
    const commit = await commitment(reveal, request);
    const value = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), ASK_MS);
      this.asks.set(n, { by: by.id, resolve: (v) => (clearTimeout(timer), resolve(v)) });
      this.send(by, { t: "ask", n, c: commit });
    });
    this.asks.delete(n);
    if (!value) return null;
    const seed = await seedOf(reveal, value, `gm${n}`);
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

  /** The exchange that seeded the GM's roll (its proof), once; null when it rolled alone. */
  take(seed) {
    const proof = this.own.get(seed) ?? null;
    this.own.delete(seed);
    return proof;
  }
}
