"""`kg viz --map`: the country outlines kg ships (and their generator), the events of the example
articles at their places, in a page (in a real, offline Chromium) and a picture."""

from __future__ import annotations

import json
import re

import pytest
from conftest import ROOT
from test_viz import ARTIFACTS, _chromium, open_offline

# the places of the example articles' events that have coordinates (GeoNames, via places.jsonl)
PLACES = {"Arsal": (34.18, 36.42), "Beirut": (33.89, 35.50), "Al-Bukamal": (34.45, 40.92)}


def run_kg(*args):
    """`kg ARGS` in this process (conftest's invoke_kg): the exit code and stderr a user sees."""
    from conftest import invoke_kg

    return invoke_kg(*args)


def _country(code: str):
    from kg.graph.countries import countries

    (country,) = [c for c in countries() if c.code == code]
    return country


# ---------------------------------------------------------------- the outlines
def test_the_shipped_outlines_are_natural_earths_countries():
    from kg.graph.countries import area, countries

    path = ROOT / "ontology" / "countries.geojson"
    assert path.stat().st_size < 400_000, "every map page carries the file"
    metadata = json.loads(path.read_text(encoding="utf-8"))["metadata"]
    assert "Natural Earth" in metadata["source"] and metadata["licence"].startswith("public domain")
    assert metadata["command"].startswith("python -m kg.graph.countries ")
    assert len(countries()) == 177
    for code, (west, south, east, north) in {"SYR": (35.7, 32.3, 42.35, 37.23),
                                             "IRQ": (38.79, 29.1, 48.57, 37.39),
                                             "LBN": (35.13, 33.09, 36.61, 34.61)}.items():
        assert _country(code).bbox == pytest.approx((west, south, east, north), abs=0.05), code
    assert _country("SYR").name == "Syria"
    for country in countries():
        for polygon in country.polygons:
            assert all(ring[0] == ring[-1] and len(ring) >= 4 for ring in polygon), country.name
            assert area(polygon[0]) > 0 and all(area(hole) < 0 for hole in polygon[1:]), "RFC 7946 winding"
    assert len(_country("ZAF").polygons[0]) == 2, "South Africa keeps its hole (Lesotho)"


def test_simplify_rounds_and_drops_crowded_points():
    from kg.graph.countries import simplify

    ring = [(0.0, 0.0), (0.031, 0.0), (1.004, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.05), (0.0, 0.0)]
    assert simplify(ring) == ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0))
    assert simplify([(0, 0), (0.05, 0), (0.05, 0.05), (0, 0)]) == (), "a speck goes"


def test_the_generator_writes_geojson_from_a_shapefile(tmp_path):
    """Natural Earth's fields on a small shapefile of pyshp's (skipped without pyshp: kg does not
    depend on it, ontology/countries.md says how to install it)."""
    shapefile = pytest.importorskip("shapefile")
    from kg.graph.countries import area, main

    with shapefile.Writer(str(tmp_path / "world"), shapeType=shapefile.POLYGON) as writer:
        writer.field("name", "C", 40)
        writer.field("iso_a3", "C", 3)
        # shapefiles wind outer rings clockwise and holes counter-clockwise
        writer.poly([[(0, 0), (0, 10), (10, 10), (10, 0), (0, 0)], [(4, 4), (6, 4), (6, 6), (4, 6), (4, 4)]])
        writer.record("Squareland", "SQL")
        writer.poly([[(4.001, 4.002), (4.001, 6), (6, 6), (6, 4), (4.001, 4.002)]])
        writer.record("Côte d'Inside", "-99")
    out = tmp_path / "countries.geojson"
    main([str(tmp_path / "world.shp"), "-o", str(out), "--via", "a test"])
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["metadata"]["via"] == "a test" and data["metadata"]["command"] == "python -m kg.graph.countries world.shp"
    names = [(f["properties"]["name"], f["properties"]["iso_a3"]) for f in data["features"]]
    assert names == [("Côte d'Inside", None), ("Squareland", "SQL")]
    inside, square = (f["geometry"]["coordinates"] for f in data["features"])
    assert inside == [[[[4.0, 4.0], [6.0, 4.0], [6.0, 6.0], [4.0, 6.0], [4.0, 4.0]]]]
    (outer, hole), = square
    assert area(tuple(map(tuple, outer))) == 100 and area(tuple(map(tuple, hole))) == -4


