// The GM's tools under the odds panel: the odds as a curve (curve.js) and two choices
// compared (compare.js). Both follow the roll form's actor side; what they show (open or
// closed, the swept setting, the two choices) is kept under its own storage key and read
// back as untrusted input.

import { CurvePanel } from "../widgets/odds/curve.js";
import { ComparePanel } from "../widgets/odds/compare.js";
import { debounce, h, storageGet, storageSet } from "../lib/dom.js";
import "./strings.js";

const KEY = "pyrules:gm";

const isObject = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);

function cleanUI(saved) {
  const curve = isObject(saved.curve) ? saved.curve : {};
  const compare = isObject(saved.compare) ? saved.compare : {};
  const fields = isObject(curve.field) ? Object.fromEntries(Object.entries(curve.field).filter(([, v]) => typeof v === "string")) : {};
  const choices = isObject(compare.choices) ? Object.fromEntries(Object.entries(compare.choices).filter(([, v]) => isObject(v))) : {};
  return {
    curve: { open: curve.open === true, field: fields },
    compare: { open: compare.open === true, choices },
  };
}

export class GmTools {
  /** @param {{call: Function}} options  call(request) -> Promise of an engine answer */
  constructor({ call }) {
    const saved = storageGet(KEY, {});
    this.ui = cleanUI(isObject(saved) ? saved : {});
    const save = debounce(() => storageSet(KEY, this.ui), 300);
    this.curve = new CurvePanel({ call, ui: this.ui.curve });
    this.compare = new ComparePanel({ call, ui: this.ui.compare });
    this.element = h("div", { class: "gm-tools", id: "gm-tools" }, this.curve.element, this.compare.element);
    this.element.addEventListener("change", save);
    this.element.addEventListener("input", save);
    this.element.addEventListener("toggle", save, true);
  }

  /** The actor's form as collected by the roller ({params, errors}). */
  update(system, collected) {
    const valid = collected.errors.length === 0;
    this.curve.update(system, collected.params, valid);
    this.compare.update(system, collected.params, valid);
  }
}
