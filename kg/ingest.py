"""Files, folders, JSONL, HTML and stdin -> Documents.

A bad input never stops the others: it is yielded as an :class:`InputProblem` naming the file
(and line) and what is wrong with it. A document's metadata (title, date, url, source) comes
from JSONL fields, from front matter at the top of a text or Markdown file, or from an HTML
page's markup; its date is read by :mod:`kg.dates`. A date that cannot be read is no reason to
lose the article: the document is built without it, and a warning line says so (logged to
``kg.ingest``; with no logging set up, Python prints it to stderr as it is).
"""

from __future__ import annotations

import errno
import hashlib
import itertools
import json
import logging
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path

from .dates import DateError, ParsedDate, parse_date
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
log = logging.getLogger(__name__)


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


def make_document(text: str, name: str, path: str | None = None, *, title: str | None = None,
                  date: ParsedDate | None = None, url: str | None = None, source: str | None = None) -> Document:
    text = normalize_text(text)
    return Document(id=content_hash(text), text=text, name=name, path=path, title=title, date=date, url=url,
                    source=source)


def _document(text: str, name: str, path: str | None, where: str, meta: dict[str, str | None]) -> Document:
    """A document with its metadata; a date that cannot be read is dropped with a warning."""
    fields = {k: v for k in METADATA_FIELDS if (v := normalize_text(meta.get(k) or "")) and k != "date"}
    value = normalize_text(meta.get("date") or "")
    date = None
    if value:
        try:
            date = parse_date(value)
        except DateError as exc:
            log.warning("Warning: %s: date %r is %s; the document is built without a date", where, value, exc)
    return make_document(text, name=name, path=path, date=date, **fields)


def iter_inputs(sources: Iterable[str]) -> Iterator[Item]:
    """Yield a Document or an InputProblem for each article found in ``sources``.

    A source is a file, a folder (searched recursively for .txt, .md, .html and .jsonl files,
    following symbolic links) or ``-`` for standard input (plain text, or JSONL if every
    non-empty line is a JSON object). In a folder, an entry with one of those extensions that
    is not a readable regular file (a named pipe, a broken or looping symbolic link), a
    subfolder that cannot be listed and a link back to a folder above each give one problem,
    as they do when named directly; files with other extensions are ignored.
    """
    for source in sources:
        if source == "-":
            yield from _from_stdin()
        else:
            yield from _from_path(Path(source))


def _from_path(path: Path) -> Iterator[Item]:
    try:
        st = path.stat()
    except OSError as exc:
        yield InputProblem(str(path), _stat_problem(path, exc))
        return
    if stat.S_ISDIR(st.st_mode):
        yield from _from_folder(path, (st.st_dev, st.st_ino))
    elif stat.S_ISREG(st.st_mode):
        yield from _from_file(path)
    else:
        yield InputProblem(str(path), _not_regular(st.st_mode))


def _stat_problem(path: Path, exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symbolic link loop"
    if exc.errno == errno.ENOENT:
        try:
            return f"broken symbolic link (to {os.readlink(path)})"
        except OSError:
            return "no such file or folder"
    return f"cannot read: {exc.strerror or exc}"


def _not_regular(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO), not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    return "not a regular file or folder"


def _from_folder(root: Path, key: tuple[int, int]) -> Iterator[Item]:
    found = False
    for item in _walk(root, key):
        found = True
        if isinstance(item, InputProblem):
            yield item
        else:
            yield from _from_file(item)
    if not found:
        yield InputProblem(str(root), "folder has no .txt, .md, .html or .jsonl files")


def _listing(folder: Path) -> list[os.DirEntry] | InputProblem:
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda e: e.name)
    except OSError as exc:
        return InputProblem(str(folder), f"cannot read the folder: {exc.strerror or exc}")


