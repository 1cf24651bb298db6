"""The model's ``attribute_ruler`` with its patterns found by dictionary look-ups instead of spaCy's Matcher.

The ruler of ``en_core_web_sm`` maps tags to parts of speech and morphology with 179 patterns. The
Matcher tries every pattern at every token, so the ruler took 8-9 ms an article: a sixth of the
model's whole time, more than the tagger and the lemmatizer together. Its patterns are simple
ones (a sequence of tokens, each a few attributes equal to a value, in a list or not, or
matching a regular expression): indexed by the attribute values of their first token, they are
found with a handful of look-ups a token (the ruler then takes 1.6-2 ms an article, most of it
setting the attributes).

The matches are the Matcher's, exactly (every (pattern, start, end), each once), and they are
applied by spaCy's own :meth:`AttributeRuler.set_annotations` in its order, so every token gets
the same attributes. A model whose ruler has a pattern this index cannot read (an operator, an
extension attribute, another predicate) keeps spaCy's Matcher for all of them.
"""

from __future__ import annotations

import itertools
import re

from spacy.attrs import IDS
from spacy.language import Language
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc

# attributes whose value the Matcher compares as Doc.to_array gives it: string hashes and flags
ATTRIBUTES = ("ORTH", "LOWER", "NORM", "TAG", "DEP", "IS_SPACE")
STRINGS = frozenset({"ORTH", "LOWER", "NORM", "TAG", "DEP"})


class Unsupported(Exception):
    """A pattern the index cannot match as the Matcher does."""


@Language.factory("kg_attribute_ruler", default_config={"validate": False})
def make_attribute_ruler(nlp: Language, name: str, validate: bool) -> IndexedAttributeRuler:
    return IndexedAttributeRuler(nlp.vocab, name, validate=validate)


def index_attribute_ruler(nlp: Language, name: str = "attribute_ruler") -> None:
    """Replace the ruler ``name`` by an :class:`IndexedAttributeRuler` with the same patterns."""
    patterns = nlp.get_pipe(name).patterns
    ruler = nlp.replace_pipe(name, "kg_attribute_ruler")
    ruler.add_patterns(patterns)
    ruler.build_index()


