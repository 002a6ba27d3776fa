// The engine in the page: a Web Worker that runs the Python engine, its bots and its catalogues in
// Pyodide (pyodide/, from this site's own origin) so the page never freezes while a bot thinks.
// The page's table code talks to it as to the server (docs/protocol.md): see transport.js
// (WorkerTransport, Engine) and conquian.web.local (LocalTable, Games). Every table is kept in
// IndexedDB ("conquian-offline", store "matches") after every change, with the player's last
// messages (view: his seat and the snapshot, which the page draws before the engine is awake),
// and reopened from there; once over, with its record (record) and whether it was sent home (home).
"use strict";

importScripts("pyodide/pyodide.js");

let games = null;            // conquian.web.local.Games, once the engine is loaded
const timers = new Map();    // table -> the timer of its next bot move
const DB = "conquian-offline", STORE = "matches";

// ------------------------------------------------------------------------------ IndexedDB
function db() {
  if (!db.open) {
    db.open = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  return db.open;
}
async function dbDo(mode, fn) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction(STORE, mode);
    const req = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req ? req.result : undefined);
    tx.onerror = () => reject(tx.error);
  });
}
const dbGet = id => dbDo("readonly", s => s.get(id));
const dbPut = saved => dbDo("readwrite", s => s.put(saved));
const dbDelete = id => dbDo("readwrite", s => s.delete(id));

// ------------------------------------------------------------------------------ the engine
// where the start's time goes (ms since the worker began; benchmarks/offline_page.py reads them):
// the runtime loaded (its download, WebAssembly compile and Python's start), the runtime's wasm
// downloaded, the engine's package unpacked, our modules imported
const timings = {};
const mark = name => { timings[name] = Math.round(performance.now()); };
async function sha256(bytes) { return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)); }

async function memorySnapshot(zip) {
  // the runtime's memory with the engine imported, made when the site was built (conquian site
  // build, conquian.web.memory_snapshot): its header, then the memory gzipped; null where there is
  // none, or it was made with another package than this one (Pyodide would load it and hang)
  try {
    const answer = await fetch("engine.snapshot");
    if (!answer.ok || typeof DecompressionStream !== "function") return null;
    const data = new Uint8Array(await answer.arrayBuffer());
    const magic = new TextEncoder().encode("CQSNAP1\n");
    if (data.length < 40 || magic.some((b, i) => data[i] !== b)) throw new Error("not a memory snapshot");
    const made = data.subarray(8, 40), mine = await sha256(await zip);
    if (made.some((b, i) => b !== mine[i])) throw new Error("a snapshot of another engine");
    const memory = new Blob([data.subarray(40)]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(memory).arrayBuffer());
  } catch (e) { timings.snapshot_error = String(e && e.message || e).slice(0, 200); return null; }
}

async function startRuntime(zip) {
  // from the memory snapshot (Python started, the engine imported), else plainly
  const indexURL = new URL("pyodide/", self.location.href).href;
  const snapshot = await memorySnapshot(zip);
  mark("snapshot_read");
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({ indexURL, _loadSnapshot: snapshot });
      pyodide.runPython("import conquian.web.local");  // the snapshot's engine is there
      timings.snapshot = true;
      return pyodide;
    } catch (e) { timings.snapshot_error = String(e && e.message || e).slice(0, 200); }
  }
  timings.snapshot = false;
  return loadPyodide({ indexURL });
}

const ready = (async () => {
  // the engine's package downloaded while the runtime starts
  const zip = fetch("engine.zip").then(r => r.arrayBuffer());
  const pyodide = await startRuntime(zip);
  mark("runtime");
  const wasm = performance.getEntriesByType("resource").find(e => e.name.endsWith("pyodide.asm.wasm"));
  if (wasm) timings.wasm_downloaded = Math.round(wasm.responseEnd);
  pyodide.unpackArchive(await zip, "zip", { extractDir: "/engine" });
  mark("unpacked");
  pyodide.runPython("import sys\nif '/engine' not in sys.path: sys.path.insert(0, '/engine')\n"
    + "from conquian.web.local import Games\ngames = Games()");
  mark("imported");
  games = pyodide.globals.get("games");
  postMessage({ status: "ready", timings });
})().catch(e => { postMessage({ status: "failed", error: String(e && e.message || e) }); throw e; });
postMessage({ status: "loading" });

