"""The static picture (``kg viz -o graph.png``, ``.svg``, ``.pdf``), drawn with matplotlib.

The layout is :func:`kg.graph.layout.scene`'s. Labels are placed in display pixels, after the
axes are fixed, with the sizes matplotlib's renderer gives each text, so that none overlaps a
node or another label; the most central entities are labelled first (the ones asked for with
``highlight`` before them), the rest stay unlabelled. Each relation has its colour and its dash
pattern, and its name on every edge where there is room; facts of symmetric relations have no
arrowhead. The caption says what is shown and what was left out.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from ..outputs import output_file
from .layout import (
    LABEL_SPOTS,
    PALETTE,
    RING,
    RINGS,
    Room,
    curve_point,
    label_box,
    label_tries,
    relation_styles,
    scene,
)

DPI = 130
NODE_FONT, EDGE_FONT = 7.5, 6.0  # points
MAX_LABELS = 60  # entity names in a picture: past that, a page of print is a wall of text
LEADERS = 15  # the most central entities whose names may go a ring or two out, with a leader line
LABEL_LENGTH = 32  # characters of a name before it is cut with an ellipsis


def write_picture(graph, path: str | Path, fmt: str = "png", title: str = "kg graph", max_nodes: int = 150,
                  highlight=()) -> str:
    """Write the static picture (png, svg or pdf); returns its caption (what is shown, what left out)."""
    fig = picture(graph, title, max_nodes, highlight)
    import matplotlib.pyplot as plt

    try:
        with output_file(path) as out:
            fig.savefig(out, format=fmt, dpi=DPI)
    finally:
        plt.close(fig)
    return fig.kg_caption


def _matplotlib():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("a picture needs matplotlib", hint="pip install '.[viz]' in kg's checkout, or write .html") from None
    return plt


def _short(name: str) -> str:
    return name if len(name) <= LABEL_LENGTH else name[:LABEL_LENGTH - 1].rstrip() + "\u2026"


def picture(graph, title: str = "kg graph", max_nodes: int = 150, highlight=(), max_labels: int = MAX_LABELS):
    """The matplotlib figure of :func:`~kg.graph.layout.scene`: its node labels carry the gid
    ``label``, its edge labels ``edge-label``, each drawn fact its relation."""
    plt = _matplotlib()
    from matplotlib import patheffects
    from matplotlib.patches import FancyArrowPatch, Polygon

    sc = scene(graph, max_nodes, highlight)
    styles = relation_styles({e.predicate for e in sc.edges})
    fig = plt.figure(figsize=(14, 9.5), dpi=DPI)
    ax = fig.add_axes((0.01, 0.07, 0.80, 0.87))
    ax.set_axis_off()
    ax.set_title(title, fontsize=11, loc="left")
    renderer = fig.canvas.get_renderer()
    _fit(ax, renderer, sc.grounds)
    to_px = ax.transData.transform
    unit = abs(to_px((1, 0))[0] - to_px((0, 0))[0])  # pixels per layout unit
    px_per_pt = DPI / 72
    centre = {n: tuple(to_px(sc.position[n])) for n in sc.nodes}
    # a node's size follows its facts, within what a reader can see and what its neighbours leave
    r_px = {n: min(max(sc.radius[n] * unit, 2.2 * px_per_pt), 10 * px_per_pt) for n in sc.nodes}

    for ground in sc.grounds:  # a community's ground: the eye sees the groups before the nodes
        ax.add_patch(Polygon(ground, closed=True, facecolor="#efeff4", edgecolor="#dcdce6", linewidth=0.6, zorder=0))
    for e in sc.edges:
        colour, dashes = styles[e.predicate]
        arrow = FancyArrowPatch(
            sc.position[e.source], sc.position[e.target], connectionstyle=f"arc3,rad={e.bend}",
            arrowstyle="-" if e.symmetric else "-|>", mutation_scale=9, color=colour, alpha=0.85,
            linewidth=1.1, linestyle=(0, dashes) if dashes else "-", zorder=1, gid=e.predicate,
            shrinkA=r_px[e.source] / px_per_pt + 1, shrinkB=r_px[e.target] / px_per_pt + 1)
        ax.add_patch(arrow)  # gid: the relation of each drawn fact (and of its SVG element)
    ax.scatter([sc.position[n][0] for n in sc.nodes], [sc.position[n][1] for n in sc.nodes],
               s=[(2 * r_px[n] / px_per_pt) ** 2 for n in sc.nodes],
               c=[PALETTE.get(graph.nodes[n].get("type", "Entity"), "#ddd") for n in sc.nodes],
               edgecolors=["#000" if n in sc.highlighted else "#333" for n in sc.nodes],
               linewidths=[2.2 if n in sc.highlighted else 0.5 for n in sc.nodes], zorder=2, gid="nodes")

    box = ax.get_window_extent(renderer)
    room = Room((box.x0, box.y0, box.x1, box.y1), cell=12 * px_per_pt)
    for n in sc.nodes:
        room.add_disc(*centre[n], r_px[n] + 1)
    for number, e in enumerate(sc.edges):
        a, b = centre[e.source], centre[e.target]
        room.add_line([curve_point(a, b, e.bend, t / 8) for t in range(9)], owner=number)
    halo = [patheffects.withStroke(linewidth=2.2, foreground="white")]
    labelled = 0
    for n in sc.nodes:
        if labelled >= max_labels and n not in sc.highlighted:
            break
        text = ax.text(0, 0, _short(sc.labels[n]), fontsize=NODE_FONT, ha="left", va="bottom",
                       zorder=4, gid="label", path_effects=halo,
                       fontweight="bold" if n in sc.highlighted else "normal")
        ring = _place(text, renderer, room, centre[n], r_px[n], 2.5 * px_per_pt,
                      RINGS if labelled < LEADERS or n in sc.highlighted else 0)
        if ring is None:
            text.remove()
            continue
        labelled += 1
        if ring:
            _leader(ax, text, renderer, centre[n], r_px[n])
    edge_labels = 0
    rank = {n: i for i, n in enumerate(sc.nodes)}
    for number in sorted(range(len(sc.edges)), key=lambda i: min(rank[sc.edges[i].source], rank[sc.edges[i].target])):
        e = sc.edges[number]
        text = ax.text(0, 0, e.predicate, fontsize=EDGE_FONT, ha="left", va="bottom",
                       color=styles[e.predicate][0], zorder=3, gid="edge-label", path_effects=halo)
        if _place_on_edge(text, renderer, room, centre[e.source], centre[e.target], e.bend, number):
            edge_labels += 1
        else:
            text.remove()

    from matplotlib.lines import Line2D

    handles = [Line2D([0], [0], color=colour, lw=1.6, linestyle=(0, dashes) if dashes else "-",
                      label=f"{r} (both ways)" if any(e.symmetric for e in sc.edges if e.predicate == r) else r)
               for r, (colour, dashes) in styles.items()]
    types = sorted({graph.nodes[n].get("type", "Entity") for n in sc.nodes})
    handles += [Line2D([0], [0], marker="o", color="w", markerfacecolor=PALETTE.get(t, "#ddd"),
                       markeredgecolor="#333", markersize=8, label=t) for t in types]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.815, 0.94), fontsize=7.5, frameon=False,
               title="relations, types", title_fontsize=8, alignment="left")
    caption = sc.caption
    fig.text(0.01, 0.035, caption[0].upper() + caption[1:] + ".", fontsize=8.5)
    fig.text(0.01, 0.012, f"Named: the {labelled} most central entities (PageRank) that fit"
             + (", and those asked for (bold)" if sc.highlighted else "")
             + f"; {edge_labels} of {len(sc.edges)} facts name their relation. "
             "Grey grounds: communities (Louvain, as kg analyze finds them).", fontsize=8, color="#444")
    fig.kg_caption = caption
    fig.kg_scene = sc
    return fig


def _fit(ax, renderer, grounds) -> None:
    """Limits that hold every community's ground and room for names beside it, one unit as long
    across as up (so circles stay round), the spare room shared out on both sides."""
    box = ax.get_window_extent(renderer)
    points = [p for ground in grounds for p in ground] or [(0.0, 0.0)]
    x0, x1 = min(x for x, _ in points) - 1.5, max(x for x, _ in points) + 1.5
    y0, y1 = min(y for _, y in points) - 0.4, max(y for _, y in points) + 0.4
    scale = min(box.width / (x1 - x0), box.height / (y1 - y0))
    grow_x = (box.width / scale - (x1 - x0)) / 2
    grow_y = (box.height / scale - (y1 - y0)) / 2
    ax.set_xlim(x0 - grow_x, x1 + grow_x)
    ax.set_ylim(y0 - grow_y, y1 + grow_y)


def _to_data(text, box) -> tuple[float, float]:
    """The data point of a box's lower left corner (placed in pixels, drawn in data coordinates,
    so that the picture is the same at the 72 dpi of .svg and .pdf)."""
    x, y = text.axes.transData.inverted().transform((box[0] + 1, box[1] + 1))
    return float(x), float(y)


def _leader(ax, text, renderer, at: tuple[float, float], r: float) -> None:
    """A thin line from a node's rim to its label, placed a ring or two away."""
    box = text.get_window_extent(renderer)
    x, y = min(max(at[0], box.x0), box.x1), min(max(at[1], box.y0), box.y1)
    length = ((x - at[0]) ** 2 + (y - at[1]) ** 2) ** 0.5 or 1
    start = (at[0] + (x - at[0]) * r / length, at[1] + (y - at[1]) * r / length)
    inverse = ax.transData.inverted()
    (x0, y0), (x1, y1) = inverse.transform(start), inverse.transform((x, y))
    ax.plot([x0, x1], [y0, y1], color="#555", linewidth=0.6, zorder=3, gid="leader")


