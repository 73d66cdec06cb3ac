// Cards drawn with CSS: poker cards (rank + suit), Lost Cities (colour + rank), Flip 7, 151.
"use strict";
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣", S: "♠", H: "♥", D: "♦", C: "♣" };
const LC_NAMES = ["yellow", "blue", "white", "green", "red"];

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}

// A card element from a view's card object; null draws a face-down card.
function cardEl(card, extra) {
  if (card == null) return el("span", { class: "card back" + (extra ? " " + extra : ""), role: "img", "aria-label": "face-down card" });
  let cls = "card", main = card.text || "?", sub = "";
  if (card.suit !== undefined && card.rank !== undefined) {
    const s = SUITS[card.suit] || card.suit;
    main = (card.rank === "T" ? "10" : card.rank) + s;
    if ("hdHD".includes(card.suit)) cls += " red";
  } else if (card.color !== undefined) {
    cls += " lc" + card.color; main = card.rank; sub = LC_NAMES[card.color];
  } else if (card.id !== undefined && typeof card.text === "string") {
    if (card.id <= 12) cls += " f7num"; else if (card.id <= 18) cls += " f7mod"; else cls += " f7act";
    main = card.text.replace("_", " ");
  }
  const e = el("span", { class: cls + (extra ? " " + extra : ""), role: "img", "aria-label": card.text || main }, main);
  if (sub) e.append(el("small", { text: sub }));
  return e;
}

function cardsEl(cards, extra) {
  const box = el("div", { class: "cards" });
  for (const c of cards || []) box.append(cardEl(c, extra));
  return box;
}

// The shared poker table (Kuhn, Leduc, hold'em): seats, board, pot.
function pokerTable(v, opts) {
  const root = el("div", {});
  const info = el("div", { class: "info" });
  info.append(el("span", { class: "pot", text: "Pot " + v.pot }));
  if (v.street) info.append(el("span", { text: "Street: " + v.street }));
  if (v.blinds) info.append(el("span", { text: "Blinds " + v.blinds.join("/") }));
  root.append(info);
  root.append(el("h3", { text: "Board" }), cardsEl(v.board));
  const seats = el("div", { class: "seats" });
  for (const s of v.seats) {
    const cls = "seat" + (s.seat === opts.me ? " me" : "") + (s.seat === opts.toAct ? " acting" : "") + (s.folded ? " out" : "");
    const box = el("div", { class: cls, "data-seat": s.seat });
    let title = (s.seat === opts.me ? "You (seat " + s.seat + ")" : opts.names(s.seat)) + (s.button ? " · button" : "");
    const marks = el("span", { class: "marks" });
    if (s.blind) marks.append(el("abbr", { class: "blind " + s.blind.toLowerCase(), title: s.blind === "SB" ? "small blind" : "big blind", text: s.blind }));
    box.append(el("h3", { text: title + " " }, marks), cardsEl(s.cards));
    const bits = [];
    if (s.stack !== undefined) bits.push("stack " + s.stack);
    if (s.bet !== undefined) bits.push("bet " + s.bet);
    bits.push("in pot " + s.in_pot);
    if (s.folded) bits.push("folded");
    if (s.net !== undefined && s.net !== null && opts.over) bits.push("net " + (s.net > 0 ? "+" : "") + s.net);
    box.append(el("div", { class: "small", text: bits.join(" · ") }));
    seats.append(box);
  }
  root.append(seats);
  return root;
}
