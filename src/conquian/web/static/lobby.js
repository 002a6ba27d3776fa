// The lobby: a new table's form, the open tables, the finished matches.
// Protocol: docs/protocol.md (version 1). Classic scripts sharing one global scope, no build step;
// each page's order is set in one place (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
"use strict";

// ----------------------------------------------------------------------------- lobby
let presets = null;

async function lobby() {
  setTitle("");
  if (!presets) {
    // no connection (the app opened from its icon on a bus): what this browser keeps, at once
    if (navigator.onLine === false) { offlineLobby(); return; }
    try { presets = await api("/api/presets"); } catch (e) {
      if (e instanceof TypeError) { offlineLobby(); return; }  // the network failed, not the server
      throw e;
    }
  }
  const form = el("form", { class: "panel", id: "create" });
  const variant = el("select", { id: "variant", name: "variant" }, presets.variants.map(v => el("option", { value: v.name }, gameName(v.name))));
  const players = el("select", { id: "players", name: "players" });
  const optionsBox = el("div", { id: "options" });
  const about = el("p", { class: "dim", id: "variant-about" });
  const seatsBox = el("div", { id: "seat-kinds" });
  const name = el("input", { type: "text", id: "host-name", maxlength: 40, required: true, placeholder: _("your name"), value: myName(), autocomplete: "nickname" });
  name.addEventListener("change", () => rememberName(name.value));
  const tableName = el("input", { type: "text", id: "table-name", maxlength: 60, placeholder: _("Friday night") });
  const showBuried = el("input", { type: "checkbox", id: "show-buried" });
  const isPublic = el("input", { type: "checkbox", id: "public" });
  // rated: only signed-in players with a name sit there (the host from his account), and the match is public once over
  const rated = el("select", { id: "rated", name: "rated" }, el("option", { value: "" }, _("casual (not rated)")),
    el("option", { value: "1" }, _("rated (signed-in players with a name)")));
  rated.addEventListener("change", () => { isPublic.disabled = Boolean(rated.value); if (rated.value) isPublic.checked = true; });
  const away = el("select", { id: "away" }, el("option", { value: "" }, _("never")),
    AWAY_CHOICES.map(s => el("option", { value: s }, format(_("after {seconds} s away"), { seconds: s }))));

  const turnTimer = turnTimerSelect("turn-timer-new", null, null);

  function preset() { return presets.variants.find(v => v.name === variant.value); }
  function refreshPlayers() {
    const p = preset();
    players.replaceChildren(...Array.from({ length: p.max_players - p.min_players + 1 }, (_, i) => p.min_players + i)
      .map(n => el("option", { value: n, selected: n === p.players }, n)));
    refreshOptions(); refreshSeats();
  }
  function hand() { const h = optionsBox.querySelector("[data-opt=hand]"); return h ? Number(h.value) : null; }
  function refreshAbout() {
    const p = preset(), n = Number(players.value);
    if (p.family === "mexicano") {
      // R8.1: four play only with eight cards each
      const h = hand();
      for (const o of players.options) o.disabled = h === 9 && Number(o.value) > 3;
      if (h === 9 && n > 3) { players.value = "3"; refreshSeats(); }
    }
    about.textContent = variantAbout(p, Number(players.value), hand());
  }
  function refreshOptions() {
    const p = preset();
    const o = p.options;
    const rows = [];
    if (p.family === "mexicano") {
      const h = el("select", { "data-opt": "hand", "data-int": 1 }, [8, 9].map(v => el("option", { value: v, selected: v === o.hand }, format(_("{cards} cards, {down} down to win"), { cards: v, down: v + 1 }))));
      h.addEventListener("change", refreshAbout);
      rows.push(el("label", {}, _("Hand"), " ", h));
      rows.push(el("label", {}, el("input", { type: "checkbox", "data-opt": "exchange", "data-bool": 1, "data-checked": 1, checked: o.exchange }), " ", _("the exchange: each player gives a card to the next before play (R8.2)")));
      rows.push(el("label", {}, _("When the pack runs out"), " ", el("select", { "data-opt": "exhausted" },
        [["tablas", _("tablas: a draw")], ["fewest", _("the fewest cards in hand win")]].map(([v, t]) => el("option", { value: v, selected: v === o.exhausted }, t)))));
    } else if (p.family === "conquian") {
      const scoring = { games: _("games"), pips: _("pips") };
      rows.push(el("label", {}, _("Scoring"), " ", el("select", { "data-opt": "scoring" }, ["games", "pips"].map(v => el("option", { value: v, selected: v === o.scoring }, scoring[v])))));
      rows.push(el("label", {}, _("Deals in the match"), " ", el("select", { id: "deals" }, [1, 2, 4, 6, 8, 10, 12].map(v => el("option", { value: v, selected: v === 6 }, v)))));
    } else {
      if (p.name === "cooncan") {
        const stock = { closed: _("closed"), open: _("open") };
        rows.push(el("label", {}, _("Discard pile"), " ", el("select", { "data-opt": "stock" }, ["closed", "open"].map(v => el("option", { value: v, selected: v === o.stock }, stock[v])))));
        rows.push(el("label", {}, _("Jokers"), " ", el("select", { "data-opt": "jokers", "data-int": 1 }, [0, 1].map(v => el("option", { value: v, selected: v === o.jokers }, v)))));
      }
      rows.push(el("label", {}, _("Turns of the pack before a deal is void"), " ", el("select", { "data-opt": "max_pack_turns", "data-int": 1 }, [0, 1, 2, 3, 5, 10].map(v => el("option", { value: v, selected: v === o.max_pack_turns }, v)))));
      rows.push(el("label", {}, _("Splash bonus"), " ", el("select", { "data-opt": "splash_bonus", "data-int": 1 }, [0, 25, 50].map(v => el("option", { value: v, selected: v === o.splash_bonus }, v)))));
      rows.push(el("label", {}, el("input", { type: "checkbox", "data-opt": "discard_taken", "data-bool": 1, checked: !o.discard_taken }), " ", _("the card taken from the discard pile may not be discarded in the same turn")));
    }
    optionsBox.replaceChildren(...rows);
    refreshAbout();
  }
  function refreshSeats() {
    const n = Number(players.value);
    const rows = [el("div", { class: "dim" }, _("Seat 1: you"))];
    for (let i = 2; i <= n; i++) {
      rows.push(el("label", {}, format(_("Seat {n}"), { n: i }), " ", el("select", { "data-seat": i, "aria-label": format(_("seat {n}"), { n: i }) },
        el("option", { value: "open" }, _("a friend (invite)")),
        botOptions(presets, variant.value, presets.default_bot || "expert"))));
    }
    seatsBox.replaceChildren(...rows);
  }
  variant.addEventListener("change", refreshPlayers);
  players.addEventListener("change", () => { refreshSeats(); refreshAbout(); });
  form.append(el("h2", {}, _("New table")),
    el("label", {}, _("Your name"), " ", name),
    el("label", {}, _("Match"), " ", rated),
    el("label", {}, _("Table name"), " ", tableName),
    el("div", { class: "row" }, el("label", {}, _("Game"), " ", variant), el("label", {}, _("Players"), " ", players)),
    about, optionsBox, seatsBox,
    el("label", {}, showBuried, " ", _("memory aid: show buried and covered cards to every seat (R3.3)")),
    el("label", {}, _("A bot plays for someone away:"), " ", away),
    el("label", {}, _("Turn timer:"), " ", turnTimer),
    el("label", {}, isPublic, " ", _("public: once over, the match is listed here and anyone may replay it (else only its players)")),
    el("button", { type: "submit", id: "create-table" }, _("Create the table")));
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    const options = {};
    for (const s of optionsBox.querySelectorAll("[data-opt]")) {
      if (s.dataset.bool) options[s.dataset.opt] = s.dataset.checked ? s.checked : !s.checked;
      else options[s.dataset.opt] = s.dataset.int ? Number(s.value) : s.value;
    }
    const seats = [{ kind: "open" }];
    for (const s of seatsBox.querySelectorAll("[data-seat]")) seats.push({ kind: s.value });
    try {
      rememberName(name.value);
      if (rated.value) {
        // the host sits from his account once the table is made: he needs a name first
        const me = Object.keys(csrfHeaders()).length ? await api("/api/account") : { name: null };  // reading makes no account
        if (!me.name) { showError(_("A rated table is for signed-in players with a name: choose yours on your account's page.")); return; }
      }
      const r = await api("/api/tables", {
        variant: variant.value, players: Number(players.value), options, seats, host_name: rated.value ? null : name.value.trim(),
        name: tableName.value.trim(), show_buried: showBuried.checked, public: isPublic.checked, away_after: away.value ? Number(away.value) : null,
        turn_timer: turnTimer.value ? Number(turnTimer.value) : null, rated: Boolean(rated.value),
        deals: optionsBox.querySelector("#deals") ? Number(optionsBox.querySelector("#deals").value) : null,
      });
      store.set("host", r.id, r.host);
      if (r.token) store.set("seat", r.id, r.token);
      if (rated.value) {
        const sat = await api(`/api/tables/${r.id}/sit`, { seat: 1, name: name.value.trim() || "host" });
        store.set("seat", r.id, sat.token);
      }
      history.pushState(null, "", r.url); route();
    } catch (e) { showError(e.message); }
  });
  refreshPlayers();

  const listBox = el("div", { class: "panel", id: "tables" }, el("h2", {}, _("Tables")), el("p", { class: "dim" }, "…"));
  const historyBox = el("div", { id: "history-box" });
  function refreshHistory() { historyBox.replaceChildren(historyPanel(refreshHistory)); }
  refreshHistory();
  // the offline app: the engine in the page, against the bots, with no network (offline/), and
  // how far this browser has kept it
  const offline = el("div", { class: "panel", id: "play-offline" }, el("p", {}, el("a", { href: "/offline/" }, _("Play offline")), " ",
    el("span", { class: "dim" }, _("against the bots, in this browser, with no network (unrated)"))), engineKeptLine());
  const noticeBox = el("div", { id: "friend-notices-box" });  // invitations from friends (friends.js)
  main.replaceChildren(noticeBox, el("div", { class: "grid" }, el("div", {}, quickPanel(), form), el("div", {}, listBox, historyBox, offline)));
  async function refreshList() {
    if (!document.body.contains(listBox)) return;
    try {
      const data = await api("/api/tables");
      const open = (data.open || []).map(tableRow);
      const done = (data.finished || []).map(finishedRow);
      listBox.replaceChildren(el("h2", {}, _("Tables")),
        open.length ? el("ul", { class: "tables", id: "open-tables" }, open) : el("p", { class: "dim" }, _("No table is open: create one.")),
        done.length ? el("div", {}, el("h2", {}, _("Finished matches")), el("ul", { class: "tables", id: "finished" }, done)) : "");
    } catch (e) { /* the server may be restarting */ }
    if (typeof lobbyFriendNotices === "function") lobbyFriendNotices(noticeBox);
    setTimeout(refreshList, 5000);
  }
  refreshList();
  sendHome();  // the offline matches finished in this browser, to the player's history
}

