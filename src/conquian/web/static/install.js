// The web table as an installed app: the app's one service worker (sw.js, served at /sw.js, or at
// the root of a built site: the page's data-sw names it) registered, the manifest in the page's
// language, and the update flow: when a new version of the app has been fetched, a bar offers to
// reload the page with it (the table reconnects where it was).  Once the page is idle, the service
// worker is asked to keep the engine (the offline app and its runtime, about 20 MB) in the
// background: keptState() says how far it is, engineKeptLine() shows it (the settings, the lobby),
// and <html data-kept="1"> marks it done.
// Classic scripts sharing one global scope, no build step; each page's order is set in one place
// (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
"use strict";

// the engine kept for play offline, as the service worker last said: {files, total, bytes, size, kept, error}
let engineKept = null;
const keptLines = new Set();

function keptText(s) {
  if (!s) return _("Play offline: not kept in this browser yet.");
  if (s.error) return format(_("Play offline: the download stopped ({reason}); it starts again on the next visit."), { reason: s.error });
  if (s.kept) return _("Play offline: kept in this browser, ready without a connection.");
  if (!s.total) return _("Play offline: not offered by this server.");
  return format(_("Play offline: downloading, {done} MB of {mb} MB…"), { done: (s.bytes / 1e6).toFixed(1), mb: (s.size / 1e6).toFixed(1) });
}

// a line that follows the download (the table's settings, the lobby)
function engineKeptLine(id) {
  const line = el("p", { class: "dim engine-kept", id: id || "engine-kept", "aria-live": "polite" }, keptText(engineKept));
  keptLines.add(line);
  return line;
}

function keptState(s) {
  engineKept = s;
  if (s.kept) document.documentElement.dataset.kept = "1";
  for (const line of [...keptLines]) {
    // a line no longer in the page (another route drawn) is forgotten
    if (line.isConnected) { line.dataset.shown = "1"; line.textContent = keptText(s); } else if (line.dataset.shown) keptLines.delete(line);
  }
}

function updateBar(worker) {
  // (a page without page.js, the server's Learn page, has no bar: its next visit takes the new version)
  if (document.getElementById("update-bar") || typeof el !== "function") return;
  const reload = el("button", { type: "button", id: "update-reload", onclick: () => {
    reload.disabled = true;
    updateBar.reloading = true;
    worker.postMessage({ type: "skip-waiting" });
  } }, _("Reload"));
  const later = el("button", { type: "button", class: "secondary", id: "update-later", onclick: () => bar.remove() }, _("Later"));
  const bar = el("div", { id: "update-bar", class: "update-bar", role: "status" }, el("span", {}, _("A new version of the table is ready.")), reload, later);
  document.body.append(bar);
}

function watchForUpdates(reg) {
  const offer = worker => { if (worker && navigator.serviceWorker.controller) updateBar(worker); };
  if (reg.waiting) offer(reg.waiting);
  reg.addEventListener("updatefound", () => {
    const worker = reg.installing;
    if (worker) worker.addEventListener("statechange", () => { if (worker.state === "installed") offer(worker); });
  });
  // a page kept open for hours (a match) still learns of a new version
  setInterval(() => reg.update().catch(() => {}), 30 * 60 * 1000);
}

function keepEngineWhenIdle() {
  // once the page has drawn and is idle, the active worker downloads the engine in the background
  navigator.serviceWorker.ready.then(reg => {
    if (!reg.active) return;
    reg.active.postMessage({ type: "engine" });
    const ask = () => reg.active?.postMessage({ type: "keep-engine" });
    if ("requestIdleCallback" in window) requestIdleCallback(ask, { timeout: 5000 }); else setTimeout(ask, 1000);
  }).catch(() => {});
}

async function retireOldWorkers() {
  // the offline app's former service worker (scope offline/): the site's own now keeps that app
  try {
    for (const reg of await navigator.serviceWorker.getRegistrations()) {
      if (/\/offline\/$/.test(reg.scope)) await reg.unregister();
    }
  } catch (e) { /* nothing to retire */ }
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.addEventListener("controllerchange", () => { if (updateBar.reloading) location.reload(); });
  navigator.serviceWorker.addEventListener("message", ev => { if (ev.data && ev.data.type === "engine") keptState(ev.data); });
  const register = () => {
    retireOldWorkers().then(() => navigator.serviceWorker.register(document.documentElement.dataset.sw || "/sw.js"))
      .then(reg => { watchForUpdates(reg); keepEngineWhenIdle(); })
      .catch(() => { /* no offline shell */ });
  };
  if (document.readyState === "complete") register(); else window.addEventListener("load", register);
}
