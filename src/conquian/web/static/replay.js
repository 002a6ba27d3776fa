// The replay of a finished match, step by step.
// Protocol: docs/protocol.md (version 1). Classic scripts, loaded in order by index.html
// (cards.js, page.js, lobby.js, table.js, replay.js, app.js), sharing one global scope; no build step.
"use strict";

// ----------------------------------------------------------------------------- replay
async function replayPage(id) {
  let data;
  try { data = await api(`/api/tables/${id}/replay`); } catch (e) { main.replaceChildren(el("p", {}, e.message)); return; }
  setTitle(format(_("{name} - replay"), { name: data.name }));
  spanishPack = spanishPackOf(data.variant);
  let i = 0;
  const name = s => data.names[s - 1] || `p${s}`;
  function show() {
    const f = data.frames[i], d = f.deal;
    const box = el("div", { class: "panel", id: "replay" },
      el("div", { class: "row" },
        // drawn icons: the ⏮/⏭ glyphs were empty boxes in Debian's Chromium
        el("button", { type: "button", id: "first", onclick: () => go(0) }, cardsIcon("first"), " " + _("start")),
        el("button", { type: "button", id: "back", onclick: () => go(i - 1) }, cardsIcon("back"), " " + _("back")),
        el("button", { type: "button", id: "forward", onclick: () => go(i + 1) }, _("forward") + " ", cardsIcon("forward")),
        el("button", { type: "button", id: "last", onclick: () => go(data.frames.length - 1) }, _("end") + " ", cardsIcon("last")),
        el("span", { id: "step" }, format(_("deal {deal}, step {step} ({index}/{total})"), { deal: f.deal_number, step: f.step, index: i + 1, total: data.frames.length }))),
      el("p", { id: "replay-action" }, f.action ? `${f.action.replace(/^p(\d+)/, (m, s) => name(Number(s)))}` : _("the deal starts")),
      Object.entries(f.hands).map(([s, cards]) => el("div", { class: "row" }, el("strong", {}, `${name(Number(s))}: `), cards.map(c => cardEl(c, { small: true })))));
    if (spanishPack) box.append(suitSwitch(show));
    if (d.family === "conquian" || d.family === "mexicano") {
      for (const side of d.sides) box.append(el("div", {}, el("strong", {}, format(_("{name} down:"), { name: name(side.seat) }) + " "), side.melds.map(m => el("span", { class: "meld" }, m.map(c => cardEl(c, { small: true }))))));
      box.append(el("div", {}, _("In play:"), " ", d.card_in_play ? cardEl(d.card_in_play) : _("nothing"), " " + format(_("pack {n}"), { n: d.pack })));
    } else {
      box.append(el("div", {}, d.combos.map(c => el("span", { class: "meld" }, el("span", { class: "num" }, `${c.number}.`), c.cards.map(x => cardEl(x, { small: true })), el("span", { class: "owner" }, name(c.owner))))));
      box.append(el("div", {}, _("Stock:"), " ", d.stock.map(c => cardEl(c, { small: true })), " " + format(_("pack {n}"), { n: d.pack })));
    }
    if (f.scores) box.append(el("p", {}, _("Scores:"), " ", f.scores.map((v, k) => `${name(k + 1)} ${v > 0 ? "+" : ""}${v}`).join(", ")));
    main.replaceChildren(box, el("p", {}, el("a", { href: `/api/tables/${id}/record` }, _("Download the record")), " ", el("a", { href: "/", "data-link": 1 }, _("Lobby"))));
  }
  function go(k) { i = Math.max(0, Math.min(data.frames.length - 1, k)); show(); }
  document.onkeydown = ev => { if (ev.key === "ArrowRight") go(i + 1); else if (ev.key === "ArrowLeft") go(i - 1); else if (ev.key === "Home") go(0); else if (ev.key === "End") go(data.frames.length - 1); };
  show();
}
