// The table in play as a full screen: the hand fanned along the bottom, the sheets (scores, chat,
// log, settings) beside the table on a wide screen and over it on a small one, what tells a player
// it is his turn (the title, the favicon, a vibration, a sound) and the offer of sounds.
// Classic scripts sharing one global scope, no build step; each page's order is set in one place
// (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
// Nothing here knows how the table's messages arrive: it draws what a Game holds and calls its
// render(); the connection is table.js's.
"use strict";

// ----------------------------------------------------------------------------- the hand, fanned
// Every card keeps a visible part of at least HAND_MIN px each way (a finger's target): the cards
// overlap as much as the width asks, then go on a second (third...) row, each row over the
// bottom of the one before; a chosen card rises by --raise without hiding the one behind it.
const HAND_MIN = 46;
function fanHand(hand) {
  if (!hand) return;
  const cards = [...hand.children].filter(c => c.classList.contains("card"));
  const W = hand.clientWidth;
  if (!W || !cards.length) return;
  const cw = cards[0].offsetWidth, ch = cards[0].offsetHeight;
  const raise = parseFloat(getComputedStyle(hand).getPropertyValue("--raise")) || 12;
  const perRow = Math.max(1, Math.floor((W - cw) / HAND_MIN) + 1);
  const rows = Math.ceil(cards.length / perRow);
  const each = Math.ceil(cards.length / rows);  // rows of even length
  const rowStep = Math.max(HAND_MIN + raise, Math.round(ch * 0.62));
  cards.forEach((c, k) => {
    const row = Math.floor(k / each), inRow = Math.min(each, cards.length - row * each), at = k - row * each;
    const step = inRow > 1 ? Math.min(cw + 6, (W - cw) / (inRow - 1)) : 0;
    const left = (W - (step * (inRow - 1) + cw)) / 2 + step * at;
    c.style.left = `${Math.round(left)}px`;
    c.style.top = `${raise + row * rowStep}px`;
  });
  hand.style.height = `${raise + (rows - 1) * rowStep + ch + 2}px`;
  hand.dataset.rows = rows;
}
window.addEventListener("resize", () => { if (typeof main !== "undefined") fanHand(main.querySelector("#hand")); });

// ----------------------------------------------------------------------------- sheets
// The scores, the chat, the log and the settings: a column beside the table on a wide screen; on
// a phone or a tablet, one at a time in a sheet over the table, opened by the felt's buttons.
const SHEETS = [["scores", () => _("Scores")], ["chat", () => _("Chat")], ["log", () => _("Log")], ["settings", () => _("Settings")]];
const SHEET_ICONS = {
  scores: "M3 17 V10 H6 V17 Z M8.5 17 V4 H11.5 V17 Z M14 17 V7 H17 V17 Z",
  chat: "M3 4 H17 Q18 4 18 5 V13 Q18 14 17 14 H9 L5 17.5 V14 H3 Q2 14 2 13 V5 Q2 4 3 4 Z",
  log: "M3 4 H17 V6 H3 Z M3 9 H17 V11 H3 Z M3 14 H12 V16 H3 Z",
  settings: "M3 5 H17 V7 H3 Z M3 13 H17 V15 H3 Z M6 3.5 H9 V8.5 H6 Z M11 11.5 H14 V16.5 H11 Z",
};
function docked() { return !!(window.matchMedia?.("(min-width: 1000px)").matches); }
function sheetIcon(kind) {
  return svgEl("svg", { viewBox: "0 0 20 20", class: "icon", "aria-hidden": "true", focusable: "false" }, svgEl("path", { d: SHEET_ICONS[kind], fill: "currentColor" }));
}
function chatUnread(game) {
  const c = game.chat;
  if (!c) return 0;
  if (game.sheet === "chat" || docked()) game.chatSeen = c.lines.length;
  return Math.max(0, c.lines.length - (game.chatSeen || 0));
}
function openSheet(game, kind) {
  game.sheet = game.sheet === kind ? null : kind;
  if (kind === "settings" && game.sheet) game.opened.settings = true;
  game.render();
  const close = main.querySelector(game.sheet ? "#side .sheet-close" : `#sheet-${kind}`);
  if (close) close.focus({ preventScroll: true });
}
function closeSheet(game) {
  const was = game.sheet;
  game.sheet = null;
  game.render();
  const back = was && main.querySelector(`#sheet-${was}`);
  if (back) back.focus({ preventScroll: true });
}
function sheetButtons(game) {
  const unread = chatUnread(game);
  return el("nav", { class: "tools", "aria-label": _("Table menu") }, SHEETS.map(([kind, words]) => {
    const label = kind === "chat" && unread ? format(ngettext("Chat ({n} new)", "Chat ({n} new)", unread), { n: unread }) : words();
    return el("button", { type: "button", class: `tool${game.sheet === kind ? " on" : ""}`, id: `sheet-${kind}`, "data-key": `sheet-${kind}`,
      "aria-label": label, title: label, "aria-expanded": game.sheet === kind ? "true" : "false", "aria-controls": "side",
      onclick: () => openSheet(game, kind) }, sheetIcon(kind), kind === "chat" && unread ? el("span", { class: "badge-count", "aria-hidden": "true" }, unread > 9 ? "9+" : String(unread)) : "");
  }));
}
function sidePanels(game, panels) {
  const names = { scores: "scores", chat: "chat", "log-panel": "log", settings: "settings", links: "settings" };
  for (const p of panels) if (p?.id && names[p.id]) p.dataset.panel = names[p.id];
  const open = game.sheet ? SHEETS.find(([k]) => k === game.sheet) : null;
  const aside = el("aside", { class: `side-column${open ? " open" : ""}`, id: "side", "aria-label": open ? open[1]() : _("Scores, chat, log and settings") },
    el("div", { class: "sheet-head" }, el("h2", { class: "sheet-title" }, open ? open[1]() : ""),
      el("button", { type: "button", class: "secondary small sheet-close", "data-key": "sheet-close", "aria-label": _("Close"), onclick: () => closeSheet(game) }, "✕")),
    el("div", { class: "side-panels", tabindex: 0 }, panels));
  return [el("div", { class: "sheet-backdrop", "aria-hidden": "true", onclick: () => closeSheet(game) }), aside];
}
document.addEventListener("keydown", ev => {
  if (ev.key === "Escape" && typeof game !== "undefined" && game?.sheet) { ev.preventDefault(); closeSheet(game); }
});