class IndexedAttributeRuler(AttributeRuler):
    """An AttributeRuler whose :meth:`match` looks its patterns up (see the module docstring)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.index: Index | None = None

    def build_index(self) -> None:
        try:
            self.index = Index(self.vocab, [(n, p) for n, entry in enumerate(self.patterns)
                                            for p in entry["patterns"]])
        except Unsupported:
            self.index = None

    def clear(self) -> None:
        super().clear()
        self.index = None

    def add(self, *args, **kwargs) -> None:
        super().add(*args, **kwargs)
        self.index = None  # out of date: the Matcher serves until build_index is called again

    def match(self, doc: Doc):
        if self.index is None:
            return super().match(doc)
        strings = self.vocab.strings
        return sorted((n, strings[str(n)], start, end) for n, start, end in self.index.matches(doc))


class Token:
    """One token of a pattern: attributes (columns of the index) with a value (a hash), in a set
    of values or not, or matching a regex."""

    def __init__(self, vocab, spec: dict, column: dict[str, int]) -> None:
        self.exact: dict[int, int] = {}
        self.sets: dict[int, frozenset[int]] = {}
        self.excluded: dict[int, frozenset[int]] = {}
        self.regexes: list[tuple[int, re.Pattern]] = []
        for attr, value in spec.items():
            name = _attribute(attr)
            if isinstance(value, dict):
                if len(value) != 1:
                    raise Unsupported(spec)
                (predicate, argument), = value.items()
                if predicate in ("IN", "NOT_IN") and isinstance(argument, list):
                    values = frozenset(_value(vocab, name, v) for v in argument)
                    (self.sets if predicate == "IN" else self.excluded)[column[name]] = values
                elif predicate == "REGEX" and isinstance(argument, str) and name in STRINGS:
                    self.regexes.append((column[name], re.compile(argument)))
                else:
                    raise Unsupported(spec)
            else:
                self.exact[column[name]] = _value(vocab, name, value)

    @property
    def keyed(self) -> bool:
        """Whether the values of the exact and listed attributes are all there is to check."""
        return not self.regexes and not self.excluded

    def fits(self, columns: list[list[int]], i: int, strings) -> bool:
        return (all(columns[c][i] == v for c, v in self.exact.items())
                and all(columns[c][i] in values for c, values in self.sets.items())
                and all(columns[c][i] not in values for c, values in self.excluded.items())
                and all(regex.search(strings[columns[c][i]]) for c, regex in self.regexes))


class Index:
    """Patterns by the attribute values of their first token."""

    def __init__(self, vocab, patterns: list[tuple[int, list[dict]]]) -> None:
        self.vocab = vocab
        if any(not isinstance(p, list) or not p or any(not isinstance(t, dict) for t in p) for _, p in patterns):
            raise Unsupported(patterns)
        # only the attributes the patterns read are read from each Doc
        self.attributes = sorted({_attribute(a) for _, p in patterns for spec in p for a in spec})
        column = {name: c for c, name in enumerate(self.attributes)}
        # columns of the first token's exact and listed values -> those values -> (pattern number, tokens)
        self.tables: dict[tuple[int, ...], dict[tuple[int, ...], list[tuple[int, list[Token]]]]] = {}
        # a first token with only regexes: tried on each distinct value of its first regex's column
        self.scanned: list[tuple[int, list[Token]]] = []
        for n, pattern in patterns:
            tokens = [Token(vocab, spec, column) for spec in pattern]
            first = tokens[0]
            columns = tuple(sorted({*first.exact, *first.sets}))
            if not columns:
                if not first.regexes:  # any token, or one not in a list: not worth an index
                    raise Unsupported(pattern)
                self.scanned.append((n, tokens))
                continue
            choices = [[first.exact[c]] if c in first.exact else sorted(first.sets[c]) for c in columns]
            table = self.tables.setdefault(columns, {})
            for values in itertools.product(*choices):
                table.setdefault(values, []).append((n, tokens))

    def matches(self, doc: Doc) -> set[tuple[int, int, int]]:
        """Every (pattern number, start, end) the Matcher would find in ``doc``."""
        if not self.attributes:
            return set()
        array = doc.to_array([IDS[a] for a in self.attributes]).reshape(len(doc), len(self.attributes))
        columns = [array[:, c].tolist() for c in range(len(self.attributes))]
        strings = self.vocab.strings
        found: set[tuple[int, int, int]] = set()
        for keyed_by, table in self.tables.items():
            for start, key in enumerate(zip(*[columns[c] for c in keyed_by])):
                for n, tokens in table.get(key, ()):
                    if len(tokens) == 1 and tokens[0].keyed:  # the key was the whole pattern
                        found.add((n, start, start + 1))
                    elif self.fits(columns, start, tokens, strings):
                        found.add((n, start, start + len(tokens)))
        for n, tokens in self.scanned:
            c, regex = tokens[0].regexes[0]
            hits = {v for v in set(columns[c]) if regex.search(strings[v])}
            found.update((n, start, start + len(tokens)) for start, v in enumerate(columns[c])
                         if v in hits and self.fits(columns, start, tokens, strings))
        return found

    @staticmethod
    def fits(columns: list[list[int]], start: int, tokens: list[Token], strings) -> bool:
        return start + len(tokens) <= len(columns[0]) and \
            all(t.fits(columns, start + k, strings) for k, t in enumerate(tokens))


def _attribute(attr) -> str:
    name = attr.upper() if isinstance(attr, str) else None
    if name not in ATTRIBUTES:
        raise Unsupported(attr)
    return name


def _value(vocab, name: str, value) -> int:
    if name in STRINGS:
        if not isinstance(value, str):
            raise Unsupported(value)
        return vocab.strings.add(value)
    if not isinstance(value, bool):
        raise Unsupported(value)
    return int(value)
