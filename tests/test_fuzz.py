"""Property-based tests and fuzzing with hypothesis: random and malformed names, texts, files,
queries and parameters. Together they run well over 2,000 examples in CI; none may end in an
exception that is not one of kg's own errors (which the CLI turns into one line)."""

from __future__ import annotations

import io
import json
import string
import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kg.errors import KGError

def fast(examples: int):
    """Settings for a test that does real work per example: no deadline, fixed example count."""
    return settings(max_examples=examples, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
names = st.text(alphabet=st.characters(codec="utf-8"), min_size=0, max_size=3000)
prose = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=400)
words = st.lists(st.sampled_from(["Hezbollah", "Daesh", "captured", "attacked", "the", "town", "of", "Arsal",
                                  "in", "Lebanon", "Syrian", "army", "agreed", "a", "ceasefire", "with", ",", ".",
                                  "'s", "(LNA)", "al-", "\"", "not", "<", ">", "&", "\\", "{", "}"]),
                 max_size=40).map(" ".join)


# ---------------------------------------------------------------- safe identifiers (properties)


@fast(400)
@given(names)
def test_any_name_gives_a_valid_iri(name):
    from kg.extract.namekeys import iri_key
    from kg.namespaces import entity_iri

    key = iri_key(name)
    assert key and len(key) <= 80 and set(key) <= set(string.ascii_lowercase + string.digits + "-")
    ox.NamedNode(str(entity_iri(key)))  # raises if the IRI were invalid


@fast(150)
@given(st.lists(st.one_of(prose, words), min_size=1, max_size=3), names)
def test_any_text_and_name_survive_every_export_format(texts, name):
    """Extraction on arbitrary text, then every RDF format out and back in, quad for quad."""
    from kg.ingest import make_document, normalize_text
    from kg.extract.pipeline import extract_all
    from kg.rdf import extraction_quads

    documents = [make_document(t, name=name or "n") for t in texts if normalize_text(t)]
    assume(documents)
    quads = [q for e in extract_all(documents) for q in extraction_quads(e)]
    for fmt in (ox.RdfFormat.N_QUADS, ox.RdfFormat.TRIG):
        data = ox.serialize(quads, format=fmt)
        assert set(ox.parse(data, format=fmt)) == set(quads)
    triples = {q.triple for q in quads}
    for fmt in (ox.RdfFormat.N_TRIPLES, ox.RdfFormat.TURTLE, ox.RdfFormat.RDF_XML, ox.RdfFormat.JSON_LD):
        data = ox.serialize(triples, format=fmt)
        assert {q.triple for q in ox.parse(data, format=fmt)} == triples


# ---------------------------------------------------------------- fuzzing ingest


@fast(800)
@given(st.binary(max_size=2000), st.sampled_from([".txt", ".md", ".html", ".jsonl", ".ndjson", ".text"]))
def test_fuzz_ingest_any_bytes(tmp_path_factory, data, suffix):
    from kg.ingest import iter_inputs
    from kg.records import Document, InputProblem

    path = tmp_path_factory.mktemp("fuzz") / f"input{suffix}"
    path.write_bytes(data)
    for item in iter_inputs([str(path)]):
        assert isinstance(item, (Document, InputProblem))
        if isinstance(item, InputProblem):
            assert str(item).startswith(str(path)) and "\n" not in str(item)
        else:
            assert item.text and item.text.encode("utf-8")


@fast(300)
@given(st.lists(st.one_of(
    st.dictionaries(st.sampled_from(["text", "id", "title", "date", "url", "source", "x"]),
                    st.one_of(prose, names, st.integers(), st.none(), st.lists(st.integers(), max_size=2))),
    st.text(max_size=50)), max_size=6))
def test_fuzz_jsonl_records(tmp_path_factory, records):
    from kg.ingest import iter_inputs
    from kg.records import Document, InputProblem

    path = tmp_path_factory.mktemp("fuzz") / "feed.jsonl"
    path.write_text("\n".join(json.dumps(r) if isinstance(r, dict) else r for r in records), encoding="utf-8",
                    errors="surrogatepass")
    for item in iter_inputs([str(path)]):
        assert isinstance(item, (Document, InputProblem))


# ---------------------------------------------------------------- fuzzing queries


SPARQL_BITS = ["SELECT", "*", "?s", "?p", "?o", "WHERE", "{", "}", "FILTER", "(", ")", "GRAPH", "?g", "OPTIONAL",
               "UNION", "LIMIT", "10", "ASK", "CONSTRUCT", "DESCRIBE", "<http://x>", '"a"', "kg:allyOf",
               "rdfs:label", "COUNT", "DISTINCT", "ORDER BY", "INSERT", "DELETE", "DROP", "SERVICE", ".", ";",
               "#", "BIND", "AS", "VALUES", "REGEX", "'", "\\", "@en", "^^xsd:int", "PREFIX", "x:", "BASE"]


@fast(500)
@given(st.one_of(st.lists(st.sampled_from(SPARQL_BITS), max_size=25).map(" ".join), st.text(max_size=200)),
       st.dictionaries(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True), names, max_size=2))
def test_fuzz_queries_and_parameters(example_store, sparql, params):
    import kg

    try:
        result = kg.query(sparql, store=example_store, params=params, timeout=10)
    except KGError as exc:
        assert "\n" not in str(exc)
        return
    assert len(result.variables) == len(result.rows[0]) if result.rows else True


# ---------------------------------------------------------------- fuzzing the command line


@fast(100)
@given(st.lists(st.one_of(st.sampled_from(["build", "query", "export", "info", "remove", "eval", "validate",
                                           "--format", "--store", "--param", "-o", "--timeout", "json",
                                           "allies", "x=1", "-", "--quiet", "--workers", "0", "nope"]),
                          st.text(alphabet=string.printable, max_size=12)), max_size=6))
def test_fuzz_command_line(example_store, tmp_path_factory, argv):
    """The CLI in-process, run in an empty folder: whatever the arguments, an exit code other
    than 70 (a bug) and no traceback."""
    import os
    import sys

    from kg.cli import main

    assume("-" not in argv)  # standard input is the test runner's
    workdir = tmp_path_factory.mktemp("cli")
    args = list(argv)
    if "--store" not in args:
        args += ["--store", str(example_store if "build" not in args and "remove" not in args else workdir / "s")]
    stderr = io.StringIO()
    old_argv, old_err, old_cwd = sys.argv, sys.stderr, os.getcwd()
    sys.argv, sys.stderr = ["kg", *args], stderr
    os.chdir(workdir)
    try:
        with pytest.raises(SystemExit) as exit_info:
            main()
            raise SystemExit(0)
    finally:
        sys.argv, sys.stderr = old_argv, old_err
        os.chdir(old_cwd)
    code = exit_info.value.code or 0
    assert code != 70, stderr.getvalue()
    assert "Traceback" not in stderr.getvalue()
