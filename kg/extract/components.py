"""kg's spaCy components, registered with ``@Language.factory`` (settings in the config).

They run before the model's own components, on the tokens alone:

``kg_paragraphs``   a line break starts a sentence: a sentence never runs across paragraphs
``kg_dateline``     a wire dateline ("BEIRUT (Reuters) -") ends before the story's first sentence
``kg_names``        finds the gazetteer's names (exact case for acronyms and short names, any
                    case for the others) into the span group ``kg_names``, each span's id the
                    gazetteer entry
``kg_merge_names``  merges each name found into one token (``token._.kg_id`` = its entry, the
                    entity type as its NER label) and "al-Name" into one word, so the parser sees
                    "Islamic State" or "al-Burhan" as one proper noun

and among the model's own: ``kg_fronted_names`` after the parser (a name set off before its
description is the clause's subject), ``kg_lemmas`` after the attribute ruler (the lemmas of
ontology/lemmas.toml, "retook" -> "retake", which the model's lemmatizer then leaves alone) and
``kg_possessive_names`` after the NER ("the Government of Somalia's efforts": the name is the
noun's possessor).

spaCy builds a component from its name and its config, which holds plain settings, not data: a
factory takes the word lists, the gazetteer and the lemmas from kg's record of its data files
(:func:`data`, :class:`~kg.extract.resources.Resources`), and hands the component what it reads.
"""

from __future__ import annotations

import calendar
from bisect import bisect_left

from spacy import __version__ as spacy_version
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.pipeline.span_ruler import prioritize_new_ents_filter
from spacy.util import filter_spans, registry

from ..cache import cached
from .docindex import CITATION_MARK, gazetteer_ids  # noqa: F401  (gazetteer_ids registers the token extension kg_id)
from .gazetteer import Gazetteer
from .namehood import capitals
from .resources import Resources
from .types import opening_word
from .words import Words

NAMES_KEY = "kg_names"
NER_LABEL = {"Person": "PERSON", "Country": "GPE", "Settlement": "GPE", "Region": "LOC", "Facility": "FAC"}


def data() -> Resources:
    """The record of kg's data the components read (without the relation model, which none reads)."""
    return Resources.load(model=False)


def add_abbreviations(nlp: Language, words: Words | None = None) -> None:
    """Ranks' abbreviations ("Sgt.", "Lt.") are one token each, as "Gen." already is, and so are
    hyphenated titles ("Secretary-General", split at its hyphen the parser ended a sentence
    there): the tokenizer's special cases, so that the parser does not end a sentence before the name.
    ``words``: the word lists that name them (None: kg's own)."""
    words = words or data().words
    for abbreviation in words.title_abbreviations:
        if abbreviation.endswith(".") and abbreviation.count(".") == 1:
            for form in (abbreviation, abbreviation.capitalize(), abbreviation.upper()):
                nlp.tokenizer.add_special_case(form, [{"ORTH": form}])
    for title in (t for t in words.person_titles if "-" in t):
        titled = "-".join(p if p in words.function_words else p.capitalize() for p in title.split("-"))
        for form in (title, title.capitalize(), titled, title.upper()):
            nlp.tokenizer.add_special_case(form, [{"ORTH": form}])


def add_abbreviation_hyphens(nlp: Language) -> None:
    """"the U.S.-Kenya partnership", "U.S.-Iraqi talks": a hyphen after an abbreviation's last
    stop and before a capital is a token of its own, as it is between two words ("Kenya-Uganda");
    the tokenizer's infix, beside its own ("U.S.-led" stays one word), as add_citation_marks adds a
    suffix."""
    import re

    own = nlp.tokenizer.infix_finditer
    pattern = r"(?<=[A-Z]\.)-(?=[A-Z])" + (f"|{own.__self__.pattern}" if own is not None else "")
    nlp.tokenizer.infix_finditer = re.compile(pattern).finditer


def add_citation_marks(nlp: Language) -> None:
    """A reference mark glued to a word ("Kilinochchi,[60]", "Sri Lanka.[3][5]") is a token of its
    own, so it never reaches a name: a suffix of the tokenizer's, tried before its own."""
    import re

    own = nlp.tokenizer.suffix_search
    pattern = CITATION_MARK + (f"|{own.__self__.pattern}" if own is not None else "")
    nlp.tokenizer.suffix_search = re.compile(pattern).search


