"""Events on a map: ``kg viz --map -o events.html`` (a page) or ``.png`` / ``.svg`` / ``.pdf`` (a
picture for reports).

The events are the rows of ``kg export --format events-json`` (queries/event-table.rq): each with
the first place the text gives it (where it happened, else where it went) and that place's GeoNames
id and coordinates. Each place is a point, its area by the number of its events, its colour the
type most of them have; the countries are Natural Earth's outlines (:mod:`kg.graph.countries`),
in an equirectangular projection. An event whose place has no coordinates (or that has no place)
is left off the map, and the page and the caption say how many.

The page is one self-contained file that works offline (kg/templates/map.html): drag to pan, wheel
or buttons to zoom, check boxes to hide event types, a from/to box for time (a year, a month or a
day, read as the days it covers, as ``kg analyze --since/--until`` reads them), and a click on a
point lists its events (type, time, agents, patients), each with a sentence that tells it and its
source document.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..dates import DateError, parse_date
from .countries import Country, countries

WORLD = (-180.0, -90.0, 180.0, 90.0)  # west, south, east, north
MIN_SPAN = (30.0, 16.0)  # degrees of longitude and latitude the first view shows at least
MAX_NAMES = 30  # places named on the picture; the page names as many as fit


@dataclass
class Place:
    """A point of the map: a place with coordinates and the events there (rows of the event table)."""

    iri: str
    name: str
    country: str | None
    geonames_id: int | None
    latitude: float
    longitude: float
    events: list[dict] = field(default_factory=list)

    def main_type(self) -> str:
        """The type most of its events have (the first in name order among equals)."""
        counts = Counter(e["type"] for e in self.events)
        return min(counts, key=lambda t: (-counts[t], t))


def event_rows(store) -> list[dict]:
    """The store's events as ``kg export --format events-json`` gives them (one dict a row)."""
    from .export import export_events

    buffer = io.BytesIO()
    export_events(store, "events-json", buffer)
    return json.loads(buffer.getvalue())


def places(rows: list[dict]) -> list[Place]:
    """The places of the events that have coordinates, most events first, then by name."""
    found: dict[str, Place] = {}
    for row in rows:
        if row["latitude"] is None or row["longitude"] is None:
            continue
        key = row["place_iri"] or f"{row['latitude']},{row['longitude']}"
        place = found.get(key)
        if place is None:
            place = found[key] = Place(key, row["place"] or key, row["country"], row["geonames_id"],
                                       row["latitude"], row["longitude"])
        place.events.append(row)
    return sorted(found.values(), key=lambda p: (-len(p.events), p.name, p.iri))


def colours(types) -> dict[str, str]:
    """Event type label -> its colour: the timeline's (:data:`kg.graph.layout.EVENT_COLOURS`)."""
    from ..ontology import event_types
    from .layout import EVENT_COLOURS, OTHER_EVENT

    by_label = {t.label: EVENT_COLOURS.get(t.name, OTHER_EVENT) for t in event_types().values()}
    return {t: by_label.get(t, OTHER_EVENT) for t in sorted(types)}


def caption(rows: list[dict], shown: list[Place]) -> str:
    """What the map shows: "3 of 9 events, at 3 places (6 without a place with coordinates)", or
    why it shows none."""
    located = sum(len(p.events) for p in shown)
    if not rows:
        return "no event to draw: the store has none"
    if not located:
        return f"no event to draw: none of the {len(rows)} events has a place with coordinates"
    text = f"{located} of {len(rows)} events, at {len(shown)} place{'' if len(shown) == 1 else 's'}"
    if located < len(rows):
        text += f" ({len(rows) - located} without a place with coordinates)"
    return text


def view(shown: list[Place]) -> tuple[float, float, float, float]:
    """West, south, east, north of the first view: the places with a margin, or the world."""
    if not shown:
        return WORLD
    lons, lats = [p.longitude for p in shown], [p.latitude for p in shown]
    centre = ((min(lons) + max(lons)) / 2, (min(lats) + max(lats)) / 2)
    half = (max(MIN_SPAN[0], (max(lons) - min(lons)) * 1.3) / 2, max(MIN_SPAN[1], (max(lats) - min(lats)) * 1.3) / 2)
    return (max(-180.0, centre[0] - half[0]), max(-90.0, centre[1] - half[1]),
            min(180.0, centre[0] + half[0]), min(90.0, centre[1] + half[1]))


def _days(time: str | None) -> tuple[str, str] | tuple[None, None]:
    if not time:
        return None, None
    try:
        first, last = parse_date(time).days
    except DateError:
        return None, None
    return first.isoformat(), last.isoformat()


