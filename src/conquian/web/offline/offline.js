// The offline app: play against the bots with the engine in this page (worker.js), no server.
// Its lobby (a new match, the matches kept in this browser, a record imported) and its routes
// (#/ the lobby, #/t/ID a table); the table itself is the server page's code (table.js) over a
// WorkerTransport (transport.js). Every text goes through _() (the catalogues in ../i18n/).
// Classic scripts, loaded in order by index.html, sharing one global scope; no build step.
"use strict";

let presets = null;          // the games and bots, from the engine (the server's /api/presets)
const ENGINE = new Engine("worker.js");

function engineStatus() {
  if (ENGINE.status === "ready") return "";
  if (ENGINE.status === "failed") return format(_("The engine could not start: {reason}"), { reason: ENGINE.error });
  return _("Loading the engine… (the first time, about 14 MB)");
}

// the games and bots as the engine said them last time (kept in this browser), or null
function keptPresets() {
  let p = null;
  try { p = JSON.parse(store.get("offline", "presets") || "null"); } catch (e) { p = null; }
  return p && Array.isArray(p.variants) ? p : null;
}

function when(seconds) {
  try { return new Date(seconds * 1000).toLocaleString(LANG); } catch (e) { return ""; }
}

async function offlineLobby() {
  setTitle(_("Play offline"));
  const status = el("p", { id: "engine-status", class: "dim", "aria-live": "polite" }, engineStatus());
  ENGINE.onstatus = () => { status.textContent = engineStatus(); };
  const box = el("div", { class: "panel offline-lobby", id: "offline-lobby" },
    el("h2", {}, _("Play offline")),
    el("p", { class: "unrated" }, _("Offline games are played in this browser against the bots, with no network, and are unrated. They are kept in this browser.")),
    status, typeof engineKeptLine === "function" ? engineKeptLine() : "");
  main.replaceChildren(box);
  // the matches kept in this browser at once (IndexedDB), a new one once the engine is ready
  const saved = await savedList();
  box.append(saved);
  // the finished matches sent to the player's account, now or once online: the list says so
  const home = () => sendHome().then(async n => { if (n && document.body.contains(saved)) saved.replaceWith(await savedList()); });
  home();
  window.addEventListener("online", home, { once: true });
  // the games and bots as the engine said them last time (kept in this browser): the form at
  // once, while the engine loads; a match asked for before it is ready starts once it is
  if (!presets) presets = keptPresets();
  const fresh = ENGINE.call("presets").then(p => { store.set("offline", "presets", JSON.stringify(p)); return p; });
  if (!presets) {
    try { presets = await fresh; } catch (e) { status.textContent = format(_("The engine could not start: {reason}"), { reason: e.message }); return; }
  }
  if (ENGINE.status === "ready") status.textContent = "";
  box.insertBefore(newMatchForm(), saved);
  box.append(importForm());
  fresh.then(p => { presets = p; }).catch(() => {});
}

function newMatchForm() {
  const variants = presets.variants;
  const pick = el("select", { id: "offline-variant" }, variants.map(v => el("option", { value: v.name }, gameName(v.name))));
  const seats = el("select", { id: "offline-players" });
  const fill = () => {
    const v = variants.find(x => x.name === pick.value);
    seats.replaceChildren(...Array.from({ length: v.max_players - v.min_players + 1 }, (_x, i) => v.min_players + i)
      .map(n => el("option", { value: n, selected: n === v.players }, String(n))));
  };
  const bot = el("select", { id: "offline-bot" });
  const fillBots = () => {
    const chosen = bot.value || presets.default_bot;
    bot.replaceChildren(...botOptions(presets, pick.value, chosen).filter(Boolean));
  };
  pick.addEventListener("change", () => { fill(); fillBots(); }); fill(); fillBots();
  const name = el("input", { type: "text", id: "offline-name", maxlength: 40, value: store.get("name", "me") || "", placeholder: _("your name") });
  const form = el("form", { id: "offline-new" },
    el("h3", {}, _("A new match")),
    el("label", {}, _("Game:"), " ", pick), el("label", {}, _("Players:"), " ", seats),
    el("label", {}, _("Bots:"), " ", bot), el("label", {}, _("Your name:"), " ", name),
    el("button", { type: "submit", id: "offline-start" }, _("Play offline")));
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    const me = name.value.trim() || _("You");
    store.set("name", "me", me);
    try {
      const id = await ENGINE.call("create", { spec: { variant: pick.value, players: Number(seats.value), bot: bot.value, name: me, title: gameName(pick.value) } });
      location.hash = `#/t/${id}`;
    } catch (e) { showError(refusalText(e)); }
  });
  return form;
}

