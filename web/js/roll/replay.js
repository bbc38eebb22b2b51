// Replay links: any roll of the history as a relative URL whose fragment carries the
// system, the params (with the physical faces, if any) and the seed, as base64url JSON:
//   #replay=<base64url of {"v":1,"system":…,"mode":"roll"|"oppose","params"|"actor"+"opponent",…,"seed":…}>
// Opening such a link shows the same dice and verdict, marked "Rejeu", without adding a
// history entry unless the user asks. The fragment never reaches a server.

import { isParams, paramsFit } from "../lib/checks.js";
import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import "../widgets/strings.js";

export const PREFIX = "#replay=";
const MAX_LENGTH = 20000;

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

function cleanWho(who) {
  if (!who || typeof who !== "object" || typeof who.name !== "string") return null;
  return { name: who.name.slice(0, 60), label: typeof who.label === "string" ? who.label.slice(0, 60) : "" };
}

/**
 * Params stored or linked before free dice had a `grammar` (notation version 2): they were
 * rolled under the former reading, so they replay with `grammar: 1` (docs/api.md, notation).
 * A new link or entry carries the engine's echo of `grammar` and is left as it is.
 */
export function withOldReading(system, params) {
  if (system !== "notation" || !params || typeof params !== "object") return params;
  return params.grammar === undefined || params.grammar === null ? { ...params, grammar: 1 } : params;
}

/** What a replay link carries for a history entry. */
export function payloadOf(entry) {
  const base = { v: 1, system: entry.system, mode: entry.mode === "oppose" ? "oppose" : "roll", seed: entry.seed ?? null };
  if (base.mode === "oppose") {
    const out = { ...base, actor: entry.actor || {}, opponent: entry.opponent || {} };
    if (entry.actorWho) out.actorWho = cleanWho(entry.actorWho);
    if (entry.opponentWho) out.opponentWho = cleanWho(entry.opponentWho);
    return out;
  }
  const out = { ...base, params: entry.params || {} };
  if (entry.who) out.who = cleanWho(entry.who);
  return out;
}

/** The relative link ("#replay=…") of a history entry. */
export function linkOf(entry) {
  return PREFIX + toBase64Url(JSON.stringify(payloadOf(entry)));
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** A checked payload from a URL fragment, or null. */
export function decodeFragment(hash) {
  if (typeof hash !== "string" || !hash.startsWith(PREFIX) || hash.length > MAX_LENGTH) return null;
  let data;
  try {
    data = JSON.parse(fromBase64Url(hash.slice(PREFIX.length)));
  } catch {
    return null;
  }
  if (!isObject(data) || data.v !== 1 || typeof data.system !== "string" || data.system.length > 40) return null;
  if (data.seed !== null && data.seed !== undefined && !(Number.isSafeInteger(data.seed) && data.seed >= 0)) return null;
  const seed = data.seed ?? null;
  if (data.mode === "oppose") {
    if (!isParams(data.actor) || !isParams(data.opponent)) return null;
    return { system: data.system, mode: "oppose", actor: data.actor, opponent: data.opponent, seed, actorWho: cleanWho(data.actorWho), opponentWho: cleanWho(data.opponentWho) };
  }
  if (data.mode !== "roll" || !isParams(data.params)) return null;
  return { system: data.system, mode: "roll", params: data.params, seed, who: cleanWho(data.who) };
}

/**
 * Whether a decoded payload fits `system` (the engine's description) well enough to be
 * loaded into its forms: every param a field of it, of that field's type. Whether it may
 * be rolled (a seeded link never carries dice faces: `faces_in_sheet`) is the engine's
 * answer to the link's request, shown as a link the engine refuses.
 */
export function payloadFits(system, payload) {
  if (!system || !payload) return false;
  const sides = payload.mode === "oppose" ? [payload.actor, payload.opponent] : [payload.params];
  return sides.every((params) => paramsFit(system, params));
}

let dialog = null;

/**
 * The share dialog: the link in a read-only field, a Copy button (and the system share sheet);
 * with options.qr(box, url), also the link as a QR code drawn into box.
 */
export function shareEntry(entry, options = {}) {
  const link = linkOf(entry);
  const url = new URL(link, location.href).href;
  if (!dialog) {
    dialog = h("dialog", { class: ["dialog", "share-dialog"], id: "share-dialog", "aria-labelledby": "share-title", "aria-describedby": "share-text" });
    document.body.append(dialog);
  }
  const returnFocus = document.activeElement;
  const input = h("input", { type: "text", id: "share-url", readonly: true, spellcheck: "false", dataset: { link } });
  input.value = url;
  input.addEventListener("focus", () => input.select());
  const status = h("p", { class: "share-status", id: "share-status", role: "status" });
  const copy = h("button", { type: "button", class: ["button", "button--primary"], id: "share-copy", text: t("share.copy") });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = t("share.copied");
      status.dataset.state = "copied";
    } catch {
      // No clipboard access (insecure context, permission): select the text for Ctrl+C.
      input.focus();
      input.select();
      status.textContent = t("share.selectHint");
      status.dataset.state = "manual";
    }
  });
  const close = h("button", { type: "submit", class: "button", value: "close", id: "share-close", text: t("share.close") });
  const qrBox = h("div", { class: "share-qr", id: "share-qr" });
  if (options.qr) options.qr(qrBox, url);
  const actions = h("div", { class: "dialog-actions" }, close);
  if (navigator.share) {
    const native = h("button", { type: "button", class: "button", id: "share-native", text: t("share.native") });
    native.addEventListener("click", () => navigator.share({ title: t("share.title"), url }).catch(() => {}));
    actions.append(native);
  }
  actions.append(copy);
  dialog.replaceChildren(
    h(
      "form",
      { method: "dialog" },
      h("h2", { id: "share-title", text: t("share.title") }),
      h("p", { id: "share-text", text: t("share.text") }),
      h("div", { class: "field" }, h("label", { for: "share-url", class: "field-label", text: t("share.linkLabel") }), input),
      qrBox,
      status,
      actions,
    ),
  );
  dialog.addEventListener(
    "close",
    () => {
      if (returnFocus && returnFocus.isConnected) returnFocus.focus();
    },
    { once: true },
  );
  dialog.showModal();
  copy.focus();
  return url;
}
