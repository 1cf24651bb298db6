"""Events in time: ``kg viz --timeline -o timeline.html`` (a page) or ``.png`` (a picture).

Each event of the events graph is a row, in time order, drawn over a time axis as long as its
time is precise: a year is a bar across the year, a month across the month, a day a mark. An
event no sentence dates is drawn at the date of the first document that reports it, hollow, and
says so. The page is one self-contained file that works offline: colours by event type, check
boxes to hide types, a box to keep only the events one entity takes part in (its timeline), and
a click on an event shows who took part in which role, the words that date it and the sentences
and documents that tell it. The page is kg/templates/head.html followed by kg/templates/timeline.html.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from ..resources import write_page
from ..namespaces import ENTITY_GRAPH, EVENT_GRAPH, ONTOLOGY_GRAPH
from .layout import EVENT_COLOURS, OTHER_EVENT

# kg/templates/: every page's prologue, the head it shares with the graph's page, its own
TEMPLATES = ("doctype.html", "head.html", "timeline.html")
# how the picture and the page put a role before the entity ("to Al-Bukamal")
ROLE_WORDS = {"destinationRole": "to", "originRole": "from", "locationRole": "in"}


@dataclass
class TimelineEvent:
    """One event as the timeline draws it; ``begin``/``end`` are ISO days (None if undated)."""

    iri: str
    type: str
    label: str  # the event class's label
    time: str | None = None  # the most precise time a sentence gives, or the report's date
    reported: bool = False  # timed by the date of the document that reports it
    time_text: str = ""
    begin: str | None = None
    end: str | None = None
    roles: list[dict] = field(default_factory=list)  # {"role", "label", "entity" (IRI or None)}
    sources: list[dict] = field(default_factory=list)  # {"document", "sentence"}

    def names(self, role: str) -> list[str]:
        return sorted(r["label"] for r in self.roles if r["role"] == role)

    def summary(self) -> str:
        """"Hezbollah, Syrian army: Islamic State to Al-Bukamal, eastern Syria"."""
        who = ", ".join(self.names("agentRole"))
        whom = ", ".join(self.names("patientRole") + self.names("themeRole"))
        text = f"{who}: {whom}" if who and whom else who or whom
        for role, word in ROLE_WORDS.items():
            if self.names(role):
                text += f" {word} {', '.join(self.names(role))}"
        return text.strip()

    def days(self) -> tuple[date, date] | None:
        if self.begin is None:
            return None
        return date.fromisoformat(self.begin), date.fromisoformat(self.end or self.begin)


_EVENTS = f"""SELECT ?event ?class ?label ?stamp ?begin ?end ?reported ?text WHERE {{
  GRAPH <{EVENT_GRAPH}> {{ ?event a sem:Event , ?class FILTER(STRSTARTS(STR(?class), STR(kg:)))
    OPTIONAL {{ ?event sem:hasTimeStamp ?stamp }} OPTIONAL {{ ?event sem:hasEarliestBeginTimeStamp ?begin }}
    OPTIONAL {{ ?event sem:hasLatestEndTimeStamp ?end }} OPTIONAL {{ ?event kg:timeFromDocument ?reported }}
    OPTIONAL {{ ?event kg:timeText ?text }} }}
  GRAPH <{ONTOLOGY_GRAPH}> {{ ?class rdfs:label ?label }} }}"""
_NAMED_ROLES = f"""SELECT ?event ?role ?entity ?label WHERE {{
  GRAPH <{EVENT_GRAPH}> {{ ?event sem:hasActor|sem:hasPlace ?r . ?r sem:roleType ?role ; rdf:value ?entity }}
  GRAPH <{ENTITY_GRAPH}> {{ ?entity rdfs:label ?label }} }}"""
_DESCRIBED_ROLES = f"""SELECT ?event ?role ?label WHERE {{
  GRAPH <{EVENT_GRAPH}> {{ ?event sem:hasActor|sem:hasPlace ?r . ?r sem:roleType ?role ; kg:description ?label }} }}"""
_SOURCES = f"""SELECT DISTINCT ?event ?document ?sentence WHERE {{
  GRAPH <{EVENT_GRAPH}> {{ ?event kg:statement ?st }}
  GRAPH ?g {{ ?st kg:evidence ?sentence ; prov:wasDerivedFrom ?doc . ?doc dcterms:identifier ?document }} }}"""


def timeline_events(store) -> list[TimelineEvent]:
    """Every event of the store, in time order (undated ones by their report's date)."""
    from ..ontology import KG_NS

    events: dict[str, TimelineEvent] = {}
    for row in store.query(_EVENTS, union=False):
        iri = row["event"].value
        value = {k: row[k].value if row[k] is not None else None for k in ("stamp", "begin", "end", "text")}
        events[iri] = TimelineEvent(
            iri, row["class"].value[len(KG_NS):], row["label"].value, value["stamp"],
            row["reported"] is not None, value["text"] or "",
            value["begin"] or value["end"], value["end"])
    for query, named in ((_NAMED_ROLES, True), (_DESCRIBED_ROLES, False)):
        for row in store.query(query, union=False):
            event = events.get(row["event"].value)
            if event is not None:
                event.roles.append({"role": row["role"].value[len(KG_NS):], "label": row["label"].value,
                                    "entity": row["entity"].value if named else None})
    for row in store.query(_SOURCES, union=False):
        event = events.get(row["event"].value)
        if event is not None:
            event.sources.append({"document": row["document"].value, "sentence": row["sentence"].value})
    for event in events.values():
        event.roles.sort(key=lambda r: (r["role"], r["label"]))
        event.sources.sort(key=lambda s: (s["document"], s["sentence"]))
    return sorted(events.values(), key=lambda e: (e.begin or e.time or "9999", e.end or "", e.label, e.summary(), e.iri))


def involving(events: list[TimelineEvent], entity: str) -> list[TimelineEvent]:
    """The events ``entity`` (a label, case-insensitive, or an IRI) takes part in."""
    wanted = entity.strip().lower()
    return [e for e in events if any(r["label"].lower() == wanted or r["entity"] == entity for r in e.roles)]


def write_timeline(store, path: str | Path, fmt: str, title: str, entity: str | None = None) -> int:
    """Draw the store's events (those of ``entity`` only, if given) to ``path`` as a page
    ("html") or a picture ("png", "svg", "pdf"); returns how many events it shows."""
    from ..errors import UsageError

    events = timeline_events(store)
    if entity:
        events = involving(events, entity)
        if not events:
            raise UsageError(f"--entity: no event involves {entity!r}", hint="see `kg query events`")
    if fmt != "html":
        write_png(events, path, title, fmt)
    else:
        write_html(events, path, title, entity or "")
    return len(events)


def write_html(events: list[TimelineEvent], path: str | Path, title: str, entity: str = "") -> None:
    """The page: the events, with ``entity`` (if any) preselected in its filter."""
    data = {"events": [e.__dict__ | {"summary": e.summary()} for e in events], "colours": EVENT_COLOURS,
            "other": OTHER_EVENT, "entity": entity}
    write_page(path, TEMPLATES, title, data)


def write_png(events: list[TimelineEvent], path: str | Path, title: str, fmt: str = "png") -> None:
    """A picture for reports: one row per event, a bar over the time it may mean, labelled."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.dates as mdates
        import matplotlib.pyplot as plt
    except ImportError:
        from ..errors import UsageError

        raise UsageError("a timeline picture needs matplotlib", hint="pip install '.[viz]' in kg's checkout") from None
    from matplotlib.lines import Line2D

    dated = [e for e in events if e.days() is not None]
    fig, ax = plt.subplots(figsize=(13, 1.8 + 0.5 * max(1, len(dated))))
    labels = []
    for row, event in enumerate(dated):
        begin, end = event.days()
        colour = EVENT_COLOURS.get(event.type, OTHER_EVENT)
        y = len(dated) - row
        if end > begin:
            ax.barh(y, (end - begin + timedelta(days=1)).days, left=mdates.date2num(begin), height=0.5,
                    color=colour, alpha=0.75)
        ax.plot([mdates.date2num(begin)], [y], marker="D", markersize=7, color=colour,
                markerfacecolor="white" if event.reported else colour)
        when = f"{event.time}{' (reported)' if event.reported else ''}"
        labels.append((y, textwrap.fill(f"{when}  {event.label}: {event.summary()}", 60)))
    ax.set_yticks([y for y, _ in labels], [text for _, text in labels], fontsize=8)
    ax.tick_params(axis="y", length=0)
    ax.xaxis_date()
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(ax.xaxis.get_major_locator()))
    ax.grid(axis="x", color="#e5e5e5")
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    if dated:
        first, last = dated[0].days()[0], max(e.days()[1] for e in dated)
        pad = timedelta(days=max(10, (last - first).days // 30))
        ax.set_xlim(mdates.date2num(first - pad), mdates.date2num(last + pad))
    ax.set_ylim(0.3, len(dated) + 0.7)
    types = sorted({e.type: e.label for e in dated}.items())
    handles = [Line2D([0], [0], color=EVENT_COLOURS.get(t, OTHER_EVENT), lw=6, label=label) for t, label in types]
    handles.append(Line2D([0], [0], marker="D", color="#555", markerfacecolor="white", lw=0,
                          label="dated by the report only"))
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
    undated = len(events) - len(dated)
    ax.set_title(f"{title}: {len(dated)} events" + (f" ({undated} without a time)" if undated else ""), fontsize=10)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    from ..outputs import output_file

    try:
        with output_file(path) as out:
            fig.savefig(out, format=fmt, dpi=130)
    finally:
        plt.close(fig)

