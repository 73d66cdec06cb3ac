// The play page: a new-game form, the table drawn from GET/POST /api/tables, the legal moves as
// buttons (Tab + Enter, or number keys), the bots' moves revealed one by one, the result.
"use strict";
const GAME = document.body.dataset.game;
const params = new URLSearchParams(location.search);
const SPEED = params.has("speed") ? Number(params.get("speed")) : 250; // ms per bot move shown
let info = null, view = null, shown = 0, busy = false, selected = null, generation = 0;

const $ = (id) => document.getElementById(id);

async function api(method, url, body) {
  const r = await fetch(url, { method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => ({ error: "HTTP " + r.status }));
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

function seatName(p) {
  if (view && p === view.seat) return "You";
  const b = view && view.bots[p];
  return "Seat " + p + (b ? " (" + b + ")" : "");
}

async function setup() {
  const games = await api("GET", "/api/games");
  info = games.find((g) => g.id === GAME);
  const dl = $("bot-names");
  for (const b of info.bots) dl.append(el("option", { value: b }));
  $("bot").value = info.default_bot || info.bots[0];
  // The options of the game a person plays on the form; the engine's (observation layout,
  // reward scheme, cut-offs: the game's `engine` options) folded away below it.
  const opts = $("options"), engine = $("engine-options");
  for (const o of info.options) {
    const input = el("input", { id: "opt-" + o.name, name: o.name, placeholder: o.default, title: o.doc });
    if (o.kind === "int") { input.type = "number"; input.min = o.min; input.max = o.max; input.value = o.default; }
    else if (o.kind === "choice") { input.value = o.default; input.setAttribute("list", "choices-" + o.name); }
    const label = el("label", {}, o.name === "num_players" ? "players" : o.name.replace(/_/g, " "), input);
    if (o.kind === "choice") label.append(el("datalist", { id: "choices-" + o.name }, ...o.choices.map((c) => el("option", { value: c }))));
    (o.engine ? engine : opts).append(label);
  }
  $("engine").hidden = !info.options.some((o) => o.engine);
  const np = $("opt-num_players");
  if (np) np.addEventListener("input", fillSeats);
  fillSeats();
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  document.addEventListener("keydown", onKey);
  $("raise-btn").addEventListener("click", () => act({ raise_to: Number($("raise-to").value) }));
  $("raise-to").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); $("raise-btn").click(); } });
  // A page opens on a game at once: the seed of the address, else a fresh one (the address
  // then names it, so a reload deals the same cards).
  $("seed").value = params.has("seed") ? params.get("seed") : String(Math.floor(Math.random() * 1000000));
  newGame();
}

function numPlayers() {
  const np = $("opt-num_players");
  if (np && np.value) return Number(np.value);
  return info.players[0];
}

function fillSeats() {
  const sel = $("seat"), keep = sel.value;
  sel.textContent = "";
  for (let p = 0; p < Math.max(numPlayers(), info.players[0]); p++) sel.append(el("option", { value: p, text: String(p) }));
  if (keep && Number(keep) < sel.options.length) sel.value = keep;
}

function gatherOptions() {
  const out = {};
  for (const o of info.options) {
    const v = $("opt-" + o.name).value.trim();
    if (v !== "" && v !== o.default) out[o.name] = o.kind === "int" ? Number(v) : v;
  }
  return out;
}

async function newGame() {
  // Only the last game asked for is shown (a click while the first one is being dealt).
  const mine = ++generation;
  document.body.dataset.state = "dealing";
  try {
    const v = await api("POST", "/api/tables?frames=true", {
      game: GAME, seed: Number($("seed").value || 0), seat: Number($("seat").value || 0),
      bot: $("bot").value.trim() || undefined, options: gatherOptions(),
    });
    if (mine !== generation) return;
    $("result").hidden = true;
    $("log").textContent = "";
    shown = 0; selected = null;
    history.replaceState(null, "", "?seed=" + v.seed + (SPEED !== 250 ? "&speed=" + SPEED : ""));
    await show(v);
  } catch (e) {
    if (mine !== generation) return;
    document.body.dataset.state = view ? (view.finished ? "finished" : "playing") : "setup";
    status("Error: " + e.message, true);
  }
}

async function act(body) {
  if (busy || !view) return;
  try { await show(await api("POST", "/api/tables/" + view.id + "/action?frames=true", body)); }
  catch (e) { status("Not accepted: " + e.message, true); }
}

