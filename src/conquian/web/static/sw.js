// The service worker of the web table: it keeps the app shell (the page, its scripts, styles and
// icons) so that the table opens at once and without the network, and the languages' catalogues
// the page has loaded.  The server fills in VERSION (a digest of the shell) and SHELL when it
// serves this file at /sw.js (conquian/web/app_shell.py).  A new version waits until the page
// asks it to take over (the player's "Reload", install.js); the first one takes over at once.
// The API, the tables' sockets and the rule book always go to the network.
"use strict";

const VERSION = "__VERSION__";
const SHELL = [/* __SHELL__ */];
const CACHE = `conquian-shell-${VERSION}`;
const WORDS = "conquian-i18n";
const PAGES = /^\/(t|r)\/[A-Za-z0-9_-]{1,16}$/;

self.addEventListener("install", event => {
  event.waitUntil(caches.open(CACHE).then(cache => cache.addAll(SHELL)));
});

self.addEventListener("activate", event => {
  event.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(k => k.startsWith("conquian-shell-") && k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("message", event => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
  if (event.data && event.data.type === "version" && event.ports[0]) event.ports[0].postMessage(VERSION);
});

async function fromShell(request, key) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(key || request, { ignoreSearch: true });
  return kept || fetch(request);
}

async function networkFirst(request) {
  // a catalogue: the server's newest, else the one kept
  const cache = await caches.open(WORDS);
  try {
    const answer = await fetch(request);
    if (answer.ok) cache.put(request, answer.clone());
    return answer;
  } catch (e) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw e;
  }
}

self.addEventListener("fetch", event => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && (url.pathname === "/" || PAGES.test(url.pathname))) event.respondWith(fromShell(request, "/"));
  else if (url.pathname.startsWith("/static/")) event.respondWith(fromShell(request));
  else if (url.pathname.startsWith("/i18n/")) event.respondWith(networkFirst(request));
});