@Language.factory("kg_paragraphs", default_config={})
def make_paragraphs(nlp: Language, name: str) -> "Paragraphs":
    return Paragraphs(data().words.title_abbreviations)


class Paragraphs:
    """A token after a line break starts a sentence; a rank's abbreviation ("Sgt.", "Lt.") before a
    name does not end one."""

    def __init__(self, abbreviations: frozenset[str]) -> None:
        self.abbreviations = abbreviations

    def __call__(self, doc: Doc) -> Doc:
        for token in doc[1:]:
            before = doc[token.i - 1]
            if "\n" in before.text or (before.is_space and "\n" in before.text_with_ws):
                token.is_sent_start = True
            elif before.lower_ in self.abbreviations and token.text[:1].isupper():
                token.is_sent_start = False
        return doc


@Language.factory("kg_dateline", default_config={"max_tokens": 12})
def make_dateline(nlp: Language, name: str, max_tokens: int) -> "Dateline":
    return Dateline(max_tokens, data().words.dateline_dashes)


class Dateline:
    """Where the story starts after a wire dateline at a paragraph's start ("MOGADISHU (Reuters) -",
    "BEIRUT, Lebanon —"), so that the place is not read as the subject of the first sentence."""

    def __init__(self, max_tokens: int, dashes: frozenset[str]) -> None:
        self.max_tokens, self.dashes = max_tokens, dashes

    def __call__(self, doc: Doc) -> Doc:
        for start in [0] + [t.i for t in doc[1:] if t.is_sent_start]:
            end = self.end(doc, start)
            if end is not None and end < len(doc):
                doc[end].is_sent_start = True
        return doc

    def end(self, doc: Doc, start: int) -> int | None:
        i = start
        while i < len(doc) and doc[i].is_space:
            i += 1
        words = 0
        while i < len(doc) and i - start < self.max_tokens:
            t = doc[i]
            if t.is_alpha and t.text.isupper() and len(t.text) >= 2:
                words += 1
            elif t.text in (",", ".") or (t.is_alpha and t.text[:1].isupper() and words):  # "BEIRUT, Lebanon"
                pass
            elif t.text == "(" and words:
                close = next((j for j in range(i, min(i + 8, len(doc))) if doc[j].text == ")"), None)
                if close is None:
                    return None
                i = close
            elif t.text in self.dashes and words:
                if t.text == "-" and not doc[i - 1].whitespace_ and not t.whitespace_:
                    return None  # a hyphen inside a name ("ISIS-M attacked"), not the dateline's dash
                return i + 1
            else:
                return None
            i += 1
        return None


def case_sensitive(name: str) -> bool:
    """Acronyms and short names ("IS", "US", "AP") must match their exact case."""
    return len(name) <= 4 or capitals(name) > 1


def name_patterns(gazetteer: Gazetteer, cased: bool) -> list[dict]:
    """Phrase patterns for the gazetteer's names: label the NER label, id the entry."""
    patterns = []
    for name, entry_id in gazetteer.surface_forms():
        label = NER_LABEL.get(gazetteer.entries[entry_id].type, "ORG")
        for form in dict.fromkeys((name, name.replace("'", "\u2019"))):
            if case_sensitive(form) == cased:
                patterns.append({"label": label, "pattern": form, "id": entry_id})
    return patterns


NAMES = "kg_names"


def add_name_finder(nlp: Language) -> None:
    """``kg_names`` (the gazetteer's names) and the merger after it, at the front of the pipeline."""
    nlp.add_pipe(NAMES, first=True)
    nlp.add_pipe("kg_merge_names", after=NAMES)


@Language.factory(NAMES, default_config={"spans_key": NAMES_KEY})
def make_names(nlp: Language, name: str, spans_key: str) -> "Names":
    return Names(spans_key, name_tokens(nlp))


