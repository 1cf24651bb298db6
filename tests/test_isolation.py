"""One document never costs the others: whatever its parse or extraction raises becomes that
document's one error line, and the rest of the batch is extracted and written (issue 35, item 1)."""

from __future__ import annotations

import json
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.dates import DATE, YEAR, ParsedDate
from kg.ingest import make_document

GOOD = "Hezbollah fighters captured the town of Arsal in Lebanon on Sunday."


@pytest.fixture(scope="module")
def extract_all():
    from kg.extract.pipeline import extract_all

    return extract_all


texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300)
days = st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31))
dates = st.one_of(st.none(), days.map(lambda d: ParsedDate(d, DATE)),
                  days.map(lambda d: ParsedDate(date(d.year, 1, 1), YEAR)))
words = st.lists(st.sampled_from(["On", "Sunday", "last", "Monday", "16", "May", "in", "2014", "the", "1992", "war",
                                  "captured", "Arsal", "Hezbollah", "attacked", "It", "was", "carried", "out", "by",
                                  "ETA", ".", ",", "\n", "yesterday", "since", "ago", "two", "days"]),
                 max_size=30).map(" ".join)


@settings(max_examples=500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=st.one_of(texts, words), when=dates, title=st.one_of(st.none(), texts))
def test_any_text_date_and_metadata_cost_only_their_own_document(extract_all, text, when, title):
    odd = make_document(text or ".", name="odd", date=when, title=title)
    good = make_document(GOOD, name="good", date=ParsedDate(date(2017, 8, 28), DATE))
    first, second = list(extract_all([odd, good]))
    assert first.document is odd and second.document is good
    assert first.error is None or (first.error.startswith("extraction failed") and "\n" not in first.error)
    assert second.error is None and ("hezbollah", "captured", "arsal") in {
        (a.subject, a.predicate, a.object) for a in second.assertions}


def test_a_document_whose_extraction_raises_is_one_error_and_the_others_are_written(tmp_path, monkeypatch):
    import kg
    from kg.extract import eventstatements as events

    real = events.events

    def events_that_fail_on_one_text(reading, document, rules=None):
        if "Kafr Nabl" in document.text:
            raise RuntimeError("a bug this text finds")
        return real(reading, document, rules)

    monkeypatch.setattr(events, "events", events_that_fail_on_one_text)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text(GOOD, encoding="utf-8")
    (folder / "b.txt").write_text("Rebels captured Kafr Nabl in Syria.", encoding="utf-8")
    problems = []
    report = kg.build([str(folder)], store=tmp_path / "store", on_problem=problems.append)
    assert report.added == 1 and len(report.problems) == 1
    assert str(problems[0]).endswith("b.txt: extraction failed (RuntimeError: a bug this text finds)")
    with kg.open_store(tmp_path / "store") as store:
        assert len(store.document_ids()) == 1


def test_a_document_of_year_one_that_says_on_sunday_is_built(tmp_path):
    """A weekday counted back from 1 January of year 1 is before any date Python holds: the
    build stores the document (the time is left unread) and its batch with it."""
    feed = tmp_path / "feed.jsonl"
    feed.write_text("\n".join(json.dumps(d) for d in (
        {"id": "old", "text": "On Sunday, Hezbollah captured Arsal.", "date": "0001-01-01"},
        {"id": "new", "text": GOOD, "date": "2017-08-28"})) + "\n", encoding="utf-8")
    from conftest import invoke_kg

    result = invoke_kg("build", str(feed), "--store", str(tmp_path / "store"), "-q")
    assert result.returncode == 0, result.stderr
    assert "built: 2 new documents" in result.stdout


def test_a_build_that_reads_nothing_leaves_no_empty_store_and_keeps_an_existing_one(tmp_path):
    import kg

    bad = tmp_path / "empty.txt"
    bad.write_text("", encoding="utf-8")
    report = kg.build([str(bad)], store=tmp_path / "new")
    assert report.added == 0 and len(report.problems) == 1 and not (tmp_path / "new").exists()
    good = tmp_path / "good.txt"
    good.write_text(GOOD, encoding="utf-8")
    assert kg.build([str(good)], store=tmp_path / "kept").added == 1
    assert kg.build([str(bad)], store=tmp_path / "kept").added == 0
    with kg.open_store(tmp_path / "kept") as store:
        assert len(store.document_ids()) == 1
