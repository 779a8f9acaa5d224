// A seat: the board and the legal moves of a human player's role. A move
// is chosen on the board (a click on a cell that only one move changes, or
// on cells until only one move changes them all) or with its button,
// before the countdown ends. The page says what happened at every step.
"use strict";

const id = new URLSearchParams(location.search).get("id") || "";
const $ = i => document.getElementById(i);
let turn = null;
let deadline = 0;      // local time (ms) when the move is due
let proc = null, procFor = null, styleError = "";
let domain = new Domain(), domainFor = null;
let cellMoves = new Map();  // board element -> the moves that change it
let candidates = null;      // the moves still possible after clicks on cells
let sent = false;

function tick() {
  const cd = $("countdown");
  if (!turn || turn.status !== "to-move") { cd.textContent = ""; return; }
  const left = Math.max(0, deadline - Date.now());
  cd.textContent = (left / 1000).toFixed(1) + " s";
  cd.classList.toggle("low", left < 5000);
}
setInterval(tick, 100);

async function choose(move) {
  if (sent) return;
  sent = true;
  for (const b of $("moves").querySelectorAll("button")) b.disabled = true;
  document.body.setAttribute("data-sent", move);
  const resp = await fetch("/api/seat/move?id=" + encodeURIComponent(id), {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({step: turn.step, move: move}),
  });
  if (!resp.ok) {
    const body = await resp.json().catch(() => ({error: resp.statusText}));
    $("message").textContent = "move refused: " + body.error;
  }
}

function roleName(t, i) {
  const r = (t.roles || [])[i] || "role " + (i + 1);
  return r === t.role ? r + " (you)" : r;
}

// jointText writes a joint move with its roles: "xplayer (you) (mark 1 1), oplayer noop".
function jointText(t, moves) {
  return moves.map((m, i) => roleName(t, i) + " " + m).join(", ");
}

function historyItem(t, h) {
  const me = (t.roles || []).indexOf(t.role);
  const li = el("li", {"data-step": h.step}, el("b", {}, "step " + h.step + ": "), jointText(t, h.moves));
  if (h.timedOut) {
    li.classList.add("timeout");
    li.append(el("div", {class: "err"}, "no move chosen in time: the game master played " + h.moves[me] + " in your place"));
  } else if (h.asked && h.chosen && h.chosen !== h.moves[me]) {
    li.append(el("div", {class: "err"}, "you chose " + h.chosen + " too late: the game master played " + h.moves[me]));
  }
  return li;
}

// highlight marks the cells the moves change; cells that one move alone
// changes among them are marked as targets.
function highlight(moves, cls) {
  for (const e of document.querySelectorAll("#board ." + cls)) e.classList.remove(cls);
  if (!moves) return;
  for (const [e, ms] of cellMoves) {
    for (const m of ms) if (moves.has(m)) { e.classList.add(cls); break; }
  }
}

function setCandidates(c) {
  candidates = c;
  highlight(c, "selected");
  for (const b of $("moves").querySelectorAll("button")) b.classList.toggle("candidate", !!c && c.has(b.dataset.move));
  $("hint").textContent = c ? c.size + " moves change this cell: click another cell they change, or a move below" : boardHint();
}

function boardHint() {
  if (!turn || turn.status !== "to-move") return "";
  return cellMoves.size ? "Click a cell of the board to play the move that changes it, or a move below." : "";
}

function cellClicked(e) {
  if (!turn || turn.status !== "to-move" || sent) return;
  const ms = cellMoves.get(e);
  let c = new Set([...ms].filter(m => !candidates || candidates.has(m)));
  if (c.size === 0) c = new Set(ms);
  if (c.size === 1) { choose([...c][0]); return; }
  setCandidates(c);
}

// bindBoard makes the cells of the board choose moves.
function bindBoard(t, drawn) {
  cellMoves = new Map();
  candidates = null;
  if (t.status !== "to-move" || !t.effects || !drawn) return;
  cellMoves = boardMoves($("board"), drawn, t.effects, {domain});
  // What every move changes (whose turn it is, a step counter) does not
  // tell the moves apart.
  if (t.effects.length > 1) {
    for (const [e, ms] of cellMoves) if (ms.size === t.effects.length) cellMoves.delete(e);
  }
  for (const [e, ms] of cellMoves) {
    e.classList.add("movable");
    if (ms.size === 1) e.setAttribute("data-move", [...ms][0]);
    e.addEventListener("mouseenter", () => highlight(new Set([...ms].filter(m => !candidates || candidates.has(m))), "hover"));
    e.addEventListener("mouseleave", () => highlight(null, "hover"));
    e.addEventListener("click", ev => { ev.preventDefault(); cellClicked(e); });
  }
}