def name_tokens(nlp: Language) -> list[tuple[tuple[str, ...], str, str, bool]]:
    """(tokens, NER label, entry id, cased) of every pattern of :func:`name_patterns`, the tokens as
    this pipeline's tokenizer cuts the name; from kg's cache when the code, the data and spaCy
    are those that made it (tokenizing the 13,000 names costs each process 0.4 s)."""
    def build() -> list[tuple[tuple[str, ...], str, str, bool]]:
        gazetteer = data().gazetteer
        out = []
        for cased in (True, False):
            patterns = name_patterns(gazetteer, cased)
            for pattern, doc in zip(patterns, nlp.tokenizer.pipe(p["pattern"] for p in patterns)):
                out.append((tuple(t.text for t in doc), pattern["label"], pattern["id"], cased))
        return out

    def decode(rows: list) -> list[tuple[tuple[str, ...], str, str, bool]]:
        return [(tuple(tokens), label, id_, cased) for tokens, label, id_, cased in rows]

    meta = nlp.meta
    version = f"{spacy_version} {meta.get('lang')}_{meta.get('name')} {meta.get('version')}"
    return cached("name-tokens", build, lambda rows: rows, decode, extra=version)


class Names:
    """The spans of the gazetteer's names, each labelled with its NER label and the entry's id, in
    the span group ``kg_names``: exact case for acronyms and short names ("IS", "US"), any case
    for the others, as spaCy's PhraseMatcher matches ORTH or LOWER token by token.

    Not spaCy's SpanRuler: it makes a Doc, and a lexeme for each new word, of every one of its
    13,000 patterns in each process that loads it (1.2 s of each worker's start-up); here the
    patterns' tokens come from kg's cache and a name is found by a dictionary look-up at each token
    whose text starts one. The spans come as two SpanRulers (cased, then any case) gave them."""

    def __init__(self, spans_key: str, names: list[tuple[tuple[str, ...], str, str, bool]]) -> None:
        self.spans_key = spans_key
        self.found: dict[bool, dict[tuple[str, ...], list[tuple[str, str]]]] = {True: {}, False: {}}
        self.lengths: dict[bool, dict[str, list[int]]] = {True: {}, False: {}}  # first token -> name lengths
        for tokens, label, entry_id, cased in names:
            if not tokens:
                continue
            key = tokens if cased else tuple(t.lower() for t in tokens)
            ids = self.found[cased].setdefault(key, [])
            if (label, entry_id) not in ids:
                ids.append((label, entry_id))
            lengths = self.lengths[cased].setdefault(key[0], [])
            if len(key) not in lengths:
                lengths.append(len(key))

    def __call__(self, doc: Doc) -> Doc:
        spans = []  # the group is this component's own: no other writes it before the merge reads it
        for cased in (True, False):
            words = [t.text for t in doc] if cased else [t.lower_ for t in doc]
            found, lengths = self.found[cased], self.lengths[cased]
            matches = set()
            for i, word in enumerate(words):
                for n in lengths.get(word, ()):
                    if i + n > len(words):  # a longer name than the text has words left
                        continue
                    for label, entry_id in found.get(tuple(words[i:i + n]), ()):
                        matches.add(Span(doc, i, i + n, label=label, span_id=entry_id))
            spans.extend(sorted(matches))
        doc.spans[self.spans_key] = spans
        return doc


@Language.factory("kg_merge_names", default_config={"spans_key": NAMES_KEY})
def make_merge_names(nlp: Language, name: str, spans_key: str) -> "MergeNames":
    resources = data()
    return MergeNames(spans_key, resources.gazetteer, resources.words)


