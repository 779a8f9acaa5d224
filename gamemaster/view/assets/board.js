// Boards: parse a state as a record stores it, "((cell 1 1 b) (control x))",
// and draw it with the game's XSL stylesheet or the generic renderer.
"use strict";

// parseKIF reads KIF text into nested arrays of symbols.
function parseKIF(text) {
  const tokens = text.match(/\(|\)|[^\s()]+/g) || [];
  let i = 0;
  function term() {
    const t = tokens[i++];
    if (t === undefined) throw new Error("unexpected end of state");
    if (t === ")") throw new Error("unexpected )");
    if (t !== "(") return t;
    const list = [];
    while (tokens[i] !== ")") {
      if (i >= tokens.length) throw new Error("missing )");
      list.push(term());
    }
    i++;
    return list;
  }
  const out = term();
  if (i !== tokens.length) throw new Error("text after the state");
  return out;
}

function kifText(t) {
  return Array.isArray(t) ? "(" + t.map(kifText).join(" ") + ")" : t;
}

// parseState returns the facts of a state: each an array of its relation
// and its arguments, nested terms written as KIF text.
function parseState(text) {
  const list = parseKIF(text);
  if (!Array.isArray(list)) throw new Error("a state is a list of facts");
  return list.map(f => Array.isArray(f) ? [kifText(f[0])].concat(f.slice(1).map(kifText)) : [f]);
}

// stateXML builds ggp-base's XML document of a state:
// <state><fact><relation>cell</relation><argument>1</argument>...</fact></state>.
function stateXML(facts) {
  const doc = document.implementation.createDocument(null, "state", null);
  for (const f of facts) {
    const fact = doc.createElement("fact");
    const rel = doc.createElement("relation");
    rel.textContent = f[0];
    fact.appendChild(rel);
    for (const a of f.slice(1)) {
      const arg = doc.createElement("argument");
      arg.textContent = a;
      fact.appendChild(arg);
    }
    doc.documentElement.appendChild(fact);
  }
  return doc;
}

// loadStylesheet fetches and compiles the stylesheet of a match source.
async function loadStylesheet(src) {
  if (typeof XSLTProcessor === "undefined") throw new Error("this browser cannot run XSL stylesheets");
  const resp = await fetch("/api/stylesheet?src=" + encodeURIComponent(src));
  const text = await resp.text();
  if (!resp.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error; } catch (e) {}
    throw new Error(msg);
  }
  const xsl = new DOMParser().parseFromString(text, "application/xml");
  const perr = xsl.getElementsByTagName("parsererror");
  if (perr.length) throw new Error("the stylesheet is not well-formed XML: " + perr[0].textContent);
  const proc = new XSLTProcessor();
  proc.importStylesheet(xsl);
  return proc;
}

function isNumber(s) { return /^-?\d+$/.test(s); }

function sortValues(vs) {
  if (vs.every(isNumber)) return vs.sort((a, b) => a - b);
  return vs.sort();
}

