// The "Personnages" screen: saved characters (list, editor, duplicate, delete, export,
// import), the character sheet with one-tap quick rolls, situation modifiers, the d6
// exceptional efforts and the pool's "where augmentations come from" panel.
//
// Every form is built by SideForm from field descriptors (the engine's registry), so no
// system has its own form code here; the per-system knowledge is the SHEETS table of
// sheet.js.

import { h } from "./dom.js";
import { SideForm, summarize } from "./forms.js";
import { entryFrom } from "./history.js";
import { paramsFit } from "./checks.js";
import { addStrings, lang, pick, t } from "./i18n.js";
import { renderRoll } from "./result.js";
import {
  cleanCharacter,
  defaultStats,
  effortState,
  entryFields,
  exportDocument,
  extraFields,
  importList,
  LABEL_MAX,
  NAME_MAX,
  newId,
  NOTE_MAX,
  rollParams,
  situationFields,
  statFields,
} from "./sheet.js";
import { appliedText, SourcesPanel } from "./sources.js";
import * as store from "./store.js";
import { confirmAction, download, flash, showRolled, stamp, switchControl } from "./ui.js";

// An export of 500 characters of 100 skills is well under this; a bigger file is not ours.
const IMPORT_BYTES = 5e6;

addStrings({
  fr: {
    "import.entryFaces": "« {name} », « {label} » : une fiche ne peut pas porter de faces de dés ({field}) ; les faces viennent du tirage ou des dés physiques lancés pour un jet.",
    "import.tooBig": "fichier trop gros (plus de {max} Mo) pour un export de personnages.",
    "editor.statRange": "Un entier de {min} à {max}.",
  },
  en: {
    "import.entryFaces": "“{name}”, “{label}”: a sheet cannot carry dice faces ({field}); faces come from the draw or from physical dice thrown for one roll.",
    "import.tooBig": "file too big (over {max} MB) for a characters export.",
    "editor.statRange": "A whole number from {min} to {max}.",
  },
});

/** Raw form values (as SideForm keeps them) from API params. */
function rawFrom(fields, params) {
  const values = {};
  for (const field of fields) {
    const value = params ? params[field.name] : undefined;
    if (value === undefined) continue;
    if (field.type === "bool") values[field.name] = Boolean(value);
    else if (value === null) values[field.name] = "";
    else values[field.name] = String(value);
  }
  return values;
}

/** A pseudo-system for SideForm: only `fields` and `id` are read. */
function formSystem(id, fields) {
  return { id, fields, outcomes: [] };
}

export class CharactersView {
  /**
   * @param {object} ctx  shared app context (engine, systems(), table(), history, announce,
   *                      takeSeed, recordLuck, showView)
   * @param {HTMLElement} root
   */
  constructor(ctx, root) {
    this.ctx = ctx;
    this.root = root;
    this.characters = [];
    this.loaded = false;
    try {
      this.selectedId = sessionStorage.getItem("pyrules:character") || null;
    } catch {
      this.selectedId = null; // storage switched off
    }
    this.editor = null;
    this.situations = {}; // character id -> raw situation values
    this.situationUI = {}; // character id -> {open}
    this.quickPhysical = false; // quick rolls with the faces of the player's own dice
    this.sources = {}; // character id -> raw sources values
    this.sourcesEntry = {}; // character id -> entry id the sources panel is for
    this.busy = false;
    this.listeners = new Set();
    this.opposition = null; // set by the opposition panel
    // Another tab changed the characters: read them again (not under an open editor).
    store.onOtherTabChange(() => {
      if (this.loaded && !this.editor) this.load();
    });
  }

  systems() {
    return this.ctx.systems() || [];
  }

  system(id) {
    return this.systems().find((s) => s.id === id) || null;
  }

  get selected() {
    return this.characters.find((c) => c.id === this.selectedId) || null;
  }

  byId(id) {
    return this.characters.find((c) => c.id === id) || null;
  }

