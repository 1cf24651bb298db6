"""The benchmark harness runs as the README says and reports every figure (on a tiny corpus: the
targets themselves are measured by `python bench/scale.py` on 10,000 articles, not in tests)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.mark.slow  # the benchmark harness
def test_the_benchmark_runs_end_to_end_and_reports_every_figure(tmp_path):
    result = subprocess.run(
        [sys.executable, "bench/scale.py", "--articles", "30", "--sample", "12", "--triples", "2000",
         "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    sys.path.insert(0, str(ROOT / "bench"))
    from scale import TARGETS

    figures = json.loads((tmp_path / "results.json").read_text())
    assert set(TARGETS) <= set(figures), set(TARGETS) - set(figures)
    assert figures["raw_1p"]["docs"] == 12 and figures["build_1p"]["added"] == 12
    assert figures["build_default"]["processes"] == 1, "12 articles are extracted without a pool"
    assert figures["rebuild_full"]["added"] == 0 and figures["rebuild_full"]["skipped"] == 30
    assert figures["rebuild_imports_spacy"] == 0
    assert figures["build_full"]["entities"] > figures["build_part"]["entities"] > 0
    store = figures["store"]
    assert store["exported"] >= store["triples"] > 2000, "the export writes the whole graph"
    from kg.graph.sparql import named_queries

    for side in ("local", "remote"):
        assert set(store[f"{side}_queries_s"]) == set(named_queries()), "every ready query, on both stores"
        assert store[f"{side}_vs_allies"]["allies"] == 1.0
        refresh = store[f"refresh_{side}"]
        assert 0 < refresh["touched"] < refresh["entities"]
        assert 0 < refresh["touched_quads"] < refresh["quads"], "per quad: what the refreshed entities are the subject of"
    table = (tmp_path / "table.md").read_text()
    assert all(f"| {key} |" in table for key in TARGETS) and table in result.stdout
    assert all(f"| {name} |" in table for name in named_queries()), "each query has its row"
    assert (tmp_path / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
