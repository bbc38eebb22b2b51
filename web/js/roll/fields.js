// What a form sends and a history line says of a field, read from the engine's field
// descriptors: which fields a form draws, a field's first value, short label and choice
// value, and the one-line summary of params (history, statistics).

import { emptyChoice, replacedFields } from "./fieldlinks.js";
import { lang, pick } from "../lib/i18n.js";

/** Short form of a field label: "POT (caractéristique + compétence)" -> "POT". */
export function shortLabel(field) {
  return pick(field.label).split(" (")[0];
}

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

/** "POT 6 · DIFF 4 · Effort" — a short summary of params for the history. */
export function summarize(system, params) {
  const parts = [];
  const replaced = replacedFields(system, params);
  for (const field of system.fields) {
    if (!isFormField(field) || field.type === "faces" || !(field.name in params) || replaced.has(field.name)) continue;
    const value = params[field.name];
    if (value === null || value === "" || value === undefined || (Array.isArray(value) && !value.length) || emptyChoice(field, value)) continue;
    const neutral = field.default === 0 || field.default === false || field.default === "" || field.default === null;
    if ((field.group === "advanced" || neutral) && value === field.default) continue;
    if (field.type === "bool") {
      if (value) parts.push(shortLabel(field));
    } else if (field.type === "choice") {
      const choice = (field.choices || []).find((c) => String(c.value) === String(value));
      parts.push(`${shortLabel(field)}${lang() === "fr" ? " : " : ": "}${choice ? pick(choice.label) : value}`);
    } else {
      parts.push(`${shortLabel(field)} ${value}`);
    }
  }
  if (params.placement && params.placement.some((v) => v !== 0)) {
    parts.push(`[${params.placement.map((v) => (v > 0 ? `+${v}` : String(v))).join(" ")}]`);
  }
  return parts.join(" · ");
}

