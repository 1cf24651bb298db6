"""Labelled documents -> the relation model's examples: each candidate pair of kg's own mentions
(:mod:`kg.extract.learned.candidates`), its features, and the relation the annotation gives it.

The documents go through kg's own pipeline (the parse, the mentions, the rules), so the model
learns on the candidates and features it will see when it runs. A candidate takes the relation of
a required row whose two arguments it matches in the sentence that states it (either way round
for a symmetric relation); a row of several relations ("leaderOf|memberOf") takes the one the
rules read, else the last; an optional row makes the pair unknown (left out); a pair no row
names is a non-fact, unless the source does not annotate a relation the rules gave it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .. import ontology
from ..extract.learned.candidates import candidates, fitting
from ..extract.learned.features import features, rule_facts, trigger_classes
from ..extract.learned.model import NONE
from ..records import SURFACE_ONLY
from .data import Labelled


@dataclass(frozen=True)
class Example:
    document: str
    source: str
    features: list[str]
    label: str
    rules: frozenset[str]  # the relations the rules gave this ordered pair (before polarity)
    types: tuple[str, str]


def examples(documents: list[Labelled], n_process: int = 1) -> Iterator[Example]:
    from ..extract import nlp
    from ..extract.pipeline import read_mentions
    from ..extract.relations import Extractor

    extractor = Extractor(model=False)  # the rules' reading, as the model will see it
    classes = trigger_classes(extractor.lexicon)
    symmetric = ontology.symmetric_relations()
    for labelled, doc in zip(
        documents, nlp.parse((d.text for d in documents), n_process=n_process)
    ):
        mentions = [m for m in read_mentions(doc, extractor) if m.kind not in SURFACE_ONLY]
        ctx, _, found = extractor.rule_facts(doc, mentions)
        fired = rule_facts(doc, found)
        for c in candidates(doc, ctx.mentions):
            sentence = doc[c.sentence].sent
            span = (sentence.start_char, sentence.end_char)
            names, _ = features(doc, c, classes, fired.get(c.sentence, {}), ctx.at, ctx.words)
            rules = frozenset(x for x in fired.get(c.sentence, {}).get(c.keys, ()) if ":" not in x)
            label = _label(
                labelled, c, span, rules, symmetric, fitting(c.subject.type, c.object.type)
            )
            if label is not None:
                yield Example(
                    labelled.id,
                    labelled.source,
                    names,
                    label,
                    rules,
                    (c.subject.type, c.object.type),
                )


def _label(labelled: Labelled, c, span, rules, symmetric, allowed) -> str | None:
    s, o = c.subject, c.object
    positive, unknown = [], False
    for label in labelled.labels:
        if not (label.region[0] < span[1] and span[0] < label.region[1]):
            continue
        forward = label.subject.matches(s.start_char, s.end_char, s.text) and label.object.matches(
            o.start_char, o.end_char, o.text
        )
        backward = (
            any(p in symmetric for p in label.predicates)
            and label.subject.matches(o.start_char, o.end_char, o.text)
            and label.object.matches(s.start_char, s.end_char, s.text)
        )
        if not (forward or backward):
            continue
        if label.status == "optional":
            unknown = True
        elif label.status == "required":
            chosen = [p for p in label.predicates if p in rules] or [label.predicates[-1]]
            positive += [p for p in chosen if p in allowed]
    if positive:
        return sorted(positive)[0]
    if unknown or (labelled.scope is not None and rules - labelled.scope):
        return None
    if labelled.pairs is not None and not any(
        ontology.is_a(s.type, a) and ontology.is_a(o.type, b) for a, b in labelled.pairs
    ):
        return None
    return NONE