def _walk(root: Path, key: tuple[int, int]) -> Iterator[Path | InputProblem]:
    """The article files under ``root`` in path order, and a problem for each entry that
    cannot be read. Iterative (a deep tree cannot exhaust the stack); a folder is entered once,
    however many links lead to it, and a link to a folder above it is reported, not followed."""
    listing = _listing(root)
    if isinstance(listing, InputProblem):
        yield listing
        return
    visited = {key}
    stack = [(iter(listing), {key: root})]  # per level: its entries, and the folders above it
    while stack:
        entries, above = stack[-1]
        entry = next(entries, None)
        if entry is None:
            stack.pop()
            continue
        path = Path(entry.path)
        candidate = path.suffix.lower() in SUFFIXES
        try:
            st = entry.stat()  # follows symbolic links
        except OSError as exc:
            if candidate:
                yield InputProblem(str(path), _stat_problem(path, exc))
            continue
        if stat.S_ISDIR(st.st_mode):
            sub = (st.st_dev, st.st_ino)
            if sub in above:
                yield InputProblem(str(path), f"symbolic link loop (leads back to {above[sub]})")
            elif sub not in visited:
                visited.add(sub)
                listing = _listing(path)
                if isinstance(listing, InputProblem):
                    yield listing
                else:
                    stack.append((iter(listing), {**above, sub: path}))
        elif candidate:
            yield path if stat.S_ISREG(st.st_mode) else InputProblem(str(path), _not_regular(st.st_mode))


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
        body, meta = html_article(text)
        yield from _text_document(body, where, path.stem, str(path), meta=meta, kind="HTML page")
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


class _HTMLPage(HTMLParser):
    """A page read without an extractor: its text less the page furniture (navigation, headers,
    footers, asides, forms: a "Related" headline there is not the article's), its <title>, and
    the publication date it states in a <meta>, JSON-LD or a <time datetime>."""

    BLOCKS = frozenset({"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "article",
                        "section", "blockquote", "tr", "table", "figcaption", "pre", "main", "dd", "dt"})
    SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head", "nav", "form", "button", "iframe",
                      "aside", "header", "footer", "menu", "dialog", "select", "object"})
    SKIP_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search", "menu", "dialog"})
    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                      "track", "wbr"})
    # <meta> names (property, name or itemprop) that state when an article was published
    DATE_META = frozenset({"article:published_time", "og:published_time", "datepublished", "date", "pubdate",
                           "publishdate", "publish-date", "dc.date", "dc.date.issued", "dcterms.date",
                           "dcterms.issued", "citation_publication_date", "parsely-pub-date", "sailthru.date"})
    JSON_LD_DATE = re.compile(r'"datePublished"\s*:\s*"([^"]{1,80})"')

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: list[str] = []
        self.open: list[tuple[str, bool]] = []  # the open elements, and whether each is skipped
        self.skipping = 0
        self.dates: dict[str, str] = {}  # where a date was stated ("meta", "json-ld", "time") -> the first

    def handle_starttag(self, tag, attrs) -> None:
        attrs = {k: v or "" for k, v in attrs}
        if tag == "meta":
            names = {attrs.get(k, "").strip().lower() for k in ("property", "name", "itemprop")}
            if names & self.DATE_META and attrs.get("content", "").strip():
                self.dates.setdefault("meta", attrs["content"])
        elif tag == "time" and not self.skipping and attrs.get("datetime", "").strip():
            self.dates.setdefault("time", attrs["datetime"])
        elif tag == "body":  # </head> may be left out
            self._close("head")
        if tag in self.VOID:
            if tag == "br" and not self.skipping:
                self.parts.append("\n\n")
            return
        if tag == "script" and attrs.get("type", "").strip().lower() == "application/ld+json":
            tag = "script-ld"  # read for its datePublished, never as text
        skip = (tag in self.SKIP or tag == "script-ld" or "hidden" in attrs
                or attrs.get("role", "").strip().lower() in self.SKIP_ROLES)
        self.open.append((tag, skip))
        self.skipping += skip
        if tag in self.BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag) -> None:
        if tag == "script" and self.open and self.open[-1][0] == "script-ld":  # a script holds no elements
            tag = "script-ld"
        self._close(tag)
        if tag in self.BLOCKS:
            self.parts.append("\n\n")

    def _close(self, tag: str) -> None:
        """Close ``tag`` and whatever is still open inside it (end tags HTML lets one leave out)."""
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                self.skipping -= sum(skipped for _, skipped in self.open[i:])
                del self.open[i:]
                return

    def handle_data(self, data) -> None:
        current = self.open[-1][0] if self.open else ""
        if current == "title" and not any(name == "svg" for name, _ in self.open):  # not an SVG's <title>
            self.title.append(data)
        elif current == "script-ld":
            found = self.JSON_LD_DATE.search(data)
            if found:
                self.dates.setdefault("json-ld", found.group(1))
        elif not self.skipping:
            self.parts.append(data)

    def stated_date(self) -> str | None:
        return self.dates.get("meta") or self.dates.get("json-ld") or self.dates.get("time")


def _paragraphs(text: str, separator: str) -> str:
    return "\n\n".join(p for p in (re.sub(r"\s+", " ", p).strip() for p in text.split(separator)) if p)


_QUIET = logging.NullHandler()


