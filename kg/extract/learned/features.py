"""What the relation model knows of a candidate pair: strings read from the parse, never the names.

A pair is described by its two types and mention kinds, the dependency path between the two
mentions (through the first conjunct of a coordination; from a relative clause's pronoun for its
antecedent, from a participle's passive subject for the noun it modifies, and from the subject a
verb takes from another clause for that clause's subject: each clause read as the clause it
restates), the lemmas on it and at its top, the words between the two (a later conjunct's read
around the first conjunct's name, so that every conjunct reads as the first), the trigger classes
of kg's lexicon and of PETRARCH2's CAMEO verbs on or near the path, the polarity of the path's top
word, and which rule fired on the pair, and how each of the two hangs on the path. No feature
holds an entity's name: the model learns constructions, not facts about particular actors. Names
that begin with ``MARK`` are marks for the model's gates
(:func:`kg.extract.learned.combine.may_add`), which the learner leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from ..docindex import children, heads, sentence_of, tokens
from ..lexicon import Lexicon, dictionary_entries
from ..parse import first_conjunct, lemma, subjects
from ..polarity import polarity
from ..words import Words
from .candidates import KINDS, Candidate

MAX_PATH = 6  # dependency steps of a path spelled out whole; longer ones only by their shape
MAX_BETWEEN = 8  # words between the two mentions read one by one
DOERS = ("poss", "nsubj", "nsubjpass", "agent")  # the labels of a word's own doer
CLAUSES = ("ccomp", "parataxis", "csubj")  # a clause a word says or holds: "said (that)", "X: Y"
MARK = "@"  # a name of this prefix marks the pair for the model's gates (combine.may_add): no feature it learns


@dataclass(frozen=True)
class Classes:
    """Trigger classes by lemma: the relations kg's lexicon gives a word, and PETRARCH2's CAMEO
    relation and root code (the first two digits: 19 fight, 04 consult, ...) of a verb."""

    lexicon: dict[str, frozenset[str]]
    petrarch: dict[str, frozenset[str]]
    known: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)  # of()'s answers

    def of(self, lemma_: str) -> tuple[str, ...]:
        out = self.known.get(lemma_)
        if out is None:
            out = self.known[lemma_] = tuple(
                [f"lex:{r}" for r in sorted(self.lexicon.get(lemma_, ()))]
                + [f"pv:{c}" for c in sorted(self.petrarch.get(lemma_, ()))]
            )
        return out


def trigger_classes(lexicon: Lexicon) -> Classes:
    """The classes of each word of the lexicon's forms; of a form of several words ("chief of
    staff", "commander in chief", "take control"), each word but its function words: "of" and
    "in" are no leader's words."""
    from spacy.lang.en.stop_words import STOP_WORDS

    by_lemma: dict[str, set[str]] = {}
    for rule in lexicon.rules:
        for form in rule.lemmas:
            words = form.split()
            for word in words:
                if len(words) == 1 or word not in STOP_WORDS:
                    by_lemma.setdefault(word, set()).add(rule.relation)
    return Classes({k: frozenset(v) for k, v in by_lemma.items()}, _petrarch())


@cache
def _petrarch() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for raw in dictionary_entries():
        classes = out.setdefault(raw["lemma"], set())
        classes.add(raw["relation"])
        classes.update(f"cameo{code[:2]}" for code in raw.get("codes", ()) if code[:2].isdigit())
    return {k: frozenset(v) for k, v in out.items()}


def rule_facts(doc, found) -> dict[int, dict[tuple[str, str], list[str]]]:
    """The rules' candidate facts (:class:`~kg.extract.relations.context.Found`) by sentence (its
    first token) and pair of keys, as :func:`features` reads them: "relation", "relation:rule-id"."""
    out: dict[int, dict[tuple[str, str], list[str]]] = {}
    for f in found:
        at = out.setdefault(sentence_of(doc[f.trigger]).start, {}).setdefault(
            (f.subject, f.object), []
        )
        at += [f.rule.relation, f"{f.rule.relation}:{f.rule.id}"]
    return out


