// Saved expressions on the free-dice screen (issue 23): each a button that rolls it with
// one tap (one engine call, through the roll pipeline: Roller.send), a delete button, and a
// name field that saves the expression the form holds once the engine's `validate` accepts
// it. The list lives in lib/expressions.js; this module only shows and edits it.

import { h } from "../lib/dom.js";
import { checkedExpression, EXPRESSIONS_CHANGED, EXPRESSIONS_KEY, EXPRESSIONS_MAX, expressionRequest, readExpressions, writeExpressions } from "../lib/expressions.js";
import { lang, t } from "../lib/i18n.js";
import { onOtherTab } from "../lib/storage.js";
import "./strings.js";

const SYSTEM = "notation";

export class SavedExpressions {
  /** roller: rolling.js Roller; engine: engine.js Engine; byId: document.getElementById. */
  constructor({ app, roller, engine, byId }) {
    Object.assign(this, { app, roller, engine, $: byId });
    this.box = null;
    this.saving = false;
    app.subscribe(["system", "systems", "mode"], () => this.render());
    app.subscribe(["engineReady", "rolling"], () => this.updateReady()); // the buttons stay: the focus too
    onOtherTab(EXPRESSIONS_KEY, () => this.render());
    if (typeof window !== "undefined") window.addEventListener(EXPRESSIONS_CHANGED, () => this.render());
  }

  /** The section, made once, after the roll form. */
  section() {
    if (this.box) return this.box;
    const name = h("input", { type: "text", id: "saved-name", class: "saved-name", maxlength: "60", autocomplete: "off", "aria-describedby": "saved-error" });
    const save = h("button", { type: "button", class: ["button", "saved-save"], id: "saved-save" });
    save.addEventListener("click", () => this.save());
    name.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.save();
      }
    });
    this.box = h(
      "section",
      { class: "saved-expressions", id: "saved-expressions", "aria-labelledby": "saved-title" },
      h("h3", { class: "saved-title", id: "saved-title" }),
      h("ul", { class: "saved-list", id: "saved-list" }),
      h("p", { class: "saved-empty", id: "saved-empty" }),
      h("div", { class: "saved-add" }, h("label", { for: "saved-name", class: "field-label", id: "saved-name-label" }), h("div", { class: "saved-add-row" }, name, save)),
      h("p", { class: "field-error", id: "saved-error", role: "alert", hidden: true }),
      h("p", { class: "saved-status", id: "saved-status", role: "status" }),
    );
    this.$("roll-form").after(this.box);
    return this.box;
  }

  render() {
    const system = this.app.currentSystem?.();
    const shown = Boolean(system && system.id === SYSTEM && this.app.state.mode !== "oppose");
    if (!shown) {
      if (this.box) this.box.hidden = true;
      return;
    }
    const box = this.section();
    box.hidden = false;
    this.$("saved-title").textContent = t("saved.title");
    this.$("saved-name-label").textContent = t("saved.name");
    this.$("saved-name").placeholder = t("saved.namePlaceholder");
    this.$("saved-save").textContent = t("saved.save");
    const list = readExpressions();
    this.$("saved-empty").textContent = t("saved.empty");
    this.$("saved-empty").hidden = list.length > 0;
    this.$("saved-list").replaceChildren(
      ...list.map((item) => {
        const roll = h(
          "button",
          { type: "button", class: ["button", "saved-roll"], dataset: { id: item.id }, "aria-label": t("saved.rollLabel", { name: item.name, expression: item.expression }) },
          h("span", { class: "saved-roll-name", text: item.name }),
          h("span", { class: "saved-roll-expression", text: item.expression }),
        );
        roll.addEventListener("click", () => this.roll(item));
        const remove = h("button", { type: "button", class: ["button", "button--ghost", "saved-delete"], dataset: { id: item.id }, "aria-label": t("saved.delete", { name: item.name }), title: t("saved.delete", { name: item.name }), text: "×" });
        remove.addEventListener("click", () => this.remove(item));
        return h("li", { class: "saved-item", dataset: { id: item.id } }, roll, remove);
      }),
    );
    this.updateReady();
  }

  /** The roll buttons wait for the engine and for a roll in flight; saving waits for the engine. */
  updateReady() {
    if (!this.box || this.box.hidden) return;
    const ready = Boolean(this.app.engineReady) && !this.app.rolling;
    for (const button of this.box.querySelectorAll(".saved-roll")) button.disabled = !ready;
    this.$("saved-save").disabled = !this.app.engineReady || this.saving;
  }

  /** One tap, one engine call: the saved expression rolled through the pipeline. */
  roll(item) {
    if (!this.app.engineReady) return;
    this.roller.send(expressionRequest(item, lang()), {});
  }

  error(text) {
    const node = this.$("saved-error");
    node.textContent = text;
    node.hidden = !text;
    this.$("saved-name").toggleAttribute("aria-invalid", Boolean(text));
  }

  status(text) {
    this.$("saved-status").textContent = text;
  }

  /** Save the form's expression under the typed name, as the engine reads it. */
  async save() {
    if (this.saving) return;
    this.error("");
    this.status("");
    const name = this.$("saved-name").value.trim();
    if (!name) {
      this.error(t("saved.noName"));
      this.$("saved-name").focus();
      return;
    }
    if (readExpressions().length >= EXPRESSIONS_MAX) {
      this.error(t("saved.full", { max: EXPRESSIONS_MAX }));
      return;
    }
    const { params } = this.app.forms.actor.collect({ withFaces: false });
    this.saving = true;
    this.render();
    try {
      const { item, error } = await checkedExpression((request) => this.engine.call(request), { name, expression: params.expression ?? "", grammar: params.grammar }, lang());
      if (error) {
        this.error(error.message || t("saved.noName"));
        return;
      }
      if (!writeExpressions([...readExpressions(), item])) {
        this.error(t("saved.notStored"));
        return;
      }
      this.$("saved-name").value = "";
      this.status(t("saved.saved", { name: item.name }));
    } finally {
      this.saving = false;
      this.render();
    }
  }

  remove(item) {
    const list = readExpressions().filter((other) => other.id !== item.id);
    if (!writeExpressions(list)) {
      this.error(t("saved.notStored"));
      return;
    }
    this.status(t("saved.deleted", { name: item.name }));
    this.render();
  }
}
