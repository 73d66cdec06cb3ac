// The /spot page: a postflop spot solved in the background (progress polled), then read
// node by node: the line as breadcrumbs, the node's actions (or a card picker at a chance
// node), the 13x13 grid of the shown player's range coloured by action frequencies, and
// each hand's strategy and EVs for the cell under the pointer. The grid is one tab stop
// (a roving tabindex): arrow keys, Home and End move between its cells, Enter or Space
// selects one and shows its hands.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const RANKS = "AKQJT98765432";
  const EXAMPLES = {
    turn: {
      board: "Td9d6hQc", pot: 200, stack: 900,
      oop_range: "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
      ip_range: "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+",
      bets: "60%,e,a", raises: "2.5x", algorithm: "dcfr", target: 0.5, iterations: 1000, locks: "",
    },
    river: {
      board: "Td9d6hQc2s", pot: 100, stack: 300,
      oop_range: "66+,A8s+,AJo+,K9s+,KQo,QTs+,JTs,98s",
      ip_range: "QQ-22,AQs-A2s,ATo+,KJo+,T9s,87s",
      bets: "60%,a", raises: "2.5x", algorithm: "dcfr", target: 0.5, iterations: 1000, locks: "",
    },
  };
  const FOLD = "#5b8fd9", PASSIVE = "#5fb35f";
  const AGGRESSIVE = ["#f2a65a", "#e8743b", "#d94a2b", "#b8262f", "#8e1533", "#62102a"];

  const form = $("spot-form");
  let spotId = null, spot = null, line = [], node = null, shown = 0, selected = null, timer = null;
  // The grid cell that takes the focus when the grid is tabbed to: [row, col].
  let focusAt = [0, 0];

  function fill(ex) {
    for (const [k, v] of Object.entries(ex)) if (form.elements[k]) form.elements[k].value = v;
  }
  fill(EXAMPLES.turn);
  $("example").addEventListener("change", (e) => fill(EXAMPLES[e.target.value]));

  function showError(msg) { $("spot-error").textContent = msg || ""; }

  async function call(method, path, body, raw) {
    const opt = { method };
    if (body !== undefined) {
      opt.body = raw ? body : JSON.stringify(body);
      opt.headers = { "content-type": raw ? "application/octet-stream" : "application/json" };
    }
    const r = await fetch(path, opt);
    const text = await r.text();
    let v = null;
    try { v = JSON.parse(text); } catch (_) { v = null; }
    if (!r.ok) throw new Error(v && v.error ? v.error : r.status + " " + text);
    return v;
  }

  function params() {
    const p = {};
    for (const k of ["board", "oop_range", "ip_range", "bets", "raises", "algorithm"]) {
      const v = form.elements[k].value.trim();
      if (v !== "") p[k] = v;
    }
    for (const k of ["pot", "stack", "iterations"]) {
      const v = form.elements[k].value.trim();
      if (v !== "") p[k] = Number.isInteger(Number(v)) ? Number(v) : v;
    }
    const t = form.elements.target.value.trim();
    if (t !== "") p.target = Number(t);
    // Node locks in the syntax of `--lock`, one per line (a lock may hold commas).
    const locks = form.elements.locks.value.split("\n").map((x) => x.trim()).filter((x) => x !== "");
    if (locks.length) p.locks = locks;
    return p;
  }

  async function start(promise) {
    showError("");
    stopPolling();
    $("solve").disabled = true; $("open-file").disabled = true;
    try {
      const v = await promise;
      spotId = v.id; spot = v; line = []; node = null; selected = null;
      $("explorer").hidden = true;
      $("progress").hidden = false;
      progress(v);
      poll();
    } catch (e) {
      showError(e.message);
      $("solve").disabled = false; $("open-file").disabled = false;
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    start(call("POST", "/api/spot", params()));
  });

  $("open-file").addEventListener("click", async () => {
    const f = $("spot-file").files[0];
    if (!f) { showError("choose a spot file first"); return; }
    const n = Number($("file-iterations").value || 0);
    const buf = await f.arrayBuffer();
    start(call("POST", "/api/spot/file?iterations=" + encodeURIComponent(n), buf, true));
  });

  $("cancel").addEventListener("click", async () => {
    if (!spotId) return;
    try { progress(await call("POST", "/api/spot/" + spotId + "/cancel")); } catch (e) { showError(e.message); }
  });

  function stopPolling() { if (timer) { clearTimeout(timer); timer = null; } }

  async function poll() {
    const id = spotId;
    try {
      const v = await call("GET", "/api/spot/" + id);
      if (id !== spotId) return;
      progress(v);
      if (v.status === "running") { timer = setTimeout(poll, 250); return; }
      $("solve").disabled = false; $("open-file").disabled = false;
      if (v.status === "done") openLine([]);
    } catch (e) {
      showError(e.message);
      $("solve").disabled = false; $("open-file").disabled = false;
    }
  }

  const STOPS = {
    target: "target reached", iterations: "iteration cap reached", time_limit: "time limit",
    interrupted: "stopped", cancelled: "stopped", opened: "file opened",
  };

  function bytes(n) {
    return n >= 1e9 ? (n / 1e9).toFixed(2) + " GB" : n >= 1e6 ? (n / 1e6).toFixed(1) + " MB" : (n / 1e3).toFixed(1) + " kB";
  }

  // The exploitability at each check, on a log scale, with the target as a dashed line.
  function chart(h, target) {
    const box = $("chart");
    box.replaceChildren();
    if (h.length < 2) return;
    const W = 260, H = 70, P = 4;
    const ys = h.map((p) => Math.log10(Math.max(p[1], 1e-6)));
    if (target > 0) ys.push(Math.log10(target));
    const lo = Math.min(...ys), hi = Math.max(...ys) + 1e-9;
    const x0 = h[0][0], x1 = h[h.length - 1][0] + 1e-9;
    const X = (x) => P + ((x - x0) / (x1 - x0)) * (W - 2 * P);
    const Y = (y) => P + ((hi - y) / (hi - lo)) * (H - 2 * P);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "exploitability (% of the pot, log scale) by iteration");
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", h.map((p) => X(p[0]).toFixed(1) + "," + Y(Math.log10(Math.max(p[1], 1e-6))).toFixed(1)).join(" "));
    line.setAttribute("class", "curve");
    svg.append(line);
    if (target > 0) {
      const t = document.createElementNS(ns, "line");
      t.setAttribute("x1", P); t.setAttribute("x2", W - P);
      t.setAttribute("y1", Y(Math.log10(target))); t.setAttribute("y2", Y(Math.log10(target)));
      t.setAttribute("class", "target");
      svg.append(t);
    }
    box.append(svg);
  }

  function progress(v) {
    spot = v;
    const done = v.iterations - v.start_iterations;
    // The bar: the larger of the iterations run of the cap and the way to the target on a
    // log scale from the first check's exploitability.
    const bar = $("bar");
    let frac = v.max_iterations ? done / v.max_iterations : 0;
    const h = v.history || [];
    if (h.length && v.target > 0 && h[0][1] > v.target) {
      const last = h[h.length - 1][1];
      frac = Math.max(frac, Math.log(h[0][1] / last) / Math.log(h[0][1] / v.target));
    }
    bar.max = 1;
    bar.value = v.status === "running" ? Math.min(0.99, Math.max(0, frac)) : 1;
    chart(h, v.target);
    const bits = [v.board + ", pot " + v.pot + ", stack " + v.stack + ", " + v.hands[0] + " + " + v.hands[1] + " hands, " +
      v.nodes + " nodes, " + bytes(v.memory_bytes) + ", " + v.algorithm];
    bits.push(v.iterations + " iterations" + (v.max_iterations ? " (" + done + " of at most " + v.max_iterations + " this run)" : ""));
    if (v.exploitability_pct != null) bits.push("exploitability " + v.exploitability_pct.toFixed(3) + "% of the pot" + (v.max_iterations ? " (target " + v.target + "%)" : ""));
    bits.push(v.seconds.toFixed(1) + " s");
    if (v.status === "done") bits.unshift("Solved (" + (STOPS[v.summary.stop] || v.summary.stop) + ")");
    else if (v.status === "failed") bits.unshift("Failed: " + v.error);
    else bits.unshift("Solving…");
    $("progress-text").textContent = bits.join(" · ");
    $("progress").dataset.status = v.status;
    $("cancel").hidden = v.status !== "running";
    const dl = $("download");
    dl.hidden = v.status !== "done";
    dl.href = "/api/spot/" + v.id + "/file";
    dl.setAttribute("download", v.board + ".cvspot");
  }

  async function openLine(words) {
    showError("");
    try {
      const q = "line=" + encodeURIComponent(words.join(","));
      const v = await call("GET", "/api/spot/" + spotId + "/node?" + q);
      line = words; node = v;
      if (v.player != null) shown = v.player;
      $("explorer").hidden = false;
      render();
    } catch (e) { showError(e.message); }
  }

  function cardText(c) {
    const s = el("span", { class: "ctext" + ("hd".includes(c[1]) ? " red" : ""), text: c[0] + (SUITS[c[1]] || c[1]) });
    return s;
  }

  function actionLabel(a) {
    const [w, amount] = a.word.split(":");
    let t = w;
    if (amount !== undefined) t += " " + amount;
    if (a.pct != null) t += " (" + Math.round(a.pct) + "%" + (a.all_in ? ", all-in" : "") + ")";
    else if (a.all_in) t += " (all-in)";
    return t;
  }

  // Colours: fold blue, check and call green, bets and raises from orange to dark red by size.
  function colours(actions) {
    let k = 0;
    const big = actions.filter((a) => a.to != null).length;
    return actions.map((a) => {
      if (a.word === "fold") return FOLD;
      if (a.to == null) return PASSIVE;
      const step = big <= 1 ? 2 : Math.round((k++ * (AGGRESSIVE.length - 1)) / (big - 1));
      return AGGRESSIVE[Math.min(step, AGGRESSIVE.length - 1)];
    });
  }

  function classOf(hand) {
    const i = RANKS.indexOf(hand[0]), j = RANKS.indexOf(hand[2]);
    const hi = Math.min(i, j), lo = Math.max(i, j);
    if (i === j) return [i, i];
    return hand[1] === hand[3] ? [hi, lo] : [lo, hi];
  }

  function className(r, c) {
    if (r === c) return RANKS[r] + RANKS[r];
    return r < c ? RANKS[r] + RANKS[c] + "s" : RANKS[c] + RANKS[r] + "o";
  }

  const pct = (x) => (x == null || Number.isNaN(x) ? "–" : (100 * x).toFixed(1) + "%");
  const chips = (x) => (x == null || Number.isNaN(x) ? "–" : x.toFixed(2));

  function render() {
    // The line as breadcrumbs.
    const crumbs = $("line");
    crumbs.replaceChildren();
    const root = el("button", { type: "button", class: "crumb", "data-depth": 0, text: "root" });
    root.addEventListener("click", () => openLine([]));
    crumbs.append(root);
    line.forEach((w, i) => {
      crumbs.append(el("span", { class: "sep", text: "›" }));
      const b = el("button", { type: "button", class: "crumb", "data-depth": i + 1 });
      if (/^[2-9TJQKA][cdhs]$/.test(w)) b.append(cardText(w)); else b.textContent = w;
      if (i === line.length - 1) b.setAttribute("aria-current", "step");
      b.addEventListener("click", () => openLine(line.slice(0, i + 1)));
      crumbs.append(b);
    });
    // The node.
    const street = ["flop", "turn", "river"][node.street];
    const info = $("node-info");
    info.replaceChildren();
    const board = el("span", { class: "board" });
    for (let i = 0; i < node.board.length; i += 2) board.append(cardText(node.board.slice(i, i + 2)), " ");
    let who = node.kind === "decision" ? ["OOP", "IP"][node.player] + " to act" : node.kind === "chance" ? "a card comes" : node.kind === "fold" ? "a player folded: the hand is over" : "showdown: the hand is over";
    info.append(el("strong", { text: street + " " }), board,
      el("span", { text: " · pot " + node.pot + " · put in OOP " + node.spent[0] + ", IP " + node.spent[1] + " · " + who }));
    // The actions, or the cards.
    const acts = $("actions");
    acts.replaceChildren();
    const cols = colours(node.actions);
    node.actions.forEach((a, k) => {
      const b = el("button", { type: "button", class: "action", "data-word": a.word },
        el("span", { class: "swatch", style: "background:" + cols[k] }), actionLabel(a));
      b.addEventListener("click", () => openLine(line.concat([a.word])));
      acts.append(b);
    });
    const chance = $("chance");
    chance.replaceChildren();
    chance.hidden = node.cards.length === 0;
    if (node.cards.length) {
      chance.append(el("span", { class: "small", text: "Pick the card that comes: " }));
      for (const s of "shdc") {
        const row = el("div", { class: "suit-row" });
        for (const c of node.cards.filter((c) => c[1] === s)) {
          const b = el("button", { type: "button", class: "pick", "data-card": c }, cardText(c));
          b.addEventListener("click", () => openLine(line.concat([c])));
          row.append(b);
        }
        if (row.childElementCount) chance.append(row);
      }
    }
    for (const t of document.querySelectorAll(".tab")) {
      t.setAttribute("aria-selected", String(Number(t.dataset.player) === shown));
    }
    renderGrid();
  }

  function renderGrid() {
    const pr = node.players[shown];
    const acting = pr.strategy != null;
    const cols = colours(node.actions);
    const n = pr.hands.length;
    let wsum = 0, ev = 0, eq = 0, combos = 0;
    const freq = node.actions.map(() => 0);
    for (let h = 0; h < n; h++) {
      const w = pr.weight[h];
      combos += pr.reach[h];
      if (!(w > 0)) continue;
      wsum += w; ev += w * pr.ev[h]; eq += w * pr.equity[h];
      if (acting) node.actions.forEach((_, k) => { freq[k] += w * pr.strategy[k][h]; });
    }
    $("player-info").textContent = ["OOP", "IP"][shown] + ": " + combos.toFixed(1) + " combos reach this node · EV " +
      chips(wsum ? ev / wsum : NaN) + " · equity " + pct(wsum ? eq / wsum : NaN);
    const legend = $("legend");
    legend.replaceChildren();
    if (acting) {
      node.actions.forEach((a, k) => legend.append(el("span", { class: "item", "data-word": a.word },
        el("span", { class: "swatch", style: "background:" + cols[k] }), actionLabel(a) + " " + pct(wsum ? freq[k] / wsum : NaN))));
    } else {
      legend.append(el("span", { class: "muted", text: ["OOP", "IP"][shown] + " does not act here: cells show the hands' equity." }));
    }
    const byCell = new Map();
    for (const c of pr.classes) byCell.set(c.row * 13 + c.col, c);
    const grid = $("grid");
    grid.replaceChildren();
    if (selected) {
      const s = pr.classes.find((x) => x.name === selected);
      if (s) focusAt = [s.row, s.col];
    }
    for (let r = 0; r < 13; r++) {
      const row = el("div", { class: "grow", role: "row", "aria-rowindex": r + 1 });
      for (let c = 0; c < 13; c++) {
        const name = className(r, c);
        const agg = byCell.get(r * 13 + c);
        const focus = focusAt[0] === r && focusAt[1] === c;
        const cell = el("div", { class: "cell", role: "gridcell", tabindex: focus ? "0" : "-1", "aria-colindex": c + 1, "data-class": name, "data-row": r, "data-col": c });
        const live = agg && agg.combos > 0 && agg.weight > 0;
        if (!live) {
          cell.classList.add("out");
          cell.title = name + (agg ? ": no combo reaches this node" : ": not in the range");
          cell.setAttribute("aria-disabled", "true");
        } else if (acting) {
          const bars = el("div", { class: "bars" });
          agg.strategy.forEach((f, k) => {
            if (f > 0) bars.append(el("span", { style: "width:" + (100 * f) + "%;background:" + cols[k] }));
          });
          cell.append(bars);
          cell.dataset.freq = JSON.stringify(agg.strategy);
          cell.title = name + ": " + node.actions.map((a, k) => actionLabel(a) + " " + pct(agg.strategy[k])).join(", ") +
            " · EV " + chips(agg.ev) + " · " + agg.combos.toFixed(2) + " combos";
        } else {
          const eqv = agg.equity;
          const bars = el("div", { class: "bars" });
          bars.append(el("span", { style: "width:" + (100 * eqv) + "%;background:#7aa6d6" }));
          cell.append(bars);
          cell.title = name + ": equity " + pct(eqv) + " · EV " + chips(agg.ev);
        }
        // Screen readers read the cell's label: its class and what the title shows.
        cell.setAttribute("aria-label", cell.title);
        cell.append(el("span", { class: "name", text: name, "aria-hidden": "true" }));
        if (live) {
          cell.setAttribute("aria-selected", String(selected === name));
          cell.addEventListener("mouseenter", () => { if (!selected) detail(name, agg); });
          cell.addEventListener("focus", () => { if (!selected) detail(name, agg); });
          cell.addEventListener("click", () => {
            selected = selected === name ? null : name;
            for (const x of grid.querySelectorAll(".cell.sel")) x.classList.remove("sel");
            for (const x of grid.querySelectorAll(".cell[aria-selected]")) x.setAttribute("aria-selected", String(x.dataset.class === selected));
            if (selected) cell.classList.add("sel");
            moveFocus(r, c, false);
            detail(name, agg);
          });
          if (selected === name) cell.classList.add("sel");
        }
        row.append(cell);
      }
      grid.append(row);
    }
    const sel = selected && pr.classes.find((x) => x.name === selected);
    if (sel && sel.combos > 0) detail(selected, sel);
    else { selected = null; $("detail").replaceChildren(el("p", { class: "muted", text: "Hover, click or select a cell (Tab to the grid, arrow keys, Enter) for its hands." })); }
  }

  // The roving tab stop: cell (r, c) takes it (and the focus when `focus`).
  function moveFocus(r, c, focus) {
    const grid = $("grid");
    const next = grid.querySelector('.cell[data-row="' + r + '"][data-col="' + c + '"]');
    if (!next) return;
    for (const x of grid.querySelectorAll('.cell[tabindex="0"]')) x.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    focusAt = [r, c];
    if (focus) next.focus();
  }

  // Arrow keys, Home and End move between the cells; Enter or Space selects (as a click).
  $("grid").addEventListener("keydown", (e) => {
    const cell = e.target.closest && e.target.closest(".cell");
    if (!cell) return;
    let r = Number(cell.dataset.row), c = Number(cell.dataset.col);
    switch (e.key) {
      case "ArrowUp": r = Math.max(0, r - 1); break;
      case "ArrowDown": r = Math.min(12, r + 1); break;
      case "ArrowLeft": c = Math.max(0, c - 1); break;
      case "ArrowRight": c = Math.min(12, c + 1); break;
      case "Home": c = 0; if (e.ctrlKey) r = 0; break;
      case "End": c = 12; if (e.ctrlKey) r = 12; break;
      case "Enter": case " ": e.preventDefault(); cell.click(); return;
      default: return;
    }
    e.preventDefault();
    moveFocus(r, c, true);
  });

  // The hands of class `name` for the shown player: reach, EV, equity and, when it acts,
  // each action's frequency and EV.
  function detail(name, agg) {
    const pr = node.players[shown];
    const acting = pr.strategy != null;
    const cols = colours(node.actions);
    const box = $("detail");
    box.replaceChildren();
    box.dataset.class = name;
    box.append(el("h3", { text: name + " · " + ["OOP", "IP"][shown] }));
    const table = el("table", { class: "hands" });
    const head = el("tr", {}, el("th", { text: "hand" }), el("th", { text: "combos" }), el("th", { text: "EV" }), el("th", { text: "equity" }));
    if (acting) node.actions.forEach((a, k) => head.append(el("th", { title: actionLabel(a) }, el("span", { class: "swatch", style: "background:" + cols[k] }), a.word.replace(":", " "))));
    table.append(head);
    const sum = el("tr", { class: "sum", "data-hand": name }, el("td", { text: "all" }), el("td", { text: agg.combos.toFixed(2) }),
      el("td", { text: chips(agg.ev) }), el("td", { text: pct(agg.equity) }));
    if (acting) agg.strategy.forEach((f) => sum.append(el("td", { class: "freq", text: pct(f) })));
    table.append(sum);
    pr.hands.forEach((h, i) => {
      const [r, c] = classOf(h);
      if (className(r, c) !== name) return;
      const row = el("tr", { "data-hand": h }, el("td", {}, cardText(h.slice(0, 2)), cardText(h.slice(2, 4))),
        el("td", { text: pr.reach[i].toFixed(2) }), el("td", { text: chips(pr.ev[i]) }), el("td", { text: pct(pr.equity[i]) }));
      if (!(pr.reach[i] > 0)) row.classList.add("out");
      if (acting) {
        node.actions.forEach((_, k) => {
          const f = pr.strategy[k][i], aev = pr.action_ev[k][i];
          row.append(el("td", { class: "freq", title: "EV of " + actionLabel(node.actions[k]) + ": " + chips(aev) },
            el("span", { class: "mini-bar", style: "width:" + (100 * f) + "%;background:" + cols[k] }),
            el("span", { text: pct(f) }), el("small", { class: "aev", text: chips(aev) })));
        });
      }
      table.append(row);
    });
    box.append(table);
    if (acting) box.append(el("p", { class: "small muted", text: "Under each action: its frequency, and below it the hand's EV taking it (chips, counted from the start of the spot)." }));
  }

  for (const t of document.querySelectorAll(".tab")) {
    t.addEventListener("click", () => { shown = Number(t.dataset.player); selected = null; if (node) render(); });
  }
})();
