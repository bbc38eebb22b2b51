// The « Table » screen's DOM (table.js owns the state): the host's invite and the answers it
// reads, the player's answer, the players, and the table's rolls with a « moi / table »
// filter. Names and everything else from another device go in as text only.

import { h } from "../lib/dom.js";
import { formatTime, pick, t } from "../lib/i18n.js";
import { outcomeInfo } from "../widgets/outcomes.js";
import { qrSVG } from "../ui/qr.js";
import { diceDot } from "../widgets/dice-dot.js";
import { ERROR_KEYS, FILTER_KEYS, STATUS_KEYS } from "./strings.js";

const input = (attrs) => h("input", attrs);
const dot = (colour) => diceDot(colour, "table-dot");

export class TableScreen {
  constructor(root, table) {
    this.root = root;
    this.table = table;
    this.filter = "all";
    this.built = false;
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
    this.join = h(
      "section",
      { class: "panel table-join", id: "table-join", "aria-labelledby": "table-join-title" },
      h("h3", { id: "table-join-title", text: t("table.joinTitle") }),
      h("label", { class: "table-field" }, h("span", { text: t("table.name") }), this.nameInput),
      button("table-join-button", "table.join", () => this.run(() => tb.answer())),
      h("div", { class: "table-answer", id: "table-answer", hidden: true }, h("p", { class: "help", text: t("table.answerHint") }), this.answerQR, this.answerOut, this.copyButton(() => this.answerOut.value)),
      this.playerState,
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
      h("h3", { id: "table-host-title", text: t("table.players") }),
      button("table-host-button", "table.host", () => this.run(() => tb.startHost())),
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
      this.hostState,
      this.peerList,
      button("table-close", "table.close", () => tb.closeTable(), "button--small button--danger"),
    );
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
      h("section", { class: "panel table-log-panel", "aria-labelledby": "table-log-title" }, h("h3", { id: "table-log-title", text: t("table.log") }), h("div", { class: "table-filters", role: "group" }, filters), this.logList),
    );
    this.built = true;
    // Drawn again (the language changed): what was shown stays shown.
    this.hiddenBox.checked = tb.hidden;
    if (this.invite) this.showInvite(this.invite, this.inviteQRCode);
    if (this.answer) this.showAnswer(this.answer);
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

  showInvite(link, code = null) {
    this.invite = link;
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
    this.join.hidden = !tb.offer && !player;
    this.hostBlock.hidden = Boolean(player) && !tb.host;
    this.root.querySelector("#table-leave").hidden = !player?.connected;
    this.playerState.textContent = !player ? "" : player.connected ? t("table.connected", { id: player.place?.id ?? "?" }) : player.place && player.peer ? t("table.lost") : t("table.waiting");
    this.playerState.dataset.state = player?.connected ? "connected" : "waiting";
    const peers = tb.host ? tb.host.peers() : (player?.list ?? []);
    // After a reload: the table is back, the players gone until each is invited again.
    const restored = Boolean(tb.host?.restored && peers.some((p) => !p.connected));
    this.hostState.textContent = restored ? t("table.restoredState") : "";
    this.hostState.hidden = !restored;
    this.root.querySelector("#table-close").hidden = !tb.host;
    this.peerList.replaceChildren(
      ...(peers.length
        ? peers.map((p) => h("li", { class: "table-peer", "data-id": p.id, "data-connected": String(p.connected) }, dot(p.colour), h("strong", { text: p.name }), " ", h("span", { class: "table-peer-state", text: p.connected ? t("table.here") : t("table.gone") })))
        : [h("li", { class: "table-empty", text: t("table.noPlayers") })]),
    );
    this.drawLog();
  }

  drawLog() {
    const tb = this.table;
    const all = [...tb.mine.map((e) => ({ ...e, mine: true })), ...tb.received].sort((a, b) => String(a.time ?? "").localeCompare(String(b.time ?? "")));
    const shown = all.filter((e) => this.filter === "all" || (this.filter === "mine") === Boolean(e.mine)).reverse();
    this.logList.replaceChildren(
      ...(shown.length ? shown.map((e) => this.logItem(e)) : [h("li", { class: "table-empty", text: t("table.logEmpty") })]),
    );
  }

  logItem(e) {
    const who = e.mine ? t("table.me") : e.from === "gm" ? `${e.name} (${t("table.gm")})` : e.name;
    const status = Object.hasOwn(STATUS_KEYS, e.status) ? e.status : "host";
    const system = this.table.systems()?.find((x) => x.id === e.system) ?? null;
    const outcome = system && typeof e.outcome === "string" ? outcomeInfo(system, e.outcome).label : (e.outcome ?? "");
    const what = e.hidden ? t("table.hiddenRoll") : [outcome, e.seed !== null && e.seed !== undefined ? `· ${e.seed}` : ""].join(" ");
    return h(
      "li",
      { class: "table-roll", "data-from": e.from, "data-status": status, "data-hidden": String(Boolean(e.hidden)) },
      dot(e.colour),
      h("span", { class: "table-who", text: who }),
      " ",
      h("span", { class: "table-system", text: (system && pick(system.name)) || e.system || "" }),
      " · ",
      h("span", { class: "table-what", text: what }),
      " ",
      h("span", { class: ["table-verdict", `table-verdict--${status}`], text: `« ${t(STATUS_KEYS[status])} »` }),
      e.time ? h("span", { class: "table-time", text: ` ${formatTime(e.time)}` }) : null,
      e.diff?.length ? h("ul", { class: "table-diff" }, e.diff.map((d) => h("li", { text: d }))) : null,
    );
  }
}
