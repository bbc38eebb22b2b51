// pyrules service worker: the whole app (page, scripts, styles, icons, the Pyodide runtime
// and the wheels) is cached at install, so a player who opened the app once can open it
// again with no network at all.
//
// A classic script with no import (Safari). build.py writes dist/sw.js from this file,
// replacing the placeholder strings below: BUILD becomes the build hash (a content hash
// of every other file of dist/), PRECACHE the {path: "sha256-..."} map of the files to
// cache, paths relative to this script, and BYTES their total size. A new build therefore gives a new sw.js, which the
// browser sees as an update.
//
// Life cycle:
//   install   every file of the build goes into the cache "pyrules:<scope path>:<build>",
//             fetched past the HTTP cache and checked against its sha256 (integrity), so a
//             half-published deploy never gets cached. No skipWaiting here: a new build waits
//             until the page asks for it ({type: "skip-waiting"}) or every tab is closed.
//   activate  deletes the caches of other builds of this same deployment (same scope) and
//             takes control of the open pages. localStorage and IndexedDB are never touched.
//   fetch     the files of the build are answered from its cache (cache-first: the page, its
//             scripts, version.json and the wheels always come from one and the same build);
//             a navigation to the app answers index.html; anything else goes to the network.
//   message   {type: "status"} -> {type: "status", build, complete, missing, total, healing,
//             problem} on the message's port; {type: "progress"} -> {type: "progress", stage,
//             done, total}, where the install or refill is, answered without touching storage
//             ("idle" until an install event comes); {type: "skip-waiting"} activates a waiting
//             build.
//
// Healing: the cache can lose files after install (the browser evicts it, a player clears
// site data, an install was cut short). Whenever a status is asked (every page start, the
// page's network checks, "online") or a file of the build is missing from the cache, the
// missing files are fetched again (integrity checked) and stored; when that is done the
// new status is sent to every page of the site ({type: "status", ...} message).
// Quota: when the device cannot hold the offline copy (the storage estimate is below BYTES,
// or the cache refuses a file with QuotaExceededError), the install still completes, so the
// app keeps working online (files not in the cache come from the network), and the status
// carries problem: {kind: "quota", needed, quota} for the page to say so.

"use strict";

const BUILD = "__BUILD__";
const PRECACHE = "__PRECACHE__";
const BYTES = "__BYTES__";

const BUILT = typeof PRECACHE === "object" && PRECACHE !== null;
const FILES = BUILT ? Object.keys(PRECACHE) : [];
const INTEGRITY = new Map(FILES.map((path) => [path, PRECACHE[path]]));
const SCOPE = self.registration.scope; // ends with "/": the site's root, e.g. /pyrules/
const SCOPE_PATH = new URL(SCOPE).pathname;
// Several deployments can share one origin (user.github.io/a/ and /b/): the scope is part
// of the cache name, so one never deletes the caches of another.
const CACHE_PREFIX = "pyrules:" + SCOPE_PATH + ":";
const CACHE = CACHE_PREFIX + BUILD;

function fileURL(path) {
  return new URL(path, SCOPE).href;
}

