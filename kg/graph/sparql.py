"""Run SPARQL against the store: named queries from queries/, files, or inline text.

Before a query runs, :mod:`kg.graph.guard` parses it: updates are refused, SERVICE (which would
make the engine call other servers) is refused unless allowed, and each parameter must be a
variable the query selects. Parameters are bound as RDF terms, never pasted into the text: by
Oxigraph's substitutions in a local store, by VALUES blocks placed on the parse for a server.

A store that declares ``Capabilities.kill_queries`` (a local one) evaluates in a child process
that is killed at the deadline and has a memory ceiling (:mod:`kg.graph.isolated`); a server
is given the deadline, and kg closes the connection when it passes.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from ..errors import QueryError, UsageError
from ..resources import queries_dir
from ..store import Store
from . import guard, isolated
from ..vocab import ENTITY_GRAPH
from .parameters import check as check_parameters

FORMATS = ("table", "csv", "tsv", "json")
_BATCH = 2000  # rows per message from the child process


@dataclass(frozen=True)
class Result:
    """Variables and rows of a SELECT (cells are plain strings or None), or a boolean for ASK."""

    variables: tuple[str, ...]
    rows: tuple[tuple[str | None, ...], ...]
    boolean: bool | None = None
    terms: tuple[tuple[dict | None, ...], ...] = ()  # SPARQL JSON term objects, cell by cell


def named_queries() -> dict[str, Path]:
    return {p.stem: p for p in sorted(queries_dir().glob("*.rq"))}


def load_query(query: str) -> str:
    """The text of ``query``: a .rq path, a name from queries/, or SPARQL itself."""
    names = named_queries()
    if query in names:
        return names[query].read_text(encoding="utf-8")
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
    substitutions = {}
    for name, value in (params or {}).items():
        try:
            substitutions[ox.Variable(name)] = _term(value)
        except ValueError as exc:
            raise UsageError(f"--param {name}: {exc}") from None
    text = parsed.text
    if store.capabilities.kill_queries:  # evaluated in a child process that the deadline kills
        return _result(isolated.run(lambda: _batches(_evaluate(lambda: store.query(text, substitutions, default_graph=ENTITY_GRAPH))), timeout))
    return _result(_batches(_evaluate(lambda: store.query(text, substitutions, timeout=timeout, default_graph=ENTITY_GRAPH))))


def _evaluate(query):
    """("head", variables, boolean) then row tuples of terms, with engine errors as QueryError."""
    try:
        answer = query()
        if isinstance(answer, ox.QueryBoolean):
            yield "head", ("ask",), bool(answer)
            return
        if isinstance(answer, ox.QuerySolutions):
            variables = tuple(v.value for v in answer.variables)
            yield "head", variables, None
            for solution in answer:
                yield tuple(solution[v] for v in variables)
            return
        yield "head", ("subject", "predicate", "object"), None
        for t in answer:
            yield t.subject, t.predicate, t.object
    except SyntaxError as exc:
        raise QueryError(f"invalid SPARQL: {str(exc).splitlines()[0]}") from None
    except (OSError, RuntimeError) as exc:
        raise QueryError(f"query failed: {str(exc).splitlines()[0]}") from None


def _batches(items):
    """The head, then rows of plain cells (see _cell) in lists of up to _BATCH."""
    items = iter(items)
    yield next(items)
    batch = []
    for row in items:
        batch.append(tuple(_cell(t) for t in row))
        if len(batch) == _BATCH:
            yield batch
            batch = []
    yield batch


_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def _cell(term) -> tuple | None:
    """A term as (type, value, language, datatype): plain data, cheap to send between
    processes (dictionaries cost 7x more to unpickle)."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return "uri", term.value, None, None
    if isinstance(term, ox.BlankNode):
        return "bnode", term.value, None, None
    if isinstance(term, ox.Literal):
        datatype = term.datatype.value
        return "literal", term.value, term.language, None if datatype == _XSD_STRING or term.language else datatype
    return "literal", str(term), None, None  # a quoted triple: its N-Triples form


def _json_term(cell: tuple | None) -> dict | None:
    """A cell as SPARQL 1.1 Query Results JSON writes the term."""
    if cell is None:
        return None
    kind, value, language, datatype = cell
    out = {"type": kind, "value": value}
    if language:
        out["xml:lang"] = language
    elif datatype:
        out["datatype"] = datatype
    return out


def _result(messages) -> Result:
    messages = iter(messages)
    _, variables, boolean = next(messages)
    if boolean is not None:
        return Result(variables, ((str(boolean).lower(),),), boolean=boolean)
    rows = [row for batch in messages for row in batch]
    return Result(variables, tuple(tuple(None if c is None else c[1] for c in row) for row in rows),
                  terms=tuple(tuple(_json_term(c) for c in row) for row in rows))


def format_result(result: Result, fmt: str) -> str:
    if fmt == "json":
        if result.boolean is not None:
            return json.dumps({"head": {}, "boolean": result.boolean}, indent=1)
        bindings = [{v: t for v, t in zip(result.variables, row) if t is not None} for row in result.terms]
        return json.dumps({"head": {"vars": list(result.variables)}, "results": {"bindings": bindings}},
                          indent=1, ensure_ascii=False)
    if fmt in ("csv", "tsv"):
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter="," if fmt == "csv" else "\t", lineterminator="\n")
        writer.writerow(result.variables)
        for row in result.rows:
            writer.writerow(["" if c is None else c for c in row])
        return buffer.getvalue().rstrip("\n")
    return table(result.variables, result.rows)


def table(header, rows, limit: int = 60) -> str:
    cells = [[("" if c is None else str(c)).replace("\n", " ") for c in row] for row in rows]
    cells = [[c if len(c) <= limit else c[: limit - 1] + "\u2026" for c in row] for row in cells]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.append(f"({len(cells)} row{'s' if len(cells) != 1 else ''})")
    return "\n".join(lines)
