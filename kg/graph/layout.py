"""What a picture of the graph shows and where: the layout the page (``kg viz -o x.html``) and the
static picture (.png, .svg, .pdf) share.

:func:`scene` picks the entities to draw and places them. Isolated pairs (two entities whose
facts are only with each other) are left out whenever there is anything else to draw: on real
text they are most of the components and none of the story, and the caption counts them. The
communities are Louvain's, as ``kg analyze`` computes them (on the whole filtered graph, so the two
agree); each is laid out on its own (a seeded spring layout, then pushed apart until no two nodes
overlap), and the communities are packed as discs that do not overlap, each next to the ones it
has facts with, then turned to face them. Everything is seeded: the same graph gives the same
picture.

Label placement is greedy: the most central entities (PageRank) first, and any entity asked for
before them, each at the first of :data:`LABEL_SPOTS` around its node where the label's box meets
no node and no label already placed; edge labels (the relation) then go where there is room left.
:class:`Room` does the collision checks for the picture; the page does the same in its script,
with the sizes the browser measures (its fonts are not matplotlib's).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import UsageError
from .analysis import SEED, louvain, pagerank, projections, resolve_entity

PALETTE = {
    "ArmedGroup": "#d62728", "ArmedForces": "#ff7f0e", "GovernmentAgency": "#1f77b4",
    "InternationalOrganization": "#17becf", "MediaOrganization": "#9467bd", "Organization": "#8c564b",
    "Person": "#2ca02c", "PersonGroup": "#bcbd22", "Country": "#7f7f7f", "Region": "#a6a6a6",
    "Settlement": "#c7c7c7", "Facility": "#8c8c8c", "Location": "#b0b0b0", "Entity": "#e0e0e0",
}
# a relation's colour and dash pattern (on, off, ... in line widths), by its place in the ontology,
# so that attacked looks the same in every picture and page; the dashes tell relations apart
# without colour
RELATION_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
                    "#bcbd22", "#7f7f7f", "#393b79")
DASHES = ((), (5, 2), (1, 1.6), (6, 2, 1, 2), (10, 3), (3, 1.5, 1, 1.5, 1, 1.5), (2.5, 2.5), (10, 2, 1, 2),
          (1, 4), (4, 1.5, 1, 1.5), (8, 2, 2, 2))  # as many as the ontology's relations, kg:institutionOf and
# kg:peopleOf: each its own
# where a label may go around its node, in order of preference: (x, y) with y up
LABEL_SPOTS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
RINGS, RING = 4, 1.6  # rings of spots further out (each RING label heights on) for the most central
BEND = 0.5  # arc3 "rad" between two facts of the same pair: facts between the same entities apart
COMMUNITY_GAP = 1.2  # layout units (about an edge's length) between the discs of two communities
NODE_GAP = 0.45  # layout units between the rims of two nodes of a community
ASPECT = 1.5  # the packing's width to its height: pages and printed pictures are wider than tall
# an event type's colour in the timeline and on the map, page and picture alike; OTHER_EVENT for the rest
EVENT_COLOURS = {"Attack": "#d62728", "Capture": "#ff7f0e", "Evacuation": "#1f77b4", "Ceasefire": "#2ca02c",
                 "AllianceAct": "#9467bd"}
OTHER_EVENT = "#7f7f7f"


def node_radius(degree: int) -> float:
    """A node's radius in layout units (an edge is about one unit long): grows with its facts."""
    return min(0.16 + 0.045 * math.sqrt(degree), 0.45)


@dataclass(frozen=True)
class Edge:
    """One drawn fact; ``bend`` is matplotlib's arc3 ``rad`` (0: straight; facts of the same pair
    bend apart, each by its rank)."""

    source: str
    target: str
    predicate: str
    symmetric: bool
    documents: int
    bend: float


