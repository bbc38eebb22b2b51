// The roll form's error line, and an engine error put next to its field when it names one.

import { t } from "../lib/i18n.js";
import { SIDES } from "./state.js";
import "./strings.js";

/**
 * Where an API error's field goes: "pot" is the actor's; in an opposition "opponent.pot"
 * is the opponent's pot. {side, field}; field is undefined when the error names none.
 */
export function errorTarget(field, mode) {
  if (field && mode === "oppose") {
    const [first, ...rest] = field.split(".");
    if (SIDES.includes(first) && rest.length) return { side: first, field: rest.join(".") };
  }
  return { side: "actor", field };
}

export class FormErrors {
  /** app: the roll screen's state (roll/state.js); byId: document.getElementById. */
  constructor({ app, byId }) {
    this.app = app;
    this.$ = byId;
  }

  show(message) {
    const box = this.$("form-error");
    box.textContent = message;
    box.hidden = false;
  }

  hide() {
    this.$("form-error").hidden = true;
    this.$("form-error").textContent = "";
  }

  /** Put an API error next to its field ("pot", "actor.pot"); on the error line when it has none. */
  api(error) {
    const { side, field } = errorTarget(error.field, this.app.state.mode);
    const form = this.app.forms[side];
    if (field && form && form.setError(field, error.message)) {
      form.focusField(field);
      return;
    }
    this.show(t("roll.error", { message: error.message }));
  }
}
