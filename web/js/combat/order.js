// The turn order panel of the combat tracker: the participants in order with their Ardeur
// (who is out and whose turn it is, as the engine's `fight` answer says), the tools (next
// turn, undo, restart, clear) and the box adding participants from sheets or on the spot.
// `cv` is the CombatView: these functions read its state and call its changes.

import { h } from "../lib/dom.js";
import { SideForm } from "../widgets/forms.js";
import { t } from "../lib/i18n.js";
import { switchControl } from "../ui/ui.js";
import { canAct, judgedOf } from "./state.js";
import "./strings.js";

export function renderOrder(cv, system, play) {
  const fight = cv.fight;
  const next = h("button", { type: "button", class: ["button", "button--primary"], id: "combat-next", text: t("combat.next") });
  next.disabled = !cv.judged.next; // the engine: nobody can act any more
  next.addEventListener("click", () => cv.nextTurn());
  const undo = h("button", { type: "button", class: "button", id: "combat-undo", text: t("combat.undo") });
  undo.disabled = !cv.undo.length;
  undo.addEventListener("click", () => cv.undoLast());
  const reset = h("button", { type: "button", class: "button", id: "combat-reset", text: t("combat.reset") });
  reset.disabled = !fight.participants.length;
  reset.addEventListener("click", () => cv.reset());
  const clear = h("button", { type: "button", class: ["button", "button--danger"], id: "combat-clear", text: t("combat.clear") });
  clear.disabled = !fight.participants.length && !fight.log.length;
  clear.addEventListener("click", () => cv.clearAll());
  const order = h("ol", { class: "combat-order", id: "combat-order", "aria-labelledby": "combat-order-title" });
  fight.participants.forEach((p, index) => order.append(renderFighter(cv, p, index)));
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
    renderAdd(cv, system, play),
  );
}

function renderFighter(cv, p, index) {
  const isTurn = cv.judged.current === p.id;
  const known = judgedOf(cv.judged, p.id); // none yet before the engine's first answer
  const out = Boolean(known) && !canAct(cv.judged, p.id);
  const meter = h("span", { class: "ardeur-meter", "aria-hidden": "true" }, h("span", { class: "ardeur-fill" }));
  const ratio = p.start > 0 ? Math.max(0, Math.min(1, p.ardeur / p.start)) : 0;
  meter.firstChild.style.width = `${(ratio * 100).toFixed(1)}%`;
  const tool = (cls, text, label, action, disabled = false) => {
    const button = h("button", { type: "button", class: ["button", "button--small", "fighter-tool", cls], "aria-label": label, title: label, text });
    button.disabled = disabled;
    button.addEventListener("click", action);
    return button;
  };
  const list = cv.fight.participants;
  const shown = t(p.unarmed ? "combat.unarmedShort" : "combat.armedShort"); // in the name too (WCAG 2.5.3)
  const unarmed = tool("fighter-unarmed", shown, t("combat.unarmedLabel", { name: p.name, shown }), () => cv.toggleUnarmed(p));
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
      tool("fighter-minus", "−1", t("combat.minusLabel", { name: p.name }), () => cv.adjust(p, -1)),
      tool("fighter-plus", "+1", t("combat.plusLabel", { name: p.name }), () => cv.adjust(p, 1)),
      unarmed,
      tool("fighter-up", "↑", t("combat.upLabel", { name: p.name }), () => cv.move(p, -1), index === 0),
      tool("fighter-down", "↓", t("combat.downLabel", { name: p.name }), () => cv.move(p, 1), index === list.length - 1),
      tool("fighter-remove", "✕", t("combat.removeLabel", { name: p.name }), () => cv.remove(p)),
    ),
  );
}

/**
 * The "from a character" part of the add box: the stored sheets of the tracker's system. The
 * characters list changes under it (the characters screen, another tab, the first read of the
 * store): then this part alone is drawn again (`CombatView`), so a name being typed on the
 * spot keeps its field, its focus and the keyboard that goes with it.
 */
export function renderSheetPicker(cv, system) {
  const fromSheets = cv.sheets().filter((c) => c.system === system.id);
  const select = h("select", { id: "combat-add-char" });
  for (const character of fromSheets) {
    const option = h("option", { value: character.id, text: character.name });
    option.selected = character.id === cv.addChar;
    select.append(option);
  }
  select.disabled = !fromSheets.length;
  select.addEventListener("change", () => (cv.addChar = select.value));
  const addChar = h("button", { type: "button", class: "button", id: "combat-add-char-button", text: t("combat.addCharacter") });
  addChar.disabled = !fromSheets.length;
  addChar.addEventListener("click", () => {
    const character = cv.sheets().find((c) => c.id === select.value);
    if (character) {
      cv.addChar = character.id;
      cv.addCharacter(character);
      document.getElementById("combat-add-char-button")?.focus();
    }
  });
  return h(
    "div",
    { class: "combat-add-sheets", id: "combat-add-sheets" },
    h(
      "div",
      { class: "combat-add-row" },
      h("div", { class: "field" }, h("label", { for: "combat-add-char", class: "field-label", text: t("combat.fromCharacter") }), select),
      addChar,
    ),
    fromSheets.length ? null : h("p", { class: "help", text: t("combat.noStepsCharacters") }),
  );
}

function renderAdd(cv, system, play) {
  const fields = ["die", "threshold", "bonus"].map((name) => system.fields.find((f) => f.name === name)).filter(Boolean);
  cv.quickForm = new SideForm({ side: "quick", system: { id: system.id, fields: [...play.combat.participant, ...fields], outcomes: [] }, values: cv.quickValues, ui: {}, onInput: () => {} });
  const name = h("input", { type: "text", id: "combat-quick-name", maxlength: 60, autocomplete: "off", placeholder: t("combat.quickDefault", { n: cv.fight.participants.length + 1 }) });
  name.value = cv.quickName;
  name.addEventListener("input", () => (cv.quickName = name.value));
  const extra = switchControl({ id: "combat-quick-extra", label: t("combat.extraLabel"), checked: cv.quickExtra, onChange: (on) => (cv.quickExtra = on) });
  const addQuick = h("button", { type: "button", class: "button", id: "combat-add-quick", text: t("combat.addQuick") });
  addQuick.addEventListener("click", () => cv.addQuick());
  const details = h(
    "details",
    { class: "combat-add", id: "combat-add", open: cv.addOpen },
    h("summary", { text: t("combat.addTitle") }),
    h(
      "div",
      { class: "combat-add-body" },
      renderSheetPicker(cv, system),
      h("h4", { class: "sources-subtitle", text: t("combat.quickTitle") }),
      h("div", { class: "field" }, h("label", { for: "combat-quick-name", class: "field-label", text: t("editor.name") }), name),
      cv.quickForm.element,
      extra.row,
      addQuick,
    ),
  );
  details.addEventListener("toggle", () => (cv.addOpen = details.open));
  return details;
}
