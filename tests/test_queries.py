"""Each ready query in queries/ against its expected answer on the example articles
(tests/data/queries/NAME.csv), so that a faster rewrite of a query cannot change what it says."""

from __future__ import annotations

import csv
import io

import pytest

from conftest import ROOT

EXPECTED = ROOT / "tests" / "data" / "queries"
PARAMS = {"entity": {"name": "Hezbollah"}, "evidence": {"rel": "captured", "name": "Arsal"}, "timeline": {"name": "Arsal"}}


def test_every_ready_query_has_an_expected_answer():
    from kg.graph.sparql import named_queries

    assert sorted(named_queries()) == sorted(p.stem for p in EXPECTED.glob("*.csv"))


@pytest.mark.parametrize("name", sorted(p.stem for p in EXPECTED.glob("*.csv")))
def test_ready_query_gives_its_expected_answer(name, example_store):
    import kg
    from kg.graph.sparql import format_result

    result = kg.query(name, store=example_store, params=PARAMS.get(name))
    got = list(csv.reader(io.StringIO(format_result(result, "csv"))))
    want = list(csv.reader((EXPECTED / f"{name}.csv").open(encoding="utf-8")))
    assert got[0] == want[0], "the columns"
    assert sorted(got[1:]) == sorted(want[1:])


def test_optional_parameters_narrow_the_evidence(example_store):
    import kg

    everything = kg.query("evidence", store=example_store).rows
    captured = kg.query("evidence", store=example_store, params={"rel": "captured"}).rows
    named = kg.query("evidence", store=example_store, params={"name": "Daesh"}).rows
    assert len(everything) > len(captured) > 0 and all(r[3] == "captured" for r in captured)
    assert 0 < len(named) < len(everything)
    assert all("Islamic State" in (r[2], r[4]) for r in named), "an alias names the entity"
