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
         "--out", str(tmp_path)], check=False, cwd=ROOT, capture_output=True, text=True, timeout=900)
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
    _assert_where_the_time_goes(figures, table)


def _assert_where_the_time_goes(figures: dict, table: str) -> None:
    """The serial fraction, the first write, the writing's CPU and the Amdahl projection: present
    and within their ranges (never how fast: that is the machine's)."""
    for key in ("serial_fraction", "serial_fraction_sample"):
        assert 0 <= figures[key] <= 1, key
    build = figures["build_2p"]
    timeline = build["timeline"]
    assert build["processes"] == 2 and timeline["writes"] >= 1
    assert 0 < timeline["first_result_s"] <= timeline["last_result_s"] <= build["seconds"]
    assert timeline["first_result_s"] <= timeline["first_write_s"] <= build["seconds"]
    assert 0 < timeline["first_write_docs"] <= 12 and figures["first_write_batches"] == timeline["first_write_docs"] / 16
    assert 0 < timeline["writer_cpu_s"] <= timeline["process_cpu_s"]
    assert figures["writer_cpu_per_1000"] > 0 and timeline["workers_cpu_s"] > 0
    assert figures["worker_cpu_per_word_vs_raw"] >= 0
    projected = figures["amdahl"]["projected"]
    assert set(projected) == {"2", "16", "64"}, "at the cores measured and the two projected (JSON keys)"
    for n in ("16", "64"):
        assert figures[f"projected_{n}_vs_raw"] == projected[n]["vs_raw"] > 0
        assert projected[n]["words_per_s"] > 0 and projected[n]["raw_words_per_s"] > 0
        assert projected[n]["overlapped_vs_raw"] >= projected[n]["vs_raw"], "the writing beside the workers is no slower"
    assert figures["amdahl_full"] is None or figures["amdahl_full"]["projected"]["16"]["vs_raw"] > 0
    assert "Amdahl, kg / raw spaCy: at 2 cores" in table and "first batch to the store at" in table