def _size(text, renderer) -> tuple[float, float]:
    extent = text.get_window_extent(renderer)
    return extent.width, extent.height


def _place(text, renderer, room: Room, at: tuple[float, float], r: float, pad: float, rings: int):
    """Put ``text`` at the first spot around a node where it fits and take the room; returns the
    ring it went to (0: next to its node; further out, a leader line joins them), or None."""
    width, height = _size(text, renderer)
    for ring, lines in label_tries(rings):
        for spot in LABEL_SPOTS:
            box = label_box(at[0], at[1], r, width + 2, height + 2, spot, pad + ring * RING * height)
            if room.fits(box, lines=lines):
                room.add_box(box)
                text.set_position(_to_data(text, box))
                return ring
    return None


def _place_on_edge(text, renderer, room: Room, a, b, bend: float, owner: int) -> bool:
    """Put a relation's name on its edge, near the middle, where it covers no other edge (it would
    seem to name that one); an edge shorter than its name gets none (it would hide the line)."""
    width, height = _size(text, renderer)
    if ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 < width:
        return False
    for t in (0.5, 0.4, 0.6, 0.3, 0.7):
        x, y = curve_point(a, b, bend, t)
        box = (x - width / 2 - 1, y - height / 2 - 1, x + width / 2 + 1, y + height / 2 + 1)
        if room.fits(box, owner=owner):
            room.add_box(box)
            text.set_position(_to_data(text, box))
            return True
    return False
