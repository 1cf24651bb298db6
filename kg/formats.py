"""The names of the formats kg writes, defined once for the library and the command line (whose
``--format`` choices read them here: this module imports nothing, so ``kg --help`` stays fast).
Each maps to what identifies it to its writer: the file extension by which pyoxigraph knows an RDF
or a SPARQL results format, the suffixes of a picture's file."""

from __future__ import annotations

QUERY_RESULTS = {"csv": "csv", "tsv": "tsv", "json": "json"}  # SPARQL results, beside kg's "table"
RDF = {"turtle": "ttl", "trig": "trig", "nquads": "nq", "ntriples": "nt", "jsonld": "jsonld"}
GRAPHS = ("graphml", "gexf", "json")  # the entity-to-entity projection networkx sees
PICTURES = {"html": (".html", ".htm"), "png": (".png",), "svg": (".svg",), "pdf": (".pdf",)}

QUERY_CHOICES = ("table", *QUERY_RESULTS)
EVENT_TABLES = ("events-csv", "events-json")  # one flat row per event (queries/event-table.rq)

EXPORT_CHOICES = (*RDF, *GRAPHS, *EVENT_TABLES)
