// The chat at a table: lines and quick reactions, the players' channel and the spectators' one,
// the refusals (too long, too fast, muted) and the host's mute of a spectator.
// Protocol: docs/protocol.md (version 1): the client sends `chat` {text} and `react` {reaction};
// the server sends `chat` {channel, from, seat, id, line, text, reaction, at} to whoever may read it
// (a seated player's line to everyone, a spectator's to the tabs that hold no seat only, never to a seated player).
// Classic scripts sharing one global scope, no build step; each page's order is set in one place
// (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
// Every line is put in the page as text (textContent), never as HTML.  Another's line has a "…"
// menu: report it to the server's owner (`report` {line}), or block whoever said it (`block` {line}).
"use strict";

// ----------------------------------------------------------------------------- chat
const CHAT_MAX = 200;        // characters a line holds unless the server says otherwise (it checks again)
const CHAT_KEEP = 100;       // lines kept in the page
// the quick reactions the server takes (protocol.REACTIONS), with their names for screen readers
const REACTIONS = [["👍", () => _("thumbs up")], ["👏", () => _("applause")], ["😮", () => _("surprise")],
  ["😂", () => _("laughter")], ["🙏", () => _("thanks")], ["🔥", () => _("fire")]];
// each reaction drawn in SVG (24 by 24), made for this page: it shows on every machine, with or
// without an emoji font (the emoji stays the protocol's value and the button's data)
const SKIN = { fill: "#f6c445", stroke: "#a8741a", "stroke-width": 1.2, "stroke-linejoin": "round" };
const FACE = { cx: 12, cy: 12, r: 10.5, fill: "#f6c445", stroke: "#a8741a", "stroke-width": 1.2 };
const INK = { fill: "#4a2c0a" };
const REACTION_ICONS = {
  "👍": [["path", { d: "M7.5 10.5 L11.2 3.6 Q12.6 2.2 13.8 3.4 Q14.6 4.4 14.1 6.2 L13.3 9.4 H19 Q21.2 9.6 20.8 11.8 L19.2 19.2 Q18.7 20.9 16.8 20.9 H7.5 Z", ...SKIN }],
    ["rect", { x: 2.8, y: 10, width: 4.4, height: 11.2, rx: 1, fill: "#5b7bd5", stroke: "#2f4a94", "stroke-width": 1.2 }]],
  "👏": [["path", { d: "M5.5 20.5 Q2.6 17.6 4 13.5 L6.6 6.6 Q7.4 5.2 8.6 5.9 Q9.5 6.6 9.1 8 L8.5 10 L12.2 4.2 Q13.2 3.1 14.3 3.9 Q15.2 4.8 14.5 6 L17.2 3.3 Q18.4 2.7 19.1 3.7 Q19.6 4.6 18.9 5.6 L14.8 11.6 L17.9 8.6 Q19 7.9 19.7 8.9 Q20.2 9.8 19.4 10.8 L13.2 18.6 Q10.4 22 5.5 20.5 Z", ...SKIN }],
    ["path", { d: "M2.4 6.2 L4.2 7.8 M3.6 3.2 L5 5.4 M21.6 15 L19.6 14.4 M20.6 18.4 L18.8 17.2", stroke: "#e08a12", "stroke-width": 1.3, "stroke-linecap": "round", fill: "none" }]],
  "😮": [["circle", FACE], ["circle", { cx: 8.4, cy: 9.4, r: 1.4, ...INK }], ["circle", { cx: 15.6, cy: 9.4, r: 1.4, ...INK }],
    ["ellipse", { cx: 12, cy: 16, rx: 2.6, ry: 3.2, ...INK }]],
  "😂": [["circle", FACE], ["path", { d: "M6.4 9.6 Q8.4 7.4 10.2 9.6 M13.8 9.6 Q15.6 7.4 17.6 9.6", stroke: "#4a2c0a", "stroke-width": 1.4, fill: "none", "stroke-linecap": "round" }],
    ["path", { d: "M6.2 13 H17.8 Q17.4 19 12 19 Q6.6 19 6.2 13 Z", ...INK }], ["path", { d: "M8.4 15.8 H15.6 Q14.4 17.8 12 17.8 Q9.6 17.8 8.4 15.8 Z", fill: "#e0584f" }],
    ["path", { d: "M3.6 11 Q1.4 14.2 3 15.4 Q4.6 16.2 4.8 13.6 Z M20.4 11 Q22.6 14.2 21 15.4 Q19.4 16.2 19.2 13.6 Z", fill: "#5fb3f0" }]],
  "🙏": [["path", { d: "M11.6 3.2 Q10.2 3 9.6 5 L7.2 13.6 L4.2 17.4 L7.6 21 L11.6 16.6 Z", ...SKIN }],
    ["path", { d: "M12.4 3.2 Q13.8 3 14.4 5 L16.8 13.6 L19.8 17.4 L16.4 21 L12.4 16.6 Z", ...SKIN }],
    ["path", { d: "M3.2 18.2 L6.8 22 M20.8 18.2 L17.2 22", stroke: "#5b7bd5", "stroke-width": 2.2, "stroke-linecap": "round" }]],
  "🔥": [["path", { d: "M12 1.8 Q13.6 6 17 8.8 Q20.6 12.2 19.4 16.4 Q18 21.6 12 22 Q6 21.6 4.6 16.4 Q3.8 12.6 6.6 9.8 Q6.8 12.6 8.8 13.2 Q7.8 6.4 12 1.8 Z", fill: "#f0622a", stroke: "#b43b12", "stroke-width": 1.1, "stroke-linejoin": "round" }],
    ["path", { d: "M12 11 Q13.2 14 15.2 15.6 Q16.4 18.8 12 20.2 Q7.6 18.8 8.8 15.8 Q9.6 16.8 10.6 16.8 Q10.2 13.6 12 11 Z", fill: "#ffd23f" }]],
};
function reactionIcon(r) {
  const shapes = REACTION_ICONS[r];
  if (!shapes) return document.createTextNode(r);
  return svgEl("svg", { viewBox: "0 0 24 24", width: "1.25em", height: "1.25em", class: "reaction-icon", "aria-hidden": "true", focusable: "false" },
    shapes.map(([tag, attrs]) => svgEl(tag, attrs)));
}
const CHAT_ERRORS = new Set(["too_long", "too_fast", "muted", "no_line", "own_line", "no_account", "signed_out"]);

