// The offline app's service worker: it keeps every file the app needs (engine-assets.json: the
// page, the table code, the catalogues, the engine and the Pyodide runtime) so that the app opens
// and plays with the network off. The page registers it as sw.js?v=VERSION: a new version of the
// files installs a new worker, which caches them anew and drops the old cache.
"use strict";

const VERSION = new URL(self.location.href).searchParams.get("v") || "0";
const CACHE = `conquian-offline-${VERSION}`;
const LIST = "engine-assets.json";

self.addEventListener("install", ev => {
  ev.waitUntil((async () => {
    const list = await (await fetch(LIST, { cache: "no-cache" })).json();
    const cache = await caches.open(CACHE);
    // checked against the server (a file the page has just loaded comes back as "not modified")
    await cache.addAll(list.files.map(f => new Request(f, { cache: "no-cache" })));
    await cache.put(LIST, new Response(JSON.stringify(list), { headers: { "Content-Type": "application/json" } }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", ev => {
  ev.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("conquian-offline-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", ev => {
  const req = ev.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  const fresh = req.mode === "navigate" || req.url.endsWith(LIST);
  ev.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // a page of the app (the table's, the Learn page) is itself; any other address the table's page
    const cached = async () => (await cache.match(req, { ignoreSearch: true }))
      || (req.mode === "navigate" ? cache.match(new URL("./", self.location.href).href) : undefined);
    if (!fresh) {
      const hit = await cached();
      if (hit) return hit;
    }
    try {
      return await fetch(req);
    } catch (e) {
      // the network is off: the page and the list from the cache
      const hit = await cached();
      if (hit) return hit;
      throw e;
    }
  })());
});
