// The web page's common parts: words (the catalogue), cards in words, elements, the server's API, the browser's store.
// Protocol: docs/protocol.md (version 1). Classic scripts sharing one global scope, no build step;
// each page's order is set in one place (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
// Every text from the server is put in the page as text (textContent), never as HTML.
// Every text of the page goes through _() or ngettext() (extracted into the catalogues by
// scripts/catalogues.py, translated with the catalogue the server serves at /i18n/{lang}.json);
// a text with {fields} is filled by format(), never pieced together from translated fragments.
"use strict";

const main = document.getElementById("main");
const alertBox = document.getElementById("alert");
const connBox = document.getElementById("conn");

// ----------------------------------------------------------------------------- words
let LANG = "en";            // the page's language: the stored choice, else the server's negotiation
let CATALOG = {};           // msgid -> text (a plural's forms as a list), from /i18n/{lang}.json
let NPLURALS = 2;
let LANGUAGES = [{ code: "en", name: "English" }];
let pluralRules = null;
const CLDR_CATEGORIES = ["zero", "one", "two", "few", "many", "other"];

function _(msgid) { const t = CATALOG[msgid]; return typeof t === "string" && t ? t : msgid; }
function pluralIndex(n) {
  // the language's plural categories in CLDR order are the catalogue's forms in order
  if (!pluralRules) return n === 1 ? 0 : 1;
  const cats = CLDR_CATEGORIES.filter(c => pluralRules.resolvedOptions().pluralCategories.includes(c));
  return Math.max(0, Math.min(cats.indexOf(pluralRules.select(n)), NPLURALS - 1));
}
// a text as meant in a context (the catalogue's msgctxt): a card's article, "la J♠" but "el K♠"
function pgettext(context, msgid) { const t = CATALOG[`${context}\u0004${msgid}`]; return typeof t === "string" && t ? t : msgid; }
function ngettext(singular, plural, n) {
  const forms = CATALOG[singular];
  if (Array.isArray(forms)) { const f = forms[pluralIndex(n)]; if (f) return f; }
  return n === 1 ? singular : plural;
}
function format(text, fields) { return text.replace(/\{(\w+)\}/g, (m, k) => (fields && k in fields ? String(fields[k]) : m)); }

async function loadLanguage() {
  const chosen = store.get("pref", "lang");
  const asked = chosen && /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/.test(chosen) ? chosen : "auto";
  try {
    // the offline app (a static site: no negotiation) reads its catalogue files from data-i18n
    const files = document.documentElement.dataset.i18n;
    const wanted = asked !== "auto" ? asked : ((navigator.languages || [navigator.language || "en"])[0] || "en");
    const res = await fetch(files ? `${files}${wanted.slice(0, 2).toLowerCase() === "es" ? "es" : "en"}.json` : `/i18n/${asked}.json`);
    const data = await res.json();
    LANG = data.lang || "en"; CATALOG = data.messages || {}; NPLURALS = data.nplurals || 2;
    if (data.cards) PACK = { ...PACK, ...data.cards };
    if (Array.isArray(data.languages) && data.languages.length) LANGUAGES = data.languages;
  } catch (e) { /* English */ }
  try { pluralRules = new Intl.PluralRules(LANG); } catch (e) { pluralRules = null; }
  document.documentElement.lang = LANG;
  const manifest = document.querySelector("link[rel='manifest']");
  // the manifest in the page's language (a built site's has one language: the query is ignored)
  if (manifest) manifest.setAttribute("href", `${manifest.getAttribute("href").split("?")[0]}?lang=${encodeURIComponent(LANG)}`);
  pageTexts();
}

// the rule book: the server's page in the reader's language, or the offline app's files (data-rules: one file a language)
function rulesHref(rule) {
  const files = document.documentElement.dataset.rules;
  return (files ? `${files}${encodeURIComponent(LANG)}.html` : `/rules?lang=${encodeURIComponent(LANG)}`) + (rule ? `#${rule}` : "");
}

