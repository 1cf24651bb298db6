"""Extraction quality on the example articles, judged by the reference scorer against our copy of the gold."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, SHARED_EVAL

GOLD = ROOT / "tests" / "data" / "gold" / "seeds"
DOCS = "000_b6bbe98ba01c18c3,001_ded2ed7496c25a53"


@pytest.mark.skipif(not (SHARED_EVAL / "score.py").exists(), reason="reference scorer not beside the checkout")
def test_reference_scorer_on_the_examples(example_store, tmp_path):
    import kg

    out = tmp_path / "kg.ttl"
    kg.export("turtle", out, store=example_store)
    result = subprocess.run([sys.executable, str(SHARED_EVAL / "score.py"), str(out), str(GOLD), f"--docs={DOCS}", "--json"],
                            capture_output=True, text=True, check=True)
    report = json.loads(result.stdout[: result.stdout.rindex("}") + 1])
    assert report["f1"] >= 0.95, report
    assert report["forbidden_hits"] == []
    assert report["provenance_coverage"] == 1.0
    ok, total = map(int, report["doc_coverage"].split("/"))
    assert ok == total
    assert report["entity_splits"] == {} and report["ambiguous_nodes"] == []


def test_gold_copy_matches_the_shared_gold():
    if not (SHARED_EVAL / "seeds").exists():
        pytest.skip("shared gold not beside the checkout")
    for name in ("entities.tsv", "relations.tsv"):
        assert (GOLD / name).read_text() == (SHARED_EVAL / "seeds" / name).read_text()
