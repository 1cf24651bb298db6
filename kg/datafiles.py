"""kg's data files, read and checked where they are read: the files of ``ontology/`` and
``queries/``, or of your copy named by ``KG_DATA`` (:mod:`kg.resources` finds them).

Each reader here raises :class:`~kg.errors.DataError` (exit 78) with one line naming the file,
and the line and the field where there is one, for a file that is empty, not UTF-8, not TOML,
not Turtle, or a JSONL line that is not a JSON object with the fields its file declares (a
:data:`Spec` each). What an entry means (a relation kg.ttl defines, a class the gazetteer may
name) is checked by the loader that knows it, with a DataError worded the same way.
"""

from __future__ import annotations

import json
import tomllib
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from .errors import DataError

# What a field holds: str, int, float (an int will do), bool, dict (a JSON object), list[SPEC],
# dict[str, SPEC] (a table of them) or Literal[...] (one of those values).
Spec = Any


def problem(path: Path | str, message: str, line: int | None = None) -> DataError:
    """The error of a data file: ``FILE: message``, or ``FILE:LINE: message``."""
    return DataError(f"{path}{'' if line is None else f':{line}'}: {message}")


def text(path: Path) -> str:
    """The file as text: UTF-8, with something in it."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise problem(path, f"cannot be read ({exc.strerror or exc})") from None
    try:
        content = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise problem(path, f"not UTF-8 text (byte {data[exc.start]:#04x})", line) from None
    if not content.strip():
        raise problem(path, "the file is empty")
    return content


def toml(path: Path, fields: Fields | None = None) -> dict:
    """The TOML file's table, with the ``fields`` it must have."""
    try:
        data = tomllib.loads(text(path))
    except tomllib.TOMLDecodeError as exc:
        raise problem(path, f"not valid TOML ({exc})") from None
    wrong = fields.problem(data) if fields else None
    if wrong:
        raise problem(path, wrong)
    return data


def turtle(path: Path) -> list:
    """The Turtle file's triples (pyoxigraph's), parsed whole: an error names its line."""
    import pyoxigraph as ox

    source = text(path).encode("utf-8")
    try:
        return list(ox.parse(source, format=ox.RdfFormat.TURTLE))
    except SyntaxError as exc:
        raise problem(path, f"not valid Turtle ({str(exc).splitlines()[0]})") from None


class Fields:
    """What an entry (a JSONL line, a TOML table) holds: the ``required`` fields and any of the
    ``optional`` ones, each of its :data:`Spec` (never null: an optional field is left out); other
    fields are the file's own notes. The tests are made once for all the entries of a file."""

    def __init__(self, required: Mapping[str, Spec], optional: Mapping[str, Spec] | None = None) -> None:
        self._fields = [(name, _test(spec), spec, True) for name, spec in required.items()]
        self._fields += [(name, _test(spec), spec, False) for name, spec in (optional or {}).items()]

    def problem(self, entry: dict) -> str | None:
        """What is wrong with ``entry``, or None."""
        for name, test, spec, needed in self._fields:
            if name not in entry:
                if needed:
                    return f"the entry has no {name!r}"
            elif not test(entry[name]):
                return f"{name!r} must be {describe(spec)}, not {_shown(entry[name])}"
        return None


def jsonl(path: Path, fields: Fields, check: Callable[[dict], str | None] | None = None) -> list[tuple[int, dict]]:
    """The entries of a JSONL file with their line numbers: each line a JSON object with the
    ``fields``; ``check(entry)`` says what else is wrong with an entry, if anything. Blank lines
    and lines starting with ``#`` are skipped; a file without entries is an error."""
    entries = []
    for number, line in enumerate(text(path).splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise problem(path, f"not JSON ({getattr(exc, 'msg', exc)})", number) from None
        if not isinstance(entry, dict):
            raise problem(path, f"not a JSON object but {_kind(entry)}", number)
        wrong = fields.problem(entry) or (check(entry) if check else None)
        if wrong:
            raise problem(path, wrong, number)
        entries.append((number, entry))
    if not entries:
        raise problem(path, "no entries in the file")
    return entries


def describe(spec: Spec, plural: bool = False) -> str:
    """``spec`` in words, for an error: "a list of strings" (``plural``: "lists of strings")."""
    origin, args = typing.get_origin(spec), typing.get_args(spec)
    if origin is Literal:
        return ("values among " if plural else "one of ") + ", ".join(repr(a) for a in args)
    if origin in (list, dict):
        what = "list" if origin is list else "table"
        return (f"{what}s of " if plural else f"a {what} of ") + describe(args[-1], plural=True)
    singular, many = _WORDS[spec]
    return many if plural else singular


_WORDS = {str: ("a string", "strings"), int: ("an integer", "integers"), float: ("a number", "numbers"),
          bool: ("true or false", "true or false values"), dict: ("an object", "objects")}


def _test(spec: Spec) -> Callable[[object], bool]:
    """A predicate for ``spec``, made once for all the entries of a file."""
    origin, args = typing.get_origin(spec), typing.get_args(spec)
    if origin is Literal:
        return lambda v: isinstance(v, str | int) and v in args
    if origin is list:
        item = _test(args[0])
        return lambda v: isinstance(v, list) and all(map(item, v))
    if origin is dict:
        value = _test(args[1])
        return lambda v: isinstance(v, dict) and all(isinstance(k, str) and value(x) for k, x in v.items())
    if spec is float:
        return lambda v: isinstance(v, int | float) and not isinstance(v, bool)
    if spec is int:
        return lambda v: isinstance(v, int) and not isinstance(v, bool)
    return lambda v: isinstance(v, spec)


def _kind(value: object) -> str:
    return {list: "a list", str: "a string", bool: "true or false", int: "a number", float: "a number"}.get(
        type(value), "null")


def _shown(value: object) -> str:
    shown = json.dumps(value, ensure_ascii=False, default=str)  # default: TOML's dates and times
    return shown if len(shown) <= 40 else shown[:39] + "\u2026"