@dataclass(frozen=True)
class Scene:
    """The entities and facts to draw, where, and what was left out."""

    nodes: tuple[str, ...]  # drawn entities, the ones asked for first, then by PageRank: the label order
    position: dict[str, tuple[float, float]]
    radius: dict[str, float]
    community: dict[str, int]  # drawn entity -> its community, numbered biggest first
    discs: tuple[tuple[float, float, float], ...]  # each community's disc: centre x, y and radius
    grounds: tuple[tuple[tuple[float, float], ...], ...]  # each community's outline (a convex polygon)
    edges: tuple[Edge, ...]
    highlighted: frozenset[str]
    pairs: tuple[tuple[str, str], ...]  # the isolated pairs left out
    cut: int  # entities left out beyond max_nodes
    max_nodes: int
    total_nodes: int
    total_edges: int
    labels: dict[str, str] = field(default_factory=dict)

    @property
    def caption(self) -> str:
        """What is shown and what was left out, in one line."""
        parts = [f"showing {len(self.nodes)} of {self.total_nodes} entities, "
                 f"{len(self.edges)} of {self.total_edges} facts"]
        if self.pairs:
            parts.append(f"{len(self.pairs)} isolated pair{'' if len(self.pairs) == 1 else 's'} not drawn")
        if self.cut:
            parts.append(f"{self.cut} entit{'y' if self.cut == 1 else 'ies'} beyond the {self.max_nodes} "
                         "best-connected not drawn")
        return "; ".join(parts)


def relation_styles(relations: Iterable[str]) -> dict[str, tuple[str, tuple[float, ...]]]:
    """Each relation's colour and dash pattern: the ontology's in its order, then any other
    (a relation added in the lexicon) after them, alphabetically."""
    from ..ontology import relations as known

    order = list(known())
    order += sorted(set(relations) - set(order))
    return {r: (RELATION_COLOURS[i % len(RELATION_COLOURS)], DASHES[i % len(DASHES)]) for i, r in enumerate(order)
            if r in set(relations)}


def scene(graph, max_nodes: int = 300, highlight: Iterable[str] = ()) -> Scene:
    """The picture of ``graph`` (an entity graph: :func:`kg.to_networkx`, maybe filtered): at most
    ``max_nodes`` entities, those called ``highlight`` (labels or aliases) always among them."""
    import networkx as nx

    graph = graph.subgraph([n for n in graph if graph.degree(n)])  # the entities that take part in facts
    label = {n: graph.nodes[n].get("label", n) for n in graph}
    wanted = set()
    for name in highlight:
        try:
            wanted.add(resolve_entity(graph, name))
        except UsageError as err:
            raise UsageError(f"--highlight: {err.args[0]}", hint=err.hint) from None
    simple, directed = projections(graph)
    rank = pagerank(directed)
    components = [c for c in nx.connected_components(simple)]
    pairs = [c for c in components if len(c) == 2 and not c & wanted]
    if len(pairs) == len(components):
        pairs = []  # nothing else to draw: the pairs are the picture
    paired = set().union(*pairs)
    degree = dict(graph.degree())
    order = sorted((n for n in graph if n not in paired), key=lambda n: (-degree[n], -rank.get(n, 0), label[n]))
    keep = set(wanted) | set(order[:max(0, max_nodes - len(wanted))])
    # an entity whose neighbours were all cut would float alone
    keep = {n for n in keep if n in wanted or any(m in keep for m in simple[n] if m != n)}
    cut = len(order) - len(keep)

    communities = sorted((c & keep for c in louvain(simple)), key=lambda c: (-len(c), sorted(label[n] for n in c)))
    communities = [sorted(c, key=lambda n: (-rank.get(n, 0), label[n])) for c in communities if c]
    community = {n: i for i, c in enumerate(communities) for n in c}
    radius = {n: node_radius(degree[n]) for n in keep}
    local = [_local(_induced(simple, c), c, radius) for c in communities]
    sub = _induced(simple, sorted(keep, key=lambda n: (label[n], n)))
    discs = _pack(local, communities, community, radius, sub)
    position = _turn(local, communities, community, discs, sub)

    nodes = tuple(sorted(keep, key=lambda n: (n not in wanted, -rank.get(n, 0), -degree[n], label[n])))
    grounds = tuple(_ground([position[n] for n in c], [radius[n] for n in c]) for c in communities)
    return Scene(nodes=nodes, position=position, radius=radius, community=community,
                 discs=tuple(discs), grounds=grounds, edges=_edges(graph, keep), highlighted=frozenset(wanted),
                 pairs=tuple(tuple(sorted(p, key=lambda n: label[n])) for p in
                             sorted(pairs, key=lambda p: sorted(label[n] for n in p))),
                 cut=cut, max_nodes=max_nodes, total_nodes=graph.number_of_nodes(),
                 total_edges=graph.number_of_edges(), labels=label)


