"""Graph analysis on the entity-to-entity projection: centrality, camps, communities, components,
ego networks (``kg analyze``) and chains of facts between two entities (``kg path``).

Camps are sides, not clusters of whatever is linked: each relation's ``kg:sign`` in kg.ttl makes
its facts cooperative ties (allyOf, memberOf: one side) or hostile ones (attacked, captured:
opposite sides), and :func:`signed_camps` partitions the entities of that signed graph so that as
few hostile facts as it can fall inside a camp and as few cooperative ones between camps.
Centrality is ranked over each kind of tie apart (``pagerank_cooperation``, ``most_hostile``,
``most_targeted``), since an attack does not make its target an ally's hub.

Everything runs on :func:`kg.graph.export.to_networkx` (entities as nodes, one edge per fact), not
on the whole RDF graph: at a million triples that projection has some 20,000 nodes, where
PageRank takes a tenth of a second. Exact betweenness is quadratic, so above
:data:`EXACT_BETWEENNESS_LIMIT` nodes it is estimated from a fixed-seed sample of pivots.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from ..errors import UsageError

EXACT_BETWEENNESS_LIMIT = 2000
BETWEENNESS_SAMPLE = 500
SEED = 42
RELOCATION_ORDERS = 8  # orders the camps are sought in (one above EXACT_BETWEENNESS_LIMIT entities)


@dataclass(frozen=True)
class Contradiction:
    """A fact the camps go against: a hostile one inside a camp, or a cooperative one between two.
    ``camps`` are the numbers (1 = the first of :attr:`Analysis.camps`) of its two entities' camps."""

    source: str  # labels, as stored (a symmetric fact in IRI order)
    predicate: str
    target: str
    sign: int  # 1 cooperative, -1 hostile
    camps: tuple[int, int]
    documents: int


@dataclass
class Analysis:
    nodes: int
    edges: int
    relations: list[str]
    cooperation: list[str] = field(default_factory=list)  # the relations present whose kg:sign is 1
    hostility: list[str] = field(default_factory=list)  # ... is -1
    degree: list[tuple[str, str, str, float]] = field(default_factory=list)  # (iri, label, type, score)
    pagerank: list[tuple[str, str, str, float]] = field(default_factory=list)  # over every fact
    pagerank_cooperation: list[tuple[str, str, str, float]] = field(default_factory=list)
    most_hostile: list[tuple[str, str, str, float]] = field(default_factory=list)  # documents of hostile facts by it
    most_targeted: list[tuple[str, str, str, float]] = field(default_factory=list)  # ... against it
    betweenness: list[tuple[str, str, str, float]] = field(default_factory=list)
    betweenness_exact: bool = True
    camps: list[list[str]] = field(default_factory=list)  # labels; biggest first, then the most embattled
    contradictions: list[Contradiction] = field(default_factory=list)
    communities: list[list[str]] = field(default_factory=list)  # labels, biggest first
    components: list[list[str]] = field(default_factory=list)
    ego: dict | None = None

    def as_dict(self) -> dict:
        return asdict(self)


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
    """PageRank of a projection (directed, or undirected: each edge both ways), weighted by
    documents ({} for a graph without facts)."""
    import networkx as nx

    return nx.pagerank(directed, weight="weight") if directed.number_of_edges() else {}


def louvain(simple) -> list[set]:
    """The Louvain communities of the undirected projection (seeded: the same graph gives the same
    communities, in ``kg analyze`` and in the pictures)."""
    import networkx as nx

    return nx.community.louvain_communities(simple, weight="weight", seed=SEED) if simple.number_of_edges() else []


def signed_ties(graph, signs: dict[str, int]) -> dict[str, dict[str, float]]:
    """Entity -> entity -> the net sign of the facts between the two, each fact counted by its
    documents (an alliance of 2 documents and an attack of 1 make 1), the same both ways. Every
    entity of a signed fact is a key, even where its ties net to 0."""
    net: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for s, o, data in graph.edges(data=True):
        sign = signs.get(data["predicate"], 0)
        if sign and s != o:
            net[s][o] += sign * data.get("documents", 1)
            net[o][s] += sign * data.get("documents", 1)
    return net


