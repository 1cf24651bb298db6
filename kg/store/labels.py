"""The entity graph, computed from what the document graphs hold. Shared by every store.

Each entity once: one rdfs:label / skos:prefLabel and every other surface form as a
skos:altLabel, and the rest of what the documents say about it (its types, GeoNames id and
coordinates, and the facts it is the subject of), each triple once however many documents state
it. Left out are the per-document links (``kg:mentionedIn``) and the surface forms the labels sum
up. This graph is the default graph of user queries: the facts and the entities, where the
documents' graphs keep the provenance (documents, assertions, evidence).
"""

from __future__ import annotations

from collections import defaultdict

import pyoxigraph as ox

from ..extract.gazetteer import load_gazetteer
from ..rdf import ALT_LABEL, LABEL, PREF_LABEL, N, literal
from ..vocab import ENTITY_GRAPH


BLOCK = 2000  # entities per VALUES block: bounded query texts
_DOCUMENTS = f"FILTER(?g != <{ENTITY_GRAPH}>)"  # what the documents say, not this graph's own copy
_NOT_COPIED = "kg:mentionedIn, kg:surfaceForm"


def entity_label_quads(store, subset: list[str] | None) -> tuple[list[ox.Quad], set[str]]:
    """Quads of the entity graph for ``subset`` (entity IRIs) or all entities: labels from the
    surface forms and gazetteer links, and the entities' other triples, from the document graphs."""
    gazetteer = load_gazetteer()
    values = "" if subset is None else "VALUES ?e { " + " ".join(f"<{iri}>" for iri in subset) + " } "
    forms: dict[str, dict[str, int]] = defaultdict(dict)
    gaz_ids: dict[str, str] = {}
    for row in store.query(
        f"SELECT ?e ?form (COUNT(*) AS ?n) WHERE {{ {values}GRAPH ?g {{ ?e kg:surfaceForm ?form }} }} "
        "GROUP BY ?e ?form", union=False,
    ):
        forms[row["e"].value][row["form"].value] = int(row["n"].value)
    for row in store.query(f"SELECT DISTINCT ?e ?id WHERE {{ {values}GRAPH ?g {{ ?e kg:gazetteerId ?id }} {_DOCUMENTS} }}",
                           union=False):
        gaz_ids[row["e"].value] = row["id"].value
    graph = N(ENTITY_GRAPH)
    quads = []
    touched = forms.keys() | gaz_ids.keys() | set(subset or ())
    for iri in forms.keys() | gaz_ids.keys():
        counts = forms.get(iri, {})
        entry = gazetteer.entries.get(gaz_ids.get(iri, ""))
        if entry is None and not counts:
            continue
        label = entry.label if entry else max(counts, key=lambda f: (counts[f], len(f), f))
        node = ox.NamedNode(iri)
        quads.append(ox.Quad(node, LABEL, literal(label), graph))
        quads.append(ox.Quad(node, PREF_LABEL, literal(label), graph))
        for form in sorted(counts):
            if form != label:
                quads.append(ox.Quad(node, ALT_LABEL, literal(form), graph))
    entities = sorted(touched)
    for start in range(0, len(entities), BLOCK):
        block = " ".join(f"<{iri}>" for iri in entities[start:start + BLOCK])
        for row in store.query(
            f"SELECT DISTINCT ?e ?p ?o WHERE {{ VALUES ?e {{ {block} }} GRAPH ?g {{ ?e ?p ?o }} "
            f"{_DOCUMENTS} FILTER(?p NOT IN ({_NOT_COPIED})) }}", union=False,
        ):
            quads.append(ox.Quad(row["e"], row["p"], row["o"], graph))
    return quads, touched