def _without_unclosed_comment(markup: str) -> str:
    """A comment left open runs to the end of the page, as browsers read it (the parser would
    hand it over as text)."""
    at = 0
    while (start := markup.find("<!--", at)) >= 0:
        end = markup.find("-->", start + 4)
        if end < 0:
            return markup[:start]
        at = end + 3
    return markup


def html_article(markup: str) -> tuple[str, dict[str, str | None]]:
    """(text, metadata) of an HTML page: the article's text and its title and publication date.

    With trafilatura installed (``pip install '.[html]'`` in kg's checkout) the text is its main-content
    extraction and the title its headline; without, the page less its furniture (see
    :class:`_HTMLPage`). The date is the one the markup states, time and zone included, else
    (with trafilatura) the day it finds in the markup; never one guessed from the text.
    """
    page = _HTMLPage()
    try:
        page.feed(_without_unclosed_comment(markup))
        page.close()
    except (AssertionError, ValueError):  # the parser is lenient; keep whatever it read
        pass
    text = _paragraphs("".join(page.parts), "\n\n")
    meta = {"title": re.sub(r"\s+", " ", "".join(page.title)).strip() or None, "date": page.stated_date()}
    try:
        import trafilatura
    except ImportError:
        return text, meta
    for name in ("trafilatura", "htmldate"):  # their notes on their own fallbacks are not the user's business:
        extractor_log = logging.getLogger(name)  # no stderr line unless the caller's logging asks for them
        if _QUIET not in extractor_log.handlers:
            extractor_log.addHandler(_QUIET)
    try:
        # favor_precision: by default it keeps a short page's navigation as text
        found = trafilatura.bare_extraction(markup, with_metadata=True, include_comments=False,
                                            favor_precision=True,
                                            date_extraction_params={"original_date": True, "extensive_search": False})
    except Exception:  # noqa: BLE001 - it fails on some malformed pages (htmldate asserts on "<svg><p><p>")
        found = None  # and the page is then read as without it
    if found is not None and found.text and found.text.strip():
        text = _paragraphs(found.text, "\n")  # one paragraph a line
        meta = {"title": found.title or meta["title"], "date": meta["date"] or found.date}
    return text, meta


def _text_document(text: str, where: str, name: str, path: str | None, markdown: bool = False,
                   meta: dict[str, str | None] | None = None, kind: str = "file") -> Iterator[Item]:
    """One document from a text; ``meta`` as the caller read it (from a page's markup), else
    from the text's front matter."""
    if meta is None:
        meta, text = split_front_matter(text)
    if markdown:
        text, heading = _strip_markdown(text)
        meta = {"title": heading, **{k: v for k, v in meta.items() if v}}
    if not normalize_text(text):
        yield InputProblem(where, f"empty: the {kind} has no text to read")
        return
    yield _document(text, name, path, where, meta)


_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)??(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_FRONT_FIELD = re.compile(r"([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*))?")


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """(metadata, text) of a text that starts with YAML-style front matter, else ({}, text).

    Front matter is a block of ``key: value`` lines between a first line ``---`` and a line
    ``---`` (or ``...``). ``title``, ``date``, ``url`` and ``source`` are read (values may be
    quoted); other keys, comments, list items and indented lines are allowed and ignored. A
    block with any other line is not front matter but the start of the text. The text after it
    is the article: its content hash is that of the text alone.
    """
    plain = text.lstrip("\ufeff").replace("\r\n", "\n")
    block = _FRONT_MATTER.match(plain)
    if not block:
        return {}, text
    meta: dict[str, str] = {}
    for line in (block.group(1) or "").splitlines():
        if not line.strip() or line.lstrip().startswith("#") or line[0] in " \t" or line.startswith("- "):
            continue
        field = _FRONT_FIELD.fullmatch(line.rstrip())
        if not field:
            return {}, text
        value = (field.group(2) or "").strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        else:
            value = re.split(r"\s#", value, maxsplit=1)[0].strip()  # a YAML comment after the value
        key = field.group(1).lower()
        if key in METADATA_FIELDS and value not in ("", "|", ">"):
            meta.setdefault(key, value)
    return meta, plain[block.end():]


def _strip_markdown(text: str) -> tuple[str, str | None]:
    """Drop markup symbols that would confuse the parser; the first heading is the title."""
    title = None
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
    meta = {k: str(record[k]) for k in METADATA_FIELDS if record.get(k) not in (None, "")}
    name = normalize_text(str(record.get("id") or "")) or f"{stem}-{number}"
    yield _document(body, name, at, at, meta)
