// Notices at the top of the page: what went wrong with the device's storage or the engine,
// told to the player in French or English, each dismissible.
//
//   corrupt    stored data that could not be read was set aside (storage.js, store.js);
//              one notice lists what, with a download of everything set aside (role=alert)
//   write      the device refused to store something (storage full, storage off); what was
//              stored before is intact; the notice offers the exports (role=alert); it goes
//              away by itself once writing works again
//   restored   characters set aside by an earlier version are back in the list (the engine
//              accepts them now): how many, and what stays aside with its download (role=status)
//   restarted  the engine worker crashed or stopped answering and was restarted (role=status)
//
// A notice never takes the focus when it appears; closing it moves the focus to the next
// notice, or to the current screen's tab. Text goes in through textContent only.

import { h } from "../lib/dom.js";
import { formatNumber, onLangChange, t } from "../lib/i18n.js";
import { onStorageReport, quarantinedItems, releaseHeld } from "../lib/storage.js";
import { download, stamp } from "./ui.js";
import "./strings.js";

function what(key, reason) {
  if (reason === "missing-store") return t("what.missing-store");
  if (reason === "start") return t("what.start");
  const text = t(`what.${key}`);
  return text === `what.${key}` ? t("what.other") : text;
}

function list(texts) {
  return [...new Set(texts)].join(", ");
}

/** The download of items set aside (storage.js items). */
function downloadAside(items) {
  const doc = { format: "pyrules-quarantine", version: 1, exported: new Date().toISOString(), items };
  download(new Blob([JSON.stringify(doc, null, 2) + "\n"], { type: "application/json" }), `pyrules-quarantine-${stamp()}.json`);
}

export class Notices {
  /**
   * @param {HTMLElement} root   the container (#notices)
   * @param {object} exporters   {history(), characters()}: the export buttons of the write notice
   */
  constructor(root, exporters = {}) {
    this.root = root;
    this.exporters = exporters;
    this.corrupt = []; // reports
    this.failing = new Map(); // key -> report
    this.restart = null; // {reason, seconds}
    this.restored = null; // {count, kept}
    this.closed = new Set(); // kinds closed by the player (until something new happens)
    this.nodes = new Map(); // kind -> element
    onStorageReport((report) => this.onReport(report));
    onLangChange(() => this.renderAll());
  }

  onReport(report) {
    if (report.type === "corrupt") {
      this.corrupt.push(report);
      this.closed.delete("corrupt");
      this.render("corrupt");
    } else if (report.type === "write-failed") {
      this.failing.set(report.key, report);
      this.closed.delete("write");
      this.render("write");
    } else if (report.type === "restored") {
      this.restored = { count: (this.restored?.count ?? 0) + report.count, kept: report.kept };
      this.closed.delete("restored");
      this.render("restored");
    } else if (report.type === "write-ok") {
      this.failing.delete(report.key);
      this.render("write");
    }
  }

  /** The engine was restarted: reason "crashed" | "timeout". */
  engineRestarted({ reason, ms }) {
    this.restart = { reason, seconds: Math.round((ms || 0) / 1000) };
    this.closed.delete("restarted");
    this.render("restarted");
  }

  renderAll() {
    for (const kind of ["corrupt", "write", "restored", "restarted"]) this.render(kind);
  }

  render(kind) {
    const old = this.nodes.get(kind);
    const fresh = this.closed.has(kind) ? null : this.build(kind);
    if (!fresh) {
      if (old) this.remove(kind, old);
      return;
    }
    this.nodes.set(kind, fresh);
    if (old) {
      // Keep the focus where it was (same button, rebuilt).
      const focused = old.contains(document.activeElement) ? document.activeElement.dataset.action : null;
      old.replaceWith(fresh);
      if (focused) fresh.querySelector(`[data-action="${focused}"]`)?.focus();
    } else {
      this.root.append(fresh);
    }
    this.root.hidden = false;
  }

