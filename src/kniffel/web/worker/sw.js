// The board's service worker (docs/board.md, "Installing the board"; docs/decisions.md,
// "The board offline"). Served at /sw.js by kniffel.web.offline, which puts the lines VERSION,
// FILES and PYODIDE in front of this file: the hash of the page's static files and the rules,
// their paths, and the hash of the names and sizes of Pyodide's files.
//
// - Static files come from this version's cache, filled whole when the worker installs; a new
//   version (a changed static file changes VERSION, so the browser sees a new worker) installs its
//   cache whole, then takes over and deletes the old caches: no page mixes old and new files.
// - Pages (navigations) go to the network first; a page answered is kept, and when the network
//   fails the kept copy answers: the start page, every game page this device has opened, and
//   /device, where a game started with no server is played (kept at install).
"use strict";

const STATIC_CACHE = `tafel-static-${VERSION}`;
const PAGES_CACHE = `tafel-pages-${VERSION}`;
// Pyodide's files (about 13 MB): fetched only by a page that runs the rules offline, kept until
// the board brings other ones (their names and sizes make PYODIDE), whatever else a release changes.
const PYODIDE_CACHE = `tafel-pyodide-${PYODIDE}`;
//: Pages kept at most (the newest ones): a device's games of a few evenings.
const MOST_PAGES = 40;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(STATIC_CACHE);
      // Past the browser's HTTP cache: this version's files, not what an older one left there.
      await cache.addAll(FILES.map((path) => new Request(path, { cache: "reload" })));
      await keepFromNetwork("/"); // the start page, whichever page this device opened first
      // The page of a game started on this device with no server (static/device/game.js).
      await keepFromNetwork("/device");
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await carryPages();
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith("tafel-"))
          .filter((name) => ![STATIC_CACHE, PAGES_CACHE, PYODIDE_CACHE].includes(name))
          .map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

// The pages an older version kept, fetched again for this one (they name this version's
// files); a page the network does not give now stays as it was rather than being lost.
async function carryPages() {
  const pages = await caches.open(PAGES_CACHE);
  for (const name of await caches.keys()) {
    if (!name.startsWith("tafel-pages-") || name === PAGES_CACHE) continue;
    const old = await caches.open(name);
    for (const request of await old.keys()) {
      let response = null;
      try {
        const fresh = await fetch(request.url, { credentials: "same-origin", cache: "no-store" });
        if (keepable(fresh)) response = fresh;
      } catch (_) {
        // offline while updating: the old copy below
      }
      if (response === null) response = await old.match(request);
      if (response) await pages.put(request.url, response);
    }
  }
}

// A page fetched now and kept; offline, nothing changes.
async function keepFromNetwork(url) {
  try {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (keepable(response)) await keepPage(new Request(response.url), response);
  } catch (_) {
    // offline: kept at the next visit
  }
}

// The page that registered this worker opened before the worker was there: it asks for
// its own address to be kept (static/offline.js).
self.addEventListener("message", (event) => {
  const url = event.data && event.data.keep;
  if (typeof url === "string" && new URL(url).origin === self.location.origin) {
    event.waitUntil(keepFromNetwork(new URL(url).pathname + new URL(url).search));
  }
});

function keepable(response) {
  return response.ok && response.type === "basic" && !response.redirected;
}

async function keepPage(request, response) {
  const pages = await caches.open(PAGES_CACHE);
  await pages.delete(request.url, { ignoreVary: true }); // put it last: the newest
  await pages.put(request.url, response);
  const keys = await pages.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MOST_PAGES))) await pages.delete(old);
}

async function page(event) {
  const request = event.request;
  try {
    const response = await fetch(request);
    if (keepable(response)) event.waitUntil(keepPage(request, response.clone()));
    return response;
  } catch (error) {
    const pages = await caches.open(PAGES_CACHE);
    const kept =
      (await pages.match(request.url, { ignoreVary: true })) ||
      (await pages.match(request.url, { ignoreVary: true, ignoreSearch: true }));
    if (kept) return kept;
    throw error;
  }
}

async function staticFile(request) {
  const cache = await caches.open(STATIC_CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  return kept || fetch(request);
}

async function pyodideFile(request) {
  const cache = await caches.open(PYODIDE_CACHE);
  const kept = await cache.match(request.url, { ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request.url, { credentials: "same-origin" });
  if (response.ok) await cache.put(request.url, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (FILES.includes(url.pathname)) {
    event.respondWith(staticFile(request));
  } else if (url.pathname.startsWith("/static/pyodide/")) {
    event.respondWith(pyodideFile(request));
  }
  // Everything else (the API, fragments, the live socket) goes to the network as without a worker.
});
