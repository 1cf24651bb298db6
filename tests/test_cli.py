"""The command line end to end: real stores in temporary folders, exact exit codes and messages."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

import pyoxigraph as ox
import pytest
from click.testing import CliRunner
from rdflib import Dataset, Graph

from kg.cli import cli
from conftest import EXAMPLES, ROOT, invoke_kg


def run_kg(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """`kg ARGS` in this process (conftest's invoke_kg): the exit codes and stderr a user sees."""
    return invoke_kg(*args, stdin=stdin, env=env)


def kg_process(*args: str) -> subprocess.CompletedProcess:
    """Run `python -m kg` as a user would: for what only a process has (its file descriptors)."""
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_every_command_has_help():
    runner = CliRunner()
    for name in cli.commands:
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Usage:" in result.output


@pytest.mark.parametrize("args", [["query", "allies", "--store", "/nonexistent/kg-store"], ["query", "--bogus"],
                                  ["nosuchcommand"], ["--version"], ["query", "list"]], ids=" ".join)
def test_in_process_the_codes_and_lines_are_those_of_a_real_process(args):
    """kg's group maps errors to exit codes inside click: CliRunner sees what `python -m kg` shows."""
    real, inside = kg_process(*args), run_kg(*args)
    assert (inside.returncode, inside.stdout, inside.stderr) == (real.returncode, real.stdout, real.stderr)


def test_rebuilding_the_same_articles_adds_nothing(store_copy):
    before = run_kg("export", "--store", str(store_copy), "--format", "nquads").stdout
    again = run_kg("build", str(EXAMPLES), "--store", str(store_copy))
    assert again.returncode == 0
    assert "0 new documents, 2 already stored" in again.stdout
    after = run_kg("export", "--store", str(store_copy), "--format", "nquads").stdout
    assert sorted(before.splitlines()) == sorted(after.splitlines())


def test_ready_queries_answer_the_questions(example_store):
    out = run_kg("query", "allies", "--store", str(example_store), "--format", "csv").stdout
    assert "Bashar al-Assad,Hezbollah,2" in out
    out = run_kg("query", "captures", "--store", str(example_store), "--format", "tsv").stdout
    assert '"Islamic State"\t"Arsal"\t2' in out and '"Islamic State"\t"Lebanese soldiers"\t2' in out
    out = run_kg("query", "evacuations", "--store", str(example_store)).stdout
    assert "Al-Bukamal" in out and "eastern Syria" in out and "Lebanon" not in out.split("---")[-1]


def test_query_json_is_sparql_results_json(example_store):
    out = run_kg("query", "entity", "--param", "name=Daesh", "--store", str(example_store), "--format", "json").stdout
    data = json.loads(out)
    assert data["head"]["vars"] == ["name", "entity", "direction", "relation", "other"]
    rows = {(b["relation"]["value"], b["other"]["value"]) for b in data["results"]["bindings"]}
    assert ("captured", "Arsal") in rows and ("ceasefire with", "Hezbollah") in rows


def test_parameters_are_bound_not_spliced(example_store):
    hostile = 'x") } ; DROP ALL ; SELECT * WHERE { ?s ?p ?o FILTER("'
    result = run_kg("query", "entity", "--param", f"name={hostile}", "--store", str(example_store))
    assert result.returncode == 0
    assert "(0 rows)" in result.stdout


def test_evidence_query_cites_both_documents(example_store):
    out = run_kg("query", "evidence", "--param", "rel=captured", "--param", "name=Arsal",
                 "--store", str(example_store), "--format", "csv").stdout
    assert "000_b6bbe98ba01c18c3" in out and "001_ded2ed7496c25a53" in out
    assert "overran the town of Arsal" in out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["query", "SELEKT nothing"], 2, "Error: 'SELEKT nothing' is neither a query name, a .rq file nor SPARQL"),
        (["query", "SELECT ?x WHERE { ?x ?y }"], 5, "Error: invalid SPARQL at line 1, column 26 at the end of the query, after '}':"),
        (["query", "DROP ALL"], 5, "Error: kg query is read-only"),
        (["query", "INSERT DATA { <a:b> <a:c> <a:d> }"], 5, "Error: kg query is read-only"),
        (["query", "SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }"], 5, "Error: SERVICE"),
        (["query", "allies", "--param", "oops"], 2, "Error: --param 'oops' is not name=value"),
        (["export", "--format", "pdf"], 2, "Error: Invalid value for '--format'"),
    ],
)
def test_errors_are_one_line_with_an_exit_code(example_store, args, code, message):
    result = run_kg(*args, "--store", str(example_store))
    assert result.returncode == code, result.stderr
    assert result.stderr.startswith(message), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_missing_store_is_a_clear_error(tmp_path):
    result = run_kg("query", "allies", "--store", str(tmp_path / "nowhere"))
    assert result.returncode == 4
    assert result.stderr.strip() == (f"Error: no kg store at {tmp_path / 'nowhere'} "
                                     "(build one first with `kg build FILES --store PATH`)")


