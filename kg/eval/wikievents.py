"""WikiEvents as a gold set of events: ``kg eval FILE.jsonl`` on a file in WikiEvents' format (Li,
Ji and Han 2021: KAIROS-ontology events with their triggers and arguments, entity mentions, and
coreference clusters in ``coref/<name>.jsonlines`` beside the file).

What it scores, per kg event class with a KAIROS counterpart (Attack <- Conflict.Attack.*,
Capture <- Justice.ArrestJailDetain.*, Evacuation <- Movement.Transportation.Evacuation):

- **statement precision**: a kg:EventStatement is correct when its sentence holds a trigger of a
  KAIROS type that tells the same kind of happening (an attack's also Life.Die, Life.Injure,
  damage and generic crime; an evacuation's any transportation), and **trigger precision** when
  its trigger is one of those triggers' words;
- **events found**: a gold event is found when a statement of its class lies in the sentence of
  its trigger;
- **roles**: of the gold events whose argument (agent: Attacker, Jailer, Transporter; patient:
  Target, Detainee, PassengerArtifact; place: Place, Destination) has a name in its coreference
  cluster, those whose found statement has an entity in that role (agent; patient or theme; any
  place role) named by one of the cluster's names;
- **time**: KAIROS gives these events no time argument, so there is none to score here; kg's own
  gold (``events.tsv``) scores times.

A name is a mention with a capitalized word other than an article, not a pronoun, and not a
sentence's first word that the document also writes in lower case ("Police said"). Names match as
for re3d (:func:`kg.eval.re3d.name_matches`). Statements of classes without a counterpart
(Ceasefire, AllianceAct) are counted, not scored.

The text kg reads puts every token at its original offset less the first token's, with a newline
where the original has more than one character between sentences or after a sentence without
final punctuation (:func:`document_text`), so the data's offsets locate its mentions in what kg
built. ``python -m kg.eval.wikievents texts FILE.jsonl OUT.jsonl`` writes those texts as kg JSONL.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UsageError
from . import texts_command
from .re3d import _local, graph_fields, is_name, name_matches

# kg event class -> (KAIROS type prefixes of its gold events, prefixes whose trigger makes a
# statement correct, KAIROS role -> kg role column)
CLASSES = {
    "Attack": (("Conflict.Attack.",),
               ("Conflict.Attack.", "Life.Die.", "Life.Injure.", "ArtifactExistence.DamageDestroyDisableDismantle.",
                "GenericCrime."),
               {"Attacker": "agent", "Target": "patient", "Place": "place"}),
    "Capture": (("Justice.ArrestJailDetain.",), ("Justice.ArrestJailDetain.",),
                {"Jailer": "agent", "Detainee": "patient", "Place": "place"}),
    "Evacuation": (("Movement.Transportation.Evacuation",), ("Movement.Transportation.",),
                   {"Transporter": "agent", "PassengerArtifact": "patient", "Destination": "place"}),
}
COLUMNS = {"agent": {"agentrole"}, "patient": {"patientrole", "themerole"},
           "place": {"locationrole", "destinationrole", "originrole"}}


@dataclass
class GoldEvent:
    doc: str
    kairos: str
    trigger: tuple[int, int]  # characters of the trigger in the text kg reads
    sentence: tuple[int, int]
    # kg column -> one entry per argument: the names of its coreference cluster (empty: none)
    arguments: dict[str, list[set[str]]] = field(default_factory=lambda: defaultdict(list))


@dataclass
class Gold:
    texts: dict[str, str]
    events: list[GoldEvent]


def is_wikievents(path: str | Path) -> bool:
    """Whether ``path`` is a JSONL file of WikiEvents documents."""
    p = Path(path)
    if not (p.is_file() and p.suffix == ".jsonl"):
        return False
    with p.open(encoding="utf-8") as f:
        first = f.readline()
    try:
        return {"doc_id", "sentences", "event_mentions"} <= json.loads(first).keys()
    except (ValueError, AttributeError):
        return False


def document_text(doc: dict) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]]:
    """The text kg reads for one document, its tokens' and its sentences' character spans."""
    sentences = doc["sentences"]
    base = sentences[0][0][0][1]
    chars = [" "] * (sentences[-1][0][-1][2] - base)
    tokens, spans, previous = [], [], None
    for words, _text in sentences:
        first = words[0][1] - base
        if previous is not None:
            end, word = previous
            if first - end >= 2 or not re.search(r"[.!?:;\"'\u201d)\]]$", word):
                chars[end:first] = "\n" * (first - end)
        for word, start, stop in words:
            start, stop = start - base, stop - base
            if len(word) != stop - start:
                raise UsageError(f"{doc['doc_id']}: token {word!r} does not fill {start}..{stop}")
            chars[start:stop] = word
            tokens.append((start, stop))
        spans.append((first, words[-1][2] - base))
        previous = (words[-1][2] - base, words[-1][0])
    return "".join(chars), tokens, spans


def _read(path: Path) -> list[dict]:
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: {exc}") from None


def load_gold(path: str | Path) -> Gold:
    """The documents and the scored events of a WikiEvents file (and its coreference clusters)."""
    path = Path(path)
    coref_file = path.parent / "coref" / f"{path.stem}.jsonlines"
    clusters = {c["doc_key"]: c["clusters"] for c in _read(coref_file)} if coref_file.is_file() else {}
    gold = Gold({}, [])
    for doc in _read(path):
        text, tokens, sentences = document_text(doc)
        gold.texts[doc["doc_id"]] = text
        lower = {w for words, _t in doc["sentences"] for w, _s, _e in words if w[:1].islower()}
        firsts = [0]
        for words, _t in doc["sentences"]:
            firsts.append(firsts[-1] + len(words))
        names = {}
        for m in doc["entity_mentions"]:
            words = m["text"].split()
            opens = m["start"] == firsts[m["sent_idx"]] and bool(words) and words[0].lower() in lower
            names[m["id"]] = m["text"] if is_name(" ".join(words[1:]) if opens else m["text"]) else None
        cluster_of = {}
        for cluster in clusters.get(doc["doc_id"], []):
            for m in cluster:
                cluster_of[m] = cluster
        for e in doc["event_mentions"]:
            kg_class = next((c for c, (own, _s, _r) in CLASSES.items() if e["event_type"].startswith(own)), None)
            trigger = (tokens[e["trigger"]["start"]][0], tokens[e["trigger"]["end"] - 1][1])
            event = GoldEvent(doc["doc_id"], e["event_type"], trigger, sentences[e["trigger"]["sent_idx"]])
            for a in e["arguments"] if kg_class else ():
                column = CLASSES[kg_class][2].get(a["role"])
                if column:
                    members = cluster_of.get(a["entity_id"], [a["entity_id"]])
                    event.arguments[column].append({names[m] for m in members if names.get(m)})
            gold.events.append(event)
    return gold


@dataclass
class Statement:
    doc: str
    type: str
    trigger: str
    sentence: tuple[int, int]
    roles: dict[str, set[str]]  # kg column -> entity nodes


def graph_statements(triples: Iterable[tuple]) -> tuple[dict[str, set[str]], list[Statement]]:
    """Entity names and event statements of a graph given as (subject, predicate, object) terms."""
    names, identifiers, fields, lists = graph_fields(
        triples, {"eventtype", "trigger", "startoffset", "endoffset", "wasderivedfrom", "roletype", "value"},
        frozenset({"role"}))
    out = []
    for node, f in list(fields.items()):
        if {"eventtype", "trigger", "startoffset", "endoffset", "wasderivedfrom"} <= f.keys():
            roles: dict[str, set[str]] = defaultdict(set)
            for role in lists.get(node, {}).get("role", ()):
                kind = _local(fields[role].get("roletype", ""))
                column = next((c for c, kinds in COLUMNS.items() if kind in kinds), None)
                if column and "value" in fields[role]:
                    roles[column].add(fields[role]["value"])
            doc = identifiers.get(f["wasderivedfrom"], f["wasderivedfrom"])
            out.append(Statement(doc, re.split(r"[#/]", f["eventtype"])[-1], f["trigger"],
                                 (int(f["startoffset"]), int(f["endoffset"])), roles))
    return names, out


@dataclass
class Report:
    documents: int
    statements: dict[str, dict]  # kg class -> predicted, correct, trigger_correct, precision, ...
    events: dict[str, dict]  # kg class -> gold, found, and per column: gold_named, found_named
    precision: float  # of the statements of the classes with a counterpart
    agent_recall: float  # of the gold attacks whose attacker has a name
    unscored: dict[str, int]

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _inside(span: tuple[int, int], sentence: tuple[int, int]) -> bool:
    return sentence[0] <= span[0] and span[1] <= sentence[1] + 1


def evaluate(triples: Iterable[tuple], gold: Gold) -> Report:
    """Score a graph's event statements on WikiEvents (see the module docstring)."""
    names, statements = graph_statements(triples)
    statements = [s for s in statements if s.doc in gold.texts]
    by_doc: dict[str, list[GoldEvent]] = defaultdict(list)
    for e in gold.events:
        by_doc[e.doc].append(e)
    counts: dict[str, Counter] = defaultdict(Counter)
    unscored: Counter = Counter()
    for s in statements:
        if s.type not in CLASSES:
            unscored[s.type] += 1
            continue
        support = CLASSES[s.type][1]
        near = [e for e in by_doc[s.doc] if e.kairos.startswith(support) and _inside(e.trigger, s.sentence)]
        text = gold.texts[s.doc]
        c = counts[s.type]
        c["predicted"] += 1
        c["correct"] += bool(near)
        c["trigger_correct"] += any(_same_word(s.trigger, text[e.trigger[0]:e.trigger[1]]) for e in near)
    events: dict[str, Counter] = defaultdict(Counter)
    for e in gold.events:
        kg_class = next((c for c, (own, _s, _r) in CLASSES.items() if e.kairos.startswith(own)), None)
        if kg_class is None:
            continue
        found = [s for s in statements if s.doc == e.doc and s.type == kg_class and _inside(e.trigger, s.sentence)]
        c = events[kg_class]
        c["gold"] += 1
        c["found"] += bool(found)
        for column, arguments in e.arguments.items():
            for cluster in (a for a in arguments if a):
                c[f"{column}_named"] += 1
                c[f"{column}_found"] += any(
                    any(name_matches(n, names.get(node, ())) for n in cluster)
                    for s in found for node in s.roles.get(column, ()))
    scored = [c for t, c in counts.items() if t in CLASSES]
    predicted, correct = sum(c["predicted"] for c in scored), sum(c["correct"] for c in scored)
    attacks = events.get("Attack", Counter())
    return Report(
        documents=len(gold.texts),
        statements={t: {**c, "precision": _ratio(c["correct"], c["predicted"]),
                        "trigger_precision": _ratio(c["trigger_correct"], c["predicted"])}
                    for t, c in sorted(counts.items())},
        events={t: dict(c) for t, c in sorted(events.items())},
        precision=_ratio(correct, predicted), agent_recall=_ratio(attacks["agent_found"], attacks["agent_named"]),
        unscored=dict(unscored))


def _same_word(trigger: str, gold: str) -> bool:
    a, b = trigger.lower(), gold.lower()
    return a == b or f" {a} " in f" {b} " or f" {b} " in f" {a} "


def _ratio(a: int, b: int) -> float:
    return round(a / b, 3) if b else 0.0


def write_texts(path: str | Path, out: str | Path) -> int:
    """The documents of a WikiEvents file as kg JSONL (id = doc_id); how many were written."""
    docs = _read(Path(path))
    with open(out, "w", encoding="utf-8") as f:
        f.writelines(json.dumps({"id": d["doc_id"], "text": document_text(d)[0]}, ensure_ascii=False) + "\n" for d in docs)
    return len(docs)


def main(argv: list[str]) -> int:
    """``python -m kg.eval.wikievents texts FILE.jsonl OUT.jsonl``."""
    return texts_command(argv, write_texts, main.__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
