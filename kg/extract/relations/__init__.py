"""spaCy Doc + resolved mentions -> Assertions, driven by the relation lexicon.

The stages of one document's relations, each its own module: ``triggers`` finds lexicon
triggers and fills their arguments from the ``slots``; ``arguments`` says which entities a
token stands for; ``structure`` reads titles, nationalities and locations from modifiers and
appositions; :mod:`kg.extract.polarity` keeps only what the text states as fact and says who
reports it. A :class:`~kg.extract.relations.context.Context` carries one document's parse, mentions
and word lists through them; the :class:`Extractor` itself holds only the rules and the record of
data (:class:`~kg.extract.resources.Resources`) every stage of a document reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import ontology
from ...records import Assertion, Mention
from ..docindex import sentence_of, span_text
from ..polarity import polarity, reporter
from ..resolve import institution_of
from ..resources import Resources
from . import structure
from .structure import heads_a_part
from .context import Context, Found
from .trace import TRACE, Decision
from .triggers import Triggers, _first_filled, predicate

STRUCTURAL = {"title": structure.titles, "nationality": structure.nationality, "location": structure.location,
              "seat": structure.seat, "affiliation": structure.affiliation,
              "unit": structure.units, "stance": structure.stances}
DOUBT = 0.8  # confidence factor of a statement the text attributes with a doubtful verb ("claimed")


class Extractor:
    """The relation rules, applied to one parsed document at a time, and the record of data the
    stages of a document read (:attr:`resources`: built here when none is given). ``model=False``
    leaves the learned relation model out: the rules alone."""

    def __init__(self, resources: Resources | None = None, model: bool = True) -> None:
        self.resources = resources or Resources.load(model=model)
        self.lexicon, self.gazetteer = self.resources.lexicon, self.resources.gazetteer
        self.words = self.resources.words
        self.triggers = Triggers(self.lexicon, self.words)
        self.titles = {w: r for r in self.lexicon.rules_for("title") for w in r.lemmas}
        # the learned model beside the rules (kg.extract.learned, which reads the rules' modules)
        from ..learned import model as learned_model
        from ..learned.features import trigger_classes

        self.model = self.resources.model if model else None  # None: the rules alone
        self.only_model = self.model is not None and learned_model.mode() == "only"
        self.classes = trigger_classes(self.lexicon) if self.model is not None else None

    def extract(self, doc, mentions: list[Mention], doc_id: str) -> list[Assertion]:
        return self.read(doc, mentions, doc_id).assertions

    def rule_facts(self, doc, mentions: list[Mention]) -> tuple[Context, list, list[Found]]:
        """The document's context, every (trigger token, predicate rule) that fired, and the
        candidate facts of the rules, before the model and the polarity checks."""
        ctx = Context(doc, mentions, self.gazetteer, self.words, self.titles)
        trace = TRACE.get()
        if trace is not None:
            trace.mentions.extend(mentions)
        found: list[Found] = []
        fired = []
        for token, rule in self.triggers.matches(doc):
            fired.append((token, rule))
            found.extend(predicate(ctx, token, rule))
        for kind, rules in STRUCTURAL.items():
            for rule in self.lexicon.rules_for(kind):
                found.extend(rules(ctx, rule))
        found += _joint_actions(found, self.lexicon.rules_for("joint"))
        return ctx, fired, found + _regions_lie_in_their_country(ctx, found)

    def read(self, doc, mentions: list[Mention], doc_id: str) -> Reading:
        """The document's assertions, with what the event stage reads from the same pass."""
        ctx, fired, found = self.rule_facts(doc, mentions)
        if self.model is not None:
            from ..learned.combine import judge

            found = judge(ctx, found, self.model, self.classes, self.only_model)
        kept: list[Found] = []
        return Reading(ctx, fired, kept, assertions(ctx, found, doc_id, kept))


@dataclass(frozen=True)
class Reading:
    """One document's relations as the event stage (:mod:`kg.extract.eventstatements`) reads them: the
    context, every (trigger token, predicate rule) that fired, the candidates that became
    assertions (subject and object as asserted, symmetric ones in IRI order) and the assertions."""

    context: Context
    fired: list
    kept: list[Found]
    assertions: list[Assertion]

    def arguments(self, trigger, rule) -> tuple[list[str], list[str]]:
        """What ``rule``'s subject and object slots find at ``trigger`` each on its own, typed by
        the relation: the participants of an event whose trigger names only one side."""
        relation = ontology.relations()[rule.relation]
        ctx = self.context
        subjects = [k for k in _first_filled(ctx, trigger, rule.subject, rule)
                    if _typed(ctx.type_of(k), relation.domain, rule.subject_types)]
        objects = [k for k in _first_filled(ctx, trigger, rule.object, rule)
                   if _typed(ctx.type_of(k), relation.range, rule.object_types)]
        return subjects, objects


def _own_institution(ctx: Context, a: str, b: str) -> bool:
    """Whether one of the two is the other's own government or armed forces (kg:institutionOf)."""
    return any(institution_of(ctx.gazetteer.entries.get(x), ctx.gazetteer) == y for x, y in ((a, b), (b, a)))


