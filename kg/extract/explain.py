"""Why a text gave the facts it gave, and why not others (``kg explain``).

The text goes through the same extraction as a build, with the relation stages' trace on
(:mod:`kg.extract.relations.trace`): the report reads what the stages recorded, it decides nothing
itself. For each sentence: the entities found, with where their type came from; the trigger words
of the lexicon seen there; every pair of entities with what became of it (a fact, by which rule or
by the relation model, or the reason it did not: negated, hypothetical, the wrong types, vetoed by
the model, under the model's threshold, no trigger word, a trigger whose arguments are other
words); and the events found. :func:`to_text` writes it for a terminal, :func:`write_page` as a
page in the manner of displaCy (``kg/templates/explain.html``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

from .. import ontology
from ..errors import InputError, UsageError
from ..records import Document, Extraction, Mention
from .relations.trace import REASONS, Arguments, Decision, Trace

if TYPE_CHECKING:
    from .resources import Resources
    from .words import Words

# A pair's reason, the first of these its verdicts give: what stopped a candidate the rules found,
# then why the rules found none, then what the model said of the pair.
PRIORITY = ("negated", "hypothetical", "attempted", "subject-type", "object-type", "same-entity", "part-leader",
            "unarmed-group", "own-institution", "vetoed", "model-only", "no-relation", "no-path", "no-trigger",
            "below-threshold", "rules-read-pair", "event-relation", "out-of-frame", "other-direction")
WHY_NONE = {
    "no-relation": "no relation of kg.ttl takes entities of these two types",
    "no-path": "the sentence has trigger words, but their arguments are other words",
    "no-trigger": "no trigger word of the lexicon in the sentence",
}
KINDS = {"pronoun": "coreference (a pronoun)", "description": "coreference (a description)",
         "group": "people group (a nationality or people and a noun for people)",
         "acronym": "acronym defined in the text", "shortened": "acronym of a name in the text",
         "alias": "another name the text gives", "surname": "surname of a full name in the text",
         "generic": "generic word for an organization the text names"}


@dataclass(frozen=True)
class EntitySpan:
    """A mention the relation stage read: its words, character offsets in the document, entity
    key and label, its type and where the type came from (``source``)."""

    text: str
    start: int
    end: int
    key: str
    label: str
    type: str
    kind: str
    source: str


@dataclass(frozen=True)
class TriggerWord:
    """A word of the lexicon's predicate rules: the rules it matched, whether they fired (a
    noun that fires only with its light verb does not without), the event class it states."""

    text: str
    start: int
    end: int
    relations: tuple[str, ...]
    rules: tuple[str, ...]
    fired: bool
    event: str | None = None
    note: str = ""


@dataclass(frozen=True)
class Verdict:
    """One thing the stages said of a pair: ``outcome`` "fact" or "rejected" (of a candidate
    fact), or "none" (no candidate); ``reason`` a code (:data:`PRIORITY`), ``explanation`` its words."""

    outcome: str
    reason: str
    explanation: str
    relation: str | None = None
    subject: str | None = None
    object: str | None = None
    rule: str | None = None
    trigger: str | None = None
    trigger_start: int | None = None
    trigger_end: int | None = None
    stage: str | None = None
    confidence: float | None = None
    probability: float | None = None
    threshold: float | None = None


@dataclass(frozen=True)
class Pair:
    """Two entities of a sentence: "fact" if any fact relates them, else "no fact" for ``reason``."""

    a: str
    b: str
    a_label: str
    b_label: str
    outcome: str
    reason: str
    verdicts: tuple[Verdict, ...]


@dataclass(frozen=True)
class EventFound:
    type: str
    trigger: str
    start: int
    end: int
    rule: str
    roles: tuple[tuple[str, str], ...]  # (role, entity label or described place)


@dataclass(frozen=True)
class SentenceReport:
    number: int  # from 1
    text: str
    start: int
    end: int
    entities: tuple[EntitySpan, ...]
    triggers: tuple[TriggerWord, ...]
    pairs: tuple[Pair, ...]
    events: tuple[EventFound, ...]


@dataclass(frozen=True)
class Explanation:
    """The report of one document: its sentences (all, or the one asked for) and how many it has."""

    name: str
    model: bool  # whether the relation model judged the candidates beside the rules
    sentence_count: int
    sentences: tuple[SentenceReport, ...]

    def to_json(self) -> dict:
        return asdict(self)


def explain(text: str | None = None, file: str | Path | None = None, sentence: int | None = None) -> Explanation:
    """Explain the extraction of ``text``, or of the article in ``file`` (read as ``kg build``
    reads it); with ``sentence`` (from 1), report that sentence only, extracted in its article."""
    return explain_document(_document(text, file), sentence)


def _document(text: str | None, file: str | Path | None) -> Document:
    from ..ingest import iter_inputs, make_document, normalize_text

    if (text is None) == (file is None):
        raise UsageError("give a text or a file to explain, not both" if text is not None else
                         "nothing to explain", hint='kg explain "A sentence." or kg explain --file ARTICLE')
    if text is not None:
        if not normalize_text(text).strip():
            raise InputError("nothing to explain: the text is empty")
        return make_document(text, name="text")
    items = list(iter_inputs([str(file)]))
    documents = [item for item in items if isinstance(item, Document)]
    problems = [item for item in items if not isinstance(item, Document)]
    if problems and not documents:
        raise InputError(str(problems[0]))
    if len(documents) != 1:
        raise UsageError(f"{file}: holds {len(documents)} articles; kg explain reads one",
                         hint="name one file, or put the article's text on the command line")
    return documents[0]


def explain_document(document: Document, sentence: int | None = None, extractor=None) -> Explanation:
    """The report of one document, extracted as a build extracts it, with the relation trace on."""
    from . import nlp
    from .docindex import sentences
    from .pipeline import extract
    from .relations import Extractor
    from .relations.trace import tracing

    extractor = extractor or Extractor()
    (doc,) = nlp.parse([document.text])
    with tracing() as trace:
        extraction = extract(doc, document, extractor)
    spans = [s for s in sentences(doc) if s.text.strip()]
    if sentence is not None and not 1 <= sentence <= len(spans):
        raise UsageError(f"--sentence {sentence}: the text has {len(spans)} sentence{'s' if len(spans) != 1 else ''}")
    reader = _Reader(doc, trace, extraction, extractor.resources)
    chosen = range(len(spans)) if sentence is None else [sentence - 1]
    return Explanation(name=document.name, model=extractor.model is not None, sentence_count=len(spans),
                       sentences=tuple(reader.sentence(n + 1, spans[n]) for n in chosen))


class _Reader:
    """One document's parse, trace and extraction, read a sentence at a time."""

    def __init__(self, doc, trace: Trace, extraction: Extraction, resources: Resources) -> None:
        self.doc, self.trace, self.extraction = doc, trace, extraction
        self.gazetteer, self.words = resources.gazetteer, resources.words
        self.labels = {e.key: e.label for e in extraction.entities}
        self.types: dict[str, str] = {}
        for m in trace.mentions:
            if m.key:
                self.types.setdefault(m.key, m.type)
        for e in extraction.entities:
            self.types.setdefault(e.key, e.type)

    def label(self, key: str) -> str:
        entry = self.gazetteer.entries.get(key)
        return self.labels.get(key) or (entry.label if entry is not None else key)

    def sentence(self, number: int, span) -> SentenceReport:
        inside = range(span.start, span.end)
        mentions = [m for m in self.trace.mentions if m.start in inside and m.key]
        decisions = [d for d in self.trace.decisions if d.token in inside]
        arguments = [a for a in self.trace.arguments if a.token in inside]
        facts = [a for a in self.extraction.assertions if a.start_char == span.start_char]
        triggers = self._triggers(inside)
        keys = list(dict.fromkeys([m.key for m in mentions] + [k for d in decisions for k in (d.subject, d.object)]
                                  + [k for a in facts for k in (a.subject, a.object)]))
        fired = any(t.fired for t in triggers)
        pairs = tuple(self._pair(a, b, decisions, arguments, facts, fired) for a, b in combinations(keys, 2))
        return SentenceReport(
            number=number, text=span.text, start=span.start_char, end=span.end_char,
            entities=tuple(self._entity(m) for m in mentions), triggers=triggers, pairs=pairs,
            events=tuple(self._event(e) for e in self.extraction.events
                         if span.start_char <= e.trigger_start < span.end_char))

    def _entity(self, m: Mention) -> EntitySpan:
        return EntitySpan(text=m.text, start=m.start_char, end=m.end_char, key=m.key, label=self.label(m.key),
                          type=m.type, kind=m.kind, source=type_source(m, self.gazetteer, self.words, self.doc))

    def _triggers(self, inside: range) -> tuple[TriggerWord, ...]:
        events = ontology.event_types()
        by_token: dict[int, list] = {}
        for seen in self.trace.triggers:
            if seen.token in inside:
                by_token.setdefault(seen.token, []).append(seen)
        out = []
        for i, seen in sorted(by_token.items()):
            token = self.doc[i]
            fired = [s for s in seen if s.fired]
            shown = fired or seen
            shown = sorted(shown, key=lambda s: (s.relation, s.rule))  # the matcher's order follows the hash seed
            relations = tuple(dict.fromkeys(s.relation for s in shown))
            event = next((events[r].name for r in relations if r in events), None)
            out.append(TriggerWord(text=token.text, start=token.idx, end=token.idx + len(token.text),
                                   relations=relations, rules=tuple(s.rule for s in shown), fired=bool(fired),
                                   event=event, note="" if fired else seen[0].why))
        return tuple(out)

    def _pair(self, a: str, b: str, decisions: list[Decision], arguments: list[Arguments], facts: list,
              fired: bool) -> Pair:
        both = {a, b}
        verdicts: list[Verdict] = []
        mine = [d for d in decisions if {d.subject, d.object} == both]
        for fact in (f for f in facts if {f.subject, f.object} == both):
            made = next((d for d in mine if d.stage == "checks" and d.outcome == "fact" and d.rule == fact.rule
                         and (d.subject, d.relation, d.object) == (fact.subject, fact.predicate, fact.object)), None)
            how = "the relation model" if fact.rule == "model" else f"rule {fact.rule}"
            verdicts.append(self._verdict(made, "fact", "asserted", f"{fact.predicate} by {how}",
                                          relation=fact.predicate, subject=fact.subject, object=fact.object,
                                          rule=fact.rule, confidence=fact.confidence))
        for d in mine:
            if d.outcome == "rejected" and (d.stage == "checks" or d.reason in ("vetoed", "model-only")):
                verdicts.append(self._verdict(d, "rejected", d.reason, _words(d)))
        if not verdicts:  # no candidate fact of the pair reached a check
            verdicts.append(self._why_no_candidate(a, b, arguments, fired))
        if not any(v.outcome == "fact" for v in verdicts):
            model = [d for d in mine if d.stage == "model" and d.outcome == "rejected" and d.probability is not None
                     and d.reason not in ("vetoed", "model-only")]
            best = max(model, key=lambda d: d.probability, default=None)
            if best is not None:
                verdicts.append(self._verdict(best, "rejected", best.reason, _words(best)))
        made = any(v.outcome == "fact" for v in verdicts)
        reason = "fact" if made else min((v.reason for v in verdicts), key=PRIORITY.index)
        return Pair(a, b, self.label(a), self.label(b), "fact" if made else "no fact", reason, tuple(verdicts))

    def _why_no_candidate(self, a: str, b: str, arguments: list[Arguments], fired: bool) -> Verdict:
        """No rule made a candidate of the pair: its types fit no relation, no trigger word fired
        in the sentence, or the triggers' slots found other arguments."""
        from .learned.candidates import fitting

        ta, tb = self.types.get(a, "Entity"), self.types.get(b, "Entity")
        if not fitting(ta, tb) and not fitting(tb, ta):
            return Verdict("none", "no-relation", f"{WHY_NONE['no-relation']} ({ta}, {tb})")
        if not fired:
            return Verdict("none", "no-trigger", WHY_NONE["no-trigger"])
        said = []
        for arg in arguments:
            for key in (a, b):
                side = "subject" if key in arg.subjects else "object" if key in arg.objects else None
                if side is None:
                    continue
                other = arg.objects if side == "subject" else arg.subjects
                found = ", ".join(self.label(k) for k in other) or "none"
                said.append(f'"{self.doc[arg.token].text}" ({arg.rule}) takes {self.label(key)} as its {side}; '
                            f"its {'object' if side == 'subject' else 'subject'}: {found}")
        detail = "; ".join(dict.fromkeys(said)) if said else "no trigger here takes either as an argument"
        return Verdict("none", "no-path", f"{WHY_NONE['no-path']}: {detail}")

    def _verdict(self, d: Decision | None, outcome: str, reason: str, explanation: str, **fields) -> Verdict:
        if d is not None:
            token = self.doc[d.token]
            fields = {"relation": d.relation, "subject": d.subject, "object": d.object, "rule": d.rule,
                      "stage": d.stage, "probability": d.probability, "threshold": d.threshold,
                      "trigger": token.text, "trigger_start": token.idx, "trigger_end": token.idx + len(token.text),
                      **fields}
        return Verdict(outcome, reason, explanation, **fields)

    def _event(self, e) -> EventFound:
        roles = tuple((r.role, self.label(r.entity) if r.entity else r.description or "") for r in e.roles)
        return EventFound(type=e.type, trigger=e.trigger, start=e.trigger_start, end=e.trigger_end, rule=e.rule,
                          roles=roles)


