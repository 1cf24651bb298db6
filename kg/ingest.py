"""Files, folders, JSONL and stdin -> Documents.

A bad input never stops the others: it is yielded as an :class:`InputProblem` naming the file
(and line) and what is wrong with it.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

from .model import Document, InputProblem

TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".text"}
JSONL_SUFFIXES = {".jsonl", ".ndjson"}
SUFFIXES = TEXT_SUFFIXES | JSONL_SUFFIXES
MAX_BYTES = 20 * 1024 * 1024
METADATA_FIELDS = ("title", "date", "url", "source")

Item = Document | InputProblem


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def normalize_text(text: str) -> str:
    """NFC, Unix newlines, no byte-order mark, no trailing whitespace: the hashed form of a text."""
    text = unicodedata.normalize("NFC", text.lstrip("\ufeff"))
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
    data = sys.stdin.buffer.read()
    text = _decode(data, "<stdin>")
    if isinstance(text, InputProblem):
        yield text
        return
    lines = [line for line in text.splitlines() if line.strip()]
    if lines and all(line.lstrip().startswith("{") for line in lines):
        yield from _from_jsonl_text(text, "<stdin>")
    else:
        yield from _text_document(text, "<stdin>", "stdin", None)


def _from_file(path: Path) -> Iterator[Item]:
    where = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            yield InputProblem(where, f"file is {size // (1024 * 1024)} MB, larger than the 20 MB limit")
            return
        data = path.read_bytes()
    except OSError as exc:
        yield InputProblem(where, f"cannot read: {exc.strerror or exc}")
        return
    text = _decode(data, where)
    if isinstance(text, InputProblem):
        yield text
        return
    if path.suffix.lower() in JSONL_SUFFIXES:
        yield from _from_jsonl_text(text, where)
    else:
        yield from _text_document(text, where, path.stem, str(path), markdown=path.suffix.lower() != ".txt")


def _decode(data: bytes, where: str) -> str | InputProblem:
    if b"\x00" in data[:8192]:
        return InputProblem(where, "binary file, not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return InputProblem(where, f"not valid UTF-8 (byte {exc.start}); re-save the file as UTF-8")


def _text_document(text: str, where: str, name: str, path: str | None, markdown: bool = False) -> Iterator[Item]:
    title = None
    if markdown:
        text, title = _strip_markdown(text)
    if not text.strip():
        yield InputProblem(where, "empty: no text to read")
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


def _from_jsonl_text(text: str, where: str) -> Iterator[Item]:
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        at = f"{where}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            yield InputProblem(at, f"not valid JSON ({exc.msg})")
            continue
        if not isinstance(record, dict):
            yield InputProblem(at, "not a JSON object")
            continue
        body = record.get("text")
        if not isinstance(body, str) or not body.strip():
            yield InputProblem(at, 'no "text" field with the article text')
            continue
        meta = {k: str(record[k]) for k in METADATA_FIELDS if record.get(k) not in (None, "")}
        name = str(record.get("id") or f"{Path(where).stem}-{number}")
        yield make_document(body, name=name, path=at, **meta)
