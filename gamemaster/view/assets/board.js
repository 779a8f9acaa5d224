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

// genericBoard draws the cells as a grid, the first coordinate across and
// the second down, and lists the other facts.
function genericBoard(facts) {
  const box = el("div", {class: "generic-board"});
  const cells = cellRelation(facts);
  let rest = facts;
  if (cells) {
    const xs = sortValues([...new Set(cells.facts.map(f => f[1]))]);
    const ys = sortValues([...new Set(cells.facts.map(f => f[2]))]);
    const at = new Map(cells.facts.map(f => [f[1] + "\u0000" + f[2], f[3]]));
    const table = el("table", {class: "grid", "data-relation": cells.rel});
    const head = el("tr", {}, el("th"));
    for (const x of xs) head.append(el("th", {}, x));
    table.append(head);
    for (const y of ys) {
      const tr = el("tr", {}, el("th", {}, y));
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

// drawBoard draws a state into container: with proc, a compiled
// stylesheet, when there is one; with the generic renderer otherwise or
// when the stylesheet fails, in which case the error is shown above.
function drawBoard(container, stateText, proc) {
  container.replaceChildren();
  let facts;
  try {
    facts = parseState(stateText);
  } catch (e) {
    container.append(el("div", {class: "error-box"}, "the state cannot be read: " + e.message));
    return;
  }
  if (proc) {
    try {
      const frag = proc.transformToFragment(stateXML(facts), document);
      if (!frag) throw new Error("the transformation failed");
      const div = el("div", {class: "xsl-board"});
      div.append(frag);
      container.append(div);
      return;
    } catch (e) {
      container.append(el("div", {class: "error-box board-error"}, "the game's stylesheet failed: " + e.message + "; drawn by the generic renderer instead"));
    }
  }
  container.append(genericBoard(facts));
}

async function fetchJSON(url) {
  const resp = await fetch(url);
  const body = await resp.json().catch(() => ({error: resp.status + " " + resp.statusText}));
  if (!resp.ok && !body.error) body.error = resp.status + " " + resp.statusText;
  return body;
}

function fmtTime(ms) {
  if (!ms) return "";
  const d = new Date(ms);
  return d.toLocaleString();
}
