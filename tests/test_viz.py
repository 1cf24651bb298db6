"""Analysis, paths and pictures of the example graph; the HTML page in a real, offline Chromium."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

ARTIFACTS = Path(os.environ.get("KG_TEST_ARTIFACTS", ROOT / "test-artifacts"))


def run_kg(*args):
    """`kg ARGS` in this process (conftest's invoke_kg): the exit code and stderr a user sees."""
    from conftest import invoke_kg

    return invoke_kg(*args)


def test_analyze_ranks_communities_and_ego(example_store):
    result = run_kg("analyze", "--store", str(example_store), "--format", "json", "--ego", "Daesh")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["nodes"] > 5 and data["edges"] > 5
    assert data["degree"][0][1] == "Islamic State", "the group every fact of the examples is about"
    assert data["pagerank"] and data["betweenness"] and data["communities"] and data["components"]
    assert data["ego"]["entity"] == "Islamic State"
    assert ["Islamic State", "captured", "Arsal"] in data["ego"]["facts"]


def test_analyze_filters_by_relation_and_date(example_store, tmp_path):
    only = json.loads(run_kg("analyze", "--store", str(example_store), "--relations", "allyOf",
                             "--format", "json").stdout)
    assert only["relations"] == ["allyOf"]
    bad = run_kg("analyze", "--store", str(example_store), "--relations", "friendOf")
    assert bad.returncode == 2 and bad.stderr.startswith("Error: --relations: unknown relation friendOf")
    import kg

    store = tmp_path / "dated"
    lines = [{"id": "a", "date": "2015-09-28", "text": "The Taliban seized Kunduz."},
             {"id": "b", "date": "2019-04-04", "text": "The Libyan National Army attacked Tripoli."}]
    (tmp_path / "feed.jsonl").write_text("\n".join(json.dumps(x) for x in lines))
    kg.build([str(tmp_path / "feed.jsonl")], store=store)
    since = json.loads(run_kg("analyze", "--store", str(store), "--since", "2019", "--format", "json").stdout)
    assert since["relations"] == ["attacked"]
    until = json.loads(run_kg("analyze", "--store", str(store), "--until", "2016-12", "--format", "json").stdout)
    assert until["relations"] == ["captured"]
    csv = run_kg("analyze", "--store", str(store), "--format", "csv").stdout.splitlines()
    assert csv[0] == "measure,rank,entity,label,type,score"


def test_date_filters_take_dates_only_and_read_them_as_the_days_they_cover(tmp_path):
    import kg

    store = tmp_path / "dated"
    lines = [{"id": "y", "date": "2019", "text": "The Libyan National Army attacked Tripoli."},
             {"id": "d", "date": "2015-09-28", "text": "The Taliban seized Kunduz."}]
    (tmp_path / "feed.jsonl").write_text("\n".join(json.dumps(x) for x in lines))
    kg.build([str(tmp_path / "feed.jsonl")], store=store)
    for option, value in (("--since", "last-week"), ("--until", "2019-13")):
        bad = run_kg("analyze", "--store", str(store), option, value)
        assert bad.returncode == 2, bad.stderr
        assert bad.stderr.startswith(f"Error: {option}: {value!r} is ") and bad.stderr.count("\n") == 1
    # a document dated only "2019" is within August 2019 whichever bound is given
    for args, relations in ((["--since", "2019-08"], ["attacked"]), (["--until", "2019-08"], ["attacked", "captured"]),
                            (["--since", "2019-08", "--until", "2019-08"], ["attacked"])):
        got = json.loads(run_kg("analyze", "--store", str(store), *args, "--format", "json").stdout)
        assert got["relations"] == relations, args
    got = json.loads(run_kg("analyze", "--store", str(store), "--since", "Sept. 28, 2015", "--until", "2015-09-28",
                            "--format", "json").stdout)
    assert got["relations"] == ["captured"]


def test_path_gives_each_hop_with_its_evidence(example_store):
    result = run_kg("path", "Hezbollah", "Arsal", "--store", str(example_store))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "chain 1:"
    hops = [line for line in lines if "--" in line and "-->" in line]
    assert len(hops) >= 2 and "Arsal" in hops[-1] or "Arsal" in hops[0]
    assert any(re.match(r"\s+\[\d{3}_[0-9a-f]+\] ", line) for line in lines), "each hop cites its document"
    missing = run_kg("path", "Hezbollah", "Atlantis", "--store", str(example_store))
    assert missing.returncode == 2 and missing.stderr.startswith("Error: no entity called 'Atlantis'")
    # allyOf is symmetric: stored once (IRI order), printed without an arrowhead
    ally = run_kg("path", "Hezbollah", "Bashar al-Assad", "--store", str(example_store))
    assert "  Bashar al-Assad --allyOf-- Hezbollah" in ally.stdout.splitlines()


@pytest.fixture(scope="module")
def kyiv_store(tmp_path_factory):
    """Kherson in a fact, Kyiv only mentioned: an entity of the graph without facts."""
    import kg

    folder = tmp_path_factory.mktemp("kyiv")
    lines = [{"id": "south", "text": "Ukrainian forces recaptured Kherson in November."},
             {"id": "capital", "text": "Air raid sirens sounded in Kyiv on Monday."}]
    (folder / "feed.jsonl").write_text("\n".join(json.dumps(x) for x in lines))
    kg.build([str(folder / "feed.jsonl")], store=folder / "store")
    return folder / "store"


def test_path_tells_an_entity_without_facts_from_an_unknown_name(kyiv_store):
    store = str(kyiv_store)
    lonely = run_kg("path", "Kyiv", "Kherson", "--store", store)
    assert lonely.returncode == 1, lonely.stderr
    assert lonely.stdout == "no chain of facts connects Kyiv and Kherson: Kyiv takes part in no facts\n"
    as_json = run_kg("path", "Kyiv", "Kherson", "--format", "json", "--store", store)
    assert (as_json.returncode, json.loads(as_json.stdout)) == (1, [])
    both = run_kg("path", "Kherson", "Kyiv", "--relations", "allyOf,attacked", "--store", store)
    assert both.stdout == ("no chain of facts connects Kherson and Kyiv: "
                           "Kherson and Kyiv take part in no allyOf or attacked facts\n")
    unknown = run_kg("path", "Kherson", "Atlantis", "--store", store)
    assert unknown.returncode == 2 and unknown.stderr.startswith("Error: no entity called 'Atlantis' in the graph")
    ego = json.loads(run_kg("analyze", "--ego", "Kyiv", "--format", "json", "--store", store).stdout)
    assert ego["ego"] == {"entity": "Kyiv", "radius": 1, "nodes": ["Kyiv"], "facts": []}


def test_symmetric_facts_count_both_ways_in_pagerank():
    import networkx as nx

    from kg.graph.analysis import analyze

    graph = nx.MultiDiGraph()
    for node in ("a", "b"):
        graph.add_node(node, label=node, type="ArmedGroup", aliases="")
    graph.add_edge("a", "b", key="allyOf", predicate="allyOf", documents=1, symmetric=True)
    scores = {iri: score for iri, _, _, score in analyze(graph).pagerank}
    assert scores["a"] == pytest.approx(scores["b"]), "an alliance has no direction"


def test_png_for_reports(example_store, tmp_path):
    out = tmp_path / "graph.png"
    result = run_kg("viz", "--store", str(example_store), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20000


@pytest.mark.parametrize(("name", "magic"), [("graph.svg", b"<?xml"), ("graph.pdf", b"%PDF"), ("graph.HTML", b"<!DOCTYPE")])
def test_the_format_follows_the_file_name(example_store, tmp_path, name, magic):
    out = tmp_path / name
    result = run_kg("viz", "--store", str(example_store), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(magic)
    if name.endswith(".svg"):
        assert "<svg" in out.read_text()


def test_a_file_name_it_cannot_write_is_refused(example_store, tmp_path):
    out = tmp_path / "graph.gif"
    result = run_kg("viz", "--store", str(example_store), "-o", str(out))
    assert result.returncode == 2
    assert result.stderr == (f"Error: -o {out}: kg viz cannot write .gif files "
                             "(name a .html, .htm, .png, .svg, .pdf file, or give --format)\n")
    assert not out.exists()


def test_pictures_draw_symmetric_facts_without_arrowheads(example_store):
    from matplotlib.patches import ArrowStyle

    import kg
    from kg.graph.viz import picture
    from kg.ontology import symmetric_relations

    fig = picture(kg.to_networkx(store=example_store))
    arrows = [a for a in fig.axes[0].patches if a.get_gid()]
    drawn = {a.get_gid() for a in arrows}
    assert {"allyOf", "ceasefireWith", "captured"} <= drawn
    for arrow in arrows:
        headless = type(arrow.get_arrowstyle()) is ArrowStyle.Curve
        assert headless == (arrow.get_gid() in symmetric_relations()), arrow.get_gid()


@pytest.fixture(scope="module")
def page(example_store, tmp_path_factory):
    out = tmp_path_factory.mktemp("viz") / "graph.html"
    result = run_kg("viz", "--store", str(example_store), "-o", str(out))
    assert result.returncode == 0, result.stderr
    return out


def test_page_is_self_contained(page):
    text = page.read_text()
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", text), "nothing is loaded from elsewhere"
    assert "@import" not in text and "url(http" not in text and "fetch(" not in text


def _chromium():
    binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    if not (binary and driver):
        pytest.skip("Chromium and chromedriver are not installed (Debian: apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,900", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"):
        options.add_argument(flag)  # the proxy that goes nowhere: any request off the page would fail
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    from selenium.webdriver.chrome.service import Service

    return webdriver.Chrome(service=Service(driver), options=options)


def open_offline(browser, page) -> None:
    """Open a page of kg's: it runs without an error and loads nothing from elsewhere."""
    browser.get(page.as_uri())
    assert browser.execute_script("return window.kgReady === true")
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == [], errors
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def _node_named(browser, label):
    """The node drawn for the entity called ``label`` (the names are drawn apart from the nodes)."""
    index = browser.execute_script(
        "return JSON.parse(document.getElementById('kg-data').textContent).nodes.findIndex(d => d.label === arguments[0])",
        label)
    assert index >= 0, label
    return browser.find_element("css selector", f"g.node[data-index='{index}']")


def test_page_in_a_real_browser_offline(page, example_store):
    import kg
    from kg.graph.analysis import filter_graph
    from kg.ontology import symmetric_relations

    graph = filter_graph(kg.to_networkx(store=example_store))  # the entities that take part in facts
    browser = _chromium()
    try:
        open_offline(browser, page)
        nodes = browser.find_elements("css selector", "g.node")
        edges = browser.find_elements("css selector", "g.edge")
        assert len(nodes) == graph.number_of_nodes() and len(edges) == graph.number_of_edges()
        counts = browser.find_element("id", "counts").text
        n, e = graph.number_of_nodes(), graph.number_of_edges()
        assert counts == f"showing {n} of {n} entities, {e} of {e} facts", "one component: nothing left out"

        # symmetric facts (allyOf, ceasefireWith) have no arrowhead, the others have one
        heads = browser.execute_script(
            "return [...document.querySelectorAll('g.edge')].map(g => "
            "[g.dataset.predicate, g.querySelector('path:not(.wide)').hasAttribute('marker-end')])")
        assert {"allyOf", "ceasefireWith", "captured"} <= {p for p, _ in heads}
        assert all(head == (p not in symmetric_relations()) for p, head in heads), heads

        # click an edge: the evidence appears, with its document
        index = browser.execute_script(
            "return [...document.querySelectorAll('g.edge')].findIndex(g => g.dataset.predicate === 'captured')")
        edge = browser.find_elements("css selector", "g.edge")[index]
        browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", edge)
        evidence = browser.find_elements("css selector", "#details blockquote.evidence")
        assert evidence and all(len(e.text) > 20 for e in evidence)
        assert re.search(r"\d{3}_[0-9a-f]{16}", evidence[0].text)

        # click a node: its names
        node = _node_named(browser, "Islamic State")
        browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", node)
        assert "Daesh" in browser.find_element("id", "details").text

        # the search box and a relation filter
        box = browser.find_element("id", "search")
        box.send_keys("hezb")
        assert len(browser.find_elements("css selector", "g.node.hit")) == 1
        browser.execute_script("document.querySelector('#relations input[value=captured]').click()")
        hidden = browser.execute_script(
            "return [...document.querySelectorAll('g.edge')].filter(g => g.style.display === 'none').length")
        assert hidden == sum(1 for *_, d in graph.edges(data=True) if d["predicate"] == "captured")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / "viz-browser.png"))
    finally:
        browser.quit()


# ---------------------------------------------------------------- readable pictures of real text
RE3D = ROOT / "tests" / "data" / "re3d"


@pytest.fixture(scope="module")
def centcom(tmp_path_factory):
    """re3d's CENTCOM documents (23 press releases) built into a store: a hub-and-spoke graph with
    isolated pairs, as real text gives."""
    import kg
    from kg.eval.re3d import write_texts

    folder = tmp_path_factory.mktemp("centcom")
    assert write_texts(RE3D, folder / "centcom.jsonl", ["CENTCOM"]) == 23
    kg.build([str(folder / "centcom.jsonl")], store=folder / "store")
    return folder / "store"


@pytest.fixture(scope="module")
def centcom_graph(centcom):
    import kg
    from kg.graph.analysis import filter_graph

    return filter_graph(kg.to_networkx(store=centcom))


def _pairs(graph):
    """The components of two entities: the isolated pairs a picture leaves out."""
    import networkx as nx

    return [c for c in nx.connected_components(nx.Graph(graph.to_undirected())) if len(c) == 2]


def _overlap(a, b) -> bool:
    """Whether two boxes (x0, y0, x1, y1) share more than an edge (half a pixel of slack)."""
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _covers(box, disc) -> bool:
    x, y, r = disc
    nx_, ny_ = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return (nx_ - x) ** 2 + (ny_ - y) ** 2 < (r - 0.5) ** 2


def _nearest_own_centre(members: dict) -> float:
    """The share of nodes nearer their own community's centre than any other's: members maps a
    community to the (x, y) of its nodes."""
    centres = {c: (sum(x for x, _ in ps) / len(ps), sum(y for _, y in ps) / len(ps)) for c, ps in members.items()}
    near = total = 0
    for c, ps in members.items():
        for x, y in ps:
            best = min(centres, key=lambda k: (centres[k][0] - x) ** 2 + (centres[k][1] - y) ** 2)
            near += best == c
            total += 1
    return near / total


def test_scene_lays_communities_apart_and_says_what_it_left_out(centcom_graph):
    from kg.graph.analysis import analyze
    from kg.graph.layout import COMMUNITY_GAP, scene

    graph = centcom_graph
    sc = scene(graph)
    pairs = _pairs(graph)
    assert len(pairs) >= 5, "re3d's press releases have many entities related only to each other"
    paired = set().union(*pairs)
    facts = sum(1 for s, o in graph.edges() if s not in paired)
    n, e = graph.number_of_nodes(), graph.number_of_edges()
    assert sc.caption == (f"showing {n - len(paired)} of {n} entities, {facts} of {e} facts; "
                          f"{len(pairs)} isolated pairs not drawn")
    assert set(sc.nodes) == set(graph) - paired
    # the communities are kg analyze's, less the pairs
    label = lambda m: graph.nodes[m]["label"]  # noqa: E731
    drawn = {}
    for m, c in sc.community.items():
        drawn.setdefault(c, set()).add(label(m))
    expected = {frozenset(c) for c in analyze(graph).communities} - {frozenset(map(label, p)) for p in pairs}
    assert {frozenset(c) for c in drawn.values() if len(c) > 1} == expected
    # each community in its own disc, the discs apart, no two nodes on each other
    for m in sc.nodes:
        (x, y), (cx, cy, r) = sc.position[m], sc.discs[sc.community[m]]
        assert math.dist((x, y), (cx, cy)) + sc.radius[m] <= r + 1e-3  # places are rounded to 4 decimals
    for i, a in enumerate(sc.discs):
        for b in sc.discs[i + 1:]:
            assert math.dist(a[:2], b[:2]) >= a[2] + b[2] + COMMUNITY_GAP - 1e-3
    for i, a in enumerate(sc.nodes):
        for b in sc.nodes[i + 1:]:
            assert math.dist(sc.position[a], sc.position[b]) >= sc.radius[a] + sc.radius[b] - 1e-3
    members = {}
    for m, c in sc.community.items():
        members.setdefault(c, []).append(sc.position[m])
    assert _nearest_own_centre(members) >= 0.9
    # the names go in order of PageRank: the most central first
    top = [iri for iri, *_ in analyze(graph, top=5).pagerank]
    assert list(sc.nodes[:5]) == [m for m in top if m in sc.nodes][:5]


def test_scene_is_the_same_in_every_run(centcom):
    """Seeded, and free of the order of Python's sets, which changes from one run to the next."""
    code = ("import json, kg; from kg.graph.analysis import filter_graph; from kg.graph.layout import scene; "
            f"sc = scene(filter_graph(kg.to_networkx(store={str(centcom)!r}))); "
            "print(json.dumps([sc.nodes, sorted(sc.position.items()), sc.discs]))")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600,
                           env=dict(os.environ, PYTHONHASHSEED=seed)).stdout for seed in ("1", "2")}
    assert len(runs) == 1


