// The "Personnages" screen: saved characters (list, editor, duplicate, delete, export,
// import), the character sheet with one-tap quick rolls, situation modifiers, the d6
// exceptional efforts and the pool's "where augmentations come from" panel.
//
// Every form is built by SideForm from field descriptors (the engine's registry), so no
// system has its own form code here; what a sheet holds is the engine's description
// (sheet.js), and every character is judged by the engine (`character` op). This module holds the state, the list and the storage actions; the sheet
// (sheet-view.js), quick rolls (quick.js), editor (editor.js) and import/export (io.js)
// are methods mixed into the same class.

import { h } from "../lib/dom.js";
import { isCharacter, paramsFit } from "../lib/checks.js";
import { reportRestored } from "../lib/storage.js";
import { lang, pick, t } from "../lib/i18n.js";
import { confirmAction, flash } from "../ui/ui.js";
import { EditorPart } from "./editor.js";
import { IoPart } from "./io.js";
import { QuickPart } from "./quick.js";
import { limits, sorted } from "./sheet.js";
import { newId } from "../lib/ids.js";
import { SheetPart } from "./sheet-view.js";
import * as store from "./store.js";
import "./strings.js";
import { readExpressions } from "../lib/expressions.js";

export class CharactersView {
  /**
   * @param {object} ctx  shared app context (engine, systems(), play(), history, announce,
   *                      takeSeed, recordLuck, showView)
   * @param {HTMLElement} root
   */
  constructor(ctx, root) {
    this.ctx = ctx;
    this.root = root;
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

  /**
   * The stored characters, sorted by name: the store's `characters` slice, which this view
   * alone writes (a new list each time); the opposition, combat and shared table subscribe.
   */
  get characters() {
    return this.ctx.store.get("characters");
  }

  set characters(list) {
    this.ctx.store.set({ characters: list });
  }

  async load() {
    let stored = [];
    try {
      stored = await store.loadCharacters();
    } catch (error) {
      console.warn("characters could not be read", error);
    }
    this.characters = await this.judged(stored);
    this.loaded = true;
    if (!this.selected) this.selectedId = this.characters[0]?.id ?? null;
    this.render();
    await this.restoreSetAside();
  }

  /**
   * The stored characters the engine accepts (one `characters` call, issue 42): each one it
   * refuses is set aside and told, as at import; the page's own shape check decides nothing
   * alone. Not judged (the engine is down): listed as stored, nothing is lost.
   */
  async judged(list) {
    if (!list.length) return list;
    const answer = await this.ctx.engine.call({ op: "characters", characters: list, lang: lang() });
    const verdicts = answer.ok ? answer.result?.characters : null;
    if (!Array.isArray(verdicts) || verdicts.length !== list.length) return list;
    const kept = [];
    verdicts.forEach((verdict, index) => {
      if (verdict?.ok) kept.push(list[index]);
      else store.setAsideCharacter(list[index], "refused", verdict?.error?.message ?? null).catch(() => {});
    });
    return kept;
  }

  /**
   * Records an earlier version set aside, offered to the engine again in one `characters`
   * call: those it accepts come back to the list as it normalised them, and a notice says
   * how many; those it refuses stay aside (and downloadable from that notice).
   */
  async restoreSetAside() {
    if (this.restoring) return;
    this.restoring = true;
    try {
      const found = await store.setAsideCharacters();
      if (!found.length) return;
      const answer = await this.ctx.engine.call({ op: "characters", characters: found.map((f) => f.record), lang: lang() });
      if (!answer.ok || !Array.isArray(answer.result?.characters)) return; // not judged: they stay aside
      const taken = new Set(this.characters.map((c) => c.id));
      const back = [];
      const kept = [];
      answer.result.characters.forEach((verdict, index) => {
        const { ref, record } = found[index];
        if (verdict?.ok && isCharacter(verdict.character)) {
          const character = verdict.character;
          if (taken.has(character.id)) character.id = newId();
          taken.add(character.id);
          back.push({ ref, character });
        } else {
          kept.push({ key: "characters", reason: "refused", time: new Date().toISOString(), raw: JSON.stringify(record), error: verdict?.error?.message ?? null, store: ref.copy ? "localStorage" : "indexedDB" });
        }
      });
      if (!back.length) return;
      await store.restoreCharacters(back);
      reportRestored({ key: "characters", count: back.length, kept });
      this.characters = await store.loadCharacters();
      if (!this.editor) this.render();
    } catch (error) {
      console.warn("[pyrules] characters set aside could not be offered again:", error); // they stay aside
    } finally {
      this.restoring = false;
    }
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
    exportButton.disabled = !this.characters.length && !readExpressions().length; // saved expressions travel too
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
    this.characters = sorted([...this.characters.filter((c) => c.id !== character.id), character]);
  }

  async duplicate(character) {
    const copy = {
      ...structuredClone(character),
      id: newId(),
      name: t("chars.copyName", { name: character.name }).slice(0, limits(this.system(character.system)).name_max),
      entries: character.entries.map((e) => ({ ...structuredClone(e), id: newId("e") })),
      created: new Date().toISOString(),
      updated: new Date().toISOString(),
    };
    const answer = await this.ctx.engine.call({ op: "character", character: copy, lang: lang() });
    if (!answer.ok) {
      flash(this.message, answer.error.message, "error");
      return;
    }
    const saved = answer.result.character;
    try {
      await this.put(saved);
    } catch (error) {
      this.storageFailed(this.message, error);
      return;
    }
    this.knowEfforts(saved, this.system(saved.system), answer.result.efforts);
    this.knowFacts(saved, answer);
    this.select(saved.id);
    this.render();
    flash(this.message, t("chars.duplicated", { name: saved.name }));
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
    this.render();
    flash(this.message, t("chars.deleted", { name: character.name }));
    document.getElementById("char-new")?.focus();
  }

}

// The screen's other parts are methods of the same view (they share its state).
for (const part of [SheetPart, QuickPart, EditorPart, IoPart]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== "constructor") Object.defineProperty(CharactersView.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}
