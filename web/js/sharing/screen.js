// The « Table » screen's DOM (table.js owns the state): the host's invite and the answers it
// reads, the player's answer, the players and their characters, and the table's rolls (each
// led by its number and verdict, its dice under it) with a « moi / table » filter; and the
// toasts that announce another device's roll whatever screen is open. Names and everything
// else from another device go in as text only.

import { h } from "../lib/dom.js";
import { formatTime, pick, t } from "../lib/i18n.js";
import { outcomeInfo } from "../widgets/outcomes.js";
import { renderOppose, renderRoll } from "../widgets/result.js";
import { qrSVG } from "../ui/qr.js";
import { diceDot } from "../widgets/dice-dot.js";
import { ERROR_KEYS, FILTER_KEYS, STATUS_KEYS } from "./strings.js";

const input = (attrs) => h("input", attrs);
const dot = (colour) => diceDot(colour, "table-dot");
/** Where a player's device stands: none, waiting (for the GM), connected, failed, lost, away (reloaded). */
function playerState(player) {
  if (!player) return "none";
  if (player.connected) return "connected";
  if (player.failed) return "failed";
  if (player.joining) return "waiting";
  if (player.peer) return "lost";
  return player.place ? "away" : "none";
}

const PLAYER_TEXT = { connected: "table.connected", failed: "table.error.join-timeout", waiting: "table.waiting", lost: "table.lost", away: "table.away" };
export const TOAST_MS = 6000; // how long a roll's toast stays (it can be closed before)
const MAX_TOASTS = 3;

export class TableScreen {
  constructor(root, table, toasts = null) {
    this.root = root;
    this.table = table;
    this.toasts = toasts;
    this.filter = "all";
    this.built = false;
  }

  /** Drawn anew (the language changed, the table closed): what was shown stays shown. */
  redraw() {
    this.built = false;
    this.draw();
  }

