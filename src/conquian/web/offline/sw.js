// The offline app's former service worker, retired: the app's one service worker is the site's
// own (../sw.js, conquian/web/app_shell.py), which keeps the offline app with the rest.  A browser
// that registered this one (scope offline/) finds this version on its next check: it drops the
// former caches, unregisters itself and reloads its pages, which the site's worker then serves.
"use strict";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", event => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("conquian-offline-")) await caches.delete(name);
    await self.registration.unregister();
    for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url).catch(() => {});
  })());
});
