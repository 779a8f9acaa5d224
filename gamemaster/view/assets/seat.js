// A seat: the board and the legal moves of a human player's role. A move
// is chosen on the board (a click on a cell that only one move changes, or
// on cells until only one move changes them all; in a game whose moves
// name a column, as connectFour's drops, a click anywhere in the column)
// or with its button, before the countdown ends. A click that plays no
// move is answered with the reason. The page says what happened at every
// step, and when the match or the connection to the viewer is lost.
//
// In a GDL-II match the page knows only what the person's role was told:
// its own moves and percepts, step by step, the facts true in every state
// it holds possible (drawn as the board, "?" where a cell is not known)
// and the moves legal in all of them. It does not read the match's record,
// which the viewer holds back until the match is over.
"use strict";

const id = new URLSearchParams(location.search).get("id") || "";
const $ = i => document.getElementById(i);
let turn = null;
let deadline = 0;      // local time (ms) when the move is due
let proc = null, procFor = null, styleError = "";
let domain = new Domain(), domainFor = null;
let layout = null;          // the layout of the board drawn, if known
let cellMoves = new Map();  // board element -> the moves that change it
let clickMoves = new Map(); // board element -> the moves a click on it chooses among
let candidates = null;      // the moves still possible after clicks on cells
let sent = false;
let abortReason = "";
let startsBy = 0;           // local time (ms) when the others' start clock runs out
let outOfTurn = false;      // the notice answers a click made out of the person's turn
let columnGame = false;     // the moves name columns, as connectFour's drops
let moveWords = {};         // the words of the game's folder for the moves shown

function tick() {
  const cd = $("countdown");
  if (turn && starting(turn)) {
    cd.textContent = "starts in " + (Math.max(0, startsBy - Date.now()) / 1000).toFixed(0) + " s";
    cd.classList.remove("low");
    return;
  }
  if (!turn || turn.status !== "to-move") { cd.textContent = ""; return; }
  const left = Math.max(0, deadline - Date.now());
  cd.textContent = (left / 1000).toFixed(1) + " s";
  cd.classList.toggle("low", left < 5000);
}
setInterval(tick, 100);

// notice says, under the board, why a click did nothing.
function notice(text) {
  const n = $("notice");
  n.textContent = text || "";
  n.hidden = !text;
  outOfTurn = false;
}

// starting reports whether the match is starting: the other players use
// their start clock before anyone is asked to move.
function starting(t) {
  return t.status === "others" && t.step === 0 && startsBy > Date.now();
}

// waitText says why a click out of the person's turn does nothing. It is
// said again as the turn changes, until the person is to move, so that
// a click just after a move is answered as the next ones are.
function waitText(t) {
  if (t.status === "over") return "The match is over.";
  if (t.status === "waiting") return "The match has not started: it starts once every seat page is open.";
  if (starting(t)) return "It is not your turn yet: the match is starting, and the other players are getting ready.";
  if (t.status === "to-move" && sent) return "Your move is sent.";
  return "It is not your turn: " + (t.chosen ? "you chose " + moveText(t.chosen) + "; " : "") + "the other players are choosing their moves. The places you can play are framed again when it is your turn.";
}

function noticeOutOfTurn(t) {
  notice(waitText(t));
  outOfTurn = true;
}

async function choose(move) {
  if (sent) return;
  sent = true;
  notice("");
  for (const b of $("moves").querySelectorAll("button")) b.disabled = true;
  document.body.setAttribute("data-sent", move);
  const resp = await fetch("/api/seat/move?id=" + encodeURIComponent(id), {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({step: turn.step, move: move}),
  }).catch(e => ({ok: false, json: async () => ({error: "the viewer cannot be reached"})}));
  if (!resp.ok) {
    const body = await resp.json().catch(() => ({error: resp.statusText}));
    $("message").textContent = "move refused: " + body.error;
  }
}

function roleName(t, i) {
  return (t.roles || [])[i] || "role " + (i + 1);
}

// moveText writes a move as a person reads it: in the words of the game's
// folder (moveWords) when it has them, else without GDL's parentheses.
function moveText(m) {
  if (moveWords[m]) return moveWords[m];
  return m.length > 1 && m[0] === "(" && m[m.length - 1] === ")" ? m.slice(1, -1) : m;
}

