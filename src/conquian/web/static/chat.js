// The chat at a table: lines and quick reactions, the players' channel and the spectators' one,
// the refusals (too long, too fast, muted) and the host's mute of a spectator.
// Protocol: docs/protocol.md (version 1): the client sends `chat` {text} and `react` {reaction};
// the server sends `chat` {channel, from, seat, id, line, text, reaction, at} to whoever may read it
// (a seated player's line to everyone, a spectator's to the tabs that hold no seat only, never to a seated player).
// Classic scripts, loaded in order by index.html, sharing one global scope; no build step.
// Every line is put in the page as text (textContent), never as HTML.  Another's line has a "…"
// menu: report it to the server's owner (`report` {line}), or block whoever said it (`block` {line}).
"use strict";

// ----------------------------------------------------------------------------- chat
const CHAT_MAX = 200;        // characters a line holds unless the server says otherwise (it checks again)
const CHAT_KEEP = 100;       // lines kept in the page
// the quick reactions the server takes (protocol.REACTIONS), with their names for screen readers
const REACTIONS = [["👍", () => _("thumbs up")], ["👏", () => _("applause")], ["😮", () => _("surprise")],
  ["😂", () => _("laughter")], ["🙏", () => _("thanks")], ["🔥", () => _("fire")]];
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
  const row = el("div", { class: "chat-line" + (spectators ? " chat-spectators" : ""), "data-channel": line.channel || "", "data-id": line.id || "" });
  if (at) row.append(el("span", { class: "chat-time" }, at.toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" }) + " "));
  row.append(el("strong", { class: "chat-from" }, chatWho(game, line)));
  if (spectators) row.append(" ", el("span", { class: "chat-channel" }, _("(spectators)")));
  row.append(": ");
  if (line.reaction) {
    const named = REACTIONS.find(([r]) => r === line.reaction);
    // the emoji and its name in words (a screen without an emoji font shows the words)
    row.append(el("span", { class: "chat-reaction", role: "img", "aria-label": named ? named[1]() : line.reaction }, line.reaction),
      named ? el("span", { class: "chat-reaction-name", "aria-hidden": "true" }, " " + named[1]()) : "");
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
  const muted = !!(t && t.chat_muted);
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
      onclick: () => chatSend(game, { type: "react", reaction: r }) }, el("span", { "aria-hidden": "true", class: "chat-emoji" }, r), " ", name()))));
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
