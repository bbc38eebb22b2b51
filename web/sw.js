// pyrules service worker: the whole app (page, scripts, styles, icons, the Pyodide runtime
// and the wheels) is cached at install, so a player who opened the app once can open it
// again with no network at all.
//
// A classic script with no import (Safari). build.py writes dist/sw.js from this file,
// replacing the two placeholder strings below: BUILD becomes the build hash (a content hash
// of every other file of dist/) and PRECACHE the {path: "sha256-..."} map of the files to
// cache, paths relative to this script. A new build therefore gives a new sw.js, which the
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
//   message   {type: "status"} -> {type: "status", build, complete, missing, total} on the
//             message's port; {type: "skip-waiting"} activates a waiting build.

"use strict";

const BUILD = "__BUILD__";
const PRECACHE = "__PRECACHE__";

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

async function precache() {
  if (!BUILT) {
    return;
  }
  const cache = await caches.open(CACHE);
  // Files already there come from an earlier, interrupted install of this same build.
  const todo = await missingFiles(cache);
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
    }),
  );
  // Another build activating meanwhile may have deleted this cache: check it by name.
  const missing = await missingFiles(await caches.open(CACHE));
  if (missing.length) {
    throw new Error(`precache: ${missing.length} file(s) missing after install`);
  }
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

async function fromCache(path, request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(fileURL(path));
  if (hit) {
    return hit;
  }
  // Not in the cache (evicted, or an install still running): the network, as without us.
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
    event.respondWith(fromCache(path, request));
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
  };
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "skip-waiting") {
    self.skipWaiting();
  } else if (data.type === "status") {
    const port = event.ports && event.ports[0];
    event.waitUntil(
      status().then((answer) => {
        if (port) {
          port.postMessage(answer);
        } else if (event.source) {
          event.source.postMessage(answer);
        }
      }),
    );
  }
});
