// Small interface pieces shared by the play screens (characters, combat, statistics):
// a confirmation dialog, a switch, file download.
// Text always goes in through textContent; no inline style attribute (CSP).

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import "./strings.js";

let confirmDialog = null;

/** Ask before something that cannot be undone. Resolves true when confirmed. */
export function confirmAction({ title, text, confirm }) {
  if (!confirmDialog) {
    confirmDialog = h("dialog", { class: "dialog", id: "confirm-action", "aria-labelledby": "confirm-action-title", "aria-describedby": "confirm-action-text" });
    document.body.append(confirmDialog);
  }
  const dialog = confirmDialog;
  const returnFocus = document.activeElement;
  const cancel = h("button", { type: "submit", class: "button", value: "cancel", text: t("history.cancel") });
  const ok = h("button", { type: "submit", class: ["button", "button--danger"], value: "confirm", id: "confirm-action-button", text: confirm });
  dialog.replaceChildren(
    h(
      "form",
      { method: "dialog" },
      h("h2", { id: "confirm-action-title", text: title }),
      h("p", { id: "confirm-action-text", text }),
      h("div", { class: "dialog-actions" }, cancel, ok),
    ),
  );
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        resolve(dialog.returnValue === "confirm");
        if (returnFocus && returnFocus.isConnected) returnFocus.focus();
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
    cancel.focus();
  });
}

/** A labelled switch (checkbox role=switch) drawn like the rest of the app. */
export function switchControl({ id, label, checked = false, onChange, describedBy }) {
  const input = h("input", { type: "checkbox", role: "switch", id, class: "switch-input", "aria-describedby": describedBy });
  input.checked = checked;
  if (onChange) input.addEventListener("change", () => onChange(input.checked));
  const row = h(
    "div",
    { class: "switch-row" },
    input,
    h("label", { for: id, class: "switch-label" }, h("span", { class: "switch-track", "aria-hidden": "true" }), h("span", { text: label })),
  );
  return { row, input };
}

/** Scroll a freshly shown result into view when it landed below the fold. */
export function bringIntoView(element) {
  const rect = element.getBoundingClientRect();
  if (rect.top > window.innerHeight - 160 || rect.bottom < 0) {
    element.scrollIntoView({ block: "start", behavior: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
  }
}

export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, class: "visually-hidden" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function stamp() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}`;
}

/** A status line that says something for a while (role=status). */
export function flash(node, text, kind = "info") {
  node.textContent = text;
  node.dataset.kind = kind;
  node.hidden = !text;
}
