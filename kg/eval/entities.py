"""Entity figures of ``kg eval``: are the gold entities found, typed right, split or merged?

Two gold sets, two measures (docs/eval.md, "Entities"):

* kg's gold folder (:func:`score_gold`): for every entity of ``entities.tsv``, the graph nodes
  that name it are those the relations map to it (:class:`kg.eval.score._Nodes`: an alias equal,
  after normalization, to a canonical label, else to another label), else nodes with a
  ``kg:surfaceForm`` equal to an alias. Found: some node names it. Typed right: every such node's
  most specific classes are the gold class or its subclasses in ontology/kg.ttl (gold classes
  outside the ontology are read through :data:`GOLD_CLASSES`, or not judged). Splits and merges
  are the scorer's. Nodes no gold entity names are not counted: the gold lists some entities only.
* re3d (:func:`score_re3d`): re3d's named Person / Organisation / Location / Nationality mentions
  of confidence 0.5 or more, once per (document, normalized text, type), looked up among the
  entities ``kg:mentionedIn`` their document. It counts as the benchmark's entity scorer
  (../shared/eval/re3d/entities.py) does, except that kg's classes are read through the ontology's
  hierarchy (that scorer lists the subclasses it knows, and counts a kg:Facility wrong for a
  Location). See :func:`score_re3d` for the figures.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

from .surface import NAME_PROPERTIES, PRONOUNS, is_name, norm

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
KG_NS = "https://w3id.org/kg/ontology#"

# Gold classes that are not kg classes, as the gold sets write them ("class is informative").
GOLD_CLASSES = {"City": "Settlement", "Town": "Settlement", "Village": "Settlement", "Place": "Location",
                "Government": "GovernmentAgency", "Organisation": "Organization", "Location": "Location"}

# re3d's entity types, and the kg class whose subclasses are right for each
RE3D_TYPES = ("Person", "Organisation", "Location")
RE3D_ALL = RE3D_TYPES + ("Nationality",)
EXPECTED = {"Person": "Person", "Organisation": "Organization", "Location": "Location"}
# the top classes a kg entity is judged by (every kg class is one of them or below one)
TOPS = ("Person", "PersonGroup", "Organization", "Location", "Operation")


def _local(iri: str) -> str:
    return re.split(r"[#/:]", iri)[-1]


def kg_classes(types: Iterable[str]) -> frozenset[str]:
    """The most specific entity classes of ontology/kg.ttl among a node's rdf:type IRIs."""
    from ..ontology import is_a, superclasses

    known = superclasses()
    classes = {_local(t) for t in types if t.startswith(KG_NS) and _local(t) in known}
    classes = {c for c in classes if is_a(c, "Entity")}
    return frozenset(c for c in classes if not any(d != c and is_a(d, c) for d in classes))


def class_name(classes: Iterable[str]) -> str:
    return "+".join(sorted(classes)) or "untyped"


def gold_class(name: str) -> str | None:
    """The kg class a gold class names (itself, or through :data:`GOLD_CLASSES`); None if none."""
    from ..ontology import superclasses

    name = GOLD_CLASSES.get(name, name)
    return name if name in superclasses() else None


# ------------------------------------------------------------------------------------ kg gold


