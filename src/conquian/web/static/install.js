// The web table as an installed app: the service worker (sw.js, served at /sw.js) registered, the
// manifest in the page's language, and the update flow: when a new version of the app has been
// fetched, a bar offers to reload the page with it (the table reconnects where it was).
// Classic scripts, loaded in order by index.html, sharing one global scope; no build step.
"use strict";

function updateBar(worker) {
  if (document.getElementById("update-bar")) return;
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

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.addEventListener("controllerchange", () => { if (updateBar.reloading) location.reload(); });
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(watchForUpdates).catch(() => { /* no offline shell */ });
  });
}
