// The character sheet of the characters screen: stats, efforts, the one-tap skills, the
// situation of the next roll and the pool's "where augmentations come from" panel.
// Methods of CharactersView (view.js mixes them in).

import { h } from "../lib/dom.js";
import { SideForm } from "../widgets/forms.js";
import { Briefs } from "../widgets/briefs.js";
import { formatNumber, lang, pick, t } from "../lib/i18n.js";
import { appliedText, SourcesPanel } from "../widgets/sources.js";
import { flash, switchControl } from "../ui/ui.js";
import { formSystem } from "./formdata.js";
import { effortState, extraFields, situationFields, statFields } from "./sheet.js";
import "./strings.js";

/** A stat's value on the sheet; an empty list (no weapon, no protection) says so, not a blank. */
function statValue(field, value) {
  const shown = value ?? field.default ?? 0;
  if (Array.isArray(shown)) {
    if (shown.length === 0) return h("dd", { class: "sheet-stat-none", dataset: { empty: "true" }, text: t("chars.statNone") });
    return h("dd", { text: shown.join(", ") });
  }
  return h("dd", { text: String(shown) });
}

/**
 * The key of a sheet's facts: what they depend on (its system, PC flag, numbers and entries)
 * in this language; not its id, name, note or dates, nor the count of efforts used.
 */
function factsKey(system, character) {
  const usedKey = system && effortState(system, character)?.usedKey;
  const stats = { ...(character.stats || {}) };
  if (usedKey) delete stats[usedKey];
  return JSON.stringify([lang(), character.system, character.pc, stats, character.entries]);
}

/** "62 %"; a chance that is neither 0 nor 1 never reads as one of them ("< 1 %", "> 99 %"). */
function roundPercent(p) {
  const percent = (value) => formatNumber(value, { style: "percent", maximumFractionDigits: 0 });
  if (p > 0 && p < 0.005) return `< ${percent(0.01)}`;
  if (p < 1 && p >= 0.995) return `> ${percent(0.99)}`;
  return percent(p);
}

/** Each quick-roll button's line: what the roll adds up to, and its chance of success. */
function showEntryFacts(buttons, entries) {
  for (const fact of entries || []) {
    const button = buttons.querySelector(`.entry-roll[data-entry="${CSS.escape(fact.id)}"]`);
    if (!button) continue;
    button.querySelector(".entry-roll-summary").textContent = fact.brief;
    const chance = button.querySelector(".entry-roll-chance");
    chance.textContent = fact.chance === null ? "" : t("chars.entryChance", { percent: roundPercent(fact.chance) });
    if (fact.chance_exact !== null) chance.title = fact.chance_exact;
  }
}