def _induced(simple, nodes: list):
    """The subgraph of ``nodes``, in their order (a networkx subgraph view of a few nodes iterates
    them in the order of a set, which changes from one run of Python to the next)."""
    import networkx as nx

    sub = nx.Graph()
    sub.add_nodes_from(nodes)
    inside = set(nodes)
    sub.add_edges_from((a, b, simple[a][b]) for a in nodes for b in sorted(simple[a]) if b in inside)
    return sub


def _edges(graph, keep: set) -> tuple[Edge, ...]:
    """The facts between drawn entities; those of the same pair get bends that keep them apart
    (a fact drawn the other way round bends the other way, so the sign follows the pair's order)."""
    by_pair: dict[tuple[str, str], list] = {}
    for s, o, data in graph.edges(data=True):
        if s in keep and o in keep and s != o:  # a fact of an entity about itself has no line to draw
            by_pair.setdefault((min(s, o), max(s, o)), []).append((data["predicate"], s, o, data))
    edges = []
    for (low, _), facts in sorted(by_pair.items()):
        facts.sort(key=lambda f: (f[0], f[1]))
        for number, (predicate, s, o, data) in enumerate(facts):
            bend = (number - (len(facts) - 1) / 2) * BEND
            edges.append(Edge(s, o, predicate, bool(data.get("symmetric")), int(data.get("documents", 1)),
                              round(bend if s == low else -bend, 3)))
    return tuple(edges)


def _local(sub, nodes: list, radius: dict):
    """One community on its own, centred on 0: a seeded spring layout scaled so that an edge is
    about a unit long, then pushed apart until no two nodes are closer than their radii allow."""
    import networkx as nx
    import numpy as np

    if len(nodes) == 1:
        return np.zeros((1, 2))
    if len(nodes) == 2:
        return np.array([[-0.6, 0.0], [0.6, 0.0]])
    pos = nx.spring_layout(sub, seed=SEED, iterations=150, weight=None)
    points = np.array([pos[n] for n in nodes], dtype=float)
    index = {n: i for i, n in enumerate(nodes)}
    lengths = [np.linalg.norm(points[index[a]] - points[index[b]]) for a, b in sub.edges() if a != b]
    points -= points.mean(axis=0)
    points /= max(float(np.median(lengths)) if lengths else 1.0, 1e-6)
    return _separate(points, np.array([radius[n] for n in nodes]))


def _separate(points, radii, rounds: int = 80):
    """Push apart every two nodes closer than their radii and NODE_GAP (a deterministic relaxation)."""
    import numpy as np

    n = len(points)
    # a tiny fixed spread, so that two nodes on the same spot have a direction to part in
    points = points + 1e-3 * np.stack([np.cos(np.arange(n)), np.sin(np.arange(n))], axis=1)
    need = radii[:, None] + radii[None, :] + NODE_GAP
    np.fill_diagonal(need, 0)
    for _ in range(rounds):
        delta = points[:, None, :] - points[None, :, :]
        dist = np.sqrt((delta ** 2).sum(axis=2)) + np.eye(n)
        short = np.clip(need - dist, 0, None)
        if not short.any():
            break
        push = (delta / dist[:, :, None] * (short / 2)[:, :, None]).sum(axis=1)
        points = points + push
    return points - points.mean(axis=0)