function chatState(game) {
  // kept on the game, so the lines and the draft outlive every render of the table
  if (!game.chat) game.chat = { lines: [], draft: "", error: "", sentAt: 0, muted: new Set(), unread: 0, menu: null, reported: new Set(), said: "" };
  return game.chat;
}

function chatReceive(game, msg) {
  const c = chatState(game);
  c.lines.push(msg);
  if (c.lines.length > CHAT_KEEP) c.lines.splice(0, c.lines.length - CHAT_KEEP);
  if (msg.id && msg.id === game.connId) c.error = "";
  if (game.table) game.render();
}

function chatRefused(game, m) {
  // a refusal of the chat (its words come from the server, in this connection's language)
  const c = chatState(game);
  const recent = Date.now() - c.sentAt < 5000;
  if (m.code === "too_long" || m.code === "muted" || (m.code === "too_fast" && recent) || ["no_line", "own_line", "no_account", "signed_out"].includes(m.code)) {
    c.error = m.message || { too_long: _("That line is too long."), too_fast: _("Not so fast: wait a moment."), muted: _("The host has muted you: you may still watch.") }[m.code];
    if (game.table) game.render();
  }
}

function chatSend(game, msg) {
  const c = chatState(game);
  c.sentAt = Date.now();
  c.error = "";
  game.send(msg);
}

function chatWho(game, line) {
  if (line.id && line.id === game.connId) return _("you");
  return line.from || (line.seat ? game.name(line.seat) : _("a spectator"));
}

function chatLine(game, line) {
  const c = chatState(game);
  const spectators = line.channel === "spectators";
  const at = typeof line.at === "number" ? new Date(line.at * 1000) : null;
  const row = el("div", { class: `chat-line${spectators ? " chat-spectators" : ""}`, "data-channel": line.channel || "", "data-id": line.id || "" });
  if (at) row.append(el("span", { class: "chat-time" }, `${at.toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" })} `));
  row.append(el("strong", { class: "chat-from" }, chatWho(game, line)));
  if (spectators) row.append(" ", el("span", { class: "chat-channel" }, _("(spectators)")));
  row.append(": ");
  if (line.reaction) {
    const named = REACTIONS.find(([r]) => r === line.reaction);
    // the reaction drawn (the page's own SVG, never a font's emoji) and its name in words
    row.append(el("span", { class: "chat-reaction", role: "img", "aria-label": named ? named[1]() : line.reaction }, reactionIcon(line.reaction)),
      named ? el("span", { class: "chat-reaction-name", "aria-hidden": "true" }, ` ${named[1]()}`) : "");
  } else row.append(el("span", { class: "chat-text" }, line.text || ""));
  // the host may mute a spectator (not himself): his lines and reactions are refused from then on
  if (game.host && spectators && line.seat === null && line.id && line.id !== game.connId) {
    if (c.muted.has(line.id)) row.append(" ", el("span", { class: "dim chat-muted" }, _("muted")));
    else {
      row.append(" ", el("button", { type: "button", class: "secondary chat-mute", "data-key": `mute-${line.id}`,
        "aria-label": format(_("mute {name}"), { name: chatWho(game, line) }),
        onclick: () => { c.muted.add(line.id); game.send({ type: "mute", spectator: line.id }); game.render(); } }, _("mute")));
    }
  }
  if (line.line && line.id !== game.connId) row.append(" ", chatMenu(game, line));
  return row;
}

