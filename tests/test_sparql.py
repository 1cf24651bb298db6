"""kg query: the guard that reads a query before it runs (hostile and harmless queries), bound
parameters (the same rows from a local store and from a real `oxigraph serve` holding the same
graph), and queries stopped at their deadline or memory ceiling, each error one stderr line."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from test_scale import served  # noqa: F401 - a fixture

KG = [sys.executable, "-m", "kg"]
ENTITIES = "<https://w3id.org/kg/graph/entities>"
# five patterns over every quad: ~10^14 solutions to count, which no machine finishes
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?x . ?b ?q ?y . ?c ?r ?z . ?d ?s ?w . ?e ?t ?v }"


def run_kg(*args: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    """`kg ARGS` in this process (conftest's invoke_kg), with ``env`` added to the environment."""
    from conftest import invoke_kg

    return invoke_kg(*args, env={**os.environ, **(env or {})}, **kw)


def error_line(result: subprocess.CompletedProcess) -> str:
    """The one stderr line of a failed command."""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


@pytest.fixture(params=["local", pytest.param("remote", marks=pytest.mark.slow)])
def store(request, example_store) -> str:
    """The example graph in a local store, and (the slow tier: a server) in `oxigraph serve`."""
    return str(example_store) if request.param == "local" else request.getfixturevalue("served")


@pytest.fixture
def listener():
    """A loopback port that records connections: a SERVICE or LOAD that ran would knock."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    sock.setblocking(False)
    yield sock
    sock.close()


def knocks(sock: socket.socket) -> int:
    """Connections made to ``sock`` so far (the kernel queues them even if nobody accepts)."""
    count = 0
    while True:
        try:
            conn, _ = sock.accept()
        except BlockingIOError:
            return count
        conn.close()
        count += 1


# ---------------------------------------------------------------- the guard

SERVICE_REFUSED = "Error: SERVICE (calls to other SPARQL servers) is refused"
READ_ONLY = "Error: kg query is read-only"
INVALID = "Error: invalid SPARQL"

# {url} is a listener that counts connections
HOSTILE = [
    # the string-stripping regex spanned the two comments
    ('SELECT ?x WHERE {\n# """\nSERVICE <{url}> { ?x ?p ?o }\n# """\n}', SERVICE_REFUSED),
    ("SELECT * WHERE { FILTER(1<2)SERVICE?u{?s?p?o}FILTER(2>1) }", SERVICE_REFUSED),
    ("SELECT * WHERE { SERVICE SILENT <{url}> { ?s ?p ?o } }", SERVICE_REFUSED),
    ("select * where { service <{url}> { ?s ?p ?o } }", SERVICE_REFUSED),
    ("SELECT * WHERE { ?s ?p ?o FILTER EXISTS { SERVICE <{url}> { ?a ?b ?c } } }", SERVICE_REFUSED),
    ("SELECT * WHERE { { SELECT ?s WHERE { SERVICE <{url}> { ?s ?p ?o } } } }", SERVICE_REFUSED),
    # Oxigraph 0.5 reads keywords without a boundary: SERVICE then the prefixed name x:d
    ("PREFIX x: <{url}/> SELECT * WHERE { SERVICEx:d { ?s ?p ?o } }", SERVICE_REFUSED),
    ("PREFIX : <{url}/> SELECT * WHERE { SERVICE:d { ?s ?p ?o } }", SERVICE_REFUSED),
    # ... and `true` then SERVICE
    ("SELECT * WHERE { ?s ?p trueSERVICE<{url}>{ ?a ?b ?c } }", SERVICE_REFUSED),
    # ... and a local name with two dotted parts as `x:a.b . SERVICE`
    ("PREFIX x: <http://x/> SELECT * WHERE { ?s ?p x:a.b.SERVICE<{url}>{ ?a ?b ?c } }", SERVICE_REFUSED),
    # ... and `<` after an operand as "less than", where the grammar sees an IRI hiding a comment
    ("SELECT * WHERE { BIND(<{url}> AS ?u) ?s ?p ?o FILTER(?o<2)SERVICE?u#>\n{ ?a ?b ?c } }", INVALID),
    ("DROP ALL", READ_ONLY),
    ("INSERT DATA { <http://x> <http://y> <http://z> }", READ_ONLY),
    ("WITH <http://x> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }", READ_ONLY),
    ("SELECT * WHERE { ?s ?p ?o } ; DROP ALL", READ_ONLY),
    ("LOAD <{url}>", READ_ONLY),
]