class MergeNames:
    """Merge each gazetteer name the rulers found into one token marked with its entry."""

    def __init__(self, spans_key: str, gazetteer: Gazetteer, words: Words) -> None:
        self.spans_key, self.gazetteer = spans_key, gazetteer
        self.region_words = {w for w, kind in words.place_suffixes.items() if kind == "Region"}
        self.particles = words.name_particles
        self.openings = words.organization_openings
        self.institution_heads = words.organization_nouns | words.institution_heads
        self.borrowed: set[str] = set()  # merged forms whose lexemes have their last word's features

    def __call__(self, doc: Doc) -> Doc:
        spans = filter_spans([s for s in doc.spans.get(self.spans_key, ()) if self.keep(doc, s)])
        # A merged name is a word the model has never seen: give its lexeme the features of the
        # name's last word ("Islamic State" reads as "State"), so tagging and parsing treat it as
        # an ordinary proper noun. Done as names turn up (for every alias up front: 0.4 s a process).
        for span in spans:
            if span.text not in self.borrowed and (" " in span.text or "-" in span.text):
                borrow_features(doc.vocab, span.text)
                self.borrowed.add(span.text)
        found = {span.start_char: span.id_ for span in spans}
        names = [(span.start, span.end, span.id_) for span in spans]  # read before the merge moves them
        with doc.retokenize() as retokenizer:
            for span in spans:
                retokenizer.merge(span, attrs={"POS": "PROPN", "TAG": "NNP"})
        # each name is now one token, at its start less the tokens merged away before it: no walk
        # over every token (nor over its extension attributes) to find them again
        ids: dict[int, str] = {}
        ents = []
        for i, (_, _, entry_id) in zip(merged_starts([(start, end) for start, end, _ in names]), names):
            doc[i]._.kg_id = ids[i] = entry_id
            ents.append(Span(doc, i, i + 1, label=NER_LABEL.get(self.gazetteer.entries[entry_id].type, "ORG")))
        doc.set_ents(ents, default="unmodified")
        doc.spans.pop(self.spans_key, None)
        articles = self.merge_articles(doc, found)
        if articles:  # a name after a merged "al-Name" moved back two tokens for each
            ids = {i - 2 * bisect_left(articles, (i,)): entry_id for i, entry_id in ids.items()}
        doc.user_data["kg_ids"] = ids
        return doc

    def keep(self, doc: Doc, span: Span) -> bool:
        start, end = span.start, span.end
        # a lowercase match of a name must still look like a name ("syrian army", not "army")
        if not any(t.text[:1].isupper() for t in span):
            return False
        # "Houthi" inside "al-Houthi" is part of a person's name, not the movement
        if start >= 2 and doc[start - 1].text == "-" and not doc[start - 2].whitespace_ \
                and not doc[start - 1].whitespace_ and doc[start - 2].lower_ in self.particles:
            return False
        # "Sirte" in "Sirte District" is the district, not the city
        if end < len(doc) and doc[end].text[:1].isupper() and doc[end].lower_ in self.region_words:
            return False
        # "Kata'ib Hezbollah", "Harakat Hezbollah al-Nujaba": after a word that opens an
        # organization's name, a known name is part of another organization's
        before = doc[start - 1] if start > 0 else None
        if before is not None and before.text[:1].isupper() and opening_word(before.text) in self.openings:
            return False
        # "the University of Iowa", "the Supreme Court of Canada": a place after "of" after an
        # institution's head word ends the institution's name, which NER reads whole when the place
        # is left to it (given the place, it names "the University of" an organization); the place
        # is the institution's seat all the same (relations.structure.seat)
        of = start - 2 if before is not None and before.lower_ == "the" else start - 1  # "of the Philippines"
        if of >= 1 and doc[of].lower_ == "of" and doc[of - 1].text[:1].isupper() \
                and doc[of - 1].lower_ in self.institution_heads:
            return False
        # "Syrian Arab Coalition", "Free Syrian Army": a name written with other capitals than the
        # gazetteer's ("Arab coalition", "Syrian army") after another capitalized word is part of a
        # longer name; so is one before a possessive and a capitalized word ("the Croatian People's
        # Party" is no "Croatian people")
        entry = self.gazetteer.entries[span.id_]
        written_so = span.text in (entry.label, *entry.aliases)
        if before is not None and before.text[:1].isupper() and not before.is_sent_start and before.is_alpha:
            return written_so
        if end + 1 < len(doc) and doc[end].lower_ in ("'s", "\u2019s") and doc[end + 1].text[:1].isupper():
            return written_so
        return True

    def merge_articles(self, doc: Doc, names: dict[int, str]) -> list[tuple[int, int]]:
        """Merge "al-Burhan", "el-Sisi", "bin-Laden" into one token: the tokenizer splits them at
        the hyphen, and then NER tags "al-" as a name of its own and the parser attaches the
        pieces at random. ``names`` holds the character offsets of gazetteer names, left as they
        are. Returns the (start, end) token spans merged, in order."""
        spans = []
        toks = list(doc)
        i = 0
        while i + 2 < len(toks):
            a, dash, name = toks[i], toks[i + 1], toks[i + 2]
            if (a.lower_ in self.particles and dash.text == "-" and not a.whitespace_ and not dash.whitespace_
                    and name.text[:1].isupper() and name.is_alpha and name.idx not in names and a.idx not in names):
                spans.append((i, i + 3))
                i += 3
            else:
                i += 1
        if not spans:
            return spans
        with doc.retokenize() as retokenizer:
            for start, end in spans:
                span = doc[start:end]
                borrow_features(doc.vocab, span.text)
                retokenizer.merge(span, attrs={"POS": "PROPN", "TAG": "NNP"})
        return spans