def _pack(local: list, communities: list, community: dict, radius: dict, sub) -> list:
    """The communities' discs (x, y, r), none overlapping another: the biggest at the centre, then
    each one with the most facts to those placed, at the free spot nearest to them (the others,
    nearest to the centre), judged on a wider-than-tall page."""
    import numpy as np

    count = len(communities)
    if not count:
        return []
    reach = [float(max(np.linalg.norm(p, axis=1) + np.array([radius[n] for n in c])))
             for p, c in zip(local, communities)]
    links = np.zeros((count, count))
    for a, b, data in sub.edges(data=True):
        i, j = community[a], community[b]
        if i != j:
            links[i, j] += data.get("weight", 1)
            links[j, i] += data.get("weight", 1)
    centres = np.zeros((count, 2))
    placed = [0]
    angles = np.linspace(0, 2 * math.pi, 36, endpoint=False)
    ring = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    left = list(range(1, count))
    while left:
        pull = links[left][:, placed].sum(axis=1)
        pick = left[int(np.argmax(pull))] if pull.max() > 0 else left[0]
        left.remove(pick)
        weights = links[pick, placed]
        target = (weights @ centres[placed]) / weights.sum() if weights.sum() else np.zeros(2)
        done = np.array(placed)
        spots = (centres[done][:, None, :] + (np.array(reach)[done] + reach[pick] + COMMUNITY_GAP)[:, None, None]
                 * ring[None, :, :]).reshape(-1, 2)
        spots = np.vstack([target[None, :], spots])
        gaps = (np.linalg.norm(spots[:, None, :] - centres[done][None, :, :], axis=2)
                - np.array(reach)[done] - reach[pick])
        free = (gaps >= COMMUNITY_GAP - 1e-6).all(axis=1)
        cost = ((spots[:, 0] - target[0]) / ASPECT) ** 2 + (spots[:, 1] - target[1]) ** 2
        cost[~free] = np.inf
        centres[pick] = spots[int(np.argmin(cost))]
        placed.append(pick)
    return [(round(float(x), 4), round(float(y), 4), round(r, 4)) for (x, y), r in zip(centres, reach)]


def _turn(local: list, communities: list, community: dict, discs: list, sub) -> dict:
    """The nodes' places: each community turned (in steps of 30 degrees) so that its facts with
    other communities are as short as they can be, in two sweeps."""
    import numpy as np

    absolute = [p + np.array(d[:2]) for p, d in zip(local, discs)]
    index = {n: (community[n], k) for c in communities for k, n in enumerate(c)}
    angles = np.radians(np.arange(0, 360, 30))
    turns = np.stack([np.stack([np.cos(angles), -np.sin(angles)], axis=1),
                      np.stack([np.sin(angles), np.cos(angles)], axis=1)], axis=1)  # (angle, 2, 2)
    for _ in range(2):
        for i, members in enumerate(communities):
            if len(members) < 2:
                continue
            outer = [(index[a][1], absolute[index[b][0]][index[b][1]]) for a in members for b in sub[a]
                     if community[b] != i]
            if not outer:
                continue
            inside = np.array([k for k, _ in outer])
            there = np.array([p for _, p in outer])
            turned = np.einsum("aij,nj->ani", turns, local[i][inside]) + np.array(discs[i][:2])
            cost = ((turned - there[None, :, :]) ** 2).sum(axis=(1, 2))
            best = turns[int(np.argmin(cost))]
            local[i] = local[i] @ best.T
            absolute[i] = local[i] + np.array(discs[i][:2])
    return {n: (round(float(absolute[i][k][0]), 4), round(float(absolute[i][k][1]), 4))
            for n, (i, k) in index.items()}


def _ground(points: list, radii: list, pad: float = 0.35) -> tuple[tuple[float, float], ...]:
    """The outline of a community: the convex hull of its nodes, each grown by ``pad``. It hugs a
    chain where the community's disc would be mostly empty."""
    import numpy as np
    from scipy.spatial import ConvexHull

    angles = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    ring = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    cloud = np.concatenate([np.array(p) + (r + pad) * ring for p, r in zip(points, radii)])
    hull = ConvexHull(cloud)
    return tuple((round(float(x), 3), round(float(y), 3)) for x, y in cloud[hull.vertices])


