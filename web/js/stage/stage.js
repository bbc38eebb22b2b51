// The roll stage: every roll, whichever screen started it, plays in a panel fixed in the
// viewport (under the tab bar on tablets, above the bottom bar on phones): the dice (3D, 2D
// or none, see the dice settings), then the verdict in large type. The page's own result card
// tumbles and lands with it, so the detail (explanation, odds, Flame placement) is one tap away
// ("Détails"). Closing (a tap on the stage, Escape, the next roll) returns focus where it was;
// a tap elsewhere on the page, or scrolling the page on, closes it too (the tap does what it
// would do). It never covers the tab bar nor the roll bar.
//
// The number rolled comes first, in the largest type: the engine answer's `headline` (both
// sides' for an opposition, headline.js), in data-headline, before the verdict's words.
//
// Hooks: the stage carries data-roll-stage, its verdict data-verdict, its headline
// data-headline, and
// window.pyrules.shownFaces() returns the faces the stage's dice show (3D: read back from
// each die's orientation), in the order of the result's `dice` list.

import { createDie, setFace, tumble } from "./dice.js";
import { onPrefs, prefs, savePrefs } from "../ui/dice-settings.js";
import { h, prefersReducedMotion, s } from "../lib/dom.js";
import { onLangChange, t } from "../lib/i18n.js";
import { headlineParts, headlineText } from "./headline.js";
import { click, soundLog } from "./sound.js";
export { preload3d, preload3dSoon } from "./stage3d.js";
import { awake } from "./wake.js";
import { can3d, preload3d, scene3d, throw3d } from "./stage3d.js";
import "./strings.js";

onPrefs(() => {
  drawSound();
  preload3d();
});

// ------------------------------------------------------------------------------ the panel

let el = null; // {root, dice, verdict, sound, details}
// The last element focused outside the stage: a roll button disabled while the engine answers
// loses focus to <body>, and closing the stage must still give it back.
let lastFocused = null;
if (typeof document !== "undefined") {
  // (no document when Node imports this module for the string-catalogue tests)
  document.addEventListener("focusin", (event) => {
    if (!el || !el.root.contains(event.target)) lastFocused = event.target;
  });
}
if (typeof document !== "undefined") {
  // The skip link (index.html, first in the tab order) focuses « Lancer » itself.
  document.addEventListener("click", (event) => {
    const link = event.target.closest ? event.target.closest("a[data-skip-to]") : null;
    const target = link && document.getElementById(link.dataset.skipTo);
    if (!target) return;
    event.preventDefault();
    target.scrollIntoView({ block: "nearest" });
    target.focus();
  });
}
let current = null; // the throw on the stage: {mode, landed, returnFocus, detail, flat, scene}
let lastShown = null; // the last throw, still answering shownFaces() once the stage is closed

function build() {
  const close = h("button", { type: "button", class: ["stage-button", "stage-close"], "aria-label": t("stage.close"), text: "×" });
  const details = h("button", { type: "button", class: ["stage-button", "stage-details"], text: t("stage.details") });
  const sound = h("button", { type: "button", class: ["stage-button", "stage-sound"], id: "stage-sound" });
  const root = h(
    "section",
    { class: "roll-stage", tabindex: "-1", role: "region", "aria-label": t("stage.label"), dataset: { rollStage: "", state: "closed" }, hidden: true },
    h("div", { class: "stage-dice" }),
    h("div", { class: "stage-verdict", dataset: { verdict: "" } }),
    h("div", { class: "stage-tools" }, sound, details, close),
  );
  close.addEventListener("click", () => closeStage(true));
  details.addEventListener("click", () => showDetail());
  sound.addEventListener("click", () => {
    prefs.sound = !prefs.sound;
    savePrefs();
  });
  root.addEventListener("click", (event) => {
    if (current && current.landed && !event.target.closest("button")) closeStage(true);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && current && current.landed) closeStage(true);
    // Tab stays among the stage's buttons while it is open.
    if (event.key === "Tab" && current && current.landed && el.root.contains(document.activeElement)) {
      const buttons = [...el.root.querySelectorAll("button")].filter((b) => !b.hidden && !b.disabled);
      const at = buttons.indexOf(document.activeElement);
      const next = buttons[(at + (event.shiftKey ? -1 : 1) + buttons.length) % buttons.length];
      if (next) {
        event.preventDefault();
        next.focus();
      }
    }
  });
  // A tap elsewhere closes the stage and goes on to what was tapped.
  document.addEventListener(
    "pointerdown",
    (event) => {
      if (current && current.landed && !root.contains(event.target)) closeStage(false);
    },
    true,
  );
  window.addEventListener("resize", () => current && place());
  // Scrolling the page on (by hand, or to reach a control) closes it too.
  window.addEventListener(
    "scroll",
    () => {
      if (current) place(); // the sticky tab bar moved: stay under it
      if (!current || !current.landed) return;
      const height = document.documentElement.scrollHeight;
      if (height !== current.height) {
        // The page grew or shrank under the stage (the card landing): not a scroll by hand.
        current.height = height;
        current.scrollY = window.scrollY;
      } else if (Math.abs(window.scrollY - current.scrollY) > 40) closeStage(false);
    },
    { passive: true },
  );
  onLangChange(() => {
    // The stage's own words follow the language switch, open or not.
    root.setAttribute("aria-label", t("stage.label"));
    close.setAttribute("aria-label", t("stage.close"));
    details.textContent = t("stage.details");
    drawSound();
    if (current) drawHeadline(current);
  });
  document.body.append(root);
  el = { root, dice: root.firstChild, verdict: root.children[1], sound, details, close };
  drawSound();
}

