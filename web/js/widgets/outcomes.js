// Colour, icon and label of an outcome tier, derived from the system's `outcomes` list
// (best first) — no system is named here. Colours come from the Okabe–Ito palette,
// which stays distinguishable with the common colour-vision deficiencies; every tier
// also has a text label and an icon, so colour is never the only cue.

import { s } from "../lib/dom.js";
import { pick } from "../lib/i18n.js";

// Successes, strongest first; failures, mildest first.
const SUCCESS_COLOURS = ["#0072B2", "#009E73", "#56B4E9"];
const FAILURE_COLOURS = ["#E69F00", "#D55E00", "#8C2D04"];

function bucket(index, count, size) {
  if (count <= 1) return 0;
  return Math.round((index * (size - 1)) / (count - 1));
}

function contrastText(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return luminance > 0.18 ? "#111111" : "#FFFFFF";
}

/** {label, colour, ink, icon, success, rank, level} of an outcome id in a system. */
export function outcomeInfo(system, id) {
  const outcomes = system.outcomes || [];
  const outcome = outcomes.find((o) => o.id === id) || { id, success: false, rank: 0, label: id };
  const successes = outcomes.filter((o) => o.success);
  const failures = outcomes.filter((o) => !o.success);
  let colour;
  let icon;
  if (outcome.success) {
    const i = successes.indexOf(outcome);
    colour = SUCCESS_COLOURS[bucket(Math.max(i, 0), successes.length, SUCCESS_COLOURS.length)];
    icon = i === 0 && successes.length > 1 ? "star" : "check";
  } else {
    const i = failures.indexOf(outcome);
    colour = FAILURE_COLOURS[bucket(Math.max(i, 0), failures.length, FAILURE_COLOURS.length)];
    icon = i === failures.length - 1 && failures.length > 1 ? "skull" : "cross";
  }
  return { id, label: pick(outcome.label), colour, ink: contrastText(colour), icon, success: Boolean(outcome.success), rank: outcome.rank };
}

const ICON_PATHS = {
  star: "M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z",
  check: "M4.5 12.5l5 5 10-11",
  cross: "M6 6l12 12M18 6L6 18",
  skull: "M12 3a8 8 0 0 0-8 8c0 2.8 1.4 4.6 3 5.6V20h10v-3.4c1.6-1 3-2.8 3-5.6a8 8 0 0 0-8-8zM9 10.5a1.6 1.6 0 1 1 0 3.2 1.6 1.6 0 0 1 0-3.2zm6 0a1.6 1.6 0 1 1 0 3.2 1.6 1.6 0 0 1 0-3.2zM10 20v-2.5M14 20v-2.5",
};

export function outcomeIcon(name) {
  const filled = name === "star" || name === "skull";
  return s(
    "svg",
    { class: `icon icon-${name}`, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: ICON_PATHS[name], class: filled ? "icon-fill" : "icon-stroke" }),
  );
}

/** Apply an outcome's colours to an element (JS-set CSSOM styles are CSP-safe). */
export function paint(element, info) {
  element.style.setProperty("--tier", info.colour);
  element.style.setProperty("--tier-ink", info.ink);
  element.dataset.outcome = info.id;
  element.dataset.success = String(info.success);
}