def _to_root(token) -> list:
    """``token`` and the words above it up to its sentence's root (kept for the document: each
    word's chain is read for every pair it is in; the caller must not change the list)."""
    doc = token.doc
    chains = doc.user_data.get("kg_chains")
    if chains is None:
        chains = doc.user_data["kg_chains"] = {}
    chain = chains.get(token.i)
    if chain is None:
        every, head = tokens(doc), heads(doc)
        chain, i = [token], token.i
        while head[i] != i:
            i = head[i]
            chain.append(every[i])
        chains[token.i] = chain
    return chain


def path(a, b) -> tuple[list, object, list] | None:
    """The tokens from ``a`` up to the lowest common ancestor and from there down to ``b``."""
    up = _to_root(a)
    at = {t.i: n for n, t in enumerate(up)}
    down = []
    for t in _to_root(b):
        if t.i in at:
            return up[: at[t.i]], t, down[::-1]
        down.append(t)
    return None  # different sentences' trees


def attachment(token, top, through: tuple[str, ...], classes: Classes | None = None) -> str:
    """How a mention's anchor hangs on its path: its dependency label, read from the noun it
    modifies through ``through`` ("ISIL positions", "Y's bases"), a preposition's object by the
    preposition ("pobj-against"; "agent" for a by-phrase); "far-" before it unless the word it
    hangs on is the path's top or, given trigger ``classes``, a trigger word (the one acted on of
    "X carried out strikes against Y")."""
    while token.dep_ in through and token.head.i not in (top.i, token.i):
        token = token.head
    label = token.dep_
    if label == "pobj" and token.head.i != token.i:
        token = token.head
        label = "agent" if token.dep_ == "agent" else f"pobj-{token.lower_}"
    near = token.head.i == top.i or (classes is not None and bool(classes.of(lemma(token.head))))
    return label if near else f"far-{label}"


def _read_at(mention, head, first, other, at: dict) -> tuple[int, int]:
    """The span whose words around it are read for ``mention`` (whose head is ``head``): the
    mention's own, or for a later conjunct the mention of its coordination's ``first`` conjunct,
    unless the pair's ``other`` hangs on that same conjunct (the two in one list)."""
    if first.i != head.i and first.i != other.i:
        named = at.get(first.i)
        if named is not None:
            return named.start, named.end
    return mention.start, mention.end


def _gap(antecedent, other, words: Words):
    """The relative pronoun that stands for ``antecedent`` in a relative clause of it holding
    ``other`` ("which" in "Raqqa, which ISIL seized"), else ``antecedent``. Not "whose": it stands
    for the antecedent's possessor."""
    for clause in children(antecedent):
        if clause.dep_ == "relcl" and clause.left_edge.i <= other.i <= clause.right_edge.i:
            for k in children(clause):
                if k.dep_ in ("nsubj", "nsubjpass", "dobj") and k.lower_ in words.relative_pronouns and k.lower_ != "whose":
                    return k
    return antecedent


class _StandIn:
    """A mention read where the clause it belongs to leaves it unsaid: the passive subject of a
    participle that modifies it ("Mosul, seized by ISIS": as "Mosul was seized by ISIS"), or the
    subject of a verb that takes its subject from another ("X attacked and captured Y", "X vowed
    to capture Y", "after seizing Y, X marched": as "X captured Y")."""

    def __init__(self, token, head, dep: str) -> None:
        self.token, self.i, self.head, self.dep_ = token, token.i, head, dep

    def __getattr__(self, name: str):
        return getattr(self.token, name)  # its words, lemma and children are the token's


def _controlled_path(a, b, words: Words) -> tuple[list, object, list] | None:
    """The path between ``a`` and ``b`` where one is (or names, as a compound) the subject a verb
    above the other takes from elsewhere, having none of its own; read from that verb, None
    otherwise."""
    chains = {a.i: _to_root(a), b.i: _to_root(b)}
    for doer, other, first in ((a, b, True), (b, a, False)):
        named = [doer]  # "the M23 rebels": the name, then the noun it names
        while named[-1].dep_ == "compound" and named[-1].head.i != named[-1].i:
            named.append(named[-1].head)
        chain = chains[other.i]
        above = {t.i for t in chains[doer.i]}
        for n, verb in enumerate(chain[1:], 1):
            if verb.i in above:
                break  # the doer's own clause: the path is the clause's as written
            if verb.pos_ != "VERB":
                continue
            if any(k.dep_ in ("nsubj", "nsubjpass", "csubj", "auxpass", "agent") for k in children(verb)):
                break  # a verb with a subject of its own, or a passive one
            if any(s.i == named[-1].i for s in subjects(verb, words)):
                stand = [_StandIn(named[-1], verb, "nsubj")]
                for token in reversed(named[:-1]):
                    stand.append(_StandIn(token, stand[-1], token.dep_))
                stand.reverse()  # from the doer up
                below = chain[:n]
                return (stand, verb, below[::-1]) if first else (below, verb, stand[::-1])
            break
    return None


