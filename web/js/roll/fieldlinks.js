// What a form shows and sends beyond each field on its own, read from the engine's
// field descriptors: a field that another one replaces once set (d100: a level replaces
// the value), a setting left at its "none" choice, and faces typed without separators.

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
 * A choice left at a default that means "nothing" (steps' edge "none": "Avantage ou
 * handicap : Aucun") says nothing worth a place in a summary.
 */
export function emptyChoice(field, value) {
  return field.type === "choice" && field.default === "none" && String(value) === "none";
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
