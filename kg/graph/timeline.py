"""Events in time: ``kg viz --timeline -o timeline.html`` (a page) or ``.png`` (a picture), and
the times of the facts that events date (``kg analyze --since/--until``).

Each event of the events graph is a row, in time order, drawn over a time axis as long as its
time is precise: a year is a bar across the year, a month across the month, a day a mark. An
event no sentence dates is drawn at the date of the first document that reports it, hollow, and
says so. The page is one self-contained file that works offline: colours by event type, check
boxes to hide types, a box to keep only the events one entity takes part in (its timeline), and
a click on an event shows who took part in which role, the words that date it and the sentences
and documents that tell it.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from ..vocab import ENTITY_GRAPH, EVENT_GRAPH, ONTOLOGY_GRAPH
from .page import HEAD

COLOURS = {"Attack": "#d62728", "Capture": "#ff7f0e", "Evacuation": "#1f77b4", "Ceasefire": "#2ca02c",
           "AllianceAct": "#9467bd"}
OTHER = "#7f7f7f"
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
_FACT_TIMES = f"""SELECT ?s ?p ?o (MIN(?begin) AS ?first) (MAX(?end) AS ?last) WHERE {{
  GRAPH <{EVENT_GRAPH}> {{ ?event kg:statement ?st ; sem:hasEarliestBeginTimeStamp ?begin ;
                           sem:hasLatestEndTimeStamp ?end }}
  GRAPH ?g {{ ?st kg:assertion ?a . ?a rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o }} }}
GROUP BY ?s ?p ?o"""


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


def fact_times(store) -> dict[tuple[str, str, str], tuple[str, str]]:
    """(subject, predicate, object) IRIs -> the first and last day of the events a sentence dates
    that state the fact: when it happened, where the text says."""
    return {(row["s"].value, row["p"].value, row["o"].value): (row["first"].value, row["last"].value)
            for row in store.query(_FACT_TIMES, union=False)}


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
    from . import page

    data = {"events": [e.__dict__ | {"summary": e.summary()} for e in events], "colours": COLOURS,
            "other": OTHER, "entity": entity}
    page.write_html(data, path, title, template=_TEMPLATE)


def write_png(events: list[TimelineEvent], path: str | Path, title: str, fmt: str = "png") -> None:
    """A picture for reports: one row per event, a bar over the time it may mean, labelled."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.dates as mdates
        import matplotlib.pyplot as plt
    except ImportError:
        from ..errors import UsageError

        raise UsageError("a timeline picture needs matplotlib", hint="pip install 'kg[viz]'") from None
    from matplotlib.lines import Line2D

    dated = [e for e in events if e.days() is not None]
    fig, ax = plt.subplots(figsize=(13, 1.8 + 0.5 * max(1, len(dated))))
    labels = []
    for row, event in enumerate(dated):
        begin, end = event.days()
        colour = COLOURS.get(event.type, OTHER)
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
    handles = [Line2D([0], [0], color=COLOURS.get(t, OTHER), lw=6, label=label) for t, label in types]
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