let LANG = "en";
function py(method, ...args) {
  const out = JSON.parse(games.call(method, JSON.stringify(args), LANG));
  if (!out.ok) throw Object.assign(new Error(out.error.message), out.error);
  return out.value;
}

const views = new Map();     // table -> {welcome, table}: the last of each the player was sent

async function save(id) {
  // with the player's last messages (his seat, the snapshot): the page draws them at once next
  // time, before the engine wakes
  const saved = py("saved", id);
  const v = views.get(id);
  if (v && v.table) saved.view = [v.welcome, v.table].filter(Boolean);
  // a finished match keeps its record, which the page sends to the player's account once online
  // (sendHome, transport.js), and whether it was sent
  if (saved.status === "over") {
    const old = await dbGet(id);
    saved.record = old && old.record || py("record", id).text;
    if (old && old.home) saved.home = old.home;
  }
  await dbPut(saved);
  return saved;
}

async function opened(id) {
  await ready;
  if (py("is_open", id)) return true;
  const saved = await dbGet(id);
  if (!saved) return false;
  py("open", saved);
  return true;
}

function send(table, msgs) {
  for (const msg of msgs) {
    if (msg.type === "table" || msg.type === "welcome") views.set(table, { ...views.get(table), [msg.type]: msg });
    postMessage({ table, msg });
  }
}

function schedule(id, now) {
  // the bots' moves, one at a time, the table's pace apart (the master's effect: which seat, after
  // how long); the player's messages come between them
  clearTimeout(timers.get(id));
  timers.delete(id);
  const turn = py("bot_turn", id);
  if (!turn) return;
  const wait = now ? 0 : Math.max(0, turn.delay) * 1000;
  timers.set(id, setTimeout(async () => {
    timers.delete(id);
    try {
      send(id, py("bot_move", id));
      await save(id);
    } catch (e) {
      send(id, [{ type: "error", code: e.code || "engine", message: e.message, rule: e.rule || null }]);
      return;
    }
    schedule(id);
  }, wait));
}

async function tableMessage(id, msg) {
  if (!(await opened(id))) { send(id, [{ type: "gone" }]); return; }
  if (msg.type === "hello" && msg.lang) LANG = msg.lang;
  let out;
  try { out = py("handle", id, msg); } catch (e) { out = [{ type: "error", code: e.code || "engine", message: e.message, rule: e.rule || null }]; }
  send(id, out);
  if (msg.type === "rematch") {
    const saved = await save(id);
    if (saved.rematch) { await save(saved.rematch); }
  } else if (["hello", "act", "next", "pace"].includes(msg.type)) await save(id);
  schedule(id, msg.type === "hurry");
}

const CALLS = {
  async presets() { await ready; return py("presets"); },
  async create(m) { await ready; const saved = py("new", m.spec); await dbPut(saved); return saved.id; },
  async import(m) { await ready; const saved = py("import_record", m.text, m.name || ""); await dbPut(saved); return saved.id; },
  async record(m) { if (!(await opened(m.id))) throw new Error("no such match"); return py("record", m.id); },
  async remove(m) { clearTimeout(timers.get(m.id)); await dbDelete(m.id); return true; },
  async lang(m) { LANG = m.lang || "en"; return true; },
  async playouts(m) { if (!(await opened(m.id))) throw new Error("no such match"); return py("playouts", m.id); },
  // the Learn section (learn.html): the lesson runner's answer at the server's path (conquian.learn.api)
  async learn(m) { await ready; return py("learn", String(m.path || ""), m.body === undefined ? null : m.body); },
};

// the page's messages, one after another (a bot's move never runs in the middle of one)
let queue = Promise.resolve();
self.onmessage = ev => {
  const data = ev.data || {};
  queue = queue.then(async () => {
    if (data.table) { await tableMessage(data.table, data.msg || {}); return; }
    const fn = CALLS[data.type];
    try {
      if (!fn) throw new Error(`no call ${data.type}`);
      postMessage({ reply: data.call, ok: true, value: await fn(data) });
    } catch (e) {
      postMessage({ reply: data.call, ok: false, error: { message: e.message, code: e.code || "engine", rule: e.rule || null } });
    }
  }).catch(() => {});
};
