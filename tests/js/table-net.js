// An in-memory network for the shared table's node tests: links with the interface of
// web/js/sharing/peer.js (offer, answer, accept, send, close, closeSoon and its events), no
// WebRTC. Messages arrive in order, each in a later turn of the event loop, like a data
// channel's. `drop(side, text)` loses a message on its way; `log` keeps every message sent,
// in order, as {from: "host" | "player", text}.

export function network({ drop = () => false } = {}) {
  const offers = new Map();
  const log = [];
  let count = 0;

  class MemoryPeer {
    constructor() {
      this.side = null;
      this.other = null;
      this.open = false;
      this.closed = false;
      this.onOpen = () => {};
      this.onMessage = () => {};
      this.onClose = () => {};
    }

    async offer() {
      count += 1;
      this.side = "host";
      offers.set(`o${count}`, this);
      return `o${count}`;
    }

    async answer(text) {
      const host = offers.get(text);
      if (!host || host.closed) return null;
      this.side = "player";
      host.answered = this;
      return `a${text.slice(1)}`;
    }

    async accept(text) {
      if (`a${[...offers].find(([, p]) => p === this)?.[0].slice(1)}` !== text || !this.answered) return false;
      const player = this.answered;
      this.other = player;
      player.other = this;
      setImmediate(() => {
        if (this.closed || player.closed) return;
        this.open = player.open = true;
        this.onOpen();
        player.onOpen();
      });
      return true;
    }

    send(text) {
      if (!this.open || this.closed) return false;
      log.push({ from: this.side, text });
      if (drop(this.side, text)) return true; // lost on its way
      const to = this.other;
      setImmediate(() => to && !to.closed && to.onMessage(text));
      return true;
    }

    closeSoon() {
      setImmediate(() => this.close());
    }

    close(reason = "closed") {
      if (this.closed) return;
      this.closed = true;
      this.open = false;
      this.onClose(reason);
      const other = this.other;
      if (other) setImmediate(() => other.close("closed"));
    }
  }

  return { newPeer: () => new MemoryPeer(), log };
}