  /** Called with the list after every change (the opposition and combat screens follow). */
  onChange(listener) {
    this.listeners.add(listener);
  }

  changed() {
    for (const listener of this.listeners) listener(this.characters);
  }

  async load() {
    try {
      this.characters = await store.loadCharacters();
    } catch (error) {
      this.characters = [];
      console.warn("characters could not be read", error);
    }
    this.loaded = true;
    if (!this.selected) this.selectedId = this.characters[0]?.id ?? null;
    this.render();
    this.changed();
  }

  select(id) {
    this.selectedId = id;
    try {
      sessionStorage.setItem("pyrules:character", id || "");
    } catch {
      /* private mode: not remembered */
    }
  }

  // -------------------------------------------------------------------------- rendering

  /**
   * Set one stored character aside (moved to the quarantine store, with a notice): its
   * entries do not fit the engine's description, or it threw while drawn.
   */
  setAside(character, error) {
    console.warn("[pyrules] character set aside:", error);
    this.characters = this.characters.filter((c) => c !== character);
    if (this.selectedId === character.id) this.select(null);
    store.setAsideCharacter(character).catch(() => {});
    this.changed();
  }

  /** A character the page can draw: each entry's params fit its system's fields. */
  fits(character) {
    const system = this.system(character.system);
    return !system || character.entries.every((e) => paramsFit(system, e.params));
  }

  render() {
    this.renderedLang = this.loaded && this.systems().length ? lang() : null;
    if (!this.loaded || !this.systems().length) {
      this.root.replaceChildren(h("p", { class: "view-loading", text: t("form.loading") }));
      return;
    }
    for (const character of [...this.characters]) if (!this.fits(character)) this.setAside(character, new Error("params do not fit"));
    for (let attempt = 0; attempt <= this.characters.length; attempt += 1) {
      try {
        this.renderNow();
        return;
      } catch (error) {
        // The selected character threw while drawn: set it aside, draw the rest.
        const culprit = this.selected || this.characters[0];
        if (!culprit) throw error;
        this.setAside(culprit, error);
      }
    }
  }

  renderNow() {
    if (this.selectedId && !this.selected) this.select(null);
    this.listBox = this.renderList();
    this.detailBox = h("section", { class: ["panel", "char-detail"], id: "char-detail", "aria-labelledby": "char-detail-title" });
    this.renderDetail();
    this.root.replaceChildren(h("div", { class: "chars-layout" }, this.listBox, this.detailBox), this.opposition?.element || "");
    this.opposition?.render();
  }

  renderList() {
    const add = h("button", { type: "button", class: ["button", "button--primary"], id: "char-new", text: t("chars.new") });
    add.addEventListener("click", () => this.startEdit(null));
    const list = h("ul", { class: "char-list", id: "char-list", "aria-labelledby": "chars-title" });
    if (!this.characters.length) list.append(h("li", { class: "char-empty", text: t("chars.empty") }));
    for (const character of this.characters) {
      const system = this.system(character.system);
      const card = h(
        "button",
        { type: "button", class: "char-card", "aria-current": character.id === this.selectedId ? "true" : null },
        h("span", { class: "char-card-name", text: character.name }),
        h(
          "span",
          { class: "char-card-meta" },
          h("span", { class: ["tag", character.pc ? "tag--pc" : "tag--npc"], text: t(character.pc ? "chars.pc" : "chars.npc") }),
          h("span", { text: system ? pick(system.name) : character.system }),
          h("span", { text: t("chars.entryCount", { n: character.entries.length }) }),
        ),
      );
      card.addEventListener("click", () => {
        if (this.editor) return;
        this.select(character.id);
        this.render();
        this.detailBox.scrollIntoView({ block: "start", behavior: "auto" });
        document.getElementById("char-detail-title")?.focus({ preventScroll: true });
      });
      list.append(h("li", { class: "char-item", dataset: { id: character.id, system: character.system } }, card));
    }
    const exportButton = h("button", { type: "button", class: "button", id: "chars-export", text: t("chars.export") });
    exportButton.disabled = !this.characters.length;
    exportButton.addEventListener("click", () => this.exportAll());
    const file = h("input", { type: "file", id: "chars-import-file", accept: ".json,application/json", class: "visually-hidden", tabindex: "-1", "aria-hidden": "true" });
    file.addEventListener("change", () => {
      const chosen = file.files && file.files[0];
      file.value = "";
      if (chosen) this.importFile(chosen);
    });
    const importButton = h("button", { type: "button", class: "button", id: "chars-import", text: t("chars.import") });
    importButton.addEventListener("click", () => file.click());
    this.message = h("p", { class: "chars-message", id: "chars-message", role: "status", hidden: true });
    return h(
      "section",
      { class: ["panel", "chars-list-panel"], "aria-labelledby": "chars-title" },
      h("div", { class: "panel-head" }, h("h2", { class: "panel-title", id: "chars-title", text: t("chars.title") }), add),
      list,
      h("div", { class: "chars-io" }, exportButton, importButton, file),
      h("p", { class: "panel-hint", text: t("chars.storageHint") }),
      this.message,
    );
  }