def score_gold(by_subject: dict, nodes, gold, splits: dict[str, int], merges: list[str]) -> dict:
    """The entity figures of a kg gold folder (module docstring). ``by_subject`` and ``nodes``
    are :func:`kg.eval.score.evaluate`'s; ``splits`` and ``merges`` its figures."""
    from ..ontology import is_a

    naming: dict[str, list] = defaultdict(list)  # gold id -> the nodes that name it
    for node in by_subject:
        if node[0] == "literal" or not any(nodes.labels(node)):
            continue
        mapped = nodes.map(node)
        ids = mapped[len("AMBIGUOUS("):-1].split("+") if mapped.startswith("AMBIGUOUS(") else [mapped]
        for gid in ids:
            if gid in gold.ids:
                naming[gid].append(node)
    by_surface: dict[str, list] = defaultdict(list)
    for node, props in by_subject.items():
        for p, o in props:
            if o[0] == "literal" and p == KG_NS + "surfaceForm":
                by_surface[norm(o[1])].append(node)
    surface_only = []
    for gid in sorted(gold.ids - naming.keys()):
        found = {n for alias in gold.aliases.get(gid, ()) for n in by_surface.get(norm(alias), ())}
        if found:
            naming[gid] = sorted(found)
            surface_only.append(gid)

    def label(node) -> str:
        canonical, other = nodes.labels(node)
        return (canonical or other or [node[1]])[0]

    not_found, wrong, untyped_gold = [], [], []
    judged = right = general = 0
    for gid in sorted(gold.ids):
        cls = gold.classes.get(gid, "")
        if gid not in naming:
            not_found.append({"id": gid, "class": cls, "aliases": gold.aliases.get(gid, [])[:3]})
            continue
        want = gold_class(cls)
        if want is None:
            untyped_gold.append(f"{gid} ({cls})")
            continue
        judged += 1
        bad, unspecific = [], False
        for node in sorted(naming[gid]):
            classes = kg_classes(o[1] for p, o in by_subject.get(node, ()) if p == RDF_TYPE)
            if classes and all(is_a(c, want) for c in classes):
                continue
            if classes and all(is_a(c, want) or is_a(want, c) for c in classes):
                unspecific = True  # kg:Location for a region: not wrong, only less specific
                continue
            bad.append({"id": gid, "class": cls, "node": label(node), "node_class": class_name(classes)})
        right += not bad
        general += not bad and unspecific
        wrong += bad
    return {"gold": len(gold.ids), "found": len(gold.ids) - len(not_found), "typed": judged,
            "typed_right": right, "typed_general": general, "splits": len(splits), "merges": len(merges), "not_found": not_found,
            "wrong_type": wrong, "found_by_surface_form_only": surface_only,
            "class_not_in_ontology": untyped_gold}


# ------------------------------------------------------------------------------------ re3d


def graph_entities(triples: Iterable[tuple]):
    """Names, rdf:type IRIs, labels and the re3d documents (by dcterms:identifier, as
    :func:`kg.eval.re3d.graph_assertions` reads them) of the entities of a graph."""
    names: dict[str, set[str]] = defaultdict(set)
    types: dict[str, set[str]] = defaultdict(set)
    mentioned: dict[str, set[str]] = defaultdict(set)
    identifiers, labels = {}, {}
    for (_, s), (_, p), (okind, o) in triples:
        local = _local(p).lower()
        if local in NAME_PROPERTIES and okind == "literal":
            names[s].add(o)
            if local in ("label", "preflabel"):
                labels[s] = o
        elif local == "identifier" and okind == "literal":
            identifiers[s] = o
        elif p == RDF_TYPE:
            types[s].add(o)
        elif local == "mentionedin":
            mentioned[s].add(o)
    by_doc: dict[str, set[str]] = defaultdict(set)
    for entity, docs in mentioned.items():
        for d in docs:
            doc = identifiers.get(d, d)
            by_doc[Path(doc).stem if doc.endswith((".txt", ".md")) else doc].add(entity)
    return names, types, labels, by_doc


def top_class(type_iris: Iterable[str]) -> str:
    """A kg entity's class as re3d is judged: Person, PersonGroup, Organization, Location or
    Operation, "+"-joined when its classes disagree, "untyped" without one."""
    from ..ontology import is_a

    tops = {next((t for t in TOPS if is_a(c, t)), c) for c in kg_classes(type_iris)}
    return class_name(tops)


PREPOSITIONS = {"of", "in", "at", "from", "for", "on", "with", "near", "around", "by", "to", "into",
                "inside", "outside", "across", "against", "within", "who", "which", "that"}
GENERIC_HEADS = {"city", "town", "village", "district", "suburb", "province", "governorate", "region",
                 "area", "island", "site", "capital", "north", "south", "east", "west", "northeast",
                 "northwest", "southeast", "southwest", "km", "miles"}
STOP = {"of", "the", "and", "al", "el", "a", "an", "in", "for", "on", "to", "de"}
TITLES = {"president", "gen", "general", "lt", "maj", "col", "colonel", "capt", "captain", "secretary",
          "minister", "prime", "mr", "mrs", "ms", "dr", "sheikh", "king", "prince", "deputy", "foreign",
          "defense", "defence", "state", "army", "navy", "brig", "adm", "admiral", "sgt", "spc", "cpl",
          "special", "advisor", "envoy", "commander", "spokesman", "u", "s", "us", "uk", "iraqi", "syrian",
          "high", "representative", "ambassador", "senator", "sen", "rep", "chief", "lord", "sir"}
RANK = {"exact": 0, "head": 1, "part": 2}


