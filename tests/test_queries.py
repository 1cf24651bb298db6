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
    assert sorted(_as_expected(got[1:], want)) == sorted(want[1:])


PROBABILITY = "<probability>"  # a cell of an expected answer: the relation model's, which each retraining moves


def _as_expected(rows: list[list[str]], want: list[list[str]]) -> list[list[str]]:
    """``rows`` with each cell that the expected answer's column gives as PROBABILITY replaced by it,
    where the cell is a probability: what the model judges is kept, not the figure it gives."""
    columns = {i for row in want[1:] for i, cell in enumerate(row) if cell == PROBABILITY}
    return [[PROBABILITY if i in columns and 0.0 <= float(cell) <= 1.0 else cell for i, cell in enumerate(row)]
            for row in rows]


def test_optional_parameters_narrow_the_evidence(example_store):
    import kg

    everything = kg.query("evidence", store=example_store).rows
    captured = kg.query("evidence", store=example_store, params={"rel": "captured"}).rows
    named = kg.query("evidence", store=example_store, params={"name": "Daesh"}).rows
    assert len(everything) > len(captured) > 0 and all(r[3] == "captured" for r in captured)
    assert 0 < len(named) < len(everything)
    assert all("Islamic State" in (r[2], r[4]) for r in named), "an alias names the entity"


def test_the_events_export_as_one_flat_row_each(example_store, tmp_path):
    """`kg export --format events-csv / events-json`: one row per event that a CSV or JSON reader
    takes as it is (pandas.read_csv / read_json with no arguments): numbers as numbers."""
    import json

    from click.testing import CliRunner

    from kg.cli import cli

    runner = CliRunner()
    result = runner.invoke(cli, ["export", "--store", str(example_store), "--format", "events-csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert len(rows) == 9 and rows[0].keys() >= {"event", "type", "time", "agents", "latitude", "evidence"}
    evacuation = next(r for r in rows if r["type"] == "Evacuation")
    assert (evacuation["place"], evacuation["country"], evacuation["geonames_id"]) == ("Al-Bukamal", "Syria", "174448")
    assert evacuation["agent_iris"] == "https://w3id.org/kg/id/entity/hezbollah; https://w3id.org/kg/id/entity/syria-armed-forces"
    out = tmp_path / "events.json"
    result = runner.invoke(cli, ["export", "--store", str(example_store), "--format", "events-json", "-o", str(out)])
    assert result.exit_code == 0 and "wrote 9 events" in result.output
    records = json.loads(out.read_text(encoding="utf-8"))
    capture = next(r for r in records if r["type"] == "Capture" and r["patients"] == "Lebanese soldiers")
    assert capture["latitude"] == 34.17944 and capture["sources"] == 2 and capture["reported"] is False
    assert capture["place"] == "Arsal" and capture["precision"] == "gYear"


def test_an_empty_answer_about_an_entity_says_why(example_store):
    from click.testing import CliRunner

    from kg.cli import cli

    def run(name):
        result = CliRunner().invoke(cli, ["query", "timeline", "--store", str(example_store), "--param", f"name={name}"])
        assert result.exit_code == 0, result.output
        return result.stderr

    assert run("Reuters") == "Note: Reuters takes part in no event of the graph\n"
    assert run("Nobody") == "Note: no entity is named 'Nobody' (kg info --entities N lists the most mentioned ones)\n"
    assert run("hezbollah") == ""


def test_info_lists_the_documents_kg_remove_takes(example_store):
    import kg

    listed = kg.info(store=example_store, documents=True)["document_list"]
    assert [(d["name"], d["date"], d["source"]) for d in listed] == [
        ("000_b6bbe98ba01c18c3", "2017-08-28", "Reuters"), ("001_ded2ed7496c25a53", "2017-08-28", "Reuters")]
    assert all(len(d["hash"]) == 64 and d["assertions"] > 10 and d["event_statements"] > 0 for d in listed)
    assert sum(d["assertions"] for d in listed) == kg.info(store=example_store)["assertions"]


def test_the_event_table_loads_in_pandas_and_agrees_with_the_events_query(example_store, tmp_path):
    """`kg export --format events-csv` as its users read it (pandas.read_csv, no arguments):
    one row per event of `kg query events`, with the same type, time, agents, patients and
    number of sources; the coordinates are numbers."""
    import kg

    pandas = pytest.importorskip("pandas")
    out = tmp_path / "events.csv"
    kg.export("events-csv", out, store=example_store)
    table = pandas.read_csv(out)
    assert table["latitude"].dtype.kind == "f" and table["sources"].dtype.kind == "i"
    events = kg.query("events", store=example_store)
    want = {}
    for row in events.rows:
        r = dict(zip(events.variables, row))
        want[r["event"]] = (r["type"], r["time"].removesuffix(" (reported)") if r["time"] else None,
                            r["agents"] or None, r["patients"] or None, int(r["sources"]))

    def names(value) -> str | None:
        return None if pandas.isna(value) else ", ".join(value.split("; "))

    got = {r.event: (r.type, None if pandas.isna(r.time) else str(r.time), names(r.agents), names(r.patients),
                     int(r.sources)) for r in table.itertuples()}
    assert got == want


def test_an_answer_is_parsed_once_and_only_for_what_is_asked(example_store, monkeypatch):
    """A local answer crosses from the engine as TSV and is parsed only for what is asked of it: by
    pyoxigraph's writer for CSV (what `kg query --format csv` does: one parse), for the rows of a
    table or a script (once, then kept); whether it is empty needs no parse."""
    import pyoxigraph as ox

    import kg
    from kg.graph import sparql

    calls = []
    real = ox.parse_query_results
    monkeypatch.setattr(ox, "parse_query_results", lambda *a, **k: calls.append(1) or real(*a, **k))
    result = kg.query("allies", store=example_store)
    assert not result.empty and calls == []
    sparql.format_result(result, "csv")
    assert len(calls) == 1
    assert len(result.rows) == 3 and len(result.rows) == 3 and len(calls) == 2  # the rows: once more, then kept
    empty = kg.query("SELECT ?x WHERE { ?x a <http://example.org/Nothing> }", store=example_store)
    assert empty.empty and empty.rows == ()
