// Names of some values of an int field, from the engine's description (`steps` of the
// field, e.g. the pool's nine DIFF steps "Évident" ... "Chimérique"): shown next to the
// number, in the current language. The engine owns the names; this only looks them up.

import { h } from "../lib/dom.js";
import { pick } from "../lib/i18n.js";

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
