"""Graph analysis on the entity-to-entity projection: centrality, communities, components,
ego networks (``kg analyze``) and chains of facts between two entities (``kg path``).

Everything runs on :func:`kg.graph.export.to_networkx` (entities as nodes, one edge per fact), not
on the whole RDF graph: at a million triples that projection has some 20,000 nodes, where
PageRank takes a tenth of a second. Exact betweenness is quadratic, so above
:data:`EXACT_BETWEENNESS_LIMIT` nodes it is estimated from a fixed-seed sample of pivots.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import UsageError

EXACT_BETWEENNESS_LIMIT = 2000
BETWEENNESS_SAMPLE = 500
SEED = 42


@dataclass
class Analysis:
    nodes: int
    edges: int
    relations: list[str]
    degree: list[tuple[str, str, str, float]] = field(default_factory=list)  # (iri, label, type, score)
    pagerank: list[tuple[str, str, str, float]] = field(default_factory=list)
    betweenness: list[tuple[str, str, str, float]] = field(default_factory=list)
    betweenness_exact: bool = True
    communities: list[list[str]] = field(default_factory=list)  # labels, biggest first
    components: list[list[str]] = field(default_factory=list)
    ego: dict | None = None

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def filter_graph(graph, relations: Iterable[str] | None = None, since: str | None = None,
                 until: str | None = None, min_confidence: float | None = None):
    """The facts of the given relations that happened within [since, until], by an assertion of
    at least ``min_confidence``: by the time of their events where a sentence dates them, else by
    the dates of the documents stating them."""
    wanted = {r.strip() for r in relations or () if r.strip()}
    if wanted:
        known = {d["predicate"] for _, _, d in graph.edges(data=True)}
        unknown = wanted - known - _all_relations()
        if unknown:
            raise UsageError(f"--relations: unknown relation {', '.join(sorted(unknown))}",
                             hint=f"relations: {', '.join(sorted(_all_relations()))}")
    window = _window(since, until)
    out = graph.__class__()
    out.add_nodes_from(graph.nodes(data=True))
    for s, o, key, data in graph.edges(keys=True, data=True):
        if wanted and data["predicate"] not in wanted:
            continue
        if window is not None and not _within(data, window):
            continue
        if min_confidence is not None and data.get("confidence", 1.0) < min_confidence:
            continue
        out.add_edge(s, o, key=key, **data)
    out.remove_nodes_from([n for n in list(out) if out.degree(n) == 0])
    return out


def _window(since: str | None, until: str | None):
    """The days of [since, until] (either may be open), or None for no date filter; a UsageError
    for what is not a date."""
    from datetime import date

    from ..dates import parse_user_date

    if not since and not until:
        return None
    low = parse_user_date(since, "--since").days[0] if since else date.min
    high = parse_user_date(until, "--until").days[1] if until else date.max
    return low, high


def _within(data: dict, window) -> bool:
    """Whether a fact happened within the window: when its events happened, where a sentence
    dates them, else when the documents stating it were written. Each date is the days it covers
    ("2017" is the whole year), and the fact's dates must meet the window."""
    from ..dates import DateError, parse_date

    first_date = data.get("event_first") or data.get("first_date")
    last_date = data.get("event_last") or data.get("last_date")
    try:
        first = parse_date(first_date).days[0] if first_date else None
        last = parse_date(last_date).days[1] if last_date else None
    except DateError:
        return False
    if first is None or last is None:
        return False  # an undated fact cannot satisfy a date filter
    return first <= window[1] and last >= window[0]


def _all_relations() -> set[str]:
    from ..ontology import relations

    return set(relations())


def projections(graph):
    """The undirected and the directed simple graphs of the facts, each edge weighted by the
    documents that state its facts; a symmetric fact (allyOf) is an arc both ways."""
    import networkx as nx

    simple = nx.Graph()
    simple.add_nodes_from(graph.nodes(data=True))
    directed = nx.DiGraph()
    directed.add_nodes_from(graph.nodes(data=True))
    for s, o, data in graph.edges(data=True):
        weight = data.get("documents", 1)
        # a symmetric fact (allyOf) is one edge that means both directions: PageRank follows it both ways
        arcs = ((simple, s, o), (directed, s, o)) + (((directed, o, s),) if data.get("symmetric") else ())
        for g, a, b in arcs:
            if g.has_edge(a, b):
                g[a][b]["weight"] += weight
            else:
                g.add_edge(a, b, weight=weight)
    return simple, directed


def pagerank(directed) -> dict:
    """PageRank of the directed projection, weighted by documents ({} for a graph without facts)."""
    import networkx as nx

    return nx.pagerank(directed, weight="weight") if directed.number_of_edges() else {}


def louvain(simple) -> list[set]:
    """The Louvain communities of the undirected projection (seeded: the same graph gives the same
    communities, in ``kg analyze`` and in the pictures)."""
    import networkx as nx

    return nx.community.louvain_communities(simple, weight="weight", seed=SEED) if simple.number_of_edges() else []


