// Generic form built from one system of the engine's `systems` description.
//
// Nothing here knows any particular system: each field is drawn from its type
// (int, bool, choice, text, faces; placement is handled on the result card), its
// labels, help, bounds and default. A new system in the engine needs no JavaScript.

import { h } from "../lib/dom.js";
import { choiceValue, facesText, initialValue, isFormField, replacedFields, stepName } from "./fields.js";
import { pick, t } from "../lib/i18n.js";
import "./strings.js";
import "../ui/strings.js";


const SEGMENTED_MAX_CHOICES = 3;
const SEGMENTED_MAX_LABEL = 16;

export class SideForm {
  /**
   * @param {object} options
   * @param {string} options.side      "actor" (also the single roll) or "opponent"
   * @param {object} options.system    one entry of the `systems` description
   * @param {object} options.values    raw values by field name; kept up to date as the user types
   * @param {object} options.ui        remembered UI state ({advancedOpen})
   * @param {Function} options.onInput called after any change of a value
   * @param {Function} [options.onErrors] called after an error is shown or cleared
   */
  constructor({ side, system, values, ui, onInput, onErrors = null }) {
    this.onErrors = onErrors;
    this.side = side;
    this.system = system;
    this.values = values;
    this.ui = ui;
    this.onInput = onInput;
    this.controls = new Map(); // field name -> {field, wrapper, inputs[], error, help}
    this.physical = false;
    this.groups = null;
    for (const field of system.fields) {
      if (isFormField(field) && !(field.name in values)) values[field.name] = initialValue(field);
    }
    this.element = h("div", { class: "side-form", dataset: { side, system: system.id } });
    this.render();
  }

  render() {
    this.controls.clear();
    const main = [];
    const advanced = [];
    for (const field of this.system.fields) {
      if (!isFormField(field) || field.type === "faces") continue;
      (field.group === "advanced" ? advanced : main).push(this.renderField(field));
    }
    this.physicalBox = h("div", { class: "physical-fields", hidden: !this.physical });
    this.renderPhysical();
    const parts = [h("div", { class: "fields" }, main), this.physicalBox];
    if (advanced.length) {
      const details = h(
        "details",
        { class: "advanced", open: Boolean(this.ui.advancedOpen) },
        h("summary", { text: t("form.advanced") }),
        h("div", { class: "fields" }, advanced),
      );
      details.addEventListener("toggle", () => (this.ui.advancedOpen = details.open));
      parts.push(details);
    }
    this.element.replaceChildren(...parts);
    this.applyReplaces();
  }

  /** Grey out a field that a set one replaces (d100: the value, once a level is chosen). */
  applyReplaces() {
    const replaced = replacedFields(this.system, this.values);
    for (const [name, entry] of this.controls) {
      if (entry.field.type === "faces") continue;
      const off = replaced.has(name);
      entry.wrapper.classList.toggle("is-replaced", off);
      for (const input of entry.inputs) input.disabled = off;
      for (const button of entry.wrapper.querySelectorAll("button.step")) button.disabled = off;
    }
  }

