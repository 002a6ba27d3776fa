// The player's account page (/account): made on the first visit, a name chosen once, the
// sessions (this browser's and others', each revocable), passkeys (added here, signed in with on
// another device: from the browser's suggestions in the name field, WebAuthn's conditional
// mediation, or the "sign in with a passkey" button; a named account signs in to another one
// with its passkey), sign out, delete the account.
// Loaded after page.js (words, el(), api(), the CSRF header).
"use strict";

async function accountCall(path, body) {
  // page.js's api() with the account's CSRF header (it reads it from the cookie)
  return api(path, body === undefined ? {} : body);
}

function sessionRow(s, render) {
  const when = new Date(s.seen_at * 1000).toLocaleString(LANG);
  const label = s.current ? _("this browser") : (s.agent || _("another browser"));
  const end = el("button", { type: "button", class: "revoke", onclick: async () => {
    try {
      if (s.current) await accountCall("/api/account/signout");
      else await accountCall("/api/account/sessions", { id: s.id });
      await render();
    } catch (e) { showError(e.message); }
  } }, s.current ? _("Sign out") : _("End this session"));
  return el("li", { class: "session" }, el("span", {}, format(_("{browser}, last seen {when}"), { browser: label, when })), " ", end);
}

// WebAuthn's binary fields travel as unpadded base64url in the server's JSON
function toB64u(buf) {
  let s = "";
  for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function fromB64u(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - text.length % 4) % 4));
  return Uint8Array.from(s, c => c.charCodeAt(0)).buffer;
}
function passkeysWork() { return !!(window.PublicKeyCredential && navigator.credentials && window.isSecureContext); }

function passkeyError(e) {
  // the browser's refusals in the reader's words; the server's come translated already
  if (e && e.name === "NotAllowedError") return _("The passkey was not used (cancelled, or the time ran out).");
  if (e && e.name === "InvalidStateError") return _("This device holds a passkey of this account already.");
  if (e && e.name === "SecurityError") return _("Passkeys work only at this server's own secure address (https).");
  return e?.message ? e.message : String(e);
}

async function addPasskey(label) {
  const { publicKey: o } = await accountCall("/api/account/passkeys/options");
  o.challenge = fromB64u(o.challenge);
  o.user.id = fromB64u(o.user.id);
  o.excludeCredentials = (o.excludeCredentials || []).map(c => ({ ...c, id: fromB64u(c.id) }));
  const cred = await navigator.credentials.create({ publicKey: o });
  const r = cred.response;
  const credential = { id: cred.id, rawId: toB64u(cred.rawId), type: cred.type,
    response: { clientDataJSON: toB64u(r.clientDataJSON), attestationObject: toB64u(r.attestationObject),
      transports: r.getTransports ? r.getTransports() : [] },
    clientExtensionResults: cred.getClientExtensionResults(), authenticatorAttachment: cred.authenticatorAttachment || undefined };
  return accountCall("/api/account/passkeys", { credential, label });
}

async function signInWithPasskey(how = {}) {
  // how: { mediation: "conditional", signal, onOptions(publicKey) } for the name field's
  // suggestions; { leave: true } when the player agreed to leave an account no passkey can reach
  const { publicKey: o } = await accountCall("/api/account/passkeys/signin/options");
  if (how.onOptions) how.onOptions(o);
  o.challenge = fromB64u(o.challenge);
  o.allowCredentials = [];
  const request = { publicKey: o };
  if (how.mediation) request.mediation = how.mediation;
  if (how.signal) request.signal = how.signal;
  const cred = await navigator.credentials.get(request);
  const r = cred.response;
  const credential = { id: cred.id, rawId: toB64u(cred.rawId), type: cred.type,
    response: { clientDataJSON: toB64u(r.clientDataJSON), authenticatorData: toB64u(r.authenticatorData),
      signature: toB64u(r.signature), userHandle: r.userHandle ? toB64u(r.userHandle) : undefined },
    clientExtensionResults: cred.getClientExtensionResults(), authenticatorAttachment: cred.authenticatorAttachment || undefined };
  return accountCall("/api/account/passkeys/signin", how.leave ? { credential, leave: true } : { credential });
}