def heads(n: str) -> set[str]:
    """The head word of a normalized mention: its last word before a preposition ("state" of
    "islamic state of iraq and the levant"), or its last word when that one follows a place word
    ("mosul" of "the city of mosul", of "35km south of mosul")."""
    w = n.split()
    for i, x in enumerate(w[1:], 1):
        if x in PREPOSITIONS:
            if w[i - 1] in GENERIC_HEADS:
                break
            return {w[i - 1]}
    return {w[-1]} if w else set()


def head_of(text: str) -> str:
    """The normalized mention without a trailing ", place" ("Palmyra, Syria" -> "palmyra")."""
    return norm(text.split(",")[0]) or norm(text)


def match_kind(g: str, g_head: str, name: str) -> str | None:
    """How an entity's name matches a normalized gold mention: "exact"; "head" (one inside the
    other as whole words, covering the longer one's head word); "part" (inside, not the head)."""
    n = norm(name)
    if not n:
        return None
    if n == g:
        return "exact"
    if f" {n} " in f" {g} ":
        return "head" if f" {n} " in f" {g_head} " and heads(g_head) & set(n.split()) else "part"
    if len(g) >= 3 and f" {g} " in f" {n} ":
        return "head" if heads(head_of(name)) & set(g.split()) else "part"
    return None


