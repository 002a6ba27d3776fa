// The replay of a finished match, step by step, and the review of a seat's decisions in a deal
// (docs/review.md, "In the browser"): its marks along the deal, each a button to the position
// where the decision was taken, with the choices the seat had and what the search made of them.
// Protocol: docs/protocol.md (version 1). Classic scripts sharing one global scope, no build step;
// each page's order is set in one place (conquian.web.pages.TABLE_SCRIPTS, conquian.web.site.OFFLINE_SCRIPTS).
"use strict";

// the marks, best first, and their signs as chess annotators write them (so that they are not
// told by colour alone); "good" is drawn as a tick
const REVIEW_MARKS = ["good", "inaccuracy", "mistake", "blunder"];
const MARK_SIGNS = { good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };
let replayGeneration = 0;  // a new page stops the polling of the one before

function markSign(mark) {
  if (mark !== "good") return el("span", { class: "sign", "aria-hidden": "true" }, MARK_SIGNS[mark] || "");
  return svgEl("svg", { viewBox: "0 0 16 16", class: "icon sign", "aria-hidden": "true", focusable: "false" },
    svgEl("path", { d: "M2.5 8.5 L6.5 12.5 L13.5 4", fill: "none", stroke: "currentColor", "stroke-width": "2.4",
      "stroke-linecap": "round", "stroke-linejoin": "round" }));
}