def test_bad_inputs_are_reported_and_the_rest_goes_through(tmp_path):
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "binary.txt").write_bytes(b"%PDF-1.7\x00\x01\x02")
    (tmp_path / "latin1.txt").write_bytes("Caf\xe9 bombed".encode("latin-1"))
    (tmp_path / "feed.jsonl").write_text('{"text": "Houthi fighters captured Hodeidah.", "id": "h1"}\nnot json\n{"id": 3}\n')
    result = run_kg("build", str(tmp_path), str(tmp_path / "missing.md"), "--store", str(tmp_path / "store"))
    assert result.returncode == 1
    errors = result.stderr.strip().splitlines()
    assert f"Error: {tmp_path / 'empty.txt'}: empty: the file has no text to read" in errors
    assert f"Error: {tmp_path / 'binary.txt'}: a PDF file, not text; convert it to plain text (UTF-8) first" in errors
    assert any(e.startswith(f"Error: {tmp_path / 'latin1.txt'}: not valid UTF-8") for e in errors)
    assert any(e.startswith(f"Error: {tmp_path / 'feed.jsonl'}:2: not valid JSON") for e in errors)
    assert f'Error: {tmp_path / "feed.jsonl"}:3: no "text" field with the article text' in errors
    assert f"Error: {tmp_path / 'missing.md'}: no such file or folder" in errors
    assert "1 new documents" in result.stdout
    assert "Traceback" not in result.stderr


def test_stdin_and_jsonl_metadata(tmp_path):
    line = json.dumps({"text": "The Taliban seized Kunduz.", "id": "t1", "title": "Kunduz falls",
                       "date": "2015-09-28", "url": "https://example.org/kunduz", "source": "VOA"})
    result = run_kg("build", "-", "--store", str(tmp_path / "s"), stdin=line)
    assert result.returncode == 0, result.stderr
    out = run_kg("query", "SELECT ?t ?d ?src WHERE { GRAPH ?g { ?doc <http://purl.org/dc/terms/title> ?t ; "
                 "<http://purl.org/dc/terms/date> ?d ; <http://purl.org/dc/terms/publisher> ?src } }",
                 "--store", str(tmp_path / "s"), "--format", "csv").stdout
    assert "Kunduz falls,2015-09-28,VOA" in out
    assert "Taliban,Kunduz" in run_kg("query", "captures", "--store", str(tmp_path / "s"), "--format", "csv").stdout


def test_turtle_reparses_with_the_same_count_in_rdflib_and_oxigraph(example_store, tmp_path):
    out = tmp_path / "kg.ttl"
    assert run_kg("export", "--store", str(example_store), "-o", str(out)).returncode == 0
    in_rdflib = len(Graph().parse(out, format="turtle"))
    in_oxigraph = len(set(ox.parse(path=str(out), format=ox.RdfFormat.TURTLE)))
    assert in_rdflib == in_oxigraph > 300


@pytest.mark.parametrize("fmt", ["trig", "nquads", "ntriples", "jsonld", "graphml", "gexf", "json"])
def test_every_export_format(example_store, tmp_path, fmt):
    out = tmp_path / f"kg.{fmt}"
    result = run_kg("export", "--store", str(example_store), "--format", fmt, "-o", str(out))
    assert result.returncode == 0, result.stderr
    data = out.read_bytes()
    assert len(data) > 1000
    if fmt in ("trig", "nquads"):
        dataset = Dataset()
        dataset.parse(data=data.decode(), format=fmt)
        assert len(list(dataset.graphs())) >= 3


