// Playing at the table with the cards themselves: the moves in words, what a selection of cards
// (and a place on the table) can do, the marks of the last moves, the cards' movements, sounds.
// Protocol: docs/protocol.md (version 1). Classic scripts sharing one global scope, no build step;
// each page's order is set in one place (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
// Nothing here knows more than the seat's snapshot: the moves come from its `moves` list and the
// server's `options` answer (their words, cards and places decided in Python), the marks from its
// `last_moves`; the server's texts (the log, the last moves, the hint's outs) come in the page's words.
"use strict";

// ----------------------------------------------------------------------------- moves in words
// The moves come from the snapshot (`moves`) and the `options` answer, each with its words, its
// cards and the places of the table it goes to (conquian.web.moves): the page never reads the notation.

// a card of a combination in words: 7♠, 10♥, "7 de copas", the joker
function tokenWords(token) {
  const named = token.match(/^X(?:=|\()([^)*]+)/);
  if (named) return format(_("joker as {card}"), { card: cardWords(named[1]) });
  if (token.startsWith("X")) return _("joker");
  return cardWords(token.replace(/^10/, "T"));
}

// a place of the table tapped or dropped on, as a move names it: play, pack, stock, combo:N, side:S
function placeKey(target) {
  if (target.kind === "combo") return `combo:${target.number}`;
  if (target.kind === "side") return `side:${target.seat}`;
  return target.kind;
}
// Whether a move goes where the player tapped (none tapped: every move)
function fitsTarget(move, target) { return !target || move.places.includes(placeKey(target)); }

// the hint's move in the words of its button when it is listed, else the server's words
function hintWords(table, hint) {
  const listed = (table.moves || []).find(m => m.act === hint.act);
  return listed ? suited(listed, "words") : hint.move;
}

// ----------------------------------------------------------------------------- last moves
// the short verb of a seat's last move, by the kind its event has (docs/protocol.md)
function lastKindWords(kind, family) {
  return {
    // a verb, as every other kind (its subject the player, never the card: "enterró K♣", not "enterradas K♣")
    turn: _("turned"), pass: _("passed"), bury: pgettext("last move", "buried"), use: _("laid"), force: _("forced"),
    discard: family === "cooncan" ? _("discarded") : pgettext("conquian", "discarded"), draw: _("drew"), take: _("took"),
    meld: _("laid"), add: _("added"), shift: _("moved a joker"), give: _("gave a card"),
  }[kind] || "";
}

// the cards of a last move, small and in words (no picture: a phone's seat has little room)
function miniCards(codes, max = 4) {
  const shown = codes.length > max ? [...codes.slice(0, max - 1), "…"] : codes;
  return el("span", { class: "mini" }, shown.map(c => c === "…" ? el("span", {}, "…")
    : el("span", { class: `mini-card ${miniClass(c)}` }, c.startsWith("X") ? "★" : cardWords(c))));
}
function miniClass(c) {
  if (c.startsWith("X")) return "joker";
  const s = c.slice(-1);
  return s === "h" || s === "d" ? "red" : "black";
}

// ----------------------------------------------------------------------------- motion
function reducedMotion() { return !!(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches); }

// where things were on the page before it is drawn again: each seat, the pack, the card in play,
// the stock, the hand's cards by code
function placesOnPage() {
  const rect = e => (e ? e.getBoundingClientRect() : null);
  const seats = {};
  for (const s of main.querySelectorAll("#board .seat[data-seat]")) seats[s.dataset.seat] = rect(s);
  const hand = {};
  for (const c of main.querySelectorAll("#hand .card")) hand[c.dataset.card] = rect(c);
  const play = main.querySelector("#play-card .card, #play-card.card, #stock-card");
  return { seats, hand, pack: rect(main.querySelector("#pack")), play: rect(play), playCard: play ? play.cloneNode(true) : null };
}