function status(text, error) {
  const s = $("status");
  s.textContent = text;
  s.className = error ? "error" : "";
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function show(v) {
  view = v;
  window.cardvecView = v;
  busy = true;
  document.body.dataset.state = "waiting";
  $("moves").textContent = "";
  $("raise").hidden = true;
  const log = $("log");
  for (; shown < v.log.length; shown++) {
    const m = v.log[shown];
    // The move number is text of its own (not a list marker a narrow box would clip).
    const li = el("li", { class: m.by === "you" ? "you" : "bot" }, el("span", { class: "n", text: (m.n + 1) + "." }), seatName(m.seat) + ": " + m.label);
    log.append(li);
    li.scrollIntoView({ block: "nearest" });
    if (m.by !== "you" && SPEED > 0) {
      const f = (v.frames || []).find((x) => x.n === shown);
      if (f) drawTable(Object.assign({}, v, { view: f.view, to_act: m.seat, finished: false }));
      status(seatName(m.seat) + ": " + m.label);
      await sleep(SPEED);
    }
  }
  drawTable(v);
  busy = false;
  if (v.finished) return finish(v);
  document.body.dataset.state = "playing";
  status("Your move (seat " + v.seat + ").");
  drawMoves(v);
}

function finish(v) {
  document.body.dataset.state = "finished";
  const r = $("result");
  r.hidden = false;
  r.dataset.scores = JSON.stringify(v.result.scores);
  r.dataset.actions = JSON.stringify(v.log.map((m) => m.action));
  r.textContent = "";
  // The game's own outcome: ties are ties (a split pot), the hands shown down are named.
  const res = v.result;
  const won = res.winners.includes(v.seat);
  r.append(el("h2", { text: "Game over — " + (won ? (res.tie ? "you share the win" : "you win") : "you lose") }));
  if (res.summary) r.append(el("p", { class: "summary", text: res.summary.charAt(0).toUpperCase() + res.summary.slice(1) + "." }));
  // Each seat's result as the game counts it (chips, points, 151's penalty points), in its
  // unit; the rewards' totals only for a game that gives no results.
  const ul = el("ul", {});
  const counts = res.results && res.results.length ? res.results : res.scores;
  const unit = res.results && res.results.length ? v.result_unit : v.reward_unit;
  const signed = counts.some((x) => x < 0);
  counts.forEach((s, p) => {
    const hand = res.hands && res.hands[p] ? " — " + res.hands[p] : "";
    ul.append(el("li", { text: seatName(p) + ": " + (signed && s > 0 ? "+" : "") + s + " " + unit + hand + (res.winners.includes(p) ? " ★" : "") }));
  });
  r.append(ul, el("p", { class: "muted", text: "Start a new game with a seed above (the same seed deals the same cards)." }));
  status("Game over.");
  $("seed").focus();
}

function drawMoves(v) {
  const box = $("moves");
  box.textContent = "";
  let moves = v.legal;
  if (selected) {
    const f = moves.filter((m) => m.label.includes(" " + selected + ",") || m.label.endsWith(" " + selected));
    if (f.length) moves = f;
  }
  const hadFocus = document.activeElement === document.body || (document.activeElement && document.activeElement.classList.contains("move"));
  moves.forEach((m, i) => {
    const b = el("button", { type: "button", "data-action": m.action, "data-label": m.label, class: "move" });
    if (i < 9) b.append(el("kbd", { text: String(i + 1) }));
    b.append(m.label);
    b.addEventListener("click", () => act({ action: m.action }));
    box.append(b);
  });
  // Keyboard players keep their place: a move takes the focus the old ones had, the first
  // that gives nothing up (check or call before fold), so Enter never folds by accident.
  const first = [...box.children].find((b) => !/^fold\b/.test(b.dataset.label)) || box.firstChild;
  if (hadFocus && first) first.focus({ preventScroll: true });
  const L = v.view.legal;
  if (L && L.raise) {
    $("raise").hidden = false;
    const inp = $("raise-to");
    inp.min = L.min_raise_to; inp.max = L.max_raise_to;
    if (!inp.value || Number(inp.value) < L.min_raise_to || Number(inp.value) > L.max_raise_to) inp.value = L.min_raise_to;
    $("raise-btn").textContent = "Raise to (" + L.min_raise_to + "–" + L.max_raise_to + ")";
  }
}

function onKey(e) {
  const t = e.target.tagName;
  if (t === "INPUT" || t === "SELECT" || t === "TEXTAREA") return;
  if (/^[1-9]$/.test(e.key)) {
    const b = $("moves").querySelectorAll("button")[Number(e.key) - 1];
    if (b) { e.preventDefault(); b.click(); }
  } else if (e.key === "n") { e.preventDefault(); $("seed").focus(); }
}

function drawTable(v) {
  const t = $("table");
  t.textContent = "";
  const opts = { me: v.seat, toAct: v.to_act, names: seatName, over: v.finished };
  const kind = v.view.kind;
  if (kind === "poker") t.append(pokerTable(v.view, opts));
  else if (kind === "lost-cities") t.append(lostCities(v, opts));
  else if (kind === "flip7") t.append(flip7(v, opts));
  else if (kind === "151") t.append(i151(v, opts));
  else t.append(el("p", { text: JSON.stringify(v.view) }));
}

function selectable(cards, v) {
  const box = el("div", { class: "cards" });
  for (const c of cards) {
    const name = c.text;
    const e = cardEl(c, selected === name ? "sel" : "");
    if (!v.finished) {
      e.tabIndex = 0; e.setAttribute("role", "button");
      e.setAttribute("aria-label", name + " (select to see its moves)");
      const pick = () => { selected = selected === name ? null : name; drawTable(v); drawMoves(v); };
      e.addEventListener("click", pick);
      e.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); } });
    }
    box.append(e);
  }
  return box;
}

