"""Train kg's relation model from annotated text: ``kg train GOLD...`` (``python -m kg.train``).

:mod:`.data` reads the annotated folders and files, :mod:`.examples` runs them through kg's own
pipeline into labelled candidate pairs, :mod:`.fit` fits, calibrates and sets the thresholds,
:mod:`.agree` measures two annotators' agreement. The result is written where kg reads it
(``ontology/relations-model.json.gz``) or to ``--output``, with its provenance.
"""

from __future__ import annotations

from pathlib import Path

from .. import ontology
from ..errors import UsageError
from ..extract.learned.model import FILE, NONE, RelationModel


def train(
    paths: list[str],
    output: str | Path | None = None,
    seed: int = 13,
    processes: int = 1,
    log=print,
    min_facts: int | None = None,
) -> tuple[RelationModel, Path]:
    """Fit the model on ``paths`` (gold folders, re3d source folders, CoNLL04 JSON files) and write it."""
    from ..resources import ontology_file
    from . import data, examples, fit

    corpus = data.read(paths)
    log(
        f"{len(corpus.documents)} documents, {sum(len(d.labels) for d in corpus.documents)} labelled pairs "
        f"from {len(paths)} sources"
    )
    found = list(examples.examples(corpus.documents, n_process=processes))
    classes = [NONE] + sorted(ontology.relations())
    facts = sum(e.label != NONE for e in found)
    log(f"{len(found)} candidate pairs, {facts} of them facts")
    if not facts or facts == len(found):
        raise UsageError(
            f"{', '.join(map(str, paths))}: {facts} facts among {len(found)} candidate pairs of kg's "
            "mentions: a model needs both facts and non-facts to learn from",
            hint="annotate by docs/annotation.md: evidence copied verbatim, aliases as the text writes them",
        )
    provenance = {
        "sources": [str(p) for p in paths],
        "files": {Path(k).as_posix(): v for k, v in sorted(corpus.files.items())},
        "documents": len(corpus.documents),
    }
    model = fit.train(
        found,
        classes,
        seed=seed,
        provenance=provenance,
        log=log,
        min_facts=fit.MIN_JUDGED if min_facts is None else min_facts,
    )
    target = Path(output) if output else ontology_file(FILE)
    model.save(target)
    return model, target