  build() {
    const tb = this.table;
    const button = (id, key, action, cls = "") => h("button", { type: "button", id, class: ["button", cls], text: t(key), onclick: action });
    this.noticeLine = h("p", { class: "table-notice", id: "table-notice", role: "status", "aria-live": "polite" });
    // Player: the invite's answer.
    this.nameInput = input({ id: "table-name", type: "text", maxlength: "40", autocomplete: "nickname", value: t("table.defaultName") });
    this.answerQR = h("div", { class: "table-qr", id: "table-answer-qr" });
    this.answerOut = h("textarea", { id: "table-answer-out", class: "table-text", readonly: true, rows: "3", "aria-label": t("table.answerLabel") });
    this.playerState = h("p", { class: "table-state", id: "table-player-state" });
    // The others' rolls played on this device's stage (a setting of the device, on by default for the GM).
    this.playBox = input({ id: "table-play", type: "checkbox", onchange: () => tb.setPlayRolls(this.playBox.checked) });
    this.joinPlayBox = input({ id: "table-join-play", type: "checkbox", onchange: () => tb.setPlayRolls(this.joinPlayBox.checked) });
    this.join = h(
      "section",
      { class: "panel table-join", id: "table-join", "aria-labelledby": "table-join-title" },
      h("h3", { id: "table-join-title", text: t("table.joinTitle") }),
      h("label", { class: "table-field" }, h("span", { text: t("table.name") }), this.nameInput),
      button("table-join-button", "table.join", () => this.run(() => tb.answer())),
      h("div", { class: "table-answer", id: "table-answer", hidden: true }, h("p", { class: "help", text: t("table.answerHint") }), this.answerQR, this.answerOut, this.copyButton(() => this.answerOut.value)),
      this.playerState,
      h("label", { class: "table-check" }, this.joinPlayBox, h("span", { text: t("table.playRolls") })),
      button("table-leave", "table.leave", () => tb.player?.leave(), "button--small"),
    );
    // Host: invites, answers, players.
    this.inviteQR = h("div", { class: "table-qr", id: "table-invite-qr" });
    this.inviteLink = input({ id: "table-invite-link", class: "table-text", type: "text", readonly: true, "aria-label": t("table.inviteHint") });
    this.answerIn = h("textarea", { id: "table-answer-in", class: "table-text", rows: "3", placeholder: t("table.answerPlaceholder"), "aria-label": t("table.answerLabel") });
    this.video = h("video", { class: "table-video", id: "table-video", muted: true, playsinline: true, hidden: true });
    this.hiddenBox = input({ id: "table-hidden", type: "checkbox", onchange: () => tb.setHidden(this.hiddenBox.checked) });
    this.hostState = h("p", { class: "table-state", id: "table-host-state" });
    this.peerList = h("ul", { class: "table-peers", id: "table-peers" });
    this.hostBlock = h(
      "section",
      { class: "panel table-host", "aria-labelledby": "table-host-title" },
      h("h3", { id: "table-host-title", text: t("table.hostTitle") }),
      button("table-host-button", "table.host", () => this.run(() => tb.startHost())),
      h("div", { class: "table-failed", id: "table-failed", role: "alert", hidden: true }, h("p", { id: "table-failed-text" }), button("table-retry", "table.retry", () => this.run(() => tb.startHost()))),
      h("div", { class: "table-invite", id: "table-invite", hidden: true }, h("p", { class: "help", text: t("table.inviteHint") }), this.inviteQR, this.inviteLink, this.copyButton(() => this.inviteLink.value)),
      h("label", { class: "table-field" }, h("span", { text: t("table.answerLabel") }), this.answerIn),
      h(
        "div",
        { class: "table-actions" },
        button("table-accept", "table.accept", () => this.run(() => tb.accept(this.answerIn.value).then((r) => r.ok && (this.answerIn.value = "")))),
        button("table-scan", "table.scan", () => this.scan(), "button--ghost"),
      ),
      this.video,
      h("label", { class: "table-check" }, this.hiddenBox, h("span", { text: t("table.hidden") })),
      h("label", { class: "table-check" }, this.playBox, h("span", { text: t("table.playRolls") })),
      button("table-close", "table.close", () => tb.closeTable(), "button--small button--danger"),
    );
    // Who is at the table: the GM's list, or the one a player was sent.
    this.peersPanel = h("section", { class: "panel table-players", "aria-labelledby": "table-players-title" }, h("h3", { id: "table-players-title", text: t("table.players") }), this.hostState, this.peerList);
    this.logList = h("ul", { class: "table-log", id: "table-log" });
    const filters = ["all", "mine", "table"].map((name) =>
      h("button", { type: "button", class: ["button", "button--small", "table-filter"], "data-filter": name, "aria-pressed": String(name === this.filter), text: t(FILTER_KEYS[name]), onclick: () => this.setFilter(name) }),
    );
    this.filters = filters;
    this.root.replaceChildren(
      h(
        "section",
        { class: "panel table-panel", "aria-labelledby": "table-title" },
        h("h2", { id: "table-title", text: t("table.title") }),
        h("p", { class: "help", text: t("table.intro") }),
        this.noticeLine,
      ),
      this.join,
      this.hostBlock,
      this.peersPanel,
      h("section", { class: "panel table-log-panel", "aria-labelledby": "table-log-title" }, h("h3", { id: "table-log-title", text: t("table.log") }), h("div", { class: "table-filters", role: "group" }, filters), this.logList),
    );
    this.built = true;
    // Drawn again (the language changed): what was shown stays shown.
    this.hiddenBox.checked = tb.hidden;
    if (this.invite) this.showInvite(this.invite, this.inviteQRCode);
    if (this.answer && tb.player && !tb.player.connected) this.showAnswer(this.answer);
  }

  copyButton(text) {
    const node = h("button", { type: "button", class: ["button", "button--small", "table-copy"], text: t("table.copy") });
    node.addEventListener("click", () => {
      navigator.clipboard?.writeText(text()).then(() => (node.textContent = t("table.copied")), () => {});
    });
    return node;
  }

  name() {
    if (!this.built) this.build();
    return this.nameInput.value.trim();
  }

  /** Run an action of a button; its error as a notice, never thrown at the page. */
  async run(action) {
    try {
      await action();
    } catch (error) {
      const key = Object.hasOwn(ERROR_KEYS, error?.message) ? ERROR_KEYS[error.message] : null;
      this.notice(key ? t(key) : String(error?.message ?? error));
    }
  }

  notice(text) {
    if (!this.built) this.build();
    this.noticeLine.textContent = text;
  }

  /**
   * The QR code of text in box (the last asked wins: two draws never show two codes); `code`:
   * the engine's QR code of text when the answer that made text carried it already.
   */
  async drawQR(box, text, code = null) {
    box.dataset.text = text;
    const answer = code ? { ok: true, result: code } : await this.table.call({ op: "qr", text });
    if (box.dataset.text !== text) return;
    box.replaceChildren(...(answer?.ok ? [qrSVG(answer.result.rows, text)] : []));
  }

  /** The invite on screen: its link, its QR code when the engine gave it, its number (host.invites). */
  showInvite(link, code = null, number = this.inviteNumber) {
    this.invite = link;
    this.inviteNumber = number;
    this.inviteQRCode = code;
    this.draw();
    this.inviteLink.value = link;
    this.root.querySelector("#table-invite").hidden = false;
    return this.drawQR(this.inviteQR, link, code);
  }