function drawSound() {
  if (!el) return;
  const icon = s("svg", { class: "stage-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, s("path", { d: "M4 9h4l5-4v14l-5-4H4z" }));
  if (prefs.sound) icon.append(s("path", { class: "stroke", d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" }));
  else icon.append(s("path", { class: "stroke", d: "M16 9l6 6M22 9l-6 6" }));
  el.sound.replaceChildren(icon);
  el.sound.setAttribute("aria-pressed", String(prefs.sound));
  el.sound.setAttribute("aria-label", t(prefs.sound ? "stage.soundOn" : "stage.soundOff"));
  el.sound.dataset.sound = prefs.sound ? "on" : "off";
}

/** Keep the stage clear of the sticky tab bar (tablets) and the bottom bar (phones). */
function place() {
  const tabs = document.getElementById("view-tabs");
  const rect = tabs ? tabs.getBoundingClientRect() : null;
  const bottomBar = rect && rect.top > window.innerHeight / 2;
  el.root.style.setProperty("--stage-top", `${rect && !bottomBar ? Math.max(0, rect.bottom) : 0}px`);
  el.root.style.setProperty("--stage-bottom", `${bottomBar ? window.innerHeight - rect.top : 0}px`);
}

function closeStage(restoreFocus) {
  if (!current) return;
  const { returnFocus } = current;
  current.closed = true;
  current = null;
  el.root.hidden = true;
  el.root.dataset.state = "closed";
  if (restoreFocus && returnFocus && returnFocus.isConnected) returnFocus.focus({ preventScroll: true });
}

function showDetail() {
  const target = current && current.detail;
  closeStage(false);
  if (!target || !target.isConnected) return;
  if (!target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.scrollIntoView({ block: "start", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  target.focus({ preventScroll: true });
}

// ------------------------------------------------------------------------------ playing

/** The headline of the throw on the stage, in the current language (empty: none). */
function drawHeadline(show) {
  const text = headlineText(show.answer);
  el.headline.replaceChildren(...headlineParts(text).map((part) => h("span", { class: part.number ? "headline-number" : "headline-words", text: part.text })));
  el.headline.hidden = !text;
}

/**
 * Play a throw on the stage. dice: [{sides, face, rolled, kind, side, tags}] in the result's
 * order (rolled: the face first rolled, shown in 3D when the final one is beyond the die);
 * verdict: a Node shown once they land; detail: the element "Détails" brings into view;
 * answer: the engine's answer (its `headline`s are the stage's headline; none: no headline);
 * colour: the dice colour id (another player's roll), else this device's setting.
 * Returns {skip(), done}; onDone runs once the dice have landed (at once without motion).
 */
export function playStage({ dice, verdict, detail, answer = null, colour = null }, onDone) {
  if (!el) build();
  const active = document.activeElement;
  const returnFocus = current ? current.returnFocus : active && active !== document.body ? active : lastFocused;
  if (current) closeStage(false);
  const show = { mode: "none", landed: false, returnFocus, detail, dice, answer, colour, closed: false };
  current = show;
  lastShown = show;
  place();
  el.root.hidden = false;
  el.root.dataset.state = "rolling";
  el.headline = h("p", { class: "stage-headline", dataset: { headline: "" } });
  drawHeadline(show);
  el.verdict.replaceChildren(el.headline, verdict || "");
  el.verdict.setAttribute("aria-hidden", "true");
  el.details.hidden = !detail;
  el.details.textContent = t("stage.details");
  el.close.setAttribute("aria-label", t("stage.close"));
  el.root.setAttribute("aria-label", t("stage.label"));
  drawSound();
  const control = { done: false, skip: () => {} };
  const land = () => {
    if (control.done) return;
    control.done = true;
    show.landed = true;
    show.scrollY = window.scrollY;
    show.height = document.documentElement.scrollHeight;
    if (!show.closed) {
      el.root.dataset.state = "landed";
      el.root.dataset.mode = show.mode;
      el.verdict.removeAttribute("aria-hidden");
      // Focus goes into the stage's buttons while it is open (closing gives it back).
      if (!el.root.contains(document.activeElement)) el.close.focus({ preventScroll: true });
    }
    onDone();
  };
  const mode = prefersReducedMotion() ? "none" : prefs.mode;
  const use3d = mode === "3d" && can3d(dice);
  if (mode === "none" || dice.length === 0) {
    drawFlat(show, dice, false);
    land();
    return control;
  }
  if (!use3d) {
    const flat = drawFlat(show, dice, true);
    const spin = tumble(flat, land);
    if (prefs.sound) click(0.8);
    control.skip = () => spin.skip();
    return control;
  }
  show.mode = "3d";
  el.root.dataset.mode = "3d";
  let skipped = false;
  let ready = false;
  control.skip = () => {
    skipped = true;
    if (ready) return; // the frame loop draws the last frame and lands
    if (!show.closed) drawFlat(show, dice, false); // not simulated yet: the 2D faces, at once
    land();
  };
  throw3d(show, el.dice, () => skipped, () => {
    ready = true;
  })
    .then((ok) => {
      if (control.done) return;
      if (ok || show.closed) {
        land(); // a closed stage (the next roll began) still lets this roll's card land
        return;
      }
      const flat = drawFlat(show, dice, true);
      const spin = tumble(flat, land);
      control.skip = () => spin.skip();
    })
    .catch(() => {
      if (control.done) return;
      if (!show.closed) drawFlat(show, dice, false);
      land();
    });
  return control;
}

function drawFlat(show, dice, rolling) {
  show.mode = rolling ? "2d" : "none";
  el.root.dataset.mode = show.mode;
  const animated = dice.map((d) => {
    const die = createDie(d.sides, d.kind);
    die.dataset.side = d.side || "actor";
    setFace(die, d.face);
    return { el: die, face: d.face };
  });
  show.flat = animated;
  show.scene = null;
  el.dice.replaceChildren(h("div", { class: ["stage-tray", dice.length > 12 ? "is-many" : ""] }, animated.map((d) => d.el)));
  return animated;
}

/** The faces the stage's dice show now, in the order of the result's dice list. */
export function shownFaces() {
  if (!current && !lastShown) return [];
  const show = current || lastShown;
  if (show.scene) return show.scene.shownFaces();
  return (show.flat || []).map((d) => Number(d.el.dataset.face));
}

/** Where each 3D die shows on screen ([{index, role, x}], x from -1 left to 1 right; [] in 2D). */
export function shownLayout() {
  const show = current || lastShown;
  return show && show.scene && show.scene.shownLayout ? show.scene.shownLayout() : [];
}

/** Which renderer drew the last throw: "3d", "2d" or "none" (tests and the bench read it). */
export function stageMode() {
  return el ? el.root.dataset.mode || "none" : "none";
}

// ------------------------------------------------------------------------------ page glue

/** The engine's tags of a die drawn on the result card (its cell's data-tags), for the 3D looks. */
function tagsOf(die) {
  const cell = die && die.closest ? die.closest(".die-cell") : null;
  return cell && cell.dataset.tags ? cell.dataset.tags.split(" ") : [];
}

/** The face a die drawn on the result card first rolled (its cell's data-rolled), or undefined. */
function rolledOf(die) {
  const cell = die && die.closest ? die.closest(".die-cell") : null;
  return cell && cell.dataset.rolled ? Number(cell.dataset.rolled) : undefined;
}

/**
 * Drop-in for dice.js tumble(): plays the roll of the page's result card (view.dice) on the
 * stage; onDone once it has landed. view: {element, dice, verdict, answer?};
 * answer: the engine's answer shown (the headline's numbers), view.answer by default;
 * colour: the dice colour id to throw in (another player's roll), this device's by default.
 */
export function playRoll(view, onDone, answer = view.answer ?? null, { colour = null } = {}) {
  let pageDone = false;
  let stageDone = false;
  const both = () => {
    if (pageDone && stageDone) onDone();
  };
  // The card's dice do not tumble under the stage: they show their faces once it has landed
  // (the card is hidden until then, see result.css .is-rolling).
  const page = { skip: () => {} };
  pageDone = true;
  const stage = playStage(
    {
      dice: view.dice.map((d) => ({ sides: d.sides, face: d.face, rolled: d.rolled ?? rolledOf(d.el), kind: d.kind, side: d.side, tags: d.tags ?? tagsOf(d.el) })),
      verdict: view.verdict ? view.verdict() : null,
      detail: view.element,
      answer,
      colour,
    },
    () => {
      stageDone = true;
      page.skip();
      both();
    },
  );
  return {
    get done() {
      return pageDone && stageDone;
    },
    skip: () => {
      stage.skip();
      page.skip();
    },
  };
}

export const testHooks = { soundLog, prefs, stageMode, scene3d, awake };
