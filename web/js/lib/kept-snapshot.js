// Which build's raw snapshot this device keeps, if any: a hint for the engine's worker at
// start. engine.js writes it when the worker says it stored its raw copy (Cache Storage,
// engine/snapshot.js); js/engine/early.js reads it and tells the worker before it looks for
// that copy. Told none (a first visit, a new build, a cleared storage), the worker asks for
// the site's file at once instead of opening Cache Storage first, which in WebKit holds the
// worker's thread until the page's main thread is free (about 0.1 s of a first visit,
// docs/performance.md). A hint only: read as untrusted (anything but a build's name reads as
// none) and never reported when it cannot be written; a wrong one costs a download, never a
// start. Imports nothing: early.js is built from it as a classic script.

export const KEPT_KEY = "pyrules:engine-kept";

/** The build named by the stored text (as localStorage.getItem gives it), else null. */
export function keptBuild(raw) {
  try {
    const value = JSON.parse(raw);
    return typeof value === "string" && value.length > 0 && value.length <= 100 ? value : null;
  } catch {
    return null;
  }
}
