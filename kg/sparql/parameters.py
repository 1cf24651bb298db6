"""The parameters a query declares in its header comment, and the check that a run gives them.

Every file in queries/ opens with a comment that names its parameters, the one place they are
described (``kg query list`` and the README point there)::

    # Parameters: none.
    # Parameters: name - a label or alias of the entity, e.g. --param name=Hezbollah
    # Parameters: rel  - a relation's local name, e.g. --param rel=captured (optional)
    #             name - a label or alias of the subject or object entity (optional)

A parameter is required unless its description ends with ``(optional)``. One whose description
ends with ``(any case)`` (before any ``(optional)``) is a name looked up in any case: kg binds
``?NAME_lower`` as well, to the value in lower case, the form in which the entity graph holds
every label and alias (``skos:hiddenLabel``). Matching that form is an index lookup; comparing
``LCASE`` of every label with the value scans them all (seconds at a million triples), because
Oxigraph looks up only terms it is given, never ones it computes. Without a required one
a query still runs, matching nothing (an unbound variable equals nothing), so a forgotten
``--param`` would look like an empty answer; with one it does not declare, Oxigraph refuses the
binding with a message about projected variables. Both are caught here, before the query runs.
Inline SPARQL and .rq files without such a header are not checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import UsageError

_HEADER = re.compile(r"^#\s*Parameters:\s*(.*)$")
_ENTRY = re.compile(r"^#?\s*([A-Za-z_][A-Za-z0-9_]*)\s+-\s+(.+?)\s*$")
_OPTIONAL = "(optional)"
_ANY_CASE = "(any case)"
LOWER = "_lower"  # the suffix of the variable an (any case) parameter is bound to in lower case


@dataclass(frozen=True)
class Parameter:
    name: str
    description: str
    required: bool
    any_case: bool = False


def declared(text: str) -> dict[str, Parameter] | None:
    """The parameters the header comment of ``text`` declares, or None if it has no such line."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        header = _HEADER.match(line)
        if header is None:
            continue
        first = header.group(1).strip()
        if first.rstrip(".").lower() == "none":
            return {}
        entries = [first] + [rest.lstrip("#") for rest in _continuation(lines[number + 1:])]
        out = {}
        for entry in entries:
            match = _ENTRY.match(entry.strip())
            if match is None:
                raise ValueError(f"unreadable parameter line {entry!r}: expected 'NAME - description'")
            name, description = match.groups()
            required = not description.endswith(_OPTIONAL)
            description = description.removesuffix(_OPTIONAL).strip()
            any_case = description.endswith(_ANY_CASE)
            out[name] = Parameter(name, description.removesuffix(_ANY_CASE).strip(), required, any_case)
        return out
    return None


def _continuation(lines: list[str]) -> list[str]:
    """The comment lines after the header that go on its list (indented ``#   name - ...``)."""
    out = []
    for line in lines:
        if not re.match(r"^#\s{2,}[A-Za-z_]\w*\s+-\s", line):
            break
        out.append(line)
    return out


def check(query: str, text: str, params: dict[str, str]) -> None:
    """Raise UsageError if ``params`` lacks a required parameter of ``text`` or names one it does
    not declare; ``query`` is the name or file the user gave."""
    try:
        wanted = declared(text)
    except ValueError as exc:
        raise UsageError(f"query {query!r}: {exc}") from None
    if wanted is None:
        return
    unknown = sorted(set(params) - set(wanted))
    if unknown:
        takes = ", ".join(wanted) if wanted else "none"
        raise UsageError(f"query {query!r} has no parameter {unknown[0]!r}", hint=f"its parameters: {takes}")
    for parameter in wanted.values():
        if parameter.required and parameter.name not in params:
            raise UsageError(f"query {query!r} needs --param {parameter.name}=VALUE",
                             hint=parameter.description)


def lowered(text: str, params: dict[str, str]) -> dict[str, str]:
    """``NAME_lower`` -> the value in lower case, for each parameter of ``params`` that ``text``
    declares ``(any case)``."""
    wanted = declared(text) or {}
    return {name + LOWER: value.lower() for name, value in params.items()
            if name in wanted and wanted[name].any_case}