def signed_camps(graph, signs: dict[str, int] | None = None) -> list[set[str]]:
    """The camps of the entities that take part in signed facts (``signs``: relation -> 1 or -1,
    by default each relation's ``kg:sign`` in kg.ttl): few hostile facts inside a camp, few
    cooperative ones between camps.

    This is correlation clustering of the signed graph (Bansal, Blum & Chawla, "Correlation
    clustering", Machine Learning 56, 2004) by Doreian & Mrvar's relocation algorithm ("A
    partitioning approach to structural balance", Social Networks 18, 1996), whose criterion it
    lowers (with alpha = 1/2: the documents of the hostile facts inside camps plus those of the
    cooperative facts between them): each entity in turn moves to the camp where it goes against
    the fewest, or to a camp of its own. Moving one entity at a time cannot part two sides once
    joined, so the relocation is multilevel, as Louvain's local moves are (Blondel et al., "Fast
    unfolding of communities in large networks", 2008): from every entity alone, then with the
    camps found moved as wholes, until no camp joins another; then each entity once more. It runs
    with the entities in :data:`RELOCATION_ORDERS` orders (sorted, then shuffled with
    :data:`SEED`) and keeps the first partition of the lowest total, so the same graph gives the
    same camps. A camp that no cooperative tie holds together is split into the parts that are,
    since joining entities with nothing in common would say nothing: an entity with hostile ties
    alone is a camp of its own.
    """
    import random

    signs = _signs() if signs is None else signs
    net = signed_ties(graph, signs)
    nodes = sorted(net)
    shuffle = random.Random(SEED)
    best, lowest = [], float("inf")
    for run in range(RELOCATION_ORDERS if len(nodes) <= EXACT_BETWEENNESS_LIMIT else 1):
        visit = shuffle if run else None
        camps = _relocate(_coarsen(nodes, net, visit), _order(nodes, visit), net)
        camps = [part for camp in camps for part in _cooperative_parts(sorted(camp), net)]
        cost = sum(documents for *_, documents in contradictions(graph, camps, signs))
        if cost < lowest:
            best, lowest = camps, cost
    return best


def contradictions(graph, camps: list[set[str]], signs: dict[str, int] | None = None) -> list[tuple[str, str, str, int]]:
    """The facts (source, predicate, target, documents) of ``graph`` that go against ``camps``:
    hostile ones inside a camp, cooperative ones between two."""
    signs = _signs() if signs is None else signs
    camp = {n: i for i, members in enumerate(camps) for n in members}
    found = []
    for s, o, data in graph.edges(data=True):
        sign = signs.get(data["predicate"], 0)
        if sign and s != o and (camp.get(s) == camp.get(o)) != (sign > 0):
            found.append((s, data["predicate"], o, data.get("documents", 1)))
    return found


def _signs() -> dict[str, int]:
    from ..ontology import signs

    return signs()


def _order(ids: list, shuffle) -> list:
    return ids if shuffle is None else shuffle.sample(ids, len(ids))


def _coarsen(nodes: list[str], net: dict[str, dict[str, float]], shuffle) -> list[set[str]]:
    """Multilevel relocation: relocate the entities from each alone, then the camps found, each
    moved as a whole (its ties summed), and so on until no camp joins another; the entities of
    each camp of the last level. ``shuffle`` (a ``random.Random``, or None for sorted order) orders
    each level's visits."""
    members: dict = {n: {n} for n in nodes}
    ties: dict = net
    while True:
        ids = sorted(ties)
        camps = _relocate([{i} for i in ids], _order(ids, shuffle), ties)
        if len(camps) == len(ids):
            return [members[i] for i in ids]
        where = {i: k for k, camp in enumerate(camps) for i in camp}
        members = {k: set().union(*(members[i] for i in camp)) for k, camp in enumerate(camps)}
        joined: dict[int, dict[int, float]] = {k: defaultdict(float) for k in members}
        for i, row in ties.items():
            for j, w in row.items():
                if where[i] != where[j]:
                    joined[where[i]][where[j]] += w
        ties = joined


def _cooperative_parts(nodes: list[str], net: dict[str, dict[str, float]]) -> list[set[str]]:
    """The parts of ``nodes`` that ties of positive net sign among them join, in ``nodes``' order."""
    within = set(nodes)
    part: dict[str, int] = {}
    parts: list[set[str]] = []
    for first in nodes:
        if first in part:
            continue
        part[first] = len(parts)
        reached, todo = {first}, [first]
        while todo:
            for u, w in net[todo.pop()].items():
                if w > 0 and u in within and u not in part:
                    part[u] = len(parts)
                    reached.add(u)
                    todo.append(u)
        parts.append(reached)
    return parts


def _relocate(start: list[set], order: list, net: dict) -> list[set]:
    """Doreian & Mrvar's relocation from the partition ``start``: visit the entities in ``order``,
    moving each to the camp its ties pull it to most (net signs with that camp's members), or
    alone where every camp pushes it away, while the move lowers the facts contradicted; until a
    whole pass moves none. Each move lowers the total (by its gain in pull), so this ends."""
    camp = {n: i for i, members in enumerate(start) for n in members}
    members: dict[int, set[str]] = {i: set(m) for i, m in enumerate(start)}
    fresh = len(start)
    moved = True
    while moved:
        moved = False
        for v in order:
            pull: dict[int, float] = defaultdict(float)
            for u, w in net[v].items():
                pull[camp[u]] += w
            here = camp[v]
            target, strength = here, pull.get(here, 0.0)
            for c in sorted(pull):  # a stronger pull moves it; on a tie it stays, or takes the lower number
                if pull[c] > strength:
                    target, strength = c, pull[c]
            if strength < 0 and len(members[here]) > 1:
                target = None  # a camp of its own: it pulls 0
            if target == here:
                continue
            members[here].discard(v)
            if not members[here]:
                del members[here]
            if target is None:
                target, fresh = fresh, fresh + 1
                members[target] = set()
            members[target].add(v)
            camp[v] = target
            moved = True
    return [members[i] for i in sorted(members)]


