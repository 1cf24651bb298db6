"""`kg viz --timeline` (the picture, and the page in a real, offline Chromium) and `kg analyze
--since/--until` by the time of events, on the example articles."""

from __future__ import annotations

import json

import pytest

from test_viz import ARTIFACTS, _chromium, open_offline


def run_kg(*args):
    """`kg ARGS` in this process (conftest's invoke_kg): the exit code and stderr a user sees."""
    from conftest import invoke_kg

    return invoke_kg(*args)


def test_timeline_picture_for_reports(example_store, tmp_path):
    out = tmp_path / "timeline.png"
    result = run_kg("viz", "--timeline", "--store", str(example_store), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr == f"wrote {out}: 9 events\n"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20000
    arsal = run_kg("viz", "--timeline", "--entity", "arsal", "--store", str(example_store), "-o", str(out))
    assert arsal.stderr == f"wrote {out}: 3 events\n"


def test_timeline_options_refuse_what_they_cannot_do(example_store, tmp_path):
    out = str(tmp_path / "t.html")
    nobody = run_kg("viz", "--timeline", "--entity", "Atlantis", "--store", str(example_store), "-o", out)
    assert nobody.returncode == 2 and nobody.stderr == \
        "Error: --entity: no event involves 'Atlantis' (see `kg query events`)\n"
    alone = run_kg("viz", "--entity", "Arsal", "--store", str(example_store), "-o", out)
    assert alone.returncode == 2 and alone.stderr.startswith("Error: --entity is an option of --timeline")


def test_analyze_filters_facts_by_when_their_events_happened(example_store):
    """The articles are of 2017; the captures they tell happened in 2014."""
    def relations(*args):
        result = run_kg("analyze", "--store", str(example_store), "--format", "json", *args)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)["relations"]

    assert "captured" not in relations("--since", "2017")
    assert relations("--until", "2015") == ["captured"]
    assert "ceasefireWith" in relations("--since", "2017-08-27", "--until", "2017-08-27")
    assert "allyOf" in relations("--since", "2017"), "no sentence dates the alliance: its articles' date counts"


PLACEHOLDER = "an entity: Islamic State, Hezbollah ..."  # the entities in most of the 9 events


def test_timeline_page_in_a_real_browser_offline(example_store, tmp_path):
    page = tmp_path / "timeline.html"
    result = run_kg("viz", "--timeline", "--store", str(example_store), "-o", str(page), "--title", "What happened")
    assert result.returncode == 0, result.stderr
    browser = _chromium()
    try:
        open_offline(browser, page)
        times = [r.get_attribute("data-time") for r in browser.find_elements("css selector", "g.row")]
        assert times == ["2014", "2014", "2014", "2015-11", "2017-07", "2017-08-27", "2017-08-28", "2017-08-28",
                         "2017-08-28"]
        assert browser.find_element("id", "counts").text == "9 of 9 events"
        # the example in the search box is of this graph: the two entities in the most events
        assert browser.find_element("id", "entity").get_attribute("placeholder") == PLACEHOLDER

        # one entity's events
        browser.find_element("id", "entity").send_keys("Arsal")
        assert len(browser.find_elements("css selector", "g.row")) == 3
        assert browser.find_element("id", "counts").text == "3 of 9 events"
        browser.execute_script("const e = document.getElementById('entity'); e.value = '';"
                               "e.dispatchEvent(new Event('input'))")

        # a type off, then a click: who took part, the words that date it, the sentences
        browser.execute_script("[...document.querySelectorAll('#types label')].find(l => l.textContent === 'Attack')"
                               ".querySelector('input').click()")
        rows = browser.find_elements("css selector", "g.row")
        assert len(rows) == 4 and all(r.get_attribute("data-type") != "Attack" for r in rows)
        ceasefire = next(r for r in rows if r.get_attribute("data-type") == "Ceasefire")
        browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", ceasefire)
        details = browser.find_element("id", "details").text
        assert "Ceasefire, 2017-08-27" in details and "“Sunday”" in details and "agent: Lebanese army" in details
        quotes = browser.find_elements("css selector", "#details blockquote")
        assert len(quotes) == 2 and all("ceasefire on Sunday" in q.text for q in quotes)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / "timeline-browser.png"))
    finally:
        browser.quit()


@pytest.mark.parametrize("fmt", ["html", "png"])
def test_timeline_of_a_store_without_events(tmp_path, fmt):
    import kg

    (tmp_path / "a.txt").write_text("Hezbollah is a Lebanese group.", encoding="utf-8")
    kg.build([str(tmp_path / "a.txt")], store=tmp_path / "store")
    out = tmp_path / f"t.{fmt}"
    result = run_kg("viz", "--timeline", "--store", str(tmp_path / "store"), "-o", str(out))
    assert result.returncode == 0 and result.stderr == f"wrote {out}: 0 events\n", result.stderr
    assert out.stat().st_size > 1000
