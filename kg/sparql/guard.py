"""Read a SPARQL query the way the engines read it, to decide what it may do before it runs.

A tokenizer that knows SPARQL's comments, strings, IRIs, prefixed names and variables (the
terminals of the SPARQL grammar, as Oxigraph defines them) and a small parser of the query's
structure (its form, its group graph patterns, its subqueries and what each projects) decide:

- the query form (SELECT, CONSTRUCT, ASK, DESCRIBE), or that the text is an update, which is refused;
- whether it calls SERVICE, which is refused unless allowed;
- whether it nests deeper than :data:`MAX_NESTING`, which is refused: the engines parse by
  recursion, and 5,000 parentheses crashed a local query's process and an ``oxigraph serve``
  (300 brackets ``[ ]``, 20,000 ``!`` did too). This module's parser keeps its nesting on a
  list, so it reads any depth before it refuses one;
- whether each ``--param`` can be bound, and, for a SPARQL server, the query with it bound.

The text that is run is the text analysed here, with comments blanked out (so no engine finds
code where this module saw a comment). Oxigraph 0.5's parser is more lenient than the grammar,
and three of its readings are met here, each found with a query that called SERVICE past a
tokenizer that followed the grammar alone:

- keywords need no boundary (``SERVICEx:y {...}`` is ``SERVICE x:y {...}``, ``?s ?p trueSERVICE``
  is ``true`` then ``SERVICE``): so a word that, after any ``a``, ``true`` or ``false``, begins
  with "service" counts as SERVICE;
- a local name ends at its second dotted part (``x:a.b.SERVICE`` is ``x:a.b . SERVICE``): the
  tokenizer ends it there too;
- ``<`` after an operand is "less than" (``FILTER(1<2)SERVICE?u#>`` followed by a line is a
  comparison, a SERVICE and a comment where the grammar sees an IRI): so an IRI after an operand
  is sent with every character but letters, digits and ``:/._~%-`` written as a ``\\u`` escape,
  which reads as the same IRI and as no code.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass, field
from functools import lru_cache

from ..errors import QueryError, UsageError

QUERY_FORMS = ("SELECT", "CONSTRUCT", "ASK", "DESCRIBE")
UPDATE_KEYWORDS = ("INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH")
# the deepest nesting of parentheses, braces and brackets a query may have (each ``!`` of a
# run counts a level too: Oxigraph reads ``!!x`` as nested negations). The ready queries nest 8
# deep; Oxigraph 0.5 ran 2,000 parentheses or braces but crashed on 300 brackets, so 100 leaves
# a margin whatever mix of them a query has, and the levels kg adds (a VALUES group, a GRAPH).
MAX_NESTING = 100
_OPENING = {"(", "{", "[", "<<(", "{|", "<<"}
_CLOSING = {")", "}", "]", ")>>", "|}", ">>"}

# the terminals of the SPARQL grammar with Oxigraph 0.5's character classes (its prefixed names
# take no characters beyond U+FFFD, and a local name at most one dotted part after the first).
# The scanner runs on a copy of the text in which every non-ASCII letter of those classes reads
# as "\u00c0" and every other non-ASCII name character as "\u00b7": the same tokens, and the
# classes compile in microseconds instead of the 40 ms the full Unicode ranges take.
_BASE_RANGES = ((0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0x2FF), (0x370, 0x37D), (0x37F, 0x1FFF), (0x200C, 0x200D),
                (0x2070, 0x218F), (0x2C00, 0x2FEF), (0x3001, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFFD))
_NAME_RANGES = ((0xB7, 0xB7), (0x300, 0x36F), (0x203F, 0x2040))
_BASE = "A-Za-z\u00c0"
_U = _BASE + "_"
_CHARS = _U + "\\-0-9\u00b7"
_PLX = r"%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%]"
_PREFIX = f"[{_BASE}][{_CHARS}]*(?:\\.+[{_CHARS}]+)*"
_LOCAL = f"(?:[{_U}:0-9]|{_PLX})(?:[{_CHARS}:]|{_PLX})*(?:\\.+(?:[{_CHARS}:]|{_PLX})+)?"
_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_ECHAR = r"\\[tbnrf\\\"']"
_TOKENS = [
    ("space", r"[ \t\r\n]+"),
    ("comment", r"#[^\r\n]*"),
    ("iri", f"<(?:[^<>\"{{}}|^`\\\\\\x00-\\x20]|{_UCHAR})*>"),
    ("string", f"'''(?:'{{0,2}}(?:[^'\\\\]|{_ECHAR}|{_UCHAR}))*'''"),
    ("string", f'"""(?:"{{0,2}}(?:[^"\\\\]|{_ECHAR}|{_UCHAR}))*"""'),
    ("string", f"'(?:[^'\\\\\\r\\n]|{_ECHAR}|{_UCHAR})*'"),
    ("string", f'"(?:[^"\\\\\\r\\n]|{_ECHAR}|{_UCHAR})*"'),
    ("langtag", r"@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*(?:--[a-zA-Z]+)?"),
    ("number", r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][+-]?[0-9]+|[0-9]*\.[0-9]+|[0-9]+"),
    ("var", f"[?$][{_U}0-9][{_U}0-9\u00b7]*"),
    ("bnode", f"_:[{_U}0-9][{_CHARS}]*(?:\\.+[{_CHARS}]+)*"),
    ("pname", f"(?:{_PREFIX})?:(?:{_LOCAL})?"),
    ("word", r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*"),
    ("punct", r"<<\(|\)>>|\|\||&&|\^\^|<=|>=|!=|<<|>>|\{\||\|\}|[{}\[\]();,.+\-*/<>=!^|~?]"),
]
_SCANNER = re.compile("|".join(f"(?P<{kind}{n}>{rx})" for n, (kind, rx) in enumerate(_TOKENS)))
_KINDS = {f"{kind}{n}": kind for n, (kind, _) in enumerate(_TOKENS)}
# what Oxigraph 0.5 may read as SERVICE: see the module docstring
_SERVICE = re.compile(r"(?:a|true|false)*service", re.I)
_OPERAND = {"var", "string", "langtag", "number", "iri", "pname", "bnode", "word"}
_IRI_SAFE = re.compile(r"[A-Za-z0-9:/._~%-]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}")


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # iri, string, langtag, number, var, bnode, pname, word, punct
    text: str
    start: int
    end: int

    def word(self, *words: str) -> bool:
        return self.kind == "word" and self.text.upper() in words


def tokenize(text: str) -> tuple[tuple[Token, ...], str]:
    """The tokens of ``text`` and the text with its comments blanked out (same length)."""
    tokens = tuple(_scan(text))
    blanked, pos = [], 0
    for token in tokens:
        # between tokens there is only white space and comments: keep the white space
        blanked.append(re.sub(r"[^\r\n\t ]", " ", text[pos:token.start]))
        blanked.append(token.text)
        pos = token.end
    blanked.append(re.sub(r"[^\r\n\t ]", " ", text[pos:]))
    return tokens, "".join(blanked)


def _scan(text: str):
    """Tokens one by one; a QueryError at the first character no token starts with."""
    folded, pos = _fold(text), 0
    while pos < len(text):
        match = _SCANNER.match(folded, pos)
        if match is None:
            raise QueryError(f"invalid SPARQL: unexpected {text[pos]!r} at {_where(text, pos)}")
        kind = _KINDS[match.lastgroup]
        if kind not in ("space", "comment"):
            yield Token(kind, text[pos:match.end()], pos, match.end())
        pos = match.end()


def _fold(text: str) -> str:
    """``text`` with each non-ASCII name character replaced by the one that stands for its class."""
    if text.isascii():
        return text

    def within(code: int, ranges) -> bool:
        return any(low <= code <= high for low, high in ranges)

    return "".join(c if c.isascii() else "\u00c0" if within(ord(c), _BASE_RANGES)
                   else "\u00b7" if within(ord(c), _NAME_RANGES) else c for c in text)


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    return f"line {line}, column {pos - (text.rfind(chr(10), 0, pos) + 1) + 1}"


@dataclass
class Scope:
    """The main query or one subquery: what it projects and assigns, and its group patterns."""

    form: str
    star: bool = False
    projected: set[str] = field(default_factory=set)
    assigned: set[str] = field(default_factory=set)  # BIND(... AS ?v), (... AS ?v)
    mentioned: set[str] = field(default_factory=set)
    groups: list[tuple[int, int, bool]] = field(default_factory=list)  # open, close, holds a subquery
    children: list[Scope] = field(default_factory=list)

    def selects(self, name: str) -> bool:
        return name in self.projected or (self.star and name in self.mentioned)


@dataclass(frozen=True)
class Query:
    """A parsed query: its form, whether it calls SERVICE, and the text to run."""

    source: str
    form: str
    service: Token | None
    tokens: tuple[Token, ...]
    blanked: str
    scope: Scope | None  # None when the structure could not be followed (then nothing is bound)

    @property
    def text(self) -> str:
        return _render(self, {}, {})

    def is_graph(self) -> bool:
        return self.form in ("CONSTRUCT", "DESCRIBE")


def first_word(text: str) -> str | None:
    """The keyword after the prologue (BASE and PREFIX declarations), upper-cased; None if none."""
    tokens = []
    try:
        for token in _scan(text):  # the words before a syntax error are enough
            tokens.append(token)
    except QueryError:
        pass
    tokens = tuple(tokens)
    index = _after_prologue(tokens)
    return tokens[index].text.upper() if index < len(tokens) and tokens[index].kind == "word" else None


def _after_prologue(tokens: tuple[Token, ...]) -> int:
    i = 0
    while i < len(tokens):
        if tokens[i].word("BASE"):
            i += 2
        elif tokens[i].word("PREFIX"):
            i += 3
        else:
            break
    return i


@lru_cache(maxsize=256)
def parse(text: str) -> Query:
    """Parse ``text``; a QueryError if it is an update or no query."""
    tokens, blanked = tokenize(text)
    start = _after_prologue(tokens)
    head = tokens[start] if start < len(tokens) else None
    if any(t.word(*UPDATE_KEYWORDS) for t in tokens):  # no query uses these words
        raise QueryError("kg query is read-only: INSERT, DELETE, LOAD, CLEAR, DROP, CREATE, ADD, MOVE "
                         "and COPY are refused")
    if head is None or not head.word(*QUERY_FORMS):
        found = f"{head.text!r} at {_where(text, head.start)}" if head else "nothing"
        raise QueryError(f"invalid SPARQL: expected SELECT, CONSTRUCT, ASK or DESCRIBE, found {found}")
    service = next((t for t in tokens if t.kind in ("word", "pname") and _SERVICE.match(t.text)), None)
    try:
        scope = _run(_Parser(tokens).query(start))
    except _Unclear:
        scope = None
    return Query(text, head.text.upper(), service, tokens, blanked, scope)


def check(query: Query, allow_service: bool = False) -> None:
    """Refuse nesting deeper than :data:`MAX_NESTING`, and SERVICE unless ``allow_service``."""
    token = _too_deep(query.tokens)
    if token is not None:
        raise QueryError(f"the query is nested more than {MAX_NESTING} levels deep: {token.text!r} at "
                         f"{_where(query.source, token.start)}",
                         hint="parentheses, braces, brackets and each '!' of a run count a level, and deeper "
                              "nesting can crash a SPARQL engine")
    if query.service is not None and not allow_service:
        token = query.service
        raise QueryError(f"SERVICE (calls to other SPARQL servers) is refused: {token.text!r} at "
                         f"{_where(query.source, token.start)}", hint="pass --allow-service to permit it")


def _too_deep(tokens: tuple[Token, ...]) -> Token | None:
    """The first token nested deeper than :data:`MAX_NESTING`, or None."""
    depth = negations = 0
    for token in tokens:
        negations = negations + 1 if token.text == "!" else 0
        if token.text in _OPENING:
            depth += 1
        elif token.text in _CLOSING:
            depth = max(depth - 1, 0)  # too many closed: the engine says where
        if depth + negations > MAX_NESTING:
            return token
    return None


def check_bindable(query: Query, names, selected: bool = True) -> None:
    """A UsageError unless every name in ``names`` is a variable the query lets kg bind:
    one its SELECT clause names (or, for ASK and CONSTRUCT, one it uses; with ``selected``
    False, one it uses in any form), and never assigns."""
    for name in names:
        scope = query.scope
        if scope is None:
            raise UsageError(f"--param {name}: kg cannot follow the structure of this query to bind ?{name}")
        if not selected and name not in scope.mentioned:
            raise UsageError(f"--param {name}: the query does not use ?{name}")
        if selected and (scope.form == "DESCRIBE" or (scope.form == "SELECT" and scope.star)):
            raise UsageError(f"--param {name}: name ?{name} in the query's SELECT clause (a {scope.form}"
                             f"{' *' if scope.star else ''} query cannot be bound)")
        if selected and scope.form == "SELECT" and name not in scope.projected:
            raise UsageError(f"--param {name}: the query does not select ?{name}",
                             hint="each --param must be a variable in the SELECT clause")
        if selected and scope.form != "SELECT" and name not in scope.mentioned:
            raise UsageError(f"--param {name}: the query does not use ?{name}")
        if any(name in s.assigned for s in _binding_scopes(scope, name)):
            raise UsageError(f"--param {name}: the query assigns ?{name} itself (BIND or AS)")


def bind(query: Query, terms: dict[str, str], selected: bool = True) -> str:
    """The query text with each variable in ``terms`` (name -> an RDF term in SPARQL syntax)
    bound wherever the variable is in scope: a ``VALUES`` block at the start of every group
    pattern of the query, in UNION branches, OPTIONAL, MINUS, EXISTS and nested groups alike,
    and in the subqueries that select it. Inside a group, FILTER and BIND see the value, as
    they see a value bound by Oxigraph's substitutions. A UsageError as :func:`check_bindable`
    (``selected`` False binds variables the query does not select, which substitutions cannot)."""
    check_bindable(query, terms, selected)
    after: dict[int, list[str]] = {}
    before: dict[int, list[str]] = {}
    for name, term in terms.items():
        values = f" VALUES ?{name} {{ {term} }} "
        for scope in _binding_scopes(query.scope, name):
            for open_, close, holds_subquery in scope.groups:
                # a group holding a subquery holds nothing else: the VALUES goes around it
                after.setdefault(open_, []).append(values + ("{ " if holds_subquery else ""))
                if holds_subquery:
                    before.setdefault(close, []).append(" } ")
    text = _render(query, {i: "".join(v) for i, v in after.items()}, {i: "".join(v) for i, v in before.items()})
    bound = parse(text)
    if (bound.form, bound.service is None) != (query.form, query.service is None):
        # each term is one token (pyoxigraph serializes it), so this is a bug if it happens
        raise RuntimeError(f"binding {sorted(terms)} changed what the query does")
    return text


def in_graph(query: Query, graph: str) -> str:
    """The query text with its WHERE pattern read from the named graph ``graph`` (``WHERE { P }``
    becomes ``WHERE { GRAPH <G> { P } }``): exact, as every pattern of P outside a ``GRAPH`` block,
    subqueries and EXISTS included, then reads G, and a ``GRAPH`` block inside P still chooses its
    own graph. For a SPARQL server, whose protocol's default-graph-uri would hide the named graphs."""
    if query.scope is None:
        raise QueryError("kg cannot follow the structure of this query to read it from the facts' graph",
                         hint="check the query's braces, or name graphs with GRAPH ?g { ... }")
    if not query.scope.groups:
        return query.text  # DESCRIBE <iri> with no pattern
    open_, close, _ = min(query.scope.groups)
    before, after = {}, {open_: f" GRAPH {_escape_iri('<' + graph + '>')} {{ "}
    start = _after_prologue(query.tokens)
    if query.form == "CONSTRUCT" and query.tokens[start + 1].word("WHERE"):
        # CONSTRUCT WHERE { P } takes a plain pattern: write it as CONSTRUCT { P } WHERE { GRAPH <G> { P } }
        pattern = query.blanked[query.tokens[open_].end:query.tokens[close].start]
        after[start] = " { " + pattern + " } "
    before[close] = " } "
    return _render(query, after, before)