// cellRelation finds the facts that look like cells: the relation with
// the most facts of three arguments (two coordinates and a content) in
// which no two facts share their coordinates.
function cellRelation(facts) {
  const groups = new Map();
  for (const f of facts) {
    if (f.length !== 4) continue;
    if (!groups.has(f[0])) groups.set(f[0], []);
    groups.get(f[0]).push(f);
  }
  let best = null;
  for (const [rel, fs] of groups) {
    const keys = new Set(fs.map(f => f[1] + "\u0000" + f[2]));
    if (keys.size !== fs.length || fs.length < 2) continue;
    if (!best || fs.length > best.facts.length) best = {rel, facts: fs};
  }
  return best;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// A Domain keeps, for every relation of three arguments, the values seen
// in each of its first two arguments, so that the generic renderer draws
// a board of the same shape at every step: it is given every state of a
// match, and on a seat the states the legal moves lead to. It keeps the
// first state given, the match's initial state, as first.
class Domain {
  constructor() { this.rels = new Map(); this.cells = new Map(); this.first = null; }
  // addFacts adds the values of facts; unless valuesOnly is set, they are
  // a state, and count for which relation holds the cells.
  addFacts(facts, valuesOnly) {
    if (!valuesOnly && !this.first) this.first = facts;
    // Which relation holds the cells, counted over the states seen: a
    // state with one piece left, or none, is drawn on the same grid.
    const c = !valuesOnly && cellRelation(facts);
    if (c) this.cells.set(c.rel, (this.cells.get(c.rel) || 0) + 1);
    for (const f of facts) {
      if (f.length !== 4) continue;
      if (!this.rels.has(f[0])) this.rels.set(f[0], [new Set(), new Set(), 0]);
      const d = this.rels.get(f[0]);
      d[0].add(f[1]);
      d[1].add(f[2]);
      d[2] = Math.max(d[2], f[3].length);
    }
  }
  addState(text, valuesOnly) {
    try { this.addFacts(parseState(text), valuesOnly); } catch (e) { /* shown when drawn */ }
  }
  // values returns the sorted values of coordinate i (0 or 1) of rel,
  // with those of the state drawn, filling the gaps of a run of numbers
  // or of single letters: a row without pieces is still a row.
  values(rel, i, current) {
    const vs = new Set(current);
    const d = this.rels.get(rel);
    if (d) for (const v of d[i]) vs.add(v);
    return fillRange(sortValues([...vs]));
  }
  // cellRelation returns the relation that held the cells in the most
  // states seen, if any.
  cellRelation() {
    let best = null, n = 0;
    for (const [rel, k] of this.cells) if (k > n) { best = rel; n = k; }
    return best;
  }
  // width returns the length of the longest content of rel seen.
  width(rel) {
    const d = this.rels.get(rel);
    return d ? d[2] : 0;
  }
}

function fillRange(vs) {
  if (vs.length < 2 || vs.length > 64) return vs;
  if (vs.every(isNumber)) {
    const lo = Number(vs[0]), hi = Number(vs[vs.length - 1]);
    if (hi - lo > 64) return vs;
    const out = [];
    for (let v = lo; v <= hi; v++) out.push(String(v));
    return out;
  }
  if (vs.every(v => /^[a-z]$/.test(v)) || vs.every(v => /^[A-Z]$/.test(v))) {
    const out = [];
    for (let c = vs[0].charCodeAt(0); c <= vs[vs.length - 1].charCodeAt(0); c++) out.push(String.fromCharCode(c));
    return out;
  }
  return vs;
}

// genericBoard draws the cells as a grid, the first coordinate across and
// the second down, and lists the other facts; layoutBoard then labels the
// rows and columns.
function genericBoard(facts, domain) {
  const box = el("div", {class: "generic-board"});
  let cells = cellRelation(facts);
  const known = domain && domain.cellRelation();
  if (known && (!cells || cells.rel !== known)) {
    const fs = facts.filter(f => f.length === 4 && f[0] === known);
    if (new Set(fs.map(f => f[1] + "\u0000" + f[2])).size === fs.length) cells = {rel: known, facts: fs};
  }
  let rest = facts;
  if (cells) {
    const xs = domain ? domain.values(cells.rel, 0, cells.facts.map(f => f[1])) : sortValues([...new Set(cells.facts.map(f => f[1]))]);
    const ys = domain ? domain.values(cells.rel, 1, cells.facts.map(f => f[2])) : sortValues([...new Set(cells.facts.map(f => f[2]))]);
    const at = new Map(cells.facts.map(f => [f[1] + "\u0000" + f[2], f[3]]));
    const table = el("table", {class: "grid", "data-relation": cells.rel});
    // Every cell as wide as the longest content: the columns keep their
    // width from state to state.
    const longest = Math.max(domain ? domain.width(cells.rel) : 0, ...cells.facts.map(f => f[3].length));
    table.style.setProperty("--cell", Math.max(38, Math.min(160, 8 * longest + 10)) + "px");
    for (const y of ys) {
      const tr = el("tr");
      for (const x of xs) {
        const v = at.get(x + "\u0000" + y);
        const td = el("td", {"data-x": x, "data-y": y}, v === undefined ? "" : v);
        if (v === undefined || v === "b" || v === "blank" || v === "empty") td.classList.add("blank");
        tr.append(td);
      }
      table.append(tr);
    }
    box.append(el("div", {class: "note"}, "(" + cells.rel + " x y content)"), table);
    rest = facts.filter(f => !(f.length === 4 && f[0] === cells.rel));
  }
  if (rest.length) {
    const ul = el("ul", {class: "facts"});
    for (const f of rest) ul.append(el("li", {}, f.length === 1 ? f[0] : "(" + f.join(" ") + ")"));
    box.append(ul);
  }
  return box;
}

// render draws facts with proc, a compiled stylesheet, or the generic
// renderer, lays the board out (layoutBoard) and returns the element
// drawn, with the layout as its boardLayout; opts.over says the state
// ends a finished match (stylesheets then do not say who is to move).
function render(facts, proc, opts) {
  let box;
  if (proc) {
    proc.setParameter(null, "over", opts && opts.over ? "true" : "false");
    const frag = proc.transformToFragment(stateXML(facts), document);
    if (!frag) throw new Error("the transformation failed");
    box = el("div", {class: "xsl-board"});
    box.append(frag);
  } else {
    box = genericBoard(facts, opts && opts.domain);
  }
  box.boardLayout = layoutBoard(box, facts, Object.assign({labels: !proc}, opts));
  return box;
}

// Layout. The cells a board draws are found by their coordinates: the
// attributes data-x and data-y (the bundled stylesheets, the generic
// renderer), or ggp-base's convention id="cell_" followed by the first
// and second coordinate (cell_e4), in one table of cells alone. Such a
// board is then laid out as a person expects it:
//  - a chess-like board (files of single letters, ranks of numbers, as
//    in chess and checkers) is drawn as a chess diagram: files across
//    from a, ranks up from 1, light and dark squares (a1 dark, or, when
//    the pieces stand on squares of one colour, as in checkers, those
//    squares), the files and ranks written along the edges;
//  - when the person's side is known (opts.side: the facts the person's
//    moves change early in the match), a board that shows all of it in
//    its top half is turned round, so that the person's pieces are at the
//    bottom (a game without sides, as ticTacToe, has its side all over);
//  - the generic renderer's grid has its coordinates written along the
//    edges too.
// A board whose cells cannot be found is left as it is drawn.

function isFiles(vs) { return vs.length > 1 && vs.length <= 26 && vs.every(v => /^[a-z]$/.test(v)); }
function isRanks(vs) { return vs.length > 1 && vs.every(isNumber); }

// boardCells returns the cells of a drawn board, each {e, x, y} with its
// element and coordinates, and their table; null when there is no such
// table of cells alone.
function boardCells(box, xs, ys) {
  let cells = Array.from(box.querySelectorAll("td[data-x][data-y]"), e => ({e, x: e.dataset.x, y: e.dataset.y}));
  if (!cells.length) {
    const xset = new Set(xs), yset = new Set(ys);
    for (const e of box.querySelectorAll("td[id^='cell_']")) {
      const id = e.id.slice(5);
      const splits = [];
      for (let i = 1; i < id.length; i++) {
        if (xset.has(id.slice(0, i)) && yset.has(id.slice(i))) splits.push({e, x: id.slice(0, i), y: id.slice(i)});
      }
      if (splits.length !== 1) return null;
      cells.push(splits[0]);
    }
  }
  if (cells.length < 2) return null;
  const table = cells[0].e.closest("table");
  if (cells.some(c => c.e.closest("table") !== table)) return null;
  let n = 0;
  for (const tr of table.rows) n += tr.cells.length;
  if (n !== cells.length || new Set(cells.map(c => c.x + "\u0000" + c.y)).size !== n) return null;
  return {table, cells};
}

// darkSquares returns whether the square of a file and a rank is dark: of
// a1's colour, as in chess, unless the pieces of the initial state (its
// cells, each {file, rank, content}, but those of the most common content,
// the empty squares) all stand on squares of one colour, as in checkers:
// those are dark.
function darkSquares(files, ranks, initial) {
  const parity = (file, rank) => (files.indexOf(file) + ranks.indexOf(rank)) % 2;
  const count = new Map();
  for (const c of initial) count.set(c.content, (count.get(c.content) || 0) + 1);
  const empty = [...count].sort((a, b) => b[1] - a[1]).map(e => e[0])[0];
  const pieces = new Set(initial.filter(c => c.content !== empty && files.includes(c.file) && ranks.includes(c.rank)).map(c => parity(c.file, c.rank)));
  const dark = pieces.size === 1 ? [...pieces][0] : 0;
  return (file, rank) => parity(file, rank) === dark;
}

// layoutBoard lays out the board drawn in box (see above) and returns the
// layout: its cells, each {e, x, y, row, col} with its place in the grid
// drawn, the values of rows and cols, and whether it is chess-like and
// turned round; null when the board is left as drawn.
function layoutBoard(box, facts, opts) {
  const domain = opts && opts.domain;
  // The relation of the cells: as the generic renderer finds it, or else
  // the one relation of three arguments seen (a board with a piece or
  // none, such as connectFour's at the start).
  let rel = domain && domain.cellRelation();
  if (!rel) { const c = cellRelation(facts); rel = c && c.rel; }
  if (!rel && domain && domain.rels.size === 1) [rel] = domain.rels.keys();
  const cur = facts.filter(f => f.length === 4 && f[0] === rel);
  const values = i => domain ? domain.values(rel, i, cur.map(f => f[i + 1])) : sortValues([...new Set(cur.map(f => f[i + 1]))]);
  const found = boardCells(box, values(0), values(1));
  if (!found) return null;
  const {table, cells} = found;
  for (const c of cells) { c.row0 = c.e.parentElement.rowIndex; c.col0 = c.e.cellIndex; }
  // The coordinate that runs across is the one that changes along a row.
  const constantInRows = k => {
    const seen = new Map();
    for (const c of cells) {
      if (seen.has(c.row0) && seen.get(c.row0) !== c[k]) return false;
      seen.set(c.row0, c[k]);
    }
    return true;
  };
  const other = k => k === "x" ? "y" : "x";
  let across;
  if (constantInRows("x")) across = "y";
  else if (constantInRows("y")) across = "x";
  else return null;
  const uniq = k => [...new Set(cells.map(c => c[k]))];
  let chess = false;
  if (isFiles(uniq(across)) && isRanks(uniq(other(across)))) chess = true;
  else if (isFiles(uniq(other(across))) && isRanks(uniq(across))) { chess = true; across = other(across); }
  const dn = other(across);
  let cols, rows, isDark;
  if (chess) {
    const files = uniq(across).sort(), ranks = uniq(dn).sort((a, b) => a - b);
    cols = files.slice();
    rows = ranks.slice().reverse();
    const first = ((domain && domain.first) || facts).filter(f => f.length === 4 && f[0] === rel)
      .map(f => across === "x" ? {file: f[1], rank: f[2], content: f[3]} : {file: f[2], rank: f[1], content: f[3]});
    isDark = darkSquares(files, ranks, first);
  } else {
    // As drawn: by the place of each value in the table.
    const placed = (k, at) => uniq(k).map(v => [v, Math.min(...cells.filter(c => c[k] === v).map(c => c[at]))]).sort((a, b) => a[1] - b[1]).map(p => p[0]);
    cols = placed(across, "col0");
    rows = placed(dn, "row0");
  }
  const at = new Map(cells.map(c => [c[dn] + "\u0000" + c[across], c]));
  if (at.size !== rows.length * cols.length) return null;
  // The person's side, from the cells of opts.side: at the bottom.
  let turned = false;
  if (opts && opts.side && rows.length > 1) {
    const sideRows = [];
    for (const text of opts.side) {
      let f;
      try { f = parseState("(" + text + ")")[0]; } catch (e) { continue; }
      if (f.length !== 4 || f[0] !== rel) continue;
      const c = at.get((dn === "x" ? f[1] : f[2]) + "\u0000" + (across === "x" ? f[1] : f[2]));
      if (c) sideRows.push(rows.indexOf(c[dn]));
    }
    // Turned round when every cell of the side is in the top half.
    if (sideRows.length && Math.max(...sideRows) < (rows.length - 1) / 2) {
      turned = true;
      rows.reverse();
      cols.reverse();
    }
  }
  const labels = chess || (opts && opts.labels);
  const body = table.tBodies[0] || table;
  while (table.rows.length) table.deleteRow(0);
  const label = text => el("th", {class: "coord"}, text);
  rows.forEach((r, i) => {
    const tr = el("tr");
    if (labels) tr.append(label(r));
    cols.forEach((v, j) => {
      const c = at.get(r + "\u0000" + v);
      c.row = i;
      c.col = j;
      if (chess) {
        const dark = isDark(v, r);
        c.e.classList.add(dark ? "sq-dark" : "sq-light");
        c.e.style.setProperty("background-color", dark ? "#b58863" : "#f0d9b5", "important");
      }
      tr.append(c.e);
    });
    body.append(tr);
  });
  if (labels) body.append(el("tr", {class: "coords"}, el("th", {class: "coord"}), ...cols.map(label)));
  table.classList.add("laid-out");
  if (chess) table.classList.add("chess-like");
  if (turned) table.classList.add("turned");
  return {rel, across, down: dn, rows, cols, cells, chess, turned,
    // name says which cell c is: "e4" on a chess-like board.
    name: c => chess ? c[across] + c[dn] : "(" + c.x + " " + c.y + ")"};
}

// drawBoard draws a state into container: with proc, a compiled
// stylesheet, when there is one; with the generic renderer otherwise or
// when the stylesheet fails, in which case the error is shown above. It
// returns the facts drawn and how, or null when the state cannot be read.
function drawBoard(container, stateText, proc, opts) {
  container.replaceChildren();
  let facts;
  try {
    facts = parseState(stateText);
  } catch (e) {
    container.append(el("div", {class: "error-box"}, "the state cannot be read: " + e.message));
    return null;
  }
  if (proc) {
    try {
      const box = render(facts, proc, opts);
      container.append(box);
      return {facts, proc, layout: box.boardLayout};
    } catch (e) {
      container.append(el("div", {class: "error-box board-error"}, "the game's stylesheet failed: " + e.message + "; drawn by the generic renderer instead"));
    }
  }
  const box = render(facts, null, opts);
  container.append(box);
  return {facts, proc: null, layout: box.boardLayout};
}

// Moves on the board. Each legal move changes some cells of the board:
// on the generic renderer, the cells of the facts it adds or removes; on a
// stylesheet's board, the elements drawn differently in the state it leads
// to. boardMoves returns, for every element of the board drawn, the moves
// that change it.
function boardMoves(container, drawn, effects, opts) {
  const byEl = new Map();
  const add = (e, move) => {
    if (!byEl.has(e)) byEl.set(e, new Set());
    byEl.get(e).add(move);
  };
  const factKey = f => f.join(" ");
  const cur = new Map(drawn.facts.map(f => [factKey(f), f]));
  for (const eff of effects) {
    if (drawn.proc) {
      const next = new Map(cur);
      for (const r of eff.removed) next.delete(factKey(parseState("(" + r + ")")[0]));
      for (const a of eff.added) { const f = parseState("(" + a + ")")[0]; next.set(factKey(f), f); }
      let other;
      try { other = render([...next.values()], drawn.proc, opts); } catch (e) { continue; }
      for (const e of changedElements(container.firstElementChild, other)) add(e, eff.move);
    } else {
      const table = container.querySelector("table.grid");
      if (!table) continue;
      const rel = table.dataset.relation;
      for (const text of eff.added.concat(eff.removed)) {
        const f = parseState("(" + text + ")")[0];
        if (f.length !== 4 || f[0] !== rel) continue;
        for (const td of table.querySelectorAll("td[data-x]")) {
          if (td.dataset.x === f[1] && td.dataset.y === f[2]) add(td, eff.move);
        }
      }
    }
  }
  return byEl;
}

// changedElements returns the elements of a drawn differently in b, a
// drawing of another state: the deepest that differ, each raised to its
// parent while it is that parent's only element, so that a piece's image
// stands for its square.
function changedElements(a, b) {
  const out = [];
  const ownText = e => Array.from(e.childNodes).filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent.trim()).join("");
  const sameAttrs = (x, y) => {
    if (x.attributes.length !== y.attributes.length) return false;
    for (const at of x.attributes) if (y.getAttribute(at.name) !== at.value) return false;
    return true;
  };
  (function walk(x, y) {
    if (x.isEqualNode(y)) return;
    const xc = x.children, yc = y.children;
    if (x.tagName !== y.tagName || xc.length !== yc.length || xc.length === 0 || !sameAttrs(x, y) || ownText(x) !== ownText(y)) {
      out.push(x);
      return;
    }
    for (let i = 0; i < xc.length; i++) walk(xc[i], yc[i]);
  })(a, b);
  return out.map(e => {
    while (e.parentElement && e.parentElement !== a && e.parentElement.children.length === 1) e = e.parentElement;
    return e;
  });
}

async function fetchJSON(url) {
  const resp = await fetch(url);
  const body = await resp.json().catch(() => ({error: resp.status + " " + resp.statusText}));
  if (!resp.ok && !body.error) body.error = resp.status + " " + resp.statusText;
  return body;
}

// fmtDuration writes a time taken: "4 ms" (a player that answers at once,
// such as mcts once it has solved the game), "1.53 s".
function fmtDuration(ms) {
  if (!(ms >= 0)) return "";
  return ms < 1000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(2) + " s";
}

function fmtTime(ms) {
  if (!ms) return "";
  const d = new Date(ms);
  return d.toLocaleString();
}

// seatStatusText says in words what a seat waits for (seat.Status).
function seatStatusText(status, aborted) {
  if (status === "over") return aborted ? "match aborted" : "match over";
  return {"waiting": "waiting for a match", "to-move": "your move", "others": "waiting for the others"}[status] || status;
}