  renderDetail() {
    const box = this.detailBox;
    if (this.editor) {
      box.replaceChildren(this.renderEditor());
      return;
    }
    const character = this.selected;
    if (!character) {
      box.replaceChildren(
        h("h2", { class: "panel-title", id: "char-detail-title", tabindex: "-1", text: t("chars.sheet") }),
        h("p", { class: "char-placeholder", text: t(this.characters.length ? "chars.pick" : "chars.first") }),
      );
      return;
    }
    box.replaceChildren(...this.renderSheet(character));
  }

  // -------------------------------------------------------------------------- the sheet

  renderSheet(character) {
    const system = this.system(character.system);
    if (!system) return [h("p", { text: t("import.system", { system: character.system }) })];
    const table = this.ctx.table();
    const edit = h("button", { type: "button", class: "button", id: "char-edit", text: t("chars.edit") });
    edit.addEventListener("click", () => this.startEdit(character));
    const duplicate = h("button", { type: "button", class: "button", id: "char-duplicate", text: t("chars.duplicate") });
    duplicate.addEventListener("click", () => this.duplicate(character));
    const remove = h("button", { type: "button", class: ["button", "button--danger"], id: "char-delete", text: t("chars.delete") });
    remove.addEventListener("click", () => this.remove(character));
    const head = h(
      "header",
      { class: "sheet-head" },
      h(
        "div",
        { class: "sheet-title" },
        h("h2", { class: "sheet-name", id: "char-detail-title", tabindex: "-1", text: character.name }),
        h(
          "p",
          { class: "sheet-tags" },
          h("span", { class: ["tag", character.pc ? "tag--pc" : "tag--npc"], text: t(character.pc ? "chars.pcLong" : "chars.npcLong") }),
          h("span", { class: "tag", text: pick(system.name) }),
        ),
      ),
      h("div", { class: "sheet-actions" }, edit, duplicate, remove),
    );
    const parts = [head];
    if (character.note) parts.push(h("p", { class: "sheet-note", text: character.note }));
    const fields = statFields(system, table);
    if (fields.length) {
      parts.push(
        h(
          "dl",
          { class: "sheet-stats" },
          fields.map((f) => h("div", { class: "sheet-stat", dataset: { stat: f.name } }, h("dt", { text: pick(f.label) }), h("dd", { text: String(character.stats[f.name] ?? f.default ?? 0) }))),
        ),
      );
    }
    const efforts = this.renderEfforts(character, system);
    if (efforts) parts.push(efforts);
    // The skills first (the frequent gesture), the situation and the sources below them.
    parts.push(h("h3", { class: "sheet-subtitle", id: "entries-title", text: t("chars.entries") }));
    parts.push(h("p", { class: "panel-hint", text: t("chars.tapToRoll") }));
    // Physical dice: a tap on a skill asks for the faces of the dice it needs, then rolls them.
    const physical = switchControl({
      id: "quick-physical",
      label: t("physical.label"),
      checked: this.quickPhysical,
      onChange: (on) => {
        this.quickPhysical = on;
        if (!on && document.getElementById("quick-faces")) this.quickResult.replaceChildren();
      },
    });
    parts.push(physical.row);
    const buttons = h("ul", { class: "entry-buttons", "aria-labelledby": "entries-title" });
    for (const entry of character.entries) {
      const params = rollParams(system, character, entry);
      const button = h(
        "button",
        { type: "button", class: "entry-roll", dataset: { entry: entry.id } },
        h("span", { class: "entry-roll-label", text: entry.label }),
        h("span", { class: "entry-roll-summary", text: summarize(system, params) }),
      );
      button.addEventListener("click", () => this.quickRoll(character, entry));
      buttons.append(h("li", {}, button));
    }
    if (!character.entries.length) buttons.append(h("li", { class: "char-empty", text: t("chars.noEntries") }));
    parts.push(buttons);
    this.quickError = h("p", { class: "form-error", id: "quick-error", role: "alert", hidden: true });
    this.quickResult = h("div", { class: "quick-result", id: "quick-result" });
    parts.push(this.quickError, this.quickResult);
    parts.push(this.renderSituation(character, system));
    const sources = this.renderSources(character, system);
    if (sources) parts.push(sources);
    const oppose = h("button", { type: "button", class: "button", id: "char-oppose", text: t("oppc.from") });
    oppose.addEventListener("click", () => this.opposition?.startWith(character));
    parts.push(h("div", { class: "sheet-foot" }, oppose));
    return parts;
  }