  showAnswer(text) {
    this.answer = text;
    this.draw();
    this.answerOut.value = text;
    this.root.querySelector("#table-answer").hidden = false;
    return this.drawQR(this.answerQR, text);
  }

  async scan() {
    if (this.video.hidden === false) {
      this.table.reader.stop();
      this.video.hidden = true;
      return;
    }
    if (!(await this.table.reader.available())) return this.notice(t("table.scanNone"));
    this.video.hidden = false;
    try {
      const text = await this.table.reader.read(this.video);
      this.answerIn.value = text;
      await this.table.accept(text);
    } catch (error) {
      this.notice(String(error?.message ?? error));
    } finally {
      this.video.hidden = true;
    }
  }

  setFilter(name) {
    this.filter = name;
    for (const node of this.filters) node.setAttribute("aria-pressed", String(node.dataset.filter === name));
    this.draw();
  }

  draw() {
    if (!this.built) this.build();
    const tb = this.table;
    const player = tb.player;
    // A device shows what it is: a player (opened from an invite, or at a table) joins; the GM
    // hosts; a device at no table (never, or its table closed) may host.
    const joining = !tb.host && (Boolean(tb.offer) || playerState(player) !== "none");
    this.join.hidden = !joining;
    this.hostBlock.hidden = joining;
    this.root.querySelector("#table-leave").hidden = !player?.connected;
    this.root.querySelector("#table-join-button").hidden = Boolean(player?.connected) || (!tb.offer && Boolean(player));
    const state = playerState(player);
    this.playerState.dataset.state = state;
    this.playerState.textContent = state === "none" ? "" : t(PLAYER_TEXT[state], { id: player.place?.id ?? "?", host: player.host ?? t("table.gm") });
    this.root.querySelector("#table-answer").hidden = !(player?.joining && this.answer);
    this.playBox.checked = this.joinPlayBox.checked = tb.playRolls;
    // Only the invite on screen holds a seat: one used or withdrawn leaves the screen at once.
    if (this.invite && !tb.host?.invites.has(this.inviteNumber)) this.invite = null;
    this.root.querySelector("#table-invite").hidden = !this.invite;
    const hostButton = this.root.querySelector("#table-host-button");
    hostButton.disabled = tb.busy;
    hostButton.setAttribute("aria-busy", String(tb.busy));
    hostButton.textContent = t(tb.busy ? "table.hosting" : "table.host");
    const failed = this.root.querySelector("#table-failed");
    failed.hidden = !tb.failed;
    if (tb.failed) this.root.querySelector("#table-failed-text").textContent = t("table.error.join-failed");
    const peers = tb.host ? tb.host.peers() : (player?.list ?? []);
    // After a reload: the table is back, the players gone until each is invited again.
    const restored = Boolean(tb.host?.restored && peers.some((p) => !p.connected));
    this.hostState.textContent = restored ? t("table.restoredState") : "";
    this.hostState.hidden = !restored;
    this.root.querySelector("#table-close").hidden = !tb.host;
    this.peerList.replaceChildren(
      ...(peers.length ? peers.map((p) => this.peerItem(p)) : [h("li", { class: "table-empty", text: t("table.noPlayers") })]),
    );
    this.drawLog();
  }

  /** A player on the GM's list: here or gone, and the characters it showed the GM. */
  peerItem(p) {
    const sheets = this.table.host?.players.get(p.id)?.sheets ?? null;
    const names = Array.isArray(sheets) ? sheets.map((c) => (typeof c.name === "string" ? c.name : "?")).join(", ") : "";
    return h(
      "li",
      { class: "table-peer", "data-id": p.id, "data-connected": String(p.connected) },
      dot(p.colour),
      h("strong", { text: p.name }),
      " ",
      h("span", { class: "table-peer-state", text: p.connected ? t("table.here") : t("table.gone") }),
      names ? h("span", { class: "table-peer-sheets", text: t("table.sheets", { names }) }) : null,
    );
  }

  drawLog() {
    const tb = this.table;
    const all = [...tb.mine.map((e) => ({ ...e, mine: true })), ...tb.received].sort((a, b) => String(a.time ?? "").localeCompare(String(b.time ?? "")));
    const shown = all.filter((e) => this.filter === "all" || (this.filter === "mine") === Boolean(e.mine)).reverse();
    this.logList.replaceChildren(
      ...(shown.length ? shown.map((e) => this.logItem(e)) : [h("li", { class: "table-empty", text: t("table.logEmpty") })]),
    );
  }

