// The watch page: a 151 replay and a PHH hand stepped frame by frame (buttons, slider, arrow
// keys), and a ladder drawn as SVG (win-rate heat map, rating bars with their intervals):
// the 151 arena's log or any game's `cardvec ladder --jsonl` log.
"use strict";
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text != null) e.textContent = text;
  return e;
}

function error(msg) { $("watch-error").textContent = msg || ""; }

async function post(url, text) {
  const r = await fetch(url, { method: "POST", body: text });
  const data = await r.json().catch(() => ({ error: "HTTP " + r.status }));
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

// A stepper over `count` frames calling draw(i).
function stepper(boxId, count, draw) {
  const box = $(boxId);
  box.hidden = false;
  const range = box.querySelector("input[type=range]");
  const pos = box.querySelector(".pos");
  range.max = count - 1;
  let i = 0;
  const go = (j) => { i = Math.max(0, Math.min(count - 1, j)); range.value = i; pos.textContent = "step " + i + " / " + (count - 1); box.dataset.pos = i; box.dataset.count = count; draw(i); };
  box.querySelectorAll("button").forEach((b) => {
    b.onclick = () => go({ first: 0, prev: i - 1, next: i + 1, last: count - 1 }[b.dataset.step]);
  });
  range.oninput = () => go(Number(range.value));
  box.onkeydown = (e) => { if (e.key === "ArrowRight") { go(i + 1); e.preventDefault(); } if (e.key === "ArrowLeft") { go(i - 1); e.preventDefault(); } };
  go(0);
}

function readFile(inputId, textId) {
  $(inputId).addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) $(textId).value = await f.text();
  });
}

// ---- 151 replay
function parseCode(code) { return { rank: code.slice(0, -1), suit: code.slice(-1), text: code }; }

async function loadReplay() {
  error();
  try {
    const r = await post("/api/watch/151", $("replay-text").value);
    const frames = [{ label: "start", round: r.rounds.length ? r.rounds[0].round_number : 1, snap: null }];
    for (const round of r.rounds) for (const s of round.steps) {
      const a = s.action;
      const what = a.type === "PLAY_CARD" ? "plays " + a.card : a.type === "CHOOSE_SUIT" ? "chooses " + a.chosen_suit : a.type === "DRAW_CARD" ? "draws" : "passes";
      frames.push({ label: s.player_id + " " + what, round: round.round_number, snap: s.snapshot, winner: round.winner_id });
    }
    frames.push({ label: "result: " + (r.result.winner_id || "no winner") + " (" + r.result.reason + ")", final: r.result, snap: frames[frames.length - 1].snap, round: frames[frames.length - 1].round });
    const names = Object.fromEntries(r.players.map((p) => [p.id, p.name]));
    stepper("replay-stepper", frames.length, (i) => drawReplay(frames[i], names));
  } catch (e) { error("Replay not loaded: " + e.message); }
}

function drawReplay(f, names) {
  const v = $("replay-view");
  v.textContent = "";
  v.append(el("p", { class: "info" }, el("span", { text: "Round " + f.round }), el("strong", { text: f.label })));
  const s = f.snap;
  if (!s) return;
  const t = s.table, bits = ["bank " + t.bank_size, "pile " + t.played_pile_size];
  if (t.required_suit) bits.push("suit " + (SUITS[t.required_suit] || t.required_suit));
  if (t.ace_effect_active) bits.push("ace active");
  v.append(el("div", { class: "info" }, ...bits.map((b) => el("span", { text: b }))));
  v.append(el("h3", { text: "Table" }), cardsEl(t.recent_cards.map(parseCode)));
  const seats = el("div", { class: "seats" });
  for (const id of Object.keys(s.hands)) {
    const box = el("div", { class: "seat" + (id === s.current_player_id ? " acting" : "") });
    const score = f.final ? f.final.final_scores[id] : s.scores[id];
    box.append(el("h3", { text: id + " · " + (names[id] || "") }), el("div", { class: "small", text: "score " + score + " · hand points " + s.hand_points[id] }));
    box.append(cardsEl(s.hands[id].map(parseCode), "mini"));
    seats.append(box);
  }
  v.append(seats);
}

async function sampleReplay() {
  const r = await fetch("/api/samples/151-replay?seed=" + (Math.floor(Math.random() * 1000)));
  $("replay-text").value = await r.text();
  loadReplay();
}

// ---- PHH
async function loadPhh() {
  error();
  try {
    const h = await post("/api/watch/phh", $("phh-text").value);
    stepper("phh-stepper", h.frames.length, (i) => {
      const f = h.frames[i], v = $("phh-view");
      v.textContent = "";
      v.append(el("p", {}, el("strong", { text: f.label })));
      v.append(pokerTable(f, { me: -1, toAct: f.to_act, names: (p) => "Seat " + p, over: f.over }));
      // The end in words: a split pot is a tie, every hand shown down named.
      const o = h.outcome;
      if (o && i === h.frames.length - 1) {
        v.append(el("p", { class: "summary", text: o.summary.charAt(0).toUpperCase() + o.summary.slice(1) + "." }));
        const ul = el("ul", {});
        o.hands.forEach((name, p) => { if (name) ul.append(el("li", { text: "Seat " + p + ": " + name + (o.winners.includes(p) ? " ★" : "") })); });
        v.append(ul);
      }
    });
  } catch (e) { error("Hand not loaded: " + e.message); }
}

