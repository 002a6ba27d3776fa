// The page's routes: the lobby, a table, a replay.
// Protocol: docs/protocol.md (version 1). Classic scripts sharing one global scope, no build step;
// each page's order is set in one place (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
"use strict";

// ----------------------------------------------------------------------------- routing
function route() {
  if (game) { game.close(); game = null; }
  document.onkeydown = null;
  leaveTable();
  spanishPack = false;
  showError("");
  connBox.textContent = "";
  const path = location.pathname;
  const table = path.match(/^\/t\/([A-Za-z0-9_-]{1,16})$/);
  const replay = table ? null : path.match(/^\/r\/([A-Za-z0-9_-]{1,16})$/);
  if (table) { if (!presets) api("/api/presets").then(p => { presets = p; if (game?.table && !game.closed) game.render(); }); game = new Game(table[1]); }
  else if (replay) replayPage(replay[1]);
  else lobby().catch(e => showError(e.message));
}

document.addEventListener("click", ev => {
  const a = ev.target.closest?.("a[data-link]");
  if (a && a.origin === location.origin) { ev.preventDefault(); history.pushState(null, "", a.pathname + a.hash); route(); }
});
window.addEventListener("popstate", route);
loadLanguage().then(route);