// jointText writes a joint move as a person reads it, "you: mark 1 1":
// each role's move but noop, the conventional move of a role that waits.
function jointText(t, moves, nature) {
  const me = (t.roles || []).indexOf(t.role);
  const parts = [];
  moves.forEach((m, i) => {
    const who = i === me ? "you" : roleName(t, i) + (nature && roleName(t, i) === nature ? " (chance)" : "");
    if (m !== "noop") parts.push(who + ": " + moveText(m));
  });
  return parts.length ? parts.join(", ") : "no one moved";
}

// seenText writes what the person's role was told of a step of a GDL-II
// match: its move and its percepts, in the sentences of the game's folder
// (t.perceptWords) and otherwise as the rules write them, labelled so.
function seenText(t, h) {
  const ps = h.percepts || [];
  const said = t.perceptWords || {};
  const told = ps.map(p => said[p] || "told, in the rules' words: " + p);
  // noop is the move of a role that waits: not worth a word, but a step
  // in which nothing was revealed still says what the person did.
  if (h.move === "noop") return told.length ? told.join(" ") : "You waited; nothing was revealed to you.";
  return "you: " + moveText(h.move) + " · " + (told.length ? told.join(" ") : "Nothing else was revealed to you.");
}

function historyItem(t, h) {
  const me = (t.roles || []).indexOf(t.role);
  const mine = t.gdlII ? h.move : h.moves[me];
  const li = el("li", {"data-step": h.step}, el("span", {class: "step-no"}, h.step + "."), " " + (t.gdlII ? seenText(t, h) : jointText(t, h.moves)));
  if (t.gdlII) li.setAttribute("data-percepts", JSON.stringify(h.percepts || []));
  if (h.timedOut) {
    li.classList.add("timeout");
    li.append(el("div", {class: "err"}, "no move chosen in time: the game master played " + moveText(mine) + " in your place"));
  } else if (h.asked && h.chosen && h.chosen !== mine) {
    li.classList.add("timeout");
    li.append(el("div", {class: "err"}, "you chose " + moveText(h.chosen) + " too late: the game master played " + moveText(mine)));
  } else if (h.forced && mine !== "noop") {
    li.classList.add("forced");
    li.append(el("div", {class: "note"}, "played for you: your only legal move"));
  }
  return li;
}

// highlight marks the cells the moves change.
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
  if (!clickMoves.size) return "";
  return "Click " + framedPlaces() + " to play there, or a move below.";
}

// framedPlaces names, in the board's words, what a click can play: the
// places framed while it is the person's turn (bindBoard).
function framedPlaces() {
  if (columnGame) return "a column with a framed cell (where your disc lands)";
  return layout ? "a framed square" : "a framed part of the board";
}

function cellClicked(e) {
  const ms = clickMoves.get(e);
  let c = new Set([...ms].filter(m => !candidates || candidates.has(m)));
  if (c.size === 0) c = new Set(ms);
  if (c.size === 1) { choose([...c][0]); return; }
  setCandidates(c);
}

// boardClicked plays or narrows the moves of the cell clicked, or says
// why the click does nothing.
function boardClicked(ev) {
  let e = ev.target;
  while (e && e !== $("board") && !clickMoves.has(e)) e = e.parentElement;
  if (e && clickMoves.has(e) && turn && turn.status === "to-move" && !sent) {
    ev.preventDefault();
    cellClicked(e);
    return;
  }
  if (!turn) return;
  if (turn.status !== "to-move" || sent) { noticeOutOfTurn(turn); return; }
  const c = layout && layout.cells.find(c => c.e.contains(ev.target));
  notice(nothingHere(c) + " " + (clickMoves.size ? "Click " + framedPlaces() + ", or a move below." : "Choose a move below."));
  {
    for (const m of clickMoves.keys()) {
      m.classList.remove("flash");
      void m.offsetWidth; // restart the animation
      m.classList.add("flash");
    }
  }
}

