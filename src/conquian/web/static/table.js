// A table: the WebSocket session of one seat (or a spectator) and the table drawn from its snapshot.
// Protocol: docs/protocol.md (version 1). Classic scripts, loaded in order by index.html
// (cards.js, page.js, lobby.js, table.js, replay.js, app.js), sharing one global scope; no build step.
"use strict";

// ----------------------------------------------------------------------------- table
let game = null;
// shown wherever a table whose cards the host chose appears (docs/protocol.md)
function setDealText() { return _("set deal: the host knows every card"); }
function setDealNotice(t) { return t.set_deal ? el("p", { class: "set-deal", role: "note" }, setDealText()) : ""; }

class Game {
  constructor(id) {
    this.id = id; this.table = null; this.you = null; this.host = false; this.selected = [];
    this.options = null; this.ws = null; this.closed = false; this.retry = 500;
    const frag = new URLSearchParams(location.hash.slice(1));
    if (frag.get("seat")) { store.set("seat", id, frag.get("seat")); history.replaceState(null, "", location.pathname); }
    this.connect();
  }
  token() { return store.get("seat", this.id); }
  connect() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${this.id}`);
    this.ws = ws;
    connBox.textContent = _("connecting…");
    ws.onopen = () => { this.retry = 500; connBox.textContent = _("connected"); ws.send(JSON.stringify({ type: "hello", v: 1, token: this.token(), host: store.get("host", this.id), lang: LANG })); };
    ws.onmessage = ev => this.receive(JSON.parse(ev.data));
    ws.onclose = ev => {
      if (this.closed) return;
      if (ev.code === 4404) { connBox.textContent = ""; main.replaceChildren(el("p", {}, _("There is no such table."), " ", el("a", { href: "/", "data-link": 1 }, _("Back to the lobby")))); return; }
      connBox.textContent = _("reconnecting…");
      setTimeout(() => { if (!this.closed) this.connect(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }
  close() { this.closed = true; if (this.ws) this.ws.close(); }
  send(msg) { if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg)); else showError(_("not connected: retrying")); }
  receive(m) {
    if (m.type === "welcome") { this.you = m.seat; this.host = m.host; }
    else if (m.type === "table") {
      const before = this.table ? this.table.state : -1;
      this.table = m.table;
      if (m.table.rematch) {
        const t = this.token(); if (t) store.set("seat", m.table.rematch, t);
        const h = store.get("host", this.id); if (h) store.set("host", m.table.rematch, h);
      }
      if (m.table.state !== before) { this.selected = []; this.options = null; }
      this.render();
    } else if (m.type === "presence") {
      // who is connected, gathered over a second: the seats' flags and how many watch
      if (!this.table) return;
      m.connected.forEach((c, i) => { if (this.table.seats[i]) this.table.seats[i].connected = c; });
      this.table.spectators = m.spectators;
      this.render();
    } else if (m.type === "chat") chatReceive(this, m);
    else if (m.type === "options") { this.options = m.actions; this.optionWords = m.words || []; this.render(); }
    else if (m.type === "error") {
      showError(m.message, m.rule);
      if (m.code === "bad_token") { /* watching */ }
    }
  }
  name(seat) { const s = this.table.seats[seat - 1]; return s ? (s.name || format(_("Seat {n}"), { n: seat })) : `p${seat}`; }
  act(words) { showError(""); this.send({ type: "act", state: this.table.state, action: words }); }
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
    this.options = null;
    const hand = this.table.deal.hand || [];
    const cards = this.selected.map(k => hand[k]).filter(c => c);
    if (cards.length) this.send({ type: "options", cards });
    this.render();
  }
  render() {
    const t = this.table;
    spanishPack = spanishPackOf(t.variant);
    setTitle(`${t.name} - ${t.variant}`);
    const parts = [];
    if (t.status === "waiting") parts.push(this.waiting());
    else {
      parts.push(el("div", { class: "layout" },
        el("div", {}, this.board(), this.handPanel()),
        el("div", {}, this.scores(), typeof chatPanel === "function" ? chatPanel(this) : "", this.logPanel(), this.links())));
    }
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    main.replaceChildren(...parts);
    if (focus) { const again = main.querySelector(`[data-key="${CSS.escape(focus)}"]`); if (again) again.focus(); }
  }
  waiting() {
    const t = this.table;
    const invite = `${location.origin}/t/${t.id}`;
    const box = el("div", { class: "panel", id: "waiting" }, el("h2", {}, _("Waiting for players")), setDealNotice(t),
      el("p", {}, _("Invite your friends with this link:"), " ", el("span", { class: "link", id: "invite" }, invite), " ",
        el("button", { type: "button", class: "secondary", onclick: () => navigator.clipboard && navigator.clipboard.writeText(invite) }, _("copy"))));
    for (const s of t.seats) {
      const row = el("div", { class: "row seat-row", "data-seat": s.seat }, el("strong", {}, format(_("Seat {n}:"), { n: s.seat }) + " "));
      if (!s.open) row.append(el("span", {}, s.name), s.kind !== "human" ? el("span", { class: "dim" }, " " + format(_("(bot {name})"), { name: s.kind })) : "", s.seat === this.you ? el("span", { class: "dim" }, " " + _("(you)")) : "");
      else if (this.you === null) {
        const nm = el("input", { type: "text", maxlength: 40, placeholder: _("your name"), value: store.get("name", "me") || "", "aria-label": format(_("name for seat {n}"), { n: s.seat }) });
        row.append(nm, el("button", { type: "button", class: "take", onclick: async () => {
          try {
            const r = await api(`/api/tables/${t.id}/sit`, { seat: s.seat, name: nm.value.trim() });
            store.set("seat", t.id, r.token); store.set("name", "me", nm.value.trim());
            this.ws.close();
          } catch (e) { showError(e.message); }
        } }, _("Take this seat")));
      } else row.append(el("span", { class: "dim" }, _("open")));
      if (s.open && this.host) {
        const pick = el("select", { "aria-label": format(_("bot for seat {n}"), { n: s.seat }) }, presets_bots().map(b => el("option", { value: b }, b)));
        row.append(pick, el("button", { type: "button", class: "secondary", onclick: async () => {
          try { await api(`/api/tables/${t.id}/bot`, { seat: s.seat, bot: pick.value, host: store.get("host", t.id) }); } catch (e) { showError(e.message); }
        } }, _("Give to a bot")));
      }
      box.append(row);
    }
    box.append(this.links());
    return box;
  }
  // the words of a move's button: the conquián mexicano's force names its target (R8.4)
  moveLabel(w) {
    const d = this.table.deal;
    if (d.family !== "mexicano") return w;
    const m = w.match(/^force (\S+)(?: p(\d+))?$/);
    if (m) {
      const target = m[2] ? Number(m[2]) : d.seats.find(s => s !== this.you);
      return format(_("Force {card} on {name}"), { card: cardWords(m[1]), name: this.name(target) });
    }
    if (w === "pass") return d.card_in_play ? format(_("Pass {card}"), { card: cardWords(d.card_in_play) }) : _("Pass");
    return w;
  }
  // a move's words: the page's own for the conquián mexicano's say, else the server's (session.move_label)
  words(w, i, list) {
    const own = this.moveLabel(w);
    return own !== w ? own : (list && list[i]) || w;
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
    const card = d.card_in_play ? cardWords(d.card_in_play) : "";
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
    if (d.over) return this.table.scores && this.table.scores.result ? logWords(this.table.scores.result) : _("The deal is over");
    if (d.family === "mexicano") return this.mexicanoWords(d);
    const name = this.name(d.to_act);
    if (d.to_act === this.you) {
      const mine = { say: _("You have the say"), forced: _("You must use the forced card"), discard: _("You must discard"),
        draw: _("You draw or take"), play: _("You play, then discard") }[d.phase];
      return mine || `${_("You")} ${d.phase}`;
    }
    const theirs = { say: _("{name} has the say"), forced: _("{name} must use the forced card"), discard: _("{name} must discard"),
      draw: _("{name} draws or takes"), play: _("{name} plays") }[d.phase];
    return theirs ? format(theirs, { name }) : `${name} ${d.phase}`;
  }
  board() {
    const t = this.table, d = t.deal;
    const box = el("div", { class: "panel", id: "board", "data-state": t.state, "data-to-act": d.to_act || "", "data-over": d.over ? "1" : "" });
    box.append(el("div", { class: "dim" }, format(_("Deal {number} of {total} - {name} dealt"), { number: d.number, total: t.deals_in_match, name: this.name(d.dealer) }),
      d.sitting_out ? " - " + format(_("{name} sits out"), { name: this.name(d.sitting_out) }) : "",
      d.goal ? " - " + format(_("{n} down to win"), { n: d.goal }) : ""));
    box.append(setDealNotice(t));
    if (spanishPack) box.append(suitSwitch(() => this.render()));
    if (t.spectators) box.append(el("div", { class: "dim", id: "spectators" }, format(ngettext("{n} watching", "{n} watching", t.spectators), { n: t.spectators })));
    box.append(el("div", { class: "turn", id: "turn", "aria-live": "polite" }, this.turnWords(d)));
    box.append(el("div", { class: "seats" }, d.seats.map((s, i) => el("div", { class: "seat" + (d.to_act === s ? " to-act" : ""), "data-seat": s },
      el("strong", {}, this.name(s)), s === this.you ? " " + _("(you)") : "", " - " + format(ngettext("{n} in hand", "{n} in hand", d.hand_counts[i]), { n: d.hand_counts[i] }),
      d.family === "mexicano" ? this.seatMark(d, s) : "",
      t.seats[s - 1].connected ? "" : el("span", { class: "away" }, " " + _("away"))))));
    if (d.family === "mexicano" && d.exchange.gave && d.exchange.got) {
      box.append(el("div", { id: "exchange-result" }, format(_("You gave {gave} to {to} and got {got} from {from}"),
        { gave: cardWords(d.exchange.gave), to: this.name(d.exchange.to), got: cardWords(d.exchange.got), from: this.name(d.exchange.from) })));
    }
    if (d.family === "mexicano" && d.over && t.scores.deals.length) {
      // R8.7: every other player pays the winner one counter; a draw scores nothing
      const last = t.scores.deals[t.scores.deals.length - 1];
      const scores = last.map((v, i) => `${this.name(i + 1)} ${v > 0 ? "+" : ""}${v}`).join(", ");
      box.append(el("div", { id: "deal-end" }, d.winner ? format(_("Scores: {scores} (every other player pays the winner one counter, R8.7)"), { scores }) : _("Nobody scores (R8.7).")));
    }
    if (d.family === "conquian" || d.family === "mexicano") {
      for (const side of d.sides) {
        box.append(el("div", { class: "side", "data-side": side.seat }, el("strong", {}, `${this.name(side.seat)}: `),
          side.melds.length ? side.melds.map(m => el("span", { class: "meld" }, m.map(c => cardEl(c, { small: true })))) : el("span", { class: "dim" }, _("nothing down")),
          el("span", { class: "dim" }, " " + format(ngettext("{n} down", "{n} down", side.down), { n: side.down }))));
      }
      box.append(el("div", { class: "row", id: "in-play" }, _("In play:"), " ", d.card_in_play ? cardEl(d.card_in_play) : el("span", { class: "dim" }, _("nothing")), el("span", { class: "dim" }, " " + format(_("pack {n}"), { n: d.pack }))));
      if (d.buried) box.append(el("div", { class: "dim" }, _("Buried:"), " ", d.buried.map(c => cardEl(c, { small: true }))));
    } else {
      box.append(el("div", { id: "combos" }, d.combos.length ? d.combos.map(c => el("span", { class: "meld", "data-combo": c.number },
        el("span", { class: "num" }, `${c.number}.`), c.cards.map(x => cardEl(x, { small: true })), el("span", { class: "owner" }, this.name(c.owner))))
        : el("span", { class: "dim" }, _("No combinations on the table yet."))));
      const count = { count: d.stock_count, pack: d.pack, turns: d.pack_turns };
      box.append(el("div", { class: "row", id: "stock" }, _("Stock:"), " ", d.stock.length ? d.stock.map(c => cardEl(c, { small: true })) : el("span", { class: "dim" }, _("empty")),
        el("span", { class: "dim" }, " " + (d.pack_turns ? format(_("({count}) - pack {pack}, turned {turns}×"), count) : format(_("({count}) - pack {pack}"), count)))));
    }
    if (d.hands) {
      box.append(el("h2", {}, _("Every hand")), el("div", { id: "hands" }, Object.entries(d.hands).map(([s, cards]) => el("div", { class: "row" }, el("strong", {}, `${this.name(Number(s))}: `), cards.length ? cards.map(c => cardEl(c, { small: true })) : el("span", { class: "dim" }, _("no cards"))))));
    }
    return box;
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
    box.append(el("h2", { id: "exchange-prompt" }, mine ? format(_("Choose a card to give to {name}"), { name: to })
      : (d.exchange.gave ? _("Waiting for the others to give...") : format(_("Wait: you give a card to {name} in turn"), { name: to }))), hand);
    if (d.exchange.gave) box.append(el("p", { id: "exchange-gave" }, format(_("You give {card} to {name}."), { card: cardWords(d.exchange.gave), name: to })));
    const pick = mine && this.selected.length ? d.hand[this.selected[0]] : null;
    if (pick && t.legal.includes(`give ${pick}`)) {
      box.append(el("div", { class: "actions row", id: "actions" }, el("button", { type: "button", id: "give", "data-key": "give", "data-action": `give ${pick}`, onclick: () => this.act(`give ${pick}`) },
        format(_("Give {card} to {name}"), { card: cardWords(pick), name: to }))));
    }
    return box;
  }
  handPanel() {
    const t = this.table, d = t.deal;
    const box = el("div", { class: "panel", id: "hand-panel" });
    if (this.you === null) { box.append(el("p", { class: "dim" }, _("You are watching."))); return box; }
    if (d.over) {
      if (t.status === "playing") box.append(el("button", { type: "button", id: "next-deal", "data-key": "next", onclick: () => this.send({ type: "next", state: t.state }) }, _("Next deal")));
      else box.append(this.summary());
      return box;
    }
    if (!d.hand) { box.append(el("p", { class: "dim" }, _("You sit out this deal (R6.3)."))); return box; }
    if (d.family === "mexicano" && d.phase === "exchange") return this.exchangePanel(box);
    const hand = el("div", { class: "hand", id: "hand", role: "group", "aria-label": _("your hand") });
    d.hand.forEach((c, i) => {
      const b = cardEl(c, { button: true });
      const key = `card-${i}-${c}`;
      b.dataset.key = key; b.dataset.card = c;
      if (this.selected.includes(i)) { b.classList.add("selected"); b.setAttribute("aria-pressed", "true"); } else b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", () => this.toggle(i));
      hand.append(b);
    });
    box.append(el("h2", {}, _("Your hand")), hand);
    const mine = d.to_act === this.you;
    let moves = mine ? t.legal : [], labels = t.legal_words;
    if (mine && this.selected.length) { moves = this.options || []; labels = this.optionWords; }
    const list = el("div", { class: "actions row", id: "actions" }, moves.map((w, i) => el("button", { type: "button", "data-key": `act-${w}`, "data-action": w, onclick: () => this.act(w) }, this.words(w, i, labels))));
    box.append(el("h2", {}, mine ? (this.selected.length ? _("Moves with the selected cards") : _("Your moves")) : _("Wait for your turn")), list);
    if (mine && this.selected.length && this.options && !this.options.length) box.append(el("p", { class: "dim" }, _("No legal move uses exactly these cards.")));
    if (mine) {
      const typed = el("input", { type: "text", id: "typed", maxlength: 400, placeholder: _("or type a move: use 7c 8c 9c"), "aria-label": _("type a move") });
      const f = el("form", { class: "row" }, typed, el("button", { type: "submit", class: "secondary" }, _("play")));
      f.addEventListener("submit", ev => { ev.preventDefault(); if (typed.value.trim()) this.act(typed.value.trim()); });
      box.append(f);
      if (this.selected.length) box.append(el("button", { type: "button", class: "secondary", onclick: () => { this.selected = []; this.options = null; this.render(); } }, _("clear selection")));
    }
    return box;
  }
  summary() {
    // the match's end: who won, the standings across rematches, who deals first in the rematch,
    // the rematch and the replay
    const t = this.table, d = t.deal, n = t.seats.length;
    const totals = t.scores.totals;
    const best = Math.max(...totals);
    const winners = t.seats.filter((s, i) => totals[i] === best).map(s => s.name);
    const names = winners.reduce((a, b) => format(_("{first} and {second}"), { first: a, second: b }));
    if (typeof historyRecord === "function") historyRecord(this);
    const box = el("div", { id: "summary" }, el("h2", {}, _("The match is over")),
      el("p", {}, winners.length > 1 ? format(_("{names} share the match."), { names }) : format(_("{name} wins the match."), { name: names })));
    const standings = t.standings || [];
    if (standings.length) {
      box.append(el("p", { id: "standings" }, format(_("Standings over every match at this table: {standings}"),
        { standings: standings.map(s => `${s.name} ${s.total > 0 ? "+" : ""}${s.total}`).join(", ") })));
    }
    if (d && d.dealer && d.number) {
      // this match's first dealer, from the last deal's (the deal passes to the left, one seat a deal)
      const first = (((d.dealer - d.number) % n) + n) % n + 1;
      const rule = { conquian: "R3.8", cooncan: "R4.1", mexicano: "R8.7" }[d.family] || "R3.8";
      box.append(el("p", { id: "next-dealer" }, format(_("In the rematch {name} deals first: the deal passes to the left ({rule})."),
        { name: this.name(first % n + 1), rule })));
    }
    box.append(el("div", { class: "row" },
      t.rematch ? el("a", { href: `/t/${t.rematch}`, "data-link": 1, id: "rematch-link", class: "button-link" }, _("Go to the rematch"))
        : el("button", { type: "button", id: "rematch", onclick: () => this.send({ type: "rematch" }) }, _("Rematch")),
      el("a", { href: `/r/${t.id}`, "data-link": 1, id: "replay-link" }, _("Replay the match"))));
    return box;
  }
  scores() {
    const t = this.table, s = t.scores;
    const signed = v => (v > 0 ? `+${v}` : v);
    const head = el("tr", {}, el("th", {}, _("deal")), t.seats.map(x => el("th", {}, x.name)));
    const rows = s.deals.map((r, i) => el("tr", {}, el("td", {}, i + 1), r.map(v => el("td", {}, signed(v)))));
    const total = el("tr", {}, el("th", {}, _("total")), s.totals.map(v => el("th", {}, signed(v))));
    // the running standings of this table's matches, when a rematch carried earlier totals
    const st = t.standings || [];
    const carried = st.length === s.totals.length && st.some((x, i) => x.total !== s.totals[i]);
    const all = carried ? el("tr", { class: "standings", id: "standings-row" }, el("th", {}, _("all matches")), st.map(x => el("th", {}, signed(x.total)))) : null;
    return el("div", { class: "panel scroll", id: "scores" }, el("h2", {}, _("Scores")), el("table", { class: "scores" }, el("tbody", {}, head, rows, total, all)),
      s.pool_text ? el("p", { class: "dim" }, s.pool_text) : null);
  }
  logPanel() {
    const box = el("div", { class: "log", id: "log", "aria-live": "polite", tabindex: 0, "aria-label": _("Log") }, this.table.log.map(l => el("div", {}, logWords(l))));
    setTimeout(() => { box.scrollTop = box.scrollHeight; }, 0);
    return el("div", { class: "panel" }, el("h2", {}, _("Log")), box);
  }
  links() {
    const t = this.table;
    const token = this.token();
    const box = el("div", { class: "panel", id: "links" });
    if (t.status !== "waiting") box.append(el("p", {}, _("Invitation:"), " ", el("span", { class: "link" }, `${location.origin}/t/${t.id}`)));
    if (token && this.you) box.append(el("p", {}, _("Your seat on another device (keep it secret):"), " ", el("span", { class: "link", id: "personal" }, `${location.origin}/t/${t.id}#seat=${token}`)));
    if (t.deal && t.deal.over) box.append(el("p", {}, el("a", { href: `/api/tables/${t.id}/record`, id: "download" }, _("Download the record"))));
    if (this.host && t.status === "playing") {
      const sel = el("select", { id: "away-after", "aria-label": _("a bot plays for someone away") }, el("option", { value: "" }, _("never")),
        [30, 60, 120, 300].map(s => el("option", { value: s, selected: t.away_after === s }, format(_("after {seconds} s"), { seconds: s }))));
      sel.addEventListener("change", () => this.send({ type: "away", seconds: sel.value ? Number(sel.value) : null }));
      box.append(el("label", {}, _("A bot plays for someone away:"), " ", sel));
    }
    return box;
  }
}

function presets_bots() { return (presets && presets.bots) || ["expert", "foster", "random"]; }