def merged_starts(spans: list[tuple[int, int]]) -> list[int]:
    """Where each of ``spans`` (disjoint, in order) starts once every one is merged into one token."""
    out, removed = [], 0
    for start, end in spans:
        out.append(start - removed)
        removed += end - start - 1
    return out


def borrow_features(vocab, form: str) -> None:
    last = form.replace("-", " ").split()[-1]
    lexeme, donor = vocab[form], vocab[last]
    lexeme.norm_ = donor.norm_
    lexeme.shape_ = donor.shape_
    lexeme.prefix_ = donor.prefix_
    lexeme.suffix_ = donor.suffix_


@registry.misc("kg.titles_trimmed_ents_filter.v1")
def make_titles_trimmed_filter():
    """spaCy's filter that lets new spans replace the entities they overlap, with a person's title
    at the end of a span given back to the text: "the Combined Joint Task Force – Inherent
    Resolve Commander, Lt. Gen. ..." names the task force; "Commander" is the person's title."""
    titles = data().words.person_titles

    def trim(span: Span) -> Span | None:
        end = span.end
        while end > span.start + 1 and span.doc[end - 1].lower_ in titles:
            end -= 1
        if end == span.end:
            return span
        return Span(span.doc, span.start, end, label=span.label, span_id=span.id)

    def ents_filter(entities, spans):
        return prioritize_new_ents_filter(entities, [t for t in map(trim, spans) if t is not None])

    return ents_filter


def add_entity_patterns(nlp: Language, after: str) -> None:
    """A SpanRuler ``kg_entity_patterns`` after the NER, with the token patterns of
    ontology/entity_patterns.jsonl; what it finds replaces the NER's overlapping names, and the
    pattern's id (an ontology class) stays on the entity as its ``ent_id_``."""
    from .. import datafiles
    from ..resources import ontology_file

    path = ontology_file("entity_patterns.jsonl")
    rows = datafiles.jsonl(path, datafiles.Fields({}, {"label": str, "id": str, "pattern": list[dict], "note": str}),
                           check=lambda row: "a pattern needs a 'label' and an 'id'"
                           if "pattern" in row and not {"label", "id"} <= row.keys() else None)
    ruler = nlp.add_pipe("span_ruler", name="kg_entity_patterns", after=after, config={
        "annotate_ents": True, "overwrite": False, "ents_filter": {"@misc": "kg.titles_trimmed_ents_filter.v1"}})
    for number, row in rows:
        if "pattern" not in row:  # a note
            continue
        try:  # one at a time: spaCy's error does not say which pattern
            ruler.add_patterns([{k: v for k, v in row.items() if k in ("label", "pattern", "id")}])
        except (ValueError, TypeError) as exc:
            raise datafiles.problem(path, f"not a token pattern spaCy can use ({str(exc).splitlines()[0]})",
                                    number) from None


LEMMA_TAGS = {"VERB": ("VBD", "VBN", "VB", "VBP", "VBZ", "VBG"), "NOUN": ("NN", "NNS")}


def add_lemma_ruler(nlp: Language, after: str) -> None:
    """``kg_lemmas`` after ``after``: the lemmas of ontology/lemmas.toml."""
    nlp.add_pipe("kg_lemmas", after=after)