def _link(url: str | None) -> str | None:
    """A source's URL the page may link to: http(s) only, never a javascript: or data: one."""
    return url if url and url.lower().startswith(("http://", "https://")) else None


def svg_path(country: Country) -> str:
    """The country's outline as an SVG path in the page's projection: x longitude, y minus latitude."""
    return "".join("M" + "L".join(f"{lon:g} {-lat:g}" for lon, lat in ring[:-1]) + "Z"
                   for polygon in country.polygons for ring in polygon)


def map_data(rows: list[dict]) -> dict:
    """What the page draws: the places, their events, the types' colours, the countries."""
    shown = places(rows)
    events = []
    for index, place in enumerate(shown):
        for row in place.events:
            begin, end = _days(row["time"])
            events.append({"place": index, "type": row["type"], "time": row["time"], "reported": row["reported"],
                           "begin": begin, "end": end, "agents": row["agents"], "patients": row["patients"],
                           "sources": row["sources"], "title": row["source_title"], "date": row["source_date"],
                           "url": _link(row["source_url"]), "sentence": row["evidence"]})
    return {"places": [{"name": p.name, "iri": p.iri, "country": p.country, "geonames_id": p.geonames_id,
                        "lat": p.latitude, "lon": p.longitude} for p in shown],
            "events": events, "colours": colours({e["type"] for e in events}),
            "view": view(shown), "caption": caption(rows, shown), "total": len(rows),
            "countries": [{"code": c.code, "name": c.name, "d": svg_path(c)} for c in countries()]}


def write_map(store, path: str | Path, fmt: str, title: str) -> str:
    """Draw the store's events on the map to ``path`` as a page ("html") or a picture ("png",
    "svg", "pdf"); returns the caption (how many events it shows, how many it could not place)."""
    rows = event_rows(store)
    if fmt == "html":
        write_html(rows, path, title)
        return caption(rows, places(rows))
    return write_picture(rows, path, title, fmt)


def write_html(rows: list[dict], path: str | Path, title: str) -> None:
    """The page of ``rows`` (event table rows), from the template kg/templates/map.html."""
    from ..resources import write_page

    write_page(path, ("doctype.html", "map.html"), title, map_data(rows))


def write_picture(rows: list[dict], path: str | Path, title: str, fmt: str = "png") -> str:
    """The picture of ``rows``: countries, a point for each place, the most named; returns its caption."""
    from ..outputs import output_file
    from .picture import DPI, _matplotlib

    plt = _matplotlib()
    from matplotlib import patheffects
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon

    shown = places(rows)
    west, south, east, north = view(shown)
    fig, ax = plt.subplots(figsize=(12, 7.2))
    ax.set_facecolor("#dfeaf3")
    for country in countries():
        for polygon in country.polygons:
            # the holes are countries of their own (Lesotho in South Africa), drawn over them
            ax.add_patch(Polygon(polygon[0], closed=True, facecolor="#f4f1ea", edgecolor="#a8a39a", linewidth=0.5))
    palette = colours({row["type"] for row in rows})
    most = max((len(p.events) for p in shown), default=1)
    for rank, place in enumerate(reversed(shown)):  # the largest last, on top
        size = 40 + 360 * len(place.events) / most
        ax.scatter([place.longitude], [place.latitude], s=size, color=palette[place.main_type()], alpha=0.8,
                   edgecolors="#333", linewidths=0.6, zorder=3 + rank / max(1, len(shown)))
    halo = [patheffects.withStroke(linewidth=3, foreground="white")]
    for place in shown[:MAX_NAMES]:
        ax.annotate(f"{place.name} ({len(place.events)})", (place.longitude, place.latitude), xytext=(7, 5),
                    textcoords="offset points", fontsize=8, zorder=5, path_effects=halo)
    ax.set_xlim(west, east)
    ax.set_ylim(south, north)
    ax.set_aspect("equal")
    ax.set_xlabel("longitude (degrees)", fontsize=8)
    ax.set_ylabel("latitude (degrees)", fontsize=8)
    ax.tick_params(labelsize=8)
    text = caption(rows, shown)
    ax.set_title(f"{title}: {text}", fontsize=10)
    present = sorted({p.main_type() for p in shown})
    if present:
        handles = [Line2D([0], [0], marker="o", lw=0, color=palette[t], markeredgecolor="#333", label=t)
                   for t in present]
        ax.legend(handles=handles, title="most events there", fontsize=8, title_fontsize=8, loc="lower left")
    fig.text(0.99, 0.01, "Countries: Natural Earth (public domain)", ha="right", fontsize=6, color="#777")
    fig.tight_layout()
    try:
        with output_file(path) as out:
            fig.savefig(out, format=fmt, dpi=DPI)
    finally:
        plt.close(fig)
    return text