  build(kind) {
    if (kind === "corrupt") {
      if (!this.corrupt.length) return null;
      const texts = [t("notice.corrupt.text", { what: list(this.corrupt.map((r) => what(r.key, r.reason))) })];
      if (this.corrupt.some((r) => r.held)) texts.push(t("notice.corrupt.held"));
      const status = h("p", { class: "notice-status", role: "status" });
      const save = this.button("download", t("notice.corrupt.download"), () => {
        const items = quarantinedItems();
        downloadAside(items);
        releaseHeld();
        status.textContent = t("notice.corrupt.downloaded", { n: formatNumber(items.length) });
      });
      return this.notice(kind, "alert", t("notice.corrupt.title"), texts, [save], status);
    }
    if (kind === "restored") {
      if (!this.restored?.count) return null;
      const { count, kept } = this.restored;
      const texts = [t("notice.restored.text", { n: formatNumber(count) })];
      const actions = [];
      const status = h("p", { class: "notice-status", role: "status" });
      if (kept.length) {
        texts.push(t("notice.restored.kept", { n: formatNumber(kept.length) }));
        actions.push(
          this.button("download", t("notice.corrupt.download"), () => {
            downloadAside(kept);
            status.textContent = t("notice.corrupt.downloaded", { n: formatNumber(kept.length) });
          }),
        );
      }
      return this.notice(kind, "status", t("notice.restored.title"), texts, actions, status);
    }
    if (kind === "write") {
      if (!this.failing.size) return null;
      const reports = [...this.failing.values()];
      const why = reports.some((r) => r.quota) ? t("notice.write.quota") : t("notice.write.other");
      const actions = [];
      if (this.exporters.history) actions.push(this.button("export-history", t("notice.write.exportHistory"), this.exporters.history));
      if (this.exporters.characters) actions.push(this.button("export-characters", t("notice.write.exportCharacters"), this.exporters.characters));
      return this.notice(kind, "alert", t("notice.write.title"), [t("notice.write.text", { what: list(reports.map((r) => what(r.key))), why })], actions);
    }
    if (kind === "restarted") {
      if (!this.restart) return null;
      const { reason, seconds } = this.restart;
      const first = reason === "timeout" ? t("notice.restart.timeout", { seconds }) : t("notice.restart.crashed");
      return this.notice(kind, "status", t("notice.restart.title"), [first, t("notice.restart.after")], []);
    }
    return null;
  }

  button(action, text, onClick) {
    const button = h("button", { type: "button", class: ["button", "button--small", "notice-action"], dataset: { action }, text });
    button.addEventListener("click", onClick);
    return button;
  }

  notice(kind, role, title, texts, actions, extra = null) {
    const id = `notice-${kind}`;
    const close = this.button("close", t("notice.close"), () => this.close(kind));
    close.setAttribute("aria-label", t("notice.closeLabel", { title }));
    return h(
      "div",
      { class: ["notice", `notice--${kind}`], id, role, dataset: { kind }, "aria-labelledby": `${id}-title` },
      h("p", { class: "notice-title", id: `${id}-title`, text: title }),
      texts.map((text) => h("p", { class: "notice-text", text })),
      extra,
      h("div", { class: "notice-actions" }, actions, close),
    );
  }

  close(kind) {
    this.closed.add(kind);
    if (kind === "corrupt") releaseHeld();
    const node = this.nodes.get(kind);
    if (node) this.remove(kind, node);
  }

  remove(kind, node) {
    const hadFocus = node.contains(document.activeElement);
    const rest = [...this.root.children].filter((child) => child !== node);
    node.remove();
    this.nodes.delete(kind);
    this.root.hidden = this.root.children.length === 0;
    if (!hadFocus) return;
    const next = rest.length ? rest[0].querySelector("[data-action=close]") : document.querySelector("#view-tabs [aria-selected=true]");
    next?.focus();
  }
}
