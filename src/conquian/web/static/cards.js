// The cards of the web table, drawn in SVG: faces (rank in the corner, the suit small beside it and
// large in the middle), the Spanish suits when the player chose them (oros, copas, espadas, bastos:
// R8.1's mapping, sota/caballo/rey for J, Q, K), the joker, the back; icons of the replay's buttons.
// Loaded before app.js; its functions run after app.js has loaded, so they use its _(), format(),
// ngettext(), spanishSuits() and PACK (the Spanish pack's names, from the catalogue).  Every card has a name for screen readers in the page's language.
// Only the card codes the snapshot gives are drawn: nothing hidden is ever known here.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const CARD_RANKS = { T: "10" };
const CARD_SUIT_CLASS = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };

// the suits, drawn in a box of 10 by 10
const SUIT_SHAPES = {
  h: [["path", { d: "M5 9.4 L1.1 5.2 A2.3 2.3 0 0 1 5 2.2 A2.3 2.3 0 0 1 8.9 5.2 Z" }]],
  d: [["path", { d: "M5 0.4 L8.8 5 L5 9.6 L1.2 5 Z" }]],
  s: [["path", { d: "M5 0.4 L8.9 5.4 A2.2 2.2 0 0 1 5.7 7.4 L6.6 9.6 H3.4 L4.3 7.4 A2.2 2.2 0 0 1 1.1 5.4 Z" }]],
  c: [["circle", { cx: 5, cy: 2.9, r: 2.1 }], ["circle", { cx: 2.6, cy: 6, r: 2.1 }], ["circle", { cx: 7.4, cy: 6, r: 2.1 }],
    ["path", { d: "M4.4 5.5 L3.6 9.7 H6.4 L5.6 5.5 Z" }]],
};
const SPANISH_SHAPES = {
  d: [["circle", { cx: 5, cy: 5, r: 4.5 }], ["circle", { cx: 5, cy: 5, r: 2.8, fill: "none", stroke: "#fffdf7", "stroke-width": 0.7 }],
    ["circle", { cx: 5, cy: 5, r: 1 , fill: "#fffdf7" }]],
  h: [["path", { d: "M1.4 0.8 H8.6 Q8.6 5.4 5.7 6.1 V7.9 H7.6 V9.6 H2.4 V7.9 H4.3 V6.1 Q1.4 5.4 1.4 0.8 Z" }]],
  s: [["path", { d: "M5 0.2 L5.9 1.6 V6.6 H4.1 V1.6 Z" }], ["path", { d: "M2.2 6.5 H7.8 V7.4 H2.2 Z" }],
    ["path", { d: "M4.4 7.4 H5.6 V9.2 H4.4 Z" }], ["circle", { cx: 5, cy: 9.3, r: 0.7 }]],
  c: [["path", { d: "M3.6 9.7 L2.5 4.2 Q2.1 0.9 4.9 0.4 Q7.9 0.3 7.5 3.4 L6.3 9.7 Z" }],
    ["circle", { cx: 3.6, cy: 3.4, r: 0.6, fill: "#fffdf7" }], ["circle", { cx: 6.2, cy: 5.2, r: 0.6, fill: "#fffdf7" }]],
};
const STAR = "M5 0.4 L6.3 3.6 L9.7 3.8 L7.1 6 L7.9 9.4 L5 7.5 L2.1 9.4 L2.9 6 L0.3 3.8 L3.7 3.6 Z";

function svgEl(tag, attrs, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

// a suit's shapes at (x, y), scaled from 10 to size
function suitShape(shapes, x, y, size, cls) {
  return svgEl("g", { transform: `translate(${x} ${y}) scale(${size / 10})`, class: cls || null },
    shapes.map(([tag, attrs]) => svgEl(tag, attrs)));
}

// "seven of spades" / "siete de picas"; with the Spanish suits "7 de copas", "sota de oros"
function cardName(code, spanish) {
  if (code.startsWith("X")) {
    const m = code.match(/^X\(([^)]+)\)/);
    return m ? format(_("joker as {card}"), { card: cardName(m[1], spanish) }) : _("joker");
  }
  const r = code.slice(0, -1), s = code.slice(-1);
  if (spanish && PACK.words[code]) return PACK.words[code];
  const ranks = { A: _("ace"), 2: _("two"), 3: _("three"), 4: _("four"), 5: _("five"), 6: _("six"), 7: _("seven"),
    8: _("eight"), 9: _("nine"), T: _("ten"), J: _("jack"), Q: _("queen"), K: _("king") };
  const suits = { c: _("clubs"), d: _("diamonds"), h: _("hearts"), s: _("spades") };
  return format(_("{rank} of {suit}"), { rank: ranks[r] || r, suit: suits[s] || s });
}

