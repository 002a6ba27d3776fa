// Playing at the table with the cards themselves: the moves in words, what a selection of cards
// (and a place on the table) can do, the marks of the last moves, the cards' movements, sounds.
// Protocol: docs/protocol.md (version 1). Classic scripts, loaded in order by index.html
// (cards.js, page.js, lobby.js, play.js, table.js, replay.js, app.js), sharing one global scope; no build step.
// Nothing here knows more than the seat's snapshot: the moves come from its `legal` list and the
// server's `options` answer, the marks from its `last_moves`.
"use strict";

// ----------------------------------------------------------------------------- moves in words
// A move in the notation (docs/records.md), taken apart: its verb, its cards, where it goes.
function parseMove(text) {
  const words = String(text).trim().split(/\s+/);
  const verb = words[0] || "";
  const m = { text, verb, cards: [], melds: [], combo: null, target: null, which: null };
  const rest = words.slice(1);
  if (verb === "use") {
    m.melds = rest.join(" ").split("|").map(g => g.trim().split(/\s+/).filter(Boolean)).filter(g => g.length);
    m.cards = m.melds.flat();
  } else if (verb === "add" || verb === "shift") {
    m.combo = Number(rest[0]);
    let k = 1;
    if (verb === "shift" && (rest[1] === "low" || rest[1] === "high")) { m.which = rest[1]; k = 2; }
    m.cards = rest.slice(k);
  } else if (verb === "force") {
    m.cards = rest.slice(0, 1);
    const t = rest[1] && rest[1].match(/^p(\d+)$/);
    if (t) m.target = Number(t[1]);
  } else m.cards = rest;
  return m;
}

// a card of a move or a combination in words: 7♠, 10♥, "7 de copas", the joker
function tokenWords(token) {
  const named = token.match(/^X(?:=|\()([^)*]+)/);
  if (named) return format(_("joker as {card}"), { card: cardWords(named[1]) });
  if (token.startsWith("X")) return _("joker");
  return cardWords(token.replace(/^10/, "T"));
}
// the cards a line of the server writes in the notation ("2c 2h: 2 live (2d 2s)", "4c 4h 4s"),
// in the page's words: 2♣ 2♥, 10♥ (never a word of the sentence: "As de oros" stays)
const NOTATION_CARD = /(^|[\s(,;:|])(10|[2-9TAJQK])([cdhs])(?=$|[\s),;:.|])(?! de )/g;
function notationWords(line) {
  return String(line).replace(NOTATION_CARD, (m, before, rank, suit) => before + cardWords((rank === "10" ? "T" : rank) + suit));
}
// a card of a move in a sentence, with its article: "the 7♠", "la sota de espadas", "el comodín como 9♥"
function theToken(token) {
  const named = token.match(/^X(?:=|\()([^)*]+)/);
  return theCard(named ? "X" : token.replace(/^10/, "T"), tokenWords(token));
}
function cardsWords(tokens) { return tokens.map(tokenWords).join(" "); }

// a combination on the table in a few words: every card, or the first and the last of a long one
function comboWords(cards) {
  const short = c => (c.startsWith("X") ? "★" : cardWords(c));
  if (cards.length <= 4) return cards.map(short).join(" ");
  return `${short(cards[0])}…${short(cards[cards.length - 1])}`;
}

// the seat a force sends the card to: named (R8.4), else the other seat of the deal (R3.6)
function forceTarget(m, d, you) {
  if (m.target) return m.target;
  return (d.seats || []).find(s => s !== you) || null;
}

// a move as a player reads it on its button: "Lay 7♠ 8♠ 9♠", "Discard the 2♣", "Force the 5♥ on Bea"
function moveWords(game, text) {
  const t = game.table, d = t.deal, m = parseMove(text);
  const card = m.cards[0] ? theToken(m.cards[0]) : "";
  switch (m.verb) {
    case "pass":
      return d.card_in_play ? format(_("Pass {card}"), { card: theCard(d.card_in_play) }) : _("Pass");
    case "draw": return _("Draw from the pack");
    case "take": {
      const top = card || (d.stock && d.stock.length ? theCard(d.stock[d.stock.length - 1]) : "");
      return top ? format(_("Take {card} from the discard pile"), { card: top }) : _("Take from the discard pile");
    }
    case "use": return format(_("Lay {cards}"), { cards: m.melds.map(cardsWords).join(" + ") });
    case "meld": return format(_("Lay {cards}"), { cards: cardsWords(m.cards) });
    case "force": return format(_("Force {card} on {name}"), { card, name: game.name(forceTarget(m, d, game.you)) });
    case "discard": return format(_("Discard {card}"), { card });
    case "give": return format(_("Give {card} to {name}"), { card, name: game.name(d.exchange ? d.exchange.to : null) });
    case "add":
    case "shift": {
      const combo = (d.combos || []).find(c => c.number === m.combo);
      const what = combo ? comboWords(combo.cards) : String(m.combo);
      const mine = combo && combo.owner === game.you;
      const fields = { cards: cardsWords(m.cards), combo: what, name: combo ? game.name(combo.owner) : "" };
      if (m.verb === "shift") return mine ? format(_("Move the joker of your {combo} and add {cards}"), fields)
        : format(_("Move the joker of {name}'s {combo} and add {cards}"), fields);
      return mine ? format(_("Add {cards} to your {combo}"), fields) : format(_("Add {cards} to {name}'s {combo}"), fields);
    }
    default: return text;
  }
}