def _closure(pairs: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        parent[find(a)] = find(b)
    groups: dict[str, set[str]] = defaultdict(set)
    for x in list(parent):
        groups[find(x)].add(x)
    return {(x, y) for g in groups.values() for x in g for y in g if x != y}


def _linked(links: list[tuple[str, str, str, bool]]) -> set[tuple[str, str]]:
    """Names re3d links by IsSynonymOf: transitively within a document, and across documents
    through pairs of two names only (a chain through "the group" would join anything)."""
    by_doc: dict[str, list] = defaultdict(list)
    for doc, a, b, _named in links:
        if a and b and a != b:
            by_doc[doc].append((a, b))
    out = set().union(*(_closure(pairs) for pairs in by_doc.values())) if by_doc else set()
    return out | _closure((a, b) for _doc, a, b, named in links if a and b and a != b and named)


def acronym(a: str, b: str) -> bool:
    """``a`` abbreviates ``b``: the beginnings of some of its words, in order ("sdf", "centcom")."""
    a, w = a.replace(" ", ""), b.split()
    if not 2 <= len(a) <= 12 or len(w) < 2:
        return False

    def fits(i: int, j: int) -> bool:
        if i == len(a):
            return True
        return any(a[i:i + k] == w[jj][:k] and fits(i + k, jj + 1)
                   for jj in range(j, len(w)) for k in range(1, len(w[jj]) + 1) if i + k <= len(a))

    return fits(0, 0)


def proper(text: str) -> bool:
    """Every word a capital or a digit ("Commodore Andrew Burns", not "commander of the Task Group")."""
    ws = [w for w in re.findall(r"[A-Za-z0-9][\w'.-]*", text) if w.lower() not in STOP]
    return bool(ws) and all(w[0].isupper() or w[0].isdigit() for w in ws)


def clearly_different(a: str, b: str, persons: bool, both_proper: bool) -> str:
    """Why two normalized proper names cannot name one thing, or "" when they may."""
    if a in b or b in a or acronym(a, b) or acronym(b, a) or not both_proper:
        return ""
    if difflib.SequenceMatcher(None, a.replace(" ", ""), b.replace(" ", "")).ratio() >= 0.8:
        return ""  # Da'esh, Dae'sh, Daesh
    wa, wb = [x for x in a.split() if x not in STOP], [x for x in b.split() if x not in STOP]

    def stems(ws: list[str]) -> set[str]:  # Syria / Syrian, Turkey / Turks
        return {x[:4] if len(x) >= 4 else x for x in ws}

    if persons and (TITLES & set(a.split()) or TITLES & set(b.split())):
        return ""  # "507th Maintenance Group Commander" stands for a name
    if not stems(wa) & stems(wb):
        return "no word in common"
    pa, pb = [x for x in wa if x not in TITLES], [x for x in wb if x not in TITLES]
    if persons and len(pa) >= 2 and len(pb) >= 2 and pa[-1] == pb[-1] and pa[0] != pb[0] and pa[0][0] != pb[0][0]:
        return "different given names"
    return ""


def _gold_mentions(gold, min_confidence: float) -> list[dict]:
    out, seen = [], set()
    for m in gold.mentions:
        if m["type"] not in RE3D_ALL or m["confidence"] < min_confidence or not is_name(m["text"]):
            continue
        key = (m["doc"], norm(m["text"]), m["type"])
        if key[1] and key not in seen:
            seen.add(key)
            out.append({**m, "norm": key[1]})
    return out


def _ratio(a: int, b: int) -> float:
    return round(a / b, 3) if b else 0.0


def score_re3d(triples: Iterable[tuple], gold, min_confidence: float = 0.5) -> dict:
    """Entity mentions of re3d found, typed right, spurious and merged (docs/eval.md, "Entities").

    - mention recall: a gold mention is found when an entity of its document has a name equal to
      it or inside it as whole words, or containing it (:func:`kg.eval.re3d.name_matches`);
      "exact" counts equal names only. "Named or head" leaves out the mentions found only through
      a name inside them that is not their head ("ISIL" in "ISIL tactical units").
    - type accuracy: of the found Person / Organisation / Location mentions but those, the ones
      whose best-matching entity (an equal name first, then one covering the head word; ties go
      to the right type) has the right top class; a kg:Country for an Organisation is reported
      apart, with the accuracy it would give if it counted.
    - noise: (document, entity) pairs whose names match no re3d mention of the document, of any
      type and confidence (counted apart when one of another document matches).
    - merge candidates: entities carrying names equal to two gold mentions of their documents that
      re3d does not link by IsSynonymOf and that have disjoint gold types or clearly different
      names (:func:`clearly_different`).
    """
    names, types, labels, by_doc = graph_entities(triples)
    docs = gold.documents
    by_doc = {d: es for d, es in by_doc.items() if d in docs}
    mentions = _gold_mentions(gold, min_confidence)

    def label(e: str) -> str:
        if e in labels:
            return labels[e]
        ns = names.get(e) or {e}
        return max([n for n in ns if n != n.lower()] or list(ns), key=lambda n: (len(n), n))

    def best_match(m: dict, entities) -> tuple | None:
        g, gh, want = m["norm"], head_of(m["text"]), EXPECTED.get(m["type"])
        best = None
        for e in entities:
            for n in names.get(e, ()):
                kind = match_kind(g, gh, n)
                if kind is not None:
                    key = (RANK[kind], 0 if top_class(types.get(e, ())) == want else 1, -len(norm(n)), e)
                    if best is None or key < best[0]:
                        best = (key, kind, e, n)
        return best[1:] if best else None

    total, found, exact, judged, right, part = (Counter() for _ in range(6))
    confusion: dict[str, Counter] = defaultdict(Counter)
    missed, wrong = [], []
    for m in mentions:
        t = m["type"]
        total[t] += 1
        text = docs[m["doc"]]["text"]
        context = " ".join(text[max(0, m["begin"] - 50):m["end"] + 50].split())
        best = best_match(m, by_doc.get(m["doc"], ()))
        if best is None:
            missed.append({"doc": m["doc"], "type": t, "text": m["text"], "context": context})
            continue
        kind, e, n = best
        found[t] += 1
        exact[t] += kind == "exact"
        top = top_class(types.get(e, ()))
        if kind == "part":
            part[t] += 1
            continue
        confusion[t][top] += 1
        if t not in EXPECTED:
            continue
        judged[t] += 1
        right[t] += top == EXPECTED[t]
        if top != EXPECTED[t]:
            kinds = sorted(_local(x) for x in types.get(e, ()))
            wrong.append({"doc": m["doc"], "type": t, "text": m["text"], "kg": label(e), "kg_name": n,
                          "kg_class": top, "kg_types": kinds, "context": context})

    anything: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for m in gold.mentions:
        anything[m["doc"]].add((norm(m["text"]), m["text"]))
    everywhere = set().union(*anything.values()) if anything else set()

    def supported(e: str, annotations) -> bool:
        for n in map(norm, names.get(e, ())):
            for g, raw in annotations if n else ():
                if g and (n == g or f" {n} " in f" {g} " or (
                        len(g) >= 3 and g not in PRONOUNS and is_name(raw) and f" {g} " in f" {n} ")):
                    return True
        return False

    noise, pairs = [], 0
    for d, entities in sorted(by_doc.items()):
        for e in sorted(entities):
            pairs += 1
            if not supported(e, anything.get(d, ())):
                noise.append({"doc": d, "kg": label(e), "kg_class": top_class(types.get(e, ())),
                              "annotated_elsewhere": supported(e, everywhere)})
    noise.sort(key=lambda x: (x["annotated_elsewhere"], x["doc"], x["kg"]))

    merges, merged_entities = _merge_candidates(mentions, by_doc, names, types, label, _linked(gold.links))
    main = RE3D_TYPES
    n_gold, n_found = sum(total[t] for t in main), sum(found[t] for t in main)
    n_judged, n_right = sum(judged[t] for t in main), sum(right[t] for t in main)
    country = sum(1 for w in wrong if w["type"] == "Organisation" and "Country" in w["kg_types"]
                  and w["kg_class"] == "Location")
    return {
        "documents": len(docs), "documents_with_kg_entities": len(by_doc),
        "gold_mentions": {t: total[t] for t in RE3D_ALL}, "gold": n_gold, "found": n_found,
        "found_exact": sum(exact[t] for t in main),
        "mention_recall": _ratio(n_found, n_gold), "mention_recall_exact": _ratio(sum(exact[t] for t in main), n_gold),
        "mention_recall_named_or_head": _ratio(n_found - sum(part[t] for t in main), n_gold),
        "found_only_inside_a_longer_mention": sum(part[t] for t in main),
        "per_type": {t: {"gold": total[t], "found": found[t], "found_exact": exact[t],
                         "recall": _ratio(found[t], total[t]), "typed": judged[t], "typed_right": right[t],
                         "type_accuracy": _ratio(right[t], judged[t]),
                         "found_only_inside_a_longer_mention": part[t]} for t in RE3D_ALL},
        "type_accuracy": _ratio(n_right, n_judged), "typed": n_judged, "typed_right": n_right,
        "organisation_as_country": country,
        "type_accuracy_country_as_organisation": _ratio(n_right + country, n_judged),
        "confusion": {t: dict(confusion[t]) for t in RE3D_ALL},
        "kg_entities": pairs, "noise": len(noise), "noise_rate": _ratio(len(noise), pairs),
        "noise_annotated_elsewhere": sum(x["annotated_elsewhere"] for x in noise),
        "noise_by_class": dict(Counter(x["kg_class"] for x in noise).most_common()),
        "merge_candidates": len(merges), "merge_candidate_entities": merged_entities,
        "missed": missed, "wrong_type": wrong, "noise_list": noise, "merge_list": merges,
    }


def _merge_candidates(mentions, by_doc, names, types, label, linked) -> tuple[list[dict], int]:
    """Entities carrying the names of two gold mentions that cannot name one thing."""
    gold_by_doc: dict[str, list[dict]] = defaultdict(list)
    for m in mentions:
        gold_by_doc[m["doc"]].append(m)
    entity_docs: dict[str, set[str]] = defaultdict(set)
    for d, entities in by_doc.items():
        for e in entities:
            entity_docs[e].add(d)
    merges, entities_ = [], 0
    for e, ds in sorted(entity_docs.items()):
        carried: dict[str, set[str]] = defaultdict(set)  # normalized gold text -> gold types
        where: dict[str, tuple[str, str]] = {}
        own = {norm(n) for n in names.get(e, ())}
        for d in sorted(ds):
            for m in gold_by_doc.get(d, ()):
                if m["norm"] in own:
                    carried[m["norm"]].add(m["type"])
                    where.setdefault(m["norm"], (d, m["text"]))
        texts, bad = sorted(carried), []
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                if (a, b) in linked or a in b or b in a:
                    continue
                ta, tb = carried[a] & set(RE3D_TYPES), carried[b] & set(RE3D_TYPES)
                if ta and tb and not ta & tb:
                    why = f"gold types {'/'.join(sorted(ta))} vs {'/'.join(sorted(tb))}"
                else:
                    persons = carried[a] == {"Person"} and carried[b] == {"Person"}
                    why = clearly_different(a, b, persons, proper(where[a][1]) and proper(where[b][1]))
                if why:
                    bad.append({"kg": label(e), "kg_class": top_class(types.get(e, ())), "a": where[a][1],
                                "a_types": sorted(carried[a]), "b": where[b][1], "b_types": sorted(carried[b]),
                                "why": why})
        entities_ += bool(bad)
        merges += bad
    merges.sort(key=lambda x: not x["why"].startswith("gold types"))
    return merges, entities_
