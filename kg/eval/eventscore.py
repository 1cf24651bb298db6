"""Score a graph's events against gold events (``events.tsv`` in a gold folder; docs/eval.md).

A gold event is a type, the participants it must have (agents; patients or themes; places:
destination, origin or location), a time and the documents that tell it. A graph's event (a
``sem:Event``) matches a gold row when it has the row's type, every participant the row lists
(graph nodes map to gold ids through their labels, as for the relations), and a time inside the
row's (the event's time span within the row's: "2017-08-28" is inside "2017-08"). Each graph event
is matched to the first required row that fits, else a forbidden row (a false positive named),
else an optional row (not counted); the rest are false positives. A second graph event for a row
already matched is one event told twice and not merged: it is counted as a false positive and
listed as a split. The documents of matched events are checked against the row's. Only the
graph events told by the documents the rows name are scored, so a gold set may annotate the
events of some of its documents (all of them in each).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..dates import DateError, parse_date
from ..errors import UsageError

SEM = "http://semanticweb.cs.vu.nl/2009/11/sem/"
KG = "https://w3id.org/kg/ontology#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDF_VALUE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#value"
DERIVED = "http://www.w3.org/ns/prov#wasDerivedFrom"
IDENTIFIER = "http://purl.org/dc/terms/identifier"
# the gold columns of participants, and the role types each takes
COLUMNS = {"agents": ("agentRole",), "patients": ("patientRole", "themeRole"),
           "places": ("destinationRole", "originRole", "locationRole")}


@dataclass(frozen=True)
class GoldEvent:
    status: str
    types: frozenset[str]
    participants: dict[str, tuple[frozenset[str], ...]]  # column -> the ids each listed one may be
    time: tuple[date, date] | None  # None: any time
    docs: tuple[str, ...]
    text: str
    evidence: str


@dataclass
class Found:
    """A graph event with its participants mapped to gold ids."""

    iri: str
    type: str
    participants: dict[str, set[str]]
    time: tuple[date, date] | None
    sources: set[str]

    def describe(self) -> str:
        parts = [f"{column}={','.join(sorted(ids))}" for column, ids in self.participants.items() if ids]
        when = f"{self.time[0]}..{self.time[1]}" if self.time else "no time"
        return f"{self.type}({'; '.join(parts)}; {when})"


def load_events(path: Path) -> list[GoldEvent]:
    """The rows of an ``events.tsv``: status, type, agents, patients, places, time, docs, evidence."""
    from ..extract.timex import bounds

    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split("\t")
        where = f"{path}:{number}"
        if len(parts) < 7:
            raise UsageError(f"{where}: expected 7 tab-separated columns, found {len(parts)}",
                             hint="see docs/eval.md for the gold format")
        status, types, agents, patients, places, time, docs = parts[:7]
        if status not in ("required", "optional", "forbidden"):
            raise UsageError(f"{where}: unknown status {status!r}", hint="use required, optional or forbidden")
        try:
            span = None if time == "*" else bounds(parse_date(time))
        except DateError:
            raise UsageError(f"{where}: time {time!r} is not YYYY, YYYY-MM, YYYY-MM-DD or *") from None
        listed = {"agents": agents, "patients": patients, "places": places}
        participants = {column: tuple(frozenset(item.split("|")) for item in cell.split(",") if item and item != "-")
                        for column, cell in listed.items()}
        out.append(GoldEvent(status, frozenset(types.split("|")), participants, span, tuple(docs.split(",")),
                             f"{types}({agents}; {patients}; {places}; {time})",
                             parts[7] if len(parts) > 7 else ""))
    return out


def graph_events(by_subject: dict, map_node) -> list[Found]:
    """The sem:Events of a flattened graph (subject -> [(predicate IRI, object term)])."""
    from ..extract.timex import bounds

    column_of = {role: column for column, roles in COLUMNS.items() for role in roles}
    out = []
    for node, props in by_subject.items():
        types = {o[1] for p, o in props if p == RDF_TYPE}
        if SEM + "Event" not in types:
            continue
        kind = next((t[len(KG):] for t in sorted(types) if t.startswith(KG)), "Event")
        participants: dict[str, set[str]] = defaultdict(set)
        time, sources = None, set()
        for p, o in props:
            if p in (SEM + "hasActor", SEM + "hasPlace"):
                role = dict(by_subject.get(o, ()))
                kind_of = role.get(SEM + "roleType")
                value = role.get(RDF_VALUE)
                if kind_of is not None and value is not None and kind_of[1][len(KG):] in column_of:
                    participants[column_of[kind_of[1][len(KG):]]].add(map_node(value))
            elif p == SEM + "hasTimeStamp":
                try:
                    time = bounds(parse_date(o[1]))
                except DateError:
                    time = None
            elif p == DERIVED:
                sources.update(x[1] for q, x in by_subject.get(o, ()) if q == IDENTIFIER)
        out.append(Found(node[1], kind, dict(participants), time, sources))
    return sorted(out, key=lambda f: f.iri)


def _fits(row: GoldEvent, event: Found) -> bool:
    if "*" not in row.types and event.type not in row.types:
        return False
    for column, wanted in row.participants.items():
        have = event.participants.get(column, set())
        if not all("*" in ids or ids & have for ids in wanted):
            return False
    if row.time is None:
        return True
    return event.time is not None and row.time[0] <= event.time[0] and event.time[1] <= row.time[1]


def score_events(events: list[Found], rows: list[GoldEvent], docs: list[str]) -> dict:
    """Precision, recall and F1 of the graph's events, the misses, false positives, forbidden hits
    and splits (gold events found as more than one graph event), and the documents covered.
    Only events told by a document some row names are scored: a gold set may annotate the events
    of a few of its documents."""
    covered = {docs[int(d)] for r in rows for d in r.docs if d.isdigit() and int(d) < len(docs)}
    if covered:
        events = [e for e in events if e.sources & covered]
    matched: dict[int, Found] = {}
    false_positives, forbidden, splits = [], [], []
    for event in events:
        hit = None
        for status in ("required", "forbidden", "optional"):
            hit = next((i for i, r in enumerate(rows) if r.status == status and _fits(r, event)), None)
            if hit is not None:
                break
        if hit is None:
            false_positives.append(event.describe())
        elif rows[hit].status == "forbidden":
            false_positives.append(event.describe())
            forbidden.append(f"{event.describe()}  # {rows[hit].evidence}")
        elif rows[hit].status == "required":
            if hit in matched:
                false_positives.append(event.describe())
                splits.append(f"{rows[hit].text}: also {event.describe()}")
            else:
                matched[hit] = event
    required = [i for i, r in enumerate(rows) if r.status == "required"]
    tp, predicted = len(matched), len(matched) + len(false_positives)
    precision = tp / predicted if predicted else 0.0
    recall = tp / len(required) if required else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    ok = total = 0
    for i, event in matched.items():
        wanted = [docs[int(d)] for d in rows[i].docs if d.isdigit() and int(d) < len(docs)]
        total += len(wanted)
        ok += sum(1 for w in wanted if w in event.sources)
    return {"required": len(required), "found": tp, "predicted": predicted, "precision": round(precision, 3),
            "recall": round(recall, 3), "f1": round(f1, 3),
            "missed": [rows[i].text for i in required if i not in matched],
            "false_positives": false_positives, "forbidden_hits": forbidden, "splits": splits,
            "doc_coverage": f"{ok}/{total}" if docs else "n/a"}
