// Offline support, page side: registers the service worker (sw.js), says when the app is
// ready to work offline, shows when the network is gone, and offers to update when a new
// build has been published. It only adds its own DOM nodes (a status badge and an update
// banner), styled by css/pwa.css, and marks <html data-update-waiting> while a new build
// waits and <html data-leaving> once an update is asked;
// no inline styles (CSP).
//
// Updates are never forced: a new build installs in the background and waits; the banner
// "Nouvelle version disponible — Mettre à jour" lets the player choose the moment. The
// click tells the waiting worker to take over and the page reloads once. localStorage and
// IndexedDB (history, language, saved characters) are left as they are.
//
// Test and scripting hook: window.pyrulesOffline
//   state      {supported, ready, online, build, update}  (update: null | "waiting" | "reload")
//   check()    look for a new build now (also probes the network)
//   update()   what the "Mettre à jour" button does

import { t } from "../lib/i18n.js";
import "./strings.js";

const ENGINE_WAIT_MS = 20000; // at most this long for the engine before the offline copy is looked at
const CHECK_EVERY_MS = 30 * 60 * 1000; // look for a new build this often while visible
const STATUS_TIMEOUT_MS = 5000;
const RELOAD_FALLBACK_MS = 10000;
const PREPARING_RETRY_MS = 5000; // while the offline copy is still being made, ask again this often
const REINSTALL_AFTER_MS = [5000, 30000, 120000]; // a failed first install is tried again after these

const sw = "serviceWorker" in navigator && window.isSecureContext ? navigator.serviceWorker : null;

const state = {
  supported: sw !== null,
  ready: false,
  online: navigator.onLine,
  reachable: true, // false after a failed network check, until one succeeds
  build: null,
  update: null,
  problem: null, // {kind: "quota", needed, quota} when the device cannot hold the offline copy
};
let hadController = Boolean(sw && sw.controller);
let registration = null;
let updating = false;
let reloading = false;
let reinstalls = 0;
const followed = new WeakSet(); // the registrations (and workers) already listened to

/** The badge's and the banner's words (web/js/pwa/strings.js), in the page's language. */
function text(key, values = {}) {
  return t(`pwa.${key}`, values);
}

/** A size for people: "38 Mo" (rounded up), or "pas assez" when the browser did not say. */
function size(bytes) {
  const n = Number(bytes);
  if (!Number.isFinite(n) || n <= 0) return text("unknownSize");
  return text("mb", { n: Math.max(1, Math.ceil(n / 1e6)) });
}

