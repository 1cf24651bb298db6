"""Rules and model together, on one document's candidate facts before their polarity is checked.

A rule's fact keeps its place (the rules' measured precision is the backbone) unless the model,
having read the same pair and seen the rule fire often enough in its training data between
the same families of classes (a person and an organization, a country and an organization) to
judge it,
gives its relation a probability under the model's ``veto``; a fact it judges carries the model's
calibrated probability as its confidence, any other the rule's own. The model adds the facts of the
pairs no rule related when its probability of a relation reaches that relation's ``add``
threshold (chosen on the training data, :mod:`kg.train.fit`); such a fact's rule is ``model``
and its trigger the word at the top of the pair's dependency path, whose polarity
(:mod:`kg.extract.polarity`) is checked as a rule trigger's is. With
``KG_RELATION_MODEL=only`` the model's facts are the only ones.
"""

from __future__ import annotations

from functools import cache

from ... import ontology
from ..docindex import sentence_of
from ..lexicon import Rule
from ..relations.context import Found
from ..relations.trace import TRACE, Decision
from .candidates import candidates, family, fitting, judged_key
from .features import MARK, Classes, features, rule_facts
from .model import RelationModel

RULE_ID = "model"  # kg:rule of a fact only the model found
ALONE = 0.5  # the model alone states a relation it judges from this probability (or its add threshold, if lower)


@cache
def model_rule(relation: str) -> Rule:
    """The pseudo-rule a model's fact carries: no slots, its own kind, polarity checked."""
    return Rule(
        id=RULE_ID,
        relation=relation,
        kind="model",
        pos=None,
        lemmas=frozenset(),
        subject=(),
        object=(),
        pairs=(),
        light_verbs=frozenset(),
        confidence=0.5,
    )


def judge(
    ctx, found: list[Found], model: RelationModel, classes: Classes, only: bool = False
) -> list[Found]:
    """``found`` (the rules' candidate facts) as the model judges them, and the facts it adds."""
    doc = ctx.doc
    pairs = candidates(doc, ctx.mentions)
    trace = TRACE.get()
    if trace is not None and only:
        trace.decisions.extend(_noted(f, "rejected", "model-only") for f in found)
    if not pairs:
        return [] if only else found
    fired = rule_facts(doc, found)
    best: dict[
        tuple, tuple[float, int, list[str], tuple[str, str]]
    ] = {}  # (sentence, subject, relation, object) -> (p, top, features, the two types)
    symmetric = ontology.symmetric_relations()
    read = [features(doc, c, classes, fired.get(c.sentence, {}), ctx.at, ctx.words) for c in pairs]
    for c, (names, top), probabilities in zip(pairs, read, model.probabilities_of([names for names, _ in read])):
        allowed = fitting(c.subject.type, c.object.type)
        for relation, p in probabilities.items():
            if relation not in allowed:
                continue
            s, o = c.keys
            if relation in symmetric and o < s:
                s, o = o, s
            key = (c.sentence, s, relation, o)
            if key not in best or p > best[key][0]:
                types = (c.subject.type, c.object.type)
                if (s, o) != c.keys:
                    types = types[::-1]
                best[key] = (p, top if top is not None else c.subject.start, names, types)
    out: list[Found] = []
    covered: set[tuple] = set()
    judged = set(model.judged)
    if not only:
        for f in found:
            s, o = f.subject, f.object
            if f.rule.relation in symmetric and o < s:
                s, o = o, s
            key = (sentence_of(doc[f.trigger]).start, s, f.rule.relation, o)
            covered.add(key)
            if (
                key not in best
                or f.rule.relation not in judged
                or judged_key(f.rule.relation, f.rule.id, *best[key][3]) not in model.rules
            ):
                out.append(
                    f
                )  # a pair it does not read (a demonym's country), a relation or rule it saw too seldom
                if trace is not None:
                    trace.decisions.append(_noted(f, "kept", "unjudged",
                                                  _unjudged(f, best[key][3] if key in best else None, judged)))
            elif best[key][0] >= model.veto.get(f.rule.relation, 0.0):
                out.append(Found(f.subject, f.object, f.rule, f.trigger, round(best[key][0], 3)))
                if trace is not None:
                    trace.decisions.append(_noted(f, "kept", "confirmed", "", best[key][0],
                                                  model.veto.get(f.rule.relation, 0.0)))
            elif trace is not None:
                trace.decisions.append(_noted(f, "rejected", "vetoed", "", best[key][0],
                                              model.veto.get(f.rule.relation, 0.0)))
    for key, (p, top, names, _) in best.items():
        sentence, s, relation, o = key
        threshold = adding(model, relation, only)
        other = best.get((sentence, o, relation, s))  # one direction of a pair, the likelier
        if (
            key not in covered
            and p >= threshold
            and may_add(relation, names, not only)
            and (
                other is None or relation in symmetric or other[0] < p or (other[0] == p and s < o)
            )
        ):
            out.append(Found(s, o, model_rule(relation), top, round(p, 3)))
            if trace is not None:
                trace.decisions.append(Decision("model", s, o, relation, RULE_ID, top, "added", "proposed", "", p,
                                                threshold))
        elif trace is not None and key not in covered:
            if p < threshold:
                reason = "below-threshold"
            else:
                reason = refusal(relation, names, not only) or "other-direction"
            trace.decisions.append(Decision("model", s, o, relation, RULE_ID, top, "rejected", reason, "", p,
                                            threshold))
    return out