async function reviewFetch(path, body) {
  // the review's answers, with their status (202: under way; 503: the server is busy)
  path += `${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(LANG)}`;
  const id = (/^\/api\/tables\/([^/?]+)\//.exec(path) || [])[1];
  const headers = tokenHeaders(id);
  const res = await fetch(path, body === undefined ? { headers } : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  return { status: res.status, data, retry: Number(res.headers.get("Retry-After")) || 2 };
}

// ----------------------------------------------------------------------------- replay
async function replayPage(id) {
  const generation = ++replayGeneration;
  let data;
  try { data = await api(`/api/tables/${id}/replay`, undefined, id); } catch (e) { main.replaceChildren(el("p", {}, e.message)); return; }
  setTitle(format(_("{name} - replay"), { name: data.name }));
  spanishPack = spanishPackOf(data.variant);
  let i = 0;
  const name = s => { const n = data.names[s - 1]; return n ? seatName(n, String(n).split(" ")[0].toLowerCase(), s) : `p${s}`; };
  // each frame's move in words, as the server tells it in the page's language (data.moves)
  const words = k => suited(data.moves[k], "words");
  const frameAt = new Map(data.frames.map((f, k) => [`${f.deal_number}:${f.step}`, k]));
  // the reviews asked for on this page, by "deal:seat": {status, done, total, review, words, message}
  const reviews = new Map();
  let reviewSeat = 1;

  function show() {
    const focused = document.activeElement?.id;
    const f = data.frames[i], d = f.deal;
    const box = el("div", { class: "panel", id: "replay" },
      el("div", { class: "row" },
        // drawn icons: the ⏮/⏭ glyphs were empty boxes in Debian's Chromium
        el("button", { type: "button", id: "first", onclick: () => go(0) }, cardsIcon("first"), ` ${_("start")}`),
        el("button", { type: "button", id: "back", onclick: () => go(i - 1) }, cardsIcon("back"), ` ${_("back")}`),
        el("button", { type: "button", id: "forward", onclick: () => go(i + 1) }, `${_("forward")} `, cardsIcon("forward")),
        el("button", { type: "button", id: "last", onclick: () => go(data.frames.length - 1) }, `${_("end")} `, cardsIcon("last")),
        el("span", { id: "step" }, format(_("deal {deal}, step {step} ({index}/{total})"), { deal: f.deal_number, step: f.step, index: i + 1, total: data.frames.length }))),
      el("p", { id: "replay-action" }, data.moves[i] ? words(i) : _("the deal starts")),
      Object.entries(f.hands).map(([s, cards]) => el("div", { class: "row" }, el("strong", {}, `${name(Number(s))}: `), cards.map(c => cardEl(c, { small: true })))));
    if (spanishPack) box.append(suitSwitch(show));
    if (d.family === "conquian" || d.family === "mexicano") {
      for (const side of d.sides) box.append(el("div", {}, el("strong", {}, `${format(_("{name} down:"), { name: name(side.seat) })} `), side.melds.map(m => el("span", { class: "meld" }, m.map(c => cardEl(c, { small: true }))))));
      box.append(el("div", {}, _("In play:"), " ", d.card_in_play ? cardEl(d.card_in_play) : _("nothing"), ` ${format(_("pack {n}"), { n: d.pack })}`));
    } else {
      box.append(el("div", {}, d.combos.map(c => el("span", { class: "meld" }, el("span", { class: "num" }, `${c.number}.`), c.cards.map(x => cardEl(x, { small: true })), el("span", { class: "owner" }, name(c.owner))))));
      box.append(el("div", {}, _("Discard pile:"), " ", d.stock.map(c => cardEl(c, { small: true })), ` ${format(_("pack {n}"), { n: d.pack })}`));
    }
    if (f.scores) box.append(el("p", {}, _("Scores:"), " ", f.scores.map((v, k) => `${name(k + 1)} ${v > 0 ? "+" : ""}${v}`).join(", ")));
    main.replaceChildren(box, reviewPanel(f), el("p", {}, recordLink(id, {}), " ", el("a", { href: "/", "data-link": 1 }, _("Lobby"))));
    // the control used keeps the focus across the redrawing (a mark, a button, the seat's choice)
    const again = focused && document.getElementById(focused);
    if (again) again.focus();
  }
  function go(k) { i = Math.max(0, Math.min(data.frames.length - 1, k)); show(); }
  document.onkeydown = ev => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || (ev.target?.closest?.("select, input, textarea, summary"))) return;
    if (ev.key === "ArrowRight") go(i + 1); else if (ev.key === "ArrowLeft") go(i - 1); else if (ev.key === "Home") go(0); else if (ev.key === "End") go(data.frames.length - 1);
  };

  // --------------------------------------------------------------------------- the review
  function reviewPanel(f) {
    const deal = f.deal_number;
    const seats = data.names.length ? data.names.length : Object.keys(f.hands).length;
    const r = reviews.get(`${deal}:${reviewSeat}`);
    const busy = r && (r.status === "running" || r.status === "waiting");
    const pick = el("select", { id: "review-seat" }, Array.from({ length: seats }, (_x, k) => el("option", { value: k + 1, selected: k + 1 === reviewSeat }, name(k + 1))));
    pick.addEventListener("change", () => { reviewSeat = Number(pick.value); show(); });
    const panel = el("section", { class: "panel review", id: "review", "aria-labelledby": "review-title" },
      el("h2", { id: "review-title" }, format(_("Review of deal {deal}"), { deal })),
      el("div", { class: "row" },
        el("label", { for: "review-seat", class: "inline" }, _("Seat to review:")), pick,
        // never disabled, so that it keeps the focus: a click while the review runs does nothing
        el("button", { type: "button", id: "review-start", "aria-disabled": busy ? "true" : null, onclick: () => { if (!busy) startReview(deal, reviewSeat); } }, _("Review"))),
      el("p", { class: "dim small" }, format(_("Each choice {name} had is played out on many re-deals of the cards {name} could not see; its mark says what it cost in chance to win."), { name: name(reviewSeat) })));
    if (!r) return panel;
    if (r.status === "running" || r.status === "waiting") {
      const bar = el("progress", { id: "review-progress", max: Math.max(r.total, 1), "aria-label": _("review progress") });
      if (r.total) bar.value = r.done;
      panel.append(el("div", { class: "row", "aria-live": "polite" }, bar, el("span", { id: "review-status" },
        r.status === "waiting" ? r.message : format(_("reviewing {name}: decision {done} of {total}"), { name: name(r.seat), done: r.done, total: r.total }))));
      return panel;
    }
    if (r.status === "error") {
      panel.append(el("p", { id: "review-error", class: "review-error", role: "alert" }, r.message));
      return panel;
    }
    const rv = r.review, markWord = m => (r.words.marks?.[m]) || _(m);
    // a reviewed move in the server's words (the review keeps the notation)
    const said = act => suited(r.words.moves?.[act], "words") ?? act;
    // the accuracy, the marks along the deal, the decision about to be played here, then the counts and turning points
    panel.append(reviewAccuracy(rv), reviewTimeline(rv, markWord, said, f));
    const here = f.deal_number === rv.deal && rv.decisions.find(x => x.action_index === f.step + 1);
    if (here) panel.append(decisionPanel(rv, here, markWord, said));
    else panel.append(el("p", { class: "dim", id: "review-hint" }, _("Choose a mark to see that decision: the choices, their chances and what the move cost.")));
    panel.append(reviewSummary(rv, markWord, said));
    panel.append(el("details", { class: "review-text" }, el("summary", {}, _("The review as text")), el("pre", {}, r.words.report)));
    return panel;
  }

  function stepOf(decision) { return decision.action_index - 1; }  // the position where it was taken
  function jump(rv, decision) { const k = frameAt.get(`${rv.deal}:${stepOf(decision)}`); if (k !== undefined) go(k); }
  function pct(x) { return `${Math.round(x * 100)}%`; }

  function reviewAccuracy(rv) {
    const who = name(Number(rv.seat.slice(1)));
    const acc = rv.summary.accuracy;
    return el("p", { class: "accuracy", id: "review-accuracy" }, acc === null ? _("no decision to review")
      : format(_("{name}'s accuracy: {percent}%"), { name: who, percent: Math.round(acc * 100) }), " ",
      el("span", { class: "dim small" }, format(ngettext("{n} decision reviewed, {forced} forced, {playouts} playouts a choice", "{n} decisions reviewed, {forced} forced, {playouts} playouts a choice", rv.decisions.length), { n: rv.decisions.length, forced: rv.forced, playouts: rv.playouts })));
  }

  function reviewSummary(rv, markWord, said) {
    const box = el("div", { id: "review-summary" });
    box.append(el("table", { class: "counts" }, el("caption", { class: "dim small" }, _("Decisions by mark")),
      el("tr", {}, REVIEW_MARKS.map(m => el("th", { scope: "col" }, el("span", { class: `mark mark-${m}` }, markSign(m)), " ", markWord(m)))),
      el("tr", {}, REVIEW_MARKS.map(m => el("td", { "data-mark": m }, String(rv.summary.counts[m]))))));
    const turning = rv.summary.turning_points.map(n => rv.decisions.find(x => x.number === n)).filter(Boolean);
    if (turning.length) {
      box.append(el("h3", {}, _("Turning points")), el("ol", { class: "turning" }, turning.map(x =>
        el("li", {}, el("button", { type: "button", class: "link-button", id: `turning-${x.number}`, onclick: () => jump(rv, x) },
          format(_("decision {n} (step {step}): {move}, {mark}, cost {cost}"), { n: x.number, step: stepOf(x), move: said(x.played), mark: markWord(x.mark), cost: pct(x.cost) }))))));
    }
    return box;
  }

  function reviewTimeline(rv, markWord, said, f) {
    const who = name(Number(rv.seat.slice(1)));
    return el("nav", { class: "timeline", "aria-label": format(_("{name}'s decisions along the deal"), { name: who }) },
      el("p", { class: "dim small", "aria-hidden": "true" }, _("The marks along the deal (the number under each is its step):")),
      el("ol", {}, rv.decisions.map(x => {
        const current = f.deal_number === rv.deal && f.step === stepOf(x);
        const label = format(_("decision {n}, step {step}: {move}, {mark}"), { n: x.number, step: stepOf(x), move: said(x.played), mark: markWord(x.mark) });
        return el("li", {}, el("button", { type: "button", class: `mark mark-${x.mark}${current ? " current" : ""}`, id: `mark-${x.number}`,
          "data-step": stepOf(x), "data-mark": x.mark, "aria-label": label, title: label, "aria-current": current ? "step" : null,
          onclick: () => jump(rv, x) }, markSign(x.mark), el("span", { class: "at", "aria-hidden": "true" }, String(stepOf(x)))));
      })));
  }

  function decisionPanel(rv, x, markWord, said) {
    const points = x.candidates.some(c => c.points !== null);
    const rows = [...x.candidates].sort((a, b) => b.win - a.win || (b.points || 0) - (a.points || 0));
    const note = c => [c.action === x.best ? _("best") : null, c.action === x.played ? _("played") : null,
      c.action === x.foster ? _("Foster's choice") : null].filter(Boolean).join(", ");
    const box = el("div", { id: "review-decision", class: "decision" },
      el("h3", {}, format(_("Decision {n} of {total} (step {step}): {name} to play"), { n: x.number, total: rv.decisions.length, step: stepOf(x), name: name(Number(rv.seat.slice(1))) }), " ",
        el("span", { class: `mark mark-${x.mark}` }, markSign(x.mark), " ", markWord(x.mark))),
      el("table", { class: "choices" },
        el("caption", { class: "dim small" }, _("The choices, best first")),
        el("tr", {}, el("th", { scope: "col" }, _("Choice")), el("th", { scope: "col" }, _("Chance to win")),
          points ? el("th", { scope: "col" }, _("Expected points")) : null, el("th", { scope: "col" }, _("Note"))),
        rows.map(c => el("tr", { class: [c.action === x.played ? "played" : "", c.action === x.best ? "best" : ""].join(" ").trim() || null },
          el("td", { class: "move" }, said(c.action)), el("td", {}, pct(c.win)),
          points ? el("td", {}, c.points === null ? "" : `${c.points > 0 ? "+" : ""}${c.points.toFixed(1)}`) : null,
          el("td", {}, note(c))))));
    box.append(el("p", { id: "review-verdict" }, x.best === x.played
      ? format(_("{move} was the best choice."), { move: said(x.played) })
      : format(_("{move} cost {cost} of a win: {best} was best."), { move: said(x.played), cost: pct(x.cost), best: said(x.best) })));
    if (x.foster_differs) box.append(el("p", { id: "review-foster" }, format(_("Foster would have played {move}."), { move: said(x.foster) })));
    return box;
  }

  async function startReview(deal, seat) {
    const key = `${deal}:${seat}`;
    reviews.set(key, { status: "running", seat, done: 0, total: 0 });
    show();
    let post = true;
    for (;;) {
      if (generation !== replayGeneration) return;
      let answer;
      try {
        answer = post ? await reviewFetch(`/api/tables/${id}/review`, { seat, deal })
          : await reviewFetch(`/api/tables/${id}/review?seat=${seat}&deal=${deal}`);
      } catch (e) { answer = { status: 0, data: null, retry: 2 }; }
      if (generation !== replayGeneration) return;
      const a = answer.data || {};
      let wait = 500;
      if (answer.status === 200 && a.status === "done") { reviews.set(key, { status: "done", seat, review: a.review, words: a.words, cached: a.cached }); show(); return; }
      if (answer.status === 202 || (answer.status === 200 && a.status === "running")) { reviews.set(key, { status: "running", seat, done: a.done, total: a.total }); post = false; }
      else if (answer.status === 200 && a.status === "none") post = true;  // another server process: ask it
      else if (answer.status === 503 && a.error && a.error.code === "review_busy") { reviews.set(key, { status: "waiting", seat, done: 0, total: 0, message: a.error.message }); post = true; wait = answer.retry * 1000; }
      else {
        reviews.set(key, { status: "error", seat, message: refusalText(a.error) || format(_("request failed ({status})"), { status: answer.status }) });
        show();
        return;
      }
      show();
      await new Promise(resolve => setTimeout(resolve, wait));
    }
  }

  show();
}
