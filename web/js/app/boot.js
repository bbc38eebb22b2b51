// The engine's start as the page sees it: progress and failures on the boot panel, then,
// on the first "ready", the engine's own description of the systems (kept for the next
// visit); a later "ready" is a restarted worker.

import { storageSet } from "../lib/dom.js";
import { lang } from "../lib/i18n.js";
import { SYSTEMS_KEY } from "../roll/state.js";

/**
 * Listen to engine.js's events. panel: BootPanel; updateRollButton(); onRestart(detail):
 * the worker was restarted; onSystems(changed): the description was stored in app (changed:
 * it differs from the one the page was drawn from); onReady(detail, version): the first
 * boot is over.
 */
export function watchEngine({ engine, app, panel, hooks, updateRollButton, onRestart, onSystems, onReady }) {
  const reveal = revealWhenDrawn();
  const failed = (step, message) => {
    reveal();
    app.engineReady = false;
    panel.error(step, message);
    updateRollButton();
  };
  engine.addEventListener("progress", (event) => panel.progress(event.detail));
  engine.addEventListener("error", (event) => failed(event.detail.step, event.detail.message));
  engine.addEventListener("restart", (event) => onRestart(event.detail));
  engine.addEventListener("ready", async (event) => {
    if (app.booted) {
      app.engineReady = true;
      panel.progress({ step: "ready" });
      updateRollButton();
      return;
    }
    hooks.version = event.detail.version;
    // The page was drawn from the description its build baked in, whose digest the engine
    // says at ready (main.js trusts no other): no `systems` call (issue 40).
    if (app.digest !== null && app.digest === event.detail.digest) {
      started(event.detail, false, event.detail.version);
      return;
    }
    panel.progress({ step: "systems" });
    let answer;
    try {
      answer = await engine.call({ op: "systems", lang: lang() });
    } catch (error) {
      failed("systems", error.message);
      return;
    }
    if (!answer.ok) {
      failed("systems", answer.error.message);
      return;
    }
    const fresh = answer.result.systems;
    const changed = JSON.stringify(fresh) !== JSON.stringify(app.systems) || JSON.stringify(answer.result.play) !== JSON.stringify(app.play);
    app.systems = fresh;
    app.play = answer.result.play ?? null;
    app.digest = typeof answer.result.digest === "string" ? answer.result.digest : null;
    storageSet(SYSTEMS_KEY, { version: answer.result.version, systems: fresh, play: app.play, digest: app.digest });
    started(event.detail, changed, answer.result.version);
  });

  /** The first boot is over: the forms follow the description (changed), a roll is possible. */
  function started(detail, changed, version) {
    onSystems(changed);
    app.engineReady = true;
    app.booted = true;
    reveal();
    panel.progress({ step: "ready" });
    onReady(detail, version);
  }
}

/**
 * The roll view is drawn hidden (boot.css: body without data-drawn) until its forms exist, so
 * that building them moves nothing the player sees (no layout shift at boot); then, or at the
 * latest when the engine is ready or failed, body[data-drawn] shows it. Returns that reveal.
 */
export function revealWhenDrawn(doc = document) {
  const view = doc.getElementById("view-roll");
  const drawn = () => !view || view.querySelector(".side-form[data-system]");
  let observer = null;
  const reveal = () => {
    if (observer) observer.disconnect();
    doc.body.dataset.drawn = "true";
  };
  if (drawn()) {
    reveal();
  } else {
    observer = new MutationObserver(() => drawn() && reveal());
    observer.observe(view, { childList: true, subtree: true });
  }
  return reveal;
}