function el(tag, className, attrs = {}) {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

// ---------------------------------------------------------------------------- DOM

const badge = el("p", "pwa-status", { id: "pwa-status", role: "status" });
const badgeIcon = el("span", "pwa-status-icon", { "aria-hidden": "true" });
const badgeText = el("span", "pwa-status-text");
badge.append(badgeIcon, badgeText);

// The live region stays in the page; its content appears when there is something to say.
const banner = el("div", "pwa-update", { id: "pwa-update", role: "status" });

function mount() {
  const tools = document.querySelector(".header-tools");
  if (tools) {
    tools.prepend(badge);
  } else {
    const dock = el("div", "pwa-dock");
    dock.append(badge);
    document.body.append(dock);
  }
  document.body.append(banner);
}

function render() {
  const online = state.online && state.reachable;
  let key = null;
  const quota = !state.ready && state.problem && state.problem.kind === "quota";
  if (!online) key = state.ready ? "offlineReady" : "offline";
  else if (state.ready) key = "ready";
  else if (quota) key = "quota";
  else if (state.supported) key = "preparing";
  badge.hidden = key === null;
  badge.dataset.state = !online ? "offline" : state.ready ? "ready" : quota ? "quota" : "preparing";
  badge.dataset.ready = String(state.ready);
  badge.dataset.online = String(online);
  if (state.build) badge.dataset.build = state.build;
  if (key) {
    const sizes = quota ? { needed: size(state.problem.needed), quota: size(state.problem.quota) } : {};
    badgeText.textContent = text(key, sizes);
    badge.title = text(`${key}Title`, sizes);
  }
  renderBanner();
}

function renderBanner() {
  banner.dataset.update = state.update || "";
  // While a new build waits for the player's go-ahead, the 3D dice do not start loading on
  // their own (stage3d.js): their requests would be in flight when "Mettre à jour" is tapped.
  const waits = state.update === "waiting";
  if (waits && !document.documentElement.hasAttribute("data-update-waiting")) {
    performance.mark("pyrules:update:waiting"); // when (tests/browser/test_offline.py)
  }
  document.documentElement.toggleAttribute("data-update-waiting", waits);
  if (!state.update) {
    banner.replaceChildren();
    return;
  }
  const waiting = state.update === "waiting";
  const message = el("p", "pwa-update-text");
  const title = el("strong", "pwa-update-title");
  title.textContent = text(waiting ? "update" : "updated");
  const keep = el("span", "pwa-update-keep");
  keep.textContent = text("keep");
  message.append(title, " ", keep);
  // It reloads the page: a touch on it does not start the 3D dice's warm-up (stage3d.js).
  const primary = el("button", "pwa-button pwa-button--primary", { type: "button", "data-action": "update", "data-leaves-page": "" });
  primary.textContent = text(updating ? "updating" : waiting ? "updateButton" : "reload");
  primary.disabled = updating;
  primary.addEventListener("click", applyUpdate);
  const later = el("button", "pwa-button", { type: "button", "data-action": "later" });
  later.textContent = text("later");
  later.addEventListener("click", () => {
    state.update = null;
    render();
  });
  const actions = el("div", "pwa-update-actions");
  actions.append(primary, later);
  banner.replaceChildren(message, actions);
}

// ---------------------------------------------------------------------------- network

function watchNetwork() {
  window.addEventListener("offline", () => {
    state.online = false;
    render();
  });
  window.addEventListener("online", () => {
    state.online = true;
    state.reachable = true;
    render();
    check();
  });
}

/** Look for a new build; a failed fetch of sw.js also means the network is gone. */
async function check() {
  if (!registration) return;
  if (workerless()) {
    await register(); // a failed first install: try again (update() needs a worker)
    return;
  }
  try {
    await registration.update();
    state.reachable = true;
  } catch {
    state.reachable = false;
  }
  state.online = navigator.onLine;
  render();
  if (state.reachable) checkStatus(); // the worker refills what is missing
}

// ---------------------------------------------------------------------------- service worker

function ask(worker, message) {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error("no answer from the service worker")), STATUS_TIMEOUT_MS);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

/** Ask the active worker whether every file of its build is in the cache. */
async function checkStatus() {
  const worker = registration && registration.active;
  if (!worker) return;
  try {
    showStatus(await ask(worker, { type: "status" }));
  } catch (error) {
    console.warn("[pwa]", error);
    render();
    retryWhilePreparing();
  }
}

let retryTimer = null;
/**
 * Still preparing, with no problem named (a refill under way, or a status message lost when
 * the browser stopped the worker): ask again soon, which also restarts the refill. A named
 * problem (no room on the device) is not retried this often.
 */
function retryWhilePreparing() {
  if (state.ready || state.problem || retryTimer !== null) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    checkStatus();
  }, PREPARING_RETRY_MS);
}

/** A status from the service worker: asked for, or sent when it refilled its cache. */
function showStatus(answer) {
  if (!answer || answer.type !== "status") return;
  state.ready = Boolean(answer.complete);
  state.build = answer.build || null;
  state.problem = answer.complete ? null : answer.problem || null;
  render();
  if (state.ready) keepStorage();
  else retryWhilePreparing();
}

/** Installed apps ask the browser not to evict their data under storage pressure. */
function keepStorage() {
  const standalone = window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
  if (!standalone || !navigator.storage || !navigator.storage.persist) return;
  navigator.storage
    .persisted()
    .then((persisted) => persisted || navigator.storage.persist())
    .catch(() => {});
}

function track(worker) {
  if (!worker || followed.has(worker)) return;
  followed.add(worker);
  worker.addEventListener("statechange", () => {
    // A new build waits only while another worker controls the page. WebKit, when busy,
    // delivers a first install's "installed" after it has already taken control: that
    // worker is the controller itself, and nothing waits.
    if (worker.state === "installed" && sw.controller && sw.controller !== worker) {
      state.update = "waiting"; // a new build, waiting for the player's go-ahead
      render();
    } else if (worker.state === "activated") {
      if (state.update === "waiting" && registration && !registration.waiting) state.update = null;
      checkStatus();
    } else if (worker.state === "redundant") {
      reinstallIfNone();
    }
  });
}