@pytest.mark.parametrize(("sparql", "message"), HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_queries_are_refused_and_call_nobody(sparql, message, store, listener):
    url = "http://127.0.0.1:%d/d" % listener.getsockname()[1]
    result = run_kg("query", sparql.replace("{url}", url), "--store", store)
    assert result.returncode == 5, result.stderr
    assert error_line(result).startswith(message)
    assert knocks(listener) == 0, "the query called the listener"


MAX_NESTING = 100  # the deepest nesting kg lets through, as the README states it
_DEEP = MAX_NESTING + 1
DEEP = {
    "parentheses": "SELECT * WHERE { FILTER(" + "(" * 5000 + "1" + ")" * 5000 + ") }",  # crashed the local child
    "braces": "SELECT * WHERE " + "{ " * 2000 + "}" * 2000,  # crashed the guard itself (RecursionError)
    "brackets": "SELECT * WHERE { ?s ?p " + "[ ?p " * 300 + "1" + " ]" * 300 + " }",  # crashed a child, hung a server
    "negations": "SELECT * WHERE { FILTER(" + "!" * 20000 + "true) }",  # killed `oxigraph serve`
    "one-too-many": "SELECT ?x WHERE " + "{ " * (_DEEP - 1) + "BIND(1 AS ?x)" + " }" * (_DEEP - 1),
}


@pytest.mark.parametrize("sparql", DEEP.values(), ids=DEEP.keys())
def test_deep_nesting_is_refused_before_any_engine_sees_it(sparql, store):
    import kg

    result = run_kg("query", sparql, "--store", store)
    assert result.returncode == 5, result.stderr
    assert error_line(result).startswith(f"Error: the query is nested more than {MAX_NESTING} levels deep: ")
    assert kg.query("ASK { ?s ?p ?o }", store=store).boolean, "the engine still answers"


def test_nesting_at_the_limit_runs(store):
    import kg

    at_limit = "SELECT ?x WHERE " + "{ " * (MAX_NESTING - 1) + "BIND(1 AS ?x)" + " }" * (MAX_NESTING - 1)
    assert kg.query(at_limit, store=store).rows == (("1",),)


def test_the_guard_reads_any_depth_without_recursion():
    """The parser keeps its nesting on a list: 100,000 braces are read (and then refused), where
    ~990 ended in RecursionError."""
    from kg.errors import QueryError
    from kg.sparql import guard

    deep = guard.parse("SELECT * WHERE " + "{ " * 100_000 + "}" * 100_000)
    assert deep.scope is not None and len(deep.scope.groups) == 100_000
    with pytest.raises(QueryError, match=f"nested more than {MAX_NESTING} levels deep: '{{' at line 1, column "
                                         f"{len('SELECT * WHERE ') + 2 * MAX_NESTING + 1}"):
        guard.check(deep)


# (query, the rows it gives, as csv lines after the header; an ASK's csv is its answer alone)
HARMLESS = [
    ("SELECT ?service WHERE { BIND(1 AS ?service) }", ["1"]),
    ('SELECT ?x WHERE { BIND("construct" AS ?x) }', ["construct"]),  # a SELECT, not a graph
    ('SELECT ?x WHERE { BIND("SERVICE <{url}> { }" AS ?x) }', ["SERVICE <{url}> { }"]),
    ("SELECT ?x WHERE { BIND(<http://example.org/service#p> AS ?x) }", ["http://example.org/service#p"]),
    ("# SERVICE <{url}> { ?s ?p ?o }\nSELECT ?x WHERE { BIND('a' AS ?x) }", ["a"]),
    ('SELECT ?x WHERE { BIND("""a # b\n{ SERVICE }""" AS ?x) }', ['"a # b', '{ SERVICE }"']),
    ("PREFIX schema: <http://schema.org/> SELECT ?x WHERE { BIND(schema:serviceType AS ?x) }",
     ["http://schema.org/serviceType"]),
    ("SELECT ?x WHERE { BIND(STR(kg:captured) AS ?x) FILTER(1<2) }", ["https://w3id.org/kg/ontology#captured"]),
    (f"SELECT ?n WHERE {{ GRAPH {ENTITIES} {{ ?e rdfs:label 'Arsal' ; rdfs:label ?n }} }}", ["Arsal"]),
    ("ASK { ?e rdfs:label 'Arsal' }", ["true"]),
]


@pytest.mark.parametrize(("sparql", "rows"), HARMLESS, ids=range(len(HARMLESS)))
def test_harmless_queries_run(sparql, rows, store, listener):
    url = "http://127.0.0.1:%d/d" % listener.getsockname()[1]
    result = run_kg("query", sparql.replace("{url}", url), "--store", store, "--format", "csv")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert (lines if sparql.startswith("ASK") else lines[1:]) == [row.replace("{url}", url) for row in rows]
    assert knocks(listener) == 0


def test_a_failing_query_is_one_line(example_store):
    """No second line: an abandoned evaluation thread used to add `RuntimeError: ... unsendable`."""
    result = run_kg("query", "SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }", "--allow-service",
                    "--store", str(example_store))
    assert result.returncode == 5
    assert error_line(result).startswith("Error: query failed: ")


# ---------------------------------------------------------------- bound parameters

NAME_IN_EACH_BRANCH = f"""
SELECT ?name ?entity ?relation ?other WHERE {{
  {{ GRAPH {ENTITIES} {{ ?e rdfs:label ?entity FILTER(LCASE(STR(?entity)) = LCASE(STR(?name))) }}
     GRAPH ?g {{ ?e ?p ?x }} }}
  UNION
  {{ GRAPH {ENTITIES} {{ ?e skos:altLabel ?alt ; rdfs:label ?entity
                        FILTER(LCASE(STR(?alt)) = LCASE(STR(?name))) }}
     GRAPH ?g {{ ?e ?p ?x }} }}
  GRAPH <https://w3id.org/kg/graph/ontology> {{ ?p rdfs:label ?relation }}
  GRAPH {ENTITIES} {{ ?x rdfs:label ?other }}
}}"""
# under the old binding, a value made this query return every document's file path
BRACE_IN_A_STRING = ('SELECT ?name (CONCAT(?label, " {") AS ?shown) '
                     "WHERE { ?e rdfs:label ?label FILTER(?label = ?name) }")
INJECTION = ") AS ?y) ?path WHERE { GRAPH ?g { ?d prov:atLocation ?path } } #"

# (query, params, at least this many rows)
BOUND = [
    ("entity", {"name": "Daesh"}, 5),
    ("entity", {"name": "hezbollah"}, 3),
    ("evidence", {"rel": "captured", "name": "Arsal"}, 2),
    ("evidence", {"rel": "captured"}, 3),
    ("evidence", {"name": "Daesh"}, 5),
    (NAME_IN_EACH_BRANCH, {"name": "Daesh"}, 5),  # the shape issue 14 gives entity.rq
    (BRACE_IN_A_STRING, {"name": "Arsal"}, 1),
    (BRACE_IN_A_STRING, {"name": INJECTION}, 0),
    (f"# a comment with a {{\nSELECT ?name ?e WHERE {{ GRAPH {ENTITIES} {{ ?e rdfs:label ?name }} }}",
     {"name": "Arsal"}, 1),  # the old binding went into the comment
    ("SELECT ?name ?e WHERE { ?e rdfs:label ?l OPTIONAL { ?e skos:altLabel ?alt FILTER(?alt = ?name) } "
     "FILTER(BOUND(?alt)) }", {"name": "Daesh"}, 1),
    ("SELECT ?name ?n WHERE { { SELECT ?name (COUNT(*) AS ?n) WHERE { ?e rdfs:label ?name } GROUP BY ?name } }",
     {"name": "Arsal"}, 1),
    # a subquery that does not select ?name has a ?name of its own
    ("SELECT ?name ?n WHERE { { SELECT (COUNT(DISTINCT ?name) AS ?n) WHERE { ?e rdfs:label ?name } } }",
     {"name": "Arsal"}, 1),
    ("SELECT ?name ?e WHERE { ?e rdfs:label ?l FILTER EXISTS { ?e skos:altLabel ?name } }", {"name": "Daesh"}, 1),
    ("SELECT ?name ?e WHERE { ?e rdfs:label ?l MINUS { ?e skos:altLabel ?name } }", {"name": "Daesh"}, 10),
    ("SELECT ?name ?e WHERE { ?e rdfs:label ?name } VALUES ?name { 'Arsal' 'Hezbollah' }", {"name": "Arsal"}, 1),
    ("SELECT ?g ?d WHERE { GRAPH ?g { ?d a kg:Document } }", {"g": "https://w3id.org/kg/graph/entities"}, 0),
    ("SELECT ?p ?o WHERE { ?s ?p ?o }", {"p": "<https://w3id.org/kg/ontology#captured>"}, 2),
    ("ASK { ?e rdfs:label ?name }", {"name": "Arsal"}, 1),
    ("CONSTRUCT { ?e rdfs:label ?name } WHERE { ?e rdfs:label ?name }", {"name": "Arsal"}, 1),
]


@pytest.mark.parametrize(("sparql", "params", "at_least"), BOUND, ids=range(len(BOUND)))
def test_a_server_gives_the_rows_a_local_store_gives(sparql, params, at_least, example_store, served):
    import kg

    local = kg.query(sparql, store=example_store, params=params)
    remote = kg.query(sparql, store=served, params=params)
    assert remote.variables == local.variables
    assert sorted(remote.rows) == sorted(local.rows)
    assert len(local.rows) >= at_least


def test_bound_json_is_the_same_byte_for_byte(example_store, served):
    outputs = [run_kg("query", "entity", "--param", "name=Daesh", "--format", "json", "--store", s)
               for s in (str(example_store), served)]
    assert all(o.returncode == 0 for o in outputs), [o.stderr for o in outputs]
    assert outputs[0].stdout == outputs[1].stdout and '"Islamic State"' in outputs[0].stdout


UNBINDABLE = [
    ("SELECT ?actor WHERE { { SELECT ?s WHERE { ?s kg:allyOf ?o } } ?s rdfs:label ?actor }", "s=x",
     "Error: --param s: the query does not select ?s"),  # only its subquery does
    ("SELECT ?x WHERE { BIND(1 AS ?x) }", "x=2", "Error: --param x: the query assigns ?x itself (BIND or AS)"),
    ("SELECT * WHERE { ?s ?p ?o }", "s=x", "Error: --param s: name ?s in the query's SELECT clause"),
    ("ASK { ?s ?p ?o }", "z=1", "Error: --param z: the query does not use ?z"),
]


@pytest.mark.parametrize(("sparql", "param", "message"), UNBINDABLE, ids=range(len(UNBINDABLE)))
def test_a_parameter_kg_cannot_bind_is_one_line_on_both_stores(sparql, param, message, store):
    result = run_kg("query", sparql, "--param", param, "--store", store)
    assert result.returncode == 2, result.stderr
    assert error_line(result).startswith(message)


# ---------------------------------------------------------------- stopping queries


def _processes() -> list[tuple[int, int, int]]:
    """(pid, parent pid, process group) of every process still running (zombies have stopped)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()  # after the name
            except OSError:
                continue
            if fields[0] != "Z":
                found.append((int(entry.name), int(fields[1]), int(fields[2])))
    return found


def _in_group(pgid: int) -> list[int]:
    return [pid for pid, _, group in _processes() if group == pgid]


def _children() -> set[int]:
    return {pid for pid, parent, _ in _processes() if parent == os.getpid()}


@pytest.mark.slow
def test_a_local_query_is_killed_at_its_deadline(example_store):
    process = subprocess.Popen([*KG, "query", ENDLESS, "--timeout", "1", "--store", str(example_store)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _, stderr = process.communicate(timeout=600)
    assert process.returncode == 5
    assert stderr.splitlines() == [
        "Error: the query did not finish within 1 s (narrow it (LIMIT, a FILTER, a named relation) or raise --timeout)"]
    assert _in_group(process.pid) == [], "the evaluation outlived kg"


def _poll(condition, safety_s: float = 300) -> bool:
    """Whether ``condition()`` becomes true before a safety timeout only a stopped machine misses."""
    deadline = time.monotonic() + safety_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.slow
def test_the_evaluation_ends_when_kg_is_killed(example_store):
    process = subprocess.Popen([*KG, "query", ENDLESS, "--timeout", "3600", "--store", str(example_store)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    assert _poll(lambda: len(_in_group(process.pid)) == 2), "kg started no evaluation process"
    process.kill()  # SIGKILL: kg has no chance to stop its child itself
    process.wait()
    assert _poll(lambda: _in_group(process.pid) == []), "the evaluation outlived kg"


def test_the_api_leaves_no_evaluation_running(example_store):
    import kg
    from kg.errors import QueryError

    threads, children = set(threading.enumerate()), _children()
    with pytest.raises(QueryError, match="did not finish within 0.5 s"):
        kg.query(ENDLESS, store=example_store, timeout=0.5)
    assert set(threading.enumerate()) == threads, "an evaluation thread goes on"
    assert _children() == children, "an evaluation process goes on"
    assert kg.query("allies", store=example_store).rows  # and the next query runs


def test_a_local_query_stops_at_its_memory_ceiling(example_store):
    # sorting ~10^9 rows needs far more than 64 MiB; --timeout is not what stops it
    heavy = "SELECT ?a ?b ?c WHERE { ?a ?p ?x . ?b ?q ?y . ?c ?r ?z } ORDER BY ?a ?b ?c"
    result = run_kg("query", heavy, "--timeout", "3600", "--store", str(example_store),
                    env={"KG_QUERY_MEMORY": "64"})
    assert result.returncode == 5
    assert error_line(result) == ("Error: the query needed more than 64 MiB of memory and was stopped "
                                  "(narrow it, or raise the ceiling with KG_QUERY_MEMORY=MiB)")


def test_a_bad_memory_ceiling_is_a_usage_error(example_store):
    result = run_kg("query", "allies", "--store", str(example_store), env={"KG_QUERY_MEMORY": "lots"})
    assert result.returncode == 2
    assert error_line(result) == "Error: KG_QUERY_MEMORY='lots' is not a whole number of MiB (0 for no ceiling)"


def test_a_server_query_is_dropped_at_its_deadline(served):
    import kg
    from kg.errors import QueryError

    # ~10^11 rows that the server streams for as long as kg listens
    streaming = "SELECT * WHERE { ?a ?p ?x . ?b ?q ?y . ?c ?r ?z . ?d ?s ?w }"
    threads = set(threading.enumerate())
    with pytest.raises(QueryError, match="did not finish within 1 s"):
        kg.query(streaming, store=served, timeout=1)
    assert set(threading.enumerate()) == threads, "kg still reads the answer"
    result = run_kg("query", streaming, "--timeout", "1", "--store", served)
    assert result.returncode == 5
    assert error_line(result).startswith("Error: the query did not finish within 1 s")


def test_kg_reads_no_more_of_a_server_answer_than_its_memory_ceiling(served):
    streaming = "SELECT * WHERE { ?a ?p ?x . ?b ?q ?y . ?c ?r ?z . ?d ?s ?w }"
    result = run_kg("query", streaming, "--timeout", "3600", "--store", served, env={"KG_QUERY_MEMORY": "1"})
    assert result.returncode == 5
    assert error_line(result) == ("Error: the SPARQL server's answer is larger than 1 MiB, and kg stopped reading "
                                  "it (narrow the query, or raise KG_QUERY_MEMORY=MiB)")


# one answer with every kind of term: an IRI, a plain literal, one with a language and one with a
# datatype, a blank node and an unbound variable
EVERY_KIND = ('SELECT ?iri ?text ?english ?number ?blank ?nothing WHERE { '
              'VALUES (?iri ?text ?english ?number ?nothing) { (<http://example.org/a> "a \\"quoted\\", text" '
              '"word"@en "7"^^xsd:integer UNDEF) } BIND(BNODE() AS ?blank) }')
# as SPARQL 1.1 Query Results JSON (https://www.w3.org/TR/sparql11-results-json/) writes it
EVERY_KIND_JSON = {"head": {"vars": ["iri", "text", "english", "number", "blank", "nothing"]},
                   "results": {"bindings": [{
                       "iri": {"type": "uri", "value": "http://example.org/a"},
                       "text": {"type": "literal", "value": 'a "quoted", text'},
                       "english": {"type": "literal", "value": "word", "xml:lang": "en"},
                       "number": {"type": "literal", "value": "7",
                                  "datatype": "http://www.w3.org/2001/XMLSchema#integer"},
                       "blank": {"type": "bnode", "value": "BLANK"}}]}}


def test_json_is_the_standards_form_of_every_kind_of_term(store):
    import json

    result = run_kg("query", EVERY_KIND, "--format", "json", "--store", store)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    (row,) = data["results"]["bindings"]
    assert row["blank"]["value"], "a blank node has a label"
    row["blank"]["value"] = "BLANK"
    assert data == EVERY_KIND_JSON


def test_csv_and_tsv_are_the_standards_forms(store):
    """SPARQL 1.1 CSV (plain values, CR LF) and TSV (the terms as Turtle writes them)."""
    from click.testing import CliRunner

    from kg.cli import cli

    # bytes, not text: text mode would turn CR LF into LF
    csv, tsv = (CliRunner().invoke(cli, ["query", EVERY_KIND, "--format", fmt, "--store", store])
                for fmt in ("csv", "tsv"))
    assert csv.exit_code == tsv.exit_code == 0, csv.stderr + tsv.stderr
    header, row = csv.stdout_bytes.decode("utf-8").removesuffix("\r\n").split("\r\n")
    assert header == "iri,text,english,number,blank,nothing"
    blank = row.split(",")[-2]
    assert blank.startswith("_:") and row == f'http://example.org/a,"a ""quoted"", text",word,7,{blank},'
    header, row = tsv.stdout_bytes.decode("utf-8").removesuffix("\n").split("\n")
    assert header == "?iri\t?text\t?english\t?number\t?blank\t?nothing"
    blank = row.split("\t")[-2]
    assert blank.startswith("_:") and row == f'<http://example.org/a>\t"a \\"quoted\\", text"\t"word"@en\t7\t{blank}\t'


def test_an_ask_and_a_construct_in_json(store):
    import json

    ask = run_kg("query", "ASK { ?s ?p ?o }", "--format", "json", "--store", store)
    assert json.loads(ask.stdout) == {"head": {}, "boolean": True}
    construct = run_kg("query", 'CONSTRUCT { <http://example.org/a> rdfs:label "word"@en } WHERE {}',
                       "--format", "json", "--store", store)
    assert json.loads(construct.stdout) == {
        "head": {"vars": ["subject", "predicate", "object"]},
        "results": {"bindings": [{"subject": {"type": "uri", "value": "http://example.org/a"},
                                  "predicate": {"type": "uri", "value": "http://www.w3.org/2000/01/rdf-schema#label"},
                                  "object": {"type": "literal", "value": "word", "xml:lang": "en"}}]}}


@pytest.mark.parametrize(("query", "message"), [
    ("SELECT * WHERE { ?s foo:p ?o }",
     "invalid SPARQL at line 1, column 26: unknown prefix 'foo:' (declare it: PREFIX foo: <IRI>; kg declares "),
    ("SELECT * WHERE { ?s ?p ?o ",
     "invalid SPARQL at line 1, column 27 at the end of the query, after '?o': expected \",\" \".\" \";\""),
])
def test_a_syntax_error_is_one_line_saying_where_and_what_could_come(example_store, query, message):
    """Not the engine's grammar dump ("['-' | '0' ..= '9' | '\\u{00B7}' ..."): the place, the word
    before it, the words that could come; an unknown prefix named as one (exit 5, one line)."""
    import kg
    from kg.errors import QueryError

    with pytest.raises(QueryError) as caught:
        kg.query(query, store=example_store)
    text = str(caught.value)
    assert text.startswith(message) and "\n" not in text and "\\u{" not in text and caught.value.exit_code == 5