  renderEfforts(character, system) {
    const state = effortState(character);
    if (!state) return null;
    const sheet = system.sheet?.efforts_per_day;
    const available = Math.max(0, state.flame - Math.min(state.used, state.flame));
    const pips = h("span", { class: "effort-pips", "aria-hidden": "true" });
    for (let i = 0; i < state.flame; i += 1) pips.append(h("span", { class: ["effort-pip", i < available ? "is-left" : "is-used"] }));
    const rest = h("button", { type: "button", class: "button", id: "efforts-rest", text: sheet ? pick(sheet.restore) : t("efforts.rest") });
    rest.disabled = state.used === 0;
    rest.addEventListener("click", () => this.effortAction(character, "rest"));
    return h(
      "div",
      { class: "efforts", id: "efforts", dataset: { available: String(available), perDay: String(state.flame) } },
      h("div", { class: "efforts-text" }, h("p", { class: "efforts-title", text: sheet ? pick(sheet.label) : t("efforts.title") }), h("p", { class: "efforts-count", id: "efforts-count", text: t("efforts.count", { available, total: state.flame }) }), pips),
      rest,
    );
  }

  renderSituation(character, system) {
    const values = (this.situations[character.id] ??= {});
    const fields = situationFields(system);
    const active = h("span", { class: "situation-active", id: "situation-active" });
    const showActive = () => {
      const { params } = this.situationForm.collect({ withFaces: false });
      const text = summarize(formSystem(system.id, fields), params);
      active.textContent = text ? t("situation.active", { text }) : "";
      details.classList.toggle("is-active", Boolean(text));
    };
    this.situationForm = new SideForm({
      side: "sit",
      system: formSystem(system.id, fields),
      values,
      ui: {},
      onInput: () => {
        this.quickError.hidden = true;
        showActive();
      },
    });
    const reset = h("button", { type: "button", class: ["button", "button--ghost"], id: "situation-reset", text: t("situation.reset") });
    reset.addEventListener("click", () => {
      for (const key of Object.keys(values)) delete values[key];
      for (const field of fields) values[field.name] = field.type === "bool" ? Boolean(field.default) : field.default === null ? "" : String(field.default);
      this.situationForm.render();
      showActive();
    });
    const ui = (this.situationUI[character.id] ??= { open: false });
    const details = h(
      "details",
      { class: "situation", id: "situation", open: ui.open },
      h("summary", {}, h("span", { text: t("situation.title") }), active),
      h("p", { class: "panel-hint", text: t("situation.hint") }),
      this.situationForm.element,
      h("div", { class: "situation-actions" }, reset),
    );
    details.addEventListener("toggle", () => (ui.open = details.open));
    showActive();
    return details;
  }

