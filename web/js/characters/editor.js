// The character editor: name, system, PC flag, note, sheet numbers and skills, checked by
// the engine before they are saved. Methods of CharactersView (view.js mixes them in).

import { h } from "../lib/dom.js";
import { SideForm } from "../widgets/forms.js";
import { lang, pick, t } from "../lib/i18n.js";
import { flash, switchControl } from "../ui/ui.js";
import { formSystem, rawFrom } from "./formdata.js";
import { cleanCharacter, defaultStats, entryFields, extraFields, LABEL_MAX, NAME_MAX, newId, NOTE_MAX, statFields } from "./sheet.js";
import { judgeEntries, judgeStats, statField } from "./validation.js";
import "./strings.js";

export class EditorPart {
  startEdit(character) {
    const systems = this.systems();
    const table = this.ctx.table();
    const isNew = !character;
    const system = isNew ? this.system(this.lastSystem) || systems[0] : this.system(character.system);
    const draft = isNew
      ? { id: newId(), system: system.id, name: "", note: "", pc: true, stats: defaultStats(system, table), entries: [] }
      : structuredClone(character);
    this.editor = {
      isNew,
      draft,
      statsValues: rawFrom(statFields(system, table), draft.stats),
      entries: draft.entries.map((entry) => this.entryState(system, entry, false)),
    };
    this.renderDetail();
    this.detailBox.scrollIntoView({ block: "start", behavior: "auto" });
    document.getElementById("char-name")?.focus({ preventScroll: true });
  }

  entryState(system, entry, open) {
    const table = this.ctx.table();
    return {
      id: entry?.id || newId("e"),
      label: entry?.label || "",
      values: rawFrom(entryFields(system), entry?.params || {}),
      extras: rawFrom(extraFields(system, table), entry?.sources || {}),
      open,
    };
  }

  renderEditor() {
    const { draft, isNew } = this.editor;
    const system = this.system(draft.system);
    const table = this.ctx.table();
    const form = h("form", { class: "char-editor", id: "char-editor", novalidate: true });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.saveEditor();
    });
    const title = h("h2", { class: "panel-title", id: "char-detail-title", tabindex: "-1", text: isNew ? t("editor.newTitle") : t("editor.editTitle", { name: draft.name }) });
    const name = h("input", { type: "text", id: "char-name", maxlength: NAME_MAX, autocomplete: "off", required: true, "aria-describedby": "char-name-error" });
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
        draft.stats = defaultStats(candidate, table);
        this.editor.statsValues = rawFrom(statFields(candidate, table), draft.stats);
        this.editor.entries = [];
        this.renderDetail();
        document.getElementById(id)?.focus();
      });
      row.append(radio, h("label", { for: id, text: pick(candidate.name) }));
    }
    picker.append(row);
    if (locked) picker.append(h("p", { class: "help", text: t("editor.systemLocked") }));
    const pc = switchControl({ id: "char-pc", label: t("editor.pc"), checked: draft.pc, onChange: (on) => (draft.pc = on) });
    const note = h("textarea", { id: "char-note", maxlength: NOTE_MAX, rows: 2 });
    note.value = draft.note;
    note.addEventListener("input", () => (draft.note = note.value));
    const noteField = h("div", { class: "field field--wide" }, h("label", { for: "char-note", class: "field-label", text: t("editor.note") }), note);

    const statsFields = statFields(system, table);
    this.statsForm = statsFields.length
      ? new SideForm({ side: "stats", system: formSystem(system.id, statsFields), values: this.editor.statsValues, ui: {}, onInput: () => this.hideEditorError() })
      : null;

    const entriesList = h("ol", { class: "entry-editors", id: "entry-editors" });
    this.entryForms = [];
    this.editor.entries.forEach((state, index) => {
      entriesList.append(this.renderEntryEditor(system, table, state, index));
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

  renderEntryEditor(system, table, state, index) {
    const labelId = `entry-label-${index}`;
    const label = h("input", { type: "text", id: labelId, maxlength: LABEL_MAX, autocomplete: "off", "aria-describedby": `${labelId}-error` });
    label.value = state.label;
    const summary = h("summary", { class: "entry-editor-summary" }, h("span", { text: state.label || t("editor.newEntry") }));
    label.addEventListener("input", () => {
      state.label = label.value;
      summary.firstChild.textContent = label.value || t("editor.newEntry");
      this.editorFieldError(label, null);
    });
    const form = new SideForm({ side: `e${index}`, system: formSystem(system.id, entryFields(system)), values: state.values, ui: state, onInput: () => this.hideEditorError() });
    const extras = extraFields(system, table);
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
    const table = this.ctx.table();
    let first = null;
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
      if (errors.length) first ??= document.getElementById(`f-stats-${system.id}-${errors[0].field}`);
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
        label.closest("details").open = true;
        first ??= document.getElementById(`f-e${index}-${system.id}-${errors[0].field}`);
      }
      const entry = { id: state.id, label: text, params };
      if (extrasForm) entry.sources = extrasForm.collect({ withFaces: false }).params;
      entries.push(entry);
    });
    const character = { ...draft, name, note: draft.note.slice(0, NOTE_MAX), stats, entries, updated: new Date().toISOString() };
    character.created ??= character.updated;
    this.busy = true;
    try {
      // The engine judges the sheet's numbers (said next to each, with the other mistakes),
      // then every skill rolled with them (bounds, combinations).
      let unplaced = null;
      for (const refusal of await judgeStats((r) => this.ctx.engine.call(r), system, table, character, lang())) {
        const field = refusal.stat && statField(system, table, refusal.stat);
        if (!field || !this.statsForm?.setError(field.name, statMessage(field, refusal.message))) {
          unplaced ??= t("import.statInvalid", { name, stat: refusal.field ?? "", message: refusal.message });
          continue;
        }
        first ??= document.getElementById(`f-stats-${system.id}-${field.name}`);
      }
      if (first || unplaced) {
        this.showEditorError(unplaced || t("editor.fix"));
        first?.focus();
        return;
      }
      const clean = cleanCharacter(character, this.systems(), table);
      if (clean.error) {
        this.showEditorError(t(clean.error.key, clean.error.vars));
        return;
      }
      const refused = await judgeEntries((r) => this.ctx.engine.call(r), system, character, lang());
      if (refused) {
        const { form, label } = this.entryForms[refused.index];
        const { field, message } = refused;
        label.closest("details").open = true;
        if (field && form.setError(field, message)) form.focusField(field);
        else if (field && this.statsForm && this.statsForm.setError(field, message)) this.statsForm.focusField(field);
        this.showEditorError(t("import.entryInvalid", { name, label: entries[refused.index].label, message }));
        return;
      }
      await this.put(character);
      this.lastSystem = character.system;
      this.editor = null;
      this.select(character.id);
      this.render();
      flash(this.message, t("chars.saved", { name }));
      document.getElementById("char-detail-title")?.focus();
    } catch (error) {
      this.showEditorError(t("chars.storageError", { message: error.message }));
    } finally {
      this.busy = false;
    }
  }
}

/** What is said next to a sheet number the engine refused: its described bounds, else the engine's words. */
function statMessage(field, message) {
  const bounded = field.type === "int" && Number.isFinite(field.min) && Number.isFinite(field.max);
  return bounded ? t("editor.statRange", { min: field.min, max: field.max }) : message;
}
