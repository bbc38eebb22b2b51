// What a form sends of a field, read from the engine's field descriptors: which fields a
// form draws, a field's first value and choice value. What params roll, in a
// line, is the engine's to word (its `brief`: widgets/briefs.js).

import { pick } from "../lib/i18n.js";
import { h } from "../lib/dom.js";

/** The raw value a fresh form shows for a field. */
export function initialValue(field) {
  if (field.type === "bool") return Boolean(field.default);
  return field.default === null || field.default === undefined ? "" : String(field.default);
}

/** The choice value (with its JSON type: choices may be numbers) whose text form is raw. */
export function choiceValue(field, raw) {
  const choice = (field.choices || []).find((c) => String(c.value) === String(raw));
  return choice ? choice.value : raw;
}

export function isFormField(field) {
  return field.type !== "placement";
}

// What a form shows and sends beyond each field on its own, read from the engine's
// field descriptors: a field that another one replaces once set (d100: a level replaces
// the value), and faces typed without separators.

/** Names of the fields that a set field replaces (descriptor key `replaces`), given raw values. */
export function replacedFields(system, values) {
  const out = new Set();
  for (const field of system.fields) {
    const value = values[field.name];
    if (field.replaces && value !== null && value !== undefined && value !== "") out.add(field.replaces);
  }
  return out;
}

/**
 * Faces typed one after another ("163") for dice of up to 9 faces, as a phone keypad
 * without comma or space gives them: "1, 6, 3" when there is one digit per die. Any other
 * text is left for the engine to read (and to refuse, with its message).
 */
export function facesText(text, count, sides) {
  const digits = /^\d+$/.test(text);
  if (digits && count > 1 && sides > 0 && sides <= 9 && text.length === count) return text.split("").join(", ");
  return text;
}

// Names of some values of an int field, from the engine's description (`steps` of the
// field, e.g. the pool's nine DIFF steps "Évident" ... "Chimérique"): shown next to the
// number, in the current language. The engine owns the names; this only looks them up.

/** {el, update} showing the name of `input`'s value, or null when the field names none. */
export function stepName(field, input) {
  if (!Array.isArray(field.steps) || field.steps.length === 0) return null;
  const el = h("output", { class: "step-name", for: input.id });
  const update = () => {
    const step = field.steps.find((s) => String(s.value) === String(input.value).trim());
    el.textContent = step ? pick(step.label) : "";
  };
  update();
  return { el, update };
}
