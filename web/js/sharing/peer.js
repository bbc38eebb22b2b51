// WebRTC for the shared table (issue 24): one data channel per player, no ICE server.
//
// No STUN or TURN server is configured (iceServers: []): the devices reach each other over
// the table's own network through their host candidates (an address, or an mDNS name).
// Candidates are gathered completely before the description is shown (no trickle), then
// written as a short text (lib/table-sdp.js) for a link or a QR code.

import { compactSDP, expandSDP } from "../lib/table-sdp.js";

const CONFIG = { iceServers: [] };
// How long to wait, in ms (the page's debug hook tableLimits() shortens them for tests):
//   gather   a network that never finishes gathering: use what came
//   connect  after the answer: no channel by then, the two devices cannot reach each other
//   join     after the answer (the GM) or once the link is up (the player): no welcome by
//            then, the join failed and both screens say so
export const LIMITS = { gather: 8000, connect: 15000, join: 15000 };

/** Resolve once pc has gathered all its candidates (or after LIMITS.gather). */
function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const timer = setTimeout(resolve, LIMITS.gather);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

/**
 * One link to one device. Events: onOpen(), onMessage(text), onClose(reason) where
 * reason is "closed" (the other side left or the link broke) or "unreachable".
 */
export class Peer {
  constructor() {
    this.pc = new RTCPeerConnection(CONFIG);
    this.channel = null;
    this.open = false;
    this.closed = false;
    this.onOpen = () => {};
    this.onMessage = () => {};
    this.onClose = () => {};
    this.pc.addEventListener("connectionstatechange", () => {
      const state = this.pc.connectionState;
      if (state === "failed") this.close(this.open ? "closed" : "unreachable");
      else if (state === "closed") this.close("closed");
    });
  }

  wire(channel) {
    this.channel = channel;
    const opened = () => {
      if (this.open || this.closed) return;
      this.open = true;
      clearTimeout(this.limit);
      this.onOpen();
    };
    channel.addEventListener("open", opened);
    // A channel announced to the answering side may be open already: no "open" event to wait for.
    if (channel.readyState === "open") queueMicrotask(opened);
    channel.addEventListener("message", (event) => {
      if (typeof event.data === "string") this.onMessage(event.data);
    });
    channel.addEventListener("close", () => this.close("closed"));
  }

  /** Host side: an offer with all its candidates, as a short text. */
  async offer() {
    this.wire(this.pc.createDataChannel("pyrules-table", { ordered: true }));
    await this.pc.setLocalDescription(await this.pc.createOffer());
    await gathered(this.pc);
    return compactSDP(this.pc.localDescription.sdp);
  }

  /** Host side: take the player's answer text; false when it is not one. */
  async accept(text) {
    const sdp = expandSDP(text);
    if (!sdp) return false;
    await this.pc.setRemoteDescription({ type: "answer", sdp });
    this.watchConnect();
    return true;
  }

  /** Player side: answer an offer text; the answer's short text, or null if not an offer. */
  async answer(offerText) {
    const sdp = expandSDP(offerText);
    if (!sdp) return null;
    this.pc.addEventListener("datachannel", (event) => this.wire(event.channel));
    await this.pc.setRemoteDescription({ type: "offer", sdp });
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    await gathered(this.pc);
    return compactSDP(this.pc.localDescription.sdp);
  }

  /** After the answer: the channel must open within LIMITS.connect, else "unreachable". */
  watchConnect() {
    this.limit = setTimeout(() => {
      if (!this.open) this.close("unreachable");
    }, LIMITS.connect);
  }

  send(text) {
    if (!this.open || this.channel?.readyState !== "open") return false;
    try {
      this.channel.send(text);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Close the channel first, which sends what is still queued on it (a last word is not cut
   * off); the link goes with it (the channel's close event), or at the latest `ms` later.
   */
  closeSoon(ms = 2000) {
    try {
      this.channel?.close();
    } catch {
      /* already closed */
    }
    setTimeout(() => this.close(), ms);
  }

  close(reason = "closed") {
    if (this.closed) return;
    this.closed = true;
    this.open = false;
    clearTimeout(this.limit);
    try {
      this.channel?.close();
      this.pc.close();
    } catch {
      /* already closed */
    }
    this.onClose(reason);
  }
}