def test_validate_passes_on_a_built_graph_and_fails_readably_on_a_broken_one(example_store, tmp_path):
    ok = run_kg("validate", "--store", str(example_store))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.startswith("conforms")
    broken = tmp_path / "broken.ttl"
    broken.write_text(
        "@prefix kg: <https://w3id.org/kg/ontology#> .\n"
        "<urn:a1> a kg:Assertion ; kg:confidence 1.5 .\n"
        "<urn:d> a kg:Document .\n"
        "<urn:x> kg:locatedIn <urn:y> .\n"
    )
    bad = run_kg("validate", "--file", str(broken))
    assert bad.returncode == 6
    assert bad.stdout.startswith("does not conform:")
    assert "urn:a1 evidence:" in bad.stdout and "urn:d contentHash: a document needs one SHA-256 content hash" in bad.stdout
    assert "locatedIn links places only" not in bad.stdout or "urn:x" in bad.stdout


def test_info_counts(example_store):
    out = run_kg("info", "--store", str(example_store), "--format", "json").stdout
    data = json.loads(out)
    assert data["documents"] == 2
    assert data["facts_by_relation"]["ceasefireWith"] == 3
    assert data["entities_by_type"]["ArmedGroup"] >= 3
    assert data["events_by_type"]["Ceasefire"] == 1 and data["events_by_type"]["Evacuation"] == 1  # told twice, one each
    assert data["events"] == sum(data["events_by_type"].values()) < data["event_statements"]


def test_info_lists_the_most_mentioned_entities_of_each_type(example_store):
    out = run_kg("info", "--store", str(example_store), "--entities", "2").stdout.splitlines()
    groups = out.index(next(line for line in out if line.strip().startswith("ArmedGroup")))
    listed = [line.strip() for line in out[groups + 1:groups + 3]]
    assert listed[0].startswith(("Hezbollah (2 documents)", "Islamic State (2 documents)")), listed
    assert all(line.endswith(("document)", "documents)")) for line in listed)
    data = json.loads(run_kg("info", "--store", str(example_store), "--entities", "1", "--format", "json").stdout)
    assert all(len(names) == 1 for names in data["top_entities"].values())
    assert "top_entities" not in json.loads(run_kg("info", "--store", str(example_store), "--format", "json").stdout)


def test_store_location_from_environment(tmp_path):
    import os

    env = dict(os.environ, KG_STORE=str(tmp_path / "envstore"))
    result = run_kg("build", str(EXAMPLES / "001_ded2ed7496c25a53.txt"), env=env)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "envstore" / "CURRENT").exists()


@pytest.mark.parametrize("command", [["export"], ["viz"]])
def test_an_output_that_cannot_be_written_is_one_line_naming_it(example_store, tmp_path, command):
    suffix = ".ttl" if command == ["export"] else ".html"
    folder = tmp_path / f"existing{suffix}"
    folder.mkdir()
    for target, cause in [(f"/missing/dir/g{suffix}", "the folder /missing/dir does not exist"),
                          (f"/sys/g{suffix}", "permission denied"),
                          (str(folder), "it is a folder (give a file name inside it)")]:
        result = run_kg(*command, "--store", str(example_store), "-o", target)
        assert result.returncode == 9, result.stderr
        assert result.stderr == f"Error: cannot write {target}: {cause}\n"
    assert [p.name for p in tmp_path.iterdir()] == [folder.name] and not any(folder.iterdir())


def test_output_goes_through_a_temporary_file_no_planted_link_can_redirect(example_store, tmp_path):
    import os
    import stat

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    out = tmp_path / "g.ttl"
    (tmp_path / "g.ttl.part").symlink_to(victim)  # the name the old writer used
    result = run_kg("export", "--store", str(example_store), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert victim.read_text() == "keep me"
    assert len(list(ox.parse(path=str(out), format=ox.RdfFormat.TURTLE))) > 300
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.ttl", "g.ttl.part", "victim.txt"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask, "as open() would make it, not private"


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path):
    from kg.outputs import output_file

    out = tmp_path / "g.ttl"
    out.write_text("old")
    with pytest.raises(RuntimeError), output_file(out) as f:
        f.write(b"half of the new")
        raise RuntimeError("the store failed midway")
    assert out.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["g.ttl"]


