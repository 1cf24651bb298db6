"""Annotated text as the relation model learns from it: documents with labelled pairs of mentions.

Three kinds of folder or file are read, each into :class:`Labelled` documents:

* a ``kg eval`` gold folder (``docs/eval.md``) annotated by the rules of ``docs/annotation.md``:
  its ``articles/`` beside ``gold/`` (or the folder ``gold/docs.txt``'s stems are found in),
  every sentence annotated exhaustively, each row's evidence copied verbatim; the arguments are
  matched by their aliases;
* a re3d source folder (``documents.json``, ``entities.json``, ``relations.json``): its relations
  mapped as ``kg eval`` maps them (:mod:`kg.eval.re3d`), the arguments matched by their spans;
* a CoNLL04 file in the SpERT JSON form (``conll04_train.json``): Work_For as ``memberOf`` or
  ``leaderOf``, OrgBased_In as ``basedIn``, Located_In as ``locatedIn``, Kill as ``attacked``.

A source that annotates only some relations says so (``scope``): a pair the rules relate by a
relation outside the scope is neither taught as that relation nor as none. A source that
annotates relations only between some classes says which (``pairs``): a candidate of other classes
is left out, not taught as none (CoNLL04 annotates no relation of a country to an organization,
so "Australia joined NATO" there is unannotated, not a non-fact).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import ontology
from ..errors import UsageError
from ..eval import re3d
from ..eval.score import load_gold, norm

ALL = None  # the scope of a source that annotates every relation


@dataclass(frozen=True)
class Argument:
    """One side of a labelled pair: a span of the text, or the names the entity goes by."""

    span: tuple[int, int] | None = None
    names: frozenset[str] = frozenset()

    def matches(self, start: int, end: int, text: str) -> bool:
        if self.span is not None:
            return start < self.span[1] and self.span[0] < end
        name = norm(text)
        return bool(name) and (
            name in self.names or any(_within(n, name) or _within(name, n) for n in self.names)
        )


def _within(short: str, long: str) -> bool:
    return len(short) > 2 and f" {short} " in f" {long} "


@dataclass(frozen=True)
class Label:
    subject: Argument
    object: Argument
    predicates: tuple[str, ...]  # alternatives ("leaderOf", "memberOf"): the rules' reading decides
    status: str  # required, forbidden, optional
    region: tuple[int, int]  # the characters that state it: the evidence, or the two mentions


@dataclass
class Labelled:
    id: str
    text: str
    source: str
    labels: list[Label] = field(default_factory=list)
    scope: frozenset[str] | None = ALL
    # the (subject class, object class) pairs the source annotates relations between; None: all
    pairs: tuple[tuple[str, str], ...] | None = ALL


@dataclass
class Corpus:
    documents: list[Labelled]
    files: dict[str, str]  # data file -> sha256


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read(paths: list[str | Path]) -> Corpus:
    documents: list[Labelled] = []
    files: dict[str, str] = {}
    for raw in paths:
        path = Path(raw)
        if path.is_file() and path.suffix == ".json":
            documents += conll04(path)
            files[str(path)] = _sha(path)
        elif path.is_dir() and (re3d._is_source(path) or re3d.is_re3d(path)):
            sources = (
                [path]
                if (path / "relations.json").is_file()
                else sorted(p for p in path.iterdir() if (p / "relations.json").is_file())
            )
            for source in sources:
                documents += re3d_source(source)
                files.update(
                    {
                        str(source / n): _sha(source / n)
                        for n in ("documents.json", "relations.json", "entities.json")
                    }
                )
        elif path.is_dir() and (path / "gold" / "relations.tsv").is_file():
            docs, used = gold_folder(path)
            documents += docs
            files.update({str(p): _sha(p) for p in used})
        else:
            raise UsageError(
                f"{path}: not a gold folder (gold/relations.tsv), a re3d source folder "
                "or a CoNLL04 JSON file"
            )
    return Corpus(documents, files)


def gold_folder(folder: Path) -> tuple[list[Labelled], list[Path]]:
    gold_dir = folder / "gold"
    gold = load_gold(gold_dir)
    articles = folder / "articles"
    names: dict[str, set[str]] = {}
    for alias, ids in gold.alias_to_ids.items():
        for gid in ids:
            names.setdefault(gid, set()).add(alias)
    files = [gold_dir / "entities.tsv", gold_dir / "relations.tsv"]
    relation_names = {name.lower(): name for name in ontology.relations()}
    if not gold.docs:
        raise UsageError(
            f"{gold_dir / 'docs.txt'}: no articles listed", hint="see docs/annotation.md"
        )
    documents = []
    for index, stem in enumerate(gold.docs):
        path = articles / f"{stem}.txt"
        if not path.is_file():
            raise UsageError(f"{gold_dir / 'docs.txt'}: {stem}: no {path}")
        files.append(path)
        text = path.read_text(encoding="utf-8").strip()
        labelled = Labelled(f"{folder.name}/{stem}", text, folder.name)
        for row in gold.relations:
            if index not in {int(d) for d in row.docs if d.strip().isdigit()}:
                continue
            evidence = row.evidence.strip()
            regions = (
                [(m.start(), m.end()) for m in re.finditer(re.escape(evidence), text)]
                if evidence
                else []
            )
            if not regions:
                continue  # evidence not verbatim: the row cannot be placed in a sentence
            subject = Argument(names=frozenset().union(*(names.get(i, ()) for i in row.subjects)))
            object_ = Argument(names=frozenset().union(*(names.get(i, ()) for i in row.objects)))
            if "*" in row.subjects or "*" in row.objects:
                continue
            for region in regions:
                predicates = tuple(sorted(relation_names.get(p.lower(), p) for p in row.predicates))
                labelled.labels.append(Label(subject, object_, predicates, row.status, region))
        documents.append(labelled)
    return documents, files


def re3d_source(source: Path) -> list[Labelled]:
    docs = {
        d["_id"]: Labelled(
            d["_id"],
            d["text"],
            f"re3d/{source.name}",
            scope=frozenset({"allyOf", "attacked", "memberOf", "leaderOf", "locatedIn"}),
        )
        for d in re3d._lines(source / "documents.json")
    }
    types = {
        (e["documentId"], e["begin"], e["end"]): e["type"]
        for e in re3d._lines(source / "entities.json")
    }
    for r in re3d._lines(source / "relations.json"):
        if r.get("confidence", 1) < 0.5 or r["documentId"] not in docs:
            continue
        doc = r["documentId"]
        s = Argument(span=(r["sourceBegin"], r["sourceEnd"]))
        o = Argument(span=(r["targetBegin"], r["targetEnd"]))
        region = (min(r["sourceBegin"], r["targetBegin"]), max(r["sourceEnd"], r["targetEnd"]))
        if r["type"] not in re3d.MAPPING:
            if r["type"] in RE3D_NEAR:  # near a relation of kg's: neither taught as one nor as none
                docs[doc].labels.append(Label(s, o, RE3D_NEAR[r["type"]], "optional", region))
            continue
        relation, sources, targets, either_way = re3d.MAPPING[r["type"]]
        # classes the mapping leaves out ("CoLocated" of an organization: kg's basedIn, not scored)
        # are still related in re3d's eyes: the pair is not a non-fact
        mapped = (
            types.get((doc, r["sourceBegin"], r["sourceEnd"])) in sources
            and types.get((doc, r["targetBegin"], r["targetEnd"])) in targets
        )
        docs[doc].labels.append(Label(s, o, (relation,), "required" if mapped else "optional", region))
        if mapped and either_way and relation == "attacked":  # re3d's FightingAgainst: the other way is not said
            docs[doc].labels.append(Label(o, s, (relation,), "optional", region))
    return list(docs.values())


# re3d's relations near one of kg's that the mapping does not score: a pair re3d relates by one is
# left out of the training data (``Likes`` of two groups is often an alliance, ``Dislikes`` a fight)
RE3D_NEAR = {"Likes": ("allyOf",), "Dislikes": ("attacked",)}

CONLL04 = {
    "Work_For": ("leaderOf", "memberOf"),
    "OrgBased_In": ("basedIn",),
    "Located_In": ("locatedIn",),
    "Kill": ("attacked",),
}
# the classes CoNLL04's relations join where kg has a relation for them, in kg's classes: Work_For
# (a person, an organization or an institution), OrgBased_In, Located_In and Kill (its Live_In, a
# person and a place, is no relation of kg's: a president "of" a country there is unannotated)
CONLL04_PAIRS = (
    ("Person", "Organization"),
    ("Person", "Facility"),
    ("Organization", "Location"),
    ("Location", "Location"),
    ("Person", "Person"),
)


def _dateline_agency(sentence: dict, relation: dict) -> bool:
    """CoNLL04's OrgBased_In of a wire agency in parentheses after a dateline's place ("DAYTON ,
    Ohio ( AP )"): where the story was filed, which docs/annotation.md says is not the agency's
    seat; the pair is taught as none."""
    if relation["type"] != "OrgBased_In":
        return False
    tokens, org, place = sentence["tokens"], sentence["entities"][relation["head"]], sentence["entities"][relation["tail"]]
    return (0 < org["start"] and org["end"] < len(tokens) and tokens[org["start"] - 1] == "("
            and tokens[org["end"]] == ")" and place["end"] <= org["start"] - 1)


def conll04(path: Path) -> list[Labelled]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"{path}: not a CoNLL04 JSON file ({exc})") from None
    try:
        return _conll04(data, path)
    except (AttributeError, IndexError, KeyError, TypeError) as exc:
        raise UsageError(
            f"{path}: not a CoNLL04 JSON file (a list of sentences with tokens, entities and "
            f"relations; {type(exc).__name__}: {exc})"
        ) from None


def _conll04(data, path: Path) -> list[Labelled]:
    out = []
    for i, x in enumerate(data):
        tokens = x["tokens"]
        starts, pos = [], 0
        for t in tokens:
            starts.append(pos)
            pos += len(t) + 1
        spans = [
            (starts[e["start"]], starts[e["end"] - 1] + len(tokens[e["end"] - 1]))
            for e in x["entities"]
        ]
        doc = Labelled(
            f"{path.stem}-{i}",
            " ".join(tokens),
            "conll04",
            scope=frozenset({"leaderOf", "memberOf", "basedIn", "locatedIn"}),
            pairs=CONLL04_PAIRS,
        )
        for r in x["relations"]:
            if r["type"] not in CONLL04 or _dateline_agency(x, r):
                continue
            s, o = spans[r["head"]], spans[r["tail"]]
            doc.labels.append(
                Label(
                    Argument(span=s),
                    Argument(span=o),
                    CONLL04[r["type"]],
                    "required",
                    (min(s[0], o[0]), max(s[1], o[1])),
                )
            )
        out.append(doc)
    return out