// ----------------------------------------------------------------------------- your turn
// The title and the favicon say it while it is the player's turn; a vibration (if the player
// wants it, kept in this browser) when the turn comes.  The sound is play.js's tone("yours").
// beside the page's own icon (the server's /static/, or the offline app's ../static/)
const FAVICON = (document.querySelector('link[rel="icon"]') || { getAttribute: () => null }).getAttribute("href") || "/static/favicon.svg";
const FAVICON_TURN = FAVICON.replace(/favicon\.svg$/, "icons/turn.svg");
function vibrateOn() { return store.get("pref", "vibrate") === "1"; }
function vibrateSwitch() {
  if (!("vibrate" in navigator)) return "";
  const box = el("input", { type: "checkbox", id: "vibrate", "data-key": "vibrate", checked: vibrateOn() });
  box.addEventListener("change", () => { store.set("pref", "vibrate", box.checked ? "1" : "0"); if (box.checked) navigator.vibrate(60); });
  return el("label", { class: "switch" }, box, " ", _("Vibrate on my turn"));
}
function setFavicon(href) {
  const link = document.querySelector("link[rel='icon']");
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}
function turnSignals(game) {
  const mine = game.mine();
  const title = `${game.table.name} - ${gameName(game.table.variant)}`;
  document.title = mine ? format(_("Your turn - {title}"), { title }) : `${title} - conquian`;
  document.body.classList.toggle("my-turn", mine);
  setFavicon(mine ? FAVICON_TURN : FAVICON);
  if (mine && !game.wasMine && vibrateOn() && navigator.vibrate) { try { navigator.vibrate([70, 50, 70]); } catch (e) { /* not allowed */ } }
  game.wasMine = mine;
}
function leaveTable() {
  // back to the lobby or a replay: the page scrolls again, the favicon is the usual one
  document.body.classList.remove("in-play", "my-turn");
  setFavicon(FAVICON);
}

// the sounds are offered at the first table a person plays (never hidden off): on, or no
function soundOffer(game) {
  if (store.get("pref", "sound") !== null || game.you === null || game.you === undefined) return "";
  const answer = on => { store.set("pref", "sound", on ? "1" : "0"); if (on) tone("yours"); game.render(); };
  return el("div", { class: "sound-offer", id: "sound-offer", role: "group", "aria-label": _("Sounds") },
    el("span", {}, _("Play a sound when it is your turn?")),
    el("button", { type: "button", class: "small", id: "sound-yes", "data-key": "sound-yes", onclick: () => answer(true) }, _("Sounds on")),
    el("button", { type: "button", class: "secondary small", id: "sound-no", "data-key": "sound-no", onclick: () => answer(false) }, _("No sounds")));
}

// ----------------------------------------------------------------------------- seats
// how many cards a seat holds, for a chip across the top: a few backs and the number (the words
// for screen readers and as the tip)
function heldCards(n) {
  const words = format(ngettext("{n} card", "{n} cards", n), { n });
  const pile = cardBacks(n).querySelector(".pile");
  return el("span", { class: "held backs", title: words }, pile || "", el("span", { class: "n", "aria-hidden": "true" }, String(n)),
    el("span", { class: "visually-hidden" }, words));
}

// the language and the rule book, in the settings sheet (the header keeps them on a wide screen)
function pageChoices() {
  const pick = el("select", { id: "table-lang", "data-key": "table-lang" },
    LANGUAGES.map(l => el("option", { value: l.code, lang: l.code, selected: l.code === LANG }, l.name)));
  pick.addEventListener("change", () => { store.set("pref", "lang", pick.value); location.reload(); });
  return el("div", { class: "page-choices" }, el("label", {}, _("Language:"), " ", pick),
    el("a", { href: rulesHref(), target: "_blank", rel: "noopener", id: "table-rules" }, _("Rules")));
}