# ---------------------------------------------------------------- the events of the example articles
def test_map_data_places_the_events_of_the_export(example_store):
    import kg
    from kg.graph.eventmap import event_rows, map_data

    exported = run_kg("export", "--store", str(example_store), "--format", "events-json")
    with kg.open_store(example_store) as store:
        rows = event_rows(store)
    assert rows == json.loads(exported.stdout), "the rows of kg export --format events-json"
    data = map_data(rows)
    assert {p["name"]: (round(p["lat"], 2), round(p["lon"], 2)) for p in data["places"]} == PLACES
    west, south, east, north = _country("SYR").bbox
    bukamal = next(p for p in data["places"] if p["name"] == "Al-Bukamal")
    assert west < bukamal["lon"] < east and south < bukamal["lat"] < north and bukamal["country"] == "Syria"
    where = {data["places"][e["place"]]["name"]: (e["type"], e["time"], e["begin"], e["end"]) for e in data["events"]}
    assert where == {"Arsal": ("Capture", "2014", "2014-01-01", "2014-12-31"),
                     "Beirut": ("Attack", "2015-11", "2015-11-01", "2015-11-30"),
                     "Al-Bukamal": ("Evacuation", "2017-08-28", "2017-08-28", "2017-08-28")}
    assert data["caption"] == "5 of 9 events, at 3 places (4 without a place with coordinates)"
    assert set(data["colours"]) == {"Attack", "Capture", "Evacuation"}, "the types on the map"