  // -------------------------------------------------------------------------- sources (pool)

  renderSources(character, system) {
    const table = this.ctx.table();
    if (!table?.sources || table.sources.system !== system.id) return null;
    const values = (this.sources[character.id] ??= {});
    const entryId = this.sourcesEntry[character.id] ?? character.entries[0]?.id ?? "";
    this.prefillSources(character, values, entryId);
    const select = h("select", { id: "sources-entry" });
    select.append(h("option", { value: "", text: `— ${t("form.none")} —` }));
    for (const entry of character.entries) {
      const option = h("option", { value: entry.id, text: entry.label });
      option.selected = entry.id === entryId;
      select.append(option);
    }
    const panel = new SourcesPanel({
      ctx: this.ctx,
      prefix: "sources",
      side: "src",
      values,
      ui: (this.sourcesUI ??= {}),
      before: [h("div", { class: "field" }, h("label", { for: "sources-entry", class: "field-label", text: t("sources.entry") }), select)],
      onApply: (result) => this.applySources(result),
      onError: (message) => flash(this.quickError, message, "error"),
    });
    select.addEventListener("change", () => {
      this.sourcesEntry[character.id] = select.value;
      this.prefillSources(character, values, select.value, true);
      panel.reload();
    });
    return panel.element;
  }

  /** Sheet numbers (and the entry's linked / specialty) into the sources form values. */
  prefillSources(character, values, entryId, force = false) {
    const stats = character.stats || {};
    for (const key of ["flame", "aspect", "dark_aspect"]) {
      if (force || !(key in values)) values[key] = String(stats[key] ?? 0);
    }
    const entry = character.entries.find((e) => e.id === entryId);
    const extras = entry?.sources || {};
    if (force || !("linked" in values)) values.linked = extras.linked ?? true;
    if (force || !("specialty" in values)) values.specialty = extras.specialty ?? false;
  }

  applySources(result) {
    if (!this.situationForm) return;
    this.situationForm.load({ augmentations: result.augmentations, diminutions: result.diminutions, modifiers: result.modifiers || "" });
    this.situationForm.onInput("sit", "augmentations");
    this.ctx.announce(appliedText(result));
    const box = document.getElementById("situation");
    if (box) box.open = true;
  }

  // -------------------------------------------------------------------------- quick rolls

  /** Spend an exceptional effort if the params ask for one: {ok, commit()} or {ok:false, message}. */
  async effortFor(character, params) {
    character = this.byId(character.id) || character; // the sheet may be older than the last spend
    const state = effortState(character);
    if (!state || !params[state.param]) return { ok: true, commit: async () => {} };
    const answer = await this.ctx.engine.call({ op: "effort", params: { flame: state.flame, used: Math.min(state.used, state.flame), action: "use" }, lang: lang() });
    if (!answer.ok) return { ok: false, message: answer.error.message };
    return {
      ok: true,
      commit: async () => {
        const fresh = this.byId(character.id) || character;
        const updated = { ...fresh, stats: { ...fresh.stats, [state.usedKey]: answer.result.used }, updated: new Date().toISOString() };
        try {
          await this.put(updated);
        } catch (error) {
          // The roll stands; the spent effort could not be written (the notice says why).
          this.storageFailed(this.quickError?.isConnected ? this.quickError : this.message, error);
        }
      },
    };
  }

