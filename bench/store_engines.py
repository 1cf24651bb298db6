"""Compare store engines on a graph shaped like kg's: rdflib in-memory, Oxigraph behind rdflib, pyoxigraph.

usage: python bench/store_engines.py [--facts N]

Builds a synthetic graph with kg's shape (entities with labels, facts, reified assertions with
evidence, one named graph per document), then times load, three queries and TriG export in
each engine (TriG out: the whole dataset), in one run, and prints the times and the ratios to rdflib's in-memory store.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time

import pyoxigraph as ox
from oxrdflib import OxigraphStore
from rdflib import Dataset

from kg.namespaces import PREFIXES

QUERIES = {
    "lookup": "SELECT ?e WHERE { ?e rdfs:label \"Entity 42\" }",
    "two-hop": "SELECT ?a ?c WHERE { ?a kg:allyOf ?b . ?b kg:attacked ?c } LIMIT 1000",
    "aggregate": "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p",
}
RELATIONS = ["allyOf", "captured", "attacked", "evacuatedTo", "locatedIn"]


def synthetic_nquads(facts: int, seed: int = 7) -> bytes:
    rnd = random.Random(seed)
    kg, ent, rdf = PREFIXES["kg"], "https://w3id.org/kg/id/entity/", PREFIXES["rdf"]
    lines = []
    n_entities = max(50, facts // 10)
    for i in range(n_entities):
        g = f"<https://w3id.org/kg/graph/doc/{i % 500}>"
        lines.append(f'<{ent}e{i}> <{PREFIXES["rdfs"]}label> "Entity {i}" {g} .')
        lines.append(f"<{ent}e{i}> <{rdf}type> <{kg}ArmedGroup> {g} .")
    for j in range(facts):
        s, o = rnd.randrange(n_entities), rnd.randrange(n_entities)
        p = rnd.choice(RELATIONS)
        g = f"<https://w3id.org/kg/graph/doc/{j % 500}>"
        st = f"<https://w3id.org/kg/id/assertion/a{j}>"
        lines.append(f"<{ent}e{s}> <{kg}{p}> <{ent}e{o}> {g} .")
        lines.append(f"{st} <{rdf}subject> <{ent}e{s}> {g} .")
        lines.append(f"{st} <{rdf}predicate> <{kg}{p}> {g} .")
        lines.append(f"{st} <{rdf}object> <{ent}e{o}> {g} .")
        lines.append(f'{st} <{kg}evidence> "Sentence number {j} says entity {s} {p} entity {o}." {g} .')
    return ("\n".join(lines) + "\n").encode()


def timed(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--facts", type=int, default=2000)
    args = parser.parse_args()
    data = synthetic_nquads(args.facts)
    prefix_text = "".join(f"PREFIX {k}: <{v}>\n" for k, v in PREFIXES.items())
    results: dict[str, dict[str, float]] = {}

    def rdflib_memory():
        ds = Dataset(default_union=True)
        ds.parse(data=data, format="nquads")
        return ds

    def rdflib_oxigraph():
        ds = Dataset(store="Oxigraph", default_union=True)
        ds.parse(data=data, format="ox-nquads")
        return ds

    for name, make in [("rdflib memory", rdflib_memory), ("rdflib + Oxigraph", rdflib_oxigraph)]:
        row = {"load": timed(make, repeat=1)}
        ds = make()
        for q, text in QUERIES.items():
            row[q] = timed(lambda: list(ds.query(prefix_text + text)))
        fmt = "trig" if name == "rdflib memory" else "ox-trig"
        row["trig out"] = timed(lambda: ds.serialize(format=fmt), repeat=1)
        results[name] = row

    def pyox():
        store = ox.Store()
        store.bulk_load(input=data, format=ox.RdfFormat.N_QUADS)
        return store

    row = {"load": timed(pyox, repeat=1)}
    store = pyox()
    for q, text in QUERIES.items():
        row[q] = timed(lambda: list(store.query(prefix_text + text, use_default_graph_as_union=True)))
    row["trig out"] = timed(lambda: store.dump(io.BytesIO(), format=ox.RdfFormat.TRIG), repeat=1)
    results["pyoxigraph"] = row

    quads = data.count(b"\n")
    print(f"{quads} quads, {args.facts} facts; median seconds (ratio to rdflib memory)")
    cols = ["load", *QUERIES, "trig out"]
    print(f"{'engine':20}" + "".join(f"{c:>22}" for c in cols))
    base = results["rdflib memory"]
    for name, row in results.items():
        print(f"{name:20}" + "".join(f"{row[c]:>12.4f} ({base[c] / row[c]:>6.1f}x)" for c in cols))


if __name__ == "__main__":
    main()