def test_map_picture_for_reports(example_store, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "events.png"
    result = run_kg("viz", "--map", "--store", str(example_store), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr == f"wrote {out}: 5 of 9 events, at 3 places (4 without a place with coordinates)\n"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20000


def test_map_and_timeline_are_two_pictures(example_store, tmp_path):
    result = run_kg("viz", "--map", "--timeline", "--store", str(example_store), "-o", str(tmp_path / "m.html"))
    assert result.returncode == 2 and result.stderr == \
        "Error: --map and --timeline draw different pictures (give one of them)\n"


@pytest.fixture(scope="module")
def map_page(example_store, tmp_path_factory):
    out = tmp_path_factory.mktemp("map") / "events.html"
    result = run_kg("viz", "--map", "--store", str(example_store), "-o", str(out), "--title", "Where it happened")
    assert result.returncode == 0, result.stderr
    return out


def test_map_page_is_self_contained(map_page):
    text = map_page.read_text(encoding="utf-8")
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", text), "nothing is loaded from elsewhere"
    assert "@import" not in text and "url(" not in text and "fetch(" not in text
    assert "<title>Where it happened</title>" in text


def _click(browser, element) -> None:
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", element)


def _shown(browser) -> list[str]:
    return browser.execute_script("return [...document.querySelectorAll('g.place')]"
                                  ".filter(g => g.style.display !== 'none').map(g => g.dataset.name).sort()")


def _type_box(browser, label: str):
    return browser.execute_script("return [...document.querySelectorAll('#types label')]"
                                  ".find(l => l.textContent.startsWith(arguments[0])).querySelector('input')", label)


def _set(browser, box: str, value: str) -> None:
    browser.execute_script("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                           "e.dispatchEvent(new Event('input'))", box, value)


def test_map_page_in_a_real_browser_offline(map_page, example_store):
    import kg
    from kg.graph.eventmap import event_rows

    with kg.open_store(example_store) as store:
        bukamal = next(r for r in event_rows(store) if r["place"] == "Al-Bukamal")
    browser = _chromium()
    try:
        open_offline(browser, map_page)
        assert browser.find_element("id", "counts").text == \
            "5 of 5 events, at 3 of 3 places; 4 events have no place with coordinates"
        assert _shown(browser) == sorted(PLACES)
        assert len(browser.find_elements("css selector", "path.country")) == 177

        # the point of Al-Bukamal is drawn inside Syria's box, east of Beirut's
        boxes = browser.execute_script(
            "const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };"
            "return [r(document.querySelector('path[data-code=SYR]')),"
            " r(document.querySelector('g.place[data-name=Al-Bukamal] circle')),"
            " r(document.querySelector('g.place[data-name=Beirut] circle'))]")
        syria, point, beirut = boxes
        x, y = (point[0] + point[2]) / 2, (point[1] + point[3]) / 2
        assert syria[0] < x < syria[2] and syria[1] < y < syria[3], (syria, point)
        assert x > beirut[2]
        assert "Al-Bukamal" in browser.find_element("id", "names").text

        # a type off hides its points; back on, they are back
        _click(browser, _type_box(browser, "Evacuation"))
        assert _shown(browser) == ["Arsal", "Beirut"]
        assert browser.find_element("id", "counts").text.startswith("4 of 5 events, at 2 of 3 places")
        _click(browser, _type_box(browser, "Evacuation"))
        assert _shown(browser) == sorted(PLACES)

        # time: a year, a month; a range that is no date is marked and changes nothing
        _set(browser, "from", "2017")
        assert _shown(browser) == ["Al-Bukamal"]
        _set(browser, "from", "2015-11")
        _set(browser, "to", "2015-11")
        assert _shown(browser) == ["Beirut"]
        _set(browser, "to", "2015-13")
        assert "bad" in browser.find_element("id", "to").get_attribute("class")
        assert _shown(browser) == ["Beirut"]
        _set(browser, "from", "")
        _set(browser, "to", "")
        assert _shown(browser) == sorted(PLACES)

        # a click on a point: its events, who took part, the sentence and its document
        _click(browser, browser.find_element("css selector", "g.place[data-name=Al-Bukamal]"))
        details = browser.find_element("id", "details").text
        assert details.startswith("Al-Bukamal, Syria (GeoNames 174448")
        assert "Evacuation, 2017-08-28" in details
        quote = browser.find_element("css selector", "#details blockquote").text
        assert quote.startswith(bukamal["evidence"]) and f"of {bukamal['source_date']}" in quote

        # zoom with the wheel where the pointer is, and back to the world
        def width() -> float:
            return float(browser.execute_script("return document.getElementById('map').getAttribute('viewBox')")
                         .split()[2])

        before = width()
        browser.execute_script("document.getElementById('map').dispatchEvent(new WheelEvent('wheel', "
                               "{deltaY: -400, clientX: 700, clientY: 400, bubbles: true, cancelable: true}))")
        assert width() < before / 1.5
        _click(browser, browser.find_element("id", "zoom-world"))
        assert width() >= 360
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / "map-browser.png"))
    finally:
        browser.quit()


def _row(**values) -> dict:
    """A row of the event table, as kg export --format events-json gives it."""
    row = dict.fromkeys(("event", "type", "time", "precision", "reported", "agents", "agent_iris", "patients",
                         "patient_iris", "place", "place_iri", "country", "geonames_id", "latitude", "longitude",
                         "sources", "source_title", "source_date", "source_url", "evidence"))
    return row | {"event": "https://w3id.org/kg/id/event/x", "type": "Attack", "reported": False, "sources": 1,
                  "place_iri": "https://w3id.org/kg/id/entity/p", "latitude": 35.0, "longitude": 38.0} | values


def test_map_page_escapes_what_the_graph_says(tmp_path):
    from kg.graph.eventmap import write_html

    attack = "<script>window.pwned = 1</script>"
    rows = [_row(place=f"Raqqa{attack}", agents="</script><script>window.pwned = 2</script>",
                 patients="<img src=x onerror='window.pwned = 3'>", evidence=f"They said {attack}&amp; <!-- left.",
                 source_title="<b>bold</b>", source_url="javascript:window.pwned = 4", time="2017")]
    out = tmp_path / "events.html"
    write_html(rows, out, title="</title><script>window.pwned = 5</script>")
    text = out.read_text(encoding="utf-8")
    assert text.count("<script") == 2 and "</script><script>" not in text, "the page's own two scripts only"
    browser = _chromium()
    try:
        open_offline(browser, out)
        assert browser.execute_script("return window.pwned") is None
        assert browser.title == "</title><script>window.pwned = 5</script>"
        _click(browser, browser.find_element("css selector", "g.place"))
        details = browser.find_element("id", "details").text
        assert f"Raqqa{attack}" in details and "<img src=x onerror='window.pwned = 3'>" in details
        assert f"They said {attack}&amp; <!-- left." in details and "“<b>bold</b>”" in details
        assert browser.find_elements("css selector", "#details a") == [], "no javascript: link"
        assert browser.execute_script("return window.pwned") is None
    finally:
        browser.quit()


@pytest.mark.parametrize("fmt", ["html", "png"])
def test_map_of_a_store_without_located_events(tmp_path, fmt):
    import kg

    if fmt == "png":
        pytest.importorskip("matplotlib")
    (tmp_path / "a.txt").write_text("Hezbollah is a Lebanese group.", encoding="utf-8")
    kg.build([str(tmp_path / "a.txt")], store=tmp_path / "store")
    out = tmp_path / f"m.{fmt}"
    result = run_kg("viz", "--map", "--store", str(tmp_path / "store"), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr == f"wrote {out}: no event to draw: the store has none\n"
    assert out.stat().st_size > 1000
    if fmt == "html":
        assert '"caption": "no event to draw: the store has none"' in out.read_text(encoding="utf-8")
