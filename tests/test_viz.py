"""Analysis, paths and pictures of the example graph; the HTML page in a real, offline Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

KG = [sys.executable, "-m", "kg"]
ARTIFACTS = Path(os.environ.get("KG_TEST_ARTIFACTS", ROOT / "test-artifacts"))


def run_kg(*args):
    return subprocess.run([*KG, *args], capture_output=True, text=True, timeout=600)


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
        assert counts == f"{graph.number_of_nodes()} entities, {graph.number_of_edges()} facts"

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
        node = next(n for n in browser.find_elements("css selector", "g.node")
                    if n.find_element("css selector", "text").text == "Islamic State")
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