  async effortAction(character, action) {
    character = this.byId(character.id) || character;
    const state = effortState(character);
    const answer = await this.ctx.engine.call({ op: "effort", params: { flame: state.flame, used: Math.min(state.used, state.flame), action }, lang: lang() });
    if (!answer.ok) {
      flash(this.quickError, answer.error.message, "error");
      return;
    }
    try {
      await this.put({ ...character, stats: { ...character.stats, [state.usedKey]: answer.result.used }, updated: new Date().toISOString() });
    } catch (error) {
      this.storageFailed(this.quickError, error);
      return;
    }
    this.render();
    this.ctx.announce(t("efforts.restored", { total: answer.result.per_day }));
    document.getElementById("efforts-rest")?.focus();
  }

  async quickRoll(character, entry) {
    if (this.busy) return;
    character = this.byId(character.id) || character;
    const system = this.system(character.system);
    const form = this.situationForm;
    this.quickError.hidden = true;
    const { params: situation, errors } = form.collect({ withFaces: false });
    if (errors.length) {
      for (const error of errors) form.setError(error.field, error.message);
      form.focusField(errors[0].field);
      return;
    }
    const params = rollParams(system, character, entry, situation);
    if (this.quickPhysical) await this.askFaces(character, entry, system, params);
    else await this.rollEntry(character, entry, system, params);
  }

  /** Physical dice: the faces boxes of the dice this roll needs, in the result area. */
  async askFaces(character, entry, system, params) {
    const plan = await this.ctx.engine.call({ op: "dice", system: system.id, params, lang: lang() });
    if (!plan.ok) {
      flash(this.quickError, t("quick.error", { label: entry.label, message: plan.error.message }), "error");
      return;
    }
    const facesForm = new SideForm({
      side: "quick",
      system: formSystem(system.id, system.fields.filter((f) => f.type === "faces")),
      values: {},
      ui: {},
      onInput: () => {},
    });
    facesForm.setPhysical(true);
    facesForm.setDiceGroups(plan.result.groups);
    const submit = h("button", { type: "submit", class: ["button", "button--primary"], id: "quick-faces-roll", text: t("quick.facesRoll") });
    const cancel = h("button", { type: "button", class: "button", id: "quick-faces-cancel", text: t("quick.facesCancel") });
    const box = h(
      "form",
      { class: "quick-faces", id: "quick-faces", dataset: { entry: entry.id }, novalidate: true },
      h("p", { class: "quick-title", text: t("quick.title", { name: character.name, label: entry.label }) }),
      facesForm.element,
      h("div", { class: "quick-faces-actions" }, submit, cancel),
    );
    box.addEventListener("submit", (event) => {
      event.preventDefault();
      const { params: faces, errors } = facesForm.collect({ withFaces: true });
      if (errors.length) {
        for (const error of errors) facesForm.setError(error.field, error.message);
        facesForm.focusField(errors[0].field);
        return;
      }
      this.rollEntry(character, entry, system, { ...params, ...faces }, facesForm);
    });
    cancel.addEventListener("click", () => {
      this.quickResult.replaceChildren();
      this.root.querySelector(`.entry-roll[data-entry="${entry.id}"]`)?.focus();
    });
    this.quickResult.replaceChildren(box);
    this.quickResult.dataset.entry = entry.id;
    delete this.quickResult.dataset.outcome;
    box.querySelector("input")?.focus();
  }

