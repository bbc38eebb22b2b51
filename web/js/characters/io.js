// Export of every character to a JSON file, and import of such a file: its shape checked
// here, every sheet number and skill by the engine (validation.js), then saved all or
// nothing. Methods of CharactersView (view.js mixes them in).

import { lang, pick, t } from "../lib/i18n.js";
import { download, flash, stamp } from "../ui/ui.js";
import { cleanCharacter, exportDocument, importList, newId } from "./sheet.js";
import * as store from "./store.js";
import { judgeCharacter, statField } from "./validation.js";
import "./strings.js";

// An export of 500 characters of 100 skills is well under this; a bigger file is not ours.
const IMPORT_BYTES = 5e6;

export class IoPart {
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
    // The engine judges every sheet number, then every skill rolled with them.
    for (const character of clean) {
      const system = this.system(character.system);
      const verdict = await judgeCharacter((r) => this.ctx.engine.call(r), system, table, character, lang());
      if (!verdict) continue;
      if (verdict.entry) {
        const label = character.entries[verdict.entry.index].label;
        refuse(t("import.entryInvalid", { name: character.name, label, message: verdict.entry.message }));
      } else {
        const [first] = verdict.stats;
        const field = first.stat && statField(system, table, first.stat);
        refuse(t("import.statInvalid", { name: character.name, stat: field ? pick(field.label) : first.field ?? "", message: first.message }));
      }
      return;
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