def test_a_folder_that_is_not_a_store_is_refused(tmp_path):
    articles = tmp_path / "articles"
    articles.mkdir()
    (articles / "a.txt").write_text("The Taliban seized Kunduz.")
    result = run_kg("build", str(articles), "--store", str(articles))
    assert result.returncode == 4
    assert result.stderr == (f"Error: {articles} is not a kg store: the folder holds other files "
                             "(give --store a new or empty folder, or an existing store)\n")
    assert [p.name for p in articles.iterdir()] == ["a.txt"], "nothing written among the articles"
    file = articles / "a.txt"
    result = run_kg("build", str(file), "--store", str(file))
    assert result.returncode == 4
    assert result.stderr == f"Error: {file} is a file, not a kg store (give --store a new or empty folder)\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_kg("build", str(file), "--store", str(empty)).returncode == 0


def test_a_build_with_nothing_to_read_makes_no_store(tmp_path):
    store = tmp_path / "store"
    result = run_kg("build", "nosuchfile.txt", "--store", str(store))
    assert result.returncode == 3
    assert result.stderr == "Error: nosuchfile.txt: no such file or folder\n"
    assert not store.exists()


def test_every_ready_query_declares_its_parameters():
    from kg.sparql.parameters import declared
    from kg.graph.sparql import named_queries

    for name, path in named_queries().items():
        text = path.read_text(encoding="utf-8")
        parameters = declared(text)
        assert parameters is not None, f"{name}: no '# Parameters:' line"
        for parameter in parameters:
            assert f"?{parameter}" in text, f"{name}: declares {parameter} but never uses it"


def test_query_list_says_each_query_in_its_whole_first_sentence():
    """A header sentence that runs over two lines ("timeline") is listed whole, and a header's
    parameters are not part of what the query does."""
    from kg.graph.sparql import named_queries, summary

    assert summary("# Who fought whom, by year: each side with its\n# foes.\n# Parameters: none\nSELECT") == (
        "Who fought whom, by year: each side with its foes."
    )
    assert summary("# Everything.\n# More detail.\nSELECT") == "Everything."
    listed = run_kg("query", "list").stdout.splitlines()
    assert len(listed) == len(named_queries())
    for line in listed:
        assert line.rstrip().endswith("."), line
    timeline = next(line for line in listed if line.startswith("timeline "))
    assert timeline.endswith("the documents that tell it and a sentence of theirs (one that dates it, if any does).")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["entity"], "Error: query 'entity' needs --param name=VALUE "
                     "(a label or alias of the entity, e.g. --param name=Hezbollah)"),
        (["allies", "--param", "name=Hezbollah"], "Error: query 'allies' has no parameter 'name' (its parameters: none)"),
        (["evidence", "--param", "relation=captured"],
         "Error: query 'evidence' has no parameter 'relation' (its parameters: rel, name)"),
    ],
)
def test_query_parameters_are_checked_against_the_header(example_store, args, message):
    result = run_kg("query", *args, "--store", str(example_store))
    assert result.returncode == 2
    assert result.stderr == message + "\n"