  /**
   * Roll `entry` with `params`: the RNG (the page's seed), or the faces already in params
   * (physical dice, typed in `facesForm`, where a wrong face is then shown).
   */
  async rollEntry(character, entry, system, params, facesForm = null) {
    if (this.busy) return;
    const form = this.situationForm;
    this.busy = true;
    try {
      const effort = await this.effortFor(character, params);
      if (!effort.ok) {
        flash(this.quickError, effort.message, "error");
        this.ctx.announce(effort.message);
        return;
      }
      const request = { op: "roll", system: system.id, params, lang: lang() };
      if (!facesForm) {
        const seed = this.ctx.takeSeed();
        if (seed !== undefined) request.seed = seed;
      }
      const answer = await this.ctx.engine.call(request);
      if (!answer.ok) {
        const field = answer.error.field;
        if (!(field && (facesForm?.setError(field, answer.error.message) || form.setError(field, answer.error.message)))) {
          flash(this.quickError, t("quick.error", { label: entry.label, message: answer.error.message }), "error");
        }
        if (field && facesForm?.hasError(field)) facesForm.focusField(field);
        return;
      }
      await effort.commit();
      const who = { id: character.id, name: character.name, label: entry.label };
      const historyEntry = entryFrom(request, answer.result, { who });
      const view = renderRoll(system, answer.result);
      const title = h("p", { class: "quick-title", text: t("quick.title", { name: character.name, label: entry.label }) });
      if (effortState(character) && params.effort) this.renderAfterEffort();
      showRolled(this.quickResult, view, {
        before: [title],
        announce: (text) => this.ctx.announce(`${character.name}, ${entry.label} : ${text}`),
        onLanded: () => {
          this.ctx.history.add(historyEntry);
          this.ctx.recordLuck(historyEntry);
        },
      });
      this.quickResult.dataset.outcome = answer.result.outcome;
      this.quickResult.dataset.entry = entry.id;
    } finally {
      this.busy = false;
    }
  }

  /** Redraw the efforts box after one was spent (keeps the result area). */
  renderAfterEffort() {
    const character = this.selected;
    const old = document.getElementById("efforts");
    if (!character || !old) return;
    const fresh = this.renderEfforts(character, this.system(character.system));
    old.replaceWith(fresh);
  }

  // -------------------------------------------------------------------------- storage helpers

  /** Say next to the action that the device refused to store it (storage full, ...). */
  storageFailed(node, error) {
    if (node) {
      flash(node, t("chars.storageError", { message: error.message }), "error");
      node.setAttribute("role", "alert");
    }
    console.warn("[pyrules] characters not stored:", error);
  }

  async put(character) {
    await store.saveCharacter(character);
    const index = this.characters.findIndex((c) => c.id === character.id);
    if (index >= 0) this.characters[index] = character;
    else this.characters.push(character);
    this.sort();
    this.changed();
  }

