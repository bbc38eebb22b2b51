// Opposed rolls between saved characters (or a character and a quick NPC), for any system.
// Ties follow the engine's `oppose` rules: in d6 a PC beats an NPC on a tie (each side's
// `pc` comes from the character), other ties are rerolled and each reroll is shown.

import { h } from "../lib/dom.js";
import { SideForm } from "../widgets/forms.js";
import { colon, lang, pick, t } from "../lib/i18n.js";
import { renderOppose } from "../widgets/result.js";
import { sheetRoll } from "./quick.js";
import { flash, switchControl } from "../ui/ui.js";
import { showRolled } from "../widgets/result-card.js";
import "../widgets/strings.js";
import "../ui/strings.js";

const NPC = "npc";
const SIDES = ["actor", "opponent"];

export class OppositionPanel {
  constructor(ctx, characters) {
    this.ctx = ctx;
    this.characters = characters; // the CharactersView
    this.choice = { actor: { char: null, entry: null }, opponent: { char: null, entry: null } };
    this.npcValues = {}; // system id -> raw values of the quick NPC
    this.npcName = "";
    this.physical = false;
    this.faces = { actor: {}, opponent: {} };
    this.element = h("section", { class: ["panel", "oppc-panel"], id: "oppc", "aria-labelledby": "oppc-title" });
    ctx.store.subscribe(["characters"], () => {
      if (this.element.isConnected) this.render();
    });
  }

  list() {
    return this.characters.characters;
  }

  /** Open the panel with this character as the actor. */
  startWith(character) {
    this.choice.actor = { char: character.id, entry: character.entries[0]?.id ?? null };
    this.choice.opponent = { char: null, entry: null };
    this.render();
    this.element.scrollIntoView({ block: "start", behavior: "auto" });
    document.getElementById("oppc-opponent-char")?.focus({ preventScroll: true });
  }

  /** Keep the choices valid: same system on both sides, existing entries. */
  normalize() {
    const list = this.list();
    const actor = this.choice.actor;
    let actorChar = list.find((c) => c.id === actor.char);
    if (!actorChar) {
      actorChar = list.find((c) => c.id === this.characters.selectedId) || list[0] || null;
      actor.char = actorChar?.id ?? null;
      actor.entry = null;
    }
    if (actorChar && !actorChar.entries.some((e) => e.id === actor.entry)) actor.entry = actorChar.entries[0]?.id ?? null;
    const opponent = this.choice.opponent;
    // The opponents: the other characters of the actor's system (never the actor itself).
    const same = list.filter((c) => actorChar && c.system === actorChar.system && c.id !== actorChar.id);
    let oppChar = opponent.char === NPC ? null : same.find((c) => c.id === opponent.char);
    if (opponent.char !== NPC && !oppChar) {
      oppChar = same[0] || null;
      opponent.char = oppChar ? oppChar.id : NPC;
      opponent.entry = null;
    }
    if (oppChar && !oppChar.entries.some((e) => e.id === opponent.entry)) opponent.entry = oppChar.entries[0]?.id ?? null;
    return { actorChar, oppChar };
  }

  render() {
    const box = this.element;
    const title = h("h2", { class: "panel-title", id: "oppc-title", text: t("oppc.title") });
    const list = this.list();
    if (!list.length) {
      box.replaceChildren(title, h("p", { class: "panel-hint", text: t("oppc.needCharacter") }));
      return;
    }
    const { actorChar, oppChar } = this.normalize();
    const system = this.characters.system(actorChar.system);
    if (!system) {
      box.replaceChildren(title);
      return;
    }
    this.system = system;
    this.facesForms = {};
    const sides = h("div", { class: "oppc-sides" });
    for (const side of SIDES) sides.append(this.renderSide(side, system, side === "actor" ? actorChar : oppChar));
    const physical = switchControl({
      id: "oppc-physical",
      label: t("physical.label"),
      checked: this.physical,
      onChange: (on) => {
        this.physical = on;
        this.render();
        document.getElementById("oppc-physical")?.focus();
      },
    });
    const roll = h("button", { type: "button", class: "roll-button", id: "oppc-roll", text: t("roll.opposeButton") });
    roll.addEventListener("click", () => this.roll());
    this.error = h("p", { class: "form-error", id: "oppc-error", role: "alert", hidden: true });
    this.result = h("div", { class: "oppc-result", id: "oppc-result" });
    box.replaceChildren(
      title,
      h("p", { class: "panel-hint", text: t("oppc.hint", { system: pick(system.name) }) }),
      sides,
      h("div", { class: "oppc-row" }, physical.row, roll),
      this.error,
      this.result,
    );
    if (this.physical) this.refreshFaces();
  }

