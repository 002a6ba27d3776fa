// The table's one client and its two transports (docs/internals.md): the page's table code (Game,
// table.js) sends the protocol's messages (docs/protocol.md) and receives the same snapshots from
// either master, the server over its WebSocket (SocketTransport) or the engine running in this
// page's Web Worker (WorkerTransport, over an Engine: the offline app, offline/).
// A transport: open(game) (then game.receive(message) for every message), send(message) (false
// when it cannot), reconnect(), close(), local (true: the page's own engine), tableHref(id),
// replayHref(id) (null: none).
// Classic scripts sharing one global scope, no build step; each page's order is set in one place
// (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
"use strict";

class SocketTransport {
  constructor(id) { this.id = id; this.ws = null; this.closed = false; this.retry = 500; this.local = false; this.game = null; }
  open(game) { this.game = game; this.connect(); }
  connect() {
    const game = this.game;
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${this.id}`);
    this.ws = ws;
    connBox.textContent = _("connecting…");
    ws.onopen = () => { this.retry = 500; connBox.textContent = _("connected"); ws.send(JSON.stringify({ type: "hello", v: 1, token: game.token(), host: store.get("host", this.id), lang: LANG })); };
    ws.onmessage = ev => game.receive(JSON.parse(ev.data));
    ws.onclose = ev => {
      if (this.closed) return;
      if (ev.code === 4404) { game.gone(); return; }
      connBox.textContent = _("reconnecting…");
      setTimeout(() => { if (!this.closed) this.connect(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }
  send(msg) { if (this.ws && this.ws.readyState === 1) { this.ws.send(JSON.stringify(msg)); return true; } return false; }
  reconnect() { if (this.ws) this.ws.close(); }
  close() { this.closed = true; if (this.ws) this.ws.close(); }
  tableHref(id) { return `/t/${id}`; }
  replayHref(id) { return `/r/${id}`; }
}

// The engine in the page: one Web Worker (offline/worker.js) running the Python engine in Pyodide.
// Calls are answered by number ({reply, ok, value | error}); a table's messages come as {table, msg};
// the engine's state as {status: loading | ready | failed}.
class Engine {
  constructor(url) {
    this.worker = new Worker(url);
    this.calls = new Map(); this.next = 1; this.tables = new Map(); this.status = "loading"; this.error = "";
    this.onstatus = null;
    this.worker.onmessage = ev => this.receive(ev.data);
    this.worker.onerror = ev => { this.status = "failed"; this.error = ev.message || "worker"; if (this.onstatus) this.onstatus(this.status); };
  }
  receive(data) {
    if (data.status) {
      this.status = data.status; this.error = data.error || ""; this.timings = data.timings || null;
      if (this.onstatus) this.onstatus(data.status);
      return;
    }
    if (data.reply) {
      const call = this.calls.get(data.reply);
      if (!call) return;
      this.calls.delete(data.reply);
      if (data.ok) call.resolve(data.value); else call.reject(Object.assign(new Error(data.error?.message || "engine"), data.error || {}));
      return;
    }
    if (data.table) { const fn = this.tables.get(data.table); if (fn) fn(data.msg); }
  }
  call(type, payload) {
    const n = this.next++;
    return new Promise((resolve, reject) => { this.calls.set(n, { resolve, reject }); this.worker.postMessage({ call: n, type, ...(payload || {}) }); });
  }
  post(table, msg) { this.worker.postMessage({ table, msg }); }
  listen(table, fn) { this.tables.set(table, fn); return () => { if (this.tables.get(table) === fn) this.tables.delete(table); }; }
}

// the matches kept in this browser (the worker's IndexedDB store, "conquian-offline"), read by the
// page itself: the engine is not needed to list them or to draw one as it was saved
function keptMatches() {
  return new Promise(resolve => {
    let req;
    try { req = indexedDB.open("conquian-offline", 1); } catch (e) { resolve([]); return; }
    req.onupgradeneeded = () => req.result.createObjectStore("matches", { keyPath: "id" });
    req.onerror = () => resolve([]);
    req.onsuccess = () => {
      const d = req.result;
      const all = d.transaction("matches", "readonly").objectStore("matches").getAll();
      all.onsuccess = () => { d.close(); resolve(all.result || []); };
      all.onerror = () => { d.close(); resolve([]); };
    };
  });
}

// Offline matches come home (docs/play.md): each finished match kept in this browser and not yet
// sent goes to the signed-in player's history (POST /api/offline-matches) once the page is online
// and his account has a name: unrated, marked offline, seen by him only.  A match the server
// refuses is not sent again; without a server (a built site), a session or a name, nothing is sent.
// Resolves to how many were kept.
let sendingHome = null;
function sendHome() {
  if (!sendingHome) sendingHome = sendWaiting().catch(() => 0).finally(() => { sendingHome = null; });
  return sendingHome;
}

async function sendWaiting() {
  if (!navigator.onLine || !Object.keys(csrfHeaders()).length) return 0;
  const waiting = (await keptMatches()).filter(m => m.status === "over" && typeof m.record === "string" && !m.home);
  if (!waiting.length) return 0;
  const me = await api("/api/account");
  if (!me?.name) return 0;
  let sent = 0;
  for (const m of waiting) {
    const res = await fetch(`/api/offline-matches?lang=${encodeURIComponent(LANG)}`, {
      method: "POST", headers: { ...csrfHeaders(), "Content-Type": "application/json" }, body: JSON.stringify({ record: m.record }) });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (res.ok && data?.table) { await markHome(m.id, { table: data.table, name: me.name }); sent++; }
    else if (res.status === 400 || res.status === 413) await markHome(m.id, { refused: (data?.error?.code) || String(res.status) });
    else break;  // signed out, too fast, the server busy: another time
  }
  return sent;
}

// note in the browser's store that a kept match went home (or was refused)
function markHome(id, home) {
  return new Promise(resolve => {
    const req = indexedDB.open("conquian-offline", 1);
    req.onupgradeneeded = () => req.result.createObjectStore("matches", { keyPath: "id" });
    req.onerror = () => resolve(false);
    req.onsuccess = () => {
      const d = req.result, tx = d.transaction("matches", "readwrite"), s = tx.objectStore("matches");
      const got = s.get(id);
      got.onsuccess = () => { if (got.result) s.put({ ...got.result, home }); };
      tx.oncomplete = () => { d.close(); resolve(true); };
      tx.onerror = tx.onabort = () => { d.close(); resolve(false); };
    };
  });
}
window.addEventListener("online", () => { sendHome(); });

class WorkerTransport {
  constructor(id, engine) { this.id = id; this.engine = engine; this.local = true; this.off = null; this.live = false; }
  open(game) {
    this.off = this.engine.listen(this.id, m => { this.live = true; if (m.type === "gone") game.gone(); else game.receive(m); });
    connBox.textContent = _("offline: unrated");
    this.engine.post(this.id, { type: "hello", v: 1, lang: LANG });
    // while the engine wakes, the table as it was last saved (its snapshot for this seat), at once;
    // the engine's answer to the hello draws it again, live (and a snapshot read after it is not drawn)
    keptMatches().then(all => {
      const saved = all.find(m => m.id === this.id);
      if (saved && Array.isArray(saved.view) && !this.live && this.off) for (const m of saved.view) game.receive(m);
    });
  }
  send(msg) { this.engine.post(this.id, msg); return true; }
  reconnect() { this.engine.post(this.id, { type: "hello", v: 1, lang: LANG }); }
  close() { if (this.off) this.off(); this.off = null; }
  tableHref(id) { return `#/t/${id}`; }
  replayHref() { return null; }
  lobbyHref() { return "#/"; }
  links(game) {
    // an offline match: said to be unrated, its record exported, the way back to the offline games
    const t = game.table;
    return el("div", { class: "panel", id: "links" },
      el("p", { id: "unrated", role: "note" }, _("An offline game against the bots, played in this browser: unrated.")),
      t.deal ? el("p", {}, el("button", { type: "button", class: "secondary", id: "export-record", onclick: () => exportRecord(this.engine, t.id) }, _("Export the record"))) : "",
      el("p", {}, el("a", { href: this.lobbyHref(), id: "offline-games" }, _("Offline games"))));
  }
}

// a table's record (conquian-record/1) saved as a file
async function exportRecord(engine, id) {
  try {
    const rec = await engine.call("record", { id });
    const url = URL.createObjectURL(new Blob([rec.text], { type: "application/toml" }));
    const save = el("a", { href: url, download: rec.name });
    document.body.append(save); save.click(); save.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) { showError(refusalText(e)); }
}