def adding(model: RelationModel, relation: str, only: bool) -> float:
    """The probability at which the model states ``relation`` for a pair the rules did not relate:
    its add threshold beside the rules; alone (``KG_RELATION_MODEL=only``), a relation it judges
    at 0.5 at most, as :mod:`kg.train.fit` measures the model alone out of fold (an add threshold
    is chosen for what the model adds to the rules, and a relation it adds nothing to beside them
    is still one it reads alone)."""
    threshold = model.add.get(relation, 1.1)
    return min(threshold, ALONE) if only and relation in model.judged else threshold


def _noted(f: Found, outcome: str, reason: str, detail: str = "", p: float | None = None,
           threshold: float | None = None) -> Decision:
    """The trace's record of the model's judgement of a rule's candidate."""
    return Decision("model", f.subject, f.object, f.rule.relation, f.rule.id, f.trigger, outcome, reason, detail,
                    p, threshold)


def _unjudged(f: Found, types: tuple[str, str] | None, judged: set[str]) -> str:
    if types is None:
        return "the model does not read this pair"
    if f.rule.relation not in judged:
        return f"the model's training data holds too few {f.rule.relation} facts to judge it"
    return (f"rule {f.rule.id} fired too seldom between a {family(types[0])} and a {family(types[1])} in "
            "the model's training data to judge it")


def may_add(relation: str, names: list[str], beside_rules: bool = True) -> bool:
    """Whether the model may add ``relation`` for a pair with these features. Beside the rules:
    never to a pair they related in the sentence either way round ("R:", "RR:": the rules read it,
    the model only vetoes). A relation that names an event (an attack, a capture...) needs a word
    of its trigger classes at the top of the pair's path or on it, and beside the rules the pair in
    that word's frame as well: the one acting its subject, possessor, modifier or by-agent, the
    one acted on its object (direct, passive subject, or after against, on, at, into, toward),
    no trigger word under the path's top with a doer of its own ("X backs Y in its fight
    against Z": the fight is Y's), and no other clause on the way down from the top to the one
    acted on ("X said its troops raided Y"). Alone (``KG_RELATION_MODEL=only``) a trigger word
    between the two is enough."""
    return refusal(relation, names, beside_rules) is None


