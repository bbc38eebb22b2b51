// The dice settings: 3D dice / 2D dice / no animation, and the dice sound (off by default).
// Kept in localStorage ("pyrules:dice"); what is read back is untrusted and checked here.

import { h, storageGet, storageSet } from "../lib/dom.js";
import { onLangChange, t } from "../lib/i18n.js";
import "./strings.js";

const PREFS_KEY = "pyrules:dice";
const MODES = ["3d", "2d", "none"];
const stored = storageGet(PREFS_KEY, null);
export const prefs = {
  mode: stored && MODES.includes(stored.mode) ? stored.mode : "3d",
  sound: Boolean(stored && stored.sound === true),
};
const listeners = new Set();

/** Call `listener` after every change of the settings. */
export function onPrefs(listener) {
  listeners.add(listener);
}

export function savePrefs() {
  storageSet(PREFS_KEY, { mode: prefs.mode, sound: prefs.sound });
  for (const listener of listeners) listener();
}

/** The dice settings (3D / 2D / none, sound), for the roll screen. */
export function diceSettings() {
  const select = h("select", { id: "dice-mode", class: "dice-mode-select" });
  const label = h("label", { for: "dice-mode", class: "field-label" });
  const soundText = h("span");
  const draw = () => {
    select.replaceChildren(...MODES.map((mode) => h("option", { value: mode, text: t(`dice.mode.${mode}`) })));
    select.value = prefs.mode;
    label.textContent = t("dice.settings");
    soundText.textContent = t("dice.sound");
  };
  draw();
  onLangChange(draw);
  select.addEventListener("change", () => {
    prefs.mode = MODES.includes(select.value) ? select.value : "3d";
    savePrefs();
  });
  const sound = h("input", { type: "checkbox", role: "switch", id: "dice-sound", class: "switch-input" });
  sound.checked = prefs.sound;
  sound.addEventListener("change", () => {
    prefs.sound = sound.checked;
    savePrefs();
  });
  onPrefs(() => {
    sound.checked = prefs.sound;
    select.value = prefs.mode;
  });
  return h(
    "div",
    { class: "dice-settings", id: "dice-settings" },
    label,
    select,
    h("div", { class: "switch-row" }, sound, h("label", { for: "dice-sound", class: "switch-label" }, h("span", { class: "switch-track", "aria-hidden": "true" }), soundText)),
  );
}