async function samplePhh() {
  const r = await fetch("/api/samples/phh?players=4&seed=" + (Math.floor(Math.random() * 1000)));
  $("phh-text").value = await r.text();
  loadPhh();
}

// ---- ladder charts
function heat(rate) { // 0 red .. 0.5 white .. 1 green
  const a = Math.abs(rate - 0.5) * 2, c = Math.round(255 * (1 - a));
  return rate >= 0.5 ? `rgb(${c},${Math.round(160 + 95 * (1 - a))},${c})` : `rgb(${Math.round(200 + 55 * (1 - a))},${c},${c})`;
}

function drawLadder(d) {
  const n = d.ids.length, short = d.ids.map((x) => x.replace(/^builtin:/, ""));
  const cell = 46, left = 110, top = 90, W = left + n * cell + 60, H = top + n * cell + 10;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "win-rate matrix" });
  short.forEach((id, j) => s.append(svg("text", { x: left + j * cell + cell / 2, y: top - 8, transform: `rotate(-40 ${left + j * cell + cell / 2} ${top - 8})`, "font-size": 12 }, id)));
  for (let i = 0; i < n; i++) {
    s.append(svg("text", { x: left - 6, y: top + i * cell + cell / 2 + 4, "text-anchor": "end", "font-size": 12 }, short[i]));
    for (let j = 0; j < n; j++) {
      const w = d.win_rate[i][j], x = left + j * cell, y = top + i * cell;
      const r = svg("rect", { x, y, width: cell - 2, height: cell - 2, fill: w ? heat(w.rate) : "#ddd", class: "cell" });
      if (w) r.append(svg("title", {}, `${short[i]} vs ${short[j]}: ${(100 * w.rate).toFixed(1)}% [${(100 * w.low).toFixed(1)}, ${(100 * w.high).toFixed(1)}] over ${w.games}`));
      s.append(r);
      if (w) s.append(svg("text", { x: x + cell / 2 - 1, y: y + cell / 2 + 4, "text-anchor": "middle", "font-size": 12 }, Math.round(100 * w.rate)));
    }
  }
  $("heatmap").textContent = ""; $("heatmap").append(s);
  // Ratings as bars from a common base, with their 95% interval as a whisker when the log
  // has one (a `cardvec ladder --jsonl` log); the best first.
  const hasCi = Array.isArray(d.elo_low) && Array.isArray(d.elo_high);
  const order = d.elo.map((_, i) => i).sort((a, b) => d.elo[b] - d.elo[a] || a - b);
  const lows = hasCi ? d.elo_low : d.elo, highs = hasCi ? d.elo_high : d.elo;
  const lo = Math.min(...lows, 1000), hi = Math.max(...highs), bw = 300, bh = 26;
  const e = svg("svg", { viewBox: `0 0 ${left + bw + 160} ${n * bh + 20}`, role: "img", "aria-label": "ratings" });
  const base = lo - 100, x = (r) => left + Math.max(2, (bw * (r - base)) / (hi - base || 1));
  order.forEach((i, k) => {
    const r = d.elo[i], y = 10 + k * bh;
    e.append(svg("text", { x: left - 6, y: y + 16, "text-anchor": "end", "font-size": 12 }, short[i]));
    const bar = svg("rect", { x: left, y: y + 3, width: x(r) - left, height: bh - 8, fill: "#1d5e3a", class: "bar" });
    const label = hasCi ? `${Math.round(r)} [${Math.round(d.elo_low[i])}, ${Math.round(d.elo_high[i])}]` : `${Math.round(r)}`;
    bar.append(svg("title", {}, `${short[i]}: ${label}`));
    e.append(bar);
    if (hasCi) {
      const mid = y + 3 + (bh - 8) / 2, a = x(d.elo_low[i]), b = x(d.elo_high[i]);
      e.append(svg("line", { x1: a, x2: b, y1: mid, y2: mid, stroke: "#c77d00", "stroke-width": 2, class: "ci" }));
      e.append(svg("line", { x1: a, x2: a, y1: mid - 6, y2: mid + 6, stroke: "#c77d00", "stroke-width": 2 }));
      e.append(svg("line", { x1: b, x2: b, y1: mid - 6, y2: mid + 6, stroke: "#c77d00", "stroke-width": 2 }));
    }
    e.append(svg("text", { x: Math.max(x(r), hasCi ? x(d.elo_high[i]) : 0) + 4, y: y + 16, "font-size": 12 }, label));
  });
  $("elo").textContent = ""; $("elo").append(e);
  const what = d.kind === "ladder"
    ? `${d.game}${d.options ? " (" + d.options + ")" : ""}, ${d.seats} seats: ${d.games} games, ${d.units[0]} of ${d.units[1]} deals; ${d.model} ratings, Elo scale, ${short[0]} = 1000, 95% intervals`
    : `151 arena ladder: ${d.model}, ${short[0]} = 1000`;
  $("ladder-what").textContent = what;
}

async function loadLadder(text) {
  try {
    const d = text == null ? await (await fetch("/api/ladder")).json() : await post("/api/ladder", text);
    drawLadder(d);
  } catch (e) { error("Ladder not charted: " + e.message); }
}

readFile("replay-file", "replay-text");
readFile("phh-file", "phh-text");
$("replay-load").onclick = loadReplay;
$("replay-sample").onclick = sampleReplay;
$("phh-load").onclick = loadPhh;
$("phh-sample").onclick = samplePhh;
$("ladder-load").onclick = () => loadLadder($("ladder-text").value);
loadLadder();
