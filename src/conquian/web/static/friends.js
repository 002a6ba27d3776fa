// Friends: the "add me" link (copied, shared, or scanned as a QR code), the friends list with who
// is online (each online one with "invite to my table" while the player holds a seat at a waiting
// table), the invitations to a table friends sent, blocked players; and, at a waiting table,
// "invite to my table".  Protocol: docs/protocol.md (/api/friends...).
// Classic scripts sharing one global scope (after page.js; invite.js's copyInvitation where loaded); no build step.
"use strict";

// ----------------------------------------------------------------------------- the friends list
let friendsCache = null;   // the last /api/friends answer
let friendsAsked = 0;      // when it was asked (ms)
const friendsInvited = new Set();  // "table name" of the invitations sent from this page

async function friendsData(force) {
  if (force || !friendsCache || Date.now() - friendsAsked > 15000) {
    friendsAsked = Date.now();
    try { friendsCache = await api("/api/friends"); } catch (e) { friendsCache = friendsCache || null; }
  }
  return friendsCache;
}

function onlineWords(f) {
  if (f.online) return _("online");
  if (!f.seen_at) return _("not seen yet");
  return format(_("last seen {when}"), { when: new Date(f.seen_at * 1000).toLocaleString(LANG, { dateStyle: "short", timeStyle: "short" }) });
}

function friendName(f) {
  return el("span", { class: "friend-name" },
    el("span", { class: `online-dot${f.online ? " on" : ""}`, "aria-hidden": "true" }), " ",
    el("a", { href: `/p/${encodeURIComponent(f.name)}` }, f.name), " ",
    el("span", { class: "dim friend-online" }, onlineWords(f)));
}

async function friendCall(path, body, redraw) {
  try { await api(path, body); await friendsData(true); await redraw(); }
  catch (e) { showError(e.message); }
}

