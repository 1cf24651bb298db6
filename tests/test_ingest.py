"""Reading articles: identity by content, metadata and dates, HTML without its page furniture,
and one clear problem per bad input, in a folder as when named directly."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.dates import DateError, parse_date, parse_user_date
from kg.errors import UsageError
from kg.ingest import content_hash, html_article, iter_inputs, normalize_text
from kg.records import Document, InputProblem
from conftest import EXAMPLES, ROOT
from test_cli import run_kg

SEEDS = ROOT.parent / "shared" / "corpus" / "seeds"


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
    assert (one.name, one.date.lexical, one.date.xsd, one.text) == ("one", "2020-01-02", "date", "Body one.")
    assert two.name == "y-3" and two.date is None


def test_problems_name_the_file_and_line(tmp_path):
    (tmp_path / "z.jsonl").write_text('[1, 2]\n{"text": ""}\n')
    problems = list(iter_inputs([str(tmp_path / "z.jsonl"), str(tmp_path)]))
    assert all(isinstance(p, InputProblem) for p in problems)
    assert [str(p) for p in problems[:2]] == [f"{tmp_path / 'z.jsonl'}:1: not a JSON object",
                                              f'{tmp_path / "z.jsonl"}:2: no "text" field with the article text']


# ---------------------------------------------------------------- dates


@pytest.mark.parametrize(("text", "lexical", "xsd"), [
    ("28 August 2017", "2017-08-28", "date"),
    ("Aug. 28, 2017", "2017-08-28", "date"),
    ("Monday, 28 August 2017", "2017-08-28", "date"),
    ("08/28/2017", "2017-08-28", "date"),
    ("28/08/2017", "2017-08-28", "date"),
    ("2017-08-28", "2017-08-28", "date"),
    ("2017-08-28T10:00Z", "2017-08-28T10:00:00Z", "dateTime"),
    ("2017-08-28T10:00:00+00:00", "2017-08-28T10:00:00Z", "dateTime"),
    ("2017-08-28T10:00:00.250+03:00", "2017-08-28T10:00:00.25+03:00", "dateTime"),
    ("2017-08-28 10:00", "2017-08-28T10:00:00", "dateTime"),
    ("Mon, 28 Aug 2017 10:00:00 GMT", "2017-08-28T10:00:00Z", "dateTime"),
    ("August 2017", "2017-08", "gYearMonth"),
    ("2017-08", "2017-08", "gYearMonth"),
    ("2017", "2017", "gYear"),
])
def test_news_dates_are_read_with_their_precision(text, lexical, xsd):
    date = parse_date(text)
    assert (date.lexical, date.xsd) == (lexical, xsd)


@pytest.mark.parametrize(("text", "why"), [
    ("03/04/2017", "ambiguous (3 April or 4 March?)"),
    ("Monday", "not a readable date with a year"),
    ("28 August", "not a readable date with a year"),
    ("yesterday", "not a readable date with a year"),
    ("1503914400", "not a readable date with a year"),
    ("2017-02-30", "not a real calendar date"),
    ("soon" * 20, "too long for a date (over 64 characters)"),
])
def test_no_date_is_guessed(text, why):
    with pytest.raises(DateError) as refused:
        parse_date(text)
    assert str(refused.value) == why


def test_a_user_date_is_a_date_or_a_usage_error():
    assert parse_user_date("2017") == (parse_date("2017-01-01").value, "year")
    with pytest.raises(UsageError) as refused:
        parse_user_date("03/04/2017", "--since")
    assert str(refused.value) == ("--since: '03/04/2017' is ambiguous (3 April or 4 March?) (write YYYY, YYYY-MM, "
                                  "YYYY-MM-DD or YYYY-MM-DDThh:mm[Z|+hh:mm], e.g. 2017-08-28)")
    assert refused.value.exit_code == 2


def test_a_date_that_cannot_be_read_is_dropped_with_one_warning(tmp_path, caplog):
    lines = [{"text": "One.", "date": "03/04/2017"}, {"text": "Two.", "date": "next week"},
             {"text": "Three.", "date": "Aug. 28, 2017"}]
    (tmp_path / "feed.jsonl").write_text("\n".join(map(json.dumps, lines)))
    with caplog.at_level(logging.WARNING, logger="kg.ingest"):
        one, two, three = iter_inputs([str(tmp_path / "feed.jsonl")])
    assert (one.date, two.date, three.date.lexical) == (None, None, "2017-08-28")
    assert [r.getMessage() for r in caplog.records] == [
        (f"Warning: {tmp_path / 'feed.jsonl'}:1: date '03/04/2017' is ambiguous (3 April or 4 March?); "
         "the document is built without a date"),
        (f"Warning: {tmp_path / 'feed.jsonl'}:2: date 'next week' is not a readable date with a year; "
         "the document is built without a date")]


def test_the_build_warns_on_one_line_and_still_succeeds(tmp_path):
    page = tmp_path / "kunduz.txt"
    page.write_text("---\ndate: 28/28/2015\n---\nThe Taliban seized Kunduz.\n")
    result = run_kg("build", str(page), "--store", str(tmp_path / "s"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"Warning: {page}: date '28/28/2015' is not a readable date with a year; the document is built without a date"]
    assert "1 new documents" in result.stdout


def test_dates_are_typed_in_the_graph_and_filter_it(tmp_path):
    """xsd:date / dateTime (with its zone) / gYearMonth in the store; networkx's first/last dates
    and `kg analyze --since/--until` read them."""
    import kg
    from kg.graph.analysis import filter_graph

    lines = [{"id": "a", "date": "28 September 2015", "text": "The Taliban seized Kunduz."},
             {"id": "b", "date": "2019-04-04T10:00+02:00", "text": "The Libyan National Army attacked Tripoli."},
             {"id": "c", "date": "April 2019", "text": "The Libyan National Army attacked Tripoli again."}]
    (tmp_path / "feed.jsonl").write_text("\n".join(map(json.dumps, lines)))
    store = tmp_path / "s"
    kg.build([str(tmp_path / "feed.jsonl")], store=store)
    rows = kg.query("SELECT ?name ?d (DATATYPE(?d) AS ?type) WHERE { GRAPH ?g { ?doc dcterms:identifier ?name ; "
                    "dcterms:date ?d } } ORDER BY ?name", store=store).rows
    xsd = "http://www.w3.org/2001/XMLSchema#"
    assert [tuple(map(str, r)) for r in rows] == [("a", "2015-09-28", xsd + "date"),
                                                  ("b", "2019-04-04T10:00:00+02:00", xsd + "dateTime"),
                                                  ("c", "2019-04", xsd + "gYearMonth")]
    graph = kg.to_networkx(store=store)
    attacked = [d for _, _, d in graph.edges(data=True) if d["predicate"] == "attacked"]
    assert [(d["first_date"], d["last_date"]) for d in attacked] == [("2019-04", "2019-04-04T10:00:00+02:00")]
    assert {d["predicate"] for *_, d in filter_graph(graph, since="2019").edges(data=True)} == {"attacked"}
    assert {d["predicate"] for *_, d in filter_graph(graph, until="2015-09-28").edges(data=True)} == {"captured"}


# ---------------------------------------------------------------- front matter and the examples


def test_front_matter_is_metadata_for_text_and_markdown(tmp_path):
    body = "The Taliban seized Kunduz."
    (tmp_path / "a.txt").write_text(f"---\ntitle: 'Kunduz: the fall'\ndate: 28 September 2015  # a Monday\n"
                                    f"source: VOA\nurl: https://example.org/k\ntags:\n  - afghanistan\n---\n{body}\n")
    (tmp_path / "b.md").write_text(f"---\r\ndate: 2015-09\r\n---\r\n# Heading\r\n\r\n{body}\r\n")
    (tmp_path / "c.txt").write_text(f"---\nThe article starts here, after a rule.\n---\n{body}\n")
    a, b, c = iter_inputs([str(tmp_path)])
    assert (a.title, a.date.lexical, a.source, a.url) == ("Kunduz: the fall", "2015-09-28", "VOA", "https://example.org/k")
    assert a.text == body and a.id == content_hash(body), "the hash is the text's alone"
    assert (b.title, b.date.lexical, b.text) == ("Heading", "2015-09", f"Heading\n\n{body}")
    assert c.date is None and c.text.startswith("---\nThe article starts here"), "not front matter: kept as text"


def test_the_examples_are_dated_and_keep_the_seeds_hashes():
    if not SEEDS.exists():
        pytest.skip(f"{SEEDS} is not here")
    seeds = {p.stem: content_hash(normalize_text(p.read_text(encoding="utf-8"))) for p in SEEDS.glob("*.txt")}
    documents = list(iter_inputs([str(EXAMPLES)]))
    assert {d.name: d.id for d in documents} == seeds
    assert {(d.date.lexical, d.date.xsd, d.source) for d in documents} == {("2017-08-28", "date", "Reuters")}


def test_the_readme_since_example_has_rows(example_store):
    result = run_kg("analyze", "--relations", "allyOf,attacked", "--since", "2017", "--top", "5", "--format", "csv",
                    "--store", str(example_store))
    assert result.returncode == 0, result.stderr
    assert "Hezbollah" in result.stdout
    later = run_kg("analyze", "--since", "2017-08-29", "--format", "csv", "--store", str(example_store))
    assert "Hezbollah" not in later.stdout


# ---------------------------------------------------------------- HTML


PAGE = """<!doctype html>
<html><head><title>Fighters leave the border | Example News</title>
<meta property="article:published_time" content="2017-08-28T10:00:00+03:00">
<script type="application/ld+json">{"datePublished": "2017-08-27"}</script>
</head><body>
<header><nav><a href="/">Home</a></nav><p>Breaking: the Taliban seized Kunduz.</p></header>
<main><article><h1>Fighters leave the border</h1>
<p>The Syrian army and Hezbollah on Monday prepared to escort Islamic State fighters to eastern Syria from their
enclave on the border with Lebanon under an agreement following a week-long offensive.</p>
<p>Islamic State fighters captured Arsal in 2014. Officials said the evacuation would take place over the coming
days, with buses waiting at the border crossing.</p>
</article>
<aside><h2>Related</h2><h3>Houthi fighters captured Hodeidah</h3></aside></main>
<footer><p>Copyright 2017.</p></footer></body></html>
"""


def _without_trafilatura(monkeypatch):
    monkeypatch.setitem(sys.modules, "trafilatura", None)  # `import trafilatura` now raises ImportError


@pytest.mark.parametrize("extractor", ["trafilatura", "built-in"])
def test_html_article_text_title_and_date(extractor, monkeypatch, extract):
    assert ("houthis", "captured", "hodeidah") in extract("Houthi fighters captured Hodeidah."), \
        "the Related headline would be a fact if it were read as text"
    if extractor == "built-in":
        _without_trafilatura(monkeypatch)
    text, meta = html_article(PAGE)
    assert "Islamic State fighters captured Arsal in 2014." in text
    assert not {"Hodeidah", "Kunduz", "Related", "Home", "Copyright"} & set(text.replace(".", " ").split())
    assert meta["date"] == "2017-08-28T10:00:00+03:00", "the <meta> publication time, with its zone"
    assert meta["title"] == {"trafilatura": "Fighters leave the border",
                             "built-in": "Fighters leave the border | Example News"}[extractor]


@pytest.mark.parametrize("extractor", ["trafilatura", "built-in"])
def test_html_date_from_json_ld_or_time(extractor, monkeypatch, tmp_path):
    if extractor == "built-in":
        _without_trafilatura(monkeypatch)
    page = PAGE.replace('<meta property="article:published_time" content="2017-08-28T10:00:00+03:00">', "")
    (tmp_path / "ld.html").write_text(page)
    (tmp_path / "time.html").write_text(page.replace('"datePublished"', '"dateModified"').replace(
        "<h1>", '<p><time datetime="2017-08-26">Saturday</time></p><h1>'))
    ld, time = iter_inputs([str(tmp_path)])
    assert (ld.date.lexical, time.date.lexical) == ("2017-08-27", "2017-08-26")
    assert "Hodeidah" not in ld.text + time.text


@pytest.mark.parametrize("extractor", ["trafilatura", "built-in"])
def test_a_short_page_is_read_without_its_navigation(extractor, monkeypatch):
    if extractor == "built-in":
        _without_trafilatura(monkeypatch)
    text, _ = html_article("<html><body><nav>Home</nav><p>Houthi fighters captured Hodeidah.</p></body></html>")
    assert text == "Houthi fighters captured Hodeidah."


def test_html_page_furniture_is_not_read_without_an_extractor(monkeypatch):
    _without_trafilatura(monkeypatch)
    text, meta = html_article('<html><body><div role="navigation">Menu</div><p>Kept<br>here</p>'
                              '<div hidden>Gone</div><svg><title>Icon</title></svg><p>too.</p>')
    assert (text, meta) == ("Kept\n\nhere\n\ntoo.", {"title": None, "date": None})


TAG_SOUP = ["<p>", "</p>", "<div>", "</div>", "<br>", "<head>", "</head>", "<body>", "<title>", "</title>", "<svg>",
            "</svg>", "<script type='application/ld+json'>", "</script>", "<time datetime='2017'>", "</time>",
            "<meta name=date content='Aug. 2017'>", "<div hidden>", "<nav>", "</nav>", "Kunduz", " fell. ",
            "<aside>FURNITURE</aside>", "<footer>FURNITURE</footer>", "&amp;", "<!--", "-->", "< "]
# the stray "<" has a space after it: before a letter it opens a tag, in browsers as here ("<Kunduz<aside>"
# is one element, named "kunduz<aside", whose text they show), so no reader could leave the aside out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TAG_SOUP), max_size=40), st.booleans())
def test_any_tag_soup_reads_without_its_furniture(monkeypatch, parts, built_in):
    with monkeypatch.context() as patch:
        if built_in:
            _without_trafilatura(patch)
        text, meta = html_article("".join(parts))
    assert isinstance(text, str) and set(meta) == {"title", "date"}
    if built_in:
        assert "FURNITURE" not in text


# ---------------------------------------------------------------- folders


def test_each_bad_entry_of_a_folder_gets_one_error_line(tmp_path):
    """A named pipe (never opened: the build would block), a dangling link, looping links and a
    link back up: one `Error:` line each, the same as when named directly; the rest is built.
    A page that trips the HTML extractor is one line too, without the extractor's own logging."""
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (folder / "good.txt").write_text("The Taliban seized Kunduz.")
    (folder / "sub" / "more.md").write_text("Houthi fighters captured Hodeidah.")
    os.mkfifo(folder / "feed.txt")
    (folder / "dangling.txt").symlink_to("nowhere.txt")
    (folder / "self.txt").symlink_to("self.txt")
    (folder / "sub" / "up").symlink_to("..")
    (folder / "twice").symlink_to("sub")  # the same folder by another way: read once
    (folder / "notes").symlink_to("nowhere")  # not an article's name: ignored, like README
    (folder / "menu.html").write_text("<html><body><nav>Home</nav><svg><p><p></body></html>")  # trips htmldate
    result = run_kg("build", str(folder), str(folder / "feed.txt"), "--store", str(tmp_path / "s"))
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines() == [
        f"Error: {folder / 'dangling.txt'}: broken symbolic link (to nowhere.txt)",
        f"Error: {folder / 'feed.txt'}: a named pipe (FIFO), not a regular file",
        f"Error: {folder / 'menu.html'}: empty: the HTML page has no text to read",
        f"Error: {folder / 'self.txt'}: symbolic link loop",
        f"Error: {folder / 'sub' / 'up'}: symbolic link loop (leads back to {folder})",
        f"Error: {folder / 'feed.txt'}: a named pipe (FIFO), not a regular file",
    ]
    assert "2 new documents" in result.stdout


