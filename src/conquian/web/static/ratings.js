// The leaderboard (/leaderboard?game=) and a player's page (/p/{name}): ratings per game (bots
// marked, on the same scale), a player's rating history as a small chart, games, wins, draws,
// tableaux, and over the same matches the average accuracy of those reviewed on the server and the
// recent ones with their replay links (and accuracy when reviewed): rated and public matches for
// everyone, his casual private ones too on his own page.  Loaded after page.js.
"use strict";

const CHART_NS = "http://www.w3.org/2000/svg";

function chart(points) {
  // the rating after each rated match, as a line (the first point at the left)
  const w = 240, h = 60, pad = 4;
  const svg = document.createElementNS(CHART_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`); svg.setAttribute("width", w); svg.setAttribute("height", h);
  svg.setAttribute("role", "img"); svg.setAttribute("class", "rating-chart");
  svg.setAttribute("aria-label", format(_("rating after each match: {ratings}"), { ratings: points.join(", ") }));
  if (!points.length) return svg;
  const lo = Math.min(...points), hi = Math.max(...points), span = Math.max(1, hi - lo);
  const xy = points.map((p, i) => [pad + (points.length === 1 ? (w - 2 * pad) / 2 : i * (w - 2 * pad) / (points.length - 1)),
                                   h - pad - (p - lo) * (h - 2 * pad) / span]);
  const line = document.createElementNS(CHART_NS, "polyline");
  line.setAttribute("points", xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none"); line.setAttribute("stroke", "currentColor"); line.setAttribute("stroke-width", "2");
  svg.append(line);
  for (const [x, y] of xy) {
    const dot = document.createElementNS(CHART_NS, "circle");
    dot.setAttribute("cx", x.toFixed(1)); dot.setAttribute("cy", y.toFixed(1)); dot.setAttribute("r", "2.5"); dot.setAttribute("fill", "currentColor");
    svg.append(dot);
  }
  return svg;
}

// a page that could not load says why in its body (not "Loading…" forever) and links back
function failed(message) {
  showError(message);
  main.replaceChildren(el("p", { class: "dim", id: "failed" }, message),
    el("p", {}, el("a", { href: "/" }, _("Back to the tables"))));
}

async function renderLeaderboard() {
  const params = new URLSearchParams(location.search);
  const game = params.get("game") || "conquian";
  setTitle(_("Leaderboard"));
  let presets, data;
  try { presets = await api("/api/presets"); data = await api(`/api/leaderboard?game=${encodeURIComponent(game)}`); }
  catch (e) { failed(e.message); return; }
  const pick = el("select", { id: "game", "aria-label": _("Game") },
    [...presets.variants.map(v => v.name), "puzzles"].map(v => el("option", { value: v, selected: v === game }, gameName(v))));
  pick.addEventListener("change", () => { location.search = `?game=${encodeURIComponent(pick.value)}`; });
  const head = el("tr", {}, [_("Place"), _("Player"), _("Rating"), _("Games"), _("Wins"), _("Draws")].map(t => el("th", { scope: "col" }, t)));
  const rows = data.players.map((p, i) => el("tr", { class: p.bot ? "bot" : "person" },
    el("td", {}, String(i + 1)),
    el("td", {}, p.bot ? format(_("{bot} (bot)"), { bot: botName(p.name) }) : el("a", { href: `/p/${encodeURIComponent(p.name)}` }, p.name)),
    el("td", {}, ratingShown(p.rating, p.provisional), p.fixed ? el("span", { class: "dim interval" }, format(_("({low} to {high})"), { low: ratingText(p.interval[0]), high: ratingText(p.interval[1]) })) : ""),
    el("td", {}, String(p.games)), el("td", {}, String(p.wins)), el("td", {}, String(p.draws))));
  const fixed = data.players.some(p => p.fixed);
  const provisional = data.players.some(p => p.provisional);
  main.replaceChildren(
    el("p", {}, pick),
    data.players.length ? el("div", { class: "board-wrap" }, el("table", { id: "leaderboard", class: "leaderboard" }, el("thead", {}, head), el("tbody", {}, rows)))
                        : el("p", { class: "dim" }, _("No rated match of this game yet.")),
    fixed ? el("p", { class: "dim", id: "fixed-note" }, format(_("A bot's rating is fixed: measured on duplicate deals among the bots, its {ci} interval in brackets. Playing a bot moves only your rating."), { ci: "95%" })) : "",
    provisional ? el("p", { class: "dim", id: "provisional-note" }, format(ngettext("A rating followed by “?” is provisional: fewer than {count} rated match, so it may still move far.", "A rating followed by “?” is provisional: fewer than {count} rated matches, so it may still move far.", data.provisional_games || 10), { count: data.provisional_games || 10 })) : "",
    el("p", {}, el("a", { href: "/account" }, _("Your account")), " · ", el("a", { href: "/" }, _("Back to the tables"))));
}

// a game's line on a player's page, each count with its own plural ("1 partida con puntuación")
function summary(game, g) {
  const n = (text, count) => format(text, { count: count.toLocaleString(LANG) });
  const parts = [format(_("Rating {rating}"), { rating: ratingShown(g.rating, g.provisional) })];
  if (game === "puzzles") {
    parts.push(n(ngettext("{count} puzzle rated", "{count} puzzles rated", g.games), g.games),
               n(ngettext("{count} solved", "{count} solved", g.wins), g.wins));
  } else {
    parts.push(n(ngettext("{count} rated match", "{count} rated matches", g.games), g.games),
               n(ngettext("{count} won", "{count} won", g.wins), g.wins),
               n(ngettext("{count} drawn", "{count} drawn", g.draws), g.draws),
               n(ngettext("{count} tableau", "{count} tableaux", g.tableaux), g.tableaux));
  }
  return parts.join(" · ");
}

async function renderPlayer(name) {
  setTitle(name);
  let p;
  try { p = await api(`/api/players/${encodeURIComponent(name)}`); } catch (e) { failed(e.message); return; }
  const reviewed = p.accuracy || {};
  const accuracyLine = game => reviewed[game] ? el("p", { class: "accuracy" }, format(
    ngettext("Average accuracy {percent}%, from {count} reviewed match", "Average accuracy {percent}%, from {count} reviewed matches", reviewed[game].reviewed),
    { percent: Math.round(reviewed[game].accuracy * 100), count: reviewed[game].reviewed })) : "";
  const names = [...Object.keys(p.games), ...Object.keys(reviewed).filter(g => !(g in p.games))];
  const games = names.map(game => {
    const g = p.games[game];
    return el("section", { class: "player-game" },
      el("h2", {}, gameName(game)),
      !g ? "" : el("p", {}, summary(game, g)),
      accuracyLine(game),
      // a line needs two points: one match is said in words above
      g && g.history.length > 1 ? chart(g.history) : "");
  });
  // an offline match (played in the offline app against the bots, sent home): unrated, his only
  const recent = p.recent.map(r => el("li", { class: r.offline ? "casual offline" : r.rated ? "rated" : "casual" },
    r.rated ? format(_("{game}: place {place}, rating {rating}"), { game: gameName(r.game), place: r.place, rating: r.rating })
      : format(r.offline ? _("{game}: played offline against the bots, unrated") : r.public ? _("{game}: casual match") : _("{game}: casual private match"), { game: gameName(r.game) }),
    r.offline ? [" ", el("span", { class: "badge offline-mark" }, _("offline"))] : "",
    r.accuracy === undefined ? "" : format(_(", accuracy {percent}%"), { percent: Math.round(r.accuracy * 100) }), " ",
    el("a", { href: r.replay }, _("Replay"))));
  main.replaceChildren(
    el("h1", { id: "player-name" }, p.name),
    ...(games.length ? games : [el("p", { class: "dim" }, _("No rated match yet."))]),
    el("h2", {}, _("Recent matches")),
    el("p", { class: "dim", id: "matches-note" }, p.own
      ? _("Your rated, public and private matches, and those you played offline against the bots (marked offline): the private and offline ones, and their accuracy, are shown to you only.")
      : _("Rated and public matches; casual private matches are their players' only.")),
    recent.length ? el("ul", { id: "recent" }, recent) : el("p", { class: "dim", id: "recent" }, _("No match yet.")),
    el("p", {}, el("a", { href: "/leaderboard" }, _("Leaderboard")), " · ", el("a", { href: "/" }, _("Back to the tables"))));
}

(async () => {
  await loadLanguage();
  const m = /^\/p\/([^/]+)$/.exec(location.pathname);
  if (m) await renderPlayer(decodeURIComponent(m[1])); else await renderLeaderboard();
})();
