// The character editor: name, system, PC flag, note, sheet numbers and skills, checked and
// normalised by the engine (`character` op) before they are saved as it answered. Methods of CharactersView (view.js mixes them in).

import { h } from "../lib/dom.js";
import { SideForm } from "../widgets/forms.js";
import { lang, pick, t } from "../lib/i18n.js";
import { flash, switchControl } from "../ui/ui.js";
import { formSystem, rawFrom } from "./formdata.js";
import { defaultStats, entryFields, extraFields, limits, refusalTarget, statFields } from "./sheet.js";
import { newId } from "../lib/ids.js";
import "./strings.js";

export class EditorPart {
  startEdit(character) {
    const systems = this.systems();
    const play = this.ctx.play();
    const isNew = !character;
    const system = isNew ? this.system(this.lastSystem) || systems[0] : this.system(character.system);
    const draft = isNew
      ? { id: newId(), system: system.id, name: "", note: "", pc: true, stats: defaultStats(system), entries: [] }
      : structuredClone(character);
    this.editor = {
      isNew,
      draft,
      statsValues: rawFrom(statFields(system), draft.stats),
      entries: draft.entries.map((entry) => this.entryState(system, entry, false)),
    };
    this.renderDetail();
    this.detailBox.scrollIntoView({ block: "start", behavior: "auto" });
    document.getElementById("char-name")?.focus({ preventScroll: true });
  }

  entryState(system, entry, open) {
    const play = this.ctx.play();
    return {
      id: entry?.id || newId("e"),
      label: entry?.label || "",
      values: rawFrom(entryFields(system), entry?.params || {}),
      extras: rawFrom(extraFields(system), entry?.sources || {}),
      open,
    };
  }

