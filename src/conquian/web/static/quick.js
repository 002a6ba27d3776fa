// The lobby's "Play now" (quick match): choose a game and a number of players, wait to be paired
// with players of a close rating (the time waited, the rating window, a cancel button; after the
// wait, bots may fill the empty seats), then go to the table. Rated: for signed-in players with a
// name (chosen here on the first time). Protocol: docs/protocol.md ("Quick match").
// Classic script, loaded after page.js and lobby.js by index.html (one global scope).
"use strict";

// /api/quick with the session's CSRF header; method: POST (with a body), GET or DELETE
async function quickCall(method, path, body) {
  const res = await fetch(`${path}?lang=${encodeURIComponent(LANG)}`, {
    method, headers: { ...csrfHeaders(), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const error = new Error(refusalText(data?.error) || format(_("request failed ({status})"), { status: res.status }));
    error.code = data?.error?.code;
    error.quick = data?.quick;
    throw error;
  }
  return data;
}

// an account known to have a name (the chooser asks for none)
const NAMED = { name: true };

function signedIn() { return document.cookie.split("; ").some(c => c.startsWith("conquian_csrf=")); }

function windowWords(now) {
  return format(_("Your rating {rating}; players from {low} to {high} are welcome (wider as you wait)."),
    { rating: ratingShown(now.rating, now.provisional), low: ratingText(now.rating - now.window),
      high: ratingText(now.rating + now.window) });
}

function minutesSeconds(s) { return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; }

// the panel: the choice, the waiting, or the seat found
function quickPanel() {
  const box = el("section", { class: "panel quick", id: "quick", "aria-labelledby": "quick-title" });
  let timer = null;
  let lastGame = store.get("pref", "quick-game") || "conquian";
  let lastPlayers = Number(store.get("pref", "quick-players")) || 0;

  function stop() { if (timer) { clearTimeout(timer); timer = null; } }
  function poll(delay) {
    stop();
    timer = setTimeout(async () => {
      if (!document.body.contains(box)) { stop(); return; }
      try { show(await quickCall("GET", "/api/quick"), true); } catch (e) { poll(2000); }
    }, delay);
  }

  function goTo(seat) {
    stop();
    store.set("seat", seat.table, seat.token);
    history.pushState(null, "", seat.url); route();
  }

  function chooser(me) {
    const game = el("select", { id: "quick-game", name: "game" }, presets.variants.map(v => el("option", { value: v.name, selected: v.name === lastGame }, gameName(v.name))));
    const players = el("select", { id: "quick-players", name: "players" });
    function refreshPlayers() {
      const p = presets.variants.find(v => v.name === game.value) || presets.variants[0];
      const wanted = lastPlayers >= p.min_players && lastPlayers <= p.max_players ? lastPlayers : p.players;
      players.replaceChildren(...Array.from({ length: p.max_players - p.min_players + 1 }, (_, i) => p.min_players + i)
        .map(n => el("option", { value: n, selected: n === wanted }, n)));
    }
    game.addEventListener("change", refreshPlayers);
    refreshPlayers();
    // rated by default; a casual match is paired apart and is not rated
    const rated = el("select", { id: "quick-rated", name: "rated" },
      el("option", { value: "1" }, _("rated")),
      el("option", { value: "", selected: store.get("pref", "quick-rated") === "0" }, _("casual (not rated)")));
    const bots = el("input", { type: "checkbox", id: "quick-bots-auto", checked: store.get("pref", "quick-bots") === "1" });
    const nameInput = me && !me.name ? el("input", { type: "text", id: "quick-name", maxlength: 24, required: true, autocomplete: "nickname", value: myName() }) : null;
    const form = el("form", { id: "quick-form" },
      el("div", { class: "row" }, el("label", {}, _("Game"), " ", game), el("label", {}, _("Players"), " ", players)),
      el("label", {}, _("Match"), " ", rated),
      nameInput ? el("label", {}, _("Your name for play with others (chosen once)"), " ", nameInput) : "",
      el("label", {}, bots, " ", _("if nobody comes, fill the empty seats with bots after the wait")),
      el("button", { type: "submit", id: "quick-play" }, _("Play now")));
    form.addEventListener("submit", async ev => {
      ev.preventDefault();
      lastGame = game.value; lastPlayers = Number(players.value);
      store.set("pref", "quick-game", lastGame); store.set("pref", "quick-players", String(lastPlayers));
      store.set("pref", "quick-bots", bots.checked ? "1" : "0");
      store.set("pref", "quick-rated", rated.value ? "1" : "0");
      try {
        const account = await ensureAccount();  // made on the first time
        if (!account.name) {
          const name = nameInput ? nameInput.value.trim() : "";
          if (!name) { render(account); showError(_("Choose your name to play with others.")); return; }
          await api("/api/account/name", { name });
          rememberName(name);
        }
        show(await quickCall("POST", "/api/quick", { game: lastGame, players: lastPlayers, bots: bots.checked, rated: Boolean(rated.value) }), true);
      } catch (e) { showError(e.message); }
    });
    return form;
  }

  function waiting(now) {
    const cancel = el("button", { type: "button", class: "secondary", id: "quick-cancel" }, _("Cancel"));
    cancel.addEventListener("click", async () => {
      stop();
      try { await quickCall("DELETE", "/api/quick"); render(NAMED); }
      catch (e) { if (e.quick?.matched) goTo(e.quick); else showError(e.message); }
    });
    const parts = [
      el("p", { class: "quick-what", role: "status" }, format(_("Looking for players: {game}, {players} players."), { game: gameName(now.game), players: now.players })),
      el("p", { class: "quick-clock", id: "quick-waited" }, format(_("Waiting {time}"), { time: minutesSeconds(now.waited) })),
      el("p", { class: "dim", id: "quick-window" }, windowWords(now)),
      now.rated ? "" : el("p", { class: "dim" }, _("A casual match: it is not rated.")),
    ];
    if (now.waiting > 1) parts.push(el("p", { class: "dim" }, format(ngettext("{n} player waits for this game", "{n} players wait for this game", now.waiting), { n: now.waiting })));
    const buttons = el("div", { class: "row" });
    if (now.bots && now.bots_in <= 0) parts.push(el("p", {}, _("Bots are filling the empty seats…")));
    else if (now.bots) parts.push(el("p", { class: "dim", id: "quick-bots-soon" }, format(_("Bots fill the empty seats in {seconds} s if nobody comes."), { seconds: now.bots_in })));
    else if (now.bots_in <= 0) {
      const fill = el("button", { type: "button", id: "quick-fill" }, _("Play with bots in the empty seats"));
      fill.addEventListener("click", async () => {
        try { show(await quickCall("POST", "/api/quick/bots"), true); } catch (e) { showError(e.message); }
      });
      buttons.append(fill);
    } else parts.push(el("p", { class: "dim", id: "quick-bots-in" }, format(_("You may fill the empty seats with bots in {seconds} s."), { seconds: now.bots_in })));
    buttons.append(cancel);
    return el("div", { id: "quick-waiting" }, ...parts, buttons);
  }

  let phase = "";
  function show(now, fresh) {
    if (!document.body.contains(box) && !fresh) return;
    if (!now?.queued) {
      // taken out of the queue while this page waited (it was away too long): say so, or the
      // player wonders where his wait went
      const wasWaiting = Boolean(box.querySelector("#quick-waiting"));
      render(NAMED);
      if (wasWaiting) box.querySelector("#quick-form").before(el("p", { id: "quick-gone", role: "status" }, _("You are no longer waiting: this page was away too long. Choose “Play now” to wait again.")));
      return;
    }
    if (now.matched) {
      if (fresh) { goTo(now); return; }
      if (store.get("seat", now.table)) { render(NAMED); return; }  // been there already
      // paired while away from the lobby: the seat waits
      store.set("seat", now.table, now.token);
      box.replaceChildren(el("h2", { id: "quick-title" }, _("Play now")),
        el("p", {}, _("Your quick match is ready.")), el("a", { href: now.url, "data-link": 1, id: "quick-go", class: "join" }, _("Go to your seat")));
      return;
    }
    // the view is made again when what it offers changes; else only its words (the focus stays)
    const next = [now.game, now.players, now.bots, now.bots_in <= 0, now.waiting > 1 ? now.waiting : 0].join(" ");
    if (next !== phase || !box.querySelector("#quick-waiting")) {
      phase = next;
      box.replaceChildren(el("h2", { id: "quick-title" }, _("Play now")), waiting(now));
    } else {
      box.querySelector("#quick-waited").textContent = format(_("Waiting {time}"), { time: minutesSeconds(now.waited) });
      box.querySelector("#quick-window").textContent = windowWords(now);
      const later = box.querySelector("#quick-bots-in");
      if (later) later.textContent = format(_("You may fill the empty seats with bots in {seconds} s."), { seconds: now.bots_in });
      const soon = box.querySelector("#quick-bots-soon");
      if (soon) soon.textContent = format(_("Bots fill the empty seats in {seconds} s if nobody comes."), { seconds: now.bots_in });
    }
    poll(1000);
  }

  function render(me) {
    stop();
    box.replaceChildren(el("h2", { id: "quick-title" }, _("Play now")),
      el("p", { class: "dim" }, _("A match with players of your level, or bots if nobody comes.")), chooser(me));
  }

  // no account yet, or one without a name: the name is asked with the game
  render({ name: null });
  if (signedIn()) {
    (async () => {
      const me = await api("/api/account");
      const now = me.name ? await quickCall("GET", "/api/quick") : null;
      if (now?.queued) show(now, false);  // queued already (a reload, another tab)
      else if (me.name && document.body.contains(box) && box.querySelector("#quick-form")) render(me);
    })().catch(() => {});
  }
  return box;
}
