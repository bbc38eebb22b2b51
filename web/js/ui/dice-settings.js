// The dice settings: 3D dice / 2D dice / no animation, the dice sound (off by default), the
// colour of this device's dice (players at one table tell their throws apart; the opponent's
// side takes another colour), the dice size, and whether the screen stays awake while the app
// is open (Screen Wake Lock, on by default where the browser has it).
// Kept in localStorage ("pyrules:dice"); what is read back is untrusted: readPrefs() keeps
// each known setting that is valid and takes the default for anything else.

import { h, storageGet, storageSet } from "../lib/dom.js";
import { onLangChange, t } from "../lib/i18n.js";
import { DICE_COLOURS } from "../lib/dice-colours.js";
import { pageStore } from "../lib/page-store.js";
import "./strings.js";

const PREFS_KEY = "pyrules:dice";
const MODES = ["3d", "2d", "none"];
export const SIZES = ["small", "medium", "large"];

/** The colours a player may give this device's dice (lib/dice-colours.js). */
export { DICE_COLOURS };

export const DEFAULTS = Object.freeze({ mode: "3d", sound: false, colour: "ivory", size: "medium", awake: true });

const own = (value, key) => value !== null && typeof value === "object" && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, key);

/** The settings from what storage gave back (anything: untrusted), defaults where invalid. */
export function readPrefs(stored) {
  const pick = (key, valid) => (own(stored, key) && valid(stored[key]) ? stored[key] : DEFAULTS[key]);
  return {
    mode: pick("mode", (v) => MODES.includes(v)),
    sound: pick("sound", (v) => typeof v === "boolean"),
    colour: pick("colour", (v) => typeof v === "string" && Object.prototype.hasOwnProperty.call(DICE_COLOURS, v)),
    size: pick("size", (v) => SIZES.includes(v)),
    awake: pick("awake", (v) => typeof v === "boolean"),
  };
}

// The settings are the page store's `dice` slice; `prefs.sound = true` is a write to it (the
// value checked as one read back from storage), and savePrefs() keeps it for the next visit.
pageStore.set({ dice: readPrefs(storageGet(PREFS_KEY, null)) });
export const prefs = Object.defineProperties({}, Object.fromEntries(Object.keys(DEFAULTS).map((key) => [key, {
  enumerable: true,
  get: () => pageStore.get("dice")[key],
  set: (value) => pageStore.set({ dice: readPrefs({ ...pageStore.get("dice"), [key]: value }) }),
}])));

/** Call `listener` after every change of the settings. */
export function onPrefs(listener) {
  pageStore.subscribe(["dice"], () => listener());
}

export function savePrefs() {
  storageSet(PREFS_KEY, pageStore.get("dice"));
}

/** Whether this browser keeps a screen awake on request (Screen Wake Lock). */
export function wakeLockSupported() {
  return typeof navigator !== "undefined" && Boolean(navigator.wakeLock) && typeof navigator.wakeLock.request === "function";
}

function switchRow(id, onChange) {
  const input = h("input", { type: "checkbox", role: "switch", id, class: "switch-input" });
  const text = h("span");
  input.addEventListener("change", () => onChange(input.checked));
  const row = h("div", { class: "switch-row" }, input, h("label", { for: id, class: "switch-label" }, h("span", { class: "switch-track", "aria-hidden": "true" }), text));
  return { row, input, text };
}

/** The dice settings (animation, sound, colour, size, screen awake), for the roll screen. */
export function diceSettings() {
  const select = h("select", { id: "dice-mode", class: "dice-mode-select" });
  const label = h("label", { for: "dice-mode", class: "field-label" });
  const size = h("select", { id: "dice-size", class: "dice-mode-select" });
  const sizeLabel = h("label", { for: "dice-size", class: "field-label" });
  const legend = h("legend", { class: "field-label" });
  const swatches = Object.keys(DICE_COLOURS).map((id) => {
    const input = h("input", { type: "radio", name: "dice-colour", id: `dice-colour-${id}`, value: id, class: "swatch-input" });
    input.addEventListener("change", () => {
      if (input.checked) {
        prefs.colour = id;
        savePrefs();
      }
    });
    const name = h("span", { class: "visually-hidden" });
    return { id, input, name, label: h("label", { for: `dice-colour-${id}`, class: ["swatch", `swatch--${id}`] }, name) };
  });
  const colours = h("fieldset", { class: "dice-colours", id: "dice-colours" }, legend, swatches.flatMap((s) => [s.input, s.label]));
  const sound = switchRow("dice-sound", (on) => {
    prefs.sound = on;
    savePrefs();
  });
  const awake = switchRow("screen-awake", (on) => {
    prefs.awake = on;
    savePrefs();
  });
  awake.row.hidden = !wakeLockSupported();
  const draw = () => {
    select.replaceChildren(...MODES.map((mode) => h("option", { value: mode, text: t(`dice.mode.${mode}`) })));
    size.replaceChildren(...SIZES.map((id) => h("option", { value: id, text: t(`dice.size.${id}`) })));
    label.textContent = t("dice.settings");
    sizeLabel.textContent = t("dice.size");
    legend.textContent = t("dice.colour");
    for (const s of swatches) s.name.textContent = t(`dice.colour.${s.id}`);
    sound.text.textContent = t("dice.sound");
    awake.text.textContent = t("dice.awake");
    sync();
  };
  const sync = () => {
    select.value = prefs.mode;
    size.value = prefs.size;
    sound.input.checked = prefs.sound;
    awake.input.checked = prefs.awake;
    for (const s of swatches) s.input.checked = s.id === prefs.colour;
  };
  draw();
  onLangChange(draw);
  onPrefs(sync);
  select.addEventListener("change", () => {
    prefs.mode = MODES.includes(select.value) ? select.value : "3d";
    savePrefs();
  });
  size.addEventListener("change", () => {
    prefs.size = SIZES.includes(size.value) ? size.value : "medium";
    savePrefs();
  });
  return h(
    "div",
    { class: "dice-settings", id: "dice-settings" },
    h("div", { class: "dice-setting" }, label, select),
    h("div", { class: "dice-setting" }, sizeLabel, size),
    colours,
    sound.row,
    awake.row,
  );
}
