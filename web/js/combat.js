// The step-dice combat tracker (system `steps`, engine op `combat`).
//
// Participants come from saved characters or are made on the spot, each with Ardeur
// points. The turn order is a list the GM can reorder (clockwise from the GM's left);
// "Tour suivant" moves to the next participant still standing, and a new round starts
// after the last one. Each action (melee, ranged, ordinary conflict, skirmish) is one
// `combat` call; its losses are applied, knocked-out participants (Ardeur ≤ 0) are
// marked, a log line is kept, and every change can be undone (a stack of previous
// states). The fight lives in localStorage, so a reload does not lose it.

import { ardeurAfter, combatEntry, partsOf, turnWarning } from "./combat-record.js";
import { createDie, setFace } from "./dice.js";
import { playStage } from "./stage.js";
import { h, storageGet, storageSet } from "./dom.js";
import { SideForm } from "./forms.js";
import { lang, pick, t } from "./i18n.js";
import { rollParams, newId } from "./characters/sheet.js";
import { onOtherTab } from "./storage.js";
import { confirmAction, flash, switchControl } from "./ui.js";

const FIGHT_KEY = "pyrules:fight";
const UNDO_KEY = "pyrules:fight-undo";
const UNDO_MAX = 50;
const LOG_MAX = 300;
const SYSTEM = "steps";
const AUTO = "auto";

// Which entry a kind of action uses, by its label (accents and case ignored).
const SKILL_WORDS = {
  combat: ["combat", "melee", "fight", "epee", "arme"],
  bagarre: ["bagarre", "brawl", "mains nues", "unarmed", "pugilat"],
  tir: ["tir", "ranged", "shoot", "arc", "bow", "arbalete"],
};

