// The Learn section (/learn): the path of lessons, and one lesson played by taps. The server
// replays the moves the lesson accepted so far and answers with the seat's view; every word
// on the page comes from the server in the reader's language. Progress stays in this browser.
"use strict";
(function () {
  const body = document.body;
  const lang = body.dataset.lang || "en";
  const words = JSON.parse(body.dataset.words || "{}");
  const STORE = "conquian.learn.done";
  const $ = (id) => document.getElementById(id);
  let lessons = [];
  let current = null;
  let accepted = [];

  function doneSet() {
    try { return new Set(JSON.parse(localStorage.getItem(STORE) || "[]")); } catch (e) { return new Set(); }
  }
  function markDone(key) {
    const done = doneSet();
    done.add(key);
    try { localStorage.setItem(STORE, JSON.stringify([...done])); } catch (e) { /* private mode */ }
  }

  // a signed-in browser shows its session's CSRF token (the readable twin of its account cookie)
  function csrf() {
    const m = /(?:^|; )conquian_csrf=([0-9a-f]{64})/.exec(document.cookie);
    return m ? {"X-CSRF-Token": m[1]} : {};
  }

  async function api(path, payload) {
    const opts = payload === undefined ? {} : {
      method: "POST", headers: {"Content-Type": "application/json", ...csrf()}, body: JSON.stringify(payload)};
    const r = await fetch(path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang), opts);
    return r.json();
  }

  function showPath() {
    $("lesson").hidden = true;
    $("puzzle").hidden = true;
    $("path").hidden = false;
    const done = doneSet();
    const list = $("lesson-list");
    list.textContent = "";
    for (const l of lessons) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "lesson-button" + (done.has(l.key) ? " done" : "");
      b.dataset.key = l.key;
      b.textContent = (done.has(l.key) ? "✓ " : "") + l.title + (done.has(l.key) ? " (" + words.done + ")" : "");
      b.addEventListener("click", () => open(l.key));
      li.appendChild(b);
      list.appendChild(li);
    }
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  }

  async function open(key) {
    current = key;
    accepted = [];
    $("path").hidden = true;
    $("lesson").hidden = false;
    location.hash = key;
    render(await api("/api/learn/" + encodeURIComponent(key), {moves: []}));
    window.scrollTo(0, 0);
  }

  async function tryMove(move) {
    for (const b of document.querySelectorAll("#l-moves button")) b.disabled = true;
    const state = await api("/api/learn/" + encodeURIComponent(current), {moves: accepted, move: move});
    if (state.answer && state.answer.accepted) accepted.push(move);
    render(state);
  }

  function render(s) {
    if (s.error) { $("l-answer").textContent = s.error.message; return; }
    $("l-title").textContent = s.title;
    $("l-intro").textContent = s.intro;
    $("l-source").textContent = s.source || "";
    const board = $("l-board");
    board.textContent = "";
    for (const line of s.board) {
      const li = document.createElement("li");
      li.textContent = line;
      board.appendChild(li);
    }
    $("l-hand").textContent = s.hand_label + s.hand.join(" ");
    $("l-prompt").textContent = s.prompt || "";
    const answer = $("l-answer");
    answer.textContent = s.answer ? s.answer.text : "";
    answer.className = "answer" + (s.answer ? (s.answer.accepted ? " ok" : " refused") : "");
    const moves = $("l-moves");
    moves.textContent = "";
    for (const m of s.moves) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.dataset.move = m.move;
      b.textContent = m.label;
      b.addEventListener("click", () => tryMove(m.move));
      moves.appendChild(b);
    }
    $("l-summary").hidden = !s.done;
    $("l-summary").textContent = s.summary || "";
    const i = lessons.findIndex((l) => l.key === current);
    $("l-next").hidden = !s.done || i < 0 || i + 1 >= lessons.length;
    if (s.done) markDone(current);
  }

  async function openPuzzle(id) {
    $("path").hidden = true;
    $("puzzle").hidden = false;
    location.hash = "puzzle-" + id;
    renderPuzzle(await api("/api/puzzles/" + encodeURIComponent(id), {}));
    window.scrollTo(0, 0);
  }

  function renderPuzzle(s) {
    if (s.error) { $("p-result").textContent = s.error.message; return; }
    $("p-title").textContent = s.title;
    const lines = $("p-lines");
    lines.textContent = "";
    for (const line of s.lines) {
      const li = document.createElement("li");
      li.textContent = line;
      lines.appendChild(li);
    }
    $("p-prompt").textContent = s.prompt;
    const moves = $("p-moves");
    moves.textContent = "";
    for (const m of s.moves) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.dataset.move = m.move;
      b.textContent = m.label;
      if (s.result) {
        b.disabled = true;
        if (m.move === s.result.answer) b.classList.add("answer-move");
      } else {
        b.addEventListener("click", async () => renderPuzzle(
          await api("/api/puzzles/" + encodeURIComponent(s.id), {move: m.move})));
      }
      moves.appendChild(b);
    }
    const r = $("p-result");
    r.textContent = s.result ? s.result.text : "";
    r.className = "answer" + (s.result ? (s.result.right ? " ok" : " refused") : "");
  }

  function listPuzzles(data) {
    const list = $("puzzle-list");
    list.textContent = "";
    for (const p of data.puzzles) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "lesson-button";
      b.dataset.puzzle = p.id;
      b.textContent = (p.id === data.daily ? words.daily + ": " : "") + p.id + " · " + p.theme + " · "
        + words.difficulty + " " + Math.round(p.difficulty * 100) + "%";
      b.addEventListener("click", () => openPuzzle(p.id));
      li.appendChild(b);
      if (p.id === data.daily) list.prepend(li); else list.appendChild(li);
    }
  }

  $("p-back").addEventListener("click", showPath);
  $("l-back").addEventListener("click", showPath);
  $("l-next").addEventListener("click", () => {
    const i = lessons.findIndex((l) => l.key === current);
    if (i >= 0 && i + 1 < lessons.length) open(lessons[i + 1].key);
  });

  Promise.all([api("/api/learn"), api("/api/puzzles")]).then(([data, puzzleData]) => {
    lessons = data.lessons;
    listPuzzles(puzzleData);
    const key = decodeURIComponent(location.hash.slice(1));
    if (key.startsWith("puzzle-") && puzzleData.puzzles.some((p) => "puzzle-" + p.id === key)) openPuzzle(key.slice(7));
    else if (key && lessons.some((l) => l.key === key)) open(key); else showPath();
  });
})();