def assertions(ctx: Context, found: list[Found], doc_id: str, kept: list[Found] | None = None) -> list[Assertion]:
    """The facts the text states, typed by the ontology, one per fact and sentence; ``kept``
    receives each candidate that passed."""
    relations = ontology.relations()
    out: dict[tuple, Assertion] = {}
    trace = TRACE.get()
    for f in found:
        relation = relations[f.rule.relation]
        s, o = f.subject, f.object
        if s == o or not _typed(ctx.type_of(s), relation.domain, f.rule.subject_types) \
                or not _typed(ctx.type_of(o), relation.range, f.rule.object_types):
            if trace is not None:
                trace.decisions.append(_mistyped(ctx, f, relation))
            continue
        trigger = ctx.doc[f.trigger]
        if relation.name == "allyOf" and (s in ctx.unarmed or o in ctx.unarmed):
            if trace is not None:
                trace.decisions.append(_decided(f, "rejected", "unarmed-group"))
            continue  # "the United States supports the Syrian people": help to a people, no alliance
        if relation.name == "allyOf" and _own_institution(ctx, s, o):
            if trace is not None:
                trace.decisions.append(_decided(f, "rejected", "own-institution"))
            continue  # "France backed the French army's operation": one side, no alliance
        if relation.name == "leaderOf" and heads_a_part(ctx, trigger):
            if trace is not None:
                trace.decisions.append(_decided(f, "rejected", "part-leader"))
            continue  # "an ISIL gang leader" leads a gang of ISIL: a member (see structure.titles)
        if f.rule.kind in ("predicate", "model"):
            verdict = polarity(trigger, ctx.words, f.rule.light_verbs)
            if verdict not in (("asserted", "attempted") if f.rule.attempts else ("asserted",)):
                if trace is not None:
                    trace.decisions.append(_decided(f, "rejected", verdict))
                continue
        reported_by, doubtful = reporter(ctx, trigger)
        if relation.symmetric and o < s:
            s, o = o, s
        sent = sentence_of(trigger)
        confidence = (f.rule.confidence if f.confidence is None else f.confidence) * (DOUBT if doubtful else 1.0)
        if trace is not None:
            trace.decisions.append(_decided(Found(s, o, f.rule, f.trigger, f.confidence), "fact", "asserted",
                                            f"confidence {confidence:.3g}" + (f", reported by {reported_by}"
                                                                              if reported_by else "")))
        key = (s, relation.name, o, sent.start_char)
        if kept is not None and f.rule.kind != "model":
            kept.append(Found(s, o, f.rule, f.trigger))
        if key in out and out[key].confidence >= confidence:
            continue
        out[key] = Assertion(
            subject=s, predicate=relation.name, object=o, doc_id=doc_id, evidence=span_text(sent).strip(),
            start_char=sent.start_char, end_char=sent.end_char, rule=f.rule.id,
            confidence=round(confidence, 3), reported_by=reported_by,
        )
    return sorted(out.values(), key=lambda a: (a.start_char, a.predicate, a.subject, a.object))


def _decided(f: Found, outcome: str, reason: str, detail: str = "") -> Decision:
    return Decision("checks", f.subject, f.object, f.rule.relation, f.rule.id, f.trigger, outcome, reason, detail,
                    f.confidence)


def _mistyped(ctx: Context, f: Found, relation: ontology.Relation) -> Decision:
    """The record of a candidate :func:`assertions` drops for its entities (traced only)."""
    if f.subject == f.object:
        return _decided(f, "rejected", "same-entity")
    if not _typed(ctx.type_of(f.subject), relation.domain, f.rule.subject_types):
        wanted = f.rule.subject_types or relation.domain
        return _decided(f, "rejected", "subject-type", f"{ctx.type_of(f.subject)}, not {' or '.join(wanted)}")
    wanted = f.rule.object_types or relation.range
    return _decided(f, "rejected", "object-type", f"{ctx.type_of(f.object)}, not {' or '.join(wanted)}")


def _typed(type_: str, allowed: tuple[str, ...], narrowed: tuple[str, ...]) -> bool:
    return ontology.fits(type_, allowed) and (not narrowed or ontology.fits(type_, narrowed))


def _joint_actions(found: list[Found], rules: list) -> list[Found]:
    """"Afghan and U.S. forces launched an offensive against ISIS-K": the sides one trigger word
    gives the same act against the same target fought on the same side, by each "joint" rule of
    the lexicon, whose ``acts`` name the rules it reads; not the two of a mutual rule ("A and B
    clashed": they fought each other)."""
    out = []
    for rule in rules:
        by_act: dict[tuple, list[str]] = {}
        for f in found:
            if f.rule.id in rule.acts and not f.rule.mutual:
                sides = by_act.setdefault((f.trigger, f.rule.id, f.object), [])
                if f.subject not in sides and f.subject != f.object:
                    sides.append(f.subject)
        for (trigger, _, _), sides in by_act.items():
            for i, a in enumerate(sides):
                for b in sides[i + 1:]:
                    out.append(Found(a, b, rule, trigger))
    return out


def _regions_lie_in_their_country(ctx: Context, found: list[Found]) -> list[Found]:
    """"in eastern Syria" also says "in Syria" (of a place, and of an organization's seat: "a group
    based in northeastern Nigeria"): a compass region the gazetteer derives from a country lies in
    it, as its name says. A region that only the gazetteer places in a country says nothing of the
    country: "Detroit, Mich." in a story that names the United States elsewhere is no statement
    that Detroit lies in the United States (until 2026-12-07 it was, where the document named the
    country: on kg's seventeen training sets 19 such facts were made and one was annotated)."""
    out = []
    for f in found:
        entry = ctx.gazetteer.entries.get(f.object)
        if f.rule.relation in ("locatedIn", "basedIn") and entry is not None and entry.type == "Region" and entry.country \
                and f.subject != entry.country \
                and entry.source == f"derived:{entry.country}":
            out.append(Found(f.subject, entry.country, f.rule, f.trigger))
    return out