def analyze(graph, top: int = 10, ego: str | None = None, radius: int = 1, entities=None) -> Analysis:
    """Rankings, communities and components of ``graph``; with ``ego``, that entity's neighbourhood.

    ``entities`` is the graph ``ego`` is looked up in (default ``graph``): the whole entity graph,
    where ``graph`` keeps only the facts of some relations or dates, so that an entity without
    such facts is found, with an ego network of itself alone.
    """
    import networkx as nx

    simple, directed = projections(graph)

    def ranked(scores: dict) -> list[tuple[str, str, str, float]]:
        best = sorted(scores.items(), key=lambda kv: (-kv[1], graph.nodes[kv[0]].get("label", kv[0])))[:top]
        return [(n, graph.nodes[n].get("label", n), graph.nodes[n].get("type", "Entity"), round(v, 6)) for n, v in best]

    result = Analysis(nodes=graph.number_of_nodes(), edges=graph.number_of_edges(),
                      relations=sorted({d["predicate"] for _, _, d in graph.edges(data=True)}))
    if graph.number_of_nodes() == 0:
        return result
    result.degree = ranked(dict(graph.degree()))
    result.pagerank = ranked(pagerank(directed))
    exact = simple.number_of_nodes() <= EXACT_BETWEENNESS_LIMIT
    k = None if exact else min(BETWEENNESS_SAMPLE, simple.number_of_nodes())
    result.betweenness = ranked(nx.betweenness_centrality(simple, k=k, seed=SEED))
    result.betweenness_exact = exact
    communities = louvain(simple)
    label = lambda n: graph.nodes[n].get("label", n)  # noqa: E731
    result.communities = sorted((sorted(map(label, c)) for c in communities if len(c) > 1), key=lambda c: (-len(c), c))
    result.components = sorted((sorted(map(label, c)) for c in nx.connected_components(simple)),
                               key=lambda c: (-len(c), c))
    if ego:
        whole = graph if entities is None else entities
        center = resolve_entity(whole, ego)
        sub = nx.ego_graph(simple, center, radius=radius) if center in simple else {center}
        facts = [(label(s), d["predicate"], label(o)) for s, o, d in graph.edges(data=True) if s in sub and o in sub]
        result.ego = {"entity": whole.nodes[center].get("label", center), "radius": radius,
                      "nodes": sorted(whole.nodes[n].get("label", n) for n in sub), "facts": sorted(facts)}
    return result


def resolve_entity(graph, name: str) -> str:
    """The node whose label or alias is ``name`` (case-insensitive), or a clear error."""
    wanted = name.strip().lower()
    exact = [n for n, d in graph.nodes(data=True) if d.get("label", "").lower() == wanted or n == name]
    if not exact:
        exact = [n for n, d in graph.nodes(data=True) if wanted in (a.lower() for a in d.get("aliases", "").split("|") if a)]
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        labels = ", ".join(sorted(graph.nodes[n].get("label", n) for n in exact))
        raise UsageError(f"{name!r} names several entities: {labels}", hint="use the entity IRI")
    near = sorted(d.get("label", n) for n, d in graph.nodes(data=True) if wanted in d.get("label", "").lower())[:5]
    hint = f"did you mean: {', '.join(near)}" if near else "see `kg query entity --param name=...` or kg info"
    raise UsageError(f"no entity called {name!r} in the graph", hint=hint)


@dataclass
class Hop:
    source: str
    predicate: str
    target: str
    evidence: list[tuple[str, str]]  # (sentence, document)
    symmetric: bool = False  # source and target as stored (IRI order); the fact holds both ways


@dataclass
class Chains:
    """The answer of :func:`paths`: the two entities' labels, the chains found, and which of the
    two take part in no fact (of the relations asked for), so that no chain can reach them."""

    source: str
    target: str
    chains: list[list[Hop]]
    factless: list[str]


def paths(store, graph, a: str, b: str, limit: int = 3, entities=None) -> Chains:
    """The shortest chains of facts between ``a`` and ``b`` (in either direction), with evidence.

    ``a`` and ``b`` are looked up in ``entities`` (default ``graph``): the whole entity graph,
    where ``graph`` keeps only some relations' facts, so that an entity with none of those facts
    is told apart from a name the graph does not know.
    """
    import networkx as nx

    whole = graph if entities is None else entities
    start, end = resolve_entity(whole, a), resolve_entity(whole, b)
    if start == end:
        raise UsageError("the two entities are the same")
    label = lambda n: whole.nodes[n].get("label", n)  # noqa: E731
    factless = [label(n) for n in (start, end) if n not in graph or graph.degree(n) == 0]
    result = Chains(label(start), label(end), [], factless)
    if result.factless:
        return result
    simple = nx.Graph(graph.to_undirected(as_view=True))
    try:
        found = []
        for route in nx.all_shortest_paths(simple, start, end):
            found.append(route)
            if len(found) >= limit:
                break
    except nx.NetworkXNoPath:
        return result
    for route in found:
        hops = []
        for u, v in zip(route, route[1:]):
            for s, o in ((u, v), (v, u)):
                for data in (graph.get_edge_data(s, o) or {}).values():
                    hops.append(Hop(label(s), data["predicate"], label(o), evidence(store, s, data["predicate"], o),
                                    data.get("symmetric", False)))
        result.chains.append(hops)
    return result


EVIDENCE = (
    "SELECT DISTINCT ?s ?p ?o ?sentence ?document WHERE { GRAPH ?g { ?st rdf:subject ?s ; rdf:predicate ?p ; "
    "rdf:object ?o ; kg:evidence ?sentence ; prov:wasDerivedFrom ?d . ?d dcterms:identifier ?document } } "
    "ORDER BY ?document ?sentence"
)


def evidence(store, subject: str, predicate: str, obj: str) -> list[tuple[str, str]]:
    """(sentence, document) of every assertion of one fact (the fact's terms are bound, not pasted)."""
    import pyoxigraph as ox

    from ..vocab import KG

    bindings = {ox.Variable("s"): ox.NamedNode(subject), ox.Variable("p"): ox.NamedNode(str(KG._NS[predicate])),
                ox.Variable("o"): ox.NamedNode(obj)}
    rows = store.query(EVIDENCE, bindings, union=False)
    return [(r["sentence"].value, r["document"].value) for r in rows]