def test_optional_parameters_may_be_left_out(example_store):
    result = run_kg("query", "evidence", "--store", str(example_store), "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) > 20


def test_symmetric_facts_have_one_direction_in_every_output(example_store, tmp_path):
    import networkx as nx

    import kg
    from kg.ontology import symmetric_relations

    assert symmetric_relations() == {"allyOf", "ceasefireWith"}
    graph = kg.to_networkx(store=example_store)
    symmetric = sum(1 for *_, d in graph.edges(data=True) if d["predicate"] in symmetric_relations())
    assert symmetric >= 4  # Assad and Hezbollah allies, the Islamic State's ceasefires
    for fmt, read in [("graphml", nx.read_graphml), ("gexf", nx.read_gexf),
                      ("json", lambda p: nx.node_link_graph(json.loads(p.read_text()), edges="edges"))]:
        out = tmp_path / f"g.{fmt}"
        assert run_kg("export", "--store", str(example_store), "--format", fmt, "-o", str(out)).returncode == 0
        for g in (graph, read(out)):
            edges = [(s, o, d) for s, o, d in g.edges(data=True) if d["predicate"] in symmetric_relations()]
            assert len(edges) == symmetric, fmt
            assert all(str(d["symmetric"]).lower() == "true" and s < o for s, o, d in edges), (fmt, edges)
            assert all(str(d["symmetric"]).lower() == "false" for _, _, d in g.edges(data=True)
                       if d["predicate"] not in symmetric_relations()), fmt
    rows = json.loads(run_kg("query", "entity", "--param", "name=Hezbollah", "--store", str(example_store),
                             "--format", "json").stdout)["results"]["bindings"]
    assert {(r["direction"]["value"], r["relation"]["value"], r["other"]["value"]) for r in rows} >= {
        ("<->", "ally of", "Bashar al-Assad"), ("<->", "ceasefire with", "Islamic State"),
        ("->", "attacked", "Nusra Front")}


def test_the_readme_inline_query_prints_each_answer_once_with_a_label(example_store):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (line,) = [m for m in re.findall(r'^kg query (".*")$', readme, flags=re.M) if "kg:attacked" in m]
    result = run_kg("query", shlex.split(line)[0], "--store", str(example_store), "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()
    assert rows[0] == "who,name"
    assert len(rows[1:]) == len(set(rows[1:])) > 0, "each answer once"
    assert "https://w3id.org/kg/id/entity/lebanon-armed-forces,Lebanese army" in rows


def test_a_write_that_fails_midway_names_the_cause_and_leaves_the_old_file(example_store, tmp_path):
    import resource

    out = tmp_path / "g.nq"
    out.write_text("the export of yesterday")

    def small_files() -> None:  # a disk that fills up after 20 kB (Python ignores SIGXFSZ: writes fail)
        resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))

    result = subprocess.run([sys.executable, "-m", "kg", "export", "--format", "nquads", "-o", str(out),
                             "--store", str(example_store)], capture_output=True, text=True, cwd=ROOT,
                            preexec_fn=small_files, timeout=300)
    assert result.returncode == 9
    assert result.stderr == f"Error: cannot write {out}: file too large\n"
    assert out.read_text() == "the export of yesterday" and [p.name for p in tmp_path.iterdir()] == ["g.nq"]


def test_the_default_graph_is_the_facts_and_the_entities(store_copy):
    from kg.namespaces import ENTITY_GRAPH, KG, META_GRAPH, document_graph

    raw = ox.Store(str(store_copy))  # the bookkeeping a build in progress leaves
    doc = next(g for g in raw.named_graphs() if g.value.startswith(str(document_graph(""))))
    raw.add(ox.Quad(doc, ox.NamedNode(str(KG.writeInProgress)), ox.Literal(True), ox.NamedNode(str(META_GRAPH))))
    raw.add(ox.Quad(ox.NamedNode(str(ENTITY_GRAPH)), ox.NamedNode(str(KG.labelsStale)), ox.Literal(True),
                    ox.NamedNode(str(META_GRAPH))))
    del raw
    (store_copy / "LOCK").unlink(missing_ok=True)

    def rows(sparql):
        result = run_kg("query", sparql, "--store", str(store_copy), "--format", "csv")
        assert result.returncode == 0, result.stderr
        return result.stdout.splitlines()[1:]

    predicates = set(rows("SELECT DISTINCT ?p WHERE { ?s ?p ?o }"))
    ns = str(KG._NS)
    assert {ns + "captured", ns + "allyOf", "http://www.w3.org/2000/01/rdf-schema#label",
            "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"} <= predicates
    for hidden in ("http://www.w3.org/2000/01/rdf-schema#domain", "http://www.w3.org/2002/07/owl#versionInfo",
                   ns + "writeInProgress", ns + "labelsStale", ns + "mentionedIn", ns + "evidence"):
        assert hidden not in predicates
    assert all(s.startswith("https://w3id.org/kg/id/entity/") for s in rows("SELECT DISTINCT ?s WHERE { ?s ?p ?o }"))
    assert rows("SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?d a kg:Document } }") == ["2"]


def test_the_entity_graph_built_in_steps_is_the_one_built_at_once(example_store, tmp_path):
    import kg
    from kg.namespaces import ENTITY_GRAPH

    def entity_graph(location):
        with kg.open_store(location) as s:
            return {str(q) for q in s.quads(ox.NamedNode(str(ENTITY_GRAPH)))}

    first, second = sorted(EXAMPLES.glob("*.txt"))
    stepwise = tmp_path / "stepwise"
    kg.build([str(first)], store=stepwise)
    alone = entity_graph(stepwise)
    kg.build([str(second)], store=stepwise)
    assert entity_graph(stepwise) == entity_graph(example_store)
    kg.remove([second.stem], store=stepwise)
    assert entity_graph(stepwise) == alone


