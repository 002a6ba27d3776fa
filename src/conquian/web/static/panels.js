// The table's panels beside the play (the waiting room, the scores, the log, the hint, every
// move, a typed move, the settings, the links) and the match's summary: each drawn from the
// game (table.js) and its snapshot, nothing known beyond them.
// Protocol: docs/protocol.md (version 1). Classic scripts sharing one global scope: loaded after
// play.js and before table.js (conquian.web.pages.TABLE_SCRIPTS, the offline app's index.html).
"use strict";

function waitingPanel(game) {
  const t = game.table;
  const box = el("div", { class: "panel", id: "waiting" }, el("h2", {}, _("Waiting for players")), setDealNotice(t), invitationPanel(t.id));
  for (const s of t.seats) {
    const row = el("div", { class: "row seat-row", "data-seat": s.seat }, el("strong", {}, `${format(_("Seat {n}:"), { n: s.seat })} `));
    if (!s.open) row.append(el("span", {}, game.name(s.seat)), s.kind !== "human" ? el("span", { class: "dim" }, ` ${format(_("(bot {name})"), { name: botName(s.kind) })}`) : "", game.youMark(s.seat) ? el("span", { class: "dim" }, game.youMark(s.seat)) : "");
    else if (game.you === null) {
      // what is typed stays when the page is drawn again (someone arrives, a presence message)
      const nm = el("input", { type: "text", maxlength: 40, placeholder: _("your name"), value: game.typedName !== undefined ? game.typedName : (store.get("name", "me") || ""),
        "aria-label": format(_("name for seat {n}"), { n: s.seat }), "data-key": `name-${s.seat}` });
      nm.addEventListener("input", () => { game.typedName = nm.value; });
      row.append(nm, el("button", { type: "button", class: "take", onclick: async () => {
        if (!nm.value.trim()) {
          // a name first: said in words, where the name goes
          showError(refusalText({ message: format(_("write your name first (1 to {n} characters)"), { n: 40 }) }));
          nm.setAttribute("aria-invalid", "true"); nm.focus();
          return;
        }
        try {
          const r = await api(`/api/tables/${t.id}/sit`, { seat: s.seat, name: nm.value.trim() });
          store.set("seat", t.id, r.token); store.set("name", "me", nm.value.trim());
          game.transport.reconnect();
        } catch (e) { showError(e.message); }
      } }, _("Take this seat")));
    } else row.append(el("span", { class: "dim" }, _("open")));
    if (s.open && game.host) {
      // the bot chosen stays when the page is drawn again (the presets arrive, someone arrives)
      game.botChoice = game.botChoice || {};
      const pick = el("select", { class: "seat-bot", "aria-label": format(_("bot for seat {n}"), { n: s.seat }) },
        botOptions(presets, t.variant, game.botChoice[s.seat] || (presets?.default_bot)));
      pick.addEventListener("change", () => { game.botChoice[s.seat] = pick.value; });
      row.append(pick, el("button", { type: "button", class: "secondary", onclick: async () => {
        try { await api(`/api/tables/${t.id}/bot`, { seat: s.seat, bot: pick.value, host: store.get("host", t.id) }); } catch (e) { showError(e.message); }
      } }, _("Give to a bot")));
    }
    box.append(row);
  }
  box.append(linksPanel(game));
  return box;
}

