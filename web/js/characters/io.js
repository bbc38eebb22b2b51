// Export of every character to a JSON file, and import of such a file: the engine checks
// and normalises every character in one `characters` call, then they are saved all or
// nothing, as it answered. Methods of CharactersView (view.js mixes them in).

import { isObject } from "../lib/checks.js";
import { checkedExpression, EXPRESSIONS_CHANGED, importedExpressions, mergeExpressions, readExpressions, writeExpressions } from "../lib/expressions.js";
import { lang, pick, t } from "../lib/i18n.js";
import { download, flash, stamp } from "../ui/ui.js";
import { exportDocument, importList, refusalTarget, sorted, statFields } from "./sheet.js";
import { newId } from "../lib/ids.js";
import * as store from "./store.js";
import "./strings.js";

// An export of 500 characters of 100 skills is well under this; a bigger file is not ours.
const IMPORT_BYTES = 5e6;

export class IoPart {
  exportAll() {
    const text = JSON.stringify(exportDocument(this.characters, readExpressions()), null, 2) + "\n";
    download(new Blob([text], { type: "application/json" }), `pyrules-${t("chars.fileName")}-${stamp()}.json`);
  }

  /** Read the file, ask the engine about every character at once, then save all or nothing. */
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
    const imported = importedExpressions(data);
    if (imported.error) {
      refuse(t("import.expressions"));
      return;
    }
    if (!list.length && !imported.list.length) {
      refuse(t("import.emptyFile"));
      return;
    }
    // Every saved expression as the engine reads it (validate), before anything is written.
    const expressions = [];
    for (const [i, raw] of imported.list.entries()) {
      const { item, error: refusal } = await checkedExpression((request) => this.ctx.engine.call(request), raw, lang());
      if (refusal) {
        refuse(t("import.expressionAt", { n: i + 1, name: String(raw.name).slice(0, 60), message: refusal.message || "" }));
        return;
      }
      expressions.push(item);
    }
    if (!list.length) {
      this.saveExpressions(expressions, refuse);
      return;
    }
    // Only what could never be a character is turned back here (not an object at all).
    const stray = list.findIndex((raw) => !isObject(raw));
    if (stray >= 0) {
      refuse(t("import.at", { n: stray + 1, message: t("import.notObject") }));
      return;
    }
    // `show`: the first one's sheet comes with its answer (it is the one shown after).
    const answer = await this.ctx.engine.call({ op: "characters", characters: list, show: 0, lang: lang() });
    if (!answer.ok) {
      refuse(answer.error.message);
      return;
    }
    const verdicts = answer.result.characters;
    const refused = verdicts.findIndex((verdict) => !verdict.ok);
    if (refused >= 0) {
      refuse(t("import.at", { n: refused + 1, message: this.refusalText(list[refused], verdicts[refused].error) }));
      return;
    }
    const clean = verdicts.map((verdict) => verdict.character);
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
    this.characters = sorted([...this.characters, ...clean]);
    this.knowFacts(clean[0], { ok: true, result: verdicts[0] });
    this.select(clean[0].id);
    this.render();
    flash(this.message, t("import.done", { n: clean.length }));
    if (expressions.length) this.saveExpressions(expressions, refuse, clean.length);
  }

  /** The imported expressions after the ones kept here (an id taken: a new one), said once saved. */
  saveExpressions(expressions, refuse, characters = 0) {
    if (!writeExpressions(mergeExpressions(readExpressions(), expressions))) {
      refuse(t("import.expressionsNotStored"));
      return;
    }
    window.dispatchEvent(new Event(EXPRESSIONS_CHANGED));
    flash(this.message, t("import.doneExpressions", { n: characters, x: expressions.length }));
  }

  /** The engine's refusal of one imported character, naming it and what is wrong. */
  refusalText(raw, error) {
    const name = typeof raw.name === "string" ? raw.name.slice(0, 60) : "";
    const target = refusalTarget(error.field);
    if (!name) return error.message;
    if (target.part === "stats") {
      const field = statFields(this.system(raw.system)).find((f) => f.name === target.name);
      return t("import.statInvalid", { name, stat: field ? pick(field.label) : target.name, message: error.message });
    }
    if (target.index !== undefined) {
      const label = raw.entries?.[target.index]?.label;
      return t("import.entryInvalid", { name, label: typeof label === "string" ? label.slice(0, 60) : `n° ${target.index + 1}`, message: error.message });
    }
    return t("import.named", { name, message: error.message });
  }
}