class Room:
    """Where labels may still go: boxes (x0, y0, x1, y1), discs (x, y, r) and lines (pieces of the
    drawn edges, each with its owner) already there, inside the bounds, kept in a grid so that each
    check looks at the few things nearby. A label may never cover a box or a disc; covering a line
    is the second choice (``lines=False``), and a line's owner may always be covered by its own
    label."""

    def __init__(self, bounds: tuple[float, float, float, float], cell: float = 40.0) -> None:
        self.bounds, self.cell = bounds, cell
        self.grid: dict[tuple[int, int], list] = {}

    def _cells(self, x0: float, y0: float, x1: float, y1: float):
        c = self.cell
        for i in range(math.floor(x0 / c), math.floor(x1 / c) + 1):
            for j in range(math.floor(y0 / c), math.floor(y1 / c) + 1):
                yield i, j

    def _add(self, kind: str, thing: tuple, extent: tuple[float, float, float, float]) -> None:
        for key in self._cells(*extent):
            self.grid.setdefault(key, []).append((kind, thing))

    def add_disc(self, x: float, y: float, r: float) -> None:
        self._add("disc", (x, y, r), (x - r, y - r, x + r, y + r))

    def add_box(self, box: tuple[float, float, float, float]) -> None:
        self._add("box", box, box)

    def add_line(self, points: list[tuple[float, float]], owner: object) -> None:
        """A drawn edge, as the polyline through ``points``."""
        for (ax, ay), (bx, by) in zip(points, points[1:]):
            self._add("line", (ax, ay, bx, by, owner), (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))

    def fits(self, box: tuple[float, float, float, float], lines: bool = True, owner: object = None) -> bool:
        """Whether ``box`` is inside the bounds and covers no box, no disc and (with ``lines``) no
        line but ``owner``'s."""
        x0, y0, x1, y1 = box
        bx0, by0, bx1, by1 = self.bounds
        if x0 < bx0 or y0 < by0 or x1 > bx1 or y1 > by1:
            return False
        for key in self._cells(*box):
            for kind, thing in self.grid.get(key, ()):
                if kind == "box":
                    if x0 < thing[2] and thing[0] < x1 and y0 < thing[3] and thing[1] < y1:
                        return False
                elif kind == "disc":
                    cx, cy, r = thing
                    nx_, ny_ = min(max(cx, x0), x1), min(max(cy, y0), y1)
                    if (nx_ - cx) ** 2 + (ny_ - cy) ** 2 < r * r:
                        return False
                elif lines and thing[4] != owner and _crosses(box, thing):
                    return False
        return True


def _crosses(box: tuple[float, float, float, float], line: tuple) -> bool:
    """Whether the segment ``line`` (x0, y0, x1, y1, owner) passes through ``box`` (Liang-Barsky)."""
    x0, y0, x1, y1 = box
    ax, ay, bx, by = line[:4]
    dx, dy = bx - ax, by - ay
    low, high = 0.0, 1.0
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def label_tries(rings: int) -> list[tuple[int, bool]]:
    """The order to try (ring, clear of the edges) in: next to the node clear of the edges, next to
    it over them, then each ring further out the same way."""
    return [(ring, clear) for ring in range(rings + 1) for clear in (True, False)]


def label_box(x: float, y: float, r: float, width: float, height: float, spot: tuple[int, int],
              pad: float) -> tuple[float, float, float, float]:
    """The box of a ``width`` x ``height`` label at ``spot`` around a node of radius ``r`` at
    (x, y), ``pad`` from its rim (y up)."""
    sx, sy = spot
    reach = r * (0.71 if sx and sy else 1.0) + pad
    x0 = x + sx * reach - (width if sx < 0 else 0 if sx > 0 else width / 2)
    y0 = y + sy * reach - (height if sy < 0 else 0 if sy > 0 else height / 2)
    return (x0, y0, x0 + width, y0 + height)


def curve_point(a: tuple[float, float], b: tuple[float, float], bend: float, t: float) -> tuple[float, float]:
    """The point at ``t`` (0 at a, 1 at b) of the quadratic curve matplotlib's arc3 draws with
    ``rad=bend``: its control point is the chord's middle moved by bend x the chord, turned."""
    (x1, y1), (x2, y2) = a, b
    cx, cy = (x1 + x2) / 2 + bend * (y2 - y1), (y1 + y2) / 2 - bend * (x2 - x1)
    u = 1 - t
    return (u * u * x1 + 2 * u * t * cx + t * t * x2, u * u * y1 + 2 * u * t * cy + t * t * y2)
