// The match page: the board of each state, a slider, the moves, clocks and
// goals; it follows the record as it changes. Of a GDL-II match it shows
// as well what each role saw at each step: its own move and its percepts.
"use strict";

const src = new URLSearchParams(location.search).get("src") || "";
let view = null;       // the last matchView received
let step = 0;          // the state shown
let proc = null;       // the compiled stylesheet, if any
let procFor = null;    // the game key proc was loaded for
let styleError = "";
let domain = new Domain(); // the values of every state's coordinates
let domainStates = 0;      // the states of view.record added to domain

const $ = id => document.getElementById(id);

function showError(msg) {
  $("errors").replaceChildren(msg ? el("div", {class: "error-box", id: "record-error"}, msg) : "");
}

// isNature reports whether role is the role of chance of a GDL-II match,
// which the game master plays and which is not scored.
function isNature(rec, role) {
  return !!rec.gdlII && !!rec.nature && role === rec.nature;
}

// moveEl writes a role's move as a person reads it: in the words of the
// game's folder (view.moveWords), "waits" for noop, the conventional move
// of a role that only waits, and otherwise as the rules write it,
// labelled so.
function moveEl(m) {
  if (m === "noop") return el("span", {class: "note move waits", "data-move": m, title: "noop: the move of a player that waits"}, "waits");
  const words = (view.moveWords || {})[m];
  if (words) return el("span", {class: "move", "data-move": m, title: "in the rules: " + m}, words);
  return el("span", {class: "code move raw", "data-move": m, title: "as the rules write it"}, m);
}

// perceptText writes a percept as a person reads it: in the sentence of
// the game's folder, or as the rules write it, labelled so.
function perceptText(p) {
  const words = (view.perceptWords || {})[p];
  return words || "told, in the rules' words: " + p;
}

function errorsOf(rec, i) {
  return (rec.errors && rec.errors[i]) || [];
}

function renderStep() {
  const rec = view.record;
  const n = rec.states.length - 1;
  step = Math.max(0, Math.min(step, n));
  $("slider").max = n;
  $("slider").value = step;
  $("stepLabel").textContent = "state " + step + " of " + n;
  $("board").setAttribute("data-step", step);
  drawBoard($("board"), rec.states[step], proc, {domain, over: step === n && rec.isCompleted});
  const info = $("stepInfo");
  info.replaceChildren();
  if (step > 0) {
    const errs = errorsOf(rec, step);
    const t = rec.stateTimes[step] - rec.stateTimes[step - 1];
    const ul = el("ul", {class: "joint"});
    rec.moves[step - 1].forEach((m, i) => {
      const li = el("li", {}, (rec.roles ? rec.roles[i] : "role " + (i + 1)) + ": ", moveEl(m));
      if (errs[i]) li.append(" ", el("span", {class: "err code"}, errs[i]));
      if (rec.gdlII && rec.roles && rec.roles[i] !== rec.nature) li.append(" · was told: ", perceptsOf(rec, step - 1, i));
      ul.append(li);
    });
    info.append(el("div", {}, "Step " + step + " (" + fmtDuration(t) + "): what each player did"), ul);
  } else {
    info.append(el("div", {class: "note"}, "initial state"));
    const errs = errorsOf(rec, 0).map((e, i) => e ? (rec.roles ? rec.roles[i] : i) + " " + e : "").filter(Boolean);
    if (errs.length) info.append(el("div", {class: "err"}, "start: " + errs.join(", ")));
  }
  if (step === n && rec.isCompleted) {
    // Nature plays to no end: it has no goal to show.
    info.append(el("div", {class: "goals"}, "goals: " + rec.goalValues.map((g, i) => [rec.roles ? rec.roles[i] : String(i), g]).filter(([r]) => !isNature(rec, r)).map(([r, g]) => r + " " + g).join(", ")));
  }
  for (const tr of document.querySelectorAll("#moves tr.step, #seen tr.step")) {
    tr.classList.toggle("current", Number(tr.dataset.step) === step);
  }
}

// perceptsOf returns what role i was told at step k (0 for the first
// step) of a GDL-II record, its percepts in words, as an element:
// "nothing" when none.
function perceptsOf(rec, k, i) {
  const ps = ((rec.percepts || [])[k] || [])[i] || [];
  if (!ps.length) return el("span", {class: "note percepts"}, "nothing");
  const span = el("span", {class: "percepts"});
  ps.forEach((p, j) => span.append(j ? " " : "", el("span", {class: "percept", "data-percept": p}, perceptText(p))));
  return span;
}

// renderSeen shows, for a GDL-II match, what each role (but nature) saw
// at each step: its own move and its percepts, all it is told.
function renderSeen(rec, roles) {
  const box = $("seenBox");
  box.hidden = !rec.gdlII;
  if (!rec.gdlII) return;
  const seers = roles.map((r, i) => i).filter(i => roles[i] !== rec.nature);
  const table = $("seen");
  table.replaceChildren(el("tr", {}, el("th", {}, "step"), ...seers.map(i => el("th", {"data-role": roles[i]}, roles[i]))));
  rec.moves.forEach((joint, k) => {
    const tr = el("tr", {class: "step", "data-step": k + 1}, el("td", {}, String(k + 1)));
    for (const i of seers) {
      tr.append(el("td", {"data-role": roles[i]}, el("div", {}, moveEl(joint[i])), perceptsOf(rec, k, i)));
    }
    tr.addEventListener("click", () => { step = k + 1; renderStep(); });
    table.append(tr);
  });
}