let animations = 0;  // how many movements the page has shown (a hook for the tests)
function moveFrom(target, from, opts = {}) {
  // the card drawn at its new place flies there from where it came (a FLIP with the Web Animations API)
  if (!target || !from || !target.animate) return;
  const to = target.getBoundingClientRect();
  if (!to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2), dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(.35, Math.min(1.6, from.width / to.width || 1));
  const start = opts.flip ? `translate(${dx}px, ${dy}px) scale(${scale}) rotateY(90deg)` : `translate(${dx}px, ${dy}px) scale(${scale})`;
  target.animate([{ transform: start, opacity: .6 }, { transform: "none", opacity: 1 }],
    { duration: opts.duration || 420, easing: "cubic-bezier(.2,.75,.3,1)", delay: opts.delay || 0, fill: "backwards" });
  animations++;
}
function ghostTo(node, from, to, opts = {}) {
  // a card that leaves the table (buried, drawn, taken): a copy flies from where it was and fades
  if (!node || !from || !to || !document.body.animate) return;
  const g = el("div", { class: "ghost", "aria-hidden": "true" }, node);
  document.body.append(g);
  const x0 = from.left, y0 = from.top, x1 = to.left + (to.width - from.width) / 2, y1 = to.top + (to.height - from.height) / 2;
  const a = g.animate([{ transform: `translate(${x0}px, ${y0}px)`, opacity: 1 },
    { transform: `translate(${x1}px, ${y1}px) scale(.6)${opts.flip ? " rotateY(90deg)" : ""}`, opacity: 0 }],
  { duration: opts.duration || 480, easing: "ease-in", fill: "forwards" });
  a.onfinish = () => g.remove();
  a.oncancel = () => g.remove();
  animations++;
}
function backCard() { const b = cardBacks(1); const p = b.querySelector(".pile"); return p || b; }

// ----------------------------------------------------------------------------- sounds
// Short tones made in the page (no sound file), off unless the player turns them on (kept in localStorage).
let audio = null;
function soundOn() { return store.get("pref", "sound") === "1"; }
function tone(kind) {
  if (!soundOn()) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const notes = { yours: [[660, 0], [880, .12]], lay: [[523, 0], [659, .05], [784, .1]], discard: [[330, 0]],
      turn: [[440, 0]], move: [[392, 0]] }[kind] || [[440, 0]];
    const now = audio.currentTime;
    for (const [f, at] of notes) {
      const o = audio.createOscillator(), g = audio.createGain();
      o.type = "triangle"; o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, now + at);
      g.gain.exponentialRampToValueAtTime(0.12, now + at + 0.015);
      g.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.18);
      o.connect(g).connect(audio.destination);
      o.start(now + at); o.stop(now + at + 0.2);
    }
  } catch (e) { /* no sound in this browser */ }
}
function soundSwitch() {
  const box = el("input", { type: "checkbox", id: "sound", "data-key": "sound", checked: soundOn() });
  box.addEventListener("change", () => { store.set("pref", "sound", box.checked ? "1" : "0"); if (box.checked) tone("yours"); });
  return el("label", { class: "switch" }, box, " ", _("Sounds"));
}

// ----------------------------------------------------------------------------- dragging
// A hand card dragged onto a place of the table ([data-drop]): the page plays the one move it
// makes there, or shows the moves when several fit.  Pointer events: a mouse, a pen, a finger.
// The turn timer's choices (seconds a person has to move before the expert moves for him), as a
// select; `chosen` is the table's (one not among the usual ones is shown too), `onPick` gets the
// seconds or null (off) when the host picks (none: a form's field, read when it is sent).  The
// choices are the server's (`turn_timers` of /api/presets), never a copy here.
function turnTimerSelect(id, chosen, onPick) {
  const words = s => (s % 60 ? format(_("{seconds} s"), { seconds: s }) : format(_("{minutes} min"), { minutes: s / 60 }));
  const timers = (presets?.turn_timers) || [];
  const all = chosen && !timers.includes(chosen) ? [chosen, ...timers] : timers;
  const sel = el("select", { id, "data-key": id, "aria-label": _("turn timer") }, el("option", { value: "", selected: !chosen }, _("off")),
    all.map(s => el("option", { value: s, selected: chosen === s }, words(s))));
  if (onPick) sel.addEventListener("change", () => onPick(sel.value ? Number(sel.value) : null));
  return sel;
}