// The lobby with no connection: the matches against the computer kept in this browser and a new
// one (the offline app, /offline/, which the service worker keeps), at once; the parts that need
// the server say so, and the lobby comes back whole when the connection does.
async function offlineLobby() {
  connBox.textContent = _("offline");
  const needs = (id, title) => el("div", { class: "panel needs-connection", id },
    el("h2", {}, title), el("p", { class: "dim" }, _("This needs a connection.")));
  const box = el("div", { class: "panel", id: "offline-home" },
    el("h2", {}, _("No connection")),
    el("p", {}, el("a", { href: "/offline/", id: "play-computer", class: "button-link" }, _("Play against the computer"))),
    el("p", { class: "dim" }, _("In this browser, against the bots: unrated.")),
    engineKeptLine(),
    el("p", {}, el("button", { type: "button", class: "secondary", id: "offline-retry", onclick: () => route() }, _("Try again"))));
  main.replaceChildren(el("div", { class: "grid", id: "lobby-offline" },
    el("div", {}, box, needs("quick-offline", _("Play now")), needs("create-offline", _("New table"))),
    el("div", {}, needs("tables-offline", _("Tables")))));
  const saved = (await keptMatches()).sort((a, b) => b.updated - a.updated);
  const list = el("div", { id: "offline-kept" }, el("h3", {}, _("Your offline matches")),
    saved.length ? el("ul", { class: "tables" }, saved.map(m => el("li", { class: "table-row", "data-match": m.id },
      el("strong", {}, gameName(m.variant)), " ",
      el("span", { class: "dim" }, m.status === "over" ? _("over") : _("in play")), " ",
      el("a", { href: `/offline/#/t/${m.id}`, class: "resume" }, m.status === "over" ? _("Open") : _("Resume")))))
      : el("p", { class: "dim" }, _("None yet.")));
  box.insertBefore(list, box.querySelector("#engine-kept"));
  // the connection back: the whole lobby
  window.addEventListener("online", () => { if (document.body.contains(box)) route(); }, { once: true });
}