function renderMatch() {
  const rec = view.record;
  document.title = rec.matchId + " · ggp view";
  $("title").textContent = (rec.gameName || rec.gameKey || "") + " · " + rec.matchId;
  const st = $("status");
  st.className = "badge";
  if (rec.isAborted) { st.textContent = "aborted"; st.classList.add("aborted"); }
  else if (rec.isCompleted) { st.textContent = "completed"; st.classList.add("done"); }
  else { st.textContent = view.live ? "live" : "not finished"; st.classList.add("live"); }
  if (rec.isAborted && rec.abortReason) showError("aborted: " + rec.abortReason); else showError("");

  const players = $("players");
  players.replaceChildren(el("tr", {}, el("th", {}, "role"), el("th", {}, "player"), el("th", {}, "goal"), el("th", {}, "errors")));
  const roles = rec.roles || (rec.moves[0] || []).map((_, i) => "role " + (i + 1));
  roles.forEach((r, i) => {
    const counts = {TO: 0, CE: 0, IL: 0};
    for (const errs of rec.errors || []) {
      const code = (errs[i] || "").split(" ")[0];
      if (code in counts) counts[code]++;
    }
    const errText = Object.entries(counts).filter(([, v]) => v).map(([k, v]) => k + " " + v).join(", ");
    players.append(el("tr", {class: "role"}, el("td", {}, r),
      el("td", {}, (rec.playerNamesFromHost || [])[i] || ""),
      el("td", {class: "goal"}, rec.isCompleted && !isNature(rec, r) ? String(rec.goalValues[i]) : isNature(rec, r) ? "not scored (chance)" : ""),
      el("td", {class: "err"}, errText)));
  });
  const start = rec.stateTimes.length ? rec.stateTimes[0] : rec.startTime;
  const end = rec.stateTimes.length ? rec.stateTimes[rec.stateTimes.length - 1] : rec.startTime;
  $("clocks").textContent = "start clock " + rec.startClock + " s, play clock " + rec.playClock + " s; started " +
    fmtTime(rec.startTime) + ", " + ((end - start) / 1000).toFixed(1) + " s played";

  const moves = $("moves");
  moves.replaceChildren(el("tr", {}, el("th", {}, "step"), ...roles.map(r => el("th", {}, r)), el("th", {title: "the time the step took, from the request for moves to the last answer: a player that answers at once takes a few ms"}, "time")));
  rec.moves.forEach((joint, k) => {
    const i = k + 1;
    const errs = errorsOf(rec, i);
    const tr = el("tr", {class: "step", "data-step": i}, el("td", {}, String(i)));
    joint.forEach((m, j) => {
      const td = el("td", {}, moveEl(m));
      if (errs[j]) td.append(" ", el("span", {class: "err"}, errs[j]));
      tr.append(td);
    });
    tr.append(el("td", {class: "time"}, fmtDuration(rec.stateTimes[i] - rec.stateTimes[i - 1])));
    tr.addEventListener("click", () => { step = i; renderStep(); });
    moves.append(tr);
  });
  renderSeen(rec, roles);
  const about = view.game && view.game.description;
  $("about").replaceChildren(...(about ? [el("b", {}, (view.game.name || view.game.key) + ": "), about] : []));
  $("about").hidden = !about;
  const note = [];
  if (view.game && view.game.error) note.push("stylesheet: " + view.game.error);
  if (styleError) note.push("stylesheet: " + styleError);
  if (view.game && view.game.note) note.push(view.game.note);
  if (view.game && view.game.stylesheet && !view.game.sameRules) note.push("the stylesheet is that of " + view.game.folder + ", whose rules differ from the record's");
  $("boardNote").textContent = note.join("; ");
  if (styleError || (view.game && view.game.error)) {
    $("errors").append(el("div", {class: "error-box", id: "stylesheet-error"}, "the game's stylesheet cannot be used: " + (styleError || view.game.error) + "; boards drawn by the generic renderer"));
  }
  renderStep();
}

async function update(v) {
  if (v.error && !v.record) {
    showError(v.error);
    return;
  }
  const atEnd = !view || step === view.record.states.length - 1;
  view = v;
  const key = v.game ? v.game.key : "";
  if (procFor !== key) {
    procFor = key;
    proc = null;
    styleError = "";
    if (v.game && v.game.stylesheet) {
      try { proc = await loadStylesheet(src); } catch (e) { styleError = e.message; }
    }
  }
  if (atEnd) step = v.record.states.length - 1;
  if (v.record.states.length < domainStates) { domain = new Domain(); domainStates = 0; }
  for (; domainStates < v.record.states.length; domainStates++) domain.addState(v.record.states[domainStates]);
  renderMatch();
  document.body.setAttribute("data-states", v.record.states.length);
}

function go(s) { if (view) { step = s; renderStep(); } }

$("slider").addEventListener("input", e => go(Number(e.target.value)));
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(step - 1));
$("next").addEventListener("click", () => go(step + 1));
$("last").addEventListener("click", () => go(view ? view.record.states.length - 1 : 0));
document.addEventListener("keydown", e => {
  if (!view) return;
  if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
  else if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
  else if (e.key === "Home") { go(0); e.preventDefault(); }
  else if (e.key === "End") { go(view.record.states.length - 1); e.preventDefault(); }
});

(async function start() {
  const first = await fetchJSON("/api/record?src=" + encodeURIComponent(src));
  let chain = update(first);
  const es = new EventSource("/api/watch?src=" + encodeURIComponent(src));
  es.onmessage = e => { const v = JSON.parse(e.data); chain = chain.then(() => update(v)); };
  // Browsers allow few connections to one server: free this one at once.
  window.addEventListener("pagehide", () => es.close());
})();
