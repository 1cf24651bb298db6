"""Time expressions of real sentences of other wars, read with the real model against a dated
document (and without one): the precision the text has, the document's date only as a marked
fallback, durations that date nothing."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def statements():
    """Run the whole extraction on a dated text; (type, trigger) -> the statement's time."""
    from kg.dates import parse_date
    from kg.extract.pipeline import extract_all
    from kg.ingest import make_document

    def run(text: str, date: str | None = "2019-04-08") -> dict[tuple[str, str], tuple]:
        document = make_document(text, name="t")
        if date is not None:
            from dataclasses import replace

            document = replace(document, date=parse_date(date))
        (extraction,) = extract_all([document])
        out = {}
        for e in extraction.events:
            t = e.time
            out[(e.type, e.trigger)] = (t.date.lexical, t.date.xsd, t.from_document) if t else None
        return out

    return run


# Monday 8 April 2019, the week the Libyan National Army moved on Tripoli
CASES = [
    ("Suicide bombers attacked a market in Maiduguri in November 2015, killing dozens.",
     ("Attack", "attacked"), ("2015-11", "gYearMonth", False)),
    ("Forces loyal to Haftar captured Gharyan last year.", ("Capture", "captured"), ("2018", "gYear", False)),
    ("Earlier this month, the Libyan National Army attacked Tripoli.", ("Attack", "attacked"), ("2019-04", "gYearMonth", False)),
    ("The Libyan National Army attacked Tripoli airport on Sunday.", ("Attack", "attacked"), ("2019-04-07", "date", False)),
    ("The Libyan National Army attacked Tripoli airport on Monday.", ("Attack", "attacked"), ("2019-04-08", "date", False)),
    ("The Libyan National Army attacked Tripoli airport last Monday.", ("Attack", "attacked"), ("2019-04-01", "date", False)),
    ("The Taliban seized Kunduz in 2015 and again in 2016.", ("Capture", "seized"), ("2015", "gYear", False)),
    ("Government troops began an offensive against the Taliban at the end of July.", ("Attack", "offensive"),
     ("2018-07", "gYearMonth", False)),
    ("The Houthis captured Sanaa after a six-year war.", ("Capture", "captured"), ("2019-04-08", "date", True)),
    ("Al-Shabaab attacked Mogadishu for years.", ("Attack", "attacked"), ("2019-04-08", "date", True)),
]


@pytest.mark.parametrize("text,key,want", CASES, ids=[c[0][:40] for c in CASES])
def test_times_against_a_dated_document(statements, text, key, want):
    found = statements(text)
    assert found.get(key) == want, found


def test_an_undated_text_counts_from_its_own_last_year(statements):
    text = ("The offensive on Sirte launched on 12 May 2016. On 16 May, GNA military forces recaptured Abu Grein "
            "from ISIL militants. On 19 May, an ISIL suicide bomber attacked GNA forces.")
    found = statements(text, date=None)
    assert found[("Capture", "recaptured")] == ("2016-05-16", "date", False)
    assert found[("Attack", "attacked")] == ("2016-05-19", "date", False)
    assert statements("GNA forces captured Sirte on 4 June.", date=None)[("Capture", "captured")] is None, \
        "no date and no year in the text: no time, not today's"


def test_a_span_of_months_dates_to_their_year(statements):
    found = statements("The Taliban fought for control of Kunduz from April to October 2015.", date=None)
    assert found[("Capture", "control")] == ("2015", "gYear", False)


def test_a_caption_date_inside_a_phrase_does_not_date_the_clause(statements):
    text = "A relative of soldiers, who were captured by Islamist militants reacts in Beirut, Lebanon August 27, 2017."
    found = statements(text, date="2017-08-28")
    assert all(v is None or v[2] for v in found.values()), found


@pytest.mark.parametrize("day", range(1, 8))
def test_a_bare_weekday_reads_as_dateparser_reads_it(day):
    """The weekdays read without dateparser give what dateparser gives, from every weekday's base,
    with a time of day or without."""
    from datetime import datetime

    from kg.extract import timex

    for base in (datetime(2019, 4, day), datetime(2019, 4, day, 23, 30)):
        for name in ("Monday", "tuesday", "WEDNESDAY", "Thursday", "Friday", "Saturday", "Sunday"):
            data = timex._parser(base, "past").get_date_data(name)
            assert timex._parse.__wrapped__(name, base, False, "past") == timex.ParsedDate(
                data.date_obj.date(), timex.DATE), (name, base)
