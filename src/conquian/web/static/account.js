// The player's account page (/account): made on the first visit, a name chosen once, the
// sessions (this browser's and others', each revocable), sign out, delete the account.
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

async function renderAccount() {
  setTitle(_("Your account"));
  let me;
  try { me = await api("/api/account"); } catch (e) { showError(e.message); return; }
  const parts = [];
  if (me.name) {
    parts.push(el("p", { id: "account-name" }, format(_("You play as {name}."), { name: me.name })));
  } else {
    const input = el("input", { id: "name", name: "name", maxlength: "24", autocomplete: "nickname", required: true });
    const form = el("form", { id: "name-form", onsubmit: async (ev) => {
      ev.preventDefault();
      try { await accountCall("/api/account/name", { name: input.value }); await renderAccount(); }
      catch (e) { showError(e.message); }
    } },
      el("label", { for: "name" }, _("Choose your name (once: it cannot be changed)")), " ", input, " ",
      el("button", { type: "submit" }, _("Keep this name")));
    parts.push(form);
  }
  parts.push(el("p", { class: "dim" }, _("This browser keeps your account. Signing out, or clearing the browser's data, loses it.")));
  let sessions = [];
  try { sessions = (await api("/api/account/sessions")).sessions || []; } catch (e) { sessions = []; }
  parts.push(el("h2", {}, _("Sessions")), el("ul", { id: "sessions" }, sessions.map(s => sessionRow(s, renderAccount))));
  const del = el("button", { type: "button", id: "delete-account", onclick: async () => {
    if (!confirm(_("Delete your account? Your name is removed from every table you played at."))) return;
    try { await accountCall("/api/account/delete"); location.href = "/"; } catch (e) { showError(e.message); }
  } }, _("Delete my account"));
  parts.push(el("p", {}, del), el("p", {}, el("a", { href: "/" }, _("Back to the tables"))));
  main.replaceChildren(...parts);
}

(async () => { await loadLanguage(); await renderAccount(); })();