function pageTexts() {
  // the page's own texts outside the main part, and the language switch (kept in localStorage)
  const rules = document.getElementById("rules-link");
  if (rules) { rules.textContent = _("Rules"); rules.href = rulesHref(); }
  const learn = document.getElementById("learn-link");
  // the offline app's Learn page is its own file (data-href), the server's is /learn
  if (learn) { learn.textContent = _("Learn"); learn.href = learn.dataset.href || `/learn?lang=${encodeURIComponent(LANG)}`; }
  const board = document.getElementById("board-link");
  if (board) board.textContent = _("Leaderboard");
  const account = document.getElementById("account-link");
  if (account) account.textContent = _("Your account");
  const loading = document.getElementById("loading");
  if (loading) loading.textContent = _("Loading…");
  const box = document.getElementById("lang-switch");
  if (!box) return;
  const pick = el("select", { id: "lang", "aria-label": _("Language") },
    LANGUAGES.map(l => el("option", { value: l.code, lang: l.code, selected: l.code === LANG }, l.name)));
  pick.addEventListener("change", () => { store.set("pref", "lang", pick.value); location.reload(); });
  box.replaceChildren(pick);
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function showError(text, rule) {
  alertBox.textContent = text;
  if (text && rule && /^R[0-9.]+$/.test(rule)) {
    // the refusal names a rule: a link to it in the rule book (a new tab: the table stays)
    alertBox.append(" ", el("a", { href: rulesHref(rule), target: "_blank", rel: "noopener", class: "rule-link" }, format(_("read {rule}"), { rule })));
  }
  alertBox.hidden = !text;
  if (text) { clearTimeout(showError.t); showError.t = setTimeout(() => { alertBox.hidden = true; }, 8000); }
}

// a game's and a bot's names for people (the ids stay for machines: the protocol, records)
function gameName(variant) {
  const names = { conquian: _("Conquián"), "conquian-spanish": _("Conquián with the Spanish pack"), "conquian-mexicano": _("Conquián mexicano"),
    cooncan: _("Cooncan"), "cooncan-double": _("Cooncan with two packs and jokers"), puzzles: _("Puzzles") };
  return names[variant] || variant;
}
// the host's choices of the time a seat may be away before a bot plays for it (seconds: the lobby's and the table's menus)
const AWAY_CHOICES = [30, 60, 120, 300];
const BOT_KINDS = ["expert", "master", "apprentice", "exit", "random", "foster", "beginner", "casual", "skilled"];
function botName(kind) {
  const names = { expert: _("Expert"), master: _("Master"), apprentice: _("Apprentice"), exit: _("Disciple"), random: _("Random"), foster: _("Foster"),
                  beginner: _("Beginner"), casual: _("Casual"), skilled: _("Skilled") };
  return names[kind] || kind;
}
// a rating as people read it (1,500)
function ratingText(r) {
  try { return Number(r).toLocaleString(LANG === "es" ? "es-MX" : "en-US"); } catch (e) { return String(r); }
}
// a player's rating with a "?" while it is provisional (his first rated games: "1,500?", like lichess)
function ratingShown(r, provisional) {
  return provisional ? format(_("{rating}?"), { rating: ratingText(r) }) : ratingText(r);
}
// the options of a bot menu for a game (presets from /api/presets): the levels, weakest first by
// their measured rating in that game (level_order: no level is listed above one that measures
// higher), each with its rating ("Beginner · 1,338"; two neighbours can measure within their
// intervals of each other), then the other bots by rating (when it was measured)
function botOptions(p, game, selected) {
  const bots = (p?.bots) || ["expert", "foster", "random"];
  const rated = (p?.bot_ratings)?.[game] || {};
  const levels = ((p?.level_order)?.[game] || (p?.levels) || []).filter(b => bots.includes(b));
  const rank = b => (rated[b] ? rated[b].rating : Infinity);
  const option = b => el("option", { value: b, selected: b === selected },
    rated[b] ? format(_("{name} · {rating}"), { name: botName(b), rating: ratingText(rated[b].rating) }) : botName(b));
  const others = bots.filter(b => !levels.includes(b)).sort((a, b) => rank(a) - rank(b));
  if (!levels.length) return others.map(option);
  return [el("optgroup", { label: _("Bots by level") }, levels.map(option)),
          others.length ? el("optgroup", { label: _("Other bots") }, others.map(option)) : null];
}
// a seat's name: a bot's default name ("Expert", "Expert 3") in the page's words, any other as it is
function seatName(name, kind, _seat) {
  if (!name || !BOT_KINDS.includes(kind)) return name;
  const base = kind.charAt(0).toUpperCase() + kind.slice(1);
  if (name === base) return botName(kind);
  const n = name.startsWith(`${base} `) ? name.slice(base.length + 1) : "";
  return /^\d{1,2}$/.test(n) ? format(_("{bot} {n}"), { bot: botName(kind), n }) : name;
}

// a refusal as a person reads it: the server's sentence (in the page's language) without the
// machine code before it ("seat_taken: ..."), its first letter capital; a rule's number stays
function refusalText(error) {
  let text = (error && typeof error.message === "string") ? error.message : "";
  if (error?.code && text.startsWith(`${error.code}: `)) text = text.slice(error.code.length + 2);
  return text ? text.charAt(0).toLocaleUpperCase(LANG) + text.slice(1) : "";
}

function setTitle(text) { document.getElementById("title").textContent = text; document.title = text ? `${text} - conquian` : "conquian"; }

// ----------------------------------------------------------------------------- cards
// The Spanish pack (conquian-spanish, conquián mexicano) may be shown with its own suits, as the
// player chooses (kept in localStorage): oros = diamonds, copas = hearts, espadas = spades,
// bastos = clubs (R8.1); sota, caballo, rey for J, Q, K. The notation stays R2.1's. Every card's
// words (the Spanish pack's, the French suits' symbols) and its article's context come with the
// catalogue (the terminal's words: conquian.present.pack_words), never typed here.
let PACK = { suits: {}, ranks: {}, short_suits: {}, short_ranks: {}, faces: {}, words: {}, symbols: {}, articles: {}, spanish_articles: {} };
const SPANISH_PACKS = new Set(["conquian-spanish", "conquian-mexicano"]);
let spanishPack = false;  // whether the table or replay shown is played with the Spanish pack
function spanishPackOf(variant) {
  const p = presets?.variants.find(v => v.name === variant);
  return p ? p.pack === "spanish" : SPANISH_PACKS.has(variant);
}
function spanishSuits() { return spanishPack && store.get("pref", "spanish-suits") === "1"; }

function cardWords(code) {
  if (code.startsWith("X")) return _("joker");
  if (spanishSuits() && PACK.words[code]) return PACK.words[code];
  return PACK.symbols[code] || code;
}

// a card in a sentence with its article, as the reader's language wants it: "the 7♠", "la sota de
// espadas", "el caballo de espadas", "la J♠" (one context per kind of card: each has its gender)
function theCard(code, shown) {
  const words = shown === undefined ? cardWords(code) : shown;
  // the article of the card as drawn: "la Q♠" (reina) beside the French suits, "el caballo" beside the Spanish ones
  const contexts = spanishSuits() ? PACK.spanish_articles : PACK.articles;
  if (code.startsWith("X")) return format(pgettext(contexts.joker || "card: joker", "the {card}"), { card: words });
  const r = code.slice(0, -1);
  const context = contexts[r] || contexts.number || "card: number";
  return format(pgettext(context, "the {card}"), { card: words });
}

// a text of the table in the words of the pack the page draws: the server sends each text that
// names cards of the Spanish pack twice, "key" for the French suits, "key_suits" for the Spanish ones
function suited(obj, key) {
  if (!obj) return undefined;
  return spanishSuits() && obj[`${key}_suits`] !== undefined ? obj[`${key}_suits`] : obj[key];
}

function suitSwitch(rerender) {
  // the switch: shown only where the Spanish pack is played
  const box = el("input", { type: "checkbox", id: "spanish-suits", "data-key": "spanish-suits", checked: store.get("pref", "spanish-suits") === "1" });
  box.addEventListener("change", () => { store.set("pref", "spanish-suits", box.checked ? "1" : "0"); rerender(); });
  return el("label", { class: "suit-switch" }, box, " ", _("Spanish suits (oros, copas, espadas, bastos)"));
}

function cardEl(code, opts = {}) {
  // "7h", "Th", "X", "X(4d)", "X(7d)*" (a joker named as the card it stands for; * once moved): cards.js draws it
  return cardFace(code, opts);
}

function backs(n) { return cardBacks(n); }

// the token this browser holds for a table (its seat's, else the host's): a private table's
// finished match opens to it only, sent as "Authorization: Bearer", never in an address
function tableToken(id) { return store.get("seat", id) || store.get("host", id) || ""; }
// a signed-in browser shows its session's CSRF token (the readable twin of its account cookie) on every request
function csrfHeaders() { const m = /(?:^|; )conquian_csrf=([0-9a-f]{64})/.exec(document.cookie); return m ? { "X-CSRF-Token": m[1] } : {}; }
function tokenHeaders(id) { const token = id ? tableToken(id) : ""; return { ...csrfHeaders(), ...(token ? { Authorization: `Bearer ${token}` } : {}) }; }

async function api(path, body, tokenOf) {
  // the server answers a refusal in the page's language; tokenOf: the table whose token goes along
  path += `${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(LANG)}`;
  const headers = tokenHeaders(tokenOf);
  const res = await fetch(path, body === undefined ? { headers } : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) throw new Error(refusalText(data?.error) || format(_("request failed ({status})"), { status: res.status }));
  return data;
}

// the browser's account, made first if it has none: reading it (GET) makes nothing, so a
// browser without a session asks for one (POST); a session ended elsewhere is replaced
async function ensureAccount() {
  if (Object.keys(csrfHeaders()).length) {
    try { return await api("/api/account"); } catch (e) { /* the session ended: a new account below */ }
  }
  return api("/api/account", {});
}

// a link that downloads a table's record: the browser's own download where no token is needed,
// else the record fetched with the table's token and saved under the server's file name
function recordLink(id, attrs) {
  const link = el("a", { href: `/api/tables/${id}/record`, ...attrs }, _("Download the record"));
  link.addEventListener("click", async ev => {
    if (!tableToken(id)) return;
    ev.preventDefault();
    try {
      const res = await fetch(`/api/tables/${id}/record?lang=${encodeURIComponent(LANG)}`, { headers: tokenHeaders(id) });
      if (!res.ok) { let data = null; try { data = await res.json(); } catch (e) { /* not JSON */ } throw new Error(refusalText(data?.error) || format(_("request failed ({status})"), { status: res.status })); }
      const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") || "");
      const url = URL.createObjectURL(await res.blob());
      const save = el("a", { href: url, download: name ? name[1] : `conquian-${id}.toml` });
      document.body.append(save); save.click(); save.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) { showError(e.message); }
  });
  return link;
}

const store = {
  get(kind, id) { try { return localStorage.getItem(`conquian:${kind}:${id}`); } catch (e) { return null; } },
  set(kind, id, v) { try { localStorage.setItem(`conquian:${kind}:${id}`, v); } catch (e) { /* private mode */ } },
};