// The name field's waiting request for a passkey (conditional mediation): its AbortController.
let autofill = null;
function stopAutofill() { if (autofill) { autofill.abort(); autofill = null; } }

async function offerAutofill(render) {
  // the browser's passkeys among the name field's suggestions (autocomplete="username webauthn"),
  // where the browser can; the request waits until one is chosen, renewed before its challenge ends
  stopAutofill();
  if (!passkeysWork() || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return;
  // WebAuthn takes no IP address as the relying party (a home network's server): nothing to offer
  if (/^[\d.]+$|^\[|:/.test(location.hostname)) return;
  try { if (!(await PublicKeyCredential.isConditionalMediationAvailable())) return; } catch (e) { return; }
  if (!document.getElementById("name") || autofill) return;
  const mine = new AbortController();
  autofill = mine;
  document.body.dataset.passkeyAutofill = "waiting";
  let renew = null;
  const again = () => { if (autofill === mine && document.getElementById("name")) offerAutofill(render); };
  try {
    await signInWithPasskey({ mediation: "conditional", signal: mine.signal,
      onOptions: o => { renew = setTimeout(again, Math.max(30000, (o.timeout || 300000) - 30000)); } });
  } catch (e) {
    clearTimeout(renew);
    if (mine.signal.aborted || autofill !== mine) return;  // renewed, or the page moved on
    autofill = null;
    document.body.dataset.passkeyAutofill = "declined";
    // the browser declining (no passkey of this server here, none chosen) is no error to show,
    // the server's refusal is; the field offers the passkeys again when it is next focused
    if (!(e instanceof DOMException)) showError(passkeyError(e));
    const field = document.getElementById("name");
    if (field) field.addEventListener("focus", () => { if (!autofill) offerAutofill(render); }, { once: true });
    return;
  }
  clearTimeout(renew);
  if (autofill === mine) autofill = null;
  delete document.body.dataset.passkeyAutofill;
  await render();
}

function passkeyRow(p, render) {
  const made = new Date(p.created_at * 1000).toLocaleDateString(LANG);
  const used = p.used_at ? format(_("last used {when}"), { when: new Date(p.used_at * 1000).toLocaleString(LANG) }) : _("not used yet");
  const remove = el("button", { type: "button", class: "secondary remove-passkey",
    "aria-label": format(_("Remove the passkey {label}"), { label: p.label || _("Passkey") }), onclick: async () => {
    if (!confirm(format(_("Remove the passkey {label}? It will no longer sign in to this account."), { label: p.label || _("Passkey") }))) return;
    try { await accountCall("/api/account/passkeys/delete", { id: p.id }); await render(); }
    catch (e) { showError(e.message); }
  } }, _("Remove"));
  return el("li", { class: "passkey" },
    el("span", { class: "passkey-label" }, p.label || _("Passkey")), " ",
    el("span", { class: "dim" }, format(_("added {when}"), { when: made }), ", ", used), " ", remove);
}

function passkeySection(me, passkeys, sessions, render) {
  const out = [el("h2", {}, _("Passkeys"))];
  if (!passkeysWork()) {
    out.push(el("p", { class: "dim" }, _("This browser cannot use passkeys here (they need a secure address, https).")));
    return out;
  }
  if (!me.name) {
    out.push(el("p", {}, _("Have an account already, on another device? Sign in with its passkey (your browser may offer it in the name field above): this browser then keeps that account.")),
      el("p", {}, el("button", { type: "button", id: "passkey-signin", onclick: async (ev) => {
        ev.target.disabled = true;
        stopAutofill();
        try { await signInWithPasskey(); await render(); }
        catch (e) { showError(passkeyError(e)); ev.target.disabled = false; offerAutofill(render); }
      } }, _("Sign in with a passkey"))));
    return out;
  }
  out.push(el("p", { class: "dim" }, passkeys.length
    ? _("A passkey signs you in to this account on another device, or here if this browser forgets you.")
    : _("Add a passkey to keep your account: with it you sign in on another device, or here if this browser forgets you.")));
  if (passkeys.length) out.push(el("ul", { id: "passkeys" }, passkeys.map(p => passkeyRow(p, render))));
  const label = el("input", { type: "text", id: "passkey-label", name: "passkey-label", maxlength: "40", placeholder: _("e.g. my phone") });
  out.push(el("form", { id: "passkey-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const button = ev.target.querySelector("button");
    button.disabled = true;
    try { await addPasskey(label.value); await render(); }
    catch (e) { showError(passkeyError(e)); button.disabled = false; }
  } },
    el("label", { for: "passkey-label" }, _("Name this passkey (optional)")), " ", label, " ",
    el("button", { type: "submit", id: "add-passkey" }, _("Add a passkey"))));
  // another account's passkey: this browser leaves this account (its session ends) for that one
  const stranded = !passkeys.length && sessions.length <= 1;
  out.push(el("p", {}, stranded
      ? format(_("Another account? Sign in with its passkey. {name} has no passkey and no other session: add a passkey first, or you cannot come back to it."), { name: me.name })
      : format(_("Another account? Sign in with its passkey: this browser leaves {name}, which you can sign in to again with its passkey."), { name: me.name })),
    el("p", {}, el("button", { type: "button", id: "passkey-switch", class: "secondary", onclick: async (ev) => {
      if (stranded && !confirm(format(_("{name} has no passkey: if you sign in to another account, you cannot come back to {name}. Sign in to another account anyway?"), { name: me.name }))) return;
      ev.target.disabled = true;
      try { await signInWithPasskey({ leave: stranded }); await render(); }
      catch (e) { showError(passkeyError(e)); ev.target.disabled = false; }
    } }, _("Sign in to another account"))));
  return out;
}

async function renderAccount() {
  stopAutofill();
  setTitle(_("Your account"));
  let me;
  try { me = await ensureAccount(); } catch (e) { showError(e.message); return; }  // made on the first visit
  const parts = [];
  if (me.name) {
    parts.push(el("p", { id: "account-name" }, format(_("You play as {name}."), { name: me.name })));
  } else {
    const input = el("input", { id: "name", name: "name", maxlength: "24", autocomplete: "username webauthn", required: true });
    const form = el("form", { id: "name-form", onsubmit: async (ev) => {
      ev.preventDefault();
      try { await accountCall("/api/account/name", { name: input.value }); await renderAccount(); }
      catch (e) { showError(e.message); }
    } },
      el("label", { for: "name" }, _("Choose your name (once: it cannot be changed)")), " ", input, " ",
      el("button", { type: "submit" }, _("Keep this name")));
    parts.push(form);
  }
  parts.push(el("p", { class: "dim" }, _("This browser keeps your account. Signing out, or clearing the browser's data, loses it, unless you added a passkey.")));
  let sessions = [];
  try { sessions = (await api("/api/account/sessions")).sessions || []; } catch (e) { sessions = []; }
  let passkeys = [];
  if (me.name) { try { passkeys = (await api("/api/account/passkeys")).passkeys || []; } catch (e) { passkeys = []; } }
  parts.push(...passkeySection(me, passkeys, sessions, renderAccount));
  const code = /^\/f\/([A-Za-z0-9_-]{1,32})$/.exec(location.pathname);
  if (code && me.name) parts.unshift(await friendConfirm(code[1], renderAccount));
  else if (code) parts.unshift(el("p", { class: "panel", id: "friend-confirm" }, _("A friend shared this link: choose your name below, then add your friend.")));
  parts.push(await friendsSection(renderAccount));
  parts.push(el("h2", {}, _("Sessions")), el("ul", { id: "sessions" }, sessions.map(s => sessionRow(s, renderAccount))));
  const del = el("button", { type: "button", id: "delete-account", onclick: async () => {
    if (!confirm(_("Delete your account? Your name is removed from every table you played at."))) return;
    try { await accountCall("/api/account/delete"); location.href = "/"; } catch (e) { showError(e.message); }
  } }, _("Delete my account"));
  parts.push(el("p", {}, del), el("p", {}, el("a", { href: "/" }, _("Back to the tables"))));
  main.replaceChildren(...parts);
  if (!me.name) offerAutofill(renderAccount);  // not awaited: it waits for the player's choice
}

(async () => { await loadLanguage(); await renderAccount(); })();
