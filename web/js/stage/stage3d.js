// The 3D side of the roll stage: the 3D dice module (three.js + cannon-es, dice3d.js)
// imported once the engine is ready and warmed up, the one scene (one WebGL context) every
// throw reuses, its canvas following the stage's size, and the frame loop of a throw.

import { SUPPORTED } from "./dice-solids.js";
import { prefs } from "../ui/dice-settings.js";
import { h, prefersReducedMotion } from "../lib/dom.js";
import { click } from "./sound.js";
import { keepAwake } from "./wake.js";

let webgl = null;
function hasWebGL() {
  if (webgl === null) {
    try {
      const canvas = document.createElement("canvas");
      webgl = Boolean(canvas.getContext("webgl2") || canvas.getContext("webgl"));
    } catch {
      webgl = false;
    }
  }
  return webgl;
}

let dice3d = null; // the module, once imported
let scene = null; // one DiceScene (one WebGL context) for every throw
let failed3d = false;

/**
 * Import the 3D dice (three.js + cannon-es) ahead of the first throw, then warm the renderer
 * up (every solid and shader compiled and drawn once, out of sight), so that the first throw
 * is as quick as the next ones. Called once the engine is ready. Resolves the module (or null).
 * Not while the player asks for reduced motion: the stage then throws no dice at all
 * (stage.js), so three.js and the shaders would cost a tablet's CPU for nothing.
 */
export function preload3d() {
  keepAwake(); // the app is ready: the screen stays awake from now on (setting)
  if (prefs.mode !== "3d" || failed3d || leaving() || !hasWebGL()) return Promise.resolve(null);
  if (!dice3d && prefersReducedMotion()) {
    if (!performance.getEntriesByName("pyrules:3d:held").length) performance.mark("pyrules:3d:held");
    return Promise.resolve(null);
  }
  dice3d ??= import("./dice3d.js")
    .then((module) => {
      // Warmed up in the background: a throw that comes first stops it and goes on at once.
      // The canvas is laid out (a speck in a corner, nearly transparent) while it warms up:
      // the browser's first compositing of a WebGL canvas is part of the cold start too.
      const scene = sceneOf(module);
      if (!scene.canvas.isConnected) {
        scene.canvas.classList.add("is-warming");
        document.body.append(scene.canvas);
      }
      const done = () => {
        scene.canvas.classList.remove("is-warming");
        if (scene.canvas.parentNode === document.body) scene.canvas.remove();
      };
      scene
        .warmUp(prefs.colour, () => throwing)
        .then((all) => {
          warmed = all;
        })
        .catch((error) => console.warn("3D dice warm-up failed:", error))
        .finally(done);
      return module;
    })
    .catch((error) => {
      failed3d = true;
      console.warn("3D dice unavailable:", error);
      return null;
    });
  return dice3d;
}

/**
 * The page is about to be replaced (pwa.js marks <html data-leaving> when "Mettre à jour" is
 * tapped): nothing more is loaded. Chromium, on a busy machine, left the new build's service
 * worker waiting for good when the page's requests restarted the old one right after the
 * tap, and the reload into the new build never came (tests/browser/test_offline.py).
 */
function leaving() {
  return document.documentElement.hasAttribute("data-leaving");
}

/** How long after ready the 3D dice wait before warming up, unless the player touches first. */
export const WARM_AFTER_MS = 3000;
const FIRST_TOUCH = ["pointerdown", "keydown"];

/**
 * The engine is ready: the screen stays awake from now on (setting), and the 3D dice warm up
 * out of the boot's way, at the player's first touch or key or WARM_AFTER_MS later, whichever
 * comes first. Importing three.js and compiling the looks keep the main thread busy for a
 * while (a second and more on a slow tablet, under software GL): right at ready, that is
 * the moment the player reads the screen and the offline copy is being stored. A throw
 * before then imports and draws the dice itself.
 */