def analyze(graph, top: int = 10, ego: str | None = None, radius: int = 1, entities=None,
            signs: dict[str, int] | None = None) -> Analysis:
    """Rankings, camps, communities and components of ``graph``; with ``ego``, that entity's
    neighbourhood.

    ``entities`` is the graph ``ego`` is looked up in (default ``graph``): the whole entity graph,
    where ``graph`` keeps only the facts of some relations or dates, so that an entity without
    such facts is found, with an ego network of itself alone. ``signs`` (relation -> 1 or -1)
    replaces kg.ttl's ``kg:sign`` of the relations.
    """
    import networkx as nx

    signs = _signs() if signs is None else signs
    simple, directed = projections(graph)

    def ranked(scores: dict) -> list[tuple[str, str, str, float]]:
        best = sorted(scores.items(), key=lambda kv: (-kv[1], graph.nodes[kv[0]].get("label", kv[0])))[:top]
        return [(n, graph.nodes[n].get("label", n), graph.nodes[n].get("type", "Entity"), round(v, 6)) for n, v in best]

    present = sorted({d["predicate"] for _, _, d in graph.edges(data=True)})
    result = Analysis(nodes=graph.number_of_nodes(), edges=graph.number_of_edges(), relations=present,
                      cooperation=[r for r in present if signs.get(r, 0) > 0],
                      hostility=[r for r in present if signs.get(r, 0) < 0])
    if graph.number_of_nodes() == 0:
        return result
    result.degree = ranked(dict(graph.degree()))
    result.pagerank = ranked(pagerank(directed))
    # cooperation ties both ways (a member and its organization, two allies): on directed ties
    # PageRank lets an alliance of two, a closed loop, keep its rank between them and outrank an
    # organization of five members
    cooperative, _ = projections(_signed(graph, signs, 1))
    result.pagerank_cooperation = ranked(pagerank(cooperative))
    _, hostile = projections(_signed(graph, signs, -1))
    result.most_hostile = ranked({n: d for n, d in hostile.out_degree(weight="weight") if d})
    result.most_targeted = ranked({n: d for n, d in hostile.in_degree(weight="weight") if d})
    exact = simple.number_of_nodes() <= EXACT_BETWEENNESS_LIMIT
    k = None if exact else min(BETWEENNESS_SAMPLE, simple.number_of_nodes())
    result.betweenness = ranked(nx.betweenness_centrality(simple, k=k, seed=SEED))
    result.betweenness_exact = exact
    communities = louvain(simple)
    label = lambda n: graph.nodes[n].get("label", n)  # noqa: E731
    result.communities = sorted((sorted(map(label, c)) for c in communities if len(c) > 1), key=lambda c: (-len(c), c))
    result.components = sorted((sorted(map(label, c)) for c in nx.connected_components(simple)),
                               key=lambda c: (-len(c), c))
    embattled = defaultdict(int)  # documents of the hostile facts each entity takes part in
    for n, d in [*hostile.out_degree(weight="weight"), *hostile.in_degree(weight="weight")]:
        embattled[n] += d
    camps = sorted(signed_camps(graph, signs),
                   key=lambda c: (-len(c), -sum(embattled[n] for n in c), sorted(map(label, c))))
    number = {n: i for i, c in enumerate(camps, start=1) for n in c}
    result.camps = [sorted(map(label, c)) for c in camps]
    result.contradictions = sorted(
        (Contradiction(label(s), p, label(o), signs[p], (number[s], number[o]), documents)
         for s, p, o, documents in contradictions(graph, camps, signs)),
        key=lambda c: (-c.documents, c.source, c.predicate, c.target))
    if ego:
        whole = graph if entities is None else entities
        center = resolve_entity(whole, ego)
        sub = nx.ego_graph(simple, center, radius=radius) if center in simple else {center}
        facts = [(label(s), d["predicate"], label(o)) for s, o, d in graph.edges(data=True) if s in sub and o in sub]
        result.ego = {"entity": whole.nodes[center].get("label", center), "radius": radius,
                      "nodes": sorted(whole.nodes[n].get("label", n) for n in sub), "facts": sorted(facts)}
    return result


def _signed(graph, signs: dict[str, int], sign: int):
    """The facts of ``graph`` whose relation has ``sign``, and the entities they join."""
    out = graph.__class__()
    out.add_edges_from((s, o, k, d) for s, o, k, d in graph.edges(keys=True, data=True)
                       if signs.get(d["predicate"], 0) == sign)
    for n in out:
        out.nodes[n].update(graph.nodes[n])
    return out


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

    from ..namespaces import KG

    bindings = {ox.Variable("s"): ox.NamedNode(subject), ox.Variable("p"): ox.NamedNode(str(KG._NS[predicate])),
                ox.Variable("o"): ox.NamedNode(obj)}
    rows = store.query(EVIDENCE, bindings, union=False)
    return [(r["sentence"].value, r["document"].value) for r in rows]
