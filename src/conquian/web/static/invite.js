// The invitation to a waiting table: its link (copied however the page was reached: the
// clipboard API works only on HTTPS or this machine, so over the home network's plain HTTP the
// link is selected and copied the old way), the phone's own share sheet where the browser has one,
// and a QR code of the link (drawn by the server, /api/tables/{id}/invitation.svg) for a phone to scan.
// Classic scripts sharing one global scope, no build step; each page's order is set in one place
// (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
"use strict";

// ----------------------------------------------------------------------------- invitation
async function copyInvitation(text, shown) {
  // true when the link is on the clipboard; else it is left selected on the page
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(text); return true; } catch (e) { /* refused: the old way */ }
  }
  const selection = window.getSelection();
  selection.removeAllRanges();
  const range = document.createRange();
  range.selectNodeContents(shown);
  selection.addRange(range);
  let copied = false;
  try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
  return copied;
}

function invitationPanel(id) {
  const invite = `${location.origin}/t/${id}`;
  const shown = el("span", { class: "link", id: "invite" }, invite);
  const said = el("span", { class: "dim invite-said", id: "invite-said", role: "status", "aria-live": "polite" });
  const copy = el("button", { type: "button", class: "secondary", id: "invite-copy", onclick: async () => {
    const copied = await copyInvitation(invite, shown);
    said.textContent = copied ? _("Link copied: paste it in a message.") : _("The link is selected: copy it with Ctrl+C, or hold it on a phone.");
  } }, _("copy"));
  const buttons = el("div", { class: "row" }, copy);
  if (typeof navigator.share === "function") {
    buttons.append(el("button", { type: "button", class: "secondary", id: "invite-share", onclick: async () => {
      try { await navigator.share({ title: document.title, text: _("Come and play conquián with me:"), url: invite }); } catch (e) { /* closed */ }
    } }, _("share")));
  }
  buttons.append(said);
  const qr = el("figure", { class: "invite-qr" },
    el("img", { src: `/api/tables/${encodeURIComponent(id)}/invitation.svg`, id: "invite-qr", width: 168, height: 168,
      alt: _("QR code of the invitation link") }),
    el("figcaption", { class: "dim" }, _("On a phone: scan this code with the camera.")));
  return el("div", { class: "invitation", id: "invitation" },
    el("p", {}, _("Invite your friends with this link:"), " ", shown), buttons, qr,
    typeof friendInvitePanel === "function" ? friendInvitePanel(id) : "");
}
