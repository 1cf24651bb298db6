"""Run SPARQL against the store: named queries from queries/, files, or inline text.

Before a query runs, :mod:`kg.sparql.guard` parses it: updates are refused, SERVICE (which would
make the engine call other servers) is refused unless allowed, and each parameter must be a
variable the query selects. Parameters are bound as RDF terms, never pasted into the text: by
Oxigraph's substitutions in a local store, by VALUES blocks placed on the parse for a server.

A store that declares ``Capabilities.kill_queries`` (a local one) evaluates in a child process
that is killed at the deadline and has a memory ceiling (:mod:`kg.graph.isolated`); a server
is given the deadline, and kg closes the connection when it passes.

Answers are SPARQL 1.1 query results, written and read by pyoxigraph: the evaluation writes
TSV (in the child, for a local store), :class:`Result` keeps it, and ``--format csv|tsv|json``
is pyoxigraph's writer of that format, so a local store and a server give the same bytes.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import IO

import pyoxigraph as ox

from .. import datafiles, formats
from ..errors import QueryError, UsageError
from ..resources import queries_dir
from ..sparql import guard
from ..sparql.parameters import check as check_parameters
from ..sparql.parameters import lowered
from ..store import Store
from ..terminal import printable
from ..namespaces import ENTITY_GRAPH, PREFIXES
from . import isolated

_STANDARD_FORMATS = {name: ox.QueryResultsFormat.from_extension(extension)
                     for name, extension in formats.QUERY_RESULTS.items()}
# how an answer crosses from the child process and is kept: compact, lossless, 2.5x faster to
# read back than JSON (300,000 rows), and a graph's triples write it directly
_DOCUMENT_FORMAT = ox.QueryResultsFormat.TSV


@dataclass(frozen=True)
class Result:
    """The answer of a query: ``document``, the whole answer in SPARQL 1.1 results TSV, which keeps
    every term (IRI, blank node, literal with its language or datatype), as the engine wrote it.

    It is parsed once, and only for what is asked of it: the variables and rows (cells are plain
    strings or None) or the boolean of an ASK for a table or a script, or a standard format
    (:meth:`serialize`, which pyoxigraph writes from the document); ``empty`` needs neither.
    """

    document: bytes

    @cached_property
    def _parsed(self) -> tuple[tuple[str, ...], tuple[tuple[str | None, ...], ...], bool | None]:
        answer = ox.parse_query_results(self.document, format=_DOCUMENT_FORMAT)
        if isinstance(answer, ox.QueryBoolean):
            return ("ask",), ((str(bool(answer)).lower(),),), bool(answer)
        return tuple(v.value for v in answer.variables), tuple(tuple(map(_plain, row)) for row in answer), None

    @property
    def variables(self) -> tuple[str, ...]:
        return self._parsed[0]

    @property
    def rows(self) -> tuple[tuple[str | None, ...], ...]:
        return self._parsed[1]

    @property
    def boolean(self) -> bool | None:
        return self._parsed[2]

    @property
    def empty(self) -> bool:
        """A SELECT without a row (TSV: the header line alone); an ASK is never empty."""
        if self.document.lstrip().lower().startswith((b"true", b"false")):
            return False
        body = self.document[:-1] if self.document.endswith(b"\n") else self.document
        return b"\n" not in body  # the header line alone

    def serialize(self, fmt: ox.QueryResultsFormat) -> bytes:
        """The answer in ``fmt`` (JSON, XML, CSV or TSV), as pyoxigraph writes it."""
        return ox.parse_query_results(self.document, format=_DOCUMENT_FORMAT).serialize(format=fmt)


def named_queries() -> dict[str, Path]:
    return {p.stem: p for p in sorted(queries_dir().glob("*.rq"))}


def summary(text: str) -> str:
    """What a query does, in its header's first sentence: the comment lines up to the one that ends
    it ("timeline" takes two lines to say it)."""
    words = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        line = line.lstrip("# ").strip()
        if not line or line.startswith("Parameters:"):
            break
        words.append(line)
        if line.endswith((".", "?")):
            break
    return " ".join(words)


def load_query(query: str) -> str:
    """The text of ``query``: a .rq path, a name from queries/, or SPARQL itself."""
    names = named_queries()
    if query in names:
        return datafiles.text(names[query])
    if query.endswith(".rq") or (len(query) < 256 and "\n" not in query and Path(query).is_file()):
        path = Path(query)
        if not path.is_file():
            raise UsageError(f"query file {query} not found", hint=f"named queries: {', '.join(names)}")
        return path.read_text(encoding="utf-8")
    if guard.first_word(query) not in (*guard.QUERY_FORMS, *guard.UPDATE_KEYWORDS):
        raise UsageError(f"{query!r} is neither a query name, a .rq file nor SPARQL",
                         hint=f"named queries: {', '.join(names)}")
    return query


def parse_params(params: list[str]) -> dict[str, str]:
    out = {}
    for item in params:
        name, sep, value = item.partition("=")
        if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise UsageError(f"--param {item!r} is not name=value")
        out[name] = value
    return out


def _term(value: str):
    """A parameter value as an RDF term: <iri> and http(s) IRIs become IRIs, anything else a string."""
    if value.startswith("<") and value.endswith(">"):
        return ox.NamedNode(value[1:-1])
    if re.match(r"https?://\S+$", value):
        return ox.NamedNode(value)
    return ox.Literal(value)


def run(store: Store, query: str, params: dict[str, str] | None = None, allow_service: bool = False,
        timeout: float | None = None) -> Result:
    """Run a read-only query with bound parameters, stopping it after ``timeout`` seconds."""
    text = load_query(query)
    check_parameters(query, text, params or {})
    parsed = guard.parse(text)
    guard.check(parsed, allow_service)
    guard.check_bindable(parsed, params or {})
    lower = lowered(text, params or {})
    if lower:  # not selected, so bound in the text on every store (substitutions take selected ones only)
        parsed = guard.parse(guard.bind(parsed, {name: str(ox.Literal(value)) for name, value in lower.items()},
                                        selected=False))
    substitutions = {}
    for name, value in (params or {}).items():
        try:
            substitutions[ox.Variable(name)] = _term(value)
        except ValueError as exc:
            raise UsageError(f"--param {name}: {exc}") from None
    text = parsed.text
    try:
        if store.capabilities.kill_queries and timeout is not None:  # in a forked child the deadline kills
            # (without a deadline, here: 2.6 ms for `allies` on the examples where the fork took 18)
            return Result(isolated.run(
                lambda output: _write(lambda: store.query(text, substitutions, default_graph=ENTITY_GRAPH), output),
                timeout))
        output = io.BytesIO()
        _write(lambda: store.query(text, substitutions, timeout=timeout, default_graph=ENTITY_GRAPH), output)
    except QueryError as exc:
        raise QueryError(syntax_error(str(exc), text)) from None
    return Result(output.getvalue())


_AT = re.compile(r"invalid SPARQL: error at (\d+):(\d+): (.*)")


def syntax_error(message: str, text: str) -> str:
    """The engine's syntax error ("error at 1:26: expected one of OPTIONAL, Prefix not found,
    ['%'], ['-' | '0' ..= '9' | ...") as a reader wants it: where, the word found there, and the
    words that could come, without the grammar's character classes; an unknown prefix named as such."""
    match = _AT.match(message)
    if match is None:
        return message
    line, column, expected = int(match.group(1)), int(match.group(2)), match.group(3)
    lines = text.splitlines() or [""]
    row = lines[min(line, len(lines)) - 1]
    before = re.findall(r"\S+", row[:column - 1])  # the engine points just after what it could not take
    where = f"line {line}, column {column}"
    if "Prefix not found" in expected:
        name = re.search(r"([A-Za-z][\w.-]*)?:[^\s:]*$", before[-1]) if before else None
        prefix = (name.group(1) or "") if name else ""
        return (f"invalid SPARQL at {where}: unknown prefix '{prefix}:' (declare it: PREFIX {prefix}: <IRI>; "
                f"kg declares {', '.join(p + ':' for p in sorted(PREFIXES))})")
    words = re.findall(r'"([^"]+)"|\b([A-Z][A-Za-z]+)\b', expected.split("[", 1)[0])
    choices = [f'"{a}"' if a else b for a, b in words if (a or b) != "Prefix"]
    end = line >= len(lines) and column > len(row.rstrip())
    near = (" at the end of the query" if end else "") + (f", after {printable(before[-1])!r}" if before else "")
    hint = f": expected {' '.join(choices[:8])}{' ...' if len(choices) > 8 else ''}" if choices else ""
    return f"invalid SPARQL at {where}{near}{hint}"


def _write(query: Callable[[], object], output: IO[bytes]) -> None:
    """The answer of ``query()`` into ``output`` as SPARQL results TSV, with engine errors as
    QueryError. A graph (CONSTRUCT, DESCRIBE) is written as rows of ?subject ?predicate ?object:
    TSV's terms are N-Triples', which is how pyoxigraph prints a term."""
    try:
        answer = query()
        if isinstance(answer, (ox.QuerySolutions, ox.QueryBoolean)):
            answer.serialize(output, format=_DOCUMENT_FORMAT)
            return
        output.write(b"?subject\t?predicate\t?object\n")
        for t in answer:
            output.write(f"{_tsv(t.subject)}\t{_tsv(t.predicate)}\t{_tsv(t.object)}\n".encode())
    except SyntaxError as exc:  # the engine's words, quoting the query or a server's answer
        raise QueryError(f"invalid SPARQL: {printable(str(exc).splitlines()[0])}") from None
    except (OSError, RuntimeError) as exc:
        raise QueryError(f"query failed: {printable(str(exc).splitlines()[0])}") from None


def _tsv(term: ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple) -> str:
    return f"<<( {term} )>>" if isinstance(term, ox.Triple) else str(term)


def _plain(term) -> str | None:
    """A cell of ``Result.rows``: the IRI, the blank node's id, the literal's text."""
    if term is None:
        return None
    return str(term) if isinstance(term, ox.Triple) else term.value


def format_result(result: Result, fmt: str) -> str:
    """``result`` as a table, or as SPARQL 1.1 Query Results JSON, CSV or TSV (written by
    pyoxigraph); each ends with a newline."""
    if fmt in _STANDARD_FORMATS:
        text = result.serialize(_STANDARD_FORMATS[fmt]).decode("utf-8")
        return text if text.endswith("\n") else text + "\n"
    return table(result.variables, result.rows) + "\n"


def table(header, rows, limit: int = 60) -> str:
    """``rows`` under ``header`` in columns, for a terminal: each cell on one line, at most
    ``limit`` characters, control characters (a server's escape sequences) written as ``\\xNN``."""
    header = [printable(str(h)) for h in header]
    cells = [[printable(("" if c is None else str(c)).replace("\n", " ")) for c in row] for row in rows]
    cells = [[c if len(c) <= limit else c[: limit - 1] + "\u2026" for c in row] for row in cells]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.append(f"({len(cells)} row{'s' if len(cells) != 1 else ''})")
    return "\n".join(lines)


# What an empty answer of a ready query about one entity (--param name=X) can be told by: whether
# any entity has that name, and whether it takes part in any event.
_NAMED = """# Parameters: name - a label or alias of an entity (any case)
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
SELECT ?name ?name_lower ?entity ?role WHERE {
  GRAPH <https://w3id.org/kg/graph/entities> { ?entity skos:hiddenLabel ?name_lower }
  OPTIONAL { GRAPH <https://w3id.org/kg/graph/events> { ?role rdf:value ?entity } }
} LIMIT 1"""


def why_empty(store: Store, query: str, params: dict[str, str]) -> str | None:
    """Why a ready query taking ``name`` answered nothing, where kg can tell: no entity has the
    name, or (for the timeline) the entity takes part in no event."""
    name = params.get("name")
    if name is None or query not in named_queries():
        return None
    rows = run(store, _NAMED, {"name": name}).rows
    if not rows:
        return f"no entity is named {name!r} (kg info --entities N lists the most mentioned ones)"
    if query == "timeline" and rows[0][3] is None:
        return f"{name} takes part in no event of the graph"
    return None
