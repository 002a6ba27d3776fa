// The app's one service worker (conquian/web/app_shell.py fills in VERSION, SHELL and ENGINE when it
// serves this file at /sw.js, or writes it at the root of a built site).  It keeps:
// - the shell (SHELL: the tables' page and every static file), cached when it installs, so that the
//   page opens at once and without the network;
// - the engine (ENGINE: the offline app's page, its worker, the engine's package, the catalogues
//   and the Pyodide runtime, each [address, digest, bytes]), downloaded in the background when a
//   page asks ("keep-engine", once it is idle: install.js), its progress told to every page; kept
//   by digest, so that a new version downloads only the files that changed;
// - the catalogues the page has loaded (network first).
// A new version installs the shell and, if the engine was kept, the engine's new files too, before
// it may take over: the shell and the engine are updated together.  It waits until the page asks it
// to take over (the player's "Reload", install.js); the first one takes over at once.  The API, the
// tables' sockets and the rule book always go to the network.  Addresses are relative to this file.
"use strict";

const VERSION = "__VERSION__";
const SHELL = [/* __SHELL__ */];
const ENGINE = [/* __ENGINE__ */];
const CACHE = `conquian-shell-${VERSION}`;
const KEPT = "conquian-engine";
const WORDS = "conquian-i18n";
const PAGES = /^(t|r)\/[A-Za-z0-9_-]{1,16}$/;

const here = u => new URL(u, self.location.href).href;
const root = here("./");
const shell = new Set(SHELL.map(here));
// the engine's files by address: the key they are kept under (their digest in it)
const engine = new Map(ENGINE.map(([u, d]) => [here(u), `${here(u)}?kept=${d}`]));
const engineBytes = ENGINE.reduce((n, f) => n + f[2], 0);

async function engineState() {
  // how much of this version's engine is kept: files and bytes
  const cache = await caches.open(KEPT);
  let files = 0, bytes = 0;
  for (const [u, d, size] of ENGINE) if (await cache.match(`${here(u)}?kept=${d}`)) { files++; bytes += size; }
  return { type: "engine", version: VERSION, files, total: ENGINE.length, bytes, size: engineBytes,
           kept: ENGINE.length > 0 && files === ENGINE.length };
}

async function tell(message) {
  for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) client.postMessage(message);
}

let keeping = null;
function keepEngine(report) {
  // every file of the engine not kept yet, one after another (the page stays responsive)
  if (!keeping) {
    keeping = (async () => {
      const cache = await caches.open(KEPT);
      const state = await engineState();
      for (const [u, d, size] of ENGINE) {
        const key = `${here(u)}?kept=${d}`;
        if (await cache.match(key)) continue;
        const answer = await fetch(new Request(here(u), { cache: "no-cache" }));
        if (!answer.ok) throw new Error(`${u}: ${answer.status}`);
        await cache.put(key, answer);
        state.files++; state.bytes += size;
        if (report) await report({ ...state, kept: state.files === state.total });
      }
      return engineState();
    })().finally(() => { keeping = null; });
  }
  return keeping;
}

async function engineWasKept() {
  // a version before this one kept the engine: this one keeps it too before it takes over
  const cache = await caches.open(KEPT);
  return (await cache.keys()).length > 0;
}

self.addEventListener("install", event => {
  event.waitUntil((async () => {
    await (await caches.open(CACHE)).addAll(SHELL.map(u => new Request(here(u), { cache: "no-cache" })));
    if (await engineWasKept()) await keepEngine(null);
  })());
});

self.addEventListener("activate", event => {
  event.waitUntil((async () => {
    for (const k of await caches.keys()) {
      // the shells of other versions, and the caches of the offline app's former service worker
      if ((k.startsWith("conquian-shell-") && k !== CACHE) || k.startsWith("conquian-offline-")) await caches.delete(k);
    }
    // the engine's files of other versions
    const cache = await caches.open(KEPT);
    const wanted = new Set(engine.values());
    for (const request of await cache.keys()) if (!wanted.has(request.url)) await cache.delete(request);
    await self.clients.claim();
  })());
});

self.addEventListener("message", event => {
  const data = event.data || {};
  if (data.type === "skip-waiting") self.skipWaiting();
  if (data.type === "version" && event.ports[0]) event.ports[0].postMessage(VERSION);
  if (data.type === "engine") event.waitUntil(engineState().then(s => event.source?.postMessage(s)));
  if (data.type === "keep-engine") {
    event.waitUntil(keepEngine(tell).then(tell, e => tell({ type: "engine", version: VERSION, error: String(e?.message || e) })));
  }
});

async function fromShell(request, key) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(key || request, { ignoreSearch: true });
  return kept || fetch(request);
}

async function fromEngine(request, key) {
  const kept = await (await caches.open(KEPT)).match(key);
  return kept || fetch(request);
}

async function networkFirst(request, key) {
  // a catalogue: the server's newest, else the one kept (or the engine's copy)
  const cache = await caches.open(WORDS);
  try {
    const answer = await fetch(request);
    if (answer.ok) cache.put(request, answer.clone());
    return answer;
  } catch (e) {
    // (the browser's language chosen: the engine's copy of that language's, else English's)
    if (!key && request.url.includes("/i18n/auto.json")) {
      const lang = (self.navigator.language || "en").slice(0, 2).toLowerCase();
      key = engine.get(here(`${root}i18n/${lang}.json`)) || engine.get(here(`${root}i18n/en.json`));
    }
    const kept = (await cache.match(request)) || (key && await (await caches.open(KEPT)).match(key));
    if (kept) return kept;
    throw e;
  }
}

self.addEventListener("fetch", event => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const address = url.origin + url.pathname;
  const path = address.startsWith(root) ? address.slice(root.length) : null;
  if (path === null) return;
  if (request.mode === "navigate" && shell.has(root) && (path === "" || PAGES.test(path))) event.respondWith(fromShell(request, root));
  else if (path.startsWith("i18n/")) event.respondWith(networkFirst(request, engine.get(address)));
  else if (shell.has(address)) event.respondWith(fromShell(request, address));
  else if (engine.has(address)) event.respondWith(fromEngine(request, engine.get(address)));
});
