// The index: matches, tournaments with their results and plot, live
// matches and seats.
"use strict";

const $ = id => document.getElementById(id);

function errorText(m) {
  if (!m.errors) return "";
  const parts = [];
  m.errors.forEach((c, i) => {
    const kinds = ["TO", "CE", "IL"].filter(k => c[k]).map(k => k + " " + c[k]);
    if (kinds.length) parts.push((m.roles ? m.roles[i] : i) + ": " + kinds.join(" "));
  });
  return parts.join("; ");
}

function resultText(m) {
  if (m.completed) return m.result || "";
  if (m.aborted) return "aborted";
  return "in progress (" + m.steps + (m.steps === 1 ? " step)" : " steps)");
}

function matchRows(table, list) {
  table.replaceChildren(el("tr", {}, ...["game", "match", "players", "date", "steps", "result", "errors"].map(h => el("th", {}, h))));
  for (const m of list) {
    const link = el("a", {href: "/match?src=" + encodeURIComponent(m.source)}, m.matchId || m.file || m.source);
    if (!m.matchId) {
      table.append(el("tr", {class: "bad"}, el("td", {}, ""), el("td", {}, link), el("td", {colspan: 5, class: "err"}, m.error)));
      continue;
    }
    const players = (m.roles || []).map((r, i) => r + ": " + ((m.players || [])[i] || "?")).join(", ");
    table.append(el("tr", {class: "match"},
      el("td", {}, m.gameName || m.game || ""), el("td", {}, link), el("td", {}, players),
      el("td", {}, fmtTime(m.startTime)), el("td", {}, String(m.steps)),
      el("td", {class: m.aborted ? "err" : ""}, resultText(m)),
      el("td", {class: "err"}, [errorText(m), m.aborted ? m.error : ""].filter(Boolean).join("; "))));
  }
}

function tournamentBox(t) {
  const box = el("div", {class: "tournament"});
  const res = t.results;
  box.append(el("h3", {}, (res && res.name) || t.dir), el("div", {class: "note"}, t.dir));
  if (t.error) { box.append(el("div", {class: "error-box"}, t.error)); return box; }
  const done = res.matches.filter(m => m.completed).length;
  box.append(el("div", {class: "note"}, "games: " + res.games.join(", ") + "; " + done + " of " + res.matches.length + " matches completed"));
  const table = el("table", {class: "list standings"});
  table.append(el("tr", {}, ...["player", "matches", "mean goal", "95% CI", "wins", "draws", "losses", "TO", "CE", "IL", "incomplete"].map(h => el("th", {}, h))));
  for (const s of res.standings) {
    table.append(el("tr", {},
      el("td", {}, s.player), el("td", {}, String(s.matches)), el("td", {}, s.goalMean.toFixed(1)),
      el("td", {}, s.goalCI95 >= 0 ? "± " + s.goalCI95.toFixed(1) : ""),
      el("td", {}, String(s.wins)), el("td", {}, String(s.draws)), el("td", {}, String(s.losses)),
      el("td", {}, String(s.errors.TO)), el("td", {}, String(s.errors.CE)), el("td", {}, String(s.errors.IL)),
      el("td", {}, String(s.incomplete))));
  }
  const plot = el("div", {class: "plot"}, el("img", {src: "/api/plot?src=" + encodeURIComponent(t.source) + "&t=" + Date.now(), alt: "mean goal per player with 95% confidence interval"}));
  box.append(el("div", {class: "layout"}, table, plot));
  return box;
}

let lastIndex = "";

// load shows the index, when it has changed since it was last shown.
async function load() {
  const resp = await fetch("/api/index").catch(e => null);
  if (!resp) return;
  const text = await resp.text();
  if (text === lastIndex) return;
  lastIndex = text;
  let idx;
  try { idx = JSON.parse(text); } catch (e) { idx = {error: resp.status + " " + resp.statusText}; }
  if (idx.error) { $("errors").replaceChildren(el("div", {class: "error-box"}, idx.error)); return; }
  // A viewer without folders (ggp match without --out) shows its live
  // matches alone.
  const folders = idx.folders || [];
  $("folders").textContent = folders.length ? folders.join(", ") : "matches played here (no folder of records)";
  $("errors").replaceChildren(...(idx.errors || []).map(e => el("div", {class: "error-box"}, e)));
  const seats = idx.seats || [], live = idx.live || [], tournaments = idx.tournaments || [], matches = idx.matches || [];
  $("seats-section").hidden = !seats.length;
  $("seats").replaceChildren(el("tr", {}, el("th", {}, "seat"), el("th", {}, "match"), el("th", {}, "role"), el("th", {}, "status")),
    ...seats.map((s, i) => el("tr", {}, el("td", {}, el("a", {href: s.path}, "play as " + s.name + (seats.length > 1 ? " #" + (i + 1) : ""))),
      el("td", {}, s.matchId || ""), el("td", {}, s.role || ""), el("td", {}, seatStatusText(s.status)))));
  $("live-section").hidden = !live.length;
  matchRows($("live"), live);
  $("tournaments-section").hidden = !tournaments.length;
  $("tournaments").replaceChildren(...tournaments.map(tournamentBox));
  $("count").textContent = "(" + matches.length + ")";
  matchRows($("matches"), matches);
  document.body.setAttribute("data-loaded", "true");
}

// New matches and the progress of live ones appear without a reload.
const refresh = 2000;
(async function loop() {
  await load();
  setTimeout(loop, refresh);
})();