function chatMenu(game, line) {
  // report the line, or block whoever said it (big enough to tap on a phone; kept open across renders)
  const c = chatState(game);
  const who = chatWho(game, line);
  if (c.reported.has(line.line)) return el("span", { class: "dim chat-reported" }, _("reported"));
  const menu = el("details", { class: "chat-menu", "data-key": `menu-${line.line}`, open: c.menu === line.line });
  menu.append(el("summary", { class: "chat-more", "aria-label": format(_("more about {name}'s line"), { name: who }) }, "…"),
    el("div", { class: "row chat-menu-actions" },
      el("button", { type: "button", class: "secondary chat-report", onclick: () => {
        if (!confirm(_("Report this line to the server's owner?"))) return;
        menu.open = false; c.menu = null; game.send({ type: "report", line: line.line });
      } }, _("report")),
      el("button", { type: "button", class: "secondary chat-block", onclick: () => {
        if (!confirm(format(_("Block {name}? Neither of you will read the other's chat, and you will not be paired together."), { name: who }))) return;
        menu.open = false; c.menu = null; game.send({ type: "block", line: line.line });
      } }, format(_("block {name}"), { name: who }))));
  keepOpen(menu, open => { c.menu = open ? line.line : (c.menu === line.line ? null : c.menu); });
  return menu;
}

function chatAnswered(game, m) {
  // the server kept a report, or a block: the reporter sees it; a blocked player's lines leave the page
  const c = chatState(game);
  if (m.type === "reported") { c.reported.add(m.line); c.said = _("Reported: the server's owner will read it."); }
  else {
    c.lines = c.lines.filter(l => !(l.line === m.line || (m.seat !== null && m.seat !== undefined && l.seat === m.seat && l.channel === "players") || (m.id && l.id === m.id)));
    c.said = _("Blocked: you will not read each other's chat.");
  }
  if (game.table) game.render();
}

function chatPanel(game) {
  const c = chatState(game);
  const t = game.table;
  const watching = game.you === null || game.you === undefined;
  const muted = !!(t?.chat_muted);
  const box = el("section", { class: "panel chat", id: "chat", "aria-labelledby": "chat-title" });
  box.append(el("h2", { id: "chat-title" }, _("Chat")));
  box.append(el("p", { class: "dim chat-who" }, watching
    ? (game.host ? _("You read everyone; the spectators' lines reach the spectators and you, never the players.")
      : _("Spectators' chat: the players do not read it."))
    : _("Everyone at the table reads your lines.")));
  const lines = el("div", { class: "chat-lines", id: "chat-lines", role: "log", "aria-live": "polite", tabindex: 0, "aria-label": _("Chat") },
    c.lines.length ? c.lines.map(l => chatLine(game, l)) : el("p", { class: "dim" }, _("No messages yet.")));
  setTimeout(() => { lines.scrollTop = lines.scrollHeight; }, 0);
  box.append(lines);
  if (muted) {
    box.append(el("p", { class: "chat-error", id: "chat-error", role: "status" }, _("The host has muted you: you may still watch.")));
    return box;
  }
  box.append(el("div", { class: "row chat-reactions", role: "group", "aria-label": _("Quick reactions") },
    REACTIONS.map(([r, name]) => el("button", { type: "button", class: "secondary chat-react", "data-key": `react-${r}`, "data-reaction": r,
      onclick: () => chatSend(game, { type: "react", reaction: r }) }, el("span", { "aria-hidden": "true", class: "chat-emoji" }, reactionIcon(r)), " ", name()))));
  const text = el("input", { type: "text", id: "chat-text", "data-key": "chat-text", maxlength: game.chatChars || CHAT_MAX, value: c.draft, autocomplete: "off",
    placeholder: _("Say something…"), "aria-label": _("a line of chat") });
  text.addEventListener("input", () => { c.draft = text.value; });
  const form = el("form", { class: "row chat-form", id: "chat-form" }, text, el("button", { type: "submit", id: "chat-send" }, _("Send")));
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    const line = text.value.trim();
    if (!line) return;
    c.draft = "";
    text.value = "";
    chatSend(game, { type: "chat", text: line });
  });
  box.append(form, el("p", { class: "chat-error", id: "chat-error", role: "status" }, c.error || ""),
    c.said ? el("p", { class: "dim chat-said", id: "chat-said", role: "status" }, c.said) : "");
  return box;
}

// The table's own handling of messages stays table.js's: the chat only notes, besides, this
// connection's id (its own lines) and the refusals of a chat line.
if (typeof Game === "function" && !Game.prototype.chatHooked) {
  const receive = Game.prototype.receive;
  Game.prototype.chatHooked = true;
  Game.prototype.receive = function (m) {
    if (m && m.type === "welcome") { this.connId = m.id; this.chatChars = m.chat_chars; chatState(this); }
    if (m && m.type === "error" && CHAT_ERRORS.has(m.code)) chatRefused(this, m);
    if (m && (m.type === "reported" || m.type === "blocked")) { chatAnswered(this, m); return undefined; }
    return receive.call(this, m);
  };
}