// nothingHere says, in the board's words, why a click on the cell c (null:
// beside the cells) plays nothing.
function nothingHere(c) {
  if (!layout) return "This board does not take clicks: choose your move with its button.";
  if (!c) return "That is not a square of the board.";
  if (columnGame) return "Column " + c[layout.across] + " is full: no disc can go there.";
  const where = layout.chess ? "Square " + layout.name(c) : "This square";
  const taken = c.e.textContent.trim() !== "" && !c.e.classList.contains("blank") || c.e.querySelector("img, svg");
  return taken ? where + " is taken: none of your moves can use it." : "None of your moves uses " + where.charAt(0).toLowerCase() + where.slice(1) + ".";
}

// columnMoves returns, for each column of the board, the moves that name
// the column but no row (such as connectFour's drop) and change cells of
// that column alone: a click anywhere in the column plays such a move.
function columnMoves(t) {
  const byCol = new Map();
  if (!layout) return byCol;
  const cellOf = new Map(layout.cells.map(c => [c.e, c]));
  for (const eff of t.effects) {
    const changed = [];
    for (const [e, ms] of cellMoves) if (ms.has(eff.move)) changed.push(cellOf.get(e));
    if (!changed.length || changed.some(c => !c || c.col !== changed[0].col)) continue;
    let words;
    try { words = [parseKIF(eff.move)].flat(Infinity); } catch (e) { continue; }
    const col = changed[0][layout.across];
    const count = v => words.filter(w => w === v).length;
    if (count(col) === 0 || changed.some(c => count(c[layout.down]) > (c[layout.down] === col ? 1 : 0))) continue;
    const k = changed[0].col;
    if (!byCol.has(k)) byCol.set(k, new Set());
    byCol.get(k).add(eff.move);
  }
  return byCol;
}

// bindBoard makes the cells of the board choose moves.
function bindBoard(t, drawn) {
  cellMoves = new Map();
  clickMoves = new Map();
  candidates = null;
  columnGame = false;
  if (t.status !== "to-move" || !t.effects || !drawn) return;
  cellMoves = boardMoves($("board"), drawn, t.effects, {domain, side: t.side});
  // What every move changes (whose turn it is, a step counter) does not
  // tell the moves apart.
  if (t.effects.length > 1) {
    for (const [e, ms] of cellMoves) if (ms.size === t.effects.length) cellMoves.delete(e);
  }
  const byCol = columnMoves(t);
  columnGame = byCol.size > 0;
  if (layout) {
    for (const c of layout.cells) {
      const ms = byCol.get(c.col);
      if (ms && ms.size === 1 && !cellMoves.has(c.e)) clickMoves.set(c.e, ms);
    }
  }
  for (const [e, ms] of cellMoves) clickMoves.set(e, ms);
  if (t.gdlII) namedCells(t);
  // The cells a move changes are framed (style.css); every cell a click
  // plays is a button to the keyboard and to a screen reader.
  for (const e of cellMoves.keys()) e.classList.add("playable");
  for (const [e, ms] of clickMoves) {
    e.classList.add("movable");
    e.setAttribute("role", "button");
    e.setAttribute("tabindex", "0");
    e.setAttribute("aria-label", ms.size === 1 ? "play: " + moveText([...ms][0]) : "choose among " + ms.size + " moves: " + [...ms].map(moveText).join(", "));
    e.addEventListener("keydown", ev => {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      if (turn && turn.status === "to-move" && !sent) cellClicked(e);
    });
    if (ms.size === 1) e.setAttribute("data-move", [...ms][0]);
    e.addEventListener("mouseenter", () => highlight(new Set([...ms].filter(m => !candidates || candidates.has(m))), "hover"));
    e.addEventListener("mouseleave", () => highlight(null, "hover"));
  }
}