  renderField(field) {
    const id = `f-${this.side}-${this.system.id}-${field.name}`;
    const helpText = pick(field.help);
    const help = helpText ? h("p", { class: "help", id: `${id}-help`, text: helpText }) : null;
    const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
    const wrapper = h("div", { class: ["field", `field--${field.type}`], dataset: { field: field.name } });
    const entry = { field, wrapper, inputs: [], error, help };
    this.controls.set(field.name, entry);
    const label = pick(field.label);
    const change = (value) => {
      this.values[field.name] = value;
      this.clearError(field.name);
      if (field.replaces) this.applyReplaces();
      this.onInput(this.side, field.name);
    };

    if (field.type === "bool") {
      const input = h("input", { type: "checkbox", role: "switch", id, class: "switch-input" });
      input.checked = Boolean(this.values[field.name]);
      input.addEventListener("change", () => change(input.checked));
      entry.inputs.push(input);
      wrapper.append(
        h("div", { class: "switch-row" }, input, h("label", { for: id, class: "switch-label" }, h("span", { class: "switch-track", "aria-hidden": "true" }), h("span", { text: label }))),
      );
    } else if (field.type === "choice") {
      const choices = field.choices || [];
      const segmented =
        choices.length <= SEGMENTED_MAX_CHOICES && choices.every((c) => pick(c.label).length <= SEGMENTED_MAX_LABEL);
      if (segmented) {
        const group = h("fieldset", { class: "segmented", id });
        group.append(h("legend", { class: "field-label", text: label }));
        const row = h("div", { class: "segmented-options" });
        for (const choice of choices) {
          const optionId = `${id}-${choice.value}`;
          const radio = h("input", { type: "radio", name: id, id: optionId, value: choice.value, class: "visually-hidden" });
          radio.checked = String(this.values[field.name]) === String(choice.value);
          radio.addEventListener("change", () => radio.checked && change(choice.value));
          entry.inputs.push(radio);
          row.append(radio, h("label", { for: optionId, text: pick(choice.label) }));
        }
        group.append(row);
        wrapper.append(group);
      } else {
        if (choices.some((c) => pick(c.label).length > 24)) wrapper.classList.add("field--wide");
        const select = h("select", { id });
        if (field.optional) {
          select.append(h("option", { value: "", text: `— ${t("form.none")} —` }));
        }
        for (const choice of choices) {
          const option = h("option", { value: choice.value, text: pick(choice.label) });
          option.selected = String(this.values[field.name]) === String(choice.value);
          select.append(option);
        }
        select.addEventListener("change", () => change(select.value === "" ? "" : choiceValue(field, select.value)));
        entry.inputs.push(select);
        wrapper.append(h("label", { for: id, class: "field-label", text: label }), select);
      }
    } else if (field.type === "int") {
      const input = h("input", {
        type: "number",
        id,
        inputmode: "numeric",
        step: 1,
        min: field.min,
        max: field.max,
        placeholder: field.optional ? t("form.none") : null,
      });
      input.value = this.values[field.name] ?? "";
      const named = stepName(field, input);
      input.addEventListener("input", () => { change(input.value); named?.update(); });
      const stepBy = (delta) => {
        const current = Number.parseInt(input.value, 10);
        let next;
        if (Number.isNaN(current)) {
          next = field.default ?? (delta > 0 ? field.min ?? 0 : field.max ?? 0);
        } else {
          next = current + delta;
        }
        if (field.min !== undefined && field.min !== null) next = Math.max(field.min, next);
        if (field.max !== undefined && field.max !== null) next = Math.min(field.max, next);
        input.value = String(next);
        named?.update();
        change(input.value);
      };
      const down = h("button", { type: "button", class: "step", "aria-label": t("form.decrease", { label }), "aria-controls": id, text: "−" });
      const up = h("button", { type: "button", class: "step", "aria-label": t("form.increase", { label }), "aria-controls": id, text: "+" });
      down.addEventListener("click", () => stepBy(-1));
      up.addEventListener("click", () => stepBy(1));
      entry.inputs.push(input);
      wrapper.append(h("label", { for: id, class: "field-label", text: label }), h("div", { class: "stepper" }, down, input, up), ...(named ? [named.el] : []));
    } else {
      // text (and any future type rendered as free text)
      const input = h("input", { type: "text", id, maxlength: field.max_length, autocomplete: "off", spellcheck: "false" });
      input.value = this.values[field.name] ?? "";
      input.addEventListener("input", () => change(input.value));
      entry.inputs.push(input);
      wrapper.append(h("label", { for: id, class: "field-label", text: label }), input);
    }
    if (help) wrapper.append(help);
    wrapper.append(error);
    this.describe(entry);
    return wrapper;
  }

  /** The faces inputs of physical-dice mode, one per group given by the `dice` op. */
  renderPhysical() {
    for (const [name, entry] of this.controls) {
      if (entry.field.type === "faces") this.controls.delete(name);
    }
    const facesFields = this.system.fields.filter((f) => f.type === "faces");
    const groups = this.groups || [];
    const boxes = [];
    for (const field of facesFields) {
      const group = groups.find((g) => g.field === field.name);
      if (this.groups && (!group || group.count === 0)) {
        continue; // this roll needs no die of that group
      }
      const id = `f-${this.side}-${this.system.id}-${field.name}`;
      const base = pick(field.label);
      const sides = group ? group.sides : field.sides;
      const label = group
        ? sides
          ? t("physical.group", { label: base, count: group.count, sides })
          : t("physical.groupAny", { label: base, count: group.count })
        : base;
      const input = h("input", {
        type: "text",
        id,
        inputmode: "numeric",
        autocomplete: "off",
        spellcheck: "false",
        class: "faces-input",
        maxlength: field.max_length, // the engine's limit (registry), not a paste of 10 000
        dataset: { count: group ? group.count : "", sides: sides ?? "" },
      });
      input.value = this.values[field.name] ?? "";
      input.addEventListener("input", () => {
        this.values[field.name] = input.value;
        this.clearError(field.name);
        this.onInput(this.side, field.name, { faces: true });
      });
      const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
      const help = h("p", { class: "help", id: `${id}-help`, text: pick(field.help) || t("physical.facesHelp") });
      const wrapper = h(
        "div",
        { class: ["field", "field--faces", `kind--${group ? group.kind : "normal"}`], dataset: { field: field.name } },
        h("label", { for: id, class: "field-label", text: label }),
        input,
        help,
        error,
      );
      const entry = { field, wrapper, inputs: [input], error, help };
      this.controls.set(field.name, entry);
      this.describe(entry);
      boxes.push(wrapper);
    }
    this.physicalBox.replaceChildren(h("p", { class: "physical-intro", text: t("physical.help") }), ...boxes);
  }

  setPhysical(on) {
    this.physical = on;
    this.physicalBox.hidden = !on;
  }