// who sits at a table, in the lobby: the names, a bot marked as one
function seatedWords(t) {
  return (t.seated || []).map(s => (s.bot ? format(_("{name} (bot)"), { name: seatName(s.name, String(s.name).split(" ")[0].toLowerCase(), s.seat) }) : s.name)).join(", ");
}

function tableRow(t) {
  const free = Number(t.seats_free) || 0;
  const join = t.status === "waiting" && free > 0;
  const who = seatedWords(t);
  return el("li", { class: "table-row", "data-table": t.id },
    el("div", {}, el("strong", {}, t.name || ""), t.set_deal ? el("span", { class: "set-deal" }, ` (${setDealText()})`) : ""),
    el("div", { class: "dim" }, t.game || t.variant || ""),
    el("div", {}, who ? format(_("Seated: {names}"), { names: who }) : _("Nobody is seated yet.")),
    el("div", { class: "row" },
      el("span", { class: "seats-free" }, free ? format(ngettext("{n} seat free", "{n} seats free", free), { n: free }) : _("every seat is taken")),
      t.spectators ? el("span", { class: "dim" }, format(ngettext("{n} watching", "{n} watching", t.spectators), { n: t.spectators })) : "",
      el("a", { href: `/t/${t.id}`, "data-link": 1, class: join ? "join" : "watch" }, join ? _("join") : _("watch"))));
}