def _binding_scopes(scope: Scope, name: str):
    """``scope`` and the subqueries, nested to any depth, through which ``name`` reaches it."""
    todo = [scope]
    while todo:
        scope = todo.pop()
        yield scope
        todo.extend(reversed([child for child in scope.children if child.selects(name)]))


def _render(query: Query, after: dict[int, str], before: dict[int, str]) -> str:
    """The blanked text, with IRIs after operands escaped and text inserted around tokens."""
    out, pos, previous = [], 0, None
    for index, token in enumerate(query.tokens):
        out.append(query.blanked[pos:token.start])
        out.append(before.get(index, ""))
        operand = previous is not None and (previous.kind in _OPERAND or previous.text in (")", "]"))
        out.append(_escape_iri(token.text) if token.kind == "iri" and operand else token.text)
        out.append(after.get(index, ""))
        pos, previous = token.end, token
    out.append(query.blanked[pos:])
    return "".join(out)


def _escape_iri(iri: str) -> str:
    inner, out, i = iri[1:-1], [], 0
    while i < len(inner):
        match = _IRI_SAFE.match(inner, i)
        if match:
            out.append(match.group())
            i = match.end()
        else:
            code = ord(inner[i])
            out.append(f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
            i += 1
    return "<" + "".join(out) + ">"


class _Unclear(Exception):
    """The structure of the query is not what the grammar allows (the engine will say where)."""


# A method of _Parser is a generator: it yields each parse it needs (another method's generator)
# and is sent the index that parse ends at, so the nesting of a query lives on _run's list, not
# on Python's stack, and no depth of braces reaches the recursion limit.
_Step = Generator["_Step", int, int]


def _run(parse: Generator) -> object:
    """What ``parse`` returns, running each parse it yields to its end first."""
    stack, sent = [parse], None
    while stack:
        try:
            inner = stack[-1].send(sent)
        except StopIteration as done:
            stack.pop()
            sent = done.value
        else:
            stack.append(inner)
            sent = None
    return sent


class _Parser:
    """Follows the braces of a query: group patterns, subqueries, VALUES blocks, templates."""

    def __init__(self, tokens: tuple[Token, ...]) -> None:
        self.tokens = tokens

    def at(self, i: int) -> Token:
        if i >= len(self.tokens):
            raise _Unclear
        return self.tokens[i]

    def query(self, i: int) -> Generator[_Step, int, Scope]:
        form = self.at(i).text.upper()
        scope = Scope(form)
        i += 1
        if form == "SELECT":
            i = yield self.projection(i, scope)
        elif form == "CONSTRUCT" and self.at(i).text == "{":
            i = yield self.block(i, scope)  # the template
        elif form == "DESCRIBE":
            while i < len(self.tokens) and not (self.tokens[i].word("FROM", "WHERE") or self.tokens[i].text == "{"):
                self.mention(i, scope)
                i += 1
        while i < len(self.tokens) and self.tokens[i].word("FROM"):
            i += 3 if self.at(i + 1).word("NAMED") else 2
        if i < len(self.tokens) and self.tokens[i].word("WHERE"):
            i += 1
        if i < len(self.tokens) and self.tokens[i].text == "{":
            i = yield self.group(i, scope)
        elif form != "DESCRIBE":
            raise _Unclear
        if (yield self.modifiers(i, scope)) != len(self.tokens):
            raise _Unclear
        return scope

    def projection(self, i: int, scope: Scope) -> _Step:
        """SELECT's clause up to FROM, WHERE or the group."""
        if self.at(i).word("DISTINCT", "REDUCED"):
            i += 1
        if self.at(i).text == "*":
            scope.star = True
            return i + 1
        while not (self.at(i).word("FROM", "WHERE") or self.at(i).text == "{"):
            token = self.at(i)
            if token.kind == "var":
                scope.projected.add(token.text[1:])
                i += 1
            elif token.text == "(":
                assigned = set(scope.assigned)
                i = yield self.expression(i, scope)
                scope.projected |= scope.assigned - assigned  # (... AS ?v)
            else:
                raise _Unclear
        return i

    def expression(self, i: int, scope: Scope) -> _Step:
        """From ``(`` to its ``)``; groups inside (EXISTS) belong to ``scope``."""
        return (yield self.balanced(i, scope, ("(", "<<("), (")", ")>>"), groups=True))

    def block(self, i: int, scope: Scope) -> _Step:
        """A CONSTRUCT template or a VALUES data block: braces with no group pattern inside."""
        return (yield self.balanced(i, scope, ("{", "{|"), ("}", "|}"), groups=False))

    def balanced(self, i: int, scope: Scope, opening: tuple, closing: tuple, groups: bool) -> _Step:
        """From an opening bracket to the one that closes it; with ``groups``, a ``{`` inside
        opens a group pattern of ``scope``."""
        depth = 0
        while True:
            token = self.at(i)
            if groups and token.text in ("{", "}"):
                if token.text == "}":
                    raise _Unclear
                i = yield self.group(i, scope)
                continue
            if token.text in opening:
                depth += 1
            elif token.text in closing:
                depth -= 1
                if depth == 0:
                    return i + 1
            self.mention(i, scope)
            i += 1

    def group(self, i: int, scope: Scope) -> _Step:
        """From ``{`` to its ``}``: a group pattern of ``scope``, or one holding a subquery."""
        open_ = i
        if self.at(i + 1).word("SELECT"):
            child = Scope("SELECT")
            j = yield self.projection(i + 2, child)
            if self.at(j).word("WHERE"):
                j += 1
            if self.at(j).text != "{":
                raise _Unclear
            j = yield self.group(j, child)
            j = yield self.modifiers(j, child)
            if self.at(j).text != "}":
                raise _Unclear
            scope.children.append(child)
            scope.mentioned |= child.projected | (child.mentioned if child.star else set())
            scope.groups.append((open_, j, True))
            return j + 1
        i += 1
        while True:
            token = self.at(i)
            if token.text == "}":
                scope.groups.append((open_, i, False))
                return i + 1
            if token.text == "{":
                i = yield self.group(i, scope)
            elif token.word("VALUES"):
                i = yield self.values(i, scope)
            elif token.text == "{|":
                i = yield self.block(i, scope)  # an annotation of the triple before it
            elif token.word("SELECT") or token.text == "|}":
                raise _Unclear
            else:
                self.mention(i, scope)
                i += 1

    def values(self, i: int, scope: Scope) -> _Step:
        i += 1
        while self.at(i).text != "{":
            self.mention(i, scope)
            i += 1
        return (yield self.block(i, scope))

    def modifiers(self, i: int, scope: Scope) -> _Step:
        """GROUP BY, HAVING, ORDER BY, LIMIT, OFFSET and a trailing VALUES, up to a ``}`` or the end."""
        while i < len(self.tokens) and self.tokens[i].text != "}":
            token = self.tokens[i]
            if token.word("VALUES"):
                i = yield self.values(i, scope)
            elif token.text == "(":
                i = yield self.expression(i, scope)
            elif token.text == "{":
                raise _Unclear
            else:
                self.mention(i, scope)
                i += 1
        return i

    def mention(self, i: int, scope: Scope) -> None:
        token = self.tokens[i]
        if token.kind == "var":
            scope.mentioned.add(token.text[1:])
            if i > 0 and self.tokens[i - 1].word("AS"):
                scope.assigned.add(token.text[1:])
