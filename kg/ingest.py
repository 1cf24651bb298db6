"""Files, folders, JSONL and stdin -> Documents.

A bad input never stops the others: it is yielded as an :class:`InputProblem` naming the file
(and line) and what is wrong with it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path

from .records import Document, InputProblem

TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".text"}
HTML_SUFFIXES = {".html", ".htm", ".xhtml"}
JSONL_SUFFIXES = {".jsonl", ".ndjson"}
SUFFIXES = TEXT_SUFFIXES | HTML_SUFFIXES | JSONL_SUFFIXES
MAX_BYTES = 20 * 1024 * 1024  # one article; JSONL files stream and have no limit but this per line
# what some binary files start with, to name them in the error
MAGIC = {b"%PDF-": "a PDF file", b"PK\x03\x04": "a ZIP archive (or a .docx/.xlsx)", b"\x1f\x8b": "gzip-compressed",
         b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image", b"GIF8": "a GIF image",
         b"\xd0\xcf\x11\xe0": "an old Microsoft Office file", b"{\\rtf": "an RTF document"}
METADATA_FIELDS = ("title", "date", "url", "source")

Item = Document | InputProblem


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


def normalize_text(text: str) -> str:
    """NFC, Unix newlines, no byte-order mark, no control characters or lone surrogates (which
    no RDF or XML serialization can carry), no trailing whitespace: the hashed form of a text."""
    text = _UNSAFE.sub(lambda m: "\ufffd" if "\ud800" <= m.group() <= "\udfff" else " ", text.lstrip("\ufeff"))
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.strip()


def make_document(text: str, name: str, path: str | None = None, **meta: str | None) -> Document:
    text = normalize_text(text)
    return Document(id=content_hash(text), text=text, name=name, path=path, **meta)


def iter_inputs(sources: Iterable[str]) -> Iterator[Item]:
    """Yield a Document or an InputProblem for each article found in ``sources``.

    A source is a file, a folder (searched recursively for .txt, .md and .jsonl files) or ``-``
    for standard input (plain text, or JSONL if every non-empty line is a JSON object).
    """
    for source in sources:
        if source == "-":
            yield from _from_stdin()
            continue
        path = Path(source)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
            if not files:
                yield InputProblem(source, "folder has no .txt, .md or .jsonl files")
            for file in files:
                yield from _from_file(file)
        elif path.is_file():
            yield from _from_file(path)
        elif path.exists():
            yield InputProblem(source, "not a regular file or folder")
        else:
            yield InputProblem(source, "no such file or folder")


def _from_stdin() -> Iterator[Item]:
    """Standard input: JSONL when its first non-blank line is a JSON object, read and built line
    by line as it arrives (so a producer can stream articles into a running build); else one text."""
    stream = sys.stdin.buffer
    head = b""
    for raw in stream:
        head += raw
        if raw.strip():
            break
    if head.lstrip().startswith(b"{"):
        yield from _jsonl_lines(itertools.chain([head], stream), "<stdin>", "stdin")
        return
    data = head + stream.read()
    text = _decode(data, "<stdin>")
    if isinstance(text, InputProblem):
        yield text
        return
    yield from _text_document(text, "<stdin>", "stdin", None)


def _from_file(path: Path) -> Iterator[Item]:
    where = str(path)
    suffix = path.suffix.lower()
    if suffix in JSONL_SUFFIXES:
        yield from _from_jsonl_file(path)
        return
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            yield InputProblem(where, f"file is {size / 2**20:.0f} MB, larger than the {MAX_BYTES // 2**20} MB "
                                      "limit for one article; split it, or put one article per line in a .jsonl file")
            return
        data = path.read_bytes()
    except OSError as exc:
        yield InputProblem(where, f"cannot read: {exc.strerror or exc}")
        return
    text = _decode(data, where)
    if isinstance(text, InputProblem):
        yield text
        return
    if suffix in HTML_SUFFIXES or _looks_like_html(text):
        body, title = html_text(text)
        yield from _text_document(body, where, path.stem, str(path), title=title, kind="HTML page")
    else:
        yield from _text_document(text, where, path.stem, str(path), markdown=suffix not in (".txt", ".text"))


def _decode(data: bytes, where: str) -> str | InputProblem:
    for magic, what in MAGIC.items():
        if data.startswith(magic):
            return InputProblem(where, f"{what}, not text; convert it to plain text (UTF-8) first")
    if b"\x00" in data[:8192]:
        return InputProblem(where, "binary file, not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return InputProblem(where, f"not valid UTF-8 (byte {exc.start}); re-save the file as UTF-8")


def _looks_like_html(text: str) -> bool:
    head = text[:1024].lstrip().lower()
    return head.startswith(("<!doctype html", "<html", "<?xml")) and "<html" in text[:4096].lower()


class _HTMLText(HTMLParser):
    """The readable text of a page: block elements become paragraphs, scripts and styles vanish."""

    BLOCKS = {"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "article", "section",
              "blockquote", "tr", "table", "header", "footer", "figcaption", "pre", "main", "aside", "dd", "dt"}
    SKIP = {"script", "style", "noscript", "template", "svg", "head", "nav", "form", "button", "iframe"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: list[str] = []
        self.skipping = 0
        self.in_title = False

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "title":
            self.in_title = True
        elif tag in self.SKIP:
            self.skipping += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag) -> None:
        if tag == "title":
            self.in_title = False
        elif tag in self.SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data) -> None:
        if self.in_title:
            self.title.append(data)
        elif not self.skipping:
            self.parts.append(data)


def html_text(markup: str) -> tuple[str, str | None]:
    """(text, title) of an HTML page."""
    parser = _HTMLText()
    try:
        parser.feed(markup)
        parser.close()
    except (AssertionError, ValueError):  # the parser is lenient; keep whatever it read
        pass
    paragraphs = [re.sub(r"\s+", " ", p).strip() for p in "".join(parser.parts).split("\n\n")]
    title = re.sub(r"\s+", " ", "".join(parser.title)).strip() or None
    return "\n\n".join(p for p in paragraphs if p), title


def _text_document(text: str, where: str, name: str, path: str | None, markdown: bool = False,
                   title: str | None = None, kind: str = "file") -> Iterator[Item]:
    if markdown:
        text, title = _strip_markdown(text)
    if not normalize_text(text):
        yield InputProblem(where, f"empty: the {kind} has no text to read")
        return
    yield make_document(text, name=name, path=path, title=title)


def _strip_markdown(text: str) -> tuple[str, str | None]:
    """Drop front matter and markup symbols that would confuse the parser; the first heading is the title."""
    title = None
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    lines = []
    for line in text.splitlines():
        heading = re.match(r"\s{0,3}#{1,6}\s+(.*)", line)
        if heading:
            line = heading.group(1).strip()
            title = title or line
        line = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", line)
        line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)
        line = re.sub(r"(\*\*|__|`)", "", line)
        lines.append(line)
    return "\n".join(lines), title


def _from_jsonl_file(path: Path) -> Iterator[Item]:
    """One article per line, read line by line: a JSONL file of any size streams."""
    where = str(path)
    try:
        with open(path, "rb") as f:
            yield from _jsonl_lines(f, where, path.stem)
    except OSError as exc:
        yield InputProblem(where, f"cannot read: {exc.strerror or exc}")


def _jsonl_lines(lines: Iterable[bytes], where: str, stem: str) -> Iterator[Item]:
    for number, raw in enumerate(lines, start=1):
        at = f"{where}:{number}"
        if len(raw) > MAX_BYTES:
            yield InputProblem(at, f"line is {len(raw) / 2**20:.0f} MB, larger than the "
                                   f"{MAX_BYTES // 2**20} MB limit for one article")
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield InputProblem(at, f"not valid UTF-8 (byte {exc.start} of the line); re-save the file as UTF-8")
            continue
        yield from _jsonl_record(line, at, stem, number)


def _jsonl_record(line: str, at: str, stem: str, number: int) -> Iterator[Item]:
    if not line.strip():
        return
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        yield InputProblem(at, f"not valid JSON ({exc.msg} at column {exc.colno})")
        return
    if not isinstance(record, dict):
        yield InputProblem(at, "not a JSON object")
        return
    body = record.get("text")
    if not isinstance(body, str) or not normalize_text(body):
        yield InputProblem(at, 'no "text" field with the article text')
        return
    meta = {k: normalize_text(str(record[k])) for k in METADATA_FIELDS if record.get(k) not in (None, "")}
    name = normalize_text(str(record.get("id") or "")) or f"{stem}-{number}"
    yield make_document(body, name=name, path=at, **{k: v for k, v in meta.items() if v})
