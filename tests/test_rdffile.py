"""RDF files given with --file: the format from the name, the graphs of a dataset merged, and a
file that cannot be read one `Error:` line naming it, the same for `kg validate` and `kg eval`."""

from __future__ import annotations

import subprocess

import pytest

from conftest import ROOT

SEEDS = ROOT / "tests" / "data" / "gold" / "seeds"
COMMANDS = {"validate": ["validate", "--file"], "eval": ["eval", str(SEEDS), "--file"]}
TRIG = """@prefix ex: <http://example.org/> .
ex:a ex:p ex:b .
ex:g1 { ex:a ex:p "in g1"@en . }
ex:g2 { ex:a ex:p "7"^^<http://www.w3.org/2001/XMLSchema#integer> . ex:a ex:p ex:b . }
"""


def run_kg(*args: str) -> subprocess.CompletedProcess:
    """`kg ARGS` in this process (conftest's invoke_kg): the exit code and stderr a user sees."""
    from conftest import invoke_kg

    return invoke_kg(*args)


def test_a_dataset_is_read_whole_whatever_its_graphs(tmp_path):
    import pyoxigraph as ox

    from kg.graph.rdffile import read_triples
    from kg.graph.validation import load_file

    path = tmp_path / "data.trig"
    path.write_text(TRIG, encoding="utf-8")
    a, p = ox.NamedNode("http://example.org/a"), ox.NamedNode("http://example.org/p")
    expected = {ox.Triple(a, p, ox.NamedNode("http://example.org/b")), ox.Triple(a, p, ox.Literal("in g1", language="en")),
                ox.Triple(a, p, ox.Literal("7", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")))}
    triples = list(read_triples(path))
    assert len(triples) == 4 and set(triples) == expected, "each graph's triples, a repeat too"
    assert len(load_file(path)) == 3, "one rdflib graph of them"


def test_the_format_is_the_one_the_extension_names(tmp_path):
    from kg.graph.rdffile import read_triples

    rdfxml = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">'
              '<rdf:Description rdf:about="http://example.org/a"><ex:p>x</ex:p></rdf:Description></rdf:RDF>')
    for name, text in [("a.owl", rdfxml), ("a.RDF", rdfxml), ("a.nt", "<http://example.org/a> <http://example.org/p> \"x\" .\n"),
                       ("a.jsonld", '{"@id": "http://example.org/a", "http://example.org/p": "x"}')]:
        (tmp_path / name).write_text(text, encoding="utf-8")
        (triple,) = read_triples(tmp_path / name)
        assert (triple.subject.value, triple.object.value) == ("http://example.org/a", "x"), name


def test_relative_iris_are_the_files_own(tmp_path):
    from kg.graph.rdffile import read_triples

    (tmp_path / "r.ttl").write_text("<a> <http://example.org/p> <b> .\n", encoding="utf-8")
    (triple,) = read_triples(tmp_path / "r.ttl")
    assert triple.subject.value == (tmp_path / "a").as_uri()


BAD = {  # file name, content (None: no file), the problem after "Error: PATH: "
    "syntax": ("broken.ttl", "@prefix ex: <http://example.org/> .\nex:a ex:p ex:b .\nex:a ex:p \"x\" ;\n",
               "not valid Turtle: Parser error at line 4 column 1: Unexpected end (line 4)"),
    "encoding": ("latin1.nt", b"<http://example.org/a> <http://example.org/p> \"caf\xe9\" .\n",
                 "not valid N-Triples: "),
    "extension": ("graph.csv", "a,b\n", "the extension .csv is not an RDF format's (kg reads .jsonld, .n3, .nq, "
                  ".nt, .owl, .rdf, .trig, .ttl files)"),
    "no extension": ("graph", "<http://example.org/a> <http://example.org/p> <http://example.org/b> .\n",
                     "no extension to tell its RDF format (kg reads "),
    "missing": ("missing.ttl", None, "cannot read (No such file or directory)"),
    "folder": ("folder.ttl", "", "cannot read (Is a directory)"),
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("case", list(BAD))
def test_a_file_that_cannot_be_read_is_one_line_naming_it(command, case, tmp_path):
    name, content, problem = BAD[case]
    path = tmp_path / name
    if case == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    result = run_kg(*COMMANDS[command], str(path))
    assert result.returncode == 3, result.stdout + result.stderr
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"Error: {path}: {problem}"), line
