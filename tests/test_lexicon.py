"""Relations are data: a new relation type needs only lexicon entries."""

from __future__ import annotations

import pytest

from kg.ingest import make_document
from kg.extract.lexicon import load_lexicon, parse_lexicon
from kg.extract.nlp import load
from kg.extract.pipeline import extract
from kg.extract.relations import Extractor
from kg.resources import ontology_file

TRAINED = """
[relations.trained]
subject = ["Agent"]
object = ["Agent"]

[[rule]]
id = "train-verb"
relation = "trained"
pos = "VERB"
lemmas = ["train", "instruct"]
subject = ["nsubj", "agent"]
object = ["dobj", "nsubjpass"]
confidence = 0.7
"""


def test_adding_a_relation_type_by_editing_the_lexicon():
    base = ontology_file("lexicon.toml").read_text(encoding="utf-8")
    lexicon = parse_lexicon(base + TRAINED)
    text = "Iran trained Houthi fighters for years, officials said."
    doc = load()(text)
    found = extract(doc, make_document(text, name="t"), Extractor(lexicon=lexicon))
    assert {(a.subject, a.predicate, a.object) for a in found.assertions} == {("iran", "trained", "houthis")}
    without = extract(doc, make_document(text, name="t"), Extractor(lexicon=load_lexicon()))
    assert not without.assertions


def test_a_broken_rule_names_itself():
    with pytest.raises(ValueError, match="rule oops: relation 'nope' is not under"):
        parse_lexicon('[relations.x]\n[[rule]]\nid = "oops"\nrelation = "nope"\n')
