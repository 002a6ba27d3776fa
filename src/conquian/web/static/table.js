// A table: the WebSocket session of one seat (or a spectator) and the table drawn from its snapshot.
// Protocol: docs/protocol.md (version 1). Classic scripts sharing one global scope, no build step;
// each page's order is set in one place (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
// A player plays with the cards themselves: he taps cards of his hand, the card in play, a pile or
// a combination, and the moves that selection makes are offered in words (play.js).
"use strict";

// ----------------------------------------------------------------------------- table
let game = null;
// shown wherever a table whose cards the host chose appears (docs/protocol.md)
function setDealText() { return _("set deal: the host knows every card"); }
function setDealNotice(t) { return t.set_deal ? el("p", { class: "set-deal", role: "note" }, setDealText()) : ""; }
const PACES = [0, 0.5, 1, 2, 3, 5];

function keepOpen(box, keep) {
  // a part the player opens or closes stays so when the table is drawn again: the state is kept
  // at the click itself, since the toggle event comes after it and a snapshot drawn in between
  // would build the part as it was (the toggle still keeps what opens it otherwise)
  box.querySelector("summary").addEventListener("click", () => keep(!box.open));
  box.addEventListener("toggle", () => keep(box.open));
  return box;
}

class Game {
  // one client for both masters: the server (a SocketTransport, the default) or the engine in
  // this page (a WorkerTransport, the offline app): transport.js
  constructor(id, transport) {
    this.id = id; this.table = null; this.you = null; this.host = false; this.selected = [];
    this.options = null; this.closed = false;
    this.transport = transport || new SocketTransport(id);
    this.target = null;       // the place of the table tapped: {kind: play|pack|stock|combo|side, ...}
    this.autoPlay = false;    // a card dropped on a place: play the move when exactly one fits
    this.hint = null; this.hintAsked = false;
    this.shown = null;        // the deal and the newest event the page has shown (what moves next)
    this.awaySince = {};      // seat -> when this page saw it leave (the countdown of the away rule)
    this.opened = { moves: false, typed: false, settings: false };
    this.clock = setInterval(() => this.tick(), 1000);
    const frag = new URLSearchParams(location.hash.slice(1));
    if (frag.get("seat")) { store.set("seat", id, frag.get("seat")); history.replaceState(null, "", location.pathname); }
    this.transport.open(this);
  }
  token() { return store.get("seat", this.id); }
  gone() { connBox.textContent = ""; main.replaceChildren(el("p", {}, _("There is no such table."), " ", el("a", { href: this.transport.lobbyHref ? this.transport.lobbyHref() : "/", "data-link": 1 }, _("Back to the lobby")))); }
  close() { this.closed = true; clearInterval(this.clock); this.transport.close(); }
  send(msg) { if (!this.transport.send(msg)) showError(_("not connected: retrying")); }
  receive(m) {
    if (m.type === "welcome") { this.you = m.seat; this.host = m.host; }
    else if (m.type === "table") {
      const old = this.table;
      const before = old ? old.state : -1;
      const places = old?.deal && main.querySelector("#board") ? placesOnPage() : null;
      this.table = m.table;
      if (m.table.rematch) {
        const t = this.token(); if (t) store.set("seat", m.table.rematch, t);
        const h = store.get("host", this.id); if (h) store.set("host", m.table.rematch, h);
      }
      let ask = false;
      if (m.table.state !== before) {
        // the cards chosen stay chosen while the hand is the same (chosen while the others play)
        const hand = d => (d?.hand ? d.hand.join(" ") : "");
        const keep = old?.deal && m.table.deal && hand(old.deal) === hand(m.table.deal) && old.deal.phase !== "exchange";
        if (!keep) this.selected = [];
        this.options = null; this.target = null; this.autoPlay = false; this.hint = null; this.hintAsked = false;
        ask = this.selected.length > 0;
      }
      this.seen(m.table.seats.map(s => s.connected));
      if (ask) this.ask();
      this.render();
      showMoved(this, old, places);
    } else if (m.type === "presence") {
      // who is connected, gathered over a second: the seats' flags and how many watch
      if (!this.table) return;
      m.connected.forEach((c, i) => { if (this.table.seats[i]) this.table.seats[i].connected = c; });
      this.table.spectators = m.spectators;
      this.seen(m.connected);
      this.render();
    } else if (m.type === "chat") chatReceive(this, m);
    else if (m.type === "options") {
      // the answer for the selection shown now only (a tap may have changed it meanwhile)
      if (!this.table?.deal?.hand) return;
      const now = this.selected.map(k => this.table.deal.hand[k]).join(" ");
      if ((m.cards || []).join(" ") !== now) return;
      this.options = m.moves || [];
      if (this.autoPlay) {
        this.autoPlay = false;
        const fit = this.offered();
        if (fit && fit.length === 1) { this.act(fit[0].act); return; }
      }
      this.render();
    } else if (m.type === "hint") {
      if (!this.table) return;
      this.hint = { act: m.act, move: m.move, outs: m.outs || [], outs_suits: m.outs_suits, state: this.table.state };
      this.hintAsked = false;
      this.render();
    } else if (m.type === "error") {
      this.hintAsked = false; this.autoPlay = false;
      // the refusal's cards come named by the server (message_suits beside the Spanish pack's suits)
      showError(refusalText({ ...m, message: suited(m, "message") }), m.rule);
      if (m.code === "bad_token") { /* watching */ }
    }
  }
  seen(connected) {
    // when each seat was first seen away: the away rule's countdown starts there (approximately)
    connected.forEach((c, i) => {
      const s = i + 1;
      if (c) delete this.awaySince[s]; else if (!(s in this.awaySince)) this.awaySince[s] = Date.now();
    });
  }
  // "(you)" after a seat's name, unless the name already says it (the offline app seats "You")
  youMark(seat) {
    if (seat !== this.you) return "";
    const n = this.name(seat).trim().toLocaleLowerCase();
    return n === _("you").toLocaleLowerCase() || n === _("You").toLocaleLowerCase() ? "" : ` ${_("(you)")}`;
  }
  name(seat) { const s = this.table.seats[seat - 1]; return s ? (seatName(s.name, s.kind, seat) || format(_("Seat {n}"), { n: seat })) : `p${seat}`; }
  act(words) { showError(""); this.send({ type: "act", state: this.table.state, action: words }); }
  mine() { const d = this.table.deal; return !!(d && !d.over && this.you !== null && d.to_act === this.you && this.table.moves.length); }
  toggle(index) {
    const d = this.table.deal;
    if (d.phase === "exchange") {
      // the exchange (R8.2): one card to give, chosen here and given with one more click
      this.selected = this.selected[0] === index ? [] : [index];
      this.render();
      return;
    }
    // by position in the hand: a double pack can hold two of a card
    const i = this.selected.indexOf(index);
    if (i >= 0) this.selected.splice(i, 1); else this.selected.push(index);
    this.options = null; this.autoPlay = false;
    this.ask();
    this.render();
  }
  ask() {
    // the moves the selected cards make: the server's `options` (the listed moves and the forms built from them)
    const hand = this.table.deal.hand || [];
    const cards = this.selected.map(k => hand[k]).filter(c => c);
    if (cards.length && this.mine()) this.send({ type: "options", cards });
  }
  tap(target) {
    // a place of the table tapped: the card in play, the pack, the stock, a combination, a side
    if (!this.mine()) return;
    const same = this.target && JSON.stringify(this.target) === JSON.stringify(target);
    this.target = same ? null : target;
    if (!same && this.selected.length) {
      // cards chosen, then where they go: one move fits, it is played
      const fit = this.offered();
      if (fit === null) this.autoPlay = true;
      else if (fit.length === 1) { this.act(fit[0].act); return; }
    }
    this.render();
  }
  drop(index, target) {
    // a hand card dropped on a place of the table: with the cards already chosen, the move it makes there
    if (!this.mine()) return;
    if (!this.selected.includes(index)) { this.selected.push(index); this.options = null; this.ask(); }
    this.target = target;
    const fit = this.offered();
    if (fit === null) this.autoPlay = true;
    else if (fit.length === 1) { this.act(fit[0].act); return; }
    this.render();
  }
  clear() { this.selected = []; this.options = null; this.target = null; this.autoPlay = false; this.render(); }
  offered() {
    // the moves shown as buttons (the snapshot's and the options answer's, each with the places it
    // goes to): those of the selection (null while the server answers), else those of the place
    // tapped, else the say's or the draw's choices
    const t = this.table;
    if (!this.mine()) return [];
    const fits = m => fitsTarget(m, this.target);
    if (this.selected.length) {
      if (this.options === null) return null;
      // a selection that makes no move (the draw of Cooncan, say): the phase's own choices stay offered
      const own = this.options.filter(fits);
      return own.length || this.target ? own : this.choices();
    }
    if (this.target) return t.moves.filter(fits);
    return this.choices();
  }
  pick(act) {
    // a move offered under the hand; one of the phase's choices shown for a selection that makes no move lets go of it
    if (!this.selectionMoves()) { this.selected = []; this.options = null; }
    this.act(act);
  }
  choices() { return this.table.moves.filter(m => m.choice); }
  selectionMoves() { return !this.selected.length || !!(this.options || []).filter(m => fitsTarget(m, this.target)).length; }
  render() {
    const t = this.table;
    spanishPack = spanishPackOf(t.variant);
    // the game by its name for people; a table's own name before it (not its preset's code again)
    const game = gameName(t.variant);
    setTitle(!t.name || t.name === t.variant || t.name === game ? game : `${t.name} - ${game}`);
    const parts = [];
    const playing = t.status !== "waiting";
    // in play the table is a full screen (screen.js): the felt, the moves bar and the hand; the
    // scores, the chat, the log and the settings in a column beside it, or in sheets on a small screen
    document.body.classList.toggle("in-play", playing);
    if (!playing) parts.push(waitingPanel(this));
    else {
      parts.push(el("div", { class: "table-screen", id: "table-screen", "data-sheet": this.sheet || "" },
        el("div", { class: "play-area" }, this.status(), this.board(), this.handPanel()),
        sidePanels(this, [scoresPanel(this), typeof chatPanel === "function" ? chatPanel(this) : "", logPanel(this), settingsPanel(this), linksPanel(this)])));
    }
    const focus = document.activeElement?.dataset ? document.activeElement.dataset.key : null;
    main.replaceChildren(...parts);
    if (focus) { const again = main.querySelector(`[data-key="${CSS.escape(focus)}"]`); if (again) again.focus({ preventScroll: true }); }
    fanHand(main.querySelector("#hand"));
    turnSignals(this);
    this.tick();
  }
  names(seats) { return seats.map(s => (s === this.you ? _("you") : this.name(s))).join(", "); }
  mexicanoWords(d) {
    // the exchange, the say going round (R8.2, R8.3), in words
    const you = d.to_act === this.you, name = this.name(d.to_act);
    const next = s => d.seats[(d.seats.indexOf(s) + 1) % d.seats.length];
    if (d.phase === "exchange") {
      if (you) return format(_("Choose a card to give to {name}"), { name: this.name(d.exchange.to) });
      if (d.exchange.gave) return _("Waiting for the others to give...");
      return format(_("{name} chooses a card to give to {next}"), { name, next: this.name(next(d.to_act)) });
    }
    const card = d.card_in_play ? theCard(d.card_in_play) : "";
    if (d.phase === "say") {
      const turned = d.passed.length && d.passed[0] === d.origin || d.origin === d.to_act && !d.passed.length;
      const byYou = d.origin === this.you, origin = this.name(d.origin);
      const source = turned ? (byYou ? _("turned by you") : format(_("turned by {name}"), { name: origin }))
        : (byYou ? _("discarded by you") : format(_("discarded by {name}"), { name: origin }));
      const say = you ? format(_("You have the say to {card} ({source})"), { card, source })
        : format(_("{name} has the say to {card} ({source})"), { name, card, source });
      return d.passed.length ? format(_("{say}; passed by {names}"), { say, names: this.names(d.passed) }) : say;
    }
    if (d.phase === "forced") return you ? format(_("You must use {card}: it was forced (R8.4)"), { card }) : format(_("{name} must use {card}: it was forced (R8.4)"), { name, card });
    if (d.phase === "discard") return you ? _("You must discard") : format(_("{name} must discard"), { name });
    return d.phase;
  }
  endWords(d) {
    if (d.ended === "tablas") return _("Tablas: the pack is exhausted and nobody has gone out; a draw (R8.6).");
    if (d.ended === "fewest") return format(_("The pack is exhausted: {name} holds the fewest cards and wins (R8.6)."), { name: this.name(d.winner) });
    if (d.winner === this.you) return format(_("You go out with {n} down and win (R8.5)."), { n: d.goal });
    return format(_("{name} goes out with {n} down and wins (R8.5)."), { name: this.name(d.winner), n: d.goal });
  }
  turnWords(d) {
    if (d.over && d.family === "mexicano") return this.endWords(d);
    if (d.over) return this.table.scores?.result ? suited(this.table.scores, "result") : _("The deal is over");
    if (d.family === "mexicano") return this.mexicanoWords(d);
    const name = this.name(d.to_act);
    const card = d.card_in_play ? theCard(d.card_in_play) : "";
    if (d.to_act === this.you) {
      if (d.phase === "say" && card) return format(_("You have the say to {card}"), { card });
      if (d.phase === "forced" && card) return format(_("You must use {card}: it was forced on you (R3.6)"), { card });
      if (d.phase === "draw" && d.stock && d.stock.length) return format(_("Your turn: draw from the pack or take {card} from the discard pile"), { card: theCard(d.stock[d.stock.length - 1]) });
      const mine = { say: _("You have the say"), forced: _("You must use the forced card"), discard: _("You must discard"),
        draw: _("You draw or take"), play: _("You play, then discard") }[d.phase];
      return mine || `${_("You")} ${d.phase}`;
    }
    if (d.phase === "say" && card) return format(_("{name} has the say to {card}"), { name, card });
    const theirs = { say: _("{name} has the say"), forced: _("{name} must use the forced card"), discard: _("{name} must discard"),
      draw: _("{name} draws or takes"), play: _("{name} plays") }[d.phase];
    return theirs ? format(theirs, { name }) : `${name} ${d.phase}`;
  }
  // ------------------------------------------------------------------ the status line
  botToAct() {
    // whether a bot plays the next move: a bot's seat, or a person away the expert plays for
    const t = this.table, d = t.deal;
    if (!d || d.over || !d.to_act || t.status !== "playing") return false;
    const s = t.seats[d.to_act - 1];
    return !!s && (s.kind !== "human" || (!s.connected && t.timer !== null && t.timer !== undefined && this.awayLeft(d.to_act) <= 0));
  }
  awayLeft(seat) {
    const t = this.table;
    if (t.timer === null || t.timer === undefined || !(seat in this.awaySince)) return null;
    return Math.max(0, Math.round(t.timer - (Date.now() - this.awaySince[seat]) / 1000));
  }
  status() {
    // one line at the top: whose turn and what to do, the away rule's countdown, hurry, the hint
    const t = this.table, d = t.deal;
    const box = el("div", { id: "turn", class: `status${this.mine() ? " yours" : ""}` });
    box.append(el("span", { class: "turn-words", "aria-live": "polite" }, this.turnWords(d)));
    box.append(el("span", { id: "countdown", class: "countdown" }));
    const player = this.you !== null || this.host;
    if (player && this.botToAct()) {
      box.append(el("button", { type: "button", id: "hurry", class: "secondary small", "data-key": "hurry", onclick: () => this.send({ type: "hurry" }) }, _("Hurry")));
    }
    if (this.mine() && d.phase !== "exchange" && t.rated) {
      // the fair-play rules (docs/play.md, "Fair play"): the server refuses a hint at a rated table
      box.append(el("span", { id: "no-hint", class: "note small" }, _("No hints at rated tables: fair-play rules")));
    } else if (this.mine() && d.phase !== "exchange") {
      box.append(el("button", { type: "button", id: "hint-button", class: "secondary small", "data-key": "hint", disabled: this.hintAsked,
        onclick: () => { this.hintAsked = true; this.send({ type: "hint" }); this.render(); } }, this.hintAsked ? _("Thinking…") : _("Hint")));
    }
    if (t.aborted) box.append(el("p", { id: "aborted", class: "note", role: "status" }, _("This match is aborted: a player did not make a first move in time. It will not be rated.")));
    box.append(soundOffer(this));
    return box;
  }
  tick() {
    // the countdown of the away rule: a person to act who has left, a bot plays for him when it ends
    const box = main.querySelector("#countdown");
    if (!box || !this.table?.deal) return;
    const d = this.table.deal, s = this.table.seats[(d.to_act || 0) - 1];
    const left = s && s.kind === "human" && !s.connected && !d.over ? this.awayLeft(d.to_act) : null;
    // the turn timer: when the server says the time of the person to act runs out
    const ends = this.table.turn_ends;
    const turn = ends !== null && ends !== undefined && !d.over ? Math.max(0, Math.round(ends - Date.now() / 1000)) : null;
    if (turn !== null && (left === null || turn < left)) {
      box.textContent = d.to_act === this.you ? format(_("you have {seconds} s to move, then the expert moves for you"), { seconds: turn })
        : format(_("{name} has {seconds} s to move"), { name: this.name(d.to_act), seconds: turn });
      box.classList.toggle("urgent", turn <= 10);
      return;
    }
    box.textContent = left === null ? "" : format(_("{name} is away: a bot plays in {seconds} s"), { name: this.name(d.to_act), seconds: left });
  }
  // ------------------------------------------------------------------ the table
  newest() {
    // the deal's newest move (the seat's last move with the highest event)
    const moves = (this.table.last_moves || []).filter(m => m.kind && m.event !== null);
    return moves.reduce((a, b) => (a && a.event > b.event ? a : b), null);
  }
  seatChip(d, s, i) {
    const t = this.table;
    const last = (t.last_moves || []).find(m => m.seat === s);
    const newest = this.newest();
    const total = t.scores?.totals ? t.scores.totals[s - 1] : 0;
    const cls = `seat${d.to_act === s && !d.over ? " to-act" : ""}${newest && last && newest.seat === s && newest.event === last.event ? " newest" : ""}`;
    return el("div", { class: cls, "data-seat": s },
      el("div", { class: "who" }, el("strong", {}, this.name(s)), this.youMark(s),
        t.seats[s - 1].connected ? "" : el("span", { class: "away" }, ` ${_("away")}`),
        d.family === "mexicano" ? this.seatMark(d, s) : ""),
      el("div", { class: "meta" }, heldCards(d.hand_counts[i]),
        el("span", { class: "score", title: format(_("score {points}"), { points: total > 0 ? `+${total}` : total }) },
          format(_("{points} pts"), { points: total > 0 ? `+${total}` : total }))),
      last?.kind ? el("div", { class: "last", title: suited(last, "words") || "" }, lastKindWords(last.kind, d.family), " ", miniCards(last.cards)) : "");
  }
  marked(code, where) {
    // whether a card drawn at `where` is the one the newest move put there
    const n = this.newest();
    if (!n?.cards.length) return false;
    const base = c => (c.startsWith("X") ? "X" : c);
    if (where === "play") return ["turn", "pass", "discard", "force"].includes(n.kind) && n.cards.includes(code);
    if (where === "stock") return n.kind === "discard" && n.cards.includes(code);
    return ["use", "meld", "add", "shift", "force"].includes(n.kind) && n.cards.map(base).includes(base(code));
  }
  meld(cards, opts) {
    // a combination: a button where the player may tap it (to add to it, to force on its owner), else a picture
    const n = this.newest();
    // Cooncan's cards may be added to anyone's combination (R4.4); conquian's are laid on one's own side (R3.4)
    const moved = n && ["use", "meld", "add", "shift"].includes(n.kind) && (opts.combo !== undefined || opts.seat === n.seat);
    const pics = cards.map(c => {
      const e = cardEl(c, { small: true });
      e.dataset.card = c;
      if (moved && this.marked(c, "meld")) e.classList.add("last-card");
      return e;
    });
    const attrs = { class: `meld${opts.target && JSON.stringify(this.target) === JSON.stringify(opts.target) ? " targeted" : ""}` };
    if (opts.combo) attrs["data-combo"] = opts.combo;
    const inner = [opts.num ? el("span", { class: "num" }, `${opts.num}.`) : "", ...pics, opts.owner ? el("span", { class: "owner" }, opts.owner) : ""];
    if (opts.target && this.mine()) {
      return el("button", { type: "button", ...attrs, class: `${attrs.class} tappable`, "data-drop": JSON.stringify(opts.target),
        "data-key": `target-${JSON.stringify(opts.target)}`, "aria-label": opts.label, "aria-pressed": attrs.class.includes("targeted") ? "true" : "false",
        onclick: () => this.tap(opts.target) }, inner);
    }
    return el("span", attrs, inner);
  }
  board() {
    // the felt: the adversaries across the top, the card in play, the pack and the stock in the
    // centre, the combinations, the player's own seat at the bottom (above the moves and the hand)
    const t = this.table, d = t.deal;
    const newest = this.newest();
    const box = el("div", { class: "felt", id: "board", "data-state": t.state, "data-to-act": d.to_act || "", "data-over": d.over ? "1" : "",
      "data-mine": this.mine() ? "1" : "", "data-last-event": t.last_event === null ? "" : t.last_event, "data-seats": d.seats.length });
    const others = d.seats.map((s, i) => [s, i]).filter(([s]) => s !== this.you);
    const own = d.seats.indexOf(this.you);
    box.append(el("div", { class: "felt-head" },
      el("div", { class: "dim deal-info" }, format(_("Deal {number} of {total} - {name} dealt"), { number: d.number, total: t.deals_in_match, name: this.name(d.dealer) }),
        d.sitting_out ? ` - ${format(_("{name} sits out"), { name: this.name(d.sitting_out) })}` : "",
        d.goal ? ` - ${format(_("{n} down to win"), { n: d.goal })}` : "",
        t.spectators ? el("span", { id: "spectators" }, ` - ${format(ngettext("{n} watching", "{n} watching", t.spectators), { n: t.spectators })}`) : ""),
      setDealNotice(t)));
    box.append(el("div", { class: "seats", "data-count": others.length }, others.map(([s, i]) => this.seatChip(d, s, i))));
    // the centre scrolls when a long deal fills it: a region the keyboard reaches too
    const centre = el("div", { class: "centre-area", role: "region", tabindex: 0, "aria-label": _("the table's centre") });
    const mine = this.mine();
    const sideOf = side => {
      const target = { kind: "side", seat: side.seat };
      // the card in play laid with one's own, or forced on another (R3.4, R3.6); a discard forced (R3.5)
      const tappable = mine && (d.card_in_play || d.phase === "discard");
      const who = side.seat === this.you ? _("your combinations") : format(_("{name}'s combinations"), { name: this.name(side.seat) });
      const melds = side.melds.map(m => this.meld(m, { seat: side.seat, target: tappable && side.melds.length ? target : null,
        label: format(_("{who}: {cards}"), { who, cards: m.map(cardWords).join(" ") }) }));
      return el("div", { class: `side${side.seat === this.you ? " own" : ""}`, "data-side": side.seat }, el("strong", { class: "side-name" }, side.seat === this.you ? _("You") : this.name(side.seat)),
        melds.length ? melds : el("span", { class: "dim" }, _("nothing down")),
        side.down ? el("span", { class: "dim" }, ` ${format(ngettext("{n} down", "{n} down", side.down), { n: side.down })}`) : "");
    };
    let ownSide = null;
    if (d.family === "conquian" || d.family === "mexicano") {
      // a card of the hand dragged here in the discard is the discard (R3.5)
      centre.append(el("div", { class: "row center piles", id: "in-play", "data-drop": mine && d.phase === "discard" ? JSON.stringify({ kind: "play" }) : null },
        el("span", { class: "pile-spot" }, this.playCard(d), el("span", { class: "pile-label" }, _("In play"))),
        el("span", { class: "pile-spot" }, el("span", { id: "pack", class: "pack" }, d.pack ? backCard() : ""),
          el("span", { class: "pile-label" }, format(_("pack {n}"), { n: d.pack })))));
      if (d.buried) centre.append(el("div", { class: "dim buried" }, ngettext("Buried:", "Buried:", d.buried.length), " ", d.buried.map(c => cardEl(c, { small: true }))));
      const sides = el("div", { class: "combos-area" });
      for (const side of d.sides) { if (side.seat === this.you) ownSide = sideOf(side); else sides.append(sideOf(side)); }
      centre.append(sides);
    } else {
      const count = { count: d.stock_count, pack: d.pack, turns: d.pack_turns };
      centre.append(el("div", { class: "row center piles", id: "stock" },
        el("span", { class: "pile-spot" }, this.packPile(d), el("span", { class: "pile-label" }, d.pack_turns ? format(_("pack {pack}, turned {turns}×"), count) : format(_("pack {n}"), { n: d.pack }))),
        el("span", { class: "pile-spot" }, this.stockCards(d), el("span", { class: "pile-label" }, format(_("discard pile ({count})"), count)))));
      centre.append(el("div", { class: "combos-area", id: "combos" }, d.combos.length ? d.combos.map(c => this.meld(c.cards, { combo: c.number, num: c.number, owner: this.name(c.owner), seat: c.owner,
        target: mine && d.phase === "play" ? { kind: "combo", number: c.number } : null,
        label: format(_("combination {n} of {name}: {cards}"), { n: c.number, name: this.name(c.owner), cards: c.cards.map(x => tokenWords(x)).join(" ") }) }))
        : el("span", { class: "dim" }, _("No combinations on the table yet."))));
    }
    if (newest) {
      centre.append(el("div", { id: "last-move", class: "last-move", "data-seat": newest.seat, "data-kind": newest.kind, "data-event": newest.event },
        el("span", { class: "label" }, _("Last move:")), " ", miniCards(newest.cards, 6), " ", el("span", {}, suited(newest, "words") || "")));
    }
    if (d.family === "mexicano" && d.exchange.gave && d.exchange.got) {
      centre.append(el("div", { id: "exchange-result" }, format(_("You gave {gave} to {to} and got {got} from {from}"),
        { gave: theCard(d.exchange.gave), to: this.name(d.exchange.to), got: theCard(d.exchange.got), from: this.name(d.exchange.from) })));
    }
    if (d.family === "mexicano" && d.over && t.scores.deals.length) {
      // R8.7: every other player pays the winner one counter; a draw scores nothing
      const last = t.scores.deals[t.scores.deals.length - 1];
      const scores = last.map((v, i) => `${this.name(i + 1)} ${v > 0 ? "+" : ""}${v}`).join(", ");
      centre.append(el("div", { id: "deal-end" }, d.winner ? format(_("Scores: {scores} (every other player pays the winner one counter, R8.7)"), { scores }) : _("Nobody scores (R8.7).")));
    }
    if (d.hands) {
      centre.append(el("h2", {}, _("Every hand")), el("div", { id: "hands" }, Object.entries(d.hands).map(([s, cards]) => el("div", { class: "row" }, el("strong", {}, `${this.name(Number(s))}: `), cards.length ? cards.map(c => cardEl(c, { small: true })) : el("span", { class: "dim" }, _("no cards"))))));
    }
    box.append(centre);
    if (own >= 0 || ownSide) box.append(el("div", { class: "own-row", role: "region", tabindex: 0, "aria-label": _("your place") }, own >= 0 ? this.seatChip(d, this.you, own) : "", ownSide || ""));
    box.append(sheetButtons(this));
    return box;
  }
  playCard(d) {
    // the card in play: tapped, it shows every move with it (lay it, pass it, force it)
    if (!d.card_in_play) return el("span", { class: "dim", id: "play-card" }, _("nothing"));
    const card = cardEl(d.card_in_play);
    card.dataset.card = d.card_in_play;
    if (this.marked(d.card_in_play, "play")) card.classList.add("last-card");
    if (!this.mine()) { card.id = "play-card"; return card; }
    const target = { kind: "play" };
    const on = this.target && this.target.kind === "play";
    return el("button", { type: "button", id: "play-card", class: `tappable pile-button${on ? " targeted" : ""}`, "data-drop": JSON.stringify(target), "data-key": "target-play",
      "aria-pressed": on ? "true" : "false", "aria-label": format(_("the card in play, {card}: its moves"), { card: cardName(d.card_in_play, spanishSuits()) }),
      onclick: () => this.tap(target) }, card);
  }
  stockCards(d) {
    // Cooncan's stock: its top card may be taken (R4.2), and a discard goes onto it
    if (!d.stock.length) return el("span", { class: "dim", id: "stock-card" }, _("empty"));
    const cards = d.stock.map((c, k) => {
      const e = cardEl(c, { small: k < d.stock.length - 1 });
      e.dataset.card = c;
      if (k === d.stock.length - 1) { e.id = "stock-card"; if (this.marked(c, "stock")) e.classList.add("last-card"); }
      return e;
    });
    if (!this.mine()) return el("span", { class: "stock-cards" }, cards);
    const target = { kind: "stock" };
    const on = this.target && this.target.kind === "stock";
    return el("button", { type: "button", id: "stock-button", class: `tappable pile-button stock-cards${on ? " targeted" : ""}`, "data-drop": JSON.stringify(target), "data-key": "target-stock",
      "aria-pressed": on ? "true" : "false", "aria-label": _("the discard pile: take its card, or discard onto it"), onclick: () => this.tap(target) }, cards);
  }
  packPile(d) {
    const pile = el("span", { class: "pack-pile" }, d.pack ? backCard() : "");
    if (!(this.mine() && d.phase === "draw")) { pile.id = "pack"; return pile; }
    const target = { kind: "pack" };
    return el("button", { type: "button", id: "pack", class: "tappable pile-button", "data-key": "target-pack", "aria-label": _("the pack: draw its top card"), onclick: () => this.tap(target) }, pile);
  }
  seatMark(d, s) {
    // the exchange and the say going round, seat by seat (R8.2, R8.3)
    let mark = "";
    if (d.phase === "exchange") mark = d.exchange.given.includes(s) ? _("gave a card") : (d.to_act === s ? _("choosing a card") : "");
    else if (d.phase === "say") mark = d.to_act === s ? _("has the say") : (d.passed.includes(s) ? _("passed") : "");
    else if (d.to_act === s) mark = d.phase === "forced" ? _("forced") : _("discards");
    return mark ? el("span", { class: "mark" }, ` - ${mark}`) : "";
  }
  exchangePanel(box) {
    // R8.2: choose a card of the hand, then give it; nobody sees another's card before all have given
    const t = this.table, d = t.deal;
    const mine = d.to_act === this.you;
    const hand = el("div", { class: "hand", id: "hand", role: "group", "aria-label": _("your hand") });
    d.hand.forEach((c, i) => {
      const b = cardEl(c, { button: true });
      b.dataset.key = `card-${i}-${c}`; b.dataset.card = c;
      const on = this.selected.includes(i);
      if (on) b.classList.add("selected");
      b.setAttribute("aria-pressed", on ? "true" : "false");
      if (mine) b.addEventListener("click", () => this.toggle(i)); else b.disabled = true;
      hand.append(b);
    });
    const to = this.name(d.exchange.to);
    const bar = el("div", { class: "moves-bar", id: "moves-bar", role: "region", tabindex: 0, "aria-label": _("your moves") }, el("h2", { id: "exchange-prompt" }, mine ? format(_("Choose a card to give to {name}"), { name: to })
      : (d.exchange.gave ? _("Waiting for the others to give...") : format(_("Wait: you give a card to {name} in turn"), { name: to }))));
    box.append(bar, el("div", { class: "hand-box" }, hand));
    if (d.exchange.gave) bar.append(el("p", { id: "exchange-gave" }, format(_("You give {card} to {name}."), { card: theCard(d.exchange.gave), name: to })));
    const pick = mine && this.selected.length ? d.hand[this.selected[0]] : null;
    // the exchange's moves are the gives, one a card (R8.2)
    const give = pick ? t.moves.find(m => m.cards.length === 1 && m.cards[0] === pick) : null;
    if (give) {
      bar.append(el("div", { class: "actions row", id: "actions" }, el("button", { type: "button", id: "give", class: "move", "data-key": "give", "data-action": give.act, onclick: () => this.act(give.act) },
        suited(give, "words"))));
    }
    return box;
  }
  prompt(d, moves) {
    // what to do now, in words, under the hand
    if (this.selected.length) {
      if (moves === null) return _("Looking for the moves of these cards…");
      if (!moves.length) return this.target ? _("None of these cards' moves goes there.") : _("No legal move uses exactly these cards.");
      if (!this.selectionMoves()) return _("No legal move uses exactly these cards; you may still choose:");
      return moves.length === 1 ? _("Tap the move to play it.") : _("Choose a move:");
    }
    if (this.target && moves.length) return _("Choose a move:");
    const card = d.card_in_play ? theCard(d.card_in_play) : "";
    if (d.family === "cooncan") {
      if (d.phase === "draw") return _("Draw from the pack or take the card on the discard pile.");
      return _("Tap cards of your hand to lay them or add them to a combination; end with a card to discard.");
    }
    if (d.phase === "say") return format(_("Tap cards of your hand to lay them with {card}, or tap {card} to see every move with it."), { card });
    if (d.phase === "forced") return format(_("Tap {card}, or cards of your hand to lay it with them."), { card });
    if (d.phase === "discard") return _("Tap the card to discard.");
    return "";
  }
  handPanel() {
    const t = this.table, d = t.deal;
    const box = el("div", { class: "hand-panel", id: "hand-panel", "data-turn": this.mine() ? "mine" : "wait" });
    if (this.you === null) { box.append(el("p", { class: "dim" }, _("You are watching."))); return box; }
    if (d.over) {
      if (t.status === "playing") box.append(el("button", { type: "button", id: "next-deal", "data-key": "next", onclick: () => this.send({ type: "next", state: t.state }) }, _("Next deal")));
      else box.append(summaryPanel(this));
      return box;
    }
    if (!d.hand) { box.append(el("p", { class: "dim" }, _("You sit out this deal (R6.3)."))); return box; }
    if (d.family === "mexicano" && d.phase === "exchange") return this.exchangePanel(box);
    const mine = this.mine();
    const hand = el("div", { class: "hand", id: "hand", role: "group", "aria-label": _("your hand") });
    const newest = this.newest();
    d.hand.forEach((c, i) => {
      const b = cardEl(c, { button: true });
      const key = `card-${i}-${c}`;
      b.dataset.key = key; b.dataset.card = c; b.dataset.index = i;
      if (this.selected.includes(i)) { b.classList.add("selected"); b.setAttribute("aria-pressed", "true"); } else b.setAttribute("aria-pressed", "false");
      if (d.taken === c) b.classList.add("taken");
      if (newest && newest.seat === this.you && newest.kind === "take" && newest.cards.includes(c)) b.classList.add("last-card");
      b.addEventListener("click", () => this.toggle(i));
      hand.append(b);
    });
    if (mine) dragCards(hand, (i, target) => this.drop(i, target));
    // the moves in words in a bar just above the hand, the hand fanned along the bottom (fanHand)
    const bar = el("div", { class: "moves-bar", id: "moves-bar", role: "region", tabindex: 0, "aria-label": _("your moves") });
    const handBox = el("div", { class: "hand-box" }, el("h2", { class: "visually-hidden" }, _("Your hand")), hand);
    box.append(bar, handBox);
    if (!mine) {
      bar.append(el("p", { class: "dim prompt", id: "prompt" }, this.selected.length ? _("Wait for your turn: the cards you chose stay chosen.") : _("Wait for your turn.")));
      if (this.selected.length) bar.append(el("button", { type: "button", class: "secondary", "data-key": "clear", onclick: () => this.clear() }, _("clear selection")));
      return box;
    }
    const moves = this.offered();
    bar.append(el("p", { id: "prompt", class: "prompt", "data-waiting": moves === null ? "1" : "" }, this.prompt(d, moves)));
    const list = el("div", { class: "actions row", id: "actions" }, (moves || []).map(m => el("button", { type: "button", class: "move", "data-key": `act-${m.act}`, "data-action": m.act, onclick: () => this.pick(m.act) }, suited(m, "words"))));
    if (this.selected.length || this.target) list.append(el("button", { type: "button", class: "secondary", "data-key": "clear", onclick: () => this.clear() }, _("clear selection")));
    bar.append(list);
    if (this.hint && this.hint.state === t.state) bar.append(hintBox(this));
    bar.append(el("div", { class: "more-moves row" }, allMovesPanel(this), typeMovePanel(this)));
    return box;
  }
}

