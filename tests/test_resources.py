"""kg.extract.resources: one record of kg's data, built by the extractor and handed to the stages,
which call no loader themselves."""

from __future__ import annotations

import ast
from pathlib import Path

EXTRACT = Path(__file__).resolve().parents[1] / "kg" / "extract"

# the modules that may read the word lists themselves: the loaders (the lexicon's reads the lists
# its rules leave out by name, "words:heading_titles"), the record's builder, and the match key (a
# constant of a name, asked for everywhere: see kg.extract.namekeys._words)
READS_WORDS = {"words.py", "gazetteer.py", "lexicon.py", "resources.py", "namekeys.py"}


def _calls(path: Path, name: str) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == name]


def test_no_stage_loads_the_word_lists_itself():
    found = {str(path.relative_to(EXTRACT)): lines for path in sorted(EXTRACT.rglob("*.py"))
             if path.name not in READS_WORDS and (lines := _calls(path, "load_words"))}
    assert found == {}, "stages take the Words from the record or their context"


def test_the_extractor_holds_one_record_and_the_rules_alone_read_no_model():
    from kg.extract.relations import Extractor
    from kg.extract.resources import Resources

    resources = Resources.load(model=False)
    assert resources.model is None and resources.words.person_titles and resources.lexicon.rules
    assert Resources.load(model=False) == resources  # the loaders read each file once per process
    extractor = Extractor(resources)
    assert extractor.resources is resources and extractor.model is None
    assert (extractor.words, extractor.gazetteer, extractor.lexicon) == (
        resources.words, resources.gazetteer, resources.lexicon)
    assert Extractor(model=False).model is None
