"""kg's cache of what it derives from its data at each start (kg/cache.py): the merged gazetteer,
the tokens of its names and the indexed places are read back as they were built, a change of what
made them is a new file, and a cache that cannot be read or written only costs time."""

from __future__ import annotations

import json
import os

import pytest

from kg import cache


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    return tmp_path / "cache"


def counted(value):
    calls = []

    def build():
        calls.append(1)
        return value

    return build, calls


def same(x):
    return x


def test_a_result_is_built_once_and_then_read_back(folder):
    build, calls = counted({"a": [1, 2]})
    assert cache.cached("thing", build, same, same) == {"a": [1, 2]}
    assert cache.cached("thing", build, same, same) == {"a": [1, 2]}
    assert len(calls) == 1 and len(list(folder.glob("thing-*.json"))) == 1


def test_what_else_the_result_depends_on_names_another_file(folder):
    build, calls = counted([1])
    cache.cached("thing", build, same, same, extra="model 1")
    cache.cached("thing", build, same, same, extra="model 2")
    assert len(calls) == 2 and len(list(folder.glob("thing-*.json"))) == 2


def test_only_the_newest_files_of_a_kind_stay(folder):
    for version in range(cache.KEEP + 2):
        cache.cached("thing", lambda version=version: version, same, same, extra=str(version))
        newest = max(folder.glob("thing-*.json"), key=os.path.getmtime)
        os.utime(newest, (version * 100, version * 100))  # written in this order, whatever the clock's grain
    kept = sorted(folder.glob("thing-*.json"), key=os.path.getmtime)
    assert [cache._load(p) for p in kept] == list(range(2, cache.KEEP + 2))


def test_a_damaged_file_is_built_again(folder):
    build, calls = counted({"a": 1})
    cache.cached("thing", build, same, same)
    (path,) = folder.glob("thing-*.json")
    path.write_text('{"a": ')  # cut short, as by a full disk
    assert cache.cached("thing", build, same, same) == {"a": 1} and len(calls) == 2
    assert cache._load(path) == {"a": 1}


def test_an_empty_setting_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, "")
    monkeypatch.chdir(tmp_path)
    build, calls = counted(3)
    assert cache.cached("thing", build, same, same) == 3 and cache.cached("thing", build, same, same) == 3
    assert len(calls) == 2 and not list(tmp_path.rglob("*.json"))


def test_a_folder_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(cache.ENV_VAR, str(blocked / "kg"))
    assert cache.cached("thing", lambda: 5, same, same) == 5


def test_the_default_folder_is_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.delenv(cache.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.folder() == tmp_path / "kg"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.folder() == tmp_path / "home" / ".cache" / "kg"


def test_the_gazetteer_read_back_is_the_one_merged(folder):
    from kg.extract import gazetteer

    merged = gazetteer._merged_gazetteer()
    again = gazetteer._decode(json.loads(json.dumps(gazetteer._encode(merged))))
    assert again.entries == merged.entries and list(again.entries) == list(merged.entries)
    assert again.by_key == merged.by_key and again.demonyms == merged.demonyms
    assert again.lookup("Daesh").id == merged.lookup("Daesh").id == "islamic-state"


def test_the_places_read_back_are_the_ones_indexed(folder):
    from kg.extract import geonames

    indexed = geonames._indexed_places()
    again = geonames._decode(json.loads(json.dumps(geonames._encode(indexed))))
    assert again == indexed and list(again.by_id) == list(indexed.by_id)
    # one object per place, whichever index reaches it, and the most populous first as indexed
    assert all(again.by_id[p.geonames_id] is p for found in again.own.values() for p in found)
    assert again.town("Madrid").country == "ES" and again.town("Madrid", "CO").country == "CO"
    assert again.country("Ivory Coast").country == "CI" and again.country("Atlantis") is None


def test_the_names_are_found_as_spacys_two_span_rulers_found_them():
    """kg_names replaces two SpanRulers (exact case, then any case) to spare each process their
    start-up: on real articles it finds the same spans, in the same order, with the same ids."""
    from conftest import EXAMPLES

    from kg.extract import components, nlp
    from kg.extract.gazetteer import load_gazetteer

    texts = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.txt"))]
    texts.append("ISIS and Daesh fighters left al-Bab; the islamic state, IS and the U.S.-led Coalition "
                 "met the Syrian Democratic Forces (SDF) near Al-Bukamal, Deir ez-Zor and Raqqa's outskirts.")
    texts += ["HEZBOLLAH", "They fought the Syrian"]  # the text ends inside a longer name's first words
    ours = nlp.load()
    spacy = nlp.english_model()
    components.add_abbreviations(spacy)
    gazetteer = load_gazetteer()
    for name, attr, cased in (("lower", "LOWER", False), ("cased", "ORTH", True)):
        ruler = spacy.add_pipe("span_ruler", name=name, first=True, config={
            "spans_key": "names", "phrase_matcher_attr": attr, "overwrite": False})
        ruler.add_patterns(components.name_patterns(gazetteer, cased))
    total = 0
    for text in texts:
        mine = ours.get_pipe(components.NAMES)(ours.make_doc(text))
        theirs = spacy.get_pipe("lower")(spacy.get_pipe("cased")(spacy.make_doc(text)))
        found = [(s.start, s.end, s.label_, s.id_) for s in mine.spans[components.NAMES_KEY]]
        assert found == [(s.start, s.end, s.label_, s.id_) for s in theirs.spans["names"]]
        total += len(found)
    assert total > 20


@pytest.mark.parametrize("content", [
    '[["Islamic State", "captured", "Beirut"]]',  # edited: JSON as the code writes it, saying something else
    "[]",  # emptied to a value that decodes: no rows, so no facts, and no error
    "",
    "[" * 100_000 + "]" * 100_000,  # nested past what the JSON decoder's recursion holds
], ids=["edited", "emptied", "empty", "deeply-nested"])
def test_a_file_whose_content_is_not_what_was_written_is_built_again(folder, content):
    """The cache is trusted only where its checksum matches its content: an edited file turned
    "captured Arsal" into "captured Beirut", an emptied one gave 0 facts, a nested one exit 70."""
    rows = [("Islamic State", "captured", "Arsal")]
    build, calls = counted(rows)
    decode = lambda data: [tuple(row) for row in data]  # as the real decoders: rows back
    assert cache.cached("thing", build, list, decode) == rows
    (path,) = folder.glob("thing-*.json")
    path.write_text(content)
    assert cache.cached("thing", build, list, decode) == rows and len(calls) == 2
    assert cache.cached("thing", build, list, decode) == rows and len(calls) == 2, "written again, then read"


def test_the_gazetteer_read_back_from_an_edited_cache_is_the_one_merged(folder):
    from kg.extract import gazetteer

    first = gazetteer.load_gazetteer.__wrapped__()
    (path,) = folder.glob("gazetteer-*.json")
    text = path.read_text(encoding="utf-8")
    assert '"Arsal"' in text
    path.write_text(text.replace('"Arsal"', '"Beirut"'), encoding="utf-8")
    again = gazetteer.load_gazetteer.__wrapped__()
    assert again.entries == first.entries and again.lookup("Arsal").label == "Arsal"