// A move of the record in words, without the table's state (the replay, the review): "Lupita: pay
// 5♣" — the move list's words (the server's catalogue), the cards as the page shows them.
function recordMoveWords(text, name) {
  const words = String(text).trim().split(/\s+/);
  const seat = words[0] && words[0].match(/^p(\d+)$/) ? Number(words.shift().slice(1)) : null;
  const m = parseMove(words.join(" "));
  const cards = toks => toks.map(tokenWords).join(" ");
  const card = m.cards[0] ? tokenWords(m.cards[0]) : "";
  let move;
  switch (m.verb) {
    case "pass": move = _("pass"); break;
    case "draw": move = _("draw"); break;
    case "take": move = card ? format(_("take {card}"), { card }) : _("take"); break;
    case "use": move = format(_("use {cards}"), { cards: m.melds.map(cards).join(" | ") }); break;
    case "meld": move = format(_("meld {cards}"), { cards: cards(m.cards) }); break;
    case "discard": move = format(_("discard {card}"), { card }); break;
    case "give": move = format(_("give {card}"), { card }); break;
    case "force": move = m.target ? format(_("force {card} on {to}"), { card, to: name(m.target) }) : format(_("force {card}"), { card }); break;
    case "add": move = format(_("add {combo} {cards}"), { combo: m.combo, cards: cards(m.cards) }); break;
    case "shift": {
      const f = { combo: m.combo, cards: cards(m.cards) };
      move = m.which === "low" ? format(_("shift {combo} low {cards}"), f) : m.which === "high" ? format(_("shift {combo} high {cards}"), f) : format(_("shift {combo} {cards}"), f);
      break;
    }
    default: move = notationWords(words.join(" "));
  }
  return seat === null ? move : format(_("{who}: {move}"), { who: name(seat), move });
}

// The say's or the draw's choices: what a player may do with nothing selected (R3.3, R4.3).
function isChoice(m, d) {
  if (m.verb === "pass" || m.verb === "draw" || m.verb === "take") return true;
  return m.verb === "force" && d.phase !== "discard" && m.cards[0] === d.card_in_play;
}

// Whether a move goes where the player tapped: the card in play, the pack, the stock, a combination, a side.
function fitsTarget(m, target, d, you) {
  if (!target) return true;
  switch (target.kind) {
    case "play":
      if (d.phase === "discard") return m.verb === "discard";
      return m.verb === "use" || m.verb === "pass" || (m.verb === "force" && m.cards[0] === d.card_in_play);
    case "pack": return m.verb === "draw";
    case "stock": return m.verb === "take" || m.verb === "discard";
    case "combo": return (m.verb === "add" || m.verb === "shift") && m.combo === target.number;
    case "side":
      if (target.seat === you) return m.verb === "use";
      return m.verb === "force" && forceTarget(m, d, you) === target.seat;
    default: return true;
  }
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
    : el("span", { class: "mini-card " + miniClass(c) }, c.startsWith("X") ? "★" : cardWords(c))));
}
function miniClass(c) {
  if (c.startsWith("X")) return "joker";
  const s = c.slice(-1);
  return s === "h" || s === "d" ? "red" : "black";
}

// ----------------------------------------------------------------------------- motion
function reducedMotion() { return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches); }

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
// seconds or null (off) when the host picks (none: a form's field, read when it is sent).
const TURN_TIMERS = [30, 60, 120, 300];
function turnTimerSelect(id, chosen, onPick) {
  const words = s => (s % 60 ? format(_("{seconds} s"), { seconds: s }) : format(_("{minutes} min"), { minutes: s / 60 }));
  const all = chosen && !TURN_TIMERS.includes(chosen) ? [chosen, ...TURN_TIMERS] : TURN_TIMERS;
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
  return under && under.closest ? under.closest("[data-drop]") : null;
}
