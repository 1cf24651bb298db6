"""Reading articles: identity by content, metadata, and one clear problem per bad input."""

from __future__ import annotations

from kg.ingest import iter_inputs
from kg.records import Document, InputProblem


def test_same_text_is_the_same_document(tmp_path):
    (tmp_path / "a.txt").write_text("Houthi fighters captured Hodeidah.\n")
    (tmp_path / "b.txt").write_text("\ufeffHouthi fighters captured Hodeidah.\r\n")
    a, b = iter_inputs([str(tmp_path / "a.txt"), str(tmp_path / "b.txt")])
    assert isinstance(a, Document) and a.id == b.id and a.name == "a"


def test_markdown_title_and_jsonl_metadata(tmp_path):
    (tmp_path / "x.md").write_text("# Fighting in Sirte\n\nThe **LNA** attacked [Sirte](http://x).\n")
    (tmp_path / "y.jsonl").write_text('{"text": "Body one.", "id": "one", "date": "2020-01-02"}\n\n{"text": "Body two."}\n')
    md, one, two = iter_inputs([str(tmp_path)])
    assert md.title == "Fighting in Sirte" and "The LNA attacked Sirte." in md.text
    assert (one.name, one.date, one.text) == ("one", "2020-01-02", "Body one.")
    assert two.name == "y-3"


def test_problems_name_the_file_and_line(tmp_path):
    (tmp_path / "z.jsonl").write_text('[1, 2]\n{"text": ""}\n')
    problems = list(iter_inputs([str(tmp_path / "z.jsonl"), str(tmp_path)]))
    assert all(isinstance(p, InputProblem) for p in problems)
    assert [str(p) for p in problems[:2]] == [f"{tmp_path / 'z.jsonl'}:1: not a JSON object",
                                              f'{tmp_path / "z.jsonl"}:2: no "text" field with the article text']