def _words(d: Decision) -> str:
    """A decision in words: its reason's, with the model's probability and threshold."""
    words = REASONS.get(d.reason, d.reason)
    if d.probability is not None and d.threshold is not None:
        words += f" ({d.relation} {d.probability:.2f}, threshold {d.threshold:.2f})" if d.threshold <= 1 else \
            f" ({d.relation} {d.probability:.2f}; the model never adds {d.relation})"
    return f"{words}: {d.detail}" if d.detail else words


def type_source(m: Mention, gazetteer, words: Words, doc) -> str:
    """Where a mention's type came from, as the mention records it: how it was found (its kind),
    the gazetteer entry or dictionary row it matched, GeoNames, or the spaCy entity it lies in (an
    entity pattern's, or the NER's, retyped by its context where the type is not the label's)."""
    from .types import NER_TYPES, ner_type

    if m.kind in KINDS:
        return KINDS[m.kind]
    entry = gazetteer.entries.get(m.gazetteer_id or "")
    if entry is not None:
        # "gazetteer", "derived:COUNTRY" (its armed forces, government, regions), "petrarch2:FILE:LINE",
        # joined with "+" where a dictionary's row lent its names to another entry
        parts = [part.split(":") for part in entry.source.split("+")]
        said = ["gazetteer" + (f" (derived from {part[1]})" if part[0] == "derived" else "")
                for part in parts if part[0] in ("gazetteer", "derived")]
        dictionaries = sorted({part[0] for part in parts} - {"gazetteer", "derived"})
        return " and ".join(said + ([f"actor dictionary ({', '.join(dictionaries)})"] if dictionaries else []))
    if m.geonames_id:
        return "GeoNames"
    ent = next((e for e in doc.ents if e.start < m.end and m.start < e.end), None)
    if ent is None:
        return "kg's name rules (no NER entity)"
    if ent.ent_id_ in ontology.superclasses():
        return "entity pattern"
    named = f"spaCy NER ({ent.label_})"
    if NER_TYPES.get(ent.label_) == m.type:
        return named
    return f"{named}, typed by its head word" if ner_type(ent.label_, m.text, words) == m.type else \
        f"{named}, retyped by its context"