  sort() {
    this.characters.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  async duplicate(character) {
    const copy = {
      ...structuredClone(character),
      id: newId(),
      name: t("chars.copyName", { name: character.name }).slice(0, NAME_MAX),
      entries: character.entries.map((e) => ({ ...structuredClone(e), id: newId("e") })),
      created: new Date().toISOString(),
      updated: new Date().toISOString(),
    };
    try {
      await this.put(copy);
    } catch (error) {
      this.storageFailed(this.message, error);
      return;
    }
    this.select(copy.id);
    this.render();
    flash(this.message, t("chars.duplicated", { name: copy.name }));
  }

  async remove(character) {
    const ok = await confirmAction({ title: t("chars.deleteTitle", { name: character.name }), text: t("chars.deleteText"), confirm: t("chars.delete") });
    if (!ok) return;
    try {
      await store.deleteCharacter(character.id);
    } catch (error) {
      this.storageFailed(this.message, error);
      return;
    }
    this.characters = this.characters.filter((c) => c.id !== character.id);
    this.select(this.characters[0]?.id ?? null);
    this.changed();
    this.render();
    flash(this.message, t("chars.deleted", { name: character.name }));
    document.getElementById("char-new")?.focus();
  }

  // -------------------------------------------------------------------------- editor

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
      // The sheet numbers are not sent to the engine as such: their bounds are checked here.
      for (const field of statFields(system, table)) {
        const value = params[field.name];
        if (errors.some((e) => e.field === field.name) || typeof value !== "number") continue;
        if ((field.min !== undefined && field.min !== null && value < field.min) || (field.max !== undefined && field.max !== null && value > field.max)) {
          errors.push({ field: field.name, message: t("editor.statRange", { min: field.min, max: field.max }) });
        }
      }
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
    if (first) {
      this.showEditorError(t("editor.fix"));
      first.focus();
      return;
    }
    const character = { ...draft, name, note: draft.note.slice(0, NOTE_MAX), stats, entries, updated: new Date().toISOString() };
    character.created ??= character.updated;
    // The engine judges every entry with the sheet's numbers (bounds, combinations).
    this.busy = true;
    try {
      const clean = cleanCharacter(character, this.systems(), table);
      if (clean.error) {
        this.showEditorError(t(clean.error.key, clean.error.vars));
        return;
      }
      for (const [index, entry] of entries.entries()) {
        const answer = await this.ctx.engine.call({ op: "dice", system: system.id, params: rollParams(system, character, entry), lang: lang() });
        if (answer.ok) continue;
        const { form } = this.entryForms[index];
        const field = answer.error.field;
        this.entryForms[index].label.closest("details").open = true;
        if (field && form.setError(field, answer.error.message)) form.focusField(field);
        else if (field && this.statsForm && this.statsForm.setError(field, answer.error.message)) this.statsForm.focusField(field);
        this.showEditorError(t("import.entryInvalid", { name, label: entry.label, message: answer.error.message }));
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

  // -------------------------------------------------------------------------- export / import

  exportAll() {
    const text = JSON.stringify(exportDocument(this.characters), null, 2) + "\n";
    download(new Blob([text], { type: "application/json" }), `pyrules-${t("chars.fileName")}-${stamp()}.json`);
  }

  /** Read, check (shape, then every entry by the engine), then save all or nothing. */
  async importFile(file) {
    const refuse = (text) => {
      flash(this.message, t("import.refused", { message: text }), "error");
      this.message.setAttribute("role", "alert");
    };
    this.message.setAttribute("role", "status");
    if (file.size > IMPORT_BYTES) {
      refuse(t("import.tooBig", { max: IMPORT_BYTES / 1e6 }));
      return;
    }
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      refuse(t("import.json"));
      return;
    }
    const { list, error } = importList(data);
    if (error) {
      refuse(t(error.key, error.vars));
      return;
    }
    if (!list.length) {
      refuse(t("import.emptyFile"));
      return;
    }
    const systems = this.systems();
    const table = this.ctx.table();
    const clean = [];
    for (const [index, raw] of list.entries()) {
      const result = cleanCharacter(raw, systems, table);
      if (result.error) {
        refuse(t("import.at", { n: index + 1, message: t(result.error.key, result.error.vars) }));
        return;
      }
      clean.push(result.character);
    }
    for (const character of clean) {
      const system = this.system(character.system);
      for (const entry of character.entries) {
        const answer = await this.ctx.engine.call({ op: "dice", system: system.id, params: rollParams(system, character, entry), lang: lang() });
        if (!answer.ok) {
          refuse(t("import.entryInvalid", { name: character.name, label: entry.label, message: answer.error.message }));
          return;
        }
      }
    }
    // Same id as a character already here (or twice in the file): keep both, re-id the new one.
    const taken = new Set(this.characters.map((c) => c.id));
    for (const character of clean) {
      if (taken.has(character.id)) character.id = newId();
      taken.add(character.id);
    }
    try {
      await store.saveCharacters(clean);
    } catch (err) {
      refuse(t("chars.storageError", { message: err.message }));
      return;
    }
    this.characters.push(...clean);
    this.sort();
    this.select(clean[0].id);
    this.changed();
    this.render();
    flash(this.message, t("import.done", { n: clean.length }));
  }
}
