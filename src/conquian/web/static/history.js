// What this browser remembers of its player: the name (prefilled wherever a name is asked) and
// the matches it sat at (when, the game, who played, the result and the standings, the replay's
// link), shown in the lobby as "Your matches", with a button to forget them.
// Kept in localStorage only: nothing of it is sent to the server.
// Classic scripts sharing one global scope, no build step; each page's order is set in one place
// (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
"use strict";

// ----------------------------------------------------------------------------- name and history
const HISTORY_KEEP = 50;

function myName() { return store.get("name", "me") || ""; }
function rememberName(name) { const n = (name || "").trim(); if (n) store.set("name", "me", n.slice(0, 40)); }

function historyList() {
  try {
    const list = JSON.parse(store.get("history", "matches") || "[]");
    return Array.isArray(list) ? list.filter(m => m && typeof m.id === "string") : [];
  } catch (e) { return []; }
}

function historySave(list) { store.set("history", "matches", JSON.stringify(list.slice(0, HISTORY_KEEP))); }

function historyForget() { try { localStorage.removeItem("conquian:history:matches"); } catch (e) { /* private mode */ } }

function historyRecord(game) {
  // a finished match at a table this browser sat at: kept once (the newest first)
  const t = game.table;
  if (t?.status !== "over" || game.you === null || game.you === undefined || !t.scores) return;
  const list = historyList();
  if (list.some(m => m.id === t.id)) return;
  const totals = t.scores.totals || [];
  const standings = (t.standings || []).map(s => s.total);
  const best = Math.max(...totals);
  const winners = totals.filter(v => v === best).length;
  const mine = totals[game.you - 1];
  list.unshift({
    id: t.id, at: Date.now(), name: t.name || "", variant: t.variant || "", players: t.players || t.seats.length,
    you: game.you, names: t.seats.map(s => s.name || ""), bots: t.seats.map(s => s.kind !== "human"),
    totals, standings: standings.some((v, i) => v !== totals[i]) ? standings : [],
    result: mine === best ? (winners > 1 ? "shared" : "won") : "lost",
  });
  historySave(list);
}

function signed(v) { return v > 0 ? `+${v}` : String(v); }

function historyResult(m) {
  return { won: _("you won"), lost: _("you lost"), shared: _("you tied") }[m.result] || "";
}

function historyPanel(rerender) {
  const list = historyList();
  if (!list.length) return "";
  const items = list.map(m => {
    const when = new Date(m.at);
    const game = format(ngettext("{game}, {n} player", "{game}, {n} players", m.players), { game: gameName(m.variant), n: m.players });
    const score = m.names.map((n, i) => `${n} ${signed(m.totals[i] || 0)}`).join(", ");
    return el("li", { class: "history-item", "data-table": m.id },
      el("span", { class: "dim" }, when.toLocaleString(LANG, { dateStyle: "medium", timeStyle: "short" })), " ",
      el("strong", {}, m.name), " ", el("span", { class: "dim" }, `(${game})`), el("br"),
      el("span", { class: "history-result" }, historyResult(m)), " - ", score,
      m.standings?.length ? [" ", el("span", { class: "dim" }, format(_("(all matches: {standings})"),
        { standings: m.names.map((n, i) => `${n} ${signed(m.standings[i] || 0)}`).join(", ") }))] : "",
      " ", el("a", { href: `/r/${m.id}`, "data-link": 1, class: "history-replay" }, _("replay")));
  });
  return el("section", { class: "panel", id: "history", "aria-labelledby": "history-title" },
    el("h2", { id: "history-title" }, _("Your matches")),
    el("ul", { class: "history" }, items),
    el("p", { class: "dim" }, _("Kept in this browser only.")),
    el("button", { type: "button", class: "secondary", id: "history-forget", onclick: () => { historyForget(); rerender(); } }, _("Forget these matches")));
}
