"""spaCy components registered by kg."""

from __future__ import annotations

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span, Token
from spacy.util import filter_spans

from .gazetteer import Gazetteer, load_gazetteer, load_nominals

if not Token.has_extension("kg_id"):
    Token.set_extension("kg_id", default=None)


def gazetteer_ids(doc: Doc) -> dict[int, str]:
    """Token index -> gazetteer entry id of the names the gazetteer component merged."""
    return doc.user_data.get("kg_ids", {})


def tokens(doc: Doc) -> list[Token]:
    """The tokens of ``doc`` as one list, made once per Doc: iterating a Doc builds new Token
    objects every time, and the extraction stages walk each document many times."""
    cached = doc.user_data.get("kg_tokens")
    if cached is None or len(cached) != len(doc):
        cached = doc.user_data["kg_tokens"] = list(doc)
    return cached


def sentences(doc: Doc) -> list[Span]:
    """The sentences of ``doc`` as one list, made once per Doc."""
    cached = doc.user_data.get("kg_sents")
    if cached is None:
        cached = doc.user_data["kg_sents"] = list(doc.sents)
    return cached


def sentence_of(token: Token) -> Span:
    """The sentence ``token`` is in (Token.sent rebuilds it on every call)."""
    return sentences(token.doc)[sentence_numbers(token.doc)[token.i]]


def children(token: Token) -> list[Token]:
    """``token.children`` as a list, from an index made once per Doc (Token.children makes new
    Token objects on every call; the relation rules ask for them thousands of times a document)."""
    doc = token.doc
    index = doc.user_data.get("kg_children")
    if index is None:  # made after parsing, when no more merging happens
        index = [[] for _ in range(len(doc))]
        for t in tokens(doc):
            head = t.head.i
            if head != t.i:
                index[head].append(t)
        doc.user_data["kg_children"] = index
    return index[token.i]


def sentence_roots(doc: Doc) -> list[Token]:
    """The root of each sentence, made once per Doc (Span.root walks the sentence on every call)."""
    cached = doc.user_data.get("kg_roots")
    if cached is None:
        cached = doc.user_data["kg_roots"] = [sent.root for sent in sentences(doc)]
    return cached


def span_text(span: Span) -> str:
    """``span.text`` cut from the document's text (Span.text and Doc.text join a new Token per
    word on every call; the document's text is joined once)."""
    text = span.doc.user_data.get("kg_text")
    if text is None:
        text = span.doc.user_data["kg_text"] = span.doc.text
    return text[span.start_char:span.end_char]


def sentence_numbers(doc: Doc) -> list[int]:
    """The number of the sentence each token is in, made once per Doc."""
    cached = doc.user_data.get("kg_sentences")
    if cached is None or len(cached) != len(doc):
        cached = [0] * len(doc)
        for number, sent in enumerate(sentences(doc)):
            cached[sent.start:sent.end] = [number] * (sent.end - sent.start)
        doc.user_data["kg_sentences"] = cached
    return cached


_NER_LABEL = {
    "Person": "PERSON",
    "Country": "GPE",
    "Settlement": "GPE",
    "Region": "LOC",
}


def _case_sensitive(alias: str) -> bool:
    """Acronyms and short names ("IS", "US", "AP") must match their exact case."""
    letters = [c for c in alias if c.isalpha()]
    return len(alias) <= 4 or (len(letters) > 1 and all(c.isupper() for c in letters))