async function savedList() {
  const list = (await keptMatches()).sort((a, b) => b.updated - a.updated);
  const box = el("div", { id: "offline-saved" }, el("h3", {}, _("Your offline matches")));
  if (!list.length) { box.append(el("p", { class: "dim" }, _("None yet."))); return box; }
  box.append(el("ul", { class: "saved" }, list.map(m => {
    const who = m.seats.map((s, i) => (i === 0 ? s.name : seatName(s.name, s.kind, i + 1))).join(", ");
    const state = m.status === "over" ? _("over") : _("in play");
    const home = m.home?.table ? el("a", { href: `/p/${encodeURIComponent(m.home.name)}`, class: "sent-home" }, _("in your account's history")) : "";
    return el("li", { "data-match": m.id },
      el("span", { class: "what" }, el("strong", {}, gameName(m.variant)), ` - ${who} - ${state} - ${when(m.updated)}`),
      home ? [" ", home, " "] : "",
      el("a", { href: `#/t/${m.id}`, class: "button-link resume" }, m.status === "over" ? _("Open") : _("Resume")),
      el("button", { type: "button", class: "secondary", onclick: () => exportRecord(ENGINE, m.id) }, _("Export the record")),
      el("button", { type: "button", class: "secondary", onclick: async () => { await ENGINE.call("remove", { id: m.id }); offlineLobby(); } }, _("Delete")));
  })));
  return box;
}

function importForm() {
  const file = el("input", { type: "file", id: "offline-import", accept: ".toml,text/plain,application/toml" });
  file.addEventListener("change", async () => {
    const f = file.files?.[0];
    if (!f) return;
    try {
      const id = await ENGINE.call("import", { text: await f.text(), name: store.get("name", "me") || "" });
      location.hash = `#/t/${id}`;
    } catch (e) { showError(refusalText(e)); }
  });
  return el("div", { id: "offline-import-box" }, el("h3", {}, _("Import a record")),
    el("p", { class: "dim" }, _("A conquian-record/1 file: you take the first seat and go on playing against the bots.")),
    el("label", {}, _("Record file:"), " ", file));
}

function offlineRoute() {
  if (game) { game.close(); game = null; }
  document.onkeydown = null;
  spanishPack = false;
  showError("");
  connBox.textContent = _("offline: unrated");
  const m = location.hash.match(/^#\/t\/([A-Za-z0-9_-]{1,16})$/);
  if (m) {
    main.replaceChildren(el("p", { class: "dim", id: "engine-status" }, engineStatus()));
    ENGINE.onstatus = () => { const s = main.querySelector("#engine-status"); if (s) s.textContent = engineStatus(); };
    // drawn at once from its saved snapshot (WorkerTransport), the games as the engine said them last
    if (!presets) presets = keptPresets();
    const start = async () => { if (!presets) presets = await ENGINE.call("presets"); game = new Game(m[1], new WorkerTransport(m[1], ENGINE)); };
    start().catch(e => showError(e.message));
  } else offlineLobby().catch(e => showError(e.message));
}

window.addEventListener("hashchange", offlineRoute);
loadLanguage().then(() => { ENGINE.call("lang", { lang: LANG }); offlineRoute(); });
