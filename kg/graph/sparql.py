"""Run SPARQL against the store: named queries from queries/, files, or inline text.

Queries are read-only: updates are refused by the parser (kg only calls the query entry point)
and SERVICE, which would make the server call other servers, is refused unless allowed.
Parameters are bound as RDF terms through Oxigraph's substitutions, never pasted into the text.
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from ..errors import QueryError, UsageError
from ..resources import queries_dir
from ..store import Store
from .parameters import check as check_parameters

FORMATS = ("table", "csv", "tsv", "json")
_UPDATE = re.compile(r"\b(INSERT|DELETE|LOAD|CLEAR|DROP|CREATE|ADD|MOVE|COPY)\b", re.I)
_SERVICE = re.compile(r"\bSERVICE\b", re.I)
_QUERY_FORM = re.compile(r"\b(SELECT|ASK|CONSTRUCT|DESCRIBE)\b", re.I)


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
    bare = _strip(query)
    if not (_QUERY_FORM.search(bare) or _UPDATE.search(bare)):
        raise UsageError(f"{query!r} is neither a query name, a .rq file nor SPARQL",
                         hint=f"named queries: {', '.join(names)}")
    return query


def _strip(sparql: str) -> str:
    """The query without comments, string literals and IRIs, for keyword checks."""
    s = re.sub(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', '""', sparql)
    s = re.sub(r"<[^<>\s]*>", "<>", s)
    return re.sub(r"#[^\n]*", "", s)


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
    """Run a read-only query with bound parameters, giving up after ``timeout`` seconds."""
    text = load_query(query)
    check_parameters(query, text, params or {})
    bare = _strip(text)
    if _UPDATE.search(bare) and not _QUERY_FORM.search(bare):
        raise QueryError("kg query is read-only: INSERT, DELETE, LOAD, CLEAR, DROP and CREATE are refused")
    if _SERVICE.search(bare) and not allow_service:
        raise QueryError("SERVICE (calls to other SPARQL servers) is refused", hint="pass --allow-service to permit it")
    substitutions = {}
    for name, value in (params or {}).items():
        try:
            substitutions[ox.Variable(name)] = _term(value)
        except ValueError as exc:
            raise UsageError(f"--param {name}: {exc}") from None
    def evaluate():
        try:
            answer = store.query(text, substitutions)
            if isinstance(answer, ox.QueryBoolean):
                return answer, None, None
            if isinstance(answer, ox.QuerySolutions):
                variables = tuple(v.value for v in answer.variables)
                return None, variables, [tuple(sol[v] for v in variables) for sol in answer]
            return None, ("subject", "predicate", "object"), [(t.subject, t.predicate, t.object) for t in answer]
        except SyntaxError as exc:
            raise QueryError(f"invalid SPARQL: {str(exc).splitlines()[0]}") from None
        except (OSError, RuntimeError) as exc:
            # Oxigraph binds only projected variables; say so when that is the likely cause
            hint = "each --param must be a variable the query selects" if substitutions else None
            raise QueryError(f"query failed: {str(exc).splitlines()[0]}", hint=hint) from None

    boolean, variables, solutions = _within(evaluate, timeout)
    if boolean is not None:
        return Result(("ask",), ((str(bool(boolean)).lower(),),), boolean=bool(boolean))
    rows = tuple(tuple(None if t is None else t.value for t in row) for row in solutions)
    terms = tuple(tuple(_json_term(t) for t in row) for row in solutions)
    return Result(variables, rows, terms=terms)


def _within(work, timeout: float | None):
    """Run ``work`` and return its result, or raise QueryError after ``timeout`` seconds.

    The query runs in a daemon thread (Oxigraph releases the GIL while it evaluates), so the
    caller gets its answer in time; the abandoned evaluation ends with the process.
    """
    if not timeout:
        return work()
    box: dict = {}

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, name="kg-query", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise QueryError(f"the query did not finish within {timeout:g} s",
                         hint="narrow it (LIMIT, a FILTER, a named relation) or raise --timeout")
    if "error" in box:
        raise box["error"]
    return box["value"]


def _json_term(term) -> dict | None:
    """A term as SPARQL 1.1 Query Results JSON writes it."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    out = {"type": "literal", "value": term.value}
    if term.language:
        out["xml:lang"] = term.language
    elif term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
        out["datatype"] = term.datatype.value
    return out


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