@Language.factory("kg_lemmas", default_config={})
def make_lemmas(nlp: Language, name: str) -> "Lemmas":
    resources = data()
    return Lemmas({(form, tag): lemma for pos, forms in resources.lemmas.items() for form, lemma in forms.items()
                   for tag in LEMMA_TAGS[pos]}, resources.fixed_tags)


# the part of speech and morphology spaCy's English tag map gives the tags a form is fixed to
FIXED = {"VBD": ("VERB", "Tense=Past|VerbForm=Fin"), "VBN": ("VERB", "Aspect=Perf|Tense=Past|VerbForm=Part"),
         "NN": ("NOUN", "Number=Sing"), "NNS": ("NOUN", "Number=Plur")}


class Lemmas:
    """Sets the lemma of a word form with a verb's (or a noun's) tag, as an ``attribute_ruler`` with
    one pattern a form would, by one dictionary look-up a token (measured: the ruler's Matcher
    took 3.2 ms an article, this 0.1 ms). The model's lemmatizer leaves a lemma already set alone.
    A form whose part of speech is never in doubt ("retook", "airstrikes") and was tagged as the
    other gets its own tag first."""

    def __init__(self, table: dict[tuple[str, str], str], fixed: dict[str, str]) -> None:
        self.table = table
        self.fixed = fixed
        self.forms = frozenset(form for form, _ in table) | frozenset(fixed)

    def __call__(self, doc: Doc) -> Doc:
        for token in doc:
            if token.lower_ in self.forms:
                tag = self.fixed.get(token.lower_)
                if tag and tag[:2] != token.tag_[:2] and token.tag_[:2] in ("NN", "VB"):
                    pos_, morph = FIXED[tag]
                    token.tag_, token.pos_ = tag, pos_
                    token.set_morph(morph)
                lemma = self.table.get((token.lower_, token.tag_))
                if lemma is not None:
                    token.lemma_ = lemma
        return doc


@Language.factory("kg_fronted_names", default_config={})
def make_fronted_names(nlp: Language, name: str) -> "FrontedNames":
    return FrontedNames()


PROPER = ("NNP", "NNPS")  # the tags (the parts of speech come after it, from the attribute ruler)
# "Friday, the rebels, who had fled, returned": a day or a month is when, not who
CALENDAR = frozenset(w.lower() for w in (*calendar.day_name, *calendar.month_name, *calendar.month_abbr) if w)


class FrontedNames:
    """"Mosul, the capital of Nineveh province, fell in 2014": the small parser reads a name that
    opens a sentence, set off by commas from the noun phrase after it, as an adverb of the verb,
    and the noun phrase as the verb's subject. Where a sentence opens with a proper name the parser
    hangs on the verb by advmod or npadvmod, then a comma, then a noun phrase it made that verb's
    subject and closed by a comma, the name is the subject and the noun phrase its apposition, as
    the parser reads "Tikrit, the capital of Salahuddin province, was retaken"."""

    def __init__(self) -> None:
        self._titles: frozenset[str] | None = None

    def __call__(self, doc: Doc) -> Doc:
        for sent in list(doc.sents):
            self._name_before_phrase(doc, sent)
            self._role_before_name(doc, sent)
        return doc

    @staticmethod
    def _name_before_phrase(doc: Doc, sent) -> None:
        """"Mosul, the capital of Nineveh province, fell": the name the subject, the phrase its apposition."""
        name = sent[0]
        while name.i + 1 < sent.end and doc[name.i + 1].tag_ in PROPER and doc[name.i + 1].head.i == name.i:
            name = doc[name.i + 1]  # a name the tokenizer left in pieces: its last word heads it
        if name.tag_ not in PROPER or name.lower_ in CALENDAR or name.dep_ not in ("advmod", "npadvmod") \
                or name.i + 2 >= sent.end or doc[name.i + 1].text != ",":
            return
        verb = name.head
        subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")
                        and c.left_edge.i == name.i + 2), None)
        if subject is None or subject.tag_ not in ("NN", "NNS"):
            return
        end = subject.right_edge.i  # the closing comma, or the word before it
        if end >= verb.i or "," not in (doc[end].text, doc[end + 1].text):
            return
        name.dep_ = subject.dep_
        subject.head, subject.dep_ = name, "appos"

    def _role_before_name(self, doc: Doc, sent) -> None:
        """"A senior Hamas official, Osama Hamdan said": a sentence that opens with a role's noun
        phrase (a title of the lexicon at its head), a comma, then a name, with no comma closing
        the name. The parser makes the two the verb's two subjects, or the role an adverb of it;
        the name is the subject and the role its apposition, as with the closing comma."""
        role = next((t for t in sent if t.tag_ in ("NN", "NNS") and t.left_edge.i == sent.start
                     and t.dep_ in ("nsubj", "npadvmod")), None)
        if role is None:
            return
        # the comma after the phrase: its last word, where the parser hung it on the noun
        comma = role.right_edge.i if doc[role.right_edge.i].text == "," else role.right_edge.i + 1
        if comma + 1 >= sent.end or doc[comma].text != "," or role.ent_type_ in ("DATE", "TIME") \
                or not (role.lower_ in self.titles or role.lower_.removesuffix("s") in self.titles):
            return
        verb = role.head
        name = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") and c.i != role.i
                     and c.left_edge.i == comma + 1 and c.tag_ in PROPER), None)
        if name is None or name.i >= verb.i or doc[name.right_edge.i + 1].text == ",":
            return
        role.head, role.dep_ = name, "appos"

    @property
    def titles(self) -> frozenset[str]:
        """The last words of the lexicon's titles (a member's, a leader's): "official", "professor"."""
        if self._titles is None:
            self._titles = frozenset(form.split()[-1] for rule in data().lexicon.rules_for("title")
                                     for form in rule.lemmas)
        return self._titles