/** The registration holds no worker at all: its first install failed. */
function workerless() {
  return Boolean(registration) && !registration.installing && !registration.waiting && !registration.active;
}

let reinstallTimer = null;
/**
 * A first install that failed (a file could not be fetched: the network dropped, a deploy
 * was half published) leaves no worker at all, and nothing would try again before the next
 * start: register again, a few times, further and further apart. The new install keeps the
 * files already cached. A failed update is left alone: the installed build still works.
 * Whether the registration is left with no worker is decided when the timer fires, not
 * now: an install can fail before the page has followed its worker, and the registration's
 * attributes and a worker's state reach the page separately, in either order.
 */
function reinstallIfNone() {
  if (reinstallTimer !== null || reinstalls >= REINSTALL_AFTER_MS.length) return;
  reinstallTimer = setTimeout(async () => {
    reinstallTimer = null;
    if (!workerless()) return; // installed, or still installing (followed: it calls again)
    reinstalls += 1;
    console.warn("[pwa] the offline copy could not be installed; trying again");
    await register();
  }, REINSTALL_AFTER_MS[reinstalls]);
}

function reload() {
  if (reloading) return;
  reloading = true;
  window.location.reload();
}

function applyUpdate() {
  const waiting = registration && registration.waiting;
  if (state.update !== "waiting" || !waiting) {
    reload();
    return;
  }
  updating = true;
  // From now on the page loads nothing more (stage3d.js): a request to the old worker just
  // after skip-waiting left Chromium's new worker waiting, and even the fallback reload hung.
  document.documentElement.setAttribute("data-leaving", "");
  render();
  waiting.postMessage({ type: "skip-waiting" });
  setTimeout(reload, RELOAD_FALLBACK_MS); // in case the controller change never comes
}

function onControllerChange() {
  if (updating) {
    reload(); // this tab asked for the new build: it reloads once, into it
  } else if (!hadController) {
    hadController = true; // the first install took control of this page: nothing to reload
    checkStatus();
  } else {
    state.update = "reload"; // another tab switched to the new build
    render();
  }
}

function engineSettled() {
  const ready = window.pyrules && window.pyrules.ready;
  const timeout = new Promise((resolve) => setTimeout(resolve, ENGINE_WAIT_MS));
  return Promise.race([ready ? Promise.resolve(ready).catch(() => {}) : timeout, timeout]);
}

/** Register sw.js (again, after a failed install); false when the browser refuses. */
async function register() {
  try {
    registration = await sw.register("sw.js", { scope: "./", updateViaCache: "none" });
    // (Playwright's service_workers="block" resolves with nothing.)
    if (!registration) throw new Error("no registration");
  } catch (error) {
    console.warn("[pwa] service worker registration failed:", error);
    state.supported = false;
    render();
    return false;
  }
  const current = registration;
  if (!followed.has(current)) {
    followed.add(current);
    current.addEventListener("updatefound", () => track(current.installing));
  }
  track(current.installing);
  track(current.waiting);
  reinstallIfNone();
  return true;
}

async function start() {
  mount();
  new MutationObserver(render).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
  watchNetwork();
  render();
  if (!sw) return;
  sw.addEventListener("controllerchange", onControllerChange);
  sw.addEventListener("message", (event) => showStatus(event.data));
  if (sw.startMessages) sw.startMessages();
  // Nothing of the offline copy before the engine has started. First visit: the page
  // downloads the runtime first; the worker then revalidates the files (304) instead of
  // downloading the same 13 MB a second time in parallel. Later visits: the update check
  // (sw.js from the network, twice) and the copy's status (every cached file listed) would
  // run while the engine's worker reads the same cache, its reads relayed by this thread in
  // WebKit; they come once it is ready.
  await engineSettled();
  if (!(await register())) return;
  if (registration.waiting && sw.controller) state.update = "waiting";
  sw.ready.then(checkStatus);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") check();
  });
  setInterval(() => {
    if (document.visibilityState === "visible") check();
  }, CHECK_EVERY_MS);
  if (hadController) check();
  render();
}

window.pyrulesOffline = {
  get state() {
    return { ...state, online: state.online && state.reachable };
  },
  check,
  update: applyUpdate,
};

start();
