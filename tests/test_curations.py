"""Curations (kg curate): each action changes the graph users query and export, the machine's
reading stays beside it, taking one back restores that reading, and they outlive removals and
rebuilds. On two short articles of our own, with the real pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import copy_store

NORTH = """Fighters of the Northern Brigade attacked Kafr Nabl on Monday, residents said.

The Northern Brigade has been an ally of Hezbollah since 2015.

Daesh fighters captured Tabqa after a week of fighting.
"""
SOUTH = """The Southern Brigade attacked Daraa on Tuesday.

Islamic State captured Palmyra in May.
"""


@pytest.fixture(scope="module")
def articles(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("curation-articles")
    (folder / "north.txt").write_text(NORTH, encoding="utf-8")
    (folder / "south.txt").write_text(SOUTH, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def built(articles, tmp_path_factory) -> Path:
    import kg

    path = tmp_path_factory.mktemp("curation-stores") / "store"
    report = kg.build([str(articles)], store=path, n_process=1)
    assert report.added == 2 and not report.problems
    return path


@pytest.fixture
def store(built, tmp_path) -> Path:
    return copy_store(built, tmp_path / "store")


@pytest.fixture(autouse=True)
def curator(monkeypatch):
    monkeypatch.setenv("KG_CURATOR", "Test Analyst")


def rows(query: str, store: Path, **params) -> set[tuple]:
    import kg

    return set(kg.query(query, store=store, params=params or None).rows)


def records(query: str, store: Path, **params) -> list[dict]:
    import kg

    result = kg.query(query, store=store, params=params or None)
    return [dict(zip(result.variables, row)) for row in result.rows]


def derived(store: Path) -> list[str]:
    """The entity and event graphs, sorted N-Quads: what curations change."""
    import kg

    with kg.open_store(store) as s:
        return sorted(str(q) for g in ("entities", "events")
                      for q in s.quads(__import__("pyoxigraph").NamedNode(f"https://w3id.org/kg/graph/{g}")))


def test_merge_makes_one_node_with_the_facts_and_events_of_both(store):
    import kg
    from kg.errors import UsageError

    before = derived(store)
    assert ("Southern Brigade", "Daraa", "1") in rows("attacks", store)
    curation, new = kg.curate("merge", "Southern Brigade", "northern brigade", reason="one brigade", store=store)
    assert new and curation.describe() == "merge Southern Brigade into Northern Brigade"
    assert rows("attacks", store) == {("Northern Brigade", "Daraa", "1"), ("Northern Brigade", "Kafr Nabl", "1")}
    graph = kg.to_networkx(store=store)
    assert "Southern Brigade" not in {d["label"] for _, d in graph.nodes(data=True)}
    attackers = {r["agents"] for r in records("events", store) if r["type"] == "Attack"}
    assert attackers == {"Northern Brigade"}
    # the merged name finds the node, and the evidence shows the sentence as read, and the curation
    assert ("Southern Brigade", "Northern Brigade", "->", "attacked", "Daraa") in rows("entity", store, name="Southern Brigade")
    evidence = records("evidence", store, name="Northern Brigade", rel="attacked")
    daraa = [r for r in evidence if r["object"] == "Daraa"]
    assert daraa and daraa[0]["sentence"] == "The Southern Brigade attacked Daraa on Tuesday."
    assert daraa[0]["curation"] == curation.describe() and daraa[0]["curated_by"] == "Test Analyst: one brigade"
    # made again, it is the same curation; taken back, the machine's reading returns exactly
    with pytest.raises(UsageError, match="one entity already"):  # the name now names the one node
        kg.curate("merge", "Southern Brigade", "Northern Brigade", reason="again", store=store)
    assert kg.uncurate(store=store).id == curation.id
    assert derived(store) == before


def test_split_gives_the_documents_that_use_only_that_name_their_own_entity(store):
    import kg

    assert rows("captures", store) == {("Islamic State", "Palmyra", "1"), ("Islamic State", "Tabqa", "1")}
    kg.curate("split", "Islamic State", "Daesh", reason="a local cell, not the state", store=store)
    assert rows("captures", store) == {("Islamic State", "Palmyra", "1"), ("Daesh", "Tabqa", "1")}
    captors = {(r["agents"], r["patients"]) for r in records("events", store) if r["type"] == "Capture"}
    assert captors == {("Islamic State", "Palmyra"), ("Daesh", "Tabqa")}
    assert {r["sentence"] for r in records("evidence", store, name="Daesh")} == {
        "Daesh fighters captured Tabqa after a week of fighting."}
    assert {r["object"] for r in records("evidence", store, name="Islamic State")} == {"Palmyra"}


def test_alias_retype_and_reject(store):
    import kg

    kg.curate("alias", "Northern Brigade", "Liwa al-Shamal", reason="its Arabic name", store=store)
    assert rows("entity", store, name="liwa al-shamal")
    kg.curate("retype", "Kafr Nabl", "Region", reason="a district here", store=store)
    types = {d["label"]: d["type"] for _, d in kg.to_networkx(store=store).nodes(data=True)}
    assert types["Kafr Nabl"] == "Region"
    kg.curate("reject", "Hezbollah", reason="named in passing", store=store)
    assert not rows("allies", store)
    assert "Hezbollah" not in types or "Hezbollah" not in {d["label"] for _, d in kg.to_networkx(store=store).nodes(data=True)}
    # the machine's reading of the rejected entity's fact stays, with the curation beside it
    evidence = records("evidence", store, rel="allyOf")
    assert evidence and evidence[0]["subject"] == "Hezbollah" and evidence[0]["curation"] == "reject Hezbollah"
    kg.curate("reject", "Northern Brigade", "Kafr Nabl", relation="attacked", reason="misread", store=store)
    assert rows("attacks", store) == {("Southern Brigade", "Daraa", "1")}
    assert ("Northern Brigade", "Kafr Nabl") not in {(s, o) for s, o, _ in rows("attacks", store)}
    # two curations of one entity: each sentence still once, with the one about its fact
    evidence = records("evidence", store, name="Northern Brigade")
    assert sorted((r["subject"], r["object"], r["curation"]) for r in evidence) == [
        ("Hezbollah", "Northern Brigade", "reject Hezbollah"),
        ("Northern Brigade", "Kafr Nabl", "reject Northern Brigade attacked Kafr Nabl")]


def test_a_curated_graph_conforms_to_the_shapes(store):
    """A merged, split or rejected entity leaves the entity graph and its label with it, while the
    documents' graphs keep the machine's mention of it: the graph still conforms."""
    import kg

    kg.curate("merge", "Southern Brigade", "Northern Brigade", reason="one brigade", store=store)
    kg.curate("split", "Islamic State", "Daesh", reason="a local cell", store=store)
    kg.curate("reject", "Hezbollah", reason="named in passing", store=store)
    report = kg.validate(store=store)
    assert report.conforms, report.violations


def test_curations_outlive_a_removal_and_a_rebuild(store, articles):
    import kg

    kg.curate("merge", "Southern Brigade", "Northern Brigade", reason="one brigade", store=store)
    kg.remove(["south"], store=store)
    listed = kg.curations(store=store)
    assert len(listed) == 1 and "no document mentions" in listed[0].stale  # reported, not dropped
    kg.build([str(articles)], store=store, n_process=1)
    assert [item.stale for item in kg.curations(store=store)] == [None]
    assert rows("attacks", store) == {("Northern Brigade", "Daraa", "1"), ("Northern Brigade", "Kafr Nabl", "1")}


def test_a_fresh_build_of_the_same_texts_takes_the_exported_curations(store, articles, tmp_path):
    import kg

    kg.curate("merge", "Southern Brigade", "Northern Brigade", reason="one brigade", store=store)
    kg.curate("split", "Islamic State", "Daesh", reason="a local cell", store=store)
    exported = tmp_path / "curations.jsonl"
    exported.write_text(kg.export_curations(store=store), encoding="utf-8")
    lines = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    assert [line["action"] for line in lines] == ["merge", "split"] and lines[0]["who"] == "Test Analyst"
    fresh = tmp_path / "fresh"
    kg.build([str(articles)], store=fresh, n_process=1)
    assert kg.import_curations(exported, store=fresh) == (2, 0)
    assert kg.import_curations(exported, store=fresh) == (0, 2)
    assert derived(fresh) == derived(store)


def test_the_curation_graph_says_who_when_and_why_in_prov(store):
    import kg

    kg.curate("retype", "Kafr Nabl", "Region", reason="a district", store=store)
    answer = records("""PREFIX prov: <http://www.w3.org/ns/prov#>
        SELECT ?who ?when ?why WHERE { GRAPH <https://w3id.org/kg/graph/curations> {
          ?c a kg:Curation ; prov:wasAttributedTo/rdfs:label ?who ; prov:generatedAtTime ?when ; rdfs:comment ?why } }""",
                     store)
    assert len(answer) == 1 and answer[0]["who"] == "Test Analyst" and answer[0]["why"] == "a district"
    assert answer[0]["when"].startswith("20")


def test_cli_curate_list_undo_and_errors(store, tmp_path):
    from kg.cli import cli

    runner = CliRunner()
    result = runner.invoke(cli, ["curate", "merge", "Southern Brigade", "Northern Brigade", "--why", "one", "--store", str(store)])
    assert result.exit_code == 0 and result.output.startswith("curated: ")
    listed = runner.invoke(cli, ["curate", "list", "--store", str(store)])
    assert "merge Southern Brigade into Northern Brigade  (Test Analyst, " in listed.output and "(1 curation)" in listed.output
    undone = runner.invoke(cli, ["curate", "undo", "--store", str(store)])
    assert undone.exit_code == 0 and "taken back" in undone.output
    no_reason = runner.invoke(cli, ["curate", "alias", "Daraa", "Deraa", "--store", str(store)])
    assert no_reason.exit_code == 2 and "--why" in no_reason.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"action": "merge", "entity": "https://w3id.org/kg/id/entity/x"}\n', encoding="utf-8")
    import kg
    from kg.errors import InputError

    with pytest.raises(InputError, match=r"bad.jsonl, line 1: not a curation \(a merge needs 'target'\)"):
        kg.import_curations(bad, store=store)
    assert kg.curations(store=store) == []
    # last: the runner keeps the error's traceback, which holds the store open
    missing = runner.invoke(cli, ["curate", "merge", "Nobody", "Northern Brigade", "--why", "x", "--store", str(store)])
    assert missing.exit_code == 2 and "no entity is named 'Nobody'" in missing.stderr