export class SheetPart {
  renderSheet(character) {
    const system = this.system(character.system);
    if (!system) return [h("p", { text: t("import.system", { system: character.system }) })];
    const play = this.ctx.play();
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
    const fields = statFields(system);
    if (fields.length) {
      parts.push(
        h(
          "dl",
          { class: "sheet-stats" },
          fields.map((f) => h("div", { class: "sheet-stat", dataset: { stat: f.name } }, h("dt", { text: pick(f.label) }), statValue(f, character.stats[f.name]))),
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
      const button = h(
        "button",
        { type: "button", class: "entry-roll", dataset: { entry: entry.id } },
        h("span", { class: "entry-roll-label", text: entry.label }),
        h("span", { class: "entry-roll-summary" }),
        h("span", { class: "entry-roll-chance" }),
      );
      button.addEventListener("click", () => this.quickRoll(character, entry));
      buttons.append(h("li", {}, button));
    }
    // What each button rolls (the whole bonus) and its chance, as the engine builds the roll.
    this.sheetFacts(character).then((answer) => {
      if (answer.ok && buttons.isConnected) showEntryFacts(buttons, answer.result.entries);
    });
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

  /**
   * The efforts box, as the engine counts them (`effort` op, "check", with the sheet's
   * numbers as stored): a slot until it answers. A stored number the engine refuses is
   * said in the box; nothing here counts or bounds them.
   */
  renderEfforts(character, system) {
    const state = effortState(system, character);
    if (!state) return null;
    // An engine answer already given for these numbers (a rest, an effort spent by a roll): shown as is.
    const key = JSON.stringify(state.request("check"));
    const known = this.effortsKnown?.get(key);
    if (known) return this.effortsBox(character, system, { ok: true, result: known });
    const slot = h("div", { class: "efforts-slot" });
    this.sheetFacts(character).then((answer) => {
      const efforts = answer.ok ? { ok: true, result: answer.result.efforts } : answer;
      if (answer.ok) this.knowEfforts(character, system, answer.result.efforts);
      if (slot.isConnected) slot.replaceWith(this.effortsBox(character, system, efforts));
    });
    return slot;
  }

  /**
   * What the sheet shows beyond the stored numbers, from one `character` op call: its
   * efforts, and each entry's roll in words with its chance of success. Kept by the
   * sheet's text (an effort spent changes nothing of it), so a redraw asks nothing.
   */
  sheetFacts(character) {
    const key = factsKey(this.system(character.system), character);
    this.factsKnown ??= new Map();
    if (!this.factsKnown.has(key)) {
      if (this.factsKnown.size >= 32) this.factsKnown.clear();
      const asked = this.ctx.engine.call({ op: "character", character, lang: lang() });
      // A refusal is not kept: the next redraw asks again (the engine may have been busy booting).
      this.factsKnown.set(key, asked.then((answer) => (answer.ok || this.factsKnown.delete(key), answer)));
    }
    return this.factsKnown.get(key);
  }

  /** The engine's answer for a sheet it has just normalised (a save): the sheet needs no second call. */
  knowFacts(character, answer) {
    this.factsKnown ??= new Map();
    this.factsKnown.set(factsKey(this.system(character.system), character), Promise.resolve(answer));
  }

  /** Keep the engine's count of a sheet's efforts ({per_day, used, available}) for its numbers: no need to ask again. */
  knowEfforts(character, system, efforts) {
    const state = effortState(system, character);
    if (!state || !efforts) return;
    this.effortsKnown ??= new Map();
    if (this.effortsKnown.size >= 64) this.effortsKnown.clear();
    this.effortsKnown.set(JSON.stringify(state.request("check")), efforts);
  }

  /** The efforts box from an answer of the `effort` op ({per_day, used, available}). */
  effortsBox(character, system, answer) {
    const sheet = system.sheet.efforts_per_day;
    const title = h("p", { class: "efforts-title", text: pick(sheet.label) });
    if (!answer.ok) {
      return h("div", { class: "efforts", id: "efforts" }, h("div", { class: "efforts-text" }, title, h("p", { class: "form-error", id: "efforts-error", text: answer.error.message })));
    }
    const { per_day: perDay, used, available } = answer.result;
    const pips = h("span", { class: "effort-pips", "aria-hidden": "true" });
    for (let i = 0; i < perDay; i += 1) pips.append(h("span", { class: ["effort-pip", i < available ? "is-left" : "is-used"] }));
    const rest = h("button", { type: "button", class: "button", id: "efforts-rest", text: pick(sheet.restore) });
    rest.disabled = used === 0;
    rest.addEventListener("click", () => this.effortAction(character, "rest"));
    return h(
      "div",
      { class: "efforts", id: "efforts", dataset: { available: String(available), perDay: String(perDay) } },
      h("div", { class: "efforts-text" }, title, h("p", { class: "efforts-count", id: "efforts-count", text: t("efforts.count", { available, total: perDay }) }), pips),
      rest,
    );
  }

  renderSituation(character, system) {
    const values = (this.situations[character.id] ??= {});
    const fields = situationFields(system);
    const active = h("span", { class: "situation-active", id: "situation-active" });
    // What the situation changes, in the engine's words (asked as it is typed; drawn when in).
    if (!this.situationBriefs) {
      this.situationBriefs = new Briefs((request) => this.ctx.engine.call(request));
      this.situationBriefs.onChange(() => this.showSituation?.());
    }
    const showActive = () => {
      const { params } = this.situationForm.collect({ withFaces: false });
      const text = this.situationBriefs.text({ system: system.id, situation: params });
      active.textContent = text ? t("situation.active", { text }) : "";
      details.classList.toggle("is-active", Boolean(text));
    };
    this.showSituation = showActive;
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
    const play = this.ctx.play();
    if (!play?.sources || play.sources.system !== system.id) return null;
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

  /**
   * Sheet numbers (the sources op's fields the sheet holds) and the entry's own extras
   * (linked, specialty) into the sources form values; what is missing takes the op's default.
   */
  prefillSources(character, values, entryId, force = false) {
    const system = this.system(character.system);
    const play = this.ctx.play();
    const stats = character.stats || {};
    const held = new Set(statFields(system).map((f) => f.name));
    for (const field of play.sources.fields) {
      if (held.has(field.name) && (force || !(field.name in values))) values[field.name] = String(stats[field.name] ?? field.default ?? 0);
    }
    const entry = character.entries.find((e) => e.id === entryId);
    const extras = entry?.sources || {};
    for (const field of extraFields(system)) {
      if (force || !(field.name in values)) values[field.name] = extras[field.name] ?? field.default;
    }
  }

  applySources(result) {
    if (!this.situationForm) return;
    this.situationForm.load({ augmentations: result.augmentations, diminutions: result.diminutions, modifiers: result.modifiers || "" });
    this.situationForm.onInput("sit", "augmentations");
    this.ctx.announce(appliedText(result), () => appliedText(result));
    const box = document.getElementById("situation");
    if (box) box.open = true;
  }

}
