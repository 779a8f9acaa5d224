// A seat: the board and the legal moves of a human player's role; a click
// on a move sends it, before the countdown ends.
"use strict";

const id = new URLSearchParams(location.search).get("id") || "";
const $ = i => document.getElementById(i);
let turn = null;
let deadline = 0;      // local time (ms) when the move is due
let proc = null, procFor = null, styleError = "";

function tick() {
  const cd = $("countdown");
  if (!turn || turn.status !== "to-move") { cd.textContent = ""; return; }
  const left = Math.max(0, deadline - Date.now());
  cd.textContent = (left / 1000).toFixed(1) + " s";
  cd.classList.toggle("low", left < 3000);
}
setInterval(tick, 100);

async function choose(move) {
  for (const b of $("moves").querySelectorAll("button")) b.disabled = true;
  const resp = await fetch("/api/seat/move?id=" + encodeURIComponent(id), {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({step: turn.step, move: move}),
  });
  if (!resp.ok) {
    const body = await resp.json().catch(() => ({error: resp.statusText}));
    $("message").textContent = "move refused: " + body.error;
  }
}

async function update(t) {
  turn = t;
  if (t.status === "to-move") deadline = Date.now() + t.remainingMs;
  const src = t.source || "";
  if (src && procFor !== src) {
    procFor = src;
    proc = null;
    styleError = "";
    const info = await fetchJSON("/api/record?src=" + encodeURIComponent(src));
    if (info.game && info.game.stylesheet) {
      try { proc = await loadStylesheet(src); } catch (e) { styleError = e.message; }
    }
    $("matchLink").replaceChildren(el("a", {href: "/match?src=" + encodeURIComponent(src), target: "_blank"}, "the match so far"));
  }
  $("errors").replaceChildren(styleError ? el("div", {class: "error-box"}, "the game's stylesheet failed: " + styleError) : "");
  $("title").textContent = t.name + (t.role ? " as " + t.role : "") + (t.matchId ? " · " + t.matchId : "");
  const st = $("status");
  st.textContent = {"waiting": "waiting for a match", "to-move": "your move", "others": "waiting for the others", "over": "match over"}[t.status] || t.status;
  st.className = "badge" + (t.status === "to-move" ? " live" : t.status === "over" ? " done" : "");
  document.body.setAttribute("data-status", t.status);
  document.body.setAttribute("data-step", t.step);
  if (t.state) {
    drawBoard($("board"), "(" + t.state.join(" ") + ")", proc);
  }
  $("last").textContent = t.last ? "last joint move: " + t.last.join(", ") : "";
  $("turn").textContent = t.status === "to-move" ? "Step " + (t.step + 1) + ": choose a move for " + t.role : (t.chosen ? "you chose " + t.chosen : "");
  const moves = $("moves");
  moves.replaceChildren(...(t.status === "to-move" ? t.legal : []).map(m => {
    const b = el("button", {"data-move": m}, m);
    b.addEventListener("click", () => choose(m));
    return b;
  }));
  $("message").textContent = t.message || "";
  tick();
}

let chain = Promise.resolve();
const es = new EventSource("/api/seat/watch?id=" + encodeURIComponent(id));
es.onmessage = e => { const t = JSON.parse(e.data); chain = chain.then(() => update(t)); };
window.addEventListener("pagehide", () => es.close());
es.onerror = () => { if (es.readyState === EventSource.CLOSED) $("message").textContent = "lost the connection to the viewer"; };
