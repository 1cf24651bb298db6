"""kg's data files checked where they are read (kg/datafiles.py and the loaders): a malformed
file of a KG_DATA copy stops kg with exit 78 and one line naming the file and the line or entry,
never an unexpected error (exit 70) nor a silent success; an empty lexicon is an error."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Literal

import pytest
from conftest import ROOT

from kg import datafiles
from kg.errors import DataError

ARTICLE = "The Asad regime shelled Arsal on Monday, and the Syrian army captured the town."  # reads every file


def _replace_line(path: Path, number: int, text: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[number - 1] = text
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _append(path: Path, data: bytes) -> None:
    with open(path, "ab") as f:
        f.write(data)


# (what is broken, how, the command that reads it, the start of the one line kg prints after "Error: FILE")
CASES = [
    ("kg.ttl", lambda p: _append(p, b"\nthis is @@ not turtle\n"), "build", ": not valid Turtle (Parser error at line"),
    ("kg.ttl", lambda p: p.write_text("@prefix kg: <https://w3id.org/kg/ontology#> .\n"), "build",
     ": defines no relation"),
    ("kg.ttl", lambda p: p.write_text(""), "build", ": the file is empty"),
    ("places.jsonl", lambda p: _replace_line(p, 5, '{"name": "broken'), "build", ":5: not JSON (Unterminated string"),
    ("places.jsonl", lambda p: _replace_line(p, 7, '{"id": 1, "name": "X", "country": "SY", "kind": "city", '
                                                    '"population": 5}'), "build",
     ":7: 'kind' must be one of 'country', 'town', not \"city\""),
    ("places.jsonl", lambda p: p.write_text(""), "build", ": the file is empty"),
    ("words.toml", lambda p: _append(p, b"\n\xff\xfe bad\n"), "build", ":"),  # the line of the bad byte
    ("words.toml", lambda p: p.write_text(p.read_text().replace("place_heads = [", "place_heads = [3, ", 1)),
     "build", ": 'place_heads' must be a list of strings, not [3, "),
    ("shapes.ttl", lambda p: _append(p, b"\n@@@ broken\n"), "validate", ": not valid Turtle (Parser error at line"),
    ("lexicon.toml", lambda p: p.write_text(""), "build", ": the file is empty"),
    ("lexicon.toml", lambda p: p.write_text("# every rule removed\n"), "build", ": no rules"),
    ("gazetteer.jsonl", lambda p: _replace_line(p, 3, '{"id": "x", "label": 3, "type": "Country"}'), "build",
     ":3: 'label' must be a string, not 3"),
    ("entity_patterns.jsonl", lambda p: _replace_line(p, 2, '{"label": "ORG", "id": "ArmedForces", '
                                                             '"pattern": [{"NOT_AN_ATTRIBUTE": "x"}]}'), "build",
     ":2: not a token pattern spaCy can use"),
    ("lemmas.toml", lambda p: _append(p, b"\nx = \n"), "build", ": not valid TOML (Invalid value"),
    ("lemmas.toml", lambda p: p.write_text(p.read_text().replace("[nouns]\n", "[nouns]\nzzqx = 3\n")), "build",
     ": 'nouns' must be a table of strings, not {\"zzqx\": 3, "),
    ("petrarch/persons.jsonl", lambda p: _replace_line(p, 2, "[1, 2]"), "build", ":2: not a JSON object but a list"),
    ("petrarch/actors.jsonl", lambda p: _replace_line(p, 2, "{"), "build", ":2: not JSON"),
    ("petrarch/agents.jsonl", lambda p: _replace_line(p, 2, '{"noun": "x"}'), "build",
     ":2: the entry has no 'stands_for'"),
    ("petrarch/verbs.jsonl", lambda p: _replace_line(p, 2, "{"), "build", ":2: not JSON"),
    ("queries/allies.rq", lambda p: p.write_bytes(b"\xff"), "query", ":1: not UTF-8 text (byte 0xff)"),
]


@pytest.mark.slow  # a process each: kg reads its data files once per process (KG_DATA)
@pytest.mark.parametrize(("name", "damage", "command", "message"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_malformed_data_file_is_exit_78_and_one_line_naming_it(tmp_path, example_store, name, damage, command,
                                                                 message):
    for folder in ("ontology", "queries"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    path = tmp_path / (name if name.startswith("queries/") else f"ontology/{name}")
    damage(path)
    (tmp_path / "a.txt").write_text(ARTICLE, encoding="utf-8")
    args = {"build": ["build", str(tmp_path / "a.txt"), "--store", str(tmp_path / "store"), "-p", "1"],
            "validate": ["validate", "--store", str(example_store)],
            "query": ["query", "allies", "--store", str(example_store)]}[command]
    env = {**os.environ, "KG_DATA": str(tmp_path), "KG_CACHE_DIR": ""}
    result = subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, env=env,
                            timeout=600, check=False)
    assert result.returncode == 78, result.stderr
    assert result.stderr.startswith(f"Error: {path}{message}"), result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr


def test_a_line_is_checked_for_its_fields_and_their_kinds(tmp_path):
    path = tmp_path / "rows.jsonl"
    fields = datafiles.Fields({"id": int, "name": str, "kind": Literal["country", "town"]},
                              {"keys": list[str], "lat": float})
    rows = [{"id": 1, "name": "Arsal", "kind": "town", "keys": ["arsal"], "lat": 34},
            {"id": 2, "name": "Lebanon", "kind": "country"}]
    path.write_text("# places\n\n" + "\n".join(json.dumps(r) for r in rows) + "\n")
    assert datafiles.jsonl(path, fields) == [(3, rows[0]), (4, rows[1])]
    for line, message in [
        ('{"id": true, "name": "x", "kind": "town"}', ":1: 'id' must be an integer, not true"),
        ('{"id": 1, "name": "x", "kind": "town", "keys": ["a", 2]}', ":1: 'keys' must be a list of strings, not"),
        ('{"id": 1, "kind": "town"}', ":1: the entry has no 'name'"),
        ('{"id": 1, "name": "x", "kind": "town", "lat": null}', ":1: 'lat' must be a number, not null"),
        ('"text"', ":1: not a JSON object but a string"),
        ("[" * 100_000, ":1: not JSON"),
        ("# only a comment", ": no entries in the file"),
    ]:
        path.write_text(line + "\n")
        with pytest.raises(DataError) as caught:
            datafiles.jsonl(path, fields)
        assert str(caught.value).startswith(f"{path}{message}"), caught.value
    path.write_text('{"id": 1, "name": "x", "kind": "town"}\n')
    with pytest.raises(DataError, match=r":1: a town needs keys$"):
        datafiles.jsonl(path, fields, check=lambda r: "a town needs keys" if "keys" not in r else None)


def test_text_toml_and_turtle_name_the_file_and_the_line(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"a = 1\nb = '\xe9'\n")
    with pytest.raises(DataError, match=rf"^{path}:2: not UTF-8 text \(byte 0xe9\)$"):
        datafiles.text(path)
    path.write_bytes(b" \n\n")
    with pytest.raises(DataError, match=rf"^{path}: the file is empty$"):
        datafiles.toml(path)
    with pytest.raises(DataError, match=rf"^{tmp_path / 'missing'}: cannot be read \(No such file or directory\)$"):
        datafiles.text(tmp_path / "missing")
    path.write_text("a = \n")
    with pytest.raises(DataError, match=rf"^{path}: not valid TOML \(.*line 1"):
        datafiles.toml(path)
    path.write_text("<http://a> <http://b> .\n")
    with pytest.raises(DataError, match=rf"^{path}: not valid Turtle \(.*line"):
        datafiles.turtle(path)
    path.write_text("<http://a> <http://b> <http://c> .\n")
    assert len(datafiles.turtle(path)) == 1


def test_an_empty_lexicon_is_an_error():
    from kg.extract.lexicon import LexiconError, parse_lexicon

    for text in ("", "# no rules yet\n"):
        with pytest.raises(LexiconError, match="^lexicon.toml: no rules"):
            parse_lexicon(text, "lexicon.toml")


def test_the_shipped_data_passes_every_check():
    """Every loader on kg's own data: what the checks refuse, kg's data never has."""
    from kg import ontology
    from kg.extract import gazetteer, geonames, lexicon, words
    from kg.graph import validation as shapes

    assert ontology.relations() and len(ontology.ontology_quads()) > 100
    assert len(geonames.load_places().by_id) > 9000
    assert words.load_words().place_heads and words.load_lemmas()["VERB"] and words.load_fixed_tags()
    assert gazetteer.load_hand_gazetteer().entries and gazetteer.governing_persons()
    assert gazetteer._merged_gazetteer().lookup("Daesh").id == "islamic-state"
    assert lexicon.load_lexicon().rules and lexicon.dictionary_verbs()
    assert len(shapes.shapes_graph()) > 50


@pytest.mark.slow  # a pool of worker processes
def test_a_worker_that_cannot_load_the_data_stops_the_build_with_its_error(tmp_path):
    """A pool worker whose start fails (here: the entity patterns spaCy loads, which the building
    process never reads) raises the error from its first task; the pool would otherwise start it
    again, forever."""
    for folder in ("ontology", "queries"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    _replace_line(tmp_path / "ontology" / "entity_patterns.jsonl", 2, "{")
    feed = tmp_path / "feed.jsonl"
    feed.write_text("".join(json.dumps({"id": f"d{i}", "text": f"{ARTICLE} ({i})"}) + "\n" for i in range(40)))
    env = {**os.environ, "KG_DATA": str(tmp_path), "KG_CACHE_DIR": ""}
    result = subprocess.run([sys.executable, "-m", "kg", "build", str(feed), "--store", str(tmp_path / "store"),
                             "-p", "2", "-q"], capture_output=True, text=True, env=env, timeout=600, check=False)
    assert result.returncode == 78, result.stderr
    assert result.stderr.startswith(f"Error: {tmp_path / 'ontology' / 'entity_patterns.jsonl'}:2:"), result.stderr
