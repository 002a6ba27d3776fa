// The Learn section: the path of lessons, one lesson played by taps, the puzzles. The lesson
// runner answers every request (conquian.learn.api): on the server (/api/learn, /api/puzzles),
// or, in the offline app (offline/learn.html, data-offline), the engine in this page's Web Worker
// (worker.js, over the Engine of transport.js) with the same paths and answers. Every word on the
// page comes from the runner in the reader's language. Progress (the lessons done, the puzzles
// solved) stays in this browser and, for a player signed in on the server, in his account
// (/api/account/learn).
"use strict";
(() => {
  const body = document.body;
  const offline = body.dataset.offline === "1";
  let lang = body.dataset.lang || "en";
  let words = JSON.parse(body.dataset.words || "{}");
  const DONE = "conquian.learn.done", SOLVED = "conquian.learn.solved";
  const $ = (id) => document.getElementById(id);
  let engine = null;
  let lessons = [];
  let puzzleData = { daily: null, puzzles: [] };
  let current = null;
  let accepted = [];

  function kept(name) {
    try { return new Set(JSON.parse(localStorage.getItem(name) || "[]")); } catch (e) { return new Set(); }
  }
  function keep(name, set) {
    try { localStorage.setItem(name, JSON.stringify([...set].sort())); } catch (e) { /* private mode */ }
  }
  function add(name, key) {
    const set = kept(name);
    if (set.has(key)) return;
    set.add(key);
    keep(name, set);
    saveToAccount();
  }

  // a signed-in browser shows its session's CSRF token (the readable twin of its account cookie)
  function csrf() {
    const m = /(?:^|; )conquian_csrf=([0-9a-f]{64})/.exec(document.cookie);
    return m ? m[1] : "";
  }

  // the account's progress, when signed in on the server: what either side has, kept by both
  async function syncAccount() {
    if (!csrf()) return;
    try {
      const r = await fetch("/api/account/learn", { headers: { Accept: "application/json" } });
      if (!r.ok) return;
      const got = await r.json();
      const done = kept(DONE), solved = kept(SOLVED);
      const before = done.size + solved.size;
      for (const k of got.lessons || []) done.add(k);
      for (const k of got.puzzles || []) solved.add(k);
      keep(DONE, done); keep(SOLVED, solved);
      if ((got.lessons || []).length !== done.size || (got.puzzles || []).length !== solved.size) await saveToAccount();
      if (done.size + solved.size !== before && !$("path").hidden) showPath();
    } catch (e) { /* offline, or not this server's page: the browser keeps it */ }
  }
  async function saveToAccount() {
    const token = csrf();
    if (!token) return;
    try {
      await fetch("/api/account/learn", {
        method: "PUT", headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
        body: JSON.stringify({ lessons: [...kept(DONE)], puzzles: [...kept(SOLVED)] }) });
    } catch (e) { /* offline: saved the next time */ }
  }

  async function api(path, payload) {
    if (offline) return engine.call("learn", { path, body: payload === undefined ? null : payload });
    // a POST that carries the account's cookie shows its CSRF token (every state-changing request must)
    const token = csrf();
    const opts = payload === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json", ...(token ? { "X-CSRF-Token": token } : {}) },
      body: JSON.stringify(payload) };
    const r = await fetch(`${path + (path.includes("?") ? "&" : "?")}lang=${encodeURIComponent(lang)}`, opts);
    return r.json();
  }

  function fillWords() {
    for (const e of document.querySelectorAll("[data-word]")) e.textContent = words[e.dataset.word] || "";
    $("l-moves").setAttribute("aria-label", words.moves || "");
    if (words.learn) document.title = `conquian · ${words.learn}`;
  }

  function showPath() {
    $("lesson").hidden = true;
    $("puzzle").hidden = true;
    $("path").hidden = false;
    const done = kept(DONE);
    const list = $("lesson-list");
    list.textContent = "";
    for (const l of lessons) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = `lesson-button${done.has(l.key) ? " done" : ""}`;
      b.dataset.key = l.key;
      b.textContent = (done.has(l.key) ? "✓ " : "") + l.title + (done.has(l.key) ? ` (${words.done})` : "");
      b.addEventListener("click", () => open(l.key));
      li.appendChild(b);
      list.appendChild(li);
    }
    listPuzzles();
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  }

  async function open(key) {
    current = key;
    accepted = [];
    $("path").hidden = true;
    $("lesson").hidden = false;
    location.hash = key;
    render(await api(`/api/learn/${encodeURIComponent(key)}`, { moves: [] }));
    window.scrollTo(0, 0);
  }

  async function tryMove(move) {
    for (const b of document.querySelectorAll("#l-moves button")) b.disabled = true;
    const state = await api(`/api/learn/${encodeURIComponent(current)}`, { moves: accepted, move: move });
    if (state.answer?.accepted) accepted.push(move);
    render(state);
  }

  function render(s) {
    if (s.error) { $("l-answer").textContent = s.error.message; return; }
    $("l-title").textContent = s.title;
    $("l-intro").textContent = s.intro;
    $("l-source").textContent = s.source || "";
    fillLines($("l-board"), s.board);
    $("l-hand").textContent = s.hand_label + s.hand.join(" ");
    $("l-prompt").textContent = s.prompt || "";
    const answer = $("l-answer");
    answer.textContent = s.answer ? s.answer.text : "";
    answer.className = `answer${s.answer ? (s.answer.accepted ? " ok" : " refused") : ""}`;
    const moves = $("l-moves");
    moves.textContent = "";
    for (const m of s.moves) {
      const b = moveButton(m);
      b.addEventListener("click", () => tryMove(m.move));
      moves.appendChild(b);
    }
    $("l-summary").hidden = !s.done;
    $("l-summary").textContent = s.summary || "";
    const i = lessons.findIndex((l) => l.key === current);
    $("l-next").hidden = !s.done || i < 0 || i + 1 >= lessons.length;
    if (s.done) add(DONE, current);
  }

  // A list's items, one a line of text (the lesson's board, the puzzle's lines and reasons).
  function fillLines(list, lines) {
    list.textContent = "";
    for (const line of lines) {
      const li = document.createElement("li");
      li.textContent = line;
      list.appendChild(li);
    }
  }

  // A move's button, for a lesson or a puzzle: its words, and its notation in data-move.
  function moveButton(m) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.dataset.move = m.move;
    b.textContent = m.label;
    return b;
  }

  async function openPuzzle(id) {
    $("path").hidden = true;
    $("puzzle").hidden = false;
    location.hash = `puzzle-${id}`;
    renderPuzzle(await api(`/api/puzzles/${encodeURIComponent(id)}`, {}));
    window.scrollTo(0, 0);
  }

  function renderPuzzle(s) {
    if (s.error) { $("p-result").textContent = s.error.message; return; }
    $("p-title").textContent = s.title;
    fillLines($("p-lines"), s.lines);
    $("p-prompt").textContent = s.prompt;
    const moves = $("p-moves");
    moves.textContent = "";
    for (const m of s.moves) {
      const b = moveButton(m);
      if (s.result) {
        b.disabled = true;
        if (m.move === s.result.answer) b.classList.add("answer-move");
      } else {
        b.addEventListener("click", async () => renderPuzzle(
          await api(`/api/puzzles/${encodeURIComponent(s.id)}`, { move: m.move })));
      }
      moves.appendChild(b);
    }
    const r = $("p-result");
    r.textContent = s.result ? s.result.verdict : "";
    r.className = `answer${s.result ? (s.result.right ? " ok" : " refused") : ""}`;
    const why = $("p-why");
    fillLines(why, s.result ? s.result.why : []);
    // a signed-in player's rated answer: his puzzle rating, its change, the puzzle's own rating
    const rated = $("p-rating");
    rated.hidden = !(s.result && s.rating);
    if (s.result && s.rating) {
      rated.textContent = ratingText(s.rating.rating, s.rating.change)
        + " · " + words.this_rating.replace("{rating}", s.rating.puzzle.toLocaleString(lang))
        + (s.rating.counted ? "" : ` · ${s.rating.seen ? words.seen_before : words.not_counted}`);
      puzzleData.player = { ...(puzzleData.player || {}), rating: s.rating.rating, change: s.rating.change };
      const p = puzzleData.puzzles.find((q) => q.id === s.id);
      if (p) p.rating = s.rating.puzzle;
    }
    if (s.result?.right) add(SOLVED, s.id);
    if (s.result) why.scrollIntoView({ block: "nearest" });
  }

  function ratingText(rating, change) {
    const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
    return words.your_rating.replace("{rating}", rating.toLocaleString(lang))
      .replace("{change}", sign + Math.abs(change).toLocaleString(lang));
  }

  function listPuzzles() {
    const mine = $("puzzle-rating");
    mine.hidden = !puzzleData.player;
    if (puzzleData.player) mine.textContent = ratingText(puzzleData.player.rating, puzzleData.player.change || 0);
    const list = $("puzzle-list");
    const solved = kept(SOLVED);
    list.textContent = "";
    for (const p of puzzleData.puzzles) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = `lesson-button${solved.has(p.id) ? " done" : ""}`;
      b.dataset.puzzle = p.id;
      b.textContent = (solved.has(p.id) ? "✓ " : "") + (p.id === puzzleData.daily ? `${words.daily}: ` : "") + p.id
        + " · " + p.theme + " · " + words.difficulty + " " + Math.round(p.difficulty * 100) + "%"
        + (p.rating ? ` · ${words.rating} ${p.rating.toLocaleString(lang)}` : "")
        + (solved.has(p.id) ? ` (${words.solved})` : "");
      b.addEventListener("click", () => openPuzzle(p.id));
      li.appendChild(b);
      if (p.id === puzzleData.daily) list.prepend(li); else list.appendChild(li);
    }
  }

  $("p-back").addEventListener("click", showPath);
  $("l-back").addEventListener("click", showPath);
  $("l-next").addEventListener("click", () => {
    const i = lessons.findIndex((l) => l.key === current);
    if (i >= 0 && i + 1 < lessons.length) open(lessons[i + 1].key);
  });

  function status(text) {
    const s = $("learn-status");
    s.textContent = text;
    s.hidden = !text;
  }

  async function start() {
    if (offline) {
      // (the app's service worker keeps this page and its engine: install.js)
      // the offline app: the page's language as the app keeps it, then the engine in a worker
      await loadLanguage();
      lang = LANG;
      // the header and the title in the reader's language now, not once the engine has loaded
      words = Object.assign({}, words, { learn: _("Learn") });
      for (const e of document.querySelectorAll("header [data-word]")) e.textContent = words[e.dataset.word] || "";
      document.title = `conquian · ${words.learn}`;
      status(_("Loading the engine… (the first time, about 14 MB)"));
      engine = new Engine("worker.js");
      engine.onstatus = (st) => {
        if (st === "failed") status(format(_("The engine could not start: {reason}"), { reason: engine.error }));
      };
      await engine.call("lang", { lang });
    }
    const [data, puzzles] = await Promise.all([api("/api/learn"), api("/api/puzzles")]);
    status("");
    lessons = data.lessons;
    puzzleData = puzzles;
    if (data.words) { words = data.words; fillWords(); }
    const key = decodeURIComponent(location.hash.slice(1));
    if (key.startsWith("puzzle-") && puzzles.puzzles.some((p) => `puzzle-${p.id}` === key)) openPuzzle(key.slice(7));
    else if (key && lessons.some((l) => l.key === key)) open(key); else showPath();
    syncAccount();
  }
  start().catch((e) => status(String(e?.message || e)));
})();