  setDiceGroups(groups) {
    const before = JSON.stringify(this.groups);
    this.groups = groups;
    if (before !== JSON.stringify(groups)) {
      // Keep focus and caret if the player is typing in a faces box.
      const active = document.activeElement;
      const activeId = active && this.physicalBox.contains(active) ? active.id : null;
      const caret = activeId ? [active.selectionStart, active.selectionEnd] : null;
      this.renderPhysical();
      if (activeId) {
        const again = document.getElementById(activeId);
        if (again) {
          again.focus();
          if (caret) again.setSelectionRange(caret[0], caret[1]);
        }
      }
    }
  }

  /**
   * The params of this side as the API wants them, plus what only the page can see: a box
   * left empty, or text the browser's number input refused (it reports it as ""). Whether
   * a typed value is a whole number within bounds is the engine's to say (it reads "+3"
   * and refuses "1.5" naming the field). Faces are sent only in physical mode.
   */
  collect({ withFaces }) {
    const params = {};
    const errors = [];
    for (const field of this.system.fields) {
      if (!isFormField(field)) continue;
      const raw = this.values[field.name];
      if (field.type === "faces") {
        if (!withFaces || !this.controls.has(field.name)) continue;
        const text = String(raw ?? "").trim();
        if (!text) {
          errors.push({ field: field.name, message: t("form.facesRequired") });
          continue;
        }
        const box = this.controls.get(field.name).inputs[0];
        params[field.name] = facesText(text, Number(box.dataset.count), Number(box.dataset.sides));
      } else if (field.type === "bool") {
        params[field.name] = Boolean(raw);
      } else if (field.type === "int") {
        const text = String(raw ?? "").trim();
        const input = this.controls.get(field.name)?.inputs[0];
        if (input && input.validity.badInput) {
          // Typed text that is not a number: the browser reports the input as "".
          errors.push({ field: field.name, message: t("form.integer") });
        } else if (text === "") {
          if (field.optional) params[field.name] = null;
          else errors.push({ field: field.name, message: t("form.required") });
        } else {
          // Digits travel as a JSON number; any other text as typed ("2.5", "1e3", a number
          // past 2^53): the engine reads it, bounds it or refuses it naming the field.
          const number = Number(text);
          params[field.name] = /^[-+]?\d+$/.test(text) && Number.isSafeInteger(number) ? number : text;
        }
      } else if (field.type === "choice") {
        params[field.name] = raw === "" || raw === null || raw === undefined ? null : choiceValue(field, raw);
      } else {
        params[field.name] = raw;
      }
    }
    return { params, errors };
  }

  /** Show an error next to a field; returns false if this form has no such field. */
  setError(name, message) {
    const entry = this.controls.get(name);
    if (!entry) return false;
    entry.error.textContent = message;
    entry.error.hidden = false;
    entry.wrapper.classList.add("has-error");
    for (const input of entry.inputs) input.setAttribute("aria-invalid", "true");
    this.describe(entry);
    this.onErrors?.(this);
    return true;
  }

  clearError(name) {
    const entry = this.controls.get(name);
    if (!entry || entry.error.hidden) return;
    entry.error.textContent = "";
    entry.error.hidden = true;
    entry.wrapper.classList.remove("has-error");
    for (const input of entry.inputs) input.removeAttribute("aria-invalid");
    this.describe(entry);
    this.onErrors?.(this);
  }

  clearErrors() {
    for (const name of this.controls.keys()) this.clearError(name);
  }

  /** Whether any field of this form shows an error. */
  hasErrors() {
    return [...this.controls.values()].some((entry) => !entry.error.hidden);
  }

  hasError(name) {
    const entry = this.controls.get(name);
    return Boolean(entry && !entry.error.hidden);
  }

  describe(entry) {
    const ids = [];
    if (entry.help) ids.push(entry.help.id);
    if (!entry.error.hidden) ids.push(entry.error.id);
    const targets = entry.field.type === "choice" && entry.inputs[0]?.type === "radio" ? [entry.wrapper.querySelector("fieldset")] : entry.inputs;
    for (const node of targets) {
      if (ids.length) node.setAttribute("aria-describedby", ids.join(" "));
      else node.removeAttribute("aria-describedby");
    }
  }

  focusField(name) {
    const entry = this.controls.get(name);
    if (!entry) return;
    const details = entry.wrapper.closest("details");
    if (details) details.open = true;
    entry.inputs[0]?.focus();
  }

  /** Put values in the form (history replay) and redraw it. */
  load(values) {
    for (const field of this.system.fields) {
      if (!isFormField(field)) continue;
      const value = values[field.name];
      if (value === undefined) continue;
      if (field.type === "bool") this.values[field.name] = Boolean(value);
      else if (value === null) this.values[field.name] = "";
      else if (Array.isArray(value)) this.values[field.name] = value.join(", ");
      else this.values[field.name] = String(value);
    }
    this.render();
  }
}