export function preload3dSoon(delay = WARM_AFTER_MS) {
  keepAwake();
  let timer = null;
  const start = (event) => {
    // A control that leaves the page (the update banner's) is no reason to load the dice.
    if (event?.target?.closest?.("[data-leaves-page]")) return;
    // Nor is the clock while a new build waits (pwa.js): the player may tap "Mettre à jour"
    // at any moment, and the old worker must not be serving three.js then (see leaving()).
    // Asked again later; a touch of the page itself, or a throw, still loads them.
    if (!event && document.documentElement.hasAttribute("data-update-waiting")) {
      if (!performance.getEntriesByName("pyrules:3d:deferred").length) performance.mark("pyrules:3d:deferred");
      timer = setTimeout(start, delay);
      return;
    }
    clearTimeout(timer);
    for (const type of FIRST_TOUCH) removeEventListener(type, start, true);
    preload3d();
  };
  timer = setTimeout(start, delay);
  for (const type of FIRST_TOUCH) addEventListener(type, start, { capture: true, passive: true });
  // Reduced motion turned off later (a system setting): the dice warm up then.
  window.matchMedia?.("(prefers-reduced-motion: reduce)").addEventListener?.("change", (event) => {
    if (!event.matches) preload3d();
  });
}

let warmed = false;
let throwing = false; // a throw has begun: the warm-up, if still running, stops

/** The one DiceScene (created on first use), its canvas following the stage's size. */
function sceneOf(module) {
  if (scene) return scene;
  const canvas = h("canvas", { class: "stage-canvas", "aria-hidden": "true" });
  scene = new module.DiceScene(canvas);
  if (typeof ResizeObserver !== "undefined") {
    // Rotation, split view, a dice-size change: the view follows, never stretched.
    new ResizeObserver(() => {
      if (!canvas.isConnected || !canvas.clientWidth || !canvas.clientHeight) return;
      const seen = scene.viewed;
      if (!seen || seen.width !== canvas.clientWidth || seen.height !== canvas.clientHeight) scene.resize();
    }).observe(canvas);
  }
  return scene;
}

/** Whether these dice ([{sides}]) can be thrown in 3D here. */
export function can3d(dice) {
  return !failed3d && hasWebGL() && dice.length > 0 && dice.every((d) => SUPPORTED.has(d.sides) || d.kind === "fudge");
}

/**
 * The 3D throw of show.dice in `box` (the stage's dice area); resolves true once landed (or
 * skipped), false when 3D could not be used (the stage then shows 2D dice).
 */
export async function throw3d(show, box, skippedNow, onReady) {
  const { dice } = show;
  throwing = true;
  const module = await preload3d();
  if (!module || show.closed || skippedNow()) return false;
  try {
    const scene = sceneOf(module);
    box.replaceChildren(scene.canvas);
    await scene.prepare(dice, { colour: show.colour ?? prefs.colour, size: prefs.size }); // another player's roll: its colour
  } catch (error) {
    if (error instanceof module.Superseded) return false;
    console.warn("3D dice failed, 2D instead:", error);
    failed3d = true;
    return false;
  }
  if (show.closed || skippedNow()) return false; // skipped meanwhile: the 2D faces are shown
  show.scene = scene;
  onReady();
  const frames = scene.length;
  const rate = Math.max(1, frames / 60); // the whole throw in 1 s at most
  const impacts = scene.impacts.slice();
  return new Promise((resolve) => {
    let start = null;
    let shown = -1;
    const frame = (now) => {
      if (show.closed) return resolve(false);
      start ??= now;
      const k = skippedNow() ? frames - 1 : Math.min(frames - 1, ((now - start) / 1000) * 60 * rate);
      scene.draw(k);
      if (prefs.sound) {
        for (const hit of impacts) if (hit.step > shown && hit.step <= k) click(Math.min(1, hit.speed / 20));
      }
      shown = k;
      if (k >= frames - 1) resolve(true);
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** The 3D scene (null before the first 3D throw or warm-up) and whether it was warmed up. */
export function scene3d() {
  return { scene, warmed };
}