def to_text(explanation: Explanation) -> str:
    """The report for a terminal: one block a sentence."""
    lines = []
    for s in explanation.sentences:
        lines.append(f"sentence {s.number} of {explanation.sentence_count}: {' '.join(s.text.split())}")
        lines.append("  entities:" if s.entities else "  entities: none")
        width = max((len(e.text) for e in s.entities), default=0)
        for e in s.entities:
            named = f" = {e.label}" if e.label != e.text else ""
            lines.append(f"    {e.text:<{width}}  {e.type}  ({e.source}){named}")
        lines.append("  triggers:" if s.triggers else "  triggers: none")
        for t in s.triggers:
            event = f", event class {t.event}" if t.event else ""
            state = "" if t.fired else f"; not fired: {t.note}"
            lines.append(f'    "{t.text}"  {", ".join(t.relations)}{event}  (rules {", ".join(t.rules)}{state})')
        lines.append("  pairs:" if s.pairs else "  pairs: none")
        for p in s.pairs:
            head = "fact" if p.outcome == "fact" else f"no fact: {p.reason}"
            lines.append(f"    {p.a_label} - {p.b_label}: {head}")
            names = {p.a: p.a_label, p.b: p.b_label}
            for v in p.verdicts:
                lines.append(f"      {_verdict_line(v, names)}")
        lines.append("  events:" if s.events else "  events: none")
        for e in s.events:
            roles = ", ".join(f"{role} {who}" for role, who in e.roles)
            lines.append(f'    {e.type} "{e.trigger}" ({e.rule}): {roles}')
    return "\n".join(lines)


def _verdict_line(v: Verdict, names: dict[str, str]) -> str:
    if v.outcome == "none":
        return f"{v.reason}: {v.explanation}"
    at = f' at "{v.trigger}"' if v.trigger else ""
    by = "the relation model" if v.rule == "model" else f"rule {v.rule}"
    fact = f"{names.get(v.subject, v.subject)} {v.relation} {names.get(v.object, v.object)}"
    if v.outcome == "fact":
        p = f", the model's probability {v.probability:.2f}" if v.probability is not None else ""
        return f"FACT {fact} by {by}{at} (confidence {v.confidence:.2f}{p})"
    return f"{v.reason}: {fact} by {by}{at}: {v.explanation}"


def write_page(explanation: Explanation, path: str | Path, title: str | None = None) -> None:
    """The report as one offline page (``kg/templates/explain.html``): each sentence with its
    entities marked by type and an arc for each fact and each candidate rejected, its reason on hover."""
    from ..resources import write_page

    data = dict(explanation.to_json(), symmetric=sorted(ontology.symmetric_relations()))  # arcs without a head
    write_page(path, ("doctype.html", "explain.html"), title or f"kg explain: {explanation.name}", data)