class GazetteerMerger:
    """Find gazetteer names, merge each into one token, and mark it with ``token._.kg_id``."""

    def __init__(self, nlp: Language, gazetteer: Gazetteer) -> None:
        self.gazetteer = gazetteer
        self.region_words = load_nominals().place_suffixes
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.folded = PhraseMatcher(nlp.vocab, attr="LOWER")
        exact: dict[str, list] = {}
        folded: dict[str, list] = {}
        for alias, entry_id in gazetteer.surface_forms():
            for form in {alias, alias.replace("'", "\u2019")}:
                target = exact if _case_sensitive(form) else folded
                target.setdefault(entry_id, []).append(nlp.make_doc(form))
        self.borrowed: set[str] = set()  # merged names whose lexemes have their last word's features
        for entry_id, docs in exact.items():
            self.exact.add(entry_id, docs)
        for entry_id, docs in folded.items():
            self.folded.add(entry_id, docs)

    def __call__(self, doc: Doc) -> Doc:
        # a blank line ends a paragraph, and a sentence never runs across paragraphs
        starts = [0]
        for token in doc[1:]:
            if "\n" in doc[token.i - 1].text or (doc[token.i - 1].is_space and "\n" in doc[token.i - 1].text_with_ws):
                token.is_sent_start = True
                starts.append(token.i)
        for start in starts:
            end = _dateline_end(doc, start)
            if end is not None and end < len(doc):
                doc[end].is_sent_start = True
        spans = []
        for matcher in (self.exact, self.folded):
            for match_id, start, end in matcher(doc):
                span = Span(doc, start, end, label=doc.vocab.strings[match_id])
                # a lowercase match of a name must still look like a name ("syrian army", not "army")
                if not any(t.text[:1].isupper() for t in span):
                    continue
                # "Houthi" inside "al-Houthi" is part of a person's name, not the movement
                if start >= 2 and doc[start - 1].text == "-" and not doc[start - 2].whitespace_ \
                        and not doc[start - 1].whitespace_ and doc[start - 2].lower_ in ARTICLES:
                    continue
                # "Sirte" in "Sirte District" is the district, not the city
                if end < len(doc) and doc[end].text[:1].isupper() and self.region_words.get(doc[end].lower_) == "Region":
                    continue
                spans.append(span)
        spans = filter_spans(spans)
        # A merged name is a word the model has never seen: give its lexeme the features of the
        # name's last word ("Islamic State" reads as "State"), so tagging and parsing treat it as
        # an ordinary proper noun. Done as names turn up (for every alias up front: 0.4 s a process).
        for span in spans:
            text = span.text
            if text not in self.borrowed and (" " in text or "-" in text):
                _borrow_features(doc.vocab, text)
                self.borrowed.add(text)
        with doc.retokenize() as retokenizer:
            for span in spans:
                entry = self.gazetteer.entries[span.label_]
                attrs = {"POS": "PROPN", "TAG": "NNP"}
                retokenizer.merge(span, attrs=attrs)
        # after merging, each span is one token; find them again by character offset
        starts = {span.start_char: span.label_ for span in spans}
        ents = []
        for token in doc:
            entry_id = starts.get(token.idx)
            if entry_id is not None:
                token._.kg_id = entry_id
                label = _NER_LABEL.get(self.gazetteer.entries[entry_id].type, "ORG")
                ents.append(Span(doc, token.i, token.i + 1, label=label))
        doc.set_ents(ents, default="unmodified")
        _merge_articles(doc, starts)
        # token index -> entry id, for the stages after the parser (reading token._ is slow)
        doc.user_data["kg_ids"] = {t.i: starts[t.idx] for t in doc if t.idx in starts} if starts else {}
        return doc


ARTICLES = {"al", "el", "ul", "ad", "ar", "as", "ash", "az", "an", "at", "ed", "es", "ez", "bin", "ibn", "abu", "bani"}


DATELINE_DASHES = {"-", "--", "\u2014", "\u2013", ":"}


def _dateline_end(doc: Doc, start: int) -> int | None:
    """Where the story starts after a wire dateline ("MOGADISHU (Reuters) -", "BEIRUT, Lebanon —"),
    so that the place is not read as the subject of the first sentence."""
    i = start
    while i < len(doc) and doc[i].is_space:
        i += 1
    words = 0
    while i < len(doc) and i - start < 12:
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
        elif t.text in DATELINE_DASHES and words:
            return i + 1
        else:
            return None
        i += 1
    return None


def _merge_articles(doc: Doc, names: dict[int, str]) -> None:
    """Merge "al-Burhan", "el-Sisi", "bin-Laden" into one token, as the tokenizer split them at the hyphen.

    Left alone, NER tags "al-" as a name of its own and the parser attaches the pieces at random.
    ``names`` holds the character offsets of gazetteer names, which stay as they are.
    """
    spans = []
    toks = list(doc)
    i = 0
    while i + 2 < len(toks):
        a, dash, name = toks[i], toks[i + 1], toks[i + 2]
        if (a.lower_ in ARTICLES and dash.text == "-" and not a.whitespace_ and not dash.whitespace_
                and name.text[:1].isupper() and name.is_alpha and name.idx not in names and a.idx not in names):
            spans.append(doc[i:i + 3])
            i += 3
        else:
            i += 1
    if not spans:
        return
    with doc.retokenize() as retokenizer:
        for span in spans:
            _borrow_features(doc.vocab, span.text)
            retokenizer.merge(span, attrs={"POS": "PROPN", "TAG": "NNP"})


def _borrow_features(vocab, form: str) -> None:
    last = form.replace("-", " ").split()[-1]
    lexeme, donor = vocab[form], vocab[last]
    lexeme.norm_ = donor.norm_
    lexeme.shape_ = donor.shape_
    lexeme.prefix_ = donor.prefix_
    lexeme.suffix_ = donor.suffix_


@Language.factory("kg_gazetteer", default_config={})
def make_gazetteer_merger(nlp: Language, name: str) -> GazetteerMerger:
    return GazetteerMerger(nlp, load_gazetteer())
