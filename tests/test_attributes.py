"""The model's attribute ruler with its patterns looked up (kg/extract/attributes.py): the same
matches as spaCy's Matcher, the same tokens after it, and the Matcher for what it cannot index."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES

TRICKY = ("I ain't gonna do nothin' that ain't right, 'cause it's not, and they've n't.\n\n  Whether or not.",
          "Gon na wanna lemme gimme?", "", " ", "\n\n")


@pytest.fixture(scope="module")
def model():
    """The plain model and its Docs parsed up to its attribute ruler, with a copy of that ruler."""
    from kg.extract.nlp import english_model

    nlp = english_model()
    ruler = nlp.get_pipe("attribute_ruler")
    before = nlp.pipe_names[nlp.pipe_names.index("attribute_ruler"):]
    texts = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.txt"))] + list(TRICKY)
    return nlp, ruler, list(nlp.pipe(texts, disable=before))


def indexed(nlp, patterns):
    from kg.extract.attributes import IndexedAttributeRuler

    ruler = IndexedAttributeRuler(nlp.vocab, "indexed")
    ruler.add_patterns(patterns)
    ruler.build_index()
    return ruler


def test_the_index_finds_the_matchers_matches_and_sets_the_same_attributes(model):
    nlp, spacy_ruler, docs = model
    ruler = indexed(nlp, spacy_ruler.patterns)
    assert ruler.index is not None  # every pattern of the model's ruler is indexed
    for doc in docs:
        theirs, ours = doc.copy(), doc.copy()
        assert ruler.match(ours) == spacy_ruler.match(theirs)
        spacy_ruler(theirs)
        ruler(ours)
        assert [(t.tag_, t.pos_, str(t.morph), t.lemma_) for t in ours] == \
            [(t.tag_, t.pos_, str(t.morph), t.lemma_) for t in theirs]


@pytest.mark.parametrize("pattern", [
    [{"LOWER": "gon"}, {"LOWER": "na"}],  # a sequence
    [{"TAG": {"IN": ["VBP", "VBZ"]}, "LOWER": "ai"}, {"LOWER": {"REGEX": "^n'?t$"}}],
    [{"LOWER": {"REGEX": "^n[ou]thin'$"}}],  # a first token with only a regex
    [{"TAG": {"NOT_IN": ["TO", ""]}, "DEP": {"IN": ["aux", "auxpass"]}}],
    [{"IS_SPACE": True}],
    [{"ORTH": "not"}],
])
def test_each_kind_of_pattern_matches_where_the_matcher_does(model, pattern):
    nlp, _, docs = model
    from spacy.pipeline import AttributeRuler

    spacy_ruler = AttributeRuler(nlp.vocab, "plain")
    spacy_ruler.add([pattern], attrs={"LEMMA": "x"})
    ruler = indexed(nlp, spacy_ruler.patterns)
    assert ruler.index is not None
    found = [ruler.match(doc) for doc in docs]
    assert found == [spacy_ruler.match(doc) for doc in docs] and any(found)


@pytest.mark.parametrize("pattern", [
    [{"LOWER": "gon", "OP": "?"}, {"LOWER": "na"}],  # an operator
    [{"POS": "AUX"}],  # an attribute the index does not read
    [{"LOWER": {">=": 3}}],  # a predicate it does not read
    [{}],  # any token
])
def test_a_pattern_the_index_cannot_read_leaves_every_pattern_to_the_matcher(model, pattern):
    nlp, spacy_ruler, docs = model
    from spacy.pipeline import AttributeRuler

    plain = AttributeRuler(nlp.vocab, "plain")
    plain.add_patterns(spacy_ruler.patterns)
    plain.add([pattern], attrs={"LEMMA": "x"})
    ruler = indexed(nlp, plain.patterns)
    assert ruler.index is None
    assert [ruler.match(doc) for doc in docs] == [plain.match(doc) for doc in docs]


def test_kgs_pipeline_indexes_the_models_ruler():
    from kg.extract.attributes import IndexedAttributeRuler
    from kg.extract.nlp import load

    ruler = load().get_pipe("attribute_ruler")
    assert isinstance(ruler, IndexedAttributeRuler) and ruler.index is not None