// namedCells binds, in a GDL-II match, a move that changes no cell the
// person can tell (it may fail: the cell may be taken) to the one cell
// whose coordinates it names, in order, as (mark 2 3) names the cell 2 3.
function namedCells(t) {
  if (!layout) return;
  const bound = new Set();
  for (const ms of clickMoves.values()) for (const m of ms) bound.add(m);
  for (const m of t.legal) {
    if (bound.has(m)) continue;
    let words;
    try { words = [parseKIF(m)].flat(Infinity); } catch (e) { continue; }
    const named = layout.cells.filter(c => words.some((w, i) => w === c.x && words[i + 1] === c.y));
    if (named.length !== 1 || clickMoves.has(named[0].e)) continue;
    clickMoves.set(named[0].e, new Set([m]));
    cellMoves.set(named[0].e, new Set([m]));
  }
}

// markDecisive marks the cells of the final state that decided the
// result, when they hold pieces of one kind: the winning line of a game
// of lines. Cells of mixed contents (the pieces and the empty squares of
// a mate in chess) are no line, and are not marked.
// The facts are the seat's, or, in a GDL-II match, which the person's
// player never saw the end of, those of the true final state (t.truth).
// It returns whether it marked any.
function markDecisive(t) {
  const decisive = t.truth ? t.truth.decisive : t.decisive;
  if (t.status !== "over" || !decisive || !layout) return false;
  const cells = [];
  for (const text of decisive) {
    let f;
    try { f = parseState("(" + text + ")")[0]; } catch (e) { continue; }
    if (f.length !== 4 || f[0] !== layout.rel) continue;
    const c = layout.cells.find(c => c.x === f[1] && c.y === f[2]);
    if (c) cells.push([c, f[3]]);
  }
  if (new Set(cells.map(c => c[1])).size !== 1) return false;
  for (const [c] of cells) {
    c.e.classList.add("decisive");
    c.e.setAttribute("aria-label", "part of the line that decided the match");
  }
  return cells.length > 0;
}

async function loadMatch(src, t) {
  procFor = src;
  proc = null;
  styleError = "";
  domain = new Domain();
  // Of a GDL-II match, the page draws only the facts the seat sends.
  const info = t.gdlII ? {game: t.game} : await fetchJSON("/api/record?src=" + encodeURIComponent(src));
  if (info.record) for (const st of info.record.states) domain.addState(st);
  if (info.game && info.game.stylesheet) {
    try { proc = await loadStylesheet(src); } catch (e) { styleError = e.message; }
  }
}

// matchLink links the match's page: of a GDL-II match only once it is
// over, since it shows what the person must not see.
function matchLink(t, src) {
  const box = $("matchLink");
  if (!src) { box.replaceChildren(); return; }
  if (!t.gdlII) { box.replaceChildren(el("a", {href: "/match?src=" + encodeURIComponent(src), target: "_blank"}, "the match so far")); return; }
  box.replaceChildren(t.status === "over" ? el("a", {href: "/match?src=" + encodeURIComponent(src), target: "_blank"}, "the whole match, now that it is over") : "");
}

// markUnknown marks, on the board of a GDL-II match, the cells whose
// content the person does not know: no fact of the state sent names them.
// It returns how many.
function markUnknown(t) {
  if (!layout) return 0;
  const known = new Set();
  for (const text of t.state || []) {
    let f;
    try { f = parseState("(" + text + ")")[0]; } catch (e) { continue; }
    if (f.length === 4 && f[0] === layout.rel) known.add(f[1] + "\u0000" + f[2]);
  }
  let n = 0;
  for (const c of layout.cells) {
    if (known.has(c.x + "\u0000" + c.y)) continue;
    c.e.classList.add("unknown");
    if (!c.e.textContent.trim() && !c.e.querySelector("img, svg")) c.e.append("?");
    n++;
  }
  return n;
}

// knownText says what the board of a GDL-II match shows, once the match
// has started.
function knownText(t, unknown) {
  if (!t.gdlII || !t.state || t.status === "waiting" || starting(t)) return "";
  return "You see only part of the game: the board shows what you know for sure from what you were told" +
    (unknown ? "; ? marks a square whose content you do not know." : ".") +
    // Past a thousand positions the player keeps a sample of them.
    (t.sampled ? " Too many positions are possible to check them all: the board is worked out from a sample of them, and may show what is only likely." : "");
}

function statusText(t) {
  return starting(t) ? "starting" : seatStatusText(t.status, t.aborted);
}