def test_a_server_reads_the_same_default_graph_from_the_query_text(example_store):
    """RemoteStore wraps a query's pattern in GRAPH <entities> (the protocol's default-graph-uri
    would hide the named graphs): the same answers as Oxigraph's own default graph."""
    from kg.sparql.guard import in_graph, parse
    from kg.namespaces import ENTITY_GRAPH, PREFIXES

    store = ox.Store.read_only(str(example_store))
    graph = ox.NamedNode(str(ENTITY_GRAPH))
    for sparql in ["SELECT ?who ?name WHERE { ?who kg:attacked ?x ; rdfs:label ?name . ?x rdfs:label 'Islamic State' }",
                   "SELECT ?s (COUNT(*) AS ?n) { ?s ?p ?o FILTER(?o != \"}\") } GROUP BY ?s ORDER BY ?s",
                   "SELECT ?e ?t WHERE { ?e a ?t . FILTER EXISTS { ?e kg:allyOf|^kg:allyOf ?x } "
                   "{ SELECT ?e WHERE { GRAPH ?g { ?e kg:mentionedIn ?d } } } } # a } in a comment",
                   "CONSTRUCT WHERE { ?s kg:captured ?o }", "ASK { ?s kg:ceasefireWith ?o }"]:
        own = store.query(sparql, prefixes=PREFIXES, default_graph=graph)
        wrapped = store.query(in_graph(parse(sparql), graph.value), prefixes=PREFIXES)
        if isinstance(own, ox.QueryBoolean):
            assert bool(own) == bool(wrapped)
        elif isinstance(own, ox.QuerySolutions):
            assert sorted(map(str, own)) == sorted(map(str, wrapped)) != [], sparql
        else:
            assert set(map(str, own)) == set(map(str, wrapped)) != set(), sparql


def on_a_terminal(*args: str) -> tuple[int, str, str]:
    """Run `python -m kg` with stderr on a pseudo-terminal of 80 columns and stdout on a pipe, as
    in `kg build ... > log`: the exit code, stdout, and everything the terminal was sent."""
    import fcntl
    import os
    import pty
    import struct
    import termios
    import threading

    terminal, child_end = pty.openpty()
    fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "kg", *args], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=child_end, cwd=ROOT)
    os.close(child_end)
    sent = []

    def read() -> None:  # until the child's end closes (EIO on Linux)
        while True:
            try:
                data = os.read(terminal, 1 << 16)
            except OSError:
                return
            if not data:
                return
            sent.append(data)

    reader = threading.Thread(target=read)
    reader.start()
    stdout, _ = process.communicate(timeout=600)
    reader.join()
    os.close(terminal)
    return process.returncode, stdout.decode("utf-8"), b"".join(sent).decode("utf-8")


def screen(sent: str) -> list[str]:
    """The lines a terminal shows once it has drawn ``sent``: a carriage return goes back to the
    start of the line, ESC [ K erases to its end."""
    lines, line, column = [], [], 0
    for piece in re.split(r"(\r|\n|\x1b\[K)", sent):
        if piece == "\r":
            column = 0
        elif piece == "\n":
            lines.append("".join(line).rstrip())
            line, column = [], 0
        elif piece == "\x1b[K":
            del line[column:]
        else:
            for char in piece:
                line[column:column + 1] = [char]
                column += 1
    return [*lines, "".join(line).rstrip()]


PROGRESS = {  # {out}: a new folder for each run
    "build": (["build", str(EXAMPLES / "000_b6bbe98ba01c18c3.txt"), "--store", "{out}/s"], "building: "),
    "export": (["export", "--store", "{store}", "-o", "{out}/graph.ttl"], "exporting: "),
    "eval": (["eval", str(ROOT / "tests" / "data" / "gold" / "seeds"), "--store", "{store}"], "reading the graph: "),
}