function finishedRow(t) {
  const who = seatedWords(t);
  return el("li", { class: "table-row", "data-table": t.id },
    el("a", { href: `/r/${t.id}`, "data-link": 1 }, t.name || ""), " ", el("span", { class: "dim" }, t.game || t.variant || ""),
    who ? el("div", { class: "dim" }, who) : "", " ",
    el("a", { href: `/r/${t.id}`, "data-link": 1, class: "replay-link", "aria-label": format(_("replay {name}"), { name: t.name || "" }) }, _("replay")));
}

// what each game is, in the lobby
function variantAbout(p, players, hand) {
  if (p.family === "mexicano") {
    const h = hand || p.options.hand;
    const who = { 3: _("3 players: the tercerilla"), 4: _("4 players (8 cards only)") }[players] ||
      format(ngettext("{n} player", "{n} players", players), { n: players });
    return format(_("conquián mexicano: {cards} cards, {down} down to win; {players}. The Spanish pack of 40; each player first gives a card to the next (R8)."),
      { cards: h, down: h + 1, players: who });
  }
  return {
    "conquian": _("conquian as Foster gives it (1897): 10 cards, 11 down to win; 40 cards, A to 10 (R3)."),
    "conquian-spanish": _("conquian with the Spanish pack: 10 cards, 11 down to win; A to 7, sota, caballo, rey (R3)."),
    "cooncan": _("Cooncan for three: 7 cards each, the first out wins (R4)."),
    "cooncan-double": _("Cooncan with the double pack and two jokers: 10 cards each, the first out wins (R4)."),
  }[p.name] || p.name;
}