function fold(text) {
  return String(text || "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

function findSkill(skills, kind) {
  const words = SKILL_WORDS[kind];
  return skills.find((s) => words.some((w) => fold(s.label).includes(w))) || null;
}

function emptyFight() {
  return { round: 1, turn: 0, participants: [], log: [] };
}

function validFight(value) {
  return value && typeof value === "object" && Array.isArray(value.participants) && Array.isArray(value.log) && Number.isInteger(value.round);
}

export class CombatView {
  constructor(ctx, root, characters) {
    this.ctx = ctx;
    this.root = root;
    this.characters = characters;
    const saved = storageGet(FIGHT_KEY, null);
    this.fight = validFight(saved) ? saved : emptyFight();
    const undo = storageGet(UNDO_KEY, []);
    this.undo = Array.isArray(undo) ? undo.filter(validFight) : [];
    this.action = { kind: "melee", concede: false, actor: null, target: null, actorSkill: AUTO, targetSkill: AUTO };
    this.quickValues = {};
    this.quickName = "";
    this.quickExtra = true;
    this.addChar = null;
    this.addOpen = !this.fight.participants.length;
    this.busy = false;
    this.last = null; // the last answer, for the dice card
    characters.onChange(() => {
      if (this.root.isConnected && !this.root.hidden) this.render();
    });
    // Another tab acted in the fight: take its state (one fight per device, the latest wins).
    onOtherTab(FIGHT_KEY, () => this.fromOtherTab());
  }

  fromOtherTab() {
    const saved = storageGet(FIGHT_KEY, null);
    this.fight = validFight(saved) ? saved : emptyFight();
    const undo = storageGet(UNDO_KEY, []);
    this.undo = Array.isArray(undo) ? undo.filter(validFight) : [];
    if (this.busy) return;
    if (this.root.isConnected && !this.root.hidden) this.render();
  }

  system() {
    return (this.ctx.systems() || []).find((s) => s.id === SYSTEM) || null;
  }

  save() {
    if (this.fight.log.length > LOG_MAX) this.fight.log.length = LOG_MAX;
    storageSet(FIGHT_KEY, this.fight);
    storageSet(UNDO_KEY, this.undo);
  }

  /** Remember the state before a change, so "Annuler" can bring it back. */
  checkpoint() {
    this.undo.push(structuredClone(this.fight));
    if (this.undo.length > UNDO_MAX) this.undo.splice(0, this.undo.length - UNDO_MAX);
  }

  participant(id) {
    return this.fight.participants.find((p) => p.id === id) || null;
  }

  standing() {
    return this.fight.participants.filter((p) => p.ardeur > 0);
  }

  current() {
    return this.fight.participants[this.fight.turn] || null;
  }

  // -------------------------------------------------------------------------- changes

  addCharacter(character) {
    const system = this.system();
    const skills = character.entries.map((entry) => ({ label: entry.label, params: rollParams(system, character, entry) }));
    if (!skills.length) skills.push({ label: "", params: {} });
    this.checkpoint();
    this.fight.participants.push({
      id: newId("p"),
      name: character.name,
      characterId: character.id,
      pc: Boolean(character.pc),
      extra: false,
      unarmed: false,
      ardeur: character.stats?.ardeur ?? 10,
      start: character.stats?.ardeur ?? 10,
      skills,
    });
    this.changed(t("combat.added", { name: character.name }));
  }

  async addQuick() {
    if (this.busy) return;
    const { params, errors } = this.quickForm.collect({ withFaces: false });
    if (errors.length) {
      for (const error of errors) this.quickForm.setError(error.field, error.message);
      this.quickForm.focusField(errors[0].field);
      return;
    }
    const { ardeur, ...skill } = params;
    // The engine judges the numbers (bounds) before anyone joins: the error sits by its field.
    this.busy = true;
    let answer;
    try {
      answer = await this.ctx.engine.call({ op: "combat", params: { kind: "melee" }, actor: { ...skill, ardeur }, opponent: {}, seed: 0, lang: lang() });
    } finally {
      this.busy = false;
    }
    if (!answer.ok) {
      const field = String(answer.error.field || "").replace(/^actor\./, "");
      if (field && this.quickForm.setError(field, answer.error.message)) this.quickForm.focusField(field);
      else flash(this.error, answer.error.message, "error");
      return;
    }
    const name = this.quickName.trim() || t("combat.quickDefault", { n: this.fight.participants.length + 1 });
    this.checkpoint();
    this.fight.participants.push({ id: newId("p"), name, characterId: null, pc: false, extra: this.quickExtra, unarmed: false, ardeur, start: ardeur, skills: [{ label: "", params: skill }] });
    this.quickName = "";
    this.changed(t("combat.added", { name }));
    document.getElementById("combat-quick-name")?.focus();
  }

  remove(participant) {
    this.checkpoint();
    const index = this.fight.participants.indexOf(participant);
    this.fight.participants.splice(index, 1);
    if (this.fight.turn > index || this.fight.turn >= this.fight.participants.length) this.fight.turn = Math.max(0, this.fight.turn - 1);
    this.changed(t("combat.removed", { name: participant.name }));
  }

  move(participant, delta) {
    const list = this.fight.participants;
    const index = list.indexOf(participant);
    const next = index + delta;
    if (next < 0 || next >= list.length) return;
    this.checkpoint();
    const current = this.current();
    list.splice(index, 1);
    list.splice(next, 0, participant);
    this.fight.turn = Math.max(0, list.indexOf(current));
    this.changed(t("combat.moved", { name: participant.name, n: next + 1 }), `[data-id="${CSS.escape(participant.id)}"] .fighter-${delta < 0 ? "up" : "down"}`);
  }

  adjust(participant, delta) {
    this.checkpoint();
    participant.ardeur += delta;
    this.changed(t("combat.adjusted", { name: participant.name, ardeur: participant.ardeur }), `[data-id="${CSS.escape(participant.id)}"] .fighter-${delta < 0 ? "minus" : "plus"}`);
  }

  toggleUnarmed(participant) {
    this.checkpoint();
    participant.unarmed = !participant.unarmed;
    this.changed(t(participant.unarmed ? "combat.nowUnarmed" : "combat.nowArmed", { name: participant.name }), `[data-id="${CSS.escape(participant.id)}"] .fighter-unarmed`);
  }

  nextTurn() {
    const list = this.fight.participants;
    if (!list.length) return;
    this.checkpoint();
    let turn = this.fight.turn;
    let round = this.fight.round;
    for (let step = 0; step < list.length; step += 1) {
      turn += 1;
      if (turn >= list.length) {
        turn = 0;
        round += 1;
      }
      if (list[turn].ardeur > 0) break;
    }
    this.fight.turn = turn;
    this.fight.round = round;
    this.action.actor = null;
    this.action.target = null;
    this.keptTarget = null;
    this.changed(t("combat.turnOf", { name: list[turn].name, round }), "#combat-next");
  }

  undoLast() {
    const previous = this.undo.pop();
    if (!previous) return;
    this.fight = previous;
    this.last = null;
    this.changed(t("combat.undone"), "#combat-undo");
  }

  async reset() {
    const ok = await confirmAction({ title: t("combat.resetTitle"), text: t("combat.resetText"), confirm: t("combat.reset") });
    if (!ok) return;
    this.checkpoint();
    this.fight = { ...emptyFight(), participants: this.fight.participants.map((p) => ({ ...p, ardeur: p.start })) };
    this.last = null;
    this.changed(t("combat.restarted"), "#combat-reset");
  }

  async clearAll() {
    const ok = await confirmAction({ title: t("combat.clearTitle"), text: t("combat.clearText"), confirm: t("combat.clear") });
    if (!ok) return;
    this.checkpoint();
    this.fight = emptyFight();
    this.last = null;
    this.changed(t("combat.cleared"), "#combat-clear");
  }

  changed(message, focus) {
    this.save();
    this.render();
    if (message) this.ctx.announce(message);
    if (focus) this.root.querySelector(focus)?.focus();
  }

  // -------------------------------------------------------------------------- actions

  /** The skill a participant uses for this kind of action (or the one picked by hand). */
  skillFor(participant, kind, choice) {
    const skills = participant.skills;
    if (choice !== AUTO && skills[Number(choice)]) return skills[Number(choice)];
    let found;
    if (kind === "ranged") found = findSkill(skills, "tir");
    else if (kind === "melee" && participant.unarmed) found = findSkill(skills, "bagarre");
    found ??= findSkill(skills, "combat");
    return found || skills[0];
  }

  async resolve() {
    if (this.busy) return;
    const actor = this.participant(this.action.actor);
    const target = this.participant(this.action.target);
    if (!actor || !target || actor === target) {
      flash(this.error, t("combat.pickBoth"), "error");
      return;
    }
    const kind = this.action.kind;
    const actorSkill = this.skillFor(actor, kind, this.action.actorSkill);
    const targetSkill = this.skillFor(target, kind, this.action.targetSkill);
    const request = {
      op: "combat",
      params: { kind, concede: kind === "conflict" && this.action.concede },
      actor: { ...actorSkill.params, ardeur: actor.ardeur },
      opponent: { ...targetSkill.params, ardeur: target.ardeur },
      lang: lang(),
    };
    const seed = this.ctx.takeSeed();
    if (seed !== undefined) request.seed = seed;
    this.busy = true;
    let answer;
    try {
      answer = await this.ctx.engine.call(request);
    } finally {
      this.busy = false;
    }
    if (!answer.ok) {
      flash(this.error, t("combat.error", { message: answer.error.message }), "error");
      return;
    }
    const result = answer.result;
    this.checkpoint();
    const before = { actor: actor.ardeur, target: target.ardeur };
    actor.ardeur = result.actor.ardeur;
    target.ardeur = result.opponent.ardeur;
    const entry = {
      id: newId("l"),
      time: new Date().toISOString(),
      round: this.fight.round,
      kind,
      concede: request.params.concede,
      actor: actor.name,
      target: target.name,
      actorId: actor.id,
      targetId: target.id,
      actorSkill: actorSkill.label,
      targetSkill: kind === "ranged" ? null : targetSkill.label,
      winner: result.winner,
      margin: result.margin,
      actorLoss: result.actor.loss,
      targetLoss: result.opponent.loss,
      actorArdeur: [before.actor, actor.ardeur],
      targetArdeur: [before.target, target.ardeur],
      knockedOut: [result.actor.knocked_out && before.actor > 0 ? actor.name : null, result.opponent.knocked_out && before.target > 0 ? target.name : null].filter(Boolean),
      seed: result.seed,
      explanations: result.explanations,
      rolls: result.rolls.map((roll) => ({ sides: roll.dice.map((d) => d.sides), faces: roll.dice.map((d) => d.final), tags: roll.dice.map((d) => d.tags), total: roll.total, bonus: roll.params.bonus, parts: partsOf(roll) })),
    };
    this.fight.log.unshift(entry);
    this.last = entry;
    // "Contre qui" stays on the one just fought, even knocked out (a skirmish puts the extras out).
    this.keptTarget = target.id;
    this.save();
    const record = combatEntry({ request, result, actor, target, actorSkill, targetSkill });
    if (this.ctx.history.add(record.entry)) this.ctx.recordLuck(record.entry, record.luckResult);
    this.render();
    document.getElementById("combat-resolve")?.focus();
    const dice = result.rolls.flatMap((roll, i) => roll.dice.map((d) => ({ sides: d.sides, face: d.final, kind: d.kind, side: i ? "opponent" : "actor" })));
    const verdict = h("div", { class: "verdict", dataset: { winner: result.winner } }, this.logText(entry).slice(0, 2).map((line, i) => h("p", { class: i ? "verdict-margin" : "verdict-winner", text: line })));
    // The outcome card stays hidden, and nothing is announced, until the dice have landed.
    const last = document.getElementById("combat-last");
    last?.classList.add("stage-pending");
    playStage({ dice, verdict, detail: last }, () => {
      last?.classList.remove("stage-pending");
      this.ctx.announce(this.logText(entry).join(" "));
    });
  }

  /** The sentences of a log entry, in the current language. */
  logText(entry) {
    const lines = [];
    const winnerName = entry.winner === "actor" ? entry.actor : entry.target;
    const loserName = entry.winner === "actor" ? entry.target : entry.actor;
    const loss = (name, n, [from, to]) => t("combat.log.loss", { name, n, from, to });
    if (entry.kind === "ranged") {
      lines.push(entry.winner === "actor" ? t("combat.log.hit", { actor: entry.actor, target: entry.target, n: entry.targetLoss }) : t("combat.log.miss", { actor: entry.actor, target: entry.target }));
      if (entry.targetLoss) lines.push(loss(entry.target, entry.targetLoss, entry.targetArdeur));
    } else if (entry.kind === "skirmish") {
      lines.push(t(entry.winner === "actor" ? "combat.log.skirmishWon" : "combat.log.skirmishTwist", { actor: entry.actor, target: entry.target }));
      lines.push(t("combat.log.heroSafe", { actor: entry.actor }));
    } else if (entry.winner === "tie") {
      lines.push(t("combat.log.tie"));
    } else {
      lines.push(t("combat.log.wins", { name: winnerName, margin: entry.margin }));
      if (entry.concede) lines.push(t("combat.log.conceded", { name: loserName }));
      if (entry.actorLoss) lines.push(loss(entry.actor, entry.actorLoss, entry.actorArdeur));
      if (entry.targetLoss) lines.push(loss(entry.target, entry.targetLoss, entry.targetArdeur));
    }
    for (const name of entry.knockedOut) lines.push(t("combat.log.out", { name }));
    return lines;
  }

  // -------------------------------------------------------------------------- rendering

  render() {
    const system = this.system();
    const table = this.ctx.table();
    if (!system || !table?.combat) {
      this.root.replaceChildren(h("p", { class: "view-loading", text: t("form.loading") }));
      return;
    }
    const list = this.fight.participants;
    if (this.fight.turn >= list.length) this.fight.turn = 0;
    this.root.replaceChildren(h("div", { class: "combat-layout" }, this.renderOrder(system, table), this.renderAction(system, table)), this.renderLog());
  }

  renderOrder(system, table) {
    const fight = this.fight;
    const next = h("button", { type: "button", class: ["button", "button--primary"], id: "combat-next", text: t("combat.next") });
    next.disabled = !fight.participants.some((p) => p.ardeur > 0);
    next.addEventListener("click", () => this.nextTurn());
    const undo = h("button", { type: "button", class: "button", id: "combat-undo", text: t("combat.undo") });
    undo.disabled = !this.undo.length;
    undo.addEventListener("click", () => this.undoLast());
    const reset = h("button", { type: "button", class: "button", id: "combat-reset", text: t("combat.reset") });
    reset.disabled = !fight.participants.length;
    reset.addEventListener("click", () => this.reset());
    const clear = h("button", { type: "button", class: ["button", "button--danger"], id: "combat-clear", text: t("combat.clear") });
    clear.disabled = !fight.participants.length && !fight.log.length;
    clear.addEventListener("click", () => this.clearAll());
    const order = h("ol", { class: "combat-order", id: "combat-order", "aria-labelledby": "combat-order-title" });
    fight.participants.forEach((p, index) => order.append(this.renderFighter(p, index)));
    if (!fight.participants.length) order.append(h("li", { class: "char-empty", text: t("combat.empty") }));
    return h(
      "section",
      { class: ["panel", "combat-order-panel"], "aria-labelledby": "combat-title" },
      h(
        "div",
        { class: "panel-head" },
        h("h2", { class: "panel-title", id: "combat-title", text: t("combat.title") }),
        h("p", { class: "combat-round", id: "combat-round", dataset: { round: fight.round }, text: t("combat.round", { n: fight.round }) }),
      ),
      h("div", { class: "combat-tools" }, next, undo, reset, clear),
      h("h3", { class: "sheet-subtitle", id: "combat-order-title", text: t("combat.order") }),
      h("p", { class: "panel-hint", text: t("combat.orderHint") }),
      order,
      this.renderAdd(system, table),
    );
  }

  renderFighter(p, index) {
    const isTurn = index === this.fight.turn && p.ardeur > 0;
    const out = p.ardeur <= 0;
    const meter = h("span", { class: "ardeur-meter", "aria-hidden": "true" }, h("span", { class: "ardeur-fill" }));
    const ratio = p.start > 0 ? Math.max(0, Math.min(1, p.ardeur / p.start)) : 0;
    meter.firstChild.style.width = `${(ratio * 100).toFixed(1)}%`;
    const tool = (cls, text, label, action, disabled = false) => {
      const button = h("button", { type: "button", class: ["button", "button--small", "fighter-tool", cls], "aria-label": label, title: label, text });
      button.disabled = disabled;
      button.addEventListener("click", action);
      return button;
    };
    const list = this.fight.participants;
    const unarmed = tool("fighter-unarmed", t(p.unarmed ? "combat.unarmedShort" : "combat.armedShort"), t("combat.unarmedLabel", { name: p.name }), () => this.toggleUnarmed(p));
    unarmed.setAttribute("aria-pressed", String(p.unarmed));
    return h(
      "li",
      { class: ["fighter", isTurn ? "is-turn" : "", out ? "is-out" : ""], dataset: { id: p.id, ardeur: p.ardeur, out: String(out) }, "aria-current": isTurn ? "step" : null },
      h(
        "div",
        { class: "fighter-main" },
        h(
          "p",
          { class: "fighter-name" },
          h("span", { class: "fighter-index", text: `${index + 1}.` }),
          h("span", { class: "fighter-label", text: p.name }),
          isTurn ? h("span", { class: ["tag", "tag--turn"], text: t("combat.turnChip") }) : null,
          p.extra ? h("span", { class: "tag", text: t("combat.extra") }) : null,
          out ? h("span", { class: ["tag", "tag--out"], text: t("combat.out") }) : null,
        ),
        h("p", { class: "fighter-ardeur" }, h("span", { class: "fighter-ardeur-text", text: t("combat.ardeur", { n: p.ardeur, max: p.start }) }), meter),
      ),
      h(
        "div",
        { class: "fighter-tools" },
        tool("fighter-minus", "−1", t("combat.minusLabel", { name: p.name }), () => this.adjust(p, -1)),
        tool("fighter-plus", "+1", t("combat.plusLabel", { name: p.name }), () => this.adjust(p, 1)),
        unarmed,
        tool("fighter-up", "↑", t("combat.upLabel", { name: p.name }), () => this.move(p, -1), index === 0),
        tool("fighter-down", "↓", t("combat.downLabel", { name: p.name }), () => this.move(p, 1), index === list.length - 1),
        tool("fighter-remove", "✕", t("combat.removeLabel", { name: p.name }), () => this.remove(p)),
      ),
    );
  }

  renderAdd(system, table) {
    const fromSheets = this.characters.characters.filter((c) => c.system === SYSTEM);
    const select = h("select", { id: "combat-add-char" });
    for (const character of fromSheets) {
      const option = h("option", { value: character.id, text: character.name });
      option.selected = character.id === this.addChar;
      select.append(option);
    }
    select.disabled = !fromSheets.length;
    select.addEventListener("change", () => (this.addChar = select.value));
    const addChar = h("button", { type: "button", class: "button", id: "combat-add-char-button", text: t("combat.addCharacter") });
    addChar.disabled = !fromSheets.length;
    addChar.addEventListener("click", () => {
      const character = this.characters.byId(select.value);
      if (character) {
        this.addChar = character.id;
        this.addCharacter(character);
        document.getElementById("combat-add-char-button")?.focus();
      }
    });
    const fields = ["die", "threshold", "bonus"].map((name) => system.fields.find((f) => f.name === name)).filter(Boolean);
    this.quickForm = new SideForm({ side: "quick", system: { id: SYSTEM, fields: [...table.combat.participant, ...fields], outcomes: [] }, values: this.quickValues, ui: {}, onInput: () => {} });
    const name = h("input", { type: "text", id: "combat-quick-name", maxlength: 60, autocomplete: "off", placeholder: t("combat.quickDefault", { n: this.fight.participants.length + 1 }) });
    name.value = this.quickName;
    name.addEventListener("input", () => (this.quickName = name.value));
    const extra = switchControl({ id: "combat-quick-extra", label: t("combat.extraLabel"), checked: this.quickExtra, onChange: (on) => (this.quickExtra = on) });
    const addQuick = h("button", { type: "button", class: "button", id: "combat-add-quick", text: t("combat.addQuick") });
    addQuick.addEventListener("click", () => this.addQuick());
    const details = h(
      "details",
      { class: "combat-add", id: "combat-add", open: this.addOpen },
      h("summary", { text: t("combat.addTitle") }),
      h(
        "div",
        { class: "combat-add-body" },
        h(
          "div",
          { class: "combat-add-row" },
          h("div", { class: "field" }, h("label", { for: "combat-add-char", class: "field-label", text: t("combat.fromCharacter") }), select),
          addChar,
        ),
        fromSheets.length ? null : h("p", { class: "help", text: t("combat.noStepsCharacters") }),
        h("h4", { class: "sources-subtitle", text: t("combat.quickTitle") }),
        h("div", { class: "field" }, h("label", { for: "combat-quick-name", class: "field-label", text: t("editor.name") }), name),
        this.quickForm.element,
        extra.row,
        addQuick,
      ),
    );
    details.addEventListener("toggle", () => (this.addOpen = details.open));
    return details;
  }

  renderAction(system, table) {
    const standing = this.standing();
    const current = this.current();
    if (!this.participant(this.action.actor) || this.participant(this.action.actor).ardeur <= 0) {
      this.action.actor = current && current.ardeur > 0 ? current.id : standing[0]?.id ?? null;
    }
    const target = this.participant(this.action.target);
    const kept = (p) => p.ardeur > 0 || p.id === this.keptTarget;
    if (!target || !kept(target) || target.id === this.action.actor) {
      this.action.target = standing.find((p) => p.id !== this.action.actor)?.id ?? null;
    }
    const select = (id, value, options, onChange) => {
      const node = h("select", { id });
      for (const [optionValue, text] of options) {
        const option = h("option", { value: optionValue, text });
        option.selected = optionValue === value;
        node.append(option);
      }
      node.addEventListener("change", () => onChange(node.value));
      return node;
    };
    const actorSelect = select("combat-actor", this.action.actor, standing.map((p) => [p.id, p.name]), (v) => {
      this.action.actor = v;
      this.action.actorSkill = AUTO;
      this.render();
      document.getElementById("combat-actor")?.focus();
    });
    const targets = this.fight.participants.filter((p) => p.id !== this.action.actor && kept(p));
    const targetSelect = select("combat-target", this.action.target, targets.map((p) => [p.id, p.ardeur > 0 ? p.name : t("combat.outShort", { name: p.name })]), (v) => {
      this.action.target = v;
      this.action.targetSkill = AUTO;
      this.render();
      document.getElementById("combat-target")?.focus();
    });
    const kindField = table.combat.fields.find((f) => f.name === "kind");
    const kinds = h("fieldset", { class: ["segmented", "combat-kinds"] }, h("legend", { class: "field-label", text: pick(kindField.label) }));
    const row = h("div", { class: "segmented-options" });
    for (const choice of kindField.choices) {
      const id = `combat-kind-${choice.value}`;
      const radio = h("input", { type: "radio", name: "combat-kind", id, value: choice.value, class: "visually-hidden" });
      radio.checked = choice.value === this.action.kind;
      radio.addEventListener("change", () => {
        if (!radio.checked) return;
        this.action.kind = choice.value;
        this.render();
        document.getElementById(id)?.focus();
      });
      row.append(radio, h("label", { for: id, text: pick(choice.label) }));
    }
    kinds.append(row);
    const concedeField = table.combat.fields.find((f) => f.name === "concede");
    const concede = switchControl({ id: "combat-concede", label: pick(concedeField.label), checked: this.action.concede, onChange: (on) => (this.action.concede = on), describedBy: "combat-concede-help" });
    const concedeBox = h("div", { class: "combat-concede" }, concede.row, h("p", { class: "help", id: "combat-concede-help", text: pick(concedeField.help) }));
    concedeBox.hidden = this.action.kind !== "conflict";
    const skillSelect = (side, participant) => {
      if (!participant) return null;
      const key = side === "actor" ? "actorSkill" : "targetSkill";
      const auto = this.skillFor(participant, this.action.kind, AUTO);
      const options = [[AUTO, t("combat.skillAuto", { label: auto.label || t("combat.baseSkill") })], ...participant.skills.map((s, i) => [String(i), s.label || t("combat.baseSkill")])];
      const id = `combat-${side}-skill`;
      return h("div", { class: "field" }, h("label", { for: id, class: "field-label", text: t(side === "actor" ? "combat.actorSkill" : "combat.targetSkill") }), select(id, this.action[key], options, (v) => (this.action[key] = v)));
    };
    const actor = this.participant(this.action.actor);
    const targetP = this.participant(this.action.target);
    const resolve = h("button", { type: "button", class: "roll-button", id: "combat-resolve", text: t("combat.resolve") });
    resolve.disabled = !actor || !targetP;
    resolve.addEventListener("click", () => this.resolve());
    this.error = h("p", { class: "form-error", id: "combat-error", role: "alert", hidden: true });
    const warning = actor ? turnWarning(this.fight, actor.id) : "";
    const hint = t(`combat.hint.${this.action.kind}`);
    return h(
      "section",
      { class: ["panel", "combat-action-panel"], "aria-labelledby": "combat-action-title" },
      h("h2", { class: "panel-title", id: "combat-action-title", text: t("combat.action") }),
      standing.length < 2 ? h("p", { class: "panel-hint", text: t("combat.needTwo") }) : null,
      h(
        "div",
        { class: "combat-pick" },
        h("div", { class: "field" }, h("label", { for: "combat-actor", class: "field-label", text: t("combat.actor") }), actorSelect),
        h("div", { class: "field" }, h("label", { for: "combat-target", class: "field-label", text: t("combat.target") }), targetSelect),
      ),
      kinds,
      h("p", { class: "panel-hint combat-kind-hint", text: hint }),
      concedeBox,
      h("div", { class: "combat-pick" }, skillSelect("actor", actor), this.action.kind === "ranged" ? null : skillSelect("target", targetP)),
      warning ? h("p", { class: "combat-warning", id: "combat-warning", role: "status", text: warning }) : null,
      resolve,
      this.error,
      this.renderLast(),
    );
  }

  renderLast() {
    const entry = this.last && this.fight.log[0] === this.last ? this.last : null;
    const box = h("div", { class: "combat-last", id: "combat-last", "aria-live": "off" });
    if (!entry) return box;
    const names = [entry.actor, entry.target];
    const sides = entry.rolls.map((roll, i) => {
      const dice = roll.faces.map((face, j) => {
        const die = createDie(roll.sides[j], "normal");
        setFace(die, face);
        if ((roll.tags[j] || []).includes("dropped")) die.classList.add("is-dropped");
        return die;
      });
      return h(
        "div",
        { class: "combat-roll", dataset: { side: i === 0 ? "actor" : "opponent", faces: roll.faces.join(","), total: roll.total } },
        h("p", { class: "combat-roll-name", text: names[i] }),
        h("div", { class: "combat-roll-dice" }, dice),
        h("p", { class: "combat-roll-total", text: t("combat.total", { total: roll.total }) }),
        roll.parts ? h("p", { class: "combat-roll-parts", text: pick(roll.parts) }) : null,
      );
    });
    box.dataset.winner = entry.winner;
    box.append(
      h("div", { class: "combat-rolls" }, sides),
      h("ul", { class: "combat-last-text" }, this.logText(entry).map((line) => h("li", { text: line }))),
      ardeurAfter(this.fight, entry) || "",
    );
    return box;
  }

  renderLog() {
    const items = this.fight.log.map((entry) =>
      h(
        "li",
        { class: ["combat-log-entry", `kind--${entry.kind}`], dataset: { kind: entry.kind, winner: entry.winner } },
        h("p", { class: "combat-log-head" }, h("span", { class: "tag", text: t("combat.roundShort", { n: entry.round }) }), h("strong", { text: t(`combat.kind.${entry.kind}`, { actor: entry.actor, target: entry.target }) })),
        h("p", { class: "combat-log-text", text: this.logText(entry).join(" ") }),
        h("details", { class: "explanation" }, h("summary", { text: t("result.explanation") }), h("ol", {}, (pick(entry.explanations) || []).map((line) => h("li", { text: line })))),
      ),
    );
    return h(
      "section",
      { class: ["panel", "combat-log-panel"], "aria-labelledby": "combat-log-title" },
      h("h2", { class: "panel-title", id: "combat-log-title", text: t("combat.log.title") }),
      h("ol", { class: "combat-log", id: "combat-log" }, items.length ? items : h("li", { class: "char-empty", text: t("combat.log.empty") })),
    );
  }
}