@pytest.mark.slow  # processes on a pseudo-terminal
@pytest.mark.parametrize("command", list(PROGRESS))
def test_a_progress_line_is_drawn_on_a_terminal_and_erased_at_the_end(command, example_store, tmp_path):
    def args(run: str) -> list[str]:
        (tmp_path / run).mkdir()
        return [a.format(out=tmp_path / run, store=example_store) for a in PROGRESS[command][0]]

    label = PROGRESS[command][1]
    code, _, sent = on_a_terminal(*args("terminal"))
    assert code == 0, sent
    assert label in sent, sent
    assert not [line for line in screen(sent) if label in line], "the progress line is erased"
    quiet_code, _, quiet_sent = on_a_terminal(*args("quiet"), "--quiet")
    # the terminal itself sends each newline as CR LF; any other CR would be a drawn line
    assert quiet_code == 0 and label not in quiet_sent and "\r" not in quiet_sent.replace("\r\n", ""), quiet_sent
    piped = run_kg(*args("pipe"))
    assert piped.returncode == 0 and label not in piped.stderr and "\r" not in piped.stderr, piped.stderr


@pytest.mark.slow  # a process on a pseudo-terminal
def test_an_error_line_during_a_build_on_a_terminal_is_whole(tmp_path):
    missing = tmp_path / "missing.txt"
    args = ["build", str(EXAMPLES), str(missing), "--verbose"]
    code, stdout, sent = on_a_terminal(*args, "--store", str(tmp_path / "s"))
    piped = run_kg(*args, "--store", str(tmp_path / "p"))
    assert code == piped.returncode == 1
    (error,) = piped.stderr.splitlines()
    assert error.startswith(f"Error: {missing}")
    assert [line for line in screen(sent) if line] == [error], "the line, whole, and no progress left over"
    assert stdout.count("  + ") == 2 and stdout.splitlines()[-1] == piped.stdout.splitlines()[-1]


# Every command that prints, with what it prints to: a full disk under any of them is exit 9
PRINTING = [["query", "allies"], ["query", "evidence", "--format", "csv"], ["export"], ["export", "--format", "json"],
            ["info"], ["analyze"], ["path", "Hezbollah", "Arsal"], ["validate"]]


@pytest.mark.parametrize("command", PRINTING, ids=" ".join)
def test_a_full_disk_under_standard_output_is_exit_9_naming_it(example_store, command):
    with open("/dev/full", "wb") as full:
        result = subprocess.run([sys.executable, "-m", "kg", *command, "--store", str(example_store)], stdout=full,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=300, check=False)
    assert (result.returncode, result.stderr) == (9, "Error: cannot write standard output: no space left on device\n")


@pytest.mark.parametrize("command", [["query", "evidence", "--format", "csv"], ["export", "--format", "ntriples"]],
                         ids=" ".join)
def test_a_disk_that_fills_midway_under_standard_output_is_exit_9_not_a_short_success(example_store, tmp_path,
                                                                                       command):
    """The disk fills after 2,000 bytes (RLIMIT_FSIZE: the write past it fails with EFBIG, as
    ENOSPC would). Python's unbuffered stdout (PYTHONUNBUFFERED, as in many containers) drops
    what a short write leaves over: kg wrote part of the answer and exited 0."""
    import os
    import resource

    whole = subprocess.run([sys.executable, "-m", "kg", *command, "--store", str(example_store)],
                           capture_output=True, cwd=ROOT, timeout=300, check=True).stdout
    assert len(whole) > 4000

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    for unbuffered in ("1", ""):
        with open(tmp_path / "out", "wb") as out:
            result = subprocess.run([sys.executable, "-m", "kg", *command, "--store", str(example_store)],
                                    stdout=out, stderr=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=small_files,
                                    env={**os.environ, "PYTHONUNBUFFERED": unbuffered}, timeout=300, check=False)
        assert (result.returncode, result.stderr) == (9, "Error: cannot write standard output: file too large\n")
        assert (tmp_path / "out").read_bytes() == whole[:2000]


def test_a_reader_that_stops_reading_ends_kg_as_it_ends_any_unix_tool(example_store):
    """`kg query ... | head -1`: the reader is gone (EPIPE). Not a success (exit 0 said the whole
    answer was delivered), not an error to report (the reader asked for less): exit 141, the code
    of a process ended by SIGPIPE, and nothing on stderr."""
    import os

    read, write = os.pipe()
    os.close(read)  # before kg starts: every write of kg's fails
    try:
        result = subprocess.run([sys.executable, "-m", "kg", "query", "evidence", "--store", str(example_store)],
                                stdout=write, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=300, check=False)
    finally:
        os.close(write)
    assert (result.returncode, result.stderr) == (141, "")


