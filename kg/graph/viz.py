"""Pictures of the graph: ``kg viz -o graph.html`` (interactive, one self-contained file that works
offline) and ``-o graph.png`` / ``.svg`` / ``.pdf`` (a static picture for reports).

The HTML page carries its data and its script inline; it fetches nothing. Nodes are coloured by
type and sized by degree, edges are labelled by relation; a search box finds entities, check
boxes hide relation types, a click on a node shows its labels and aliases, a click on an edge the
sentences and documents that state the fact. The layout is a small force simulation in the page.
Big graphs are cut to the ``max_nodes`` entities with the most facts (the page says so). Facts of
symmetric relations (allyOf, ceasefireWith: see :func:`kg.ontology.symmetric_relations`) are
drawn without an arrowhead, in the page and in the pictures.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from ..errors import UsageError
from .analysis import evidence
from .export import output_file

PALETTE = {
    "ArmedGroup": "#d62728", "ArmedForces": "#ff7f0e", "GovernmentAgency": "#1f77b4",
    "InternationalOrganization": "#17becf", "MediaOrganization": "#9467bd", "Organization": "#8c564b",
    "Person": "#2ca02c", "PersonGroup": "#bcbd22", "Country": "#7f7f7f", "Region": "#a6a6a6",
    "Settlement": "#c7c7c7", "Location": "#b0b0b0", "Entity": "#e0e0e0",
}
FORMATS = {"html": (".html", ".htm"), "png": (".png",), "svg": (".svg",), "pdf": (".pdf",)}

# In the page's data block, "<!--", "<script" and "</script" would change how the HTML parser reads
# the rest of the page; escaped, no name or sentence can. U+2028/9 end lines in older JavaScript.
_SCRIPT_SAFE = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                0x2028: "\\u2028", 0x2029: "\\u2029"}


def format_for(path: str | Path) -> str:
    """The picture format a file name asks for, from its suffix; a UsageError for any other."""
    suffix = Path(path).suffix.lower()
    for fmt, suffixes in FORMATS.items():
        if suffix in suffixes:
            return fmt
    known = ", ".join(s for suffixes in FORMATS.values() for s in suffixes)
    what = f"{suffix} files" if suffix else "files without a suffix"
    raise UsageError(f"-o {path}: kg viz cannot write {what}", hint=f"name a {known} file, or give --format")


def graph_data(store, graph, max_nodes: int = 300) -> dict:
    """Nodes and edges (with evidence) of the picture, the ``max_nodes`` best-connected entities."""
    degree = dict(graph.degree())
    keep = sorted(graph.nodes, key=lambda n: (-degree[n], graph.nodes[n].get("label", n)))[:max_nodes]
    index = {n: i for i, n in enumerate(keep)}
    nodes = [{"id": i, "iri": n, "label": graph.nodes[n].get("label", n), "type": graph.nodes[n].get("type", "Entity"),
              "aliases": [a for a in graph.nodes[n].get("aliases", "").split("|") if a], "degree": degree[n]}
             for n, i in index.items()]
    edges = []
    for s, o, data in graph.edges(data=True):
        if s in index and o in index:
            edges.append({"source": index[s], "target": index[o], "predicate": data["predicate"],
                          "documents": data.get("documents", 1), "symmetric": data.get("symmetric", False),
                          "evidence": [{"sentence": sent, "document": doc}
                                       for sent, doc in evidence(store, s, data["predicate"], o)]})
    return {"nodes": nodes, "edges": edges, "total_nodes": graph.number_of_nodes(),
            "total_edges": graph.number_of_edges(), "palette": PALETTE}


def write_html(data: dict, path: str | Path, title: str = "kg graph", template: str | None = None) -> None:
    """The page ``template`` (default: the graph's; the timeline has its own) with its title and data."""
    payload = json.dumps(data, ensure_ascii=False).translate(_SCRIPT_SAFE)
    page = (template or _TEMPLATE).replace("__TITLE__", html.escape(title)).replace("__DATA__", payload)
    with output_file(path) as out:
        out.write(page.encode("utf-8"))


def write_picture(graph, path: str | Path, fmt: str = "png", title: str = "kg graph", max_nodes: int = 150) -> None:
    """A static picture (png, svg or pdf) of the ``max_nodes`` best-connected entities."""
    fig = picture(graph, title, max_nodes)
    import matplotlib.pyplot as plt

    try:
        with output_file(path) as out:
            fig.savefig(out, format=fmt, dpi=130)
    finally:
        plt.close(fig)


def picture(graph, title: str = "kg graph", max_nodes: int = 150):
    """The matplotlib figure: spring layout, nodes coloured by type, edges by relation, a legend."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("a picture needs matplotlib", hint="pip install 'kg[viz]', or write .html") from None
    import networkx as nx

    degree = dict(graph.degree())
    keep = sorted(graph.nodes, key=lambda n: (-degree[n], graph.nodes[n].get("label", n)))[:max_nodes]
    sub = nx.MultiDiGraph()
    for n in keep:
        sub.add_node(n, **graph.nodes[n])
    relations = sorted({d["predicate"] for _, _, d in graph.edges(data=True)})
    symmetric = {d["predicate"] for _, _, d in graph.edges(data=True) if d.get("symmetric")}
    cmap = plt.get_cmap("tab10")
    colour_of = {r: cmap(i % 10) for i, r in enumerate(relations)}
    for s, o, d in graph.edges(data=True):
        if s in sub and o in sub:
            sub.add_edge(s, o, predicate=d["predicate"])
    pos = nx.spring_layout(nx.Graph(sub), seed=7, k=1.6 / max(1, len(sub)) ** 0.5, iterations=200)
    fig, ax = plt.subplots(figsize=(13, 9))
    sizes = [120 + 60 * degree[n] for n in sub]
    for number, relation in enumerate(relations):
        edgelist = [(s, o) for s, o, d in sub.edges(data=True) if d["predicate"] == relation]
        # each relation bends its own way, so two facts between the same entities stay apart
        bend = 0.08 * (number - (len(relations) - 1) / 2)
        arrows = nx.draw_networkx_edges(
            sub, pos, edgelist=edgelist, edge_color=[colour_of[relation]], width=1.6, alpha=0.8, ax=ax,
            arrows=True, arrowstyle="-" if relation in symmetric else "-|>", arrowsize=9, node_size=sizes,
            connectionstyle=f"arc3,rad={bend:.2f}")
        for arrow in arrows:
            arrow.set_gid(relation)  # names the relation of each drawn fact (and its SVG element)
    types = [sub.nodes[n].get("type", "Entity") for n in sub]
    nx.draw_networkx_nodes(sub, pos, node_color=[PALETTE.get(t, "#ddd") for t in types],
                           node_size=sizes, edgecolors="#333", linewidths=0.5, ax=ax)
    nx.draw_networkx_labels(sub, pos, labels={n: sub.nodes[n].get("label", n) for n in sub}, font_size=7, ax=ax)
    from matplotlib.lines import Line2D

    handles = [Line2D([0], [0], color=colour_of[r], lw=2, label=r) for r in relations]
    handles += [Line2D([0], [0], marker="o", color="w", markerfacecolor=PALETTE[t], markeredgecolor="#333",
                       markersize=8, label=t) for t in sorted(set(types))]
    ax.legend(handles=handles, loc="lower left", fontsize=7, frameon=True)
    shown = f"{len(sub)} of {graph.number_of_nodes()} entities" if len(sub) < graph.number_of_nodes() else \
        f"{len(sub)} entities"
    ax.set_title(f"{title}: {shown}, {sub.number_of_edges()} facts", fontsize=10)
    ax.axis("off")
    fig.tight_layout()
    return fig


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
  svg { width: 100%; height: 100%; background: #fcfcfc; cursor: grab; }
  .node circle { stroke: #333; stroke-width: .6px; cursor: pointer; }
  .node text { font-size: 10px; pointer-events: none; fill: #111; }
  .node.hit circle { stroke: #000; stroke-width: 3px; }
  .node.dim, .edge.dim { opacity: .12; }
  .edge path { stroke-width: 2px; cursor: pointer; }
  .edge path.wide { stroke: transparent; stroke-width: 10px; }
  .edge text { font-size: 8px; fill: #555; pointer-events: none; }
  .edge.selected path:not(.wide) { stroke-width: 4px; }
  #search { width: 100%; box-sizing: border-box; padding: 4px; }
  .rel { display: block; }
</style>
</head>
<body>
<div id="side">
  <h1>__TITLE__</h1>
  <div id="counts"></div>
  <div id="note"></div>
  <h2>Find an entity</h2>
  <input id="search" type="search" placeholder="name or alias" autocomplete="off">
  <h2>Relations</h2>
  <div id="relations"></div>
  <h2>Types</h2>
  <div id="types"></div>
  <h2>Details</h2>
  <div id="details">Click a node for its names, an edge for the sentences behind it.</div>
</div>
<div id="main"><svg id="graph" role="img" aria-label="knowledge graph"></svg></div>
<script id="kg-data" type="application/json">__DATA__</script>
<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("kg-data").textContent);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.getElementById("graph");
  const world = document.createElementNS(NS, "g");
  svg.appendChild(world);
  const palette = data.palette;
  const relations = [...new Set(data.edges.map(e => e.predicate))].sort();
  const relColor = {};
  const hues = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"];
  relations.forEach((r, i) => relColor[r] = hues[i % hues.length]);
  const hidden = new Set();

  document.getElementById("counts").textContent =
    data.nodes.length + " entities, " + data.edges.length + " facts";
  if (data.total_nodes > data.nodes.length) {
    document.getElementById("note").textContent = "Showing the " + data.nodes.length + " best-connected of " +
      data.total_nodes + " entities (" + data.total_edges + " facts in all).";
  }

  // ---------------------------------------------------------------- layout: a small force simulation
  const W = () => svg.clientWidth || 900, H = () => svg.clientHeight || 700;
  const n = data.nodes.length;
  data.nodes.forEach((d, i) => {
    const a = 2 * Math.PI * i / Math.max(1, n), r = 40 + 6 * Math.sqrt(i) * 10;
    d.x = W() / 2 + r * Math.cos(a); d.y = H() / 2 + r * Math.sin(a); d.vx = 0; d.vy = 0;
  });
  function tick(alpha) {
    const k = 90;
    for (let i = 0; i < n; i++) {
      const a = data.nodes[i];
      for (let j = i + 1; j < n; j++) {
        const b = data.nodes[j];
        let dx = a.x - b.x, dy = a.y - b.y, d2 = dx * dx + dy * dy + 0.01;
        if (d2 > 250000) continue;
        const f = alpha * 0.25 * k * k / d2;
        dx *= f; dy *= f; a.vx += dx; a.vy += dy; b.vx -= dx; b.vy -= dy;
      }
    }
    data.edges.forEach(e => {
      const a = data.nodes[e.source], b = data.nodes[e.target];
      const dx = b.x - a.x, dy = b.y - a.y, d = Math.sqrt(dx * dx + dy * dy) + 0.01;
      const f = alpha * (d - k) / d * 0.2;
      a.vx += dx * f; a.vy += dy * f; b.vx -= dx * f; b.vy -= dy * f;
    });
    data.nodes.forEach(d => {
      d.vx += (W() / 2 - d.x) * 0.01 * alpha; d.vy += (H() / 2 - d.y) * 0.01 * alpha;
      d.x += Math.max(-20, Math.min(20, d.vx)); d.y += Math.max(-20, Math.min(20, d.vy));
      d.vx *= 0.6; d.vy *= 0.6;
    });
  }
  for (let step = 0; step < 300; step++) tick(1 - step / 300);

  // ---------------------------------------------------------------- drawing
  const edgeEls = data.edges.map((e, i) => {
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", "edge"); g.dataset.index = i; g.dataset.predicate = e.predicate;
    const wide = document.createElementNS(NS, "path"); wide.setAttribute("class", "wide");
    const line = document.createElementNS(NS, "path"); line.setAttribute("stroke", relColor[e.predicate]);
    line.setAttribute("fill", "none"); wide.setAttribute("fill", "none");
    if (!e.symmetric) line.setAttribute("marker-end", "url(#arrow)");  // a symmetric fact holds both ways
    const text = document.createElementNS(NS, "text"); text.textContent = e.predicate;
    g.append(line, wide, text);
    g.addEventListener("click", ev => { ev.stopPropagation(); showEdge(i); });
    world.appendChild(g);
    return {g, line, wide, text};
  });
  const nodeEls = data.nodes.map((d, i) => {
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", "node"); g.dataset.index = i; g.dataset.type = d.type;
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("r", 5 + 2.2 * Math.sqrt(d.degree));
    c.setAttribute("fill", palette[d.type] || "#ddd");
    const title = document.createElementNS(NS, "title"); title.textContent = d.label + " (" + d.type + ")";
    const t = document.createElementNS(NS, "text"); t.textContent = d.label; t.setAttribute("dx", 8); t.setAttribute("dy", 3);
    c.appendChild(title); g.append(c, t);
    g.addEventListener("click", ev => { ev.stopPropagation(); showNode(i); });
    world.appendChild(g);
    return {g};
  });
  const defs = document.createElementNS(NS, "defs");
  defs.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="16" refY="5" markerWidth="6" markerHeight="6" orient="auto">' +
                   '<path d="M0,0 L10,5 L0,10 z" fill="#888"></path></marker>';
  svg.insertBefore(defs, world);

  // facts between the same two entities bend apart, each by its rank in the pair
  const pairs = {};
  data.edges.forEach(e => {
    const key = Math.min(e.source, e.target) + "-" + Math.max(e.source, e.target);
    e.rank = (pairs[key] = (pairs[key] || 0) + 1) - 1;
  });
  data.edges.forEach(e => {
    const n = pairs[Math.min(e.source, e.target) + "-" + Math.max(e.source, e.target)];
    e.bend = (e.rank - (n - 1) / 2) * 26 * (e.source < e.target ? 1 : -1);
  });
  function draw() {
    data.edges.forEach((e, i) => {
      const a = data.nodes[e.source], b = data.nodes[e.target], el = edgeEls[i];
      const dx = b.x - a.x, dy = b.y - a.y, len = Math.sqrt(dx * dx + dy * dy) || 1;
      const cx = (a.x + b.x) / 2 - dy / len * e.bend, cy = (a.y + b.y) / 2 + dx / len * e.bend;
      const d = "M" + a.x + "," + a.y + " Q" + cx + "," + cy + " " + b.x + "," + b.y;
      el.line.setAttribute("d", d); el.wide.setAttribute("d", d);
      el.text.setAttribute("x", (a.x + 2 * cx + b.x) / 4); el.text.setAttribute("y", (a.y + 2 * cy + b.y) / 4 - 2);
      el.g.style.display = hidden.has(e.predicate) ? "none" : "";
    });
    data.nodes.forEach((d, i) => nodeEls[i].g.setAttribute("transform", "translate(" + d.x + "," + d.y + ")"));
  }
  draw();

  // ---------------------------------------------------------------- pan and zoom
  let view = {x: 0, y: 0, s: 1}, drag = null;
  const apply = () => world.setAttribute("transform", "translate(" + view.x + "," + view.y + ") scale(" + view.s + ")");
  function fit() {  // the whole graph in view, with a margin for the labels
    if (!n) return;
    const xs = data.nodes.map(d => d.x), ys = data.nodes.map(d => d.y);
    const x0 = Math.min(...xs) - 40, x1 = Math.max(...xs) + 140, y0 = Math.min(...ys) - 40, y1 = Math.max(...ys) + 40;
    view.s = Math.min(W() / (x1 - x0), H() / (y1 - y0), 2.5);
    view.x = (W() - (x1 - x0) * view.s) / 2 - x0 * view.s; view.y = (H() - (y1 - y0) * view.s) / 2 - y0 * view.s;
    apply();
  }
  fit();
  window.addEventListener("resize", fit);
  svg.addEventListener("wheel", ev => { ev.preventDefault(); const f = ev.deltaY < 0 ? 1.1 : 1 / 1.1;
    view.x = ev.offsetX - (ev.offsetX - view.x) * f; view.y = ev.offsetY - (ev.offsetY - view.y) * f; view.s *= f; apply(); },
    {passive: false});
  svg.addEventListener("mousedown", ev => { drag = {x: ev.clientX - view.x, y: ev.clientY - view.y}; });
  window.addEventListener("mousemove", ev => { if (drag) { view.x = ev.clientX - drag.x; view.y = ev.clientY - drag.y; apply(); } });
  window.addEventListener("mouseup", () => { drag = null; });
  svg.addEventListener("click", () => clearSelection());

  // ---------------------------------------------------------------- panels
  const details = document.getElementById("details");
  const esc = s => String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  function clearSelection() {
    edgeEls.forEach(el => el.g.classList.remove("selected", "dim"));
    nodeEls.forEach(el => el.g.classList.remove("hit", "dim"));
  }
  function showNode(i) {
    clearSelection();
    const d = data.nodes[i];
    nodeEls[i].g.classList.add("hit");
    const facts = data.edges.filter(e => e.source === i || e.target === i);
    details.innerHTML = '<div class="node-details"><b>' + esc(d.label) + '</b> <i>' + esc(d.type) + '</i>' +
      '<div>Also called: ' + (d.aliases.length ? d.aliases.map(esc).join(", ") : "(no other names)") + '</div>' +
      '<div class="doc">' + esc(d.iri) + '</div><div>' + facts.length + ' facts</div></div>';
  }
  function showEdge(i) {
    clearSelection();
    const e = data.edges[i], a = data.nodes[e.source], b = data.nodes[e.target];
    edgeEls[i].g.classList.add("selected");
    details.innerHTML = '<div class="edge-details"><b>' + esc(a.label) + '</b> ' + esc(e.predicate) + ' <b>' + esc(b.label) +
      '</b> (' + e.documents + ' document' + (e.documents === 1 ? "" : "s") + ')' +
      e.evidence.map(v => '<blockquote class="evidence">' + esc(v.sentence) + '<div class="doc">' + esc(v.document) +
                           '</div></blockquote>').join("") + '</div>';
  }
  const relBox = document.getElementById("relations");
  relations.forEach(r => {
    const label = document.createElement("label"); label.className = "rel";
    const box = document.createElement("input"); box.type = "checkbox"; box.checked = true; box.value = r;
    box.addEventListener("change", () => { box.checked ? hidden.delete(r) : hidden.add(r); draw(); });
    const sw = document.createElement("span"); sw.className = "swatch"; sw.style.background = relColor[r];
    label.append(box, sw, document.createTextNode(r + " (" + data.edges.filter(e => e.predicate === r).length + ")"));
    relBox.appendChild(label);
  });
  const typeBox = document.getElementById("types");
  [...new Set(data.nodes.map(d => d.type))].sort().forEach(t => {
    const div = document.createElement("div");
    const sw = document.createElement("span"); sw.className = "swatch"; sw.style.background = palette[t] || "#ddd";
    div.append(sw, document.createTextNode(t)); typeBox.appendChild(div);
  });
  document.getElementById("search").addEventListener("input", ev => {
    const q = ev.target.value.trim().toLowerCase();
    nodeEls.forEach((el, i) => {
      const d = data.nodes[i];
      const hit = q && (d.label.toLowerCase().includes(q) || d.aliases.some(a => a.toLowerCase().includes(q)));
      el.g.classList.toggle("hit", !!hit);
      el.g.classList.toggle("dim", !!q && !hit);
    });
  });
  window.kgReady = true;
})();
</script>
</body>
</html>
"""
