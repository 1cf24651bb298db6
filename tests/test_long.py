"""A long article is read a group of paragraphs at a time (kg/extract/pipeline.py ``in_pieces``):
its facts and events are those of its pieces, at their offsets in the whole text, and its
entities one per key (issue 35, item 2; bench/long.py measures the time and memory)."""

from __future__ import annotations

from kg.dates import parse_date
from kg.ingest import make_document

PARAGRAPHS = [
    "Hezbollah fighters captured the town of Arsal in Lebanon on Sunday.",
    "The Syrian army shelled Douma and Harasta on Monday.",
    "Al-Shabaab claimed responsibility for the attack on a hotel in Mogadishu.",
    "Hezbollah fighters also captured the town of Qusayr in Syria.",
]


def test_a_long_article_is_its_pieces_at_their_offsets(monkeypatch):
    from kg.extract import pipeline

    text = "\n\n".join(PARAGRAPHS)
    (whole,) = pipeline.extract_all([make_document(text, name="whole", date=parse_date("2021-05-03"))])
    monkeypatch.setattr(pipeline, "LONG", 80)  # every paragraph a piece of its own
    (long,) = pipeline.extract_all([make_document(text, name="long", date=parse_date("2021-05-03"))])
    assert long.error is None and long.document.text == text

    def facts(x):
        return {(a.subject, a.predicate, a.object, a.start_char, a.end_char) for a in x.assertions}

    assert facts(long) == facts(whole) and len(facts(long)) >= 4
    for a in long.assertions:  # each fact's offsets are its sentence in the whole text
        assert text[a.start_char:a.end_char].strip() == a.evidence
    for e in long.events:
        assert text[e.trigger_start:e.trigger_end] == e.trigger and text[e.start_char:e.end_char].strip() == e.evidence
    assert [(e.type, e.trigger_start) for e in long.events] == [(e.type, e.trigger_start) for e in whole.events]
    keys = [e.key for e in long.entities]
    assert len(keys) == len(set(keys)) and "hezbollah" in keys
    assert set(keys) == {e.key for e in whole.entities}
