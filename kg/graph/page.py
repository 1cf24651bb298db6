"""The interactive page (``kg viz -o graph.html``): one self-contained file that works offline.

The page carries its data and its script inline; it fetches nothing. Its layout is
:func:`kg.graph.layout.scene`'s, as in the static picture: communities apart, the most central
entities named. The script places the names itself, with the sizes the browser measures, at the
zoom the reader chose (zooming in names more), greedily in order of centrality, where they cover
no node and no other name; the relation goes on each edge where there is room. Every node is named
on hover and click. A search box finds entities (and names and rings them), check boxes hide
relation types, a click on an edge gives the sentences and documents that state the fact; the
isolated pairs left out of the drawing are listed beside it, their facts a click away. The page
itself is kg/templates/head.html followed by kg/templates/graph.html.
"""

from __future__ import annotations

from pathlib import Path

from ..resources import write_page
from .analysis import evidence
from .layout import LABEL_SPOTS, PALETTE, RING, RINGS, relation_styles, scene

# kg/templates/: every page's prologue, the head it shares with the timeline's page, its own
TEMPLATES = ("doctype.html", "head.html", "graph.html")


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


def write_html(data: dict, path: str | Path, title: str = "kg graph") -> None:
    """The page of ``data`` (:func:`graph_data`), from the templates :data:`TEMPLATES`."""
    write_page(path, TEMPLATES, title, data)