// startText says why nothing happens while the match starts.
function startText(t) {
  const s = Math.round((t.startsInMs || 0) / 1000);
  return "The match is starting: the other players are reading the rules and getting ready, for up to " + s +
    " s more (their start clock). Your first turn comes once they are ready; your own clock does not run meanwhile.";
}

// showTruth draws, once a GDL-II match is over, what was hidden: the true
// final board and every role's moves, nature's too.
function showTruth(t) {
  const box = $("truth");
  box.hidden = !t.truth;
  if (!t.truth) { box.replaceChildren(); return; }
  const moves = el("ol", {class: "history", id: "truthMoves"}, ...t.truth.moves.map((joint, k) =>
    el("li", {"data-step": k + 1}, el("span", {class: "step-no"}, (k + 1) + "."), " " + jointText(t, joint, t.truth.nature))));
  box.replaceChildren(el("h2", {}, "What really happened"),
    el("p", {class: "note"}, "Now that the match is over nothing is hidden: the board shows the true final state, and here are everyone's moves."),
    moves);
}

async function update(t) {
  turn = t;
  sent = false;
  abortReason = t.abortReason || "";
  if (t.status === "to-move") deadline = Date.now() + t.remainingMs;
  startsBy = t.startsInMs ? Date.now() + t.startsInMs : 0;
  moveWords = t.moveWords || {};
  const src = t.source || "";
  if (src && procFor !== src) await loadMatch(src, t);
  matchLink(t, src);
  if (t.matchId !== domainFor) { domainFor = t.matchId; if (!src) domain = new Domain(); }
  $("errors").replaceChildren(styleError ? el("div", {class: "error-box"}, "the game's stylesheet failed: " + styleError) : "");
  $("title").textContent = t.name + (t.role ? " as " + t.role : "") + (t.matchId ? " · " + t.matchId : "");
  const st = $("status");
  st.textContent = statusText(t);
  st.className = "badge" + (t.status === "to-move" ? " live" : t.status === "over" ? (t.aborted ? " aborted" : " done") : "");
  document.body.setAttribute("data-status", t.status);
  document.body.setAttribute("data-step", t.step);
  document.body.toggleAttribute("data-aborted", !!t.aborted);
  document.body.removeAttribute("data-sent");
  if (outOfTurn && t.status !== "to-move") noticeOutOfTurn(t);
  else notice("");
  const about = t.game && t.game.description ? t.game.description : "";
  $("about").replaceChildren(...(about ? [el("b", {}, (t.game.name || t.game.key) + ": "), about] : []));
  $("about").hidden = !about;

  let drawn = null;
  if (t.truth) {
    domain.addState(t.truth.final);
    drawn = drawBoard($("board"), t.truth.final, proc, {domain, over: true, side: t.side});
  } else if (t.state) {
    const facts = "(" + t.state.join(" ") + ")";
    domain.addState(facts);
    // What a GDL-II move changes is a guess: it does not say which facts
    // are the board's cells.
    for (const e of t.effects || []) domain.addState("(" + e.added.join(" ") + ")", t.gdlII);
    drawn = drawBoard($("board"), facts, proc, {domain, over: t.status === "over", side: t.side});
  }
  layout = drawn && drawn.layout;
  const lastSeen = t.gdlII && t.history && t.history.length ? t.history[t.history.length - 1] : null;
  $("last").textContent = lastSeen ? "step " + lastSeen.step + ": " + seenText(t, lastSeen)
    : t.last && t.last.length ? "last move: " + jointText(t, t.last) : "";
  $("turn").textContent = t.status === "to-move" ? "Step " + (t.step + 1) + ": choose a move for " + t.role
    : t.status === "waiting" ? "Waiting for a match: the clock starts once this page is open."
    : starting(t) ? startText(t)
    : t.status === "others" ? (t.chosen ? "You chose " + moveText(t.chosen) + "; waiting for the others." : "Waiting for the others.") : "";
  const moves = $("moves");
  moves.replaceChildren(...(t.status === "to-move" ? t.legal : []).map(m => {
    const b = el("button", {"data-move": m}, moveText(m));
    b.addEventListener("click", () => choose(m));
    b.addEventListener("mouseenter", () => highlight(new Set([m]), "hover"));
    b.addEventListener("mouseleave", () => highlight(null, "hover"));
    return b;
  }));
  bindBoard(t, drawn);
  const marked = markDecisive(t);
  // Once the moves are bound: a cell marked unknown looks changed.
  $("known").textContent = (t.truth ? "The board shows the true final state, which you could not see while you played." : knownText(t, t.gdlII ? markUnknown(t) : 0)) +
    (marked ? (t.truth ? " " : "") + "Ringed in purple: the line that decided the match." : "");
  showTruth(t);
  $("hint").textContent = boardHint();
  $("message").textContent = t.status === "over" ? "" : t.message || "";

  const out = $("outcome");
  out.hidden = t.status !== "over";
  if (t.status === "over") {
    const parts = [];
    if (t.aborted) {
      parts.push(el("div", {class: "result"}, /interrupt/.test(t.message + abortReason) ? "The match was interrupted" : "The match was aborted"));
      if (t.message) parts.push(el("div", {class: "err"}, t.message));
      if (abortReason) parts.push(el("div", {class: "note"}, "game master: " + abortReason));
    } else {
      if (t.outcome) parts.push(el("div", {class: "result"}, t.outcome.charAt(0).toUpperCase() + t.outcome.slice(1)));
      if (t.goals) parts.push(el("div", {class: "goals"}, "goals: " + t.goals.map((g, i) => [roleName(t, i), g]).filter(([r]) => r !== t.nature).map(([r, g]) => r + (r === t.role ? " (you)" : "") + " " + g).join(", ")));
      if (t.message) parts.push(el("div", {class: "err"}, t.message));
    }
    if (!parts.length) parts.push(el("div", {}, "The match is over."));
    out.replaceChildren(...parts);
  }
  const hist = $("history");
  hist.replaceChildren(...(t.history || []).map(h => historyItem(t, h)));
  hist.scrollTop = hist.scrollHeight; // the newest step in sight
  tick();
}