def _participle_path(a, b) -> tuple[list, object, list] | None:
    """The path between ``a`` and ``b`` where one is a noun a passive participle with the other
    under it modifies, read as that participle's clause; None otherwise."""
    for noun, other, first in ((a, b, True), (b, a, False)):
        for clause in children(noun):
            if clause.dep_ == "acl" and clause.tag_ in ("VBN", "VBD") and clause.left_edge.i <= other.i <= clause.right_edge.i \
                    and other.i != clause.i:
                chain = _to_root(other)
                below = chain[: [t.i for t in chain].index(clause.i)]
                gap = _StandIn(noun, clause, "nsubjpass")
                return ([gap], clause, below[::-1]) if first else (below, clause, [gap])
    return None


def _root(doc, start: int, end: int):
    """The syntactic root of ``doc[start:end]`` (a mention is in many pairs: read once)."""
    roots = doc.user_data.get("kg_span_roots")
    if roots is None:
        roots = doc.user_data["kg_span_roots"] = {}
    root = roots.get((start, end))
    if root is None:
        root = roots[(start, end)] = doc[start:end].root
    return root


def _dist(n: int) -> str:
    return str(n) if n < 4 else "4-6" if n < 7 else "7-12" if n < 13 else "13+"


def features(
    doc,
    candidate: Candidate,
    classes: Classes,
    rules: dict[tuple[str, str], list[str]],
    at: dict | None = None,
    words: Words | None = None,
) -> tuple[list[str], int | None]:
    """The feature strings of one candidate, and the token at the top of its dependency path (None
    when the two hang on one word); ``rules`` maps a pair of keys to the rule facts ("relation"
    and "relation:rule-id") the rules found for it in this sentence; ``at`` maps a token to the
    mention it is part of: a word of another name reads as that name's type ("<Country>"); ``words``
    are the word lists of the document's context (None: kg's own, for a caller without one)."""
    at = at or {}
    if words is None:
        from ..resources import Resources

        words = Resources.load(model=False).words

    def word(t) -> str:
        m = at.get(t.i)
        return f"<{m.type}>" if m is not None and m.kind in KINDS else lemma(t)

    s, o = candidate.subject, candidate.object
    s_head, o_head = _root(doc, s.start, s.end), _root(doc, o.start, o.end)
    types = f"{s.type}>{o.type}"
    out = [f"T:{types}", f"K:{s.kind}>{o.kind}"]
    a, b = first_conjunct(s_head), first_conjunct(o_head)  # the heads the two's relations hang on
    if s_head.dep_ == "conj" or o_head.dep_ == "conj":
        out.append("CONJ")
    # the words around a later conjunct are read around its coordination's first ("members A and
    # B": B reads as A, not as the name after "members A and")
    s_at, o_at = _read_at(s, s_head, a, b, at), _read_at(o, o_head, b, a, at)
    first, last = (s_at, o_at) if s_at[0] < o_at[0] else (o_at, s_at)
    between = tokens(doc)[first[1] : last[0]] if first[1] <= last[0] else []
    out += ["ORD:so" if s_at[0] < o_at[0] else "ORD:os", f"D:{_dist(len(between))}"]
    top = None
    if a.i == b.i:
        out.append("SAMEHEAD")
        # the two are one coordination ("A and B"): what it does in its clause tells "A and B
        # launched strikes" (allies) from "talks between A and B"
        if a.head.i != a.i:
            out += [f"SH:{a.dep_}|{word(a.head)}", f"SHD:{a.dep_}|{types}"]
            for c in classes.of(lemma(a.head)):
                out += [f"SHC:{c}", f"SHC:{c}|{types}"]
    else:
        # a relative clause's antecedent reads at its pronoun ("Raqqa, which ISIL seized": as
        # "ISIL seized Raqqa"), so that the clause reads as the main clause it restates
        a, b = _gap(a, b, words), _gap(b, a, words)
        found = _participle_path(a, b) or _controlled_path(a, b, words) or path(a, b)
        if found is not None:
            up, top, down = found
            a = up[0] if up and isinstance(up[0], _StandIn) else a
            b = down[-1] if down and isinstance(down[-1], _StandIn) else b
            steps = [f"{t.dep_}^" for t in up] + [f"v{t.dep_}" for t in down]
            shape = " ".join(steps)
            top_lemma = word(top) if top.i not in (a.i, b.i) else "<arg>"
            out += [
                f"PD:{shape}" if len(steps) <= MAX_PATH else f"PN:{_dist(len(steps))}",
                f"TOP:{top_lemma}",
                f"TOPP:{top.pos_}",
                f"TOPD:{shape}|{top_lemma}",
                # the same path means one relation between a person and a group, another between
                # a group and a town: the path with the two types
                f"PDT:{shape if len(steps) <= MAX_PATH else len(steps)}|{types}",
                f"TOPT:{top_lemma}|{types}",
            ]
            if len(steps) <= MAX_PATH:
                inner = [word(t) for t in up[1:]] + [top_lemma] + [word(t) for t in down[:-1]]
                out.append(f"P:{shape}|{' '.join(inner)}")
                out += [f"PL:{w}" for w in inner]
            for c in classes.of(lemma(top)):
                out += [f"TC:{c}", f"TC:{c}|{types}"]
            for t in up[1:] + down[:-1]:
                for c in classes.of(lemma(t)):
                    out.append(f"PC:{c}")
            # prepositions and particles hanging on the top word: "fight against", "take control of"
            out += [
                f"TK:{top_lemma}|{k.dep_}:{k.lower_}"
                for k in children(top)
                if k.dep_ in ("prt", "prep", "agent")
            ]
            # how each hangs on the path ("SA:nsubj", "OA:pobj-against", "OA:far-dobj"), and marks
            # for the model's gates: "@OWN" where a trigger word under the top has a doer of its
            # own ("X backs Y in its fight against Z"), "@CLAUSE" where the path goes down into
            # a clause the top says or holds ("X said its troops raided Y")
            on_path = {t.i for t in up + down} | {top.i}
            if any(
                k.dep_ in DOERS and k.i not in on_path
                for t in up[1:] + down[:-1]
                if classes.of(lemma(t))
                for k in children(t)
            ):
                out.append(f"{MARK}OWN")
            if any(t.dep_ in CLAUSES for t in down):
                out.append(f"{MARK}CLAUSE")
            out += [f"SA:{attachment(a, top, ('compound',))}", f"OA:{attachment(b, top, ('compound', 'poss'), classes)}"]
            verdicts = doc.user_data.setdefault("kg_top_polarity", {})  # a top is many pairs' top
            verdict = verdicts.get(top.i)
            if verdict is None:
                verdict = verdicts[top.i] = polarity(top, words)
            if verdict != "asserted":
                out.append(f"POL:{verdict}")
    said = [word(t) for t in between if not t.is_punct]
    if len(between) <= MAX_BETWEEN:
        out += [f"BW:{w}" for w in said]
        out.append(f"BS:{' '.join(said)}")
        for t in between:
            for c in classes.of(lemma(t)):
                out.append(f"BC:{c}")
    if between:
        out += [f"B1:{word(between[0])}", f"BL:{word(between[-1])}"]
    if first[0] > 0:
        out.append(f"W-1:{word(tokens(doc)[first[0] - 1])}")
    if last[1] < len(doc):
        out.append(f"W+1:{word(tokens(doc)[last[1]])}")
    for fact in rules.get(candidate.keys, ()):
        out.append(f"R:{fact}")
    for fact in rules.get((o.key, s.key), ()):
        if ":" not in fact:
            out.append(f"RR:{fact}")
    return out, (top.i if top is not None else None)