@Language.factory("kg_possessive_names", default_config={})
def make_possessive_names(nlp: Language, name: str) -> "PossessiveNames":
    return PossessiveNames()


class PossessiveNames:
    """"The Federal Government of Somalia's efforts to weaken al-Shabaab": the small parser hangs
    the possessive "'s" on the last word of a name with "of" in it, and the name itself on the noun
    after it as a subject, or beside it as a second object of the verb (or the noun on the name's
    "of" as a second object of it), never as its possessor.
    Where an organization's or a place's name of the form "N of M's" hangs on the noun right after
    the "'s" (adjectives and compounds between), on that noun's head, or has it under its "of", the
    name is the noun's possessor, as the parser reads "the Government of Iraq's efforts" once the
    gazetteer has made "Government of Iraq" one word. "The head of Iraq's army" the parser reads
    right ("Iraq" the army's possessor) and it is left as it is; so is a title ("the Chairman of
    Syria's opposition" leads the opposition), which is no organization's name."""

    def __call__(self, doc: Doc) -> Doc:
        for mark in doc:
            if mark.tag_ == "POS" and mark.dep_ == "case":
                self._repair(doc, mark)
        return doc

    @staticmethod
    def _repair(doc: Doc, mark) -> None:
        owner = mark.head  # "Somalia"
        of = owner.head
        name = of.head  # "Government"
        if owner.dep_ != "pobj" or of.lower_ != "of" or of.dep_ != "prep" or of.i >= owner.i \
                or name.tag_ not in PROPER or owner.tag_ not in PROPER or name.dep_ == "ROOT" \
                or name.ent_type_ not in ("ORG", "GPE", "FAC") \
                or owner.right_edge.i != mark.i:
            return
        noun = next((t for t in doc[mark.i + 1:min(mark.i + 4, len(doc))] if t.tag_ in ("NN", "NNS")), None)
        if noun is None or any(t.head.i != noun.i or t.dep_ not in ("amod", "compound", "nummod")
                               for t in doc[mark.i + 1:noun.i]) \
                or any(c.dep_ == "poss" for c in noun.children):
            return
        if noun.head.i == of.i:  # the noun hung on the name's "of" as a second object: it takes the name's place
            noun.head, noun.dep_ = name.head, name.dep_
        elif name.right_edge.i != mark.i or not (name.head.i == noun.i or name.head.i == noun.head.i != noun.i):
            return
        name.head, name.dep_ = noun, "poss"
