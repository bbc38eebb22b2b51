// The screen stays awake while the app is open (Screen Wake Lock), so that an iPad lying on
// the table does not dim between two throws. A setting (ui/dice-settings.js, on by default
// where the browser has it). The browser drops the lock when the page is hidden: it is asked
// again when the page shows. A refusal (battery saver, no user gesture yet) is not an error:
// it is asked again at the next tap.

import { onPrefs, prefs, wakeLockSupported } from "../ui/dice-settings.js";

let sentinel = null;
let asking = false;
let started = false;

async function acquire() {
  if (!prefs.awake || !wakeLockSupported() || sentinel || asking || document.visibilityState !== "visible") return;
  asking = true;
  try {
    const lock = await navigator.wakeLock.request("screen");
    if (prefs.awake) {
      sentinel = lock;
      lock.addEventListener?.("release", () => {
        if (sentinel === lock) sentinel = null;
      });
    } else await lock.release();
  } catch {
    // refused for now: asked again on the next tap or when the page shows again
  } finally {
    asking = false;
  }
}

async function release() {
  const lock = sentinel;
  sentinel = null;
  if (lock) await lock.release().catch(() => {});
}

/** Keep the screen awake from now on, as the setting says (idempotent). */
export function keepAwake() {
  if (started || typeof document === "undefined") return;
  started = true;
  document.addEventListener("visibilitychange", () => acquire());
  document.addEventListener("pointerdown", () => acquire(), { passive: true });
  onPrefs(() => (prefs.awake ? acquire() : release()));
  acquire();
}

/** Whether a wake lock is held now (tests read it). */
export function awake() {
  return sentinel !== null;
}