  renderSide(side, system, character) {
    const choice = this.choice[side];
    const list = this.list();
    const charId = `oppc-${side}-char`;
    const select = h("select", { id: charId });
    const actorId = this.choice.actor.char;
    const candidates = side === "actor" ? list : list.filter((c) => c.system === system.id && c.id !== actorId);
    for (const candidate of candidates) {
      const option = h("option", { value: candidate.id, text: side === "actor" ? `${candidate.name} — ${pick(this.characters.system(candidate.system)?.name)}` : candidate.name });
      option.selected = candidate.id === choice.char;
      select.append(option);
    }
    if (side === "opponent") {
      const option = h("option", { value: NPC, text: t("oppc.quickNpc") });
      option.selected = choice.char === NPC;
      select.append(option);
    }
    select.addEventListener("change", () => {
      choice.char = select.value;
      choice.entry = null;
      this.render();
      document.getElementById(charId)?.focus();
    });
    const parts = [h("h3", { class: "oppc-side-title", text: t(side === "actor" ? "form.actor" : "form.opponent") }), h("div", { class: "field" }, h("label", { for: charId, class: "field-label", text: t("oppc.character") }), select)];
    if (character) {
      const entryId = `oppc-${side}-entry`;
      const entries = h("select", { id: entryId });
      for (const entry of character.entries) {
        const option = h("option", { value: entry.id, text: entry.label });
        option.selected = entry.id === choice.entry;
        entries.append(option);
      }
      entries.disabled = !character.entries.length;
      entries.addEventListener("change", () => {
        choice.entry = entries.value;
        if (this.physical) this.refreshFaces();
      });
      parts.push(h("div", { class: "field" }, h("label", { for: entryId, class: "field-label", text: t("oppc.entry") }), entries));
      if (!character.entries.length) parts.push(h("p", { class: "help", text: t("chars.noEntries") }));
    } else {
      const name = h("input", { type: "text", id: "oppc-npc-name", maxlength: 60, autocomplete: "off", placeholder: t("oppc.quickNpc") });
      name.value = this.npcName;
      name.addEventListener("input", () => (this.npcName = name.value));
      parts.push(h("div", { class: "field" }, h("label", { for: "oppc-npc-name", class: "field-label", text: t("oppc.npcName") }), name));
      const values = (this.npcValues[system.id] ??= system.fields.some((f) => f.name === "pc") ? { pc: false } : {});
      this.npcForm = new SideForm({
        side: "npc",
        system: { id: system.id, fields: system.fields.filter((f) => f.type !== "faces"), outcomes: system.outcomes },
        values,
        ui: {},
        onInput: () => {
          if (this.physical) this.refreshFaces();
        },
      });
      parts.push(this.npcForm.element);
    }
    if (this.physical) {
      const facesForm = new SideForm({
        side: `oppc-${side}`,
        system: { id: system.id, fields: system.fields.filter((f) => f.type === "faces"), outcomes: [] },
        values: (this.faces[side][system.id] ??= {}),
        ui: {},
        onInput: () => {},
      });
      facesForm.setPhysical(true);
      this.facesForms[side] = facesForm;
      parts.push(facesForm.element);
    }
    return h("section", { class: ["oppc-side", `oppc-side--${side}`], dataset: { side } }, ...parts);
  }