// the face of a card, 50 by 70
function cardSvg(code, spanish) {
  const svg = svgEl("svg", { viewBox: "0 0 50 70", "aria-hidden": "true", focusable: "false", class: "face" },
    svgEl("rect", { class: "paper", x: 0.75, y: 0.75, width: 48.5, height: 68.5, rx: 5 }));
  if (code.startsWith("X")) {
    const m = code.match(/^X\(([^)]+)\)/);
    svg.append(suitShape([["path", { d: STAR }]], 10, 14, 30, "pip big"));
    if (m) {
      const r = m[1].slice(0, -1), s = m[1].slice(-1);
      svg.append(svgEl("text", { x: 25, y: 62, class: "named", "text-anchor": "middle" }, (spanish ? PACK.faces[r] : null) || CARD_RANKS[r] || r),
        suitShape(spanish ? SPANISH_SHAPES[s] || [] : SUIT_SHAPES[s] || [], 32, 53, 9, "pip"));
    }
    return svg;
  }
  const r = code.slice(0, -1), s = code.slice(-1);
  const shapes = spanish ? SPANISH_SHAPES[s] : SUIT_SHAPES[s];
  const rank = (spanish ? PACK.faces[r] : null) || CARD_RANKS[r] || r;
  svg.append(svgEl("text", { x: r === "T" ? 2.5 : 4, y: 17, class: `rank${r === "T" ? " wide" : ""}` }, rank));
  if (shapes) {
    svg.append(suitShape(shapes, 4.5, 20.5, 10, "pip"));
    svg.append(suitShape(shapes, 17, 31, 28, `pip big${spanish ? " badge" : ""}`));
  }
  return svg;
}

// a card: a button in the hand, else an image; data-card and the classes the page relies on
function cardFace(code, opts = {}) {
  const spanish = typeof spanishSuits === "function" && spanishSuits();
  const s = code.startsWith("X") ? "" : code.slice(-1);
  const cls = ["card"];
  if (code.startsWith("X")) cls.push("joker");
  else if (spanish) cls.push("spanish", `es-${PACK.suits[s] || s}`);
  else { cls.push(CARD_SUIT_CLASS[s] || s); if (s === "h" || s === "d") cls.push("red"); }
  if (opts.small) cls.push("small");
  const name = cardName(code, spanish);
  const e = document.createElement(opts.button ? "button" : "span");
  e.className = cls.join(" ");
  if (opts.button) e.type = "button"; else e.setAttribute("role", "img");
  e.setAttribute("aria-label", name);
  e.title = name;
  e.append(cardSvg(code, spanish));
  return e;
}

// someone's hand seen from across the table: a few backs and how many cards
function cardBacks(n) {
  const words = format(ngettext("{n} card", "{n} cards", n), { n });
  const box = document.createElement("span");
  box.className = "backs";
  const pile = document.createElement("span");
  pile.className = "pile";
  pile.setAttribute("aria-hidden", "true");
  for (let i = 0; i < Math.min(n, 3); i++) {
    pile.append(svgEl("svg", { viewBox: "0 0 50 70", class: "back", focusable: "false" },
      svgEl("rect", { class: "paper", x: 0.75, y: 0.75, width: 48.5, height: 68.5, rx: 5 }),
      svgEl("rect", { class: "inner", x: 5, y: 5, width: 40, height: 60, rx: 3 }),
      suitShape([["path", { d: SUIT_SHAPES.d[0][1].d }]], 15, 25, 20, "mark")));
  }
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = words;
  box.append(pile, count);
  return box;
}

// the replay's buttons: first, back, forward, last (no font need hold ⏮ or ⏭)
function cardsIcon(kind) {
  const paths = {
    first: "M3 3 H5 V13 H3 Z M13 3 V13 L6 8 Z",
    back: "M12 3 V13 L4 8 Z",
    forward: "M4 3 V13 L12 8 Z",
    last: "M11 3 H13 V13 H11 Z M3 3 V13 L10 8 Z",
  };
  return svgEl("svg", { viewBox: "0 0 16 16", class: "icon", "aria-hidden": "true", focusable: "false" },
    svgEl("path", { d: paths[kind] || "", fill: "currentColor" }));
}
