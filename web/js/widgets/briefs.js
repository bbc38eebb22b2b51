// What a roll is, in the short line the engine words (its `brief`, in every language: « POT 6
// · DIFF 4 · Effort »). The page words no roll itself: a roll's answer carries its brief, and
// the rolls kept without one (the history read back from storage, another tab's, a quick
// roll's situation) are asked in one `briefs` call per batch (docs/api.md).
//
//   const briefs = new Briefs(call)       call(request) -> Promise<answer> (engine.js's call)
//   briefs.remember(item, brief)          an answer's brief of item ({system, params})
//   briefs.text(item) -> string           in the page's language; "" while asked or refused
//   briefs.onChange(listener)             asked briefs came in: draw again
//   await briefs.ready(items)             every item's brief known (an export)
//
// An item is {system, params} (a roll's params) or {system, situation} (a quick roll's).

import { pick } from "../lib/i18n.js";

const key = (item) => JSON.stringify(item);

export class Briefs {
  constructor(call) {
    this.call = call;
    this.known = new Map(); // key -> {fr, en} | null (refused)
    this.wanted = new Map(); // key -> item, asked at the next flush
    this.asking = null; // the flush under way
    this.listeners = new Set();
  }

  remember(item, brief) {
    if (brief && typeof brief === "object") this.known.set(key(item), brief);
  }

  /** The item's brief in the page's language: "" while it is asked (listeners hear when it comes) or when refused. */
  text(item) {
    const k = key(item);
    if (this.known.has(k)) return this.known.get(k) ? pick(this.known.get(k)) : "";
    this.want(k, item);
    return "";
  }

  onChange(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once every item's brief is known or refused (or the engine could not answer). */
  async ready(items) {
    for (const item of items) if (!this.known.has(key(item))) this.want(key(item), item);
    while (this.asking) await this.asking;
  }

  want(k, item) {
    this.wanted.set(k, item);
    // Everything a drawing asks for goes in one call, once the drawing is done.
    this.asking ??= Promise.resolve().then(() => this.flush());
  }

  async flush() {
    const asked = [...this.wanted];
    this.wanted.clear();
    let answer = null;
    try {
      answer = await this.call({ op: "briefs", rolls: asked.map(([, item]) => item) });
    } catch (error) {
      console.warn("[pyrules] no briefs:", error); // lines stay without their brief
    }
    const briefs = answer?.ok ? answer.result.briefs : null;
    if (briefs) asked.forEach(([k], i) => this.known.set(k, briefs[i] ?? null));
    this.asking = this.wanted.size ? Promise.resolve().then(() => this.flush()) : null;
    if (!briefs) return;
    for (const listener of [...this.listeners]) listener();
  }
}