def _picture_geometry(fig):
    """The picture's label boxes (gid label / edge-label, with their texts) and node discs, in pixels."""
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    labels = [(t.get_gid(), t.get_text(), tuple(t.get_window_extent(renderer).extents)) for t in ax.texts
              if t.get_gid() in ("label", "edge-label")]
    (nodes,) = [c for c in ax.collections if c.get_gid() == "nodes"]
    centres = ax.transData.transform(nodes.get_offsets())
    radii = [s ** 0.5 / 2 * fig.dpi / 72 for s in nodes.get_sizes()]
    return labels, [(x, y, r) for (x, y), r in zip(centres, radii)]


def _planted(n: int = 400, size: int = 40, seed: int = 3):
    """A graph of ``n`` entities in groups of ``size``, most facts inside a group: a stand-in for a
    corpus ten times the size of re3d's."""
    import random

    import networkx as nx

    rng = random.Random(seed)
    relations = ["attacked", "allyOf", "memberOf", "locatedIn", "leaderOf"]
    graph = nx.MultiDiGraph()
    for i in range(n):
        graph.add_node(f"e{i}", label=f"Entity {i}", type=rng.choice(["ArmedGroup", "Person", "Country"]), aliases="")
    for i in range(n):
        j = (i // size) * size + rng.randrange(size) if rng.random() < 0.93 else rng.randrange(n)
        if j != i and j < n:
            r = rng.choice(relations)
            graph.add_edge(f"e{i}", f"e{j}", key=r, predicate=r, documents=1, symmetric=r == "allyOf")
    return graph


@pytest.mark.parametrize("corpus", ["centcom", "planted"])
def test_picture_names_cover_no_node_and_no_other_name(centcom_graph, corpus):
    from kg.graph.analysis import analyze
    from kg.graph.viz import picture

    graph = centcom_graph if corpus == "centcom" else _planted()
    fig = picture(graph, max_nodes=1000)
    labels, discs = _picture_geometry(fig)
    names = [text for gid, text, _ in labels if gid == "label"]
    assert len(names) >= 30, "the most central entities are named"
    for i, (_, text, box) in enumerate(labels):
        assert not any(_overlap(box, other) for _, _, other in labels[i + 1:]), text
        assert not any(_covers(box, disc) for disc in discs), text
    drawn = set(fig.kg_scene.nodes)  # the isolated pairs left out are not named
    top = [label for iri, label, *_ in analyze(graph, top=30).pagerank if iri in drawn][:8]
    assert all(any(label.startswith(name.rstrip("\u2026")) for name in names) for label in top), (top, names)
    relations = {d["predicate"] for *_, d in graph.edges(data=True)}
    edge_names = [text for gid, text, _ in labels if gid == "edge-label"]
    # the planted graph's edges are short for their names: few have room. How many of CENTCOM's
    # have room moves with the layout of what extraction found (one fact more, 86 -> 87 drawn,
    # took it from 13 to 9): the floor says names are placed at all, the asserts above say where
    assert len(edge_names) >= (5 if corpus == "centcom" else 3), "relations named where there is room"
    assert set(edge_names) <= relations
    caption = [t.get_text() for t in fig.texts if t.get_text().startswith("Showing ")]
    assert caption == [fig.kg_caption[0].upper() + fig.kg_caption[1:] + "."]


def test_relations_differ_by_dash_as_well_as_colour(centcom_graph):
    from kg.graph.layout import relation_styles
    from kg.graph.viz import picture
    from kg.ontology import relations

    # the ontology's relations and the gazetteer's institutionOf and peopleOf links the graph holds
    styles = relation_styles(set(relations()) | {k for _, _, k in centcom_graph.edges(keys=True)})
    assert len({dash for _, dash in styles.values()}) == len(styles), "each relation its own dash pattern"
    assert len({colour for colour, _ in styles.values()}) == len(styles)
    fig = picture(centcom_graph)
    drawn = {}
    for arrow in fig.axes[0].patches:
        if arrow.get_gid():
            drawn.setdefault(arrow.get_gid(), set()).add(arrow.get_linestyle() if styles[arrow.get_gid()][1] else "-")
    assert len(drawn) >= 5 and all(len(styles_) == 1 for styles_ in drawn.values())
    legend = {line.get_label().split(" ")[0]: line.get_linestyle() for line in fig.legends[0].get_lines()}
    assert set(drawn) <= set(legend)


def test_facts_between_the_same_entities_are_drawn_apart():
    import networkx as nx

    from kg.graph.layout import curve_point, scene

    graph = nx.MultiDiGraph()
    for n in ("a", "b", "c"):
        graph.add_node(n, label=n.upper(), type="ArmedGroup", aliases="")
    for s, p, o in (("a", "attacked", "b"), ("b", "attacked", "a"), ("a", "allyOf", "b"), ("b", "captured", "c")):
        graph.add_edge(s, o, key=p, predicate=p, documents=1, symmetric=p == "allyOf")
    sc = scene(graph)
    middles = [curve_point(sc.position[e.source], sc.position[e.target], e.bend, 0.5) for e in sc.edges
               if {e.source, e.target} == {"a", "b"}]
    assert len(middles) == 3
    for i, m in enumerate(middles):
        assert all(math.dist(m, other) > 0.2 for other in middles[i + 1:]), middles
    assert [e.bend for e in sc.edges if e.target == "c"] == [0]


def test_an_entity_asked_for_is_drawn_named_and_first(centcom_graph, centcom, tmp_path):
    from kg.graph.layout import scene
    from kg.graph.viz import picture

    pair = sorted(min(_pairs(centcom_graph), key=sorted))
    wanted = centcom_graph.nodes[pair[0]]["label"]
    sc = scene(centcom_graph, highlight=[wanted])
    assert sc.nodes[0] == pair[0] and pair[1] in sc.nodes, "an isolated pair asked for is drawn"
    assert len(sc.pairs) == len(_pairs(centcom_graph)) - 1
    fig = picture(centcom_graph, highlight=[wanted])
    bold = [t.get_text() for t in fig.axes[0].texts if t.get_gid() == "label" and t.get_fontweight() == "bold"]
    assert bold == [wanted[:31] + "\u2026" if len(wanted) > 32 else wanted]
    out = tmp_path / "asked.png"
    result = run_kg("viz", "--store", str(centcom), "-o", str(out), "--highlight", wanted)
    assert result.returncode == 0 and out.exists(), result.stderr
    assert result.stderr == f"wrote {out}: {sc.caption}\n"
    unknown = run_kg("viz", "--store", str(centcom), "-o", str(out), "--highlight", "Atlantis")
    assert unknown.returncode == 2
    assert unknown.stderr == ("Error: --highlight: no entity called 'Atlantis' in the graph "
                              "(see `kg query entity --param name=...` or kg info)\n")


_GEOMETRY = """
const svg = document.getElementById('graph').getBoundingClientRect();
const labels = [...document.querySelectorAll('#labels text')].filter(t => t.getAttribute('visibility') === 'visible'
  && !t.classList.contains('hover')).map(t => { const b = t.getBBox();
  return [t.classList.contains('edge-label') ? 'edge' : 'node', t.textContent, [b.x, b.y, b.x + b.width, b.y + b.height]]; });
const nodes = [...document.querySelectorAll('g.node')].map(g => { const r = g.querySelector('circle').getBoundingClientRect();
  return [Number(g.dataset.community), r.x - svg.x + r.width / 2, r.y - svg.y + r.height / 2, r.width / 2]; });
return [labels, nodes];
"""


def test_page_of_re3d_in_a_real_browser(centcom, centcom_graph, tmp_path):
    """The page of a real corpus: names that cover no node and no other name, communities apart,
    the caption's counts, search naming what it finds; and a screenshot to look at."""
    out = tmp_path / "centcom.html"
    result = run_kg("viz", "--store", str(centcom), "-o", str(out), "--title", "re3d CENTCOM")
    assert result.returncode == 0, result.stderr
    graph = centcom_graph
    pairs = _pairs(graph)
    browser = _chromium()
    try:
        browser.get(out.as_uri())
        assert browser.execute_script("return window.kgReady === true")
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")] == []
        n, e = graph.number_of_nodes(), graph.number_of_edges()
        paired_facts = sum(1 for s, o in graph.edges() if any(s in p for p in pairs))
        assert browser.find_element("id", "counts").text == (
            f"showing {n - 2 * len(pairs)} of {n} entities, {e - paired_facts} of {e} facts; "
            f"{len(pairs)} isolated pairs not drawn")
        assert len(browser.find_elements("css selector", "#pairs li")) == paired_facts, "left out, and listed"

        def check(expect_names: int):
            labels, nodes = browser.execute_script(_GEOMETRY)
            named = [text for kind, text, _ in labels if kind == "node"]
            assert len(named) >= expect_names, named
            assert any(kind == "edge" for kind, *_ in labels), "relations named on edges where there is room"
            for i, (_, text, box) in enumerate(labels):
                assert not any(_overlap(box, other) for _, _, other in labels[i + 1:]), text
                assert not any(_covers(box, (x, y, r)) for _, x, y, r in nodes), text
            return named, nodes

        named, nodes = check(25)
        members = {}
        for c, x, y, _ in nodes:
            members.setdefault(c, []).append((x, y))
        assert len(members) >= 4 and _nearest_own_centre(members) >= 0.9
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / "viz-re3d.png"))

        # the most central entities are always named (the data lists them by PageRank)
        data = browser.execute_script("return JSON.parse(document.getElementById('kg-data').textContent).nodes")
        assert all(d["label"] in named for d in data[:5]), [d["label"] for d in data[:5]]
        # an entity left unnamed is named, in bold, once searched for, and the rest dim
        unnamed = next(d for d in reversed(data) if d["label"] not in named)
        box = browser.find_element("id", "search")
        box.send_keys(unnamed["label"])
        hit = browser.find_elements("css selector", "g.node.hit")
        assert [h.get_attribute("data-index") for h in hit] == [str(unnamed["id"])]
        assert browser.find_elements("css selector", "g.node.dim")
        strong = browser.execute_script(
            "return [...document.querySelectorAll('#labels text.strong')].filter(t => "
            "t.getAttribute('visibility') === 'visible').map(t => t.textContent)")
        assert strong == [unnamed["label"]]
        check(10)
        assert browser.save_screenshot(str(ARTIFACTS / "viz-re3d-search.png"))
        box.clear()
        box.send_keys("\ue003" * 80)  # backspace: the search emptied

        # a relation filter hides its facts and their names
        browser.execute_script("document.querySelector('#relations input[value=memberOf]').click()")
        hidden = browser.execute_script(
            "return [...document.querySelectorAll('g.edge')].filter(g => g.style.display === 'none').length")
        assert hidden == sum(1 for s, o, d in graph.edges(data=True) if d["predicate"] == "memberOf"
                             and not any(s in p for p in pairs))
        labels, _ = browser.execute_script(_GEOMETRY)
        assert "memberOf" not in {text for kind, text, _ in labels if kind == "edge"}

        # zoomed in, more names fit, still apart
        svg = browser.find_element("id", "graph")
        for _ in range(6):
            browser.execute_script("arguments[0].dispatchEvent(new WheelEvent('wheel', {deltaY: -100, clientX: 600, "
                                   "clientY: 400, bubbles: true, cancelable: true}))", svg)
        browser.execute_script("return new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        check(10)
    finally:
        browser.quit()


# markup that, unescaped in the page's data block, changes how the HTML parser reads the page
PAYLOADS = ["<!--<script>", "</script>", "<img src=x onerror=alert(1)>", "a\u2028b"]


def test_page_draws_names_and_sentences_holding_markup(tmp_path):
    import kg
    from kg.graph.analysis import evidence, filter_graph

    lines = [{"id": p, "title": p, "text": f"The Taliban seized Kunduz {p} in town {i}."} for i, p in enumerate(PAYLOADS)]
    lines.append({"id": "plain", "text": "Houthi fighters captured Hodeidah."})
    (tmp_path / "feed.jsonl").write_text("\n".join(json.dumps(x) for x in lines))
    store = tmp_path / "store"
    kg.build([str(tmp_path / "feed.jsonl")], store=store)
    out = tmp_path / "graph.html"
    result = run_kg("viz", "--store", str(store), "-o", str(out), "--title", PAYLOADS[0])
    assert result.returncode == 0, result.stderr
    graph = filter_graph(kg.to_networkx(store=store))
    with kg.open_store(store) as s:
        documents = {doc for a, b, data in graph.edges(data=True) for _, doc in evidence(s, a, data["predicate"], b)}
    assert set(PAYLOADS[:3]) <= documents, "the payloads are document names of facts"
    browser = _chromium()
    try:
        browser.get(out.as_uri())
        assert browser.execute_script("return window.kgReady === true")
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")] == []
        assert len(browser.find_elements("css selector", "g.node")) == graph.number_of_nodes() > 0
        assert browser.find_element("tag name", "h1").text == PAYLOADS[0]
        shown = set()
        for edge in browser.find_elements("css selector", "g.edge"):
            browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", edge)
            shown |= set(browser.execute_script(  # textContent: .text would render U+2028 as a space
                "return [...document.querySelectorAll('#details blockquote.evidence .doc')].map(d => d.textContent)"))
            assert browser.find_elements("css selector", "#details img") == [], "markup is shown, never made"
        assert shown == documents
    finally:
        browser.quit()


def test_readme_networkx_example_runs_and_answers(example_store):
    """The README's analysis example, run as written against the example store."""
    readme = (ROOT / "README.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "pagerank" in b)
    code = block.replace('"kg-store"', repr(str(example_store)))
    code = "\n".join(line for line in code.splitlines() if not line.startswith("kg.build("))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "most central armed group: Islamic State"


def test_min_confidence_keeps_only_facts_stated_that_surely(example_store, tmp_path):
    import kg

    graph = kg.to_networkx(store=example_store)
    confidences = sorted({d["confidence"] for _, _, d in graph.edges(data=True)})
    assert len(confidences) >= 2, "the examples have facts of several confidences"
    floor = confidences[-1]
    kept = json.loads(run_kg("analyze", "--store", str(example_store), "--min-confidence", str(floor),
                             "--format", "json").stdout)
    assert kept["edges"] == sum(1 for _, _, d in graph.edges(data=True) if d["confidence"] >= floor) < graph.number_of_edges()
    out = tmp_path / "sure.json"
    assert run_kg("export", "--store", str(example_store), "--format", "json", "--min-confidence", str(floor),
                  "-o", str(out)).returncode == 0
    assert all(e["confidence"] >= floor for e in json.loads(out.read_text())["edges"])
    refused = run_kg("export", "--store", str(example_store), "--format", "turtle", "--min-confidence", "0.8")
    assert refused.returncode == 2 and refused.stderr.startswith("Error: --min-confidence applies to graphml, gexf, json")


def _title_and_data(page: Path) -> tuple[str, object]:
    """The page's <title> as a browser reads it, and its data block as its script parses it."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.inside, self.title, self.data = None, [], []

        def handle_starttag(self, tag, attrs):
            self.inside = "data" if dict(attrs).get("id") == "kg-data" else tag

        def handle_endtag(self, tag):
            self.inside = None

        def handle_data(self, text):
            if self.inside == "title":
                self.title.append(text)
            elif self.inside == "data":
                self.data.append(text)

    reader = Reader()
    reader.feed(page.read_text(encoding="utf-8"))
    return "".join(reader.title), json.loads("".join(reader.data))


@pytest.mark.parametrize("timeline", [False, True])
def test_a_title_or_a_name_that_reads_like_a_placeholder_is_shown_as_written(example_store, tmp_path, timeline):
    """`kg viz --title '__DATA__'` put the graph's JSON in the page's title: the placeholders were
    filled by chained replaces, the second reading what the first had put in."""
    from click.testing import CliRunner

    from kg.cli import cli

    out = tmp_path / "page.html"
    for title in ("__DATA__", "__TITLE__ & __DATA__ </title><script>"):
        result = CliRunner().invoke(cli, ["viz", "--store", str(example_store), "-o", str(out), "--title", title,
                                          *(["--timeline"] if timeline else [])])
        assert result.exit_code == 0, result.output
        shown, data = _title_and_data(out)
        assert shown == title
        assert data["events" if timeline else "nodes"], "the data block is whole"
    from kg.graph import page

    page.write_html({"name": "__TITLE__ __DATA__"}, out, title="__DATA__")
    assert _title_and_data(out) == ("__DATA__", {"name": "__TITLE__ __DATA__"})