  /** What a roll's line says: who, and its outcome in words (the system's label). */
  describe(e) {
    const gm = t("table.gm");
    const who = e.mine ? t("table.me") : e.from === "gm" && e.name !== gm ? `${e.name} (${gm})` : e.name;
    const status = Object.hasOwn(STATUS_KEYS, e.status) ? e.status : "host";
    const system = this.table.systems()?.find((x) => x.id === e.system) ?? null;
    const outcome = system && typeof e.outcome === "string" ? outcomeInfo(system, e.outcome).label : (e.outcome ?? "");
    return { who, status, system, outcome };
  }

  /** One roll of the table: its number and verdict first, then who and what; its dice and seed under it. */
  logItem(e) {
    const { who, status, system, outcome } = this.describe(e);
    const details = [];
    // The roller's card (its dice and seed), drawn when the details open: the feed is drawn
    // again at every roll, and most cards are never looked at.
    const render = !e.hidden && system && e.answer?.ok && e.request ? { oppose: renderOppose, roll: renderRoll }[e.request.op] : null;
    // The card names its seed; a roll kept across a reload (no card) names it here.
    if (!render && e.seed !== null && e.seed !== undefined) details.push(h("p", { class: "table-seed", text: t("table.seed", { seed: e.seed }) }));
    if (e.diff?.length) details.push(h("ul", { class: "table-diff" }, e.diff.map((d) => h("li", { text: d }))));
    return h(
      "li",
      { class: "table-roll", "data-from": e.from, "data-status": status, "data-hidden": String(Boolean(e.hidden)) },
      h(
        "p",
        { class: "table-line" },
        e.hidden ? null : h("strong", { class: "table-number", text: e.headline || "" }),
        h("span", { class: "table-what", text: e.hidden ? t("table.hiddenRoll") : outcome }),
        " ",
        h("span", { class: ["table-verdict", `table-verdict--${status}`], text: t("table.quoted", { text: t(STATUS_KEYS[status]) }) }),
        e.revealed ? h("span", { class: "table-mark", text: t("table.revealed") }) : null,
        e.placed ? h("span", { class: "table-mark", text: t("table.placed") }) : null,
      ),
      h(
        "p",
        { class: "table-by" },
        dot(e.colour),
        h("span", { class: "table-who", text: who }),
        " · ",
        h("span", { class: "table-system", text: (system && pick(system.name)) || e.system || "" }),
        e.time ? h("span", { class: "table-time", text: ` · ${formatTime(e.time)}` }) : null,
      ),
      render || details.length ? this.details(details, render && (() => render(system, e.answer.result).element)) : null,
      // The GM's own hidden roll, still kept: it can be shown to the table now.
      e.mine && e.hidden && this.table.host?.gmRolls.hidden.has(e.h)
        ? h("button", { type: "button", class: ["button", "button--small", "table-reveal"], text: t("table.reveal"), onclick: () => this.table.reveal(e.h) })
        : null,
    );
  }

  /** « Dés et graine »: what is under a roll; card(), when given, drawn first at the first opening. */
  details(children, card) {
    const box = h("details", { class: "table-details" }, h("summary", { text: t("table.details") }), ...children);
    if (card) {
      box.addEventListener("toggle", () => {
        if (box.open && !box.querySelector(".result-card")) box.querySelector("summary").after(card());
      });
    }
    return box;
  }

  /** A roll of another device as its toast says it: who, in its colour, its number and verdict. */
  rollToast(e) {
    const { who, status, outcome } = this.describe(e);
    const what = e.hidden ? t("table.hiddenRoll") : [e.headline, outcome].filter(Boolean).join(" · ");
    return { colour: e.colour, from: e.from, status, text: t("table.toast", { who, what, status: t(STATUS_KEYS[status]) }) };
  }

  /** A toast over whatever screen is open; it goes by itself, or with its close button. */
  toast({ text, colour = null, from = "", status = "" }) {
    if (!this.toasts) return;
    const close = h("button", { type: "button", class: "table-toast-close", "aria-label": t("table.toastClose"), text: "×" });
    // Said once by the toasts' own live region (index.html #table-toasts), not by each toast.
    const node = h("div", { class: "table-toast", "data-from": from, "data-status": status }, colour ? dot(colour) : null, h("span", { class: "table-toast-text", text }), close);
    const remove = () => node.remove();
    close.addEventListener("click", remove);
    this.toasts.append(node);
    while (this.toasts.children.length > MAX_TOASTS) this.toasts.firstElementChild.remove();
    setTimeout(remove, TOAST_MS);
  }
}