_TEMPLATE = HEAD + r"""  #side { width: 340px; padding: 10px 12px; border-right: 1px solid #ddd; overflow-y: auto; box-sizing: border-box; }
  #main { flex: 1; overflow: auto; }
  #entity { width: 100%; box-sizing: border-box; padding: 4px; }
  .type { display: block; }
  svg { display: block; }
  .row { cursor: pointer; } .row:hover rect.back, .row.selected rect.back { fill: #eef3fb; }
  .row text { font-size: 11px; fill: #222; } .row text.when { fill: #555; }
  .axis text { font-size: 10px; fill: #666; } .axis line { stroke: #ddd; }
</style>
</head>
<body>
<div id="side">
  <h1>__TITLE__</h1>
  <h2>Only the events of</h2>
  <input id="entity" type="search" list="names" placeholder="an entity" autocomplete="off">
  <datalist id="names"></datalist>
  <div id="counts"></div>
  <h2>Types</h2>
  <div id="types"></div>
  <h2>Details</h2>
  <div id="details">Click an event for who took part, when, and the sentences that tell it.</div>
  <p id="note">A bar spans the time the text gives (a year, a month); a mark is a day. A hollow mark is an
  event no sentence dates, drawn at the date of the first article reporting it.</p>
</div>
<div id="main"><svg id="timeline" role="img" aria-label="events in time order"></svg></div>
<script id="kg-data" type="application/json">__DATA__</script>
<script type="module">
  // a module: strict, and its names its own
  const data = JSON.parse(document.getElementById("kg-data").textContent);
  const svg = document.getElementById("timeline"), NS = svg.namespaceURI;
  const colour = t => data.colours[t] || data.other;
  const hidden = new Set();
  const input = document.getElementById("entity");
  input.value = data.entity || "";
  const names = [...new Set(data.events.flatMap(e => e.roles.map(r => r.label)))].sort();
  const list = document.getElementById("names");
  names.forEach(n => { const o = document.createElement("option"); o.value = n; list.appendChild(o); });
  // the example in the box: the two entities in the most events of this graph
  const often = new Map();
  data.events.forEach(e => new Set(e.roles.map(r => r.label)).forEach(n => often.set(n, (often.get(n) || 0) + 1)));
  const most = [...often.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 2).map(p => p[0]);
  if (most.length) input.placeholder = "an entity: " + most.join(", ") + (names.length > 2 ? " ..." : "");
  const types = [...new Map(data.events.map(e => [e.type, e.label])).entries()].sort();
  const typesBox = document.getElementById("types");
  types.forEach(([t, label]) => {
    const l = document.createElement("label"); l.className = "type";
    const c = document.createElement("input"); c.type = "checkbox"; c.checked = true;
    c.addEventListener("change", () => { c.checked ? hidden.delete(t) : hidden.add(t); draw(); });
    const s = document.createElement("span"); s.className = "swatch"; s.style.background = colour(t);
    l.append(c, s, document.createTextNode(label)); typesBox.appendChild(l);
  });
  input.addEventListener("input", draw);

  const day = s => Date.parse(s + "T00:00:00Z") / 864e5;
  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function shown() {
    const who = input.value.trim().toLowerCase();
    return data.events.filter(e => !hidden.has(e.type) &&
      (!who || e.roles.some(r => r.label.toLowerCase() === who)));
  }
  function details(e) {
    const box = document.getElementById("details");
    box.innerHTML = "";
    const h = document.createElement("b");
    h.textContent = e.label + (e.time ? ", " + e.time + (e.reported ? " (reported)" : "") : "");
    box.appendChild(h);
    if (e.time_text) box.appendChild(document.createTextNode(" \u201c" + e.time_text + "\u201d"));
    const ul = document.createElement("ul");
    e.roles.forEach(r => { const li = document.createElement("li");
      li.textContent = r.role.replace(/Role$/, "") + ": " + r.label; ul.appendChild(li); });
    box.appendChild(ul);
    e.sources.forEach(s => {
      const q = document.createElement("blockquote"); q.textContent = s.sentence;
      const d = document.createElement("div"); d.className = "doc"; d.textContent = s.document;
      q.appendChild(d); box.appendChild(q);
    });
  }
  function draw() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const events = shown();
    document.getElementById("counts").textContent = events.length + " of " + data.events.length + " events";
    const dated = events.filter(e => e.begin);
    const left = 90, width = Math.max(500, (svg.parentNode.clientWidth || 900) - 40), rowH = 26, top = 30;
    const plotW = Math.max(200, width - left - 20);
    const first = dated.length ? Math.min(...dated.map(e => day(e.begin))) : 0;
    const last = dated.length ? Math.max(...dated.map(e => day(e.end || e.begin))) + 1 : 1;
    const x = d => left + (d - first) / Math.max(1, last - first) * plotW;
    svg.setAttribute("width", width); svg.setAttribute("height", top + rowH * events.length + 20);
    const axis = el("g", {class: "axis"});
    const y0 = new Date(first * 864e5).getUTCFullYear(), y1 = new Date(last * 864e5).getUTCFullYear();
    for (let y = y0; y <= y1 + 1; y++) {
      const d = day(y + "-01-01");
      if (d < first - 1 || d > last + 1) continue;
      axis.appendChild(el("line", {x1: x(d), x2: x(d), y1: top - 8, y2: top + rowH * events.length}));
      axis.appendChild(el("text", {x: x(d) + 3, y: top - 12}, String(y)));
    }
    svg.appendChild(axis);
    events.forEach((e, i) => {
      const y = top + i * rowH, g = el("g", {class: "row", "data-type": e.type, "data-time": e.time || ""});
      g.appendChild(el("rect", {class: "back", x: 0, y: y, width: width, height: rowH - 2, fill: "transparent"}));
      g.appendChild(el("text", {class: "when", x: 6, y: y + 16}, (e.time || "no time") + (e.reported ? "*" : "")));
      const c = colour(e.type);
      let at = {x: left + 4, y: y + 16};
      if (e.begin) {
        const a = x(day(e.begin)), b = x(day(e.end || e.begin) + 1);
        if (b - a > 8) g.appendChild(el("rect", {x: a, y: y + 6, width: b - a, height: 12, rx: 3, fill: c, opacity: .75}));
        g.appendChild(el("circle", {cx: a, cy: y + 12, r: 5, fill: e.reported ? "white" : c, stroke: c, "stroke-width": 2}));
        // the words after the mark, or before it in the right half, so they stay on the page
        at = a > left + plotW / 2 ? {x: a - 10, y: y + 16, "text-anchor": "end"} : {x: Math.max(a, b) + 8, y: y + 16};
      }
      g.appendChild(el("text", at, e.label + ": " + e.summary));
      g.addEventListener("click", () => {
        svg.querySelectorAll(".row.selected").forEach(r => r.classList.remove("selected"));
        g.classList.add("selected"); details(e);
      });
      svg.appendChild(g);
    });
  }
  draw();
  window.addEventListener("resize", draw);
  window.kgReady = true;
</script>
</body>
</html>
"""