function lostCities(v, opts) {
  const w = v.view, root = el("div", {});
  const other = w.seats[1 - v.seat], me = w.seats[v.seat];
  const board = (s, label) => {
    const box = el("div", { class: "seat" + (s.seat === opts.toAct ? " acting" : "") + (s.seat === v.seat ? " me" : "") });
    box.append(el("h3", { text: label + " — expeditions score " + s.board_score }));
    const ex = el("div", { class: "expeditions" });
    s.expeditions.forEach((col) => { const c = el("div", { class: "column" }); col.forEach((x) => c.append(cardEl(x, "mini"))); ex.append(c); });
    box.append(ex);
    return box;
  };
  const oh = el("div", { class: "seat" }, el("h3", { text: seatName(other.seat) + " — " + other.hand_size + " cards in hand" }),
    other.hand.length ? cardsEl(other.hand, "mini") : cardsEl(Array(other.hand_size).fill(null), "mini"));
  root.append(oh, board(other, seatName(other.seat)));
  const piles = el("div", { class: "piles" }, el("span", { text: "Deck: " + w.deck }));
  w.piles.forEach((p) => {
    const box = el("div", { class: "column" }, p.top ? cardEl(p.top) : el("span", { class: "card", text: "–", "aria-label": LC_NAMES[p.color] + " pile empty" }), el("small", { text: LC_NAMES[p.color] + " ×" + p.size }));
    piles.append(box);
  });
  root.append(el("h3", { text: "Discard piles" }), piles, board(me, "You"));
  root.append(el("h3", { text: "Your hand" + (v.finished ? "" : " (select a card to see its moves)") }), selectable(me.hand, v));
  return root;
}

function flip7(v, opts) {
  const w = v.view, root = el("div", {});
  root.append(el("div", { class: "info" }, el("span", { text: "Round " + w.round }), el("span", { text: "Deck " + w.deck }),
    el("span", { text: "Target " + w.target_score })));
  if (w.pending) root.append(el("div", { class: "info" }, el("span", { text: "Card to give: " }), cardEl(w.pending, "mini")));
  const seats = el("div", { class: "seats" });
  for (const s of w.seats) {
    const box = el("div", { class: "seat" + (s.seat === opts.me ? " me" : "") + (s.seat === opts.toAct ? " acting" : "") + (s.status === "busted" ? " out" : "") });
    box.append(el("h3", { text: seatName(s.seat) + (s.seat === w.dealer ? " · dealer" : "") }));
    box.append(el("div", { class: "small", text: "score " + s.score + " · " + s.status + " · this round " + s.round_points }));
    box.append(cardsEl(s.cards, "mini"));
    seats.append(box);
  }
  root.append(seats);
  return root;
}

function i151(v, opts) {
  const w = v.view, root = el("div", {});
  const bits = ["Round " + w.round, "Bank " + w.bank, "Pile " + w.pile, "Target " + w.target_score];
  if (w.required_suit) bits.push("Suit to play: " + SUITS[w.required_suit]);
  if (w.must_choose_suit) bits.push("a suit must be chosen");
  if (w.ace_effect) bits.push("ace active");
  root.append(el("div", { class: "info" }, ...bits.map((b) => el("span", { text: b }))));
  const onTable = w.recent.length ? w.recent : (w.top ? [w.top] : []);
  root.append(el("h3", { text: "Table" + (onTable.length ? "" : " (empty: any card may be played)") }), cardsEl(onTable));
  const seats = el("div", { class: "seats" });
  for (const s of w.seats) {
    if (s.seat === v.seat) continue;
    const box = el("div", { class: "seat" + (s.seat === opts.toAct ? " acting" : "") + (s.excluded ? " out" : "") });
    box.append(el("h3", { text: seatName(s.seat) + (s.seat === w.dealer ? " · dealer" : "") }));
    box.append(el("div", { class: "small", text: "score " + s.score + (s.excluded ? " · excluded" : "") + " · " + s.hand_size + " cards" }));
    box.append(s.hand.length ? cardsEl(s.hand, "mini") : cardsEl(Array(Math.min(s.hand_size, 12)).fill(null), "mini"));
    seats.append(box);
  }
  root.append(seats);
  const me = w.seats[v.seat];
  root.append(el("h3", { text: "Your hand — " + w.hand_points + " points · score " + me.score }), selectable(me.hand, v));
  return root;
}

setup();