def refusal(relation: str, names: list[str], beside_rules: bool = True) -> str | None:
    """Why the model may not add ``relation`` for a pair with these features (:func:`may_add`):
    "rules-read-pair", "event-relation", "out-of-frame", or None where it may."""
    if beside_rules and any(n.startswith(("R:", "RR:")) for n in names):
        return "rules-read-pair"
    if beside_rules and any(n in REFUSED.get(relation, ()) for n in names):
        return "out-of-frame"
    event = relation in _event_relations()
    if not event and relation not in TRIGGERED:
        return None
    where = ("TC", "PC") if beside_rules else ("TC", "PC", "BC")
    wanted = {f"{at}:{kind}:{relation}" for at in where for kind in ("lex", "pv")}
    if not any(n in wanted for n in names):
        return "event-relation"
    if beside_rules and not _in_frame(names, event):
        return "out-of-frame"
    return None


def _in_frame(names: list[str], event: bool = True) -> bool:
    """Whether the pair is the trigger word's own: no trigger word under the top with a doer of
    its own, no clause on the way down, and for an event the acting and the acted-on as
    :data:`FRAME_AGENT` and :data:`FRAME_PATIENT` say."""
    if f"{MARK}OWN" in names or f"{MARK}CLAUSE" in names:
        return False
    return not event or (any(n in FRAME_AGENT for n in names) and any(n in FRAME_PATIENT for n in names))


# Relations that name no event but are said by a word all the same, which the model's facts need
# on the pair's path, with the pair its own (no @OWN, no @CLAUSE): a leader by a title or a verb
# ("led by X", "X, the group's commander"). Measured: without it, a person led what a clause
# beside said another led ("SAF, led by General A, and the RSF, led by B, who leads the C
# coalition": A leaderOf C) once the training data held more leaders.
TRIGGERED = frozenset({"leaderOf"})


def _attached(side: str, prepositions: tuple[str, ...]) -> frozenset[str]:
    return frozenset(f"{side}:{far}pobj-{p}" for p in prepositions for far in ("", "far-"))


# How one of the pair hangs on the path when the model may not add the relation beside the rules
# (:func:`kg.extract.learned.features.attachment`). What is led is no place something else is in
# ("a group of fighters in Yemen led by X", "X heads the council in Chad": X leads the group, the
# council; not Yemen, not Chad). A place is not in what it is on, near, along or off ("Aden on
# the Arabian Sea", "a village near Kidal"), as docs/annotation.md says of locatedIn. A side a
# participle's modifier names ("the IS-affiliated Abu Sayyaf group", "an Iranian-backed militia")
# is the modified group's ally or backer: no one leads it or belongs to it by a title of that
# group ("X, the leader of the IS-affiliated Abu Sayyaf group" is no member of IS).
ADJACENT = ("on", "near", "along", "off", "outside", "beside", "by")
MODIFIER_SIDE = frozenset({"OA:npadvmod", "OA:far-npadvmod"})
REFUSED = {
    "leaderOf": _attached("OA", ("in",)) | MODIFIER_SIDE,
    "memberOf": MODIFIER_SIDE,
    "locatedIn": _attached("OA", ADJACENT) | _attached("SA", ADJACENT),
}


# How the two of an event's pair the model adds beside the rules hang on the path
# (:func:`kg.extract.learned.features.attachment`): "X attacked Y", "X's attack on Y", "ISIL
# fighters struck Y", "Y was shelled by X", "X carried out strikes against Y positions". Not "an
# airstrike in Somalia against Y" (a place of the attack), nor a name further from the trigger.
FRAME_AGENT = frozenset(f"SA:{d}" for d in ("nsubj", "poss", "compound", "nmod", "agent", "pobj-by"))
FRAME_PATIENT = frozenset(
    f"OA:{d}"
    for d in ("dobj", "nsubjpass", "compound", "pobj-against", "pobj-on", "pobj-upon", "pobj-at", "pobj-into",
              "pobj-toward", "pobj-towards")
)


@cache
def _event_relations() -> frozenset[str]:
    return frozenset(ontology.event_types())