/** A copy of a response that is not flagged "redirected" (navigations refuse those). */
async function unredirected(response) {
  if (!response.redirected) {
    return response;
  }
  const body = await response.blob();
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

async function missingFiles(cache) {
  const cached = new Set((await cache.keys()).map((request) => request.url));
  return FILES.filter((path) => !cached.has(fileURL(path)));
}

function isQuotaError(error) {
  return Boolean(error) && (error.name === "QuotaExceededError" || error.code === 22);
}

/** {kind: "quota", needed, quota} when this device gives the site less room than the offline
 * copy needs, else null (also when the browser cannot tell). */
async function lackOfRoom() {
  const needed = typeof BYTES === "number" ? BYTES : 0;
  try {
    const storage = self.navigator && self.navigator.storage;
    const estimate = storage && storage.estimate ? await storage.estimate() : null;
    if (estimate && Number.isFinite(estimate.quota) && estimate.quota < needed) {
      return { kind: "quota", needed, quota: estimate.quota };
    }
  } catch {
    // no estimate: try, and let the cache say
  }
  return null;
}

/** The quota problem after the cache refused a file although the estimate said there was
 * room (browsers do not always count their limits in it): what the site holds then is what
 * the device allows it. */
async function refused() {
  const needed = typeof BYTES === "number" ? BYTES : 0;
  let quota = null;
  try {
    const estimate = await self.navigator.storage.estimate();
    quota = estimate.quota < needed ? estimate.quota : estimate.usage;
  } catch {
    // the page says "not enough"
  }
  return { kind: "quota", needed, quota };
}

let problem = null; // the last reason the offline copy could not be completed, or null
// Where the install or refill is: {stage, done, total}; answered to {type: "progress"}
// without touching storage, so a page can tell a copy that advances from one that is stuck.
let progress = { stage: "idle", done: 0, total: FILES.length };

function step(stage, done = 0, total = FILES.length) {
  progress = { stage, done, total };
}

/** Fetch the files of the build missing from its cache and store them. */
async function fill() {
  step("open");
  const cache = await caches.open(CACHE);
  // Files already there come from an earlier, interrupted install of this same build.
  step("list");
  const todo = await missingFiles(cache);
  if (!todo.length) {
    step("done", FILES.length);
    return;
  }
  step("room");
  const room = await lackOfRoom();
  if (room) {
    throw Object.assign(new Error("not enough room"), { name: "QuotaExceededError", room });
  }
  let done = FILES.length - todo.length;
  step("fetch", done);
  await Promise.all(
    todo.map(async (path) => {
      const url = fileURL(path);
      // "no-cache": revalidate with the server (a 304 reuses the copy the page just
      // downloaded) instead of trusting a possibly stale HTTP cache entry.
      const request = new Request(url, {
        cache: "no-cache",
        credentials: "same-origin",
        integrity: INTEGRITY.get(path),
      });
      const response = await fetch(request);
      if (!response.ok) {
        throw new Error(`precache: HTTP ${response.status} for ${path}`);
      }
      // The server's own response is stored, headers included (application/wasm stays).
      await cache.put(url, await unredirected(response));
      step("fetch", ++done);
    }),
  );
  // Another build activating meanwhile may have deleted this cache: check it by name.
  step("check", done);
  const missing = await missingFiles(await caches.open(CACHE));
  if (missing.length) {
    throw new Error(`precache: ${missing.length} file(s) missing after install`);
  }
  step("done", FILES.length);
}

/** fill(), with a quota problem recorded rather than thrown. */
async function fillOrRecord() {
  try {
    await fill();
    problem = null;
  } catch (error) {
    if (!isQuotaError(error)) {
      throw error;
    }
    problem = error.room || (await refused());
  }
}

async function precache() {
  if (BUILT) {
    await fillOrRecord();
  }
}

let healing = null; // the refill under way, if any

/** Refill the cache of this build if files are missing; tells every page when done. */
function heal() {
  if (!BUILT || healing) {
    return healing || Promise.resolve();
  }
  healing = (async () => {
    try {
      await fillOrRecord();
    } catch (error) {
      console.warn("[sw] could not refill the offline copy:", error && error.message);
    } finally {
      healing = null;
    }
    const answer = await status();
    for (const client of await self.clients.matchAll({ includeUncontrolled: true })) {
      client.postMessage(answer);
    }
  })();
  return healing;
}

async function cleanup() {
  const names = await caches.keys();
  await Promise.all(
    names
      .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
      .map((name) => caches.delete(name)),
  );
}

self.addEventListener("install", (event) => {
  step("install");
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await cleanup();
      await self.clients.claim();
    })(),
  );
});

/** The precached path a request stands for, or null. */
function precachedPath(request) {
  if (!BUILT || request.method !== "GET") {
    return null;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE_PATH)) {
    return null;
  }
  let path;
  try {
    path = decodeURIComponent(url.pathname.slice(SCOPE_PATH.length));
  } catch {
    return null;
  }
  if (path === "") {
    path = "index.html";
  }
  return INTEGRITY.has(path) ? path : null;
}

async function fromCache(path, request, event) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(fileURL(path));
  if (hit) {
    return hit;
  }
  // Not in the cache (evicted, or an install still running): the network, as without us,
  // and the cache is refilled in the background (unless it is known not to fit).
  if (!problem) {
    event.waitUntil(heal());
  }
  return fetch(request);
}

async function navigation(request) {
  try {
    return await fetch(request);
  } catch (error) {
    // Offline on a page of the site that is not the app: show the app rather than an error.
    const cache = await caches.open(CACHE);
    const page = await cache.match(fileURL("index.html"));
    if (page) {
      return page;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const path = precachedPath(request);
  if (path !== null) {
    event.respondWith(fromCache(path, request, event));
  } else if (BUILT && request.mode === "navigate" && request.url.startsWith(SCOPE)) {
    event.respondWith(navigation(request));
  }
  // Anything else (other origins, other methods) is left to the browser.
});

async function status() {
  const cache = await caches.open(CACHE);
  const missing = await missingFiles(cache);
  return {
    type: "status",
    build: BUILD,
    complete: BUILT && missing.length === 0,
    missing: missing.length,
    total: FILES.length,
    healing: healing !== null,
    problem: missing.length ? problem : null,
  };
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "progress") {
    const port = event.ports && event.ports[0];
    if (port) {
      port.postMessage({ type: "progress", ...progress });
    }
  } else if (data.type === "skip-waiting") {
    self.skipWaiting();
  } else if (data.type === "status") {
    const port = event.ports && event.ports[0];
    event.waitUntil(
      status().then((answer) => {
        // A missing file starts a refill (the answer says "healing"); its end is broadcast.
        const done = answer.complete || problem ? null : heal();
        if (done) answer.healing = true;
        if (port) {
          port.postMessage(answer);
        } else if (event.source) {
          event.source.postMessage(answer);
        }
        return done;
      }),
    );
  }
});