def _read_as(uid: int | None, sources: list[str]) -> list[str]:
    """``iter_inputs(sources)`` as printed by a forked child running as ``uid`` (None: this user)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root's right to read anything, read, report, leave
        try:
            os.close(read)
            if uid is not None:
                os.setgid(uid)
                os.setuid(uid)
            os.write(write, "\n".join(map(str, iter_inputs(sources))).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as f:
        lines = f.read().splitlines()
    os.waitpid(pid, 0)
    return lines


def test_an_unreadable_subfolder_gets_one_error_line():
    """chmod 000 stops anyone but root from listing a folder: as root, the reading is done by a
    forked child that has become an unprivileged user (nobody), so the refusal is the system's."""
    base = Path(tempfile.mkdtemp(prefix="kg-unreadable-"))  # not under pytest's root-only folder
    try:
        base.chmod(0o755)
        (base / "locked").mkdir()
        (base / "locked" / "hidden.txt").write_text("The Taliban seized Kunduz.")
        (base / "open.txt").write_text("Houthi fighters captured Hodeidah.")
        (base / "locked").chmod(0)
        lines = _read_as(65534 if os.geteuid() == 0 else None, [str(base), str(base / "locked")])
        problem = f"{base / 'locked'}: cannot read the folder: Permission denied"
        assert len(lines) == 3 and lines[0] == problem and lines[2] == problem, lines
        assert lines[1].startswith("Document(") and "Hodeidah" in lines[1]
    finally:
        (base / "locked").chmod(0o755)
        shutil.rmtree(base)
