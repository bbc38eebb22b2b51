// The system picker: one radio button per system of the engine's description.

import { h } from "../lib/dom.js";
import { pick } from "../lib/i18n.js";

/** A system's name with its en dashes kept on one line with their neighbours. */
export function pickerName(name) {
  return name.replace(/(\S)–(\S)/g, "$1\u2060–\u2060$2");
}

export class SystemPicker {
  /** onPick(): called once app.state.system holds the newly chosen system. */
  constructor({ app, byId, onPick }) {
    this.app = app;
    this.$ = byId;
    this.onPick = onPick;
  }

  build() {
    const { app } = this;
    const box = this.$("systems");
    box.replaceChildren();
    for (const system of app.systems) {
      const id = `system-${system.id}`;
      const radio = h("input", { type: "radio", name: "system", id, value: system.id, class: "visually-hidden" });
      radio.checked = system.id === app.currentSystem().id;
      radio.addEventListener("change", () => {
        if (!radio.checked) return;
        app.state.system = system.id;
        this.onPick();
      });
      box.append(radio, h("label", { for: id, dataset: { system: system.id } }, h("span", { class: "system-name", text: pickerName(pick(system.name)) })));
    }
    this.$("system-description").textContent = pick(app.currentSystem().description);
  }
}