async function loadMatch(src) {
  procFor = src;
  proc = null;
  styleError = "";
  domain = new Domain();
  const info = await fetchJSON("/api/record?src=" + encodeURIComponent(src));
  if (info.record) for (const st of info.record.states) domain.addState(st);
  if (info.game && info.game.stylesheet) {
    try { proc = await loadStylesheet(src); } catch (e) { styleError = e.message; }
  }
  $("matchLink").replaceChildren(el("a", {href: "/match?src=" + encodeURIComponent(src), target: "_blank"}, "the match so far"));
}

async function update(t) {
  turn = t;
  sent = false;
  if (t.status === "to-move") deadline = Date.now() + t.remainingMs;
  const src = t.source || "";
  if (src && procFor !== src) await loadMatch(src);
  if (t.matchId !== domainFor) { domainFor = t.matchId; if (!src) domain = new Domain(); }
  $("errors").replaceChildren(styleError ? el("div", {class: "error-box"}, "the game's stylesheet failed: " + styleError) : "");
  $("title").textContent = t.name + (t.role ? " as " + t.role : "") + (t.matchId ? " · " + t.matchId : "");
  const st = $("status");
  st.textContent = {"waiting": "waiting for a match", "to-move": "your move", "others": "waiting for the others", "over": "match over"}[t.status] || t.status;
  st.className = "badge" + (t.status === "to-move" ? " live" : t.status === "over" ? " done" : "");
  document.body.setAttribute("data-status", t.status);
  document.body.setAttribute("data-step", t.step);
  document.body.removeAttribute("data-sent");

  let drawn = null;
  if (t.state) {
    const facts = "(" + t.state.join(" ") + ")";
    domain.addState(facts);
    for (const e of t.effects || []) domain.addState("(" + e.added.join(" ") + ")");
    drawn = drawBoard($("board"), facts, proc, {domain, over: t.status === "over"});
  }
  $("last").textContent = t.last && t.last.length ? "last joint move: " + jointText(t, t.last) : "";
  $("turn").textContent = t.status === "to-move" ? "Step " + (t.step + 1) + ": choose a move for " + t.role
    : t.status === "waiting" ? "Waiting for a match: the clock starts once this page is open."
    : t.status === "others" ? (t.chosen ? "You chose " + t.chosen + "; waiting for the others." : "Waiting for the others.") : "";
  const moves = $("moves");
  moves.replaceChildren(...(t.status === "to-move" ? t.legal : []).map(m => {
    const b = el("button", {"data-move": m}, m);
    b.addEventListener("click", () => choose(m));
    b.addEventListener("mouseenter", () => highlight(new Set([m]), "hover"));
    b.addEventListener("mouseleave", () => highlight(null, "hover"));
    return b;
  }));
  bindBoard(t, drawn);
  $("hint").textContent = boardHint();
  $("message").textContent = t.message || "";

  const out = $("outcome");
  out.hidden = t.status !== "over";
  if (t.status === "over") {
    const parts = [];
    if (t.outcome) parts.push(el("div", {class: "result"}, t.outcome.charAt(0).toUpperCase() + t.outcome.slice(1)));
    if (t.goals) parts.push(el("div", {class: "goals"}, "goals: " + t.goals.map((g, i) => roleName(t, i) + " " + g).join(", ")));
    if (t.message) parts.push(el("div", {class: "err"}, t.message));
    if (!parts.length) parts.push(el("div", {}, "The match is over."));
    out.replaceChildren(...parts);
  }
  $("history").replaceChildren(...(t.history || []).slice().reverse().map(h => historyItem(t, h)));
  tick();
}

let chain = Promise.resolve();
(async function start() {
  // A seat that does not exist says so, rather than waiting for events.
  const first = await fetchJSON("/api/seat?id=" + encodeURIComponent(id));
  if (first.error) {
    $("errors").replaceChildren(el("div", {class: "error-box", id: "seat-error"}, first.error));
    document.body.setAttribute("data-status", "missing");
    return;
  }
  const es = new EventSource("/api/seat/watch?id=" + encodeURIComponent(id));
  es.onmessage = e => { const t = JSON.parse(e.data); chain = chain.then(() => update(t)); };
  window.addEventListener("pagehide", () => es.close());
  es.onerror = () => { if (es.readyState === EventSource.CLOSED) $("message").textContent = "lost the connection to the viewer"; };
})();