// the invitations friends sent to their tables: on the lobby and the account page
function friendNoticesList(data, redraw) {
  const notices = (data?.notices) || [];
  if (!notices.length) return null;
  return el("section", { class: "panel friend-notices", id: "friend-notices", "aria-labelledby": "friend-notices-title" },
    el("h2", { id: "friend-notices-title" }, _("Invitations from friends")),
    el("ul", { class: "friends" }, notices.map(n => el("li", { class: "notice", "data-table": n.table },
      el("span", {}, format(_("{name} invites you to a table"), { name: n.from })), " ",
      el("span", { class: "dim" }, new Date(n.at * 1000).toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" })), " ",
      el("a", { href: n.link, class: "join notice-join" }, _("join")), " ",
      el("button", { type: "button", class: "secondary notice-dismiss", onclick: () => friendCall("/api/friends/notices/dismiss", { id: n.id }, redraw) }, _("dismiss"))))));
}

async function lobbyFriendNotices(box) {
  // the lobby's box, refreshed with the tables
  if (!document.body.contains(box)) return;
  const data = await friendsData(false);
  const list = friendNoticesList(data, () => lobbyFriendNotices(box));
  box.replaceChildren(...(list ? [list] : []));
}

function friendLinkPanel(data, redraw) {
  const link = `${location.origin}${data.link}`;
  const shown = el("span", { class: "link", id: "friend-link" }, link);
  const said = el("span", { class: "dim invite-said", id: "friend-link-said", role: "status", "aria-live": "polite" });
  const buttons = el("div", { class: "row" }, el("button", { type: "button", class: "secondary", id: "friend-link-copy", onclick: async () => {
    const copied = await copyInvitation(link, shown);
    said.textContent = copied ? _("Link copied: paste it in a message.") : _("The link is selected: copy it with Ctrl+C, or hold it on a phone.");
  } }, _("copy")));
  if (typeof navigator.share === "function") {
    buttons.append(el("button", { type: "button", class: "secondary", id: "friend-link-share", onclick: async () => {
      try { await navigator.share({ title: document.title, text: _("Add me as a friend on conquian:"), url: link }); } catch (e) { /* closed */ }
    } }, _("share")));
  }
  buttons.append(el("button", { type: "button", class: "secondary", id: "friend-link-new", onclick: () => {
    if (confirm(_("Make a new link? The old one stops working."))) friendCall("/api/friends/link", {}, redraw);
  } }, _("new link")), said);
  return el("div", { class: "invitation", id: "friend-invitation" },
    el("p", {}, _("Your friend link: whoever opens it, signed in, may add you as a friend."), " ", shown), buttons,
    el("figure", { class: "invite-qr" },
      el("img", { src: `/api/friends/link.svg?v=${encodeURIComponent(data.link)}`, id: "friend-qr", width: 168, height: 168, alt: _("QR code of your friend link") }),
      el("figcaption", { class: "dim" }, _("On a phone: scan this code with the camera."))));
}

async function friendsSection(redraw) {
  // the account page's part: the link, the friends, the invitations, the blocked players
  const data = await friendsData(true);
  const box = el("section", { id: "friends-section" }, el("h2", {}, _("Friends")));
  if (!data) return box;
  if (!data.name) { box.append(el("p", { class: "dim" }, _("Choose your name to have friends."))); return box; }
  const notices = friendNoticesList(data, redraw);
  if (notices) box.append(notices);
  box.append(friendLinkPanel(data, redraw));
  const friends = data.friends || [];
  const table = (data.tables || [])[0];  // the newest waiting table where this player holds a seat
  const inviteTo = f => {
    // an online friend, and a seat at a waiting table: "invite to my table"
    if (!table || !f.online) return "";
    const said = el("span", { class: "dim", role: "status" }, friendsInvited.has(`${table.id} ${f.name}`) ? format(_("{name} is invited."), { name: f.name }) : "");
    return el("span", {}, el("button", { type: "button", class: "secondary friend-invite-button", "data-table": table.id,
      "aria-label": format(_("invite {name} to your table {table}"), { name: f.name, table: table.name }), onclick: async () => {
        try {
          await api("/api/friends/invite", { name: f.name, table: table.id });
          friendsInvited.add(`${table.id} ${f.name}`);
          said.textContent = format(_("{name} is invited."), { name: f.name });
        } catch (e) { showError(e.message); }
      } }, _("invite to my table")), " ", said, " ");
  };
  box.append(friends.length
    ? el("ul", { class: "friends", id: "friends" }, friends.map(f => el("li", { class: "friend", "data-name": f.name }, friendName(f), " ", inviteTo(f),
      el("button", { type: "button", class: "secondary friend-remove", "aria-label": format(_("remove {name} from your friends"), { name: f.name }),
        onclick: () => { if (confirm(format(_("Remove {name} from your friends?"), { name: f.name }))) friendCall("/api/friends/remove", { name: f.name }, redraw); } }, _("remove")))))
    : el("p", { class: "dim", id: "friends" }, _("No friends yet: share your link.")));
  box.append(el("h2", {}, _("Blocked players")),
    el("p", { class: "dim" }, _("You do not read a blocked player's chat, he does not read yours, and you are not paired together.")));
  const blocked = data.blocked || [];
  if (blocked.length) {
    box.append(el("ul", { class: "friends", id: "blocked" }, blocked.map(name => el("li", { class: "blocked", "data-name": name }, name, " ",
      el("button", { type: "button", class: "secondary unblock", onclick: () => friendCall("/api/blocks/remove", { name }, redraw) }, _("unblock"))))));
  }
  const who = el("input", { id: "block-name", maxlength: "24", autocomplete: "off", placeholder: _("a player's name"), "aria-label": _("the name of the player to block") });
  box.append(el("form", { class: "row", id: "block-form", onsubmit: ev => {
    ev.preventDefault();
    const name = who.value.trim();
    if (name && confirm(format(_("Block {name}?"), { name }))) friendCall("/api/blocks", { name }, redraw);
  } }, who, el("button", { type: "submit", class: "secondary" }, _("block"))));
  return box;
}

async function friendConfirm(code, redraw) {
  // /f/{code}: whose link it is, and a confirmation (nothing happens without it)
  let owner;
  try { owner = await api(`/api/friends/link/${encodeURIComponent(code)}`); }
  catch (e) { return el("p", { class: "panel", id: "friend-confirm" }, e.message); }
  if (owner.yours) return el("p", { class: "panel", id: "friend-confirm" }, _("This is your own friend link: share it with a friend."));
  const said = el("p", { role: "status" });
  const box = el("div", { class: "panel", id: "friend-confirm" }, el("p", {}, format(_("Add {name} as a friend?"), { name: owner.name })));
  box.append(el("div", { class: "row" },
    el("button", { type: "button", id: "friend-accept", onclick: async () => {
      try {
        const done = await api("/api/friends/add", { code });
        history.replaceState(null, "", "/account");
        said.textContent = format(_("{name} is your friend now."), { name: done.friend });
        await redraw();
      } catch (e) { showError(e.message); }
    } }, _("Add friend")),
    el("a", { href: "/account", id: "friend-decline" }, _("not now"))), said);
  return box;
}

// ----------------------------------------------------------------------------- invite to my table
function friendInvitePanel(tableId) {
  // a waiting table's "invite a friend": the friends, online first, each with a button
  const box = el("div", { class: "friend-invite", id: "friend-invite" });
  const draw = data => {
    const friends = (data?.friends) || [];
    if (!data?.name || !friends.length) { box.replaceChildren(); return; }
    box.replaceChildren(el("p", {}, _("Or invite a friend to this table:")), el("ul", { class: "friends" }, friends.map(f => {
      const said = el("span", { class: "dim", role: "status" }, friendsInvited.has(`${tableId} ${f.name}`) ? format(_("{name} is invited."), { name: f.name }) : "");
      return el("li", { class: "friend", "data-name": f.name }, friendName(f), " ",
        el("button", { type: "button", class: "secondary friend-invite-button", "aria-label": format(_("invite {name} to this table"), { name: f.name }), onclick: async () => {
          try {
            await api("/api/friends/invite", { name: f.name, table: tableId, token: tableToken(tableId) || null });
            friendsInvited.add(`${tableId} ${f.name}`);
            said.textContent = format(_("{name} is invited."), { name: f.name });
          } catch (e) { showError(e.message); }
        } }, _("invite to my table")), " ", said);
    })));
  };
  draw(friendsCache);
  friendsData(false).then(d => { if (document.body.contains(box)) draw(d); });
  return box;
}
