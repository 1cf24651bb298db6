"""The spaCy pipeline kg builds (kg/extract/nlp.py): its registered components, and texts longer
than the model's max_length parsed in pieces with every offset kept."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES


def test_the_custom_components_are_in_the_pipeline_in_order():
    from kg.extract.nlp import load

    names = load().pipe_names
    ours = ["kg_paragraphs", "kg_dateline", "kg_names", "kg_merge_names"]
    assert names[:4] == ours and names.index("kg_lemmas") == names.index("attribute_ruler") + 1
    assert names.index("kg_fronted_names") == names.index("parser") + 1
    assert names.index("kg_possessive_names") > names.index("ner")  # it reads the entities
    assert load().get_pipe_config("kg_dateline")["max_tokens"] == 12


def test_the_lemma_exceptions_reach_every_stage():
    from kg.extract.nlp import load

    doc = load()("Government forces retook the town and overran two villages.")
    assert {t.text: t.lemma_ for t in doc if t.tag_.startswith("VB")} == {"retook": "retake", "overran": "overrun"}


@pytest.fixture
def small_max_length():
    """The model's max_length lowered, so that an article of the examples' size is "too long"."""
    from kg.extract import nlp

    model = nlp.load()
    saved = model.max_length
    model.max_length = 2000
    yield
    model.max_length = saved


def test_a_text_longer_than_max_length_is_parsed_in_pieces_with_offsets_kept(small_max_length):
    from kg.extract import nlp
    from kg.extract.pipeline import extract_all
    from kg.ingest import make_document

    from kg.ingest import split_front_matter

    text = "\n\n".join(split_front_matter(p.read_text(encoding="utf-8"))[1] for p in sorted(EXAMPLES.glob("*.txt")))
    assert len(text) > 2 * 2000
    (doc,) = nlp.parse([text])
    assert doc.text == text and len(list(doc.sents)) > 20
    (extraction,) = extract_all([make_document(text, name="long")])
    facts = {(a.subject, a.predicate, a.object) for a in extraction.assertions}
    assert ("islamic-state", "captured", "arsal") in facts and ("hezbollah", "allyOf", "islamic-state") not in facts
    for a in extraction.assertions:
        assert text[a.start_char:a.end_char].strip() == a.evidence
    short = extract_all([make_document("Houthi fighters captured Hodeidah.", name="short")])
    assert next(short).assertions


def test_pieces_cut_at_paragraph_breaks_and_join_back():
    from kg.extract.nlp import pieces

    text = ("word " * 30 + "\n\n") * 10
    parts = pieces(text, 200)
    assert "".join(parts) == text and all(len(p) <= 200 for p in parts)
    assert all(p.endswith("\n\n") for p in parts[:-1])


def test_the_first_results_reach_the_store_in_a_small_batch(tmp_path):
    """The first write takes FIRST_WRITE documents, not a full WRITE_BATCH: the first results
    reach the store as they come, and the rest follow in later writes until every document is
    written."""
    import kg
    from kg.builder import FIRST_WRITE, WRITE_BATCH

    folder = tmp_path / "articles"
    folder.mkdir()
    towns = ["Kafr Nabl", "Maarat al-Numan", "Saraqib", "Ariha", "Jisr al-Shughur", "Khan Shaykhun"]
    for i in range(40):
        (folder / f"{i:02}.txt").write_text(
            f"Report {i}. Rebels shelled {towns[i % len(towns)]} on day {i} of the offensive, residents said.\n",
            encoding="utf-8")
    written: list[int] = []
    report = kg.build([str(folder)], store=tmp_path / "store", n_process=1, on_write=written.append)
    assert report.added == 40 and FIRST_WRITE < 40 < WRITE_BATCH
    assert written[0] == FIRST_WRITE and written[-1] == 40
    sizes = [b - a for a, b in zip([0, *written], written)]
    assert all(size > 0 for size in sizes) and len(written) >= 2


def test_a_store_write_holds_no_more_than_write_bytes_of_graphs(tmp_path, monkeypatch):
    """However long the documents, a write's batch stops growing at WRITE_BYTES of N-Quads: memory
    holds a bounded batch (here each document's graph is over the limit: one document a write)."""
    import kg
    from kg import builder

    folder = tmp_path / "articles"
    folder.mkdir()
    for i in range(5):
        (folder / f"{i}.txt").write_text(f"Report {i}. Rebels shelled Saraqib on day {i}, residents said.\n",
                                         encoding="utf-8")
    monkeypatch.setattr(builder, "WRITE_BYTES", 1)
    written: list[int] = []
    report = kg.build([str(folder)], store=tmp_path / "store", n_process=1, on_write=written.append)
    assert report.added == 5 and written == [1, 2, 3, 4, 5]
    rows = kg.query("statistics", store=tmp_path / "store").rows
    assert ("documents", 5) in [(str(what), int(count)) for what, count in rows]


@pytest.mark.slow
def test_a_parse_left_early_ends_its_worker_processes():
    """A reader that stops early (its next step failed, as a rule did in `kg train -p 2`) closes
    the parse, and the parser's worker processes end: spaCy's clean-up joins them, which hung
    while a worker was still sending a batch nobody would read."""
    import multiprocessing

    from kg.extract import nlp

    texts = [f"Talks on the {n}th ceasefire began in Geneva on Monday, and the envoys of both sides said they"
             " would meet again in Vienna before the end of the month to sign it." for n in range(2000)]
    before = set(multiprocessing.active_children())
    parsed = nlp.parse(texts, n_process=2, batch_size=4)
    first = next(parsed)
    assert "Geneva" in first.text
    parsed.close()
    assert not set(multiprocessing.active_children()) - before


def test_a_hyphen_after_an_abbreviation_splits_before_a_capital_only():
    from kg.extract.nlp import load

    words = [t.text for t in load().tokenizer("the U.S.-led coalition and the U.S.-Kenya partnership")]
    assert "U.S.-led" in words and words[-4:] == ["U.S.", "-", "Kenya", "partnership"], words