  /** Params of one side without faces: {params, who} or {error}. */
  sideParams(side) {
    const system = this.system;
    const choice = this.choice[side];
    if (choice.char === NPC) {
      const { params, errors } = this.npcForm.collect({ withFaces: false });
      if (errors.length) {
        for (const error of errors) this.npcForm.setError(error.field, error.message);
        return { error: errors[0].message, focus: () => this.npcForm.focusField(errors[0].field) };
      }
      const name = this.npcName.trim() || t("oppc.quickNpc");
      return { params, who: { id: null, name, label: "" } };
    }
    const character = this.characters.byId(choice.char);
    const entry = character?.entries.find((e) => e.id === choice.entry);
    if (!character || !entry) return { error: t("oppc.pickEntry") };
    // The contract's sheet roll: the engine builds this side's params from the sheet.
    return { params: sheetRoll(character, entry), who: { id: character.id, name: character.name, label: entry.label }, character };
  }

  /** The dice each side's faces boxes ask for: one `dice` call for both sides (or the one side picked). */
  async refreshFaces() {
    const system = this.system;
    const ready = SIDES.map((side) => [side, this.sideParams(side)]).filter(([side, got]) => this.facesForms[side] && !got.error);
    if (!ready.length) return;
    const both = ready.length === 2;
    const request = both ? { op: "dice", system: system.id, actor: ready[0][1].params, opponent: ready[1][1].params } : { op: "dice", system: system.id, params: ready[0][1].params };
    const answer = await this.ctx.engine.call({ ...request, lang: lang() });
    if (!answer.ok) return;
    for (const [side] of ready) {
      const form = this.facesForms[side];
      if (form.element.isConnected) form.setDiceGroups(both ? answer.result[side].groups : answer.result.groups);
    }
  }

  async roll() {
    if (this.ctx.pipeline.rolling("opposition")) return; // a second tap: the roll in flight is the one
    this.error.hidden = true;
    const system = this.system;
    const sides = {};
    for (const side of SIDES) {
      const got = this.sideParams(side);
      if (got.error) {
        flash(this.error, got.error, "error");
        got.focus?.();
        return;
      }
      sides[side] = got;
    }
    const request = { op: "oppose", system: system.id, actor: sides.actor.params, opponent: sides.opponent.params, lang: lang() };
    if (this.physical) {
      // The faces typed for each side go beside its params (a sheet too): the engine builds
      // the params, checks the faces against them and spends an effort, in the one call.
      for (const side of SIDES) {
        const { params: faces, errors } = this.facesForms[side].collect({ withFaces: true });
        if (errors.length) {
          for (const error of errors) this.facesForms[side].setError(error.field, error.message);
          this.facesForms[side].focusField(errors[0].field);
          return;
        }
        request[side] = { ...request[side], ...faces };
      }
    }
    const names = { actor: sides.actor.who.name, opponent: sides.opponent.who.name };
    const done = await this.ctx.pipeline.roll(request, { actor: sides.actor.who, opponent: sides.opponent.who }, {
      origin: "opposition",
      physical: this.physical,
      present: async ({ answer }) => {
        // A sheet whose effort the engine spent comes back with the answer: stored.
        for (const side of SIDES) if (answer.result[side]?.character) await this.characters.keepSpent(answer.result[side].character, answer.result[side].efforts);
        const view = renderOppose(system, answer.result, { names });
        this.result.dataset.winner = answer.result.winner;
        return new Promise((resolve) => showRolled(this.result, view, { announce: (text, again) => this.ctx.announce(text, again), onLanded: resolve }));
      },
    });
    if (done && !done.answer.ok) this.refused(done.answer.error, sides);
  }

  /** A refused opposition: the error by its faces field, else on the error line with the side's name. */
  refused(error, sides) {
    const field = error.field || "";
    const [side, ...rest] = field.split(".");
    const name = sides[side]?.who.name;
    const form = side && this.physical ? this.facesForms[side] : null;
    if (!(form && form.setError(rest.join("."), error.message))) {
      flash(this.error, name ? `${name}${colon()}${error.message}` : error.message, "error");
    }
  }
}