function summaryPanel(game) {
  // the match's end: who won, the standings across rematches, who deals first in the rematch,
  // the rematch and the replay
  const t = game.table, d = t.deal, n = t.seats.length;
  const totals = t.scores.totals;
  const best = Math.max(...totals);
  const winners = t.seats.filter((_s, i) => totals[i] === best).map(s => s.name);
  const names = winners.reduce((a, b) => format(_("{first} and {second}"), { first: a, second: b }));
  if (typeof historyRecord === "function") historyRecord(game);
  const box = el("div", { id: "summary" }, el("h2", {}, _("The match is over")),
    el("p", {}, winners.length > 1 ? format(_("{names} share the match."), { names }) : format(_("{name} wins the match."), { name: names })));
  const standings = t.standings || [];
  if (standings.length) {
    box.append(el("p", { id: "standings" }, format(_("Standings over every match at this table: {standings}"),
      { standings: standings.map(s => `${game.name(s.seat)} ${s.total > 0 ? "+" : ""}${s.total}`).join(", ") })));
  }
  if (d?.dealer && d.number) {
    // this match's first dealer, from the last deal's (the deal passes to the left, one seat a deal)
    const first = (((d.dealer - d.number) % n) + n) % n + 1;
    const rule = { conquian: "R3.8", cooncan: "R4.1", mexicano: "R8.7" }[d.family] || "R3.8";
    box.append(el("p", { id: "next-dealer" }, format(_("In the rematch {name} deals first: the deal passes to the left ({rule})."),
      { name: game.name(first % n + 1), rule })));
  }
  box.append(el("div", { class: "row" },
    t.rematch ? el("a", { href: game.transport.tableHref(t.rematch), "data-link": 1, id: "rematch-link", class: "button-link" }, _("Go to the rematch"))
      : el("button", { type: "button", id: "rematch", onclick: () => game.send({ type: "rematch" }) }, _("Rematch")),
    game.transport.replayHref(t.id) ? el("a", { href: game.transport.replayHref(t.id), "data-link": 1, id: "replay-link" }, _("Replay the match")) : ""));
  return box;
}

function scoresPanel(game) {
  const t = game.table, s = t.scores;
  const signed = v => (v > 0 ? `+${v}` : v);
  const head = el("tr", {}, el("th", {}, _("deal")), t.seats.map(x => el("th", {}, game.name(x.seat))));
  const rows = s.deals.map((r, i) => el("tr", {}, el("td", {}, i + 1), r.map(v => el("td", {}, signed(v)))));
  const total = el("tr", {}, el("th", {}, _("total")), s.totals.map(v => el("th", {}, signed(v))));
  // the running standings of this table's matches, when a rematch carried earlier totals
  const st = t.standings || [];
  const carried = st.length === s.totals.length && st.some((x, i) => x.total !== s.totals[i]);
  const all = carried ? el("tr", { class: "standings", id: "standings-row" }, el("th", {}, _("all matches")), st.map(x => el("th", {}, signed(x.total)))) : null;
  return el("div", { class: "panel scroll", id: "scores" }, el("h2", {}, _("Scores")), el("table", { class: "scores" }, el("tbody", {}, head, rows, total, all)),
    s.pool_text ? el("p", { class: "dim" }, s.pool_text) : null);
}

function logPanel(game) {
  const box = el("div", { class: "log", id: "log", "aria-live": "polite", tabindex: 0, "aria-label": _("Log") }, suited(game.table, "log").map(l => el("div", {}, l)));
  setTimeout(() => { box.scrollTop = box.scrollHeight; }, 0);
  return el("div", { class: "panel", id: "log-panel" }, el("h2", {}, _("Log")), box);
}

function hintBox(game) {
  // the terminal game's hint: the move the review would call best, and the live outs with their chance to fill in time
  const h = game.hint;
  return el("div", { id: "hint", class: "hint", role: "status" },
    el("strong", {}, _("Hint:")), " ", el("span", { id: "hint-move" }, hintWords(game.table, h)), " ",
    el("button", { type: "button", id: "hint-play", class: "move", "data-key": "hint-play", "data-action": h.act, onclick: () => game.act(h.act) }, _("Play it")),
    h.outs.length ? el("ul", { class: "outs" }, suited(h, "outs").map(o => el("li", {}, o))) : "");
}

function allMovesPanel(game) {
  // every move in words, for the keyboard and screen readers (the table is the main way to play)
  const t = game.table;
  const box = el("details", { id: "all-moves", class: "more", open: game.opened.moves },
    el("summary", { "data-key": "all-moves" }, format(ngettext("All moves ({n})", "All moves ({n})", t.moves.length), { n: t.moves.length })),
    el("div", { class: "actions row" }, t.moves.map(m => el("button", { type: "button", class: "move secondary", "data-key": `all-${m.act}`, "data-action": m.act, onclick: () => game.act(m.act) }, suited(m, "words")))));
  keepOpen(box, open => { game.opened.moves = open; });
  return box;
}