def test_output_to_a_pipe_a_device_or_a_link_is_written_through_never_replaced(example_store, tmp_path):
    """`-o` names a stream (a named pipe, /dev/stdout, `>(cmd)`, a device) or a link: kg writes into
    what it names. It replaced a named pipe, and a link to a device, with a regular file, and
    `-o >(cmd)` failed with "the folder /dev/fd does not exist"."""
    import os
    import stat

    store = ["--store", str(example_store)]
    expected = kg_process("export", "--format", "json", *store).stdout
    assert 1000 < len(expected.encode()) < 60000, "fits in a pipe's buffer: this test reads after kg has written"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there: kg's open does not wait
    try:
        result = kg_process("export", "--format", "json", "-o", str(fifo), *store)
        assert result.returncode == 0, result.stderr
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the named pipe is still one"
        assert os.read(reader, 1 << 20).decode() == expected
    finally:
        os.close(reader)
    read, write = os.pipe()  # kg export -o >(cmd): the shell hands kg /dev/fd/N, a pipe
    try:
        result = subprocess.run([sys.executable, "-m", "kg", "export", "--format", "json", "-o", f"/dev/fd/{write}",
                                 *store], capture_output=True, text=True, cwd=ROOT, pass_fds=(write,), timeout=300,
                                check=False)
        os.close(write)
        assert result.returncode == 0, result.stderr
        assert os.read(read, 1 << 20).decode() == expected
    finally:
        os.close(read)
    stdout = tmp_path / "stdout"  # as /dev/stdout is: a link to the process's standard output
    stdout.symlink_to("/proc/self/fd/1")
    result = kg_process("export", "--format", "json", "-o", str(stdout), *store)
    assert (result.returncode, result.stdout) == (0, expected), result.stderr
    for device, code, error in [("/dev/null", 0, ""), ("/dev/full", 9, "no space left on device")]:
        link = tmp_path / device.rsplit("/", 1)[1]
        link.symlink_to(device)
        result = kg_process("export", "-o", str(link), *store)
        assert result.returncode == code, result.stderr
        if error:
            assert result.stderr == f"Error: cannot write {link}: {error}\n"
        assert os.readlink(link) == device, "the link is still one"
    target = tmp_path / "exports" / "graph.json"
    target.parent.mkdir()
    target.write_text("yesterday's")
    (tmp_path / "graph.json").symlink_to(target)
    result = kg_process("export", "--format", "json", "-o", str(tmp_path / "graph.json"), *store)
    assert result.returncode == 0, result.stderr
    assert os.readlink(tmp_path / "graph.json") == str(target) and target.read_text() == expected
    assert sorted(p.name for p in target.parent.iterdir()) == ["graph.json"], "no temporary file left"


@pytest.mark.parametrize("fmt", ["nquads", "ntriples"])
def test_an_export_to_standard_output_redirected_to_a_file_is_whole(example_store, tmp_path, fmt):
    """`kg export --format nquads > file`: the line count read the file back by the name of
    standard output ('<stdout>'), which is no file: exit 70 after the export was written."""
    out = tmp_path / f"g.{fmt}"
    with open(out, "wb") as f:
        result = subprocess.run([sys.executable, "-m", "kg", "export", "--format", fmt, "--store", str(example_store)],
                                stdout=f, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=300, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    expected = run_kg("export", "--format", fmt, "-o", str(tmp_path / f"o.{fmt}"), "--store", str(example_store))
    assert out.read_bytes() == (tmp_path / f"o.{fmt}").read_bytes() and out.stat().st_size > 1000, expected.stderr


def test_a_process_started_without_standard_output_is_exit_9_not_a_silent_success(example_store):
    """`kg info >&-`: Python gives such a process no sys.stdout, and click writes nowhere: exit 0."""
    import os

    result = subprocess.run([sys.executable, "-m", "kg", "info", "--store", str(example_store)],
                            preexec_fn=lambda: os.close(1), stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=300,
                            check=False)
    assert (result.returncode, result.stderr) == (9, "Error: cannot write standard output: it is closed\n")