  renderEditor() {
    const { draft, isNew } = this.editor;
    const system = this.system(draft.system);
    const play = this.ctx.play();
    const form = h("form", { class: "char-editor", id: "char-editor", novalidate: true });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.saveEditor();
    });
    const title = h("h2", { class: "panel-title", id: "char-detail-title", tabindex: "-1", text: isNew ? t("editor.newTitle") : t("editor.editTitle", { name: draft.name }) });
    const name = h("input", { type: "text", id: "char-name", maxlength: limits(system).name_max, autocomplete: "off", required: true, "aria-describedby": "char-name-error" });
    name.value = draft.name;
    name.addEventListener("input", () => {
      draft.name = name.value;
      this.editorFieldError(name, null);
    });
    const nameField = h(
      "div",
      { class: "field" },
      h("label", { for: "char-name", class: "field-label", text: t("editor.name") }),
      name,
      h("p", { class: "field-error", id: "char-name-error", hidden: true }),
    );
    // System: chosen when the character is made (its entries belong to one system).
    const picker = h("fieldset", { class: ["segmented", "editor-systems"] }, h("legend", { class: "field-label", text: t("editor.system") }));
    const row = h("div", { class: "segmented-options" });
    const locked = !isNew && draft.entries.length > 0;
    for (const candidate of this.systems()) {
      const id = `char-system-${candidate.id}`;
      const radio = h("input", { type: "radio", name: "char-system", id, value: candidate.id, class: "visually-hidden" });
      radio.checked = candidate.id === draft.system;
      radio.disabled = locked && candidate.id !== draft.system;
      radio.addEventListener("change", () => {
        if (!radio.checked) return;
        draft.system = candidate.id;
        this.lastSystem = candidate.id;
        draft.stats = defaultStats(candidate);
        this.editor.statsValues = rawFrom(statFields(candidate), draft.stats);
        this.editor.entries = [];
        this.renderDetail();
        document.getElementById(id)?.focus();
      });
      row.append(radio, h("label", { for: id, text: pick(candidate.name) }));
    }
    picker.append(row);
    if (locked) picker.append(h("p", { class: "help", text: t("editor.systemLocked") }));
    const pc = switchControl({ id: "char-pc", label: t("editor.pc"), checked: draft.pc, onChange: (on) => (draft.pc = on) });
    const note = h("textarea", { id: "char-note", maxlength: limits(system).note_max, rows: 2 });
    note.value = draft.note;
    note.addEventListener("input", () => (draft.note = note.value));
    const noteField = h("div", { class: "field field--wide" }, h("label", { for: "char-note", class: "field-label", text: t("editor.note") }), note);

    const statsFields = statFields(system);
    this.statsForm = statsFields.length
      ? new SideForm({ side: "stats", system: formSystem(system.id, statsFields), values: this.editor.statsValues, ui: {}, onInput: () => this.hideEditorError() })
      : null;

    const entriesList = h("ol", { class: "entry-editors", id: "entry-editors" });
    this.entryForms = [];
    this.editor.entries.forEach((state, index) => {
      entriesList.append(this.renderEntryEditor(system, play, state, index));
    });
    const addEntry = h("button", { type: "button", class: "button", id: "entry-add", text: t("editor.addEntry") });
    addEntry.addEventListener("click", () => {
      for (const state of this.editor.entries) state.open = false;
      this.editor.entries.push(this.entryState(system, null, true));
      this.renderDetail();
      document.getElementById(`entry-label-${this.editor.entries.length - 1}`)?.focus();
    });
    this.editorError = h("p", { class: "form-error", id: "editor-error", role: "alert", hidden: true });
    const cancel = h("button", { type: "button", class: "button", id: "char-cancel", text: t("history.cancel") });
    cancel.addEventListener("click", () => {
      this.editor = null;
      this.render();
    });
    const save = h("button", { type: "submit", class: ["button", "button--primary"], id: "char-save", text: t("editor.save") });
    form.append(
      title,
      h("div", { class: "editor-grid" }, nameField, picker, pc.row, noteField),
      h("h3", { class: "sheet-subtitle", text: t("editor.stats") }),
      this.statsForm ? this.statsForm.element : h("p", { class: "panel-hint", text: t("editor.noStats") }),
      h("h3", { class: "sheet-subtitle", text: t("chars.entries") }),
      h("p", { class: "panel-hint", text: t("editor.entriesHint") }),
      entriesList,
      addEntry,
      this.editorError,
      h("div", { class: "editor-actions" }, cancel, save),
    );
    return form;
  }

  renderEntryEditor(system, play, state, index) {
    const labelId = `entry-label-${index}`;
    const label = h("input", { type: "text", id: labelId, maxlength: limits(system).label_max, autocomplete: "off", "aria-describedby": `${labelId}-error` });
    label.value = state.label;
    const summary = h("summary", { class: "entry-editor-summary" }, h("span", { text: state.label || t("editor.newEntry") }));
    label.addEventListener("input", () => {
      state.label = label.value;
      summary.firstChild.textContent = label.value || t("editor.newEntry");
      this.editorFieldError(label, null);
    });
    const form = new SideForm({ side: `e${index}`, system: formSystem(system.id, entryFields(system)), values: state.values, ui: state, onInput: () => this.hideEditorError() });
    const extras = extraFields(system);
    const extrasForm = extras.length ? new SideForm({ side: `x${index}`, system: formSystem(system.id, extras), values: state.extras, ui: {}, onInput: () => {} }) : null;
    this.entryForms[index] = { form, extrasForm, label };
    const remove = h("button", { type: "button", class: ["button", "button--danger", "entry-remove"], text: t("editor.removeEntry") });
    remove.addEventListener("click", () => {
      this.editor.entries.splice(index, 1);
      this.renderDetail();
      document.getElementById("entry-add")?.focus();
    });
    const details = h(
      "details",
      { class: "entry-editor-box", open: state.open },
      summary,
      h(
        "div",
        { class: "entry-editor-body" },
        h("div", { class: "field" }, h("label", { for: labelId, class: "field-label", text: t("editor.entryLabel") }), label, h("p", { class: "field-error", id: `${labelId}-error`, hidden: true })),
        form.element,
        extrasForm ? h("div", { class: "entry-extras" }, h("p", { class: "field-label", text: t("editor.extras") }), extrasForm.element) : null,
        remove,
      ),
    );
    details.addEventListener("toggle", () => (state.open = details.open));
    return h("li", { class: "entry-editor", dataset: { index } }, details);
  }

  editorFieldError(input, message) {
    const box = document.getElementById(`${input.id}-error`);
    if (!box) return;
    box.textContent = message || "";
    box.hidden = !message;
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  hideEditorError() {
    if (this.editorError) this.editorError.hidden = true;
  }

  showEditorError(message) {
    flash(this.editorError, message, "error");
  }

  async saveEditor() {
    if (this.busy) return;
    const { draft } = this.editor;
    const system = this.system(draft.system);
    // What the forms cannot read (a number box holding text, a required box left empty)
    // and a missing name are said here; every judgement of a value is the engine's
    // (`character` op), said next to the field it names.
    let first = null;
    let unreadable = false;
    const name = draft.name.trim();
    const nameInput = document.getElementById("char-name");
    if (!name) {
      this.editorFieldError(nameInput, t("editor.nameRequired"));
      first ??= nameInput;
    }
    let stats = {};
    if (this.statsForm) {
      const { params, errors } = this.statsForm.collect({ withFaces: false });
      for (const error of errors) this.statsForm.setError(error.field, error.message);
      if (errors.length) {
        unreadable = true;
        first ??= document.getElementById(`f-stats-${system.id}-${errors[0].field}`);
      }
      stats = params;
    }
    const entries = [];
    this.editor.entries.forEach((state, index) => {
      const { form, extrasForm, label } = this.entryForms[index];
      const text = state.label.trim();
      if (!text) {
        this.editorFieldError(label, t("editor.labelRequired"));
        state.open = true;
        label.closest("details").open = true;
        first ??= label;
      }
      const { params, errors } = form.collect({ withFaces: false });
      for (const error of errors) form.setError(error.field, error.message);
      if (errors.length) {
        unreadable = true;
        label.closest("details").open = true;
        first ??= document.getElementById(`f-e${index}-${system.id}-${errors[0].field}`);
      }
      const entry = { id: state.id, label: text, params };
      if (extrasForm) entry.sources = extrasForm.collect({ withFaces: false }).params;
      entries.push(entry);
    });
    if (unreadable) {
      this.showEditorError(t("editor.fix"));
      first?.focus();
      return;
    }
    const character = { ...draft, name, note: draft.note, stats, entries, updated: new Date().toISOString() };
    character.created ??= character.updated;
    this.busy = true;
    try {
      const answer = await this.ctx.engine.call({ op: "character", character, lang: lang() });
      if (!answer.ok || first) {
        const refused = answer.ok ? null : this.showRefusal(system, character, answer.error);
        this.showEditorError(refused?.message || t("editor.fix"));
        (first || refused?.input)?.focus();
        return;
      }
      // Stored as the engine normalised it (list stats as lists, ids, dates).
      const saved = answer.result.character;
      await this.put(saved);
      this.knowEfforts(saved, this.system(saved.system), answer.result.efforts); // the sheet shows this count: no second call
      this.knowFacts(saved, answer);
      this.lastSystem = saved.system;
      this.editor = null;
      this.select(saved.id);
      this.render();
      flash(this.message, t("chars.saved", { name: saved.name }));
      document.getElementById("char-detail-title")?.focus();
    } catch (error) {
      this.showEditorError(t("chars.storageError", { message: error.message }));
    } finally {
      this.busy = false;
    }
  }

  /**
   * The engine's refusal of the character, next to the field its dotted `field` names:
   * {input, message} (`message`: what the error line above the buttons says, or null).
   */
  showRefusal(system, character, error) {
    const target = refusalTarget(error.field);
    const message = error.message;
    // A name or a label left empty is said already (in the page's words, next to it).
    if (target.part === "name") {
      const input = document.getElementById("char-name");
      if (!input.hasAttribute("aria-invalid")) this.editorFieldError(input, message);
      return { input, message: null };
    }
    if (target.part === "stats") {
      const field = statFields(system).find((f) => f.name === target.name);
      if (field && this.statsForm?.setError(field.name, statMessage(field, message))) {
        return { input: document.getElementById(`f-stats-${system.id}-${field.name}`), message: null };
      }
      return { input: null, message: t("import.statInvalid", { name: character.name, stat: field ? pick(field.label) : target.name, message }) };
    }
    const forms = target.index === undefined ? null : this.entryForms[target.index];
    if (!forms) return { input: null, message };
    const { form, extrasForm, label } = forms;
    this.editor.entries[target.index].open = true;
    label.closest("details").open = true;
    const line = t("import.entryInvalid", { name: character.name, label: character.entries[target.index].label, message });
    if (target.part === "label") {
      if (!label.hasAttribute("aria-invalid")) this.editorFieldError(label, message);
      return { input: label, message: null };
    }
    const box = target.part === "sources" ? extrasForm : form;
    const side = target.part === "sources" ? `x${target.index}` : `e${target.index}`;
    if (box?.setError(target.name, message)) return { input: document.getElementById(`f-${side}-${system.id}-${target.name}`), message: line };
    return { input: label, message: line };
  }
}

/** What is said next to a sheet number the engine refused: its described bounds, else the engine's words. */
function statMessage(field, message) {
  const bounded = field.type === "int" && Number.isFinite(field.min) && Number.isFinite(field.max);
  return bounded ? t("editor.statRange", { min: field.min, max: field.max }) : message;
}