// The connection to the viewer. A page whose viewer stops says so, and
// keeps trying; a viewer that answers but does not know this seat serves
// another match (a seat's address holds an id of its own viewer): the
// page says that its match is over and stops, so that it never counts as
// the page of another match's seat.
function connection(state, text) {
  document.body.setAttribute("data-connection", state);
  const c = $("connection");
  c.textContent = text || "";
  c.hidden = !text;
}

function gone(why) {
  connection("gone", "This page's match is over: the viewer at this address does not serve its seat any more (" + why + "). To play another match, open the seat address that ggp printed for it.");
  $("status").textContent = "match over";
  $("status").className = "badge done";
  $("moves").replaceChildren();
  cellMoves = new Map();
  clickMoves = new Map();
  $("countdown").textContent = "";
  turn = null;
}

let chain = Promise.resolve();

function watch() {
  const es = new EventSource("/api/seat/watch?id=" + encodeURIComponent(id));
  es.onopen = () => connection("open", "");
  es.onmessage = e => { const t = JSON.parse(e.data); chain = chain.then(() => update(t)); };
  es.onerror = async () => {
    connection("lost", "Lost the connection to the viewer: ggp has stopped, or the network is down. Trying again…");
    if (es.readyState !== EventSource.CLOSED) return; // the browser tries again itself
    es.close();
    const r = await fetchJSON("/api/seat?id=" + encodeURIComponent(id)).catch(() => null);
    if (r && r.error && /no seat/.test(r.error)) { gone(r.error); return; }
    setTimeout(watch, 2000);
  };
  window.addEventListener("pagehide", () => es.close(), {once: true});
}

(async function start() {
  $("board").addEventListener("click", boardClicked);
  // A seat that does not exist says so, rather than waiting for events.
  const first = await fetchJSON("/api/seat?id=" + encodeURIComponent(id)).catch(e => ({error: "the viewer cannot be reached"}));
  if (first.error) {
    $("errors").replaceChildren(el("div", {class: "error-box", id: "seat-error"}, first.error));
    document.body.setAttribute("data-status", "missing");
    return;
  }
  watch();
})();
