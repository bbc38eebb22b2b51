// The step-dice combat tracker (system `steps`, engine ops `fight` and `combat`).
//
// Participants come from saved characters or are made on the spot, each with Ardeur
// points. The turn order is a list the GM can reorder (clockwise from the GM's left).
// The page keeps the fight; the engine judges it: after every change the state goes to the
// `fight` op, and the tracker shows it with that answer (kept in `judged`): who is out,
// whose turn it is, where "Tour suivant" goes, which entry fights, the turn warnings.
// Each action (melee, ranged, ordinary conflict, skirmish) is one `combat` call with the
// fight state (action.js), whose answer carries the judgement of the fight after it; a
// newcomer (a character's sheet, or numbers made on the spot) joins in one `fight` call;
// every change can be undone (a stack of previous states). The fight lives in localStorage,
// so a reload does not lose it.

import { isFight } from "../lib/checks.js";
import { h, storageGet, storageSet } from "../lib/dom.js";
import { lang, t } from "../lib/i18n.js";
import { newId } from "../lib/ids.js";
import { onOtherTab } from "../lib/storage.js";
import { confirmAction, flash } from "../ui/ui.js";
import { renderAction } from "./action.js";
import { renderLog } from "./log.js";
import { renderOrder, renderSheetPicker } from "./order.js";
import { AUTO, emptyFight, FIGHT_KEY, fightRequest, LOG_MAX, UNDO_KEY, UNDO_MAX, validFight } from "./state.js";
import "./strings.js";

// What the screen shows before the engine's first answer: no judgement at all.
const PENDING = Object.freeze({ participants: {}, current: null, next: null, over: true, standing: [] });

export class CombatView {
  constructor(ctx, root) {
    this.ctx = ctx;
    this.root = root;
    this.load();
    this.action = { kind: "melee", concede: false, actor: null, target: null, actorSkill: AUTO, targetSkill: AUTO };
    this.quickValues = {};
    this.quickName = "";
    this.quickExtra = true;
    this.addChar = null;
    this.addOpen = !this.fight.participants.length;
    this.busy = false;
    this.last = null; // the last answer, for the dice card
    this.judged = null; // the engine's `fight` answer for the state of key `judgedKey`
    this.judgedKey = null;
    this.asking = null; // the pending `fight` call: {key, answer}
    this.judgeError = null; // the engine refused the state of `key`: {key, message}
    this.renderedKey = null;
    // The characters screen's list (the store's `characters` slice): the sheets to add. Only
    // that part is drawn again, not what the player may be typing beside it.
    ctx.store.subscribe(["characters"], () => {
      if (!this.root.isConnected || this.root.hidden) return;
      const picker = this.root.querySelector("#combat-add-sheets");
      const system = this.system();
      if (picker && system) picker.replaceWith(renderSheetPicker(this, system));
      else this.render();
    });
    // Another tab acted in the fight: take its state (one fight per device, the latest wins).
    onOtherTab(FIGHT_KEY, () => this.fromOtherTab());
  }

  load() {
    const saved = storageGet(FIGHT_KEY, null);
    this.fight = validFight(saved) ? saved : emptyFight();
    const undo = storageGet(UNDO_KEY, []);
    this.undo = Array.isArray(undo) ? undo.filter(validFight) : [];
  }

  fromOtherTab() {
    this.load();
    if (this.busy) return;
    if (this.root.isConnected && !this.root.hidden) this.render();
  }

  /** The system that serves combat, as the engine's description names it (`play.combat.system`). */
  system() {
    const id = this.ctx.play()?.combat?.system;
    return (this.ctx.systems() || []).find((s) => s.id === id) || null;
  }

  /** The fight: the store's `fight` slice, which this view alone writes. */
  get fight() {
    return this.ctx.store.get("fight");
  }

  set fight(fight) {
    this.ctx.store.set({ fight });
  }

  /** The stored characters (the store's `characters` slice, written by the characters screen). */
  sheets() {
    return this.ctx.store.get("characters");
  }

