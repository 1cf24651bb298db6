"""The interactive page (``kg viz -o graph.html``): one self-contained file that works offline.

The page carries its data and its script inline; it fetches nothing. Its layout is
:func:`kg.graph.layout.scene`'s, as in the static picture: communities apart, the most central
entities named. The script places the names itself, with the sizes the browser measures, at the
zoom the reader chose (zooming in names more), greedily in order of centrality, where they cover
no node and no other name; the relation goes on each edge where there is room. Every node is named
on hover and click. A search box finds entities (and names and rings them), check boxes hide
relation types, a click on an edge gives the sentences and documents that state the fact; the
isolated pairs left out of the drawing are listed beside it, their facts a click away.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from ..outputs import output_file
from .analysis import evidence
from .layout import LABEL_SPOTS, PALETTE, RING, RINGS, relation_styles, scene

# In the page's data block, "<!--", "<script" and "</script" would change how the HTML parser reads
# the rest of the page; escaped, no name or sentence can. U+2028/9 end lines in older JavaScript.
_SCRIPT_SAFE = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                0x2028: "\\u2028", 0x2029: "\\u2029"}


def _entity(graph, n: str) -> dict:
    d = graph.nodes[n]
    return {"iri": n, "label": d.get("label", n), "type": d.get("type", "Entity"),
            "aliases": [a for a in d.get("aliases", "").split("|") if a], "degree": graph.degree(n)}


def _fact(store, s: str, o: str, data: dict) -> dict:
    return {"predicate": data["predicate"], "documents": data.get("documents", 1),
            "symmetric": bool(data.get("symmetric", False)),
            "evidence": [{"sentence": sent, "document": doc} for sent, doc in evidence(store, s, data["predicate"], o)]}


def graph_data(store, graph, max_nodes: int = 300, highlight=()) -> dict:
    """What the page draws: :func:`~kg.graph.layout.scene` of ``graph`` with each fact's evidence
    from ``store``, and the isolated pairs left out, with theirs."""
    sc = scene(graph, max_nodes, highlight)
    index = {n: i for i, n in enumerate(sc.nodes)}
    nodes = [dict(_entity(graph, n), id=i, x=sc.position[n][0], y=sc.position[n][1], r=round(sc.radius[n], 3),
                  community=sc.community[n], highlighted=n in sc.highlighted) for n, i in index.items()]
    by_key = {}
    for s, o, data in graph.edges(data=True):
        by_key[(s, o, data["predicate"])] = data
    edges = [dict(_fact(store, e.source, e.target, by_key[(e.source, e.target, e.predicate)]),
                  source=index[e.source], target=index[e.target], bend=e.bend) for e in sc.edges]
    pairs = []
    for a, b in sc.pairs:
        facts = [dict(_fact(store, s, o, data), source=int(s == b), target=int(o == b))
                 for s, o, data in graph.edges(data=True) if {s, o} == {a, b}]
        pairs.append({"entities": [_entity(graph, a), _entity(graph, b)], "facts": facts})
    styles = relation_styles({e["predicate"] for e in edges} | {f["predicate"] for p in pairs for f in p["facts"]})
    return {"nodes": nodes, "edges": edges, "pairs": pairs, "caption": sc.caption,
            "communities": [{"x": x, "y": y, "r": r, "ground": ground}
                            for (x, y, r), ground in zip(sc.discs, sc.grounds)],
            "total_nodes": sc.total_nodes, "total_edges": sc.total_edges, "palette": PALETTE,
            "styles": {r: {"colour": c, "dash": list(d)} for r, (c, d) in styles.items()},
            "spots": [list(s) for s in LABEL_SPOTS], "rings": RINGS, "ring": RING}


_PLACEHOLDER = re.compile(r"__(TITLE|DATA)__")


def fill(template: str, title: str, data: object) -> str:
    """``template`` with its ``__TITLE__`` (HTML-escaped text) and its ``__DATA__`` (JSON for a
    ``<script type="application/json">`` block) filled in one pass: every page of kg's takes its
    data through here. One pass, because a value is never read again: a title "__DATA__" stays
    that text, where a second replace would put the data in the title."""
    values = {"TITLE": html.escape(title), "DATA": json.dumps(data, ensure_ascii=False).translate(_SCRIPT_SAFE)}
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)


def write_html(data: dict, path: str | Path, title: str = "kg graph", template: str | None = None) -> None:
    """The page ``template`` (default: the graph's; the timeline has its own) with its title and data."""
    with output_file(path) as out:
        out.write(fill(template or _TEMPLATE, title, data).encode("utf-8"))


HEAD = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
  body { margin: 0; font: 13px/1.4 system-ui, sans-serif; display: flex; height: 100vh; color: #222; }
  h1 { font-size: 15px; margin: 4px 0 8px; } h2 { font-size: 13px; margin: 12px 0 4px; }
  .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
  #details blockquote { margin: 6px 0; padding: 4px 8px; border-left: 3px solid #999; background: #f5f5f5; }
  #details .doc { color: #666; font-size: 11px; }
  #note { color: #666; font-size: 11px; }
"""  # the start of kg's pages, up to their own styles: the graph's and the timeline's

_TEMPLATE = HEAD + r"""  #side { width: 330px; padding: 10px 12px; border-right: 1px solid #ddd; overflow-y: auto; box-sizing: border-box; }
  #main { flex: 1; position: relative; }
  #graph { width: 100%; height: 100%; background: #fcfcfc; cursor: grab; display: block; }
  .ground { fill: #efeff4; stroke: #dcdce6; stroke-width: .8px; }
  .node circle { stroke: #333; stroke-width: .6px; cursor: pointer; }
  .node.pinned circle { stroke: #000; stroke-width: 2.5px; }
  .node.hit circle { stroke: #000; stroke-width: 3.5px; }
  .node.dim, .edge.dim { opacity: .15; }
  .edge path { stroke-width: 1.6px; cursor: pointer; fill: none; }
  .edge path.wide { stroke: transparent; stroke-width: 10px; }
  .edge.selected path:not(.wide) { stroke-width: 4px; }
  #labels text { font-size: 11px; fill: #111; paint-order: stroke; stroke: #fff; stroke-width: 3px;
                 stroke-linejoin: round; pointer-events: none; }
  #labels text.edge-label { font-size: 9px; stroke-width: 2.5px; }
  #labels text.strong { font-weight: bold; }
  #labels text.hover { font-weight: bold; }
  #labels .dim { opacity: .3; }
  #labels line { stroke: #555; stroke-width: .7px; }
  #search { width: 100%; box-sizing: border-box; padding: 4px; }
  .rel { display: block; }
  .rel svg { width: 28px; height: 10px; margin-right: 4px; vertical-align: middle; }
  #pairs li { cursor: pointer; } #pairs li.hit { font-weight: bold; background: #ffe; }
</style>
</head>
<body>
<div id="side">
  <h1>__TITLE__</h1>
  <div id="counts"></div>
  <div id="note">Named: the most central entities that fit at this zoom (zoom in for more);
    hover or click a node for its name. Grey grounds: communities (Louvain).</div>
  <h2>Find an entity</h2>
  <input id="search" type="search" placeholder="name or alias" autocomplete="off">
  <h2>Relations</h2>
  <div id="relations"></div>
  <h2>Types</h2>
  <div id="types"></div>
  <h2>Details</h2>
  <div id="details">Click a node for its names, an edge for the sentences behind it.</div>
  <div id="left-out"></div>
</div>
<div id="main"><svg id="graph" role="img" aria-label="knowledge graph"></svg></div>
<script id="kg-data" type="application/json">__DATA__</script>
<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("kg-data").textContent);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.getElementById("graph");
  const make = (tag, attrs, parent) => {
    const el = document.createElementNS(NS, tag);
    for (const k in attrs || {}) el.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(el);
    return el;
  };
  const defs = make("defs", {}, svg), world = make("g", {}, svg), overlay = make("g", {id: "labels"}, svg);
  const grounds = make("g", {}, world), edgeLayer = make("g", {}, world), nodeLayer = make("g", {}, world);
  const UNIT = 56;  // page pixels per layout unit at zoom 1 (an edge is about a unit long)
  const LABEL_CAP = 80, LEADERS = 15, TOP_NAMED = 5, PAD = 3;  // TOP_NAMED: named even where no spot is free
  const styles = data.styles, palette = data.palette, nodes = data.nodes, edges = data.edges;
  const relations = Object.keys(styles);
  const hidden = new Set(), clicked = new Set();
  let hits = [];
  document.getElementById("counts").textContent = data.caption;

  // ---------------------------------------------------------------- the scene, in page pixels (y down)
  nodes.forEach(d => { d.wx = d.x * UNIT; d.wy = -d.y * UNIT; d.wr = d.r * UNIT; });
  data.communities.forEach(c => make("polygon", {class: "ground", points: c.ground.map(([x, y]) => x * UNIT + "," + -y * UNIT).join(" ")}, grounds));
  relations.forEach((r, i) => {
    const m = make("marker", {id: "arrow-" + i, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 6, markerHeight: 6,
                              orient: "auto"}, defs);
    make("path", {d: "M0,0 L10,5 L0,10 z", fill: styles[r].colour}, m);
    styles[r].marker = "url(#arrow-" + i + ")";
  });
  // the control point of the curve between a and b, as matplotlib's arc3 with rad = bend
  const control = (ax, ay, bx, by, bend) => [(ax + bx) / 2 + bend * (by - ay), (ay + by) / 2 - bend * (bx - ax)];
  const curvePoint = (a, b, c, t) => { const u = 1 - t;
    return [u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]]; };
  const edgeEls = edges.map((e, i) => {
    const a = nodes[e.source], b = nodes[e.target];
    const c = control(a.wx, a.wy, b.wx, b.wy, e.bend);
    // the ends on the rims: shortened along the curve's tangents, so that an arrowhead touches its node
    const trim = (p, q, r) => { const dx = q[0] - p[0], dy = q[1] - p[1], l = Math.hypot(dx, dy) || 1; return [p[0] + dx / l * r, p[1] + dy / l * r]; };
    const s = trim([a.wx, a.wy], c, a.wr + 1), t = trim([b.wx, b.wy], c, b.wr + 1);
    const d = "M" + s[0] + "," + s[1] + " Q" + c[0] + "," + c[1] + " " + t[0] + "," + t[1];
    const g = make("g", {class: "edge"}, edgeLayer);
    g.dataset.index = i; g.dataset.predicate = e.predicate;
    const line = make("path", {d: d, stroke: styles[e.predicate].colour}, g);
    if (styles[e.predicate].dash.length) line.setAttribute("stroke-dasharray", styles[e.predicate].dash.map(v => v * 1.6).join(" "));
    if (!e.symmetric) line.setAttribute("marker-end", styles[e.predicate].marker);  // a symmetric fact holds both ways
    make("path", {d: d, class: "wide"}, g);
    g.addEventListener("click", ev => { ev.stopPropagation(); showEdge(i); });
    return {g, line};
  });
  const nodeEls = nodes.map((d, i) => {
    const g = make("g", {class: "node" + (d.highlighted ? " pinned" : ""), transform: "translate(" + d.wx + "," + d.wy + ")"}, nodeLayer);
    g.dataset.index = i; g.dataset.type = d.type; g.dataset.community = d.community;
    const c = make("circle", {r: d.wr, fill: palette[d.type] || "#ddd"}, g);
    make("title", {}, c).textContent = d.label + " (" + d.type + ")";
    g.addEventListener("click", ev => { ev.stopPropagation(); showNode(i); });
    g.addEventListener("mouseenter", () => hover(i));
    g.addEventListener("mouseleave", () => hover(null));
    return {g, c};
  });

  // ---------------------------------------------------------------- names: measured once, placed at each zoom
  const measure = (el) => { const b = el.getBBox(); return {w: b.width, h: b.height, ox: b.x, oy: b.y}; };
  const labelEls = nodes.map(d => {
    const t = make("text", {class: "label" + (d.highlighted ? " strong" : ""), x: 0, y: 0, visibility: "hidden"}, overlay);
    t.textContent = d.label; t.dataset.index = d.id;
    return {t, size: measure(t), leader: make("line", {visibility: "hidden"}, overlay)};
  });
  const edgeLabelEls = edges.map(e => {
    const t = make("text", {class: "edge-label", x: 0, y: 0, visibility: "hidden"}, overlay);
    t.textContent = e.predicate; t.style.fill = styles[e.predicate].colour;
    return {t, size: measure(t)};
  });
  const hoverEl = make("text", {class: "hover", visibility: "hidden"}, overlay);

  class Room {  // what a name may not cover: boxes, discs, and (if it can help it) lines; kept in a grid
    constructor(w, h) { this.w = w; this.h = h; this.cell = 30; this.grid = new Map(); }
    *cells(x0, y0, x1, y1) { const c = this.cell;
      for (let i = Math.floor(x0 / c); i <= Math.floor(x1 / c); i++) for (let j = Math.floor(y0 / c); j <= Math.floor(y1 / c); j++) yield i + ":" + j; }
    add(kind, thing, x0, y0, x1, y1) { for (const k of this.cells(x0, y0, x1, y1)) { if (!this.grid.has(k)) this.grid.set(k, []); this.grid.get(k).push([kind, thing]); } }
    disc(x, y, r) { this.add("disc", [x, y, r], x - r, y - r, x + r, y + r); }
    box(b) { this.add("box", b, ...b); }
    line(points, owner) { for (let k = 1; k < points.length; k++) { const [ax, ay] = points[k - 1], [bx, by] = points[k];
      this.add("line", [ax, ay, bx, by, owner], Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)); } }
    fits(b, lines, owner) {
      const [x0, y0, x1, y1] = b;
      if (x0 < 0 || y0 < 0 || x1 > this.w || y1 > this.h) return false;
      for (const k of this.cells(x0, y0, x1, y1)) for (const [kind, o] of this.grid.get(k) || []) {
        if (kind === "box") { if (x0 < o[2] && o[0] < x1 && y0 < o[3] && o[1] < y1) return false; }
        else if (kind === "disc") { const nx = Math.min(Math.max(o[0], x0), x1), ny = Math.min(Math.max(o[1], y0), y1);
          if ((nx - o[0]) ** 2 + (ny - o[1]) ** 2 < o[2] * o[2]) return false; }
        else if (lines && o[4] !== owner && crosses(b, o)) return false;
      }
      return true;
    }
  }
  function crosses(b, o) {  // Liang-Barsky: does the segment o pass through the box b?
    const dx = o[2] - o[0], dy = o[3] - o[1];
    let lo = 0, hi = 1;
    for (const [p, q] of [[-dx, o[0] - b[0]], [dx, b[2] - o[0]], [-dy, o[1] - b[1]], [dy, b[3] - o[1]]]) {
      if (p === 0) { if (q < 0) return false; continue; }
      const t = q / p;
      if (p < 0) lo = Math.max(lo, t); else hi = Math.min(hi, t);
      if (lo > hi) return false;
    }
    return true;
  }
  // the box of a w x h name at spot (sx, sy: y up, as in the picture) around a node of radius r
  function labelBox(x, y, r, w, h, spot, pad) {
    const sx = spot[0], sy = -spot[1], reach = r * (sx && sy ? 0.71 : 1) + pad;
    const x0 = x + sx * reach - (sx < 0 ? w : sx > 0 ? 0 : w / 2), y0 = y + sy * reach - (sy < 0 ? h : sy > 0 ? 0 : h / 2);
    return [x0, y0, x0 + w, y0 + h];
  }
  const screen = d => [d.wx * view.s + view.x, d.wy * view.s + view.y];
  const tries = rings => { const out = []; for (let ring = 0; ring <= rings; ring++) out.push([ring, true], [ring, false]); return out; };

  function place() {
    const room = new Room(svg.clientWidth, svg.clientHeight);
    nodes.forEach(d => { const [x, y] = screen(d); room.disc(x, y, d.wr * view.s + 1); });
    const shown = edges.map(e => !hidden.has(e.predicate));
    const curves = edges.map((e, i) => {
      const a = screen(nodes[e.source]), b = screen(nodes[e.target]), c = control(a[0], a[1], b[0], b[1], e.bend);
      const points = [...Array(9).keys()].map(k => curvePoint(a, b, c, k / 8));
      if (shown[i]) room.line(points, i);
      return {a, b, c};
    });
    const first = [...nodes.filter(d => d.highlighted).map(d => d.id), ...hits, ...clicked];
    const order = [...new Set([...first, ...nodes.map(d => d.id)])];
    const strong = new Set(first);
    let named = 0;
    for (const i of order) {
      const d = nodes[i], el = labelEls[i];
      el.t.setAttribute("visibility", "hidden"); el.leader.setAttribute("visibility", "hidden");
      if (el.t.classList.contains("strong") !== strong.has(i)) {  // bold is wider: measured again
        el.t.classList.toggle("strong", strong.has(i));
        el.t.setAttribute("x", 0); el.t.setAttribute("y", 0); el.size = measure(el.t);
      }
      el.t.classList.toggle("dim", hits.length > 0 && !strong.has(i));
      if (named >= LABEL_CAP && !strong.has(i)) continue;
      const [x, y] = screen(d), r = d.wr * view.s, {w, h, ox, oy} = el.size;
      let done = false;
      for (const [ring, lines] of tries(strong.has(i) || named < LEADERS ? data.rings : 0)) {
        for (const spot of data.spots) {
          const b = labelBox(x, y, r, w + 2, h + 2, spot, PAD + ring * data.ring * h);
          if (!room.fits(b, lines)) continue;
          room.box(b);
          el.t.setAttribute("x", b[0] + 1 - ox); el.t.setAttribute("y", b[1] + 1 - oy); el.t.setAttribute("visibility", "visible");
          if (ring) {  // a name a ring or two out: a leader line from the rim
            const px = Math.min(Math.max(x, b[0]), b[2]), py = Math.min(Math.max(y, b[1]), b[3]), l = Math.hypot(px - x, py - y) || 1;
            el.leader.setAttribute("x1", x + (px - x) * r / l); el.leader.setAttribute("y1", y + (py - y) * r / l);
            el.leader.setAttribute("x2", px); el.leader.setAttribute("y2", py); el.leader.setAttribute("visibility", "visible");
          }
          done = true; break;
        }
        if (done) break;
      }
      if (!done && (strong.has(i) || named < TOP_NAMED)) {  // the most central are named wherever they go
        const b = labelBox(x, y, r, w + 2, h + 2, data.spots[0], PAD);
        room.box(b);
        el.t.setAttribute("x", b[0] + 1 - ox); el.t.setAttribute("y", b[1] + 1 - oy); el.t.setAttribute("visibility", "visible");
        done = true;
      }
      if (done) named++;
    }
    const rank = i => Math.min(edges[i].source, edges[i].target);
    [...edges.keys()].sort((i, j) => rank(i) - rank(j)).forEach(i => {
      const el = edgeLabelEls[i], {a, b, c} = curves[i], {w, h, ox, oy} = el.size;
      el.t.setAttribute("visibility", "hidden");
      el.t.classList.toggle("dim", edgeEls[i].g.classList.contains("dim"));
      if (!shown[i] || Math.hypot(a[0] - b[0], a[1] - b[1]) < w) return;  // a name longer than its edge would hide it
      for (const t of [0.5, 0.4, 0.6, 0.3, 0.7]) {
        const [x, y] = curvePoint(a, b, c, t), box = [x - w / 2 - 1, y - h / 2 - 1, x + w / 2 + 1, y + h / 2 + 1];
        if (!room.fits(box, true, i)) continue;
        room.box(box);
        el.t.setAttribute("x", box[0] + 1 - ox); el.t.setAttribute("y", box[1] + 1 - oy); el.t.setAttribute("visibility", "visible");
        break;
      }
    });
  }
  function hover(i) {
    if (i === null) { hoverEl.setAttribute("visibility", "hidden"); return; }
    const d = nodes[i], [x, y] = screen(d);
    hoverEl.textContent = d.label;
    hoverEl.setAttribute("x", x + d.wr * view.s + PAD); hoverEl.setAttribute("y", y - d.wr * view.s - PAD);
    hoverEl.setAttribute("visibility", "visible");
  }

  // ---------------------------------------------------------------- pan and zoom
  let view = {x: 0, y: 0, s: 1}, drag = null, pending = false;
  const W = () => svg.clientWidth || 900, H = () => svg.clientHeight || 700;
  function apply() {
    world.setAttribute("transform", "translate(" + view.x + "," + view.y + ") scale(" + view.s + ")");
    if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; place(); }); }
  }
  function fit() {  // every community in view, with room for names beside them
    const ps = data.communities.flatMap(c => c.ground);
    if (!ps.length) ps.push([0, 0]);
    const x0 = (Math.min(...ps.map(p => p[0])) - 1.5) * UNIT, x1 = (Math.max(...ps.map(p => p[0])) + 1.5) * UNIT;
    const y0 = (Math.min(...ps.map(p => -p[1])) - 0.4) * UNIT, y1 = (Math.max(...ps.map(p => -p[1])) + 0.4) * UNIT;
    view.s = Math.min(W() / (x1 - x0), H() / (y1 - y0), 2.5);
    view.x = (W() - (x1 - x0) * view.s) / 2 - x0 * view.s; view.y = (H() - (y1 - y0) * view.s) / 2 - y0 * view.s;
    world.setAttribute("transform", "translate(" + view.x + "," + view.y + ") scale(" + view.s + ")");
    place();
  }
  window.addEventListener("resize", fit);
  svg.addEventListener("wheel", ev => { ev.preventDefault(); const f = ev.deltaY < 0 ? 1.1 : 1 / 1.1;
    view.x = ev.offsetX - (ev.offsetX - view.x) * f; view.y = ev.offsetY - (ev.offsetY - view.y) * f; view.s *= f; apply(); },
    {passive: false});
  svg.addEventListener("mousedown", ev => { drag = {x: ev.clientX - view.x, y: ev.clientY - view.y}; });
  window.addEventListener("mousemove", ev => { if (drag) { view.x = ev.clientX - drag.x; view.y = ev.clientY - drag.y; apply(); } });
  window.addEventListener("mouseup", () => { drag = null; });
  svg.addEventListener("click", () => { clearSelection(); clicked.clear(); place(); });

  // ---------------------------------------------------------------- panels
  const details = document.getElementById("details");
  const esc = s => String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  function clearSelection() {
    edgeEls.forEach(el => el.g.classList.remove("selected"));
  }
  function showNode(i) {
    clearSelection();
    const d = nodes[i];
    clicked.add(i); place();
    const facts = edges.filter(e => e.source === i || e.target === i);
    details.innerHTML = '<div class="node-details"><b>' + esc(d.label) + '</b> <i>' + esc(d.type) + '</i>' +
      '<div>Also called: ' + (d.aliases.length ? d.aliases.map(esc).join(", ") : "(no other names)") + '</div>' +
      '<div class="doc">' + esc(d.iri) + '</div><div>' + facts.length + ' facts</div></div>';
  }
  function showFact(a, b, e) {
    details.innerHTML = '<div class="edge-details"><b>' + esc(a.label) + '</b> ' + esc(e.predicate) + ' <b>' + esc(b.label) +
      '</b> (' + e.documents + ' document' + (e.documents === 1 ? "" : "s") + ')' +
      e.evidence.map(v => '<blockquote class="evidence">' + esc(v.sentence) + '<div class="doc">' + esc(v.document) +
                           '</div></blockquote>').join("") + '</div>';
  }
  function showEdge(i) {
    clearSelection();
    edgeEls[i].g.classList.add("selected");
    showFact(nodes[edges[i].source], nodes[edges[i].target], edges[i]);
  }
  const relBox = document.getElementById("relations");
  const counted = r => edges.filter(e => e.predicate === r).length + data.pairs.reduce((n, p) => n + p.facts.filter(f => f.predicate === r).length, 0);
  relations.forEach(r => {
    const label = document.createElement("label"); label.className = "rel";
    const box = document.createElement("input"); box.type = "checkbox"; box.checked = true; box.value = r;
    box.addEventListener("change", () => {
      box.checked ? hidden.delete(r) : hidden.add(r);
      edgeEls.forEach((el, i) => { el.g.style.display = hidden.has(edges[i].predicate) ? "none" : ""; });
      place();
    });
    const sample = make("svg", {viewBox: "0 0 28 10"});
    const l = make("line", {x1: 0, y1: 5, x2: 28, y2: 5, stroke: styles[r].colour, "stroke-width": 2}, sample);
    if (styles[r].dash.length) l.setAttribute("stroke-dasharray", styles[r].dash.map(v => v * 2).join(" "));
    label.append(box, sample, document.createTextNode(r + " (" + counted(r) + ")"));
    relBox.appendChild(label);
  });
  const typeBox = document.getElementById("types");
  [...new Set(nodes.map(d => d.type))].sort().forEach(t => {
    const div = document.createElement("div");
    const sw = document.createElement("span"); sw.className = "swatch"; sw.style.background = palette[t] || "#ddd";
    div.append(sw, document.createTextNode(t)); typeBox.appendChild(div);
  });
  const pairItems = [];
  if (data.pairs.length) {  // left out of the drawing, not of the page
    const box = document.getElementById("left-out");
    box.innerHTML = "<h2>Not drawn: " + data.pairs.length + " isolated pair" + (data.pairs.length === 1 ? "" : "s") + "</h2>";
    const list = document.createElement("ul"); list.id = "pairs"; box.appendChild(list);
    data.pairs.forEach(p => p.facts.forEach(f => {
      const a = p.entities[f.source], b = p.entities[f.target], li = document.createElement("li");
      li.textContent = a.label + " \u2014" + f.predicate + (f.symmetric ? "\u2014 " : "\u2192 ") + b.label;  // symmetric: no arrowhead
      li.addEventListener("click", () => { clearSelection(); showFact(a, b, f); });
      list.appendChild(li); pairItems.push({li, entities: p.entities});
    }));
  }
  const matches = (d, q) => d.label.toLowerCase().includes(q) || d.aliases.some(a => a.toLowerCase().includes(q));
  document.getElementById("search").addEventListener("input", ev => {
    const q = ev.target.value.trim().toLowerCase();
    hits = q ? nodes.filter(d => matches(d, q)).map(d => d.id) : [];
    const found = new Set(hits);
    nodeEls.forEach((el, i) => { el.g.classList.toggle("hit", found.has(i)); el.g.classList.toggle("dim", !!q && !found.has(i)); });
    edgeEls.forEach((el, i) => el.g.classList.toggle("dim", !!q && !found.has(edges[i].source) && !found.has(edges[i].target)));
    pairItems.forEach(p => p.li.classList.toggle("hit", !!q && p.entities.some(d => matches(d, q))));
    if (hits.length) {  // bring the best match into view if it is out of it
      const [x, y] = screen(nodes[hits[0]]);
      if (x < 0 || y < 0 || x > W() || y > H()) { view.x += W() / 2 - x; view.y += H() / 2 - y; apply(); return; }
    }
    place();
  });
  fit();
  window.kgReady = true;
})();
</script>
</body>
</html>
"""