function typeMovePanel(game) {
  // typing the notation stays, for those who know it (docs/records.md)
  const typed = el("input", { type: "text", id: "typed", maxlength: 400, placeholder: _("or type a move: use 7♣ 8♣ 9♣, discard 5♥"), "aria-label": _("type a move") });
  const f = el("form", { class: "row" }, typed, el("button", { type: "submit", class: "secondary" }, _("play")));
  f.addEventListener("submit", ev => { ev.preventDefault(); if (typed.value.trim()) game.act(typed.value.trim()); });
  const box = el("details", { id: "type-move", class: "more", open: game.opened.typed }, el("summary", { "data-key": "type-move" }, _("Type a move")), f);
  keepOpen(box, open => { game.opened.typed = open; });
  return box;
}

function settingsPanel(game) {
  // the table's settings: sounds, the bots' pace, the away rule (a bot plays for someone away),
  // the turn timer (the expert plays one move for a person out of time)
  const t = game.table;
  const box = el("details", { class: "panel more", id: "settings", open: game.opened.settings },
    el("summary", { "data-key": "settings" }, _("Table settings")), soundSwitch(), vibrateSwitch(), spanishPack ? suitSwitch(() => game.render()) : "",
    // how far this browser has kept the app for play offline (install.js)
    typeof engineKeptLine === "function" ? engineKeptLine("engine-kept-settings") : "");
  keepOpen(box, open => { game.opened.settings = open; });
  const people = t.seats.filter(s => s.kind === "human").length;
  if (t.status === "playing" && (game.host || (game.you !== null && people === 1)) && t.seats.some(s => s.kind !== "human")) {
    const pick = el("select", { id: "pace", "data-key": "pace" }, el("option", { value: "", selected: t.pace === null }, _("the server's")),
      PACES.map(p => el("option", { value: p, selected: t.pace === p }, format(_("{seconds} s"), { seconds: p }))));
    pick.addEventListener("change", () => { if (pick.value !== "") game.send({ type: "pace", seconds: Number(pick.value) }); });
    box.append(el("label", {}, _("The bots wait between moves:"), " ", pick));
  }
  if (game.host && t.status === "playing") {
    const sel = el("select", { id: "away-after", "data-key": "away-after", "aria-label": _("a bot plays for someone away") }, el("option", { value: "" }, _("never")),
      AWAY_CHOICES.map(s => el("option", { value: s, selected: t.away_after === s }, format(_("after {seconds} s"), { seconds: s }))));
    sel.addEventListener("change", () => game.send({ type: "away", seconds: sel.value ? Number(sel.value) : null }));
    box.append(el("label", {}, _("A bot plays for someone away:"), " ", sel));
    if (!t.rated) box.append(el("label", {}, _("Turn timer:"), " ", turnTimerSelect("turn-timer", t.turn_timer, seconds => game.send({ type: "turn_timer", seconds }))));
  }
  box.append(pageChoices());
  return box;
}

function linksPanel(game) {
  const t = game.table;
  if (game.transport.links) return game.transport.links(game);  // the offline app's own
  const token = game.token();
  const box = el("div", { class: "panel", id: "links" });
  if (t.status !== "waiting") box.append(el("p", {}, _("Invitation:"), " ", el("span", { class: "link" }, `${location.origin}/t/${t.id}`)));
  if (token && game.you) box.append(el("p", {}, _("Your seat on another device (keep it secret):"), " ", el("span", { class: "link", id: "personal" }, `${location.origin}/t/${t.id}#seat=${token}`)));
  // a rated match's record waits for its end (the fair-play rules: nothing to analyse it with meanwhile)
  if (t.deal?.over && !(t.rated && t.status === "playing")) box.append(el("p", {}, recordLink(t.id, { id: "download" })));
  return box;
}