function dragCards(hand, onDrop) {
  let drag = null;
  const move = ev => {
    if (!drag || ev.pointerId !== drag.id) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.on) {
      if (Math.hypot(dx, dy) < 12) return;
      drag.on = true;
      drag.ghost = el("div", { class: "ghost dragging", "aria-hidden": "true" }, drag.card.querySelector("svg").cloneNode(true));
      document.body.append(drag.ghost);
      drag.card.classList.add("lifted");
    }
    drag.ghost.style.transform = `translate(${drag.left + dx}px, ${drag.top + dy}px)`;
    for (const z of document.querySelectorAll("[data-drop].drop-over")) z.classList.remove("drop-over");
    const zone = dropZoneAt(ev.clientX, ev.clientY);
    if (zone) zone.classList.add("drop-over");
  };
  const end = ev => {
    if (!drag || ev.pointerId !== drag.id) return;
    const d = drag; drag = null;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    if (!d.on) return;
    const zone = ev.type === "pointerup" ? dropZoneAt(ev.clientX, ev.clientY) : null;
    d.ghost.remove();
    d.card.classList.remove("lifted");
    for (const z of document.querySelectorAll("[data-drop].drop-over")) z.classList.remove("drop-over");
    // the click that ends a drag (a mouse's) is not a tap
    const swallow = e => { e.stopImmediatePropagation(); e.preventDefault(); };
    window.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 300);
    if (zone) onDrop(Number(d.card.dataset.index), JSON.parse(zone.dataset.drop));
  };
  hand.addEventListener("pointerdown", ev => {
    const card = ev.target.closest("button.card");
    if (!card || card.disabled || ev.button) return;
    const r = card.getBoundingClientRect();
    drag = { card, x: ev.clientX, y: ev.clientY, left: r.left, top: r.top, on: false, id: ev.pointerId, ghost: null };
    // the pointer is followed wherever it goes until it is lifted
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  });
}
function dropZoneAt(x, y) {
  // the ghost lets the pointer through (pointer-events: none): what lies under it
  const under = document.elementFromPoint(x, y);
  return under?.closest ? under.closest("[data-drop]") : null;
}

// ----------------------------------------------------------------------------- what moved
function showMoved(game, old, places) {
  // the moves newer than what the page showed: their cards fly to where they now lie, a sound plays
  const t = game.table, d = t.deal;
  if (!d) return;
  const shown = game.shown;
  game.shown = { deal: d.number, event: t.last_event };
  if (!shown || shown.deal !== d.number || !old || !old.deal || t.last_event === null) return;
  const fresh = (t.last_moves || []).filter(m => m.kind && m.event !== null && (shown.event === null || m.event > shown.event))
    .sort((a, b) => a.event - b.event);
  if (!fresh.length) return;
  const newest = fresh[fresh.length - 1];
  if (d.to_act === game.you && old.deal.to_act !== game.you && !d.over) tone("yours");
  else tone({ use: "lay", meld: "lay", add: "lay", shift: "lay", discard: "discard", force: "discard", turn: "turn" }[newest.kind] || "move");
  if (reducedMotion() || !places) return;
  const board = main.querySelector("#board");
  if (board) board.classList.add("fresh");
  const from = seat => (seat === game.you ? null : places.seats[seat]) || places.seats[seat];
  const fromHand = (seat, code) => (seat === game.you && places.hand[code]) || from(seat);
  fresh.forEach((m, k) => {
    const delay = k * 120;
    if (m.kind === "turn") moveFrom(main.querySelector("#play-card .card, .card#play-card"), places.pack, { flip: true, delay });
    else if (m.kind === "discard" && d.family === "cooncan") moveFrom(main.querySelector("#stock-card"), fromHand(m.seat, m.cards[0]), { delay });
    else if (m.kind === "discard" || (m.kind === "force" && d.phase === "forced" && !(old.deal.card_in_play === m.cards[0]))) {
      moveFrom(main.querySelector("#play-card .card, .card#play-card"), fromHand(m.seat, m.cards[0]), { delay });
    } else if (m.kind === "force") {
      const card = main.querySelector("#play-card .card, .card#play-card");
      if (card?.animate) { card.animate([{ transform: "none" }, { transform: "translateY(-.6rem) rotate(-4deg)" }, { transform: "none" }], { duration: 420, delay }); animations++; }
    } else if (["use", "meld", "add", "shift"].includes(m.kind)) {
      for (const c of main.querySelectorAll("#board .meld .last-card")) {
        const code = c.dataset.card;
        const src = code === (old.deal.card_in_play || "") ? places.play : fromHand(m.seat, code);
        moveFrom(c, src, { delay });
      }
    } else if (m.kind === "bury" && places.playCard) ghostTo(places.playCard, places.play, places.pack, { flip: true, delay });
    else if (m.kind === "draw" || m.kind === "take") {
      const src = m.kind === "draw" ? places.pack : places.play;
      if (m.seat === game.you) {
        const before = old.deal.hand || [];
        const fresher = [...main.querySelectorAll("#hand .card")].find(c => !before.includes(c.dataset.card));
        moveFrom(fresher, src, { flip: m.kind === "draw", delay });
      } else {
        const seat = main.querySelector(`#board .seat[data-seat="${m.seat}"]`);
        if (seat && src) ghostTo(m.kind === "draw" ? backCard() : (places.playCard || backCard()), src, seat.getBoundingClientRect(), { delay });
      }
    }
  });
  main.dataset.animations = animations;
}
