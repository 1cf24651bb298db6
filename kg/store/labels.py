"""Entity labels: one rdfs:label / skos:prefLabel per entity and every other surface form as a
skos:altLabel, computed from what the document graphs hold. Shared by every store."""

from __future__ import annotations

from collections import defaultdict

import pyoxigraph as ox

from ..extract.gazetteer import load_gazetteer
from ..rdf import ALT_LABEL, LABEL, PREF_LABEL, N, literal
from ..vocab import ENTITY_GRAPH


def entity_label_quads(store, subset: list[str] | None) -> tuple[list[ox.Quad], set[str]]:
    """Label quads of the entity graph for ``subset`` (entity IRIs) or all entities, from the
    surface forms and gazetteer links the document graphs hold. Shared by local and remote stores."""
    gazetteer = load_gazetteer()
    values = "" if subset is None else "VALUES ?e { " + " ".join(f"<{iri}>" for iri in subset) + " } "
    forms: dict[str, dict[str, int]] = defaultdict(dict)
    gaz_ids: dict[str, str] = {}
    for row in store.query(
        f"SELECT ?e ?form (COUNT(*) AS ?n) WHERE {{ {values}GRAPH ?g {{ ?e kg:surfaceForm ?form }} }} "
        "GROUP BY ?e ?form", union=False,
    ):
        forms[row["e"].value][row["form"].value] = int(row["n"].value)
    for row in store.query(f"SELECT DISTINCT ?e ?id WHERE {{ {values}GRAPH ?g {{ ?e kg:gazetteerId ?id }} }}",
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
    return quads, touched