  /** Store the fight after a change; the store's subscribers hear it. */
  save() {
    if (this.fight.log.length > LOG_MAX) this.fight.log.length = LOG_MAX;
    this.fight = { ...this.fight };
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

  current() {
    return this.fight.participants[this.fight.turn] || null;
  }

  // -------------------------------------------------------------------------- the engine's judgement

  /** Whether `judged` is the engine's answer for the fight as it stands now. */
  fresh() {
    return this.judgedKey !== null && JSON.stringify(fightRequest(this.fight)) === this.judgedKey;
  }

  /**
   * Ask the engine to judge the fight as it stands (the `fight` op); true once `judged` is
   * its answer, false when the engine refused or a newer state is being judged instead.
   * The view is marked aria-busy meanwhile.
   */
  async judge() {
    const request = fightRequest(this.fight);
    const key = JSON.stringify(request);
    if (key === this.judgedKey) return true;
    if (this.asking?.key !== key) this.asking = { key, answer: this.ctx.engine.call({ ...request, lang: lang() }) };
    const asked = this.asking;
    this.root.setAttribute("aria-busy", "true");
    const answer = await asked.answer;
    if (this.asking !== asked) return false; // a newer state is being judged: it will show
    if (JSON.stringify(fightRequest(this.fight)) !== key) {
      // Changed meanwhile (an action's answer may already have judged the new state).
      this.asking = null;
      this.root.removeAttribute("aria-busy");
      return this.judge();
    }
    this.asking = null;
    this.root.removeAttribute("aria-busy");
    if (!answer.ok) {
      this.judgeError = { key, message: answer.error.message };
      return false;
    }
    this.judgedBy(answer.result);
    return true;
  }

  /** The engine's judgement of the fight as it now stands (a `fight` answer, or a `combat` answer's `fight`). */
  judgedBy(judged) {
    this.judgeError = null;
    this.judged = judged;
    this.fight.turn = judged.turn; // the engine's turn: the first when it was past the end
    this.judgedKey = JSON.stringify(fightRequest(this.fight));
  }

  // -------------------------------------------------------------------------- changes

  /**
   * A newcomer joins the fight in one `fight` call: the fight as it stands plus `joining`
   * ({sheet: {character}} or {quick: numbers}); the engine makes the participant and answers
   * the fight judged with them and what it made (`joined`: their Ardeur and skills, each with
   * its params). Returns {answer, participant?}; nobody joins on a refusal.
   */
  async join(joining, person) {
    const id = newId("p");
    const request = fightRequest(this.fight);
    request.fight.participants.push({ id, ...joining });
    const answer = await this.ctx.engine.call({ ...request, lang: lang() });
    if (!answer.ok) return { answer };
    const { ardeur, skills } = answer.result.joined[id];
    this.checkpoint();
    this.fight.participants.push({ id, ...person, unarmed: false, ardeur, start: ardeur, skills });
    // The state the engine judged, the newcomer as the fight keeps them: its judgement is the
    // fight's, unless the fight changed meanwhile (then it is judged again).
    const asked = request.fight.participants.map((p) => (p.id === id ? { id, ardeur, unarmed: false, skills: skills.map((s) => s.label || "") } : p));
    if (JSON.stringify({ ...request, fight: { ...request.fight, participants: asked } }) === JSON.stringify(fightRequest(this.fight))) this.judgedBy(answer.result);
    return { answer };
  }

  /** A character joins, as its sheet (the engine builds each skill's params from it). */
  async addCharacter(character) {
    const { answer } = await this.join({ sheet: { character } }, { name: character.name, characterId: character.id, pc: Boolean(character.pc), extra: false });
    if (!answer.ok) {
      flash(this.error, t("combat.error", { message: answer.error.message }), "error");
      return;
    }
    return this.changed(t("combat.added", { name: character.name }));
  }

  /** A participant made on the spot: the engine checks the numbers (an error sits by its field) as they join. */
  async addQuick() {
    if (this.busy) return;
    const { params, errors } = this.quickForm.collect({ withFaces: false });
    if (errors.length) {
      for (const error of errors) this.quickForm.setError(error.field, error.message);
      this.quickForm.focusField(errors[0].field);
      return;
    }
    const name = this.quickName.trim() || t("combat.quickDefault", { n: this.fight.participants.length + 1 });
    this.busy = true;
    let answer;
    try {
      ({ answer } = await this.join({ quick: params }, { name, characterId: null, pc: false, extra: this.quickExtra }));
    } finally {
      this.busy = false;
    }
    if (!answer.ok) {
      const field = String(answer.error.field || "").replace(/^fight\.participants\.\d+\.quick\.?/, "");
      if (field && this.quickForm.setError(field, answer.error.message)) this.quickForm.focusField(field);
      else flash(this.error, answer.error.message, "error");
      return;
    }
    this.quickName = "";
    await this.changed(t("combat.added", { name }));
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

  /** "Tour suivant": where the engine's answer says the turn goes (the next one standing). */
  nextTurn() {
    const next = this.fresh() ? this.judged.next : null;
    if (!next) return;
    this.checkpoint();
    this.fight.turn = next.turn;
    this.fight.round = next.round;
    this.action.actor = null;
    this.action.target = null;
    this.keptTarget = null;
    this.changed(t("combat.turnOf", { name: this.fight.participants[next.turn].name, round: next.round }), "#combat-next");
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

  /** Save the change, and show it once the engine has judged the new state. */
  async changed(message, focus) {
    this.save();
    const fresh = await this.judge();
    if (!fresh && this.asking) return; // a newer change is being judged: it will show
    this.render();
    if (message) this.ctx.announce(message);
    if (focus && fresh) this.root.querySelector(focus)?.focus();
  }

  // -------------------------------------------------------------------------- rendering

  /** Drop a stored fight (or undo step) with an action kind the engine does not know. */
  checkKinds(play) {
    if (this.kindsChecked === this.fight) return;
    const kinds = play.combat.kinds;
    if (!isFight(this.fight, kinds)) this.fight = emptyFight();
    this.undo = this.undo.filter((fight) => isFight(fight, kinds));
    this.kindsChecked = this.fight;
  }

  render() {
    const system = this.system();
    const play = this.ctx.play();
    if (!system || !play?.combat) {
      this.root.replaceChildren(h("p", { class: "view-loading", text: t("form.loading") }));
      return;
    }
    this.checkKinds(play);
    if (!this.fresh()) {
      const refused = this.judgeError?.key === JSON.stringify(fightRequest(this.fight)) ? this.judgeError : null;
      if (refused) {
        this.root.replaceChildren(h("p", { class: "form-error", id: "combat-error", role: "alert", text: t("combat.error", { message: refused.message }) }));
        return;
      }
      // The state shows once the engine has judged it; until then the last view stays.
      this.judge().then((fresh) => {
        if (fresh ? this.renderedKey !== this.judgedKey : !this.asking) this.render();
      });
      // Nothing shown yet: the screen without any judgement (nobody marked, no action).
      if (!this.root.querySelector(".combat-layout")) this.layout(system, play, PENDING);
      return;
    }
    this.renderedKey = this.judgedKey;
    this.layout(system, play, this.judged);
  }

  layout(system, play, judged) {
    const kept = this.judged;
    this.judged = judged;
    try {
      this.root.replaceChildren(h("div", { class: "combat-layout" }, renderOrder(this, system, play), renderAction(this, system, play)), renderLog(this.fight));
    } finally {
      this.judged = kept;
    }
  }
}
