"""The trained relation model as kg ships it and reads it: a multinomial logistic regression over
the feature strings of :mod:`.features`, its probabilities calibrated per relation (Platt scaling
fitted on held-apart folds of the training data), and the two thresholds :mod:`.combine` uses.

The file is gzipped JSON (``ontology/relations-model.json.gz``, or ``$KG_DATA/ontology/``'s):
``classes`` (``"none"`` first), ``features`` (name -> row of ``weights``), ``weights`` (one list of
per-class weights a feature), ``bias``, ``calibration`` (relation -> [a, b]: p' = sigmoid(a
logit(p) + b)), ``add`` (relation -> the probability from which the model adds a fact the rules
did not find), ``veto`` (relation -> the probability under which a rule's fact is dropped; 0 for a
relation the training data holds too few facts of to judge), ``judged`` (the relations it holds
enough of: the model's probability is the confidence of their facts), ``rules`` (the rules that
fired often enough in it for the model to veto their facts, with their firings) and ``provenance`` (the training
data's sha256, the seed, the figures it was checked with). Reading it needs numpy only, which spaCy
installs; fitting it needs scikit-learn (:mod:`kg.train`).
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from ...errors import DataError
from ...resources import ontology_file

FILE = "relations-model.json.gz"
FORMAT = 2  # 2: the rules judged by the families of their two classes
NONE = "none"
SWITCH = "KG_RELATION_MODEL"  # off: the rules alone; only: the model alone; on (default): both
MODES = ("on", "off", "only")


def mode() -> str:
    value = os.environ.get(SWITCH, "on").strip().lower() or "on"
    if value not in MODES:
        raise DataError(f"{SWITCH}={value!r}: expected one of {', '.join(MODES)}")
    return value


@dataclass
class RelationModel:
    classes: list[str]
    index: dict[str, int]
    weights: np.ndarray  # (features, classes)
    bias: np.ndarray
    calibration: dict[str, tuple[float, float]]
    add: dict[str, float]
    veto: dict[str, float]
    judged: list[str]  # the relations the training data held enough facts of to judge
    rules: dict[
        str, int
    ]  # "relation:rule-id|Family>Family" -> its firings in the training data, where enough to judge it
    provenance: dict
    _arrays: tuple | None = field(default=None, init=False, repr=False, compare=False)  # _calibration_arrays

    def probabilities_of(self, candidates: list[list[str]]) -> list[dict[str, float]]:
        """The calibrated probability of each relation (``none`` left out) for each candidate (its
        feature names), computed together: one array operation for a document's candidates
        (measured on 200 bench articles: 0.22 s scoring one candidate at a time, 0.13-0.15 s
        together; the same probabilities to the last bit but one, each candidate's weights summed
        in their own type and order)."""
        index, rows, owners = self.index, [], []
        for k, features in enumerate(candidates):
            # a feature is there or not, as the learner saw it (kg.train.fit._matrix): one rule
            # firing twice on a pair, or two names between it, is not twice the weight (until
            # 2026-12-06 it was, and the model read "Greenpeace members Anna Berg and Ola Lind",
            # where member-title fires twice for Anna Berg, as 0.52 and 0.20)
            for f in dict.fromkeys(features):
                row = index.get(f)
                if row is not None:
                    rows.append(row)
                    owners.append(k)
        sums = np.zeros((len(candidates), len(self.classes)), dtype=self.weights.dtype)
        if rows:  # each candidate's rows added in order, in the weights' type, as one candidate's sum
            np.add.at(sums, np.array(owners), self.weights[np.array(rows)])
        logits = self.bias + sums
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        kept, a, b = self._calibration_arrays()
        p = np.clip(p[:, kept].astype(np.float64), 1e-6, 1 - 1e-6)  # calibrated in double, as one is
        calibrated = 1.0 / (1.0 + np.exp(-(a * np.log(p / (1 - p)) + b)))
        names = [self.classes[i] for i in kept]
        return [dict(zip(names, row.tolist())) for row in calibrated]

    def _calibration_arrays(self) -> tuple[list[int], np.ndarray, np.ndarray]:
        """The columns of the relations (``none`` left out) and their calibrations, as arrays."""
        if self._arrays is None:
            kept = [i for i, c in enumerate(self.classes) if c != NONE]
            pairs = [self.calibration.get(self.classes[i], (1.0, 0.0)) for i in kept]
            self._arrays = (kept, np.array([a for a, _ in pairs]), np.array([b for _, b in pairs]))
        return self._arrays

    def to_json(self) -> dict:
        names = sorted(self.index, key=self.index.get)
        return {
            "format": FORMAT,
            "classes": self.classes,
            "features": names,
            "weights": [[round(float(w), 4) for w in self.weights[self.index[n]]] for n in names],
            "bias": [round(float(b), 4) for b in self.bias],
            "calibration": {
                k: [round(a, 4), round(b, 4)] for k, (a, b) in self.calibration.items()
            },
            "add": {k: round(v, 4) for k, v in self.add.items()},
            "veto": {k: round(v, 4) for k, v in self.veto.items()},
            "judged": self.judged,
            "rules": self.rules,
            "provenance": self.provenance,
        }

    def save(self, path: str | Path) -> None:
        """Write the model; the same model gives the same bytes (no time in the gzip header)."""
        from ...outputs import output_file

        text = json.dumps(self.to_json(), separators=(",", ":"), sort_keys=True) + "\n"
        with output_file(path) as out:  # whole or not at all: kg reads this file at every start
            out.write(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


def from_json(raw: dict, where: str) -> RelationModel:
    try:
        if raw.get("format") != FORMAT:
            raise ValueError(f"format {raw.get('format')!r}, expected {FORMAT}")
        classes = list(raw["classes"])
        weights = np.asarray(raw["weights"], dtype=np.float32).reshape(
            len(raw["features"]), len(classes)
        )
        return RelationModel(
            classes=classes,
            index={f: i for i, f in enumerate(raw["features"])},
            weights=weights,
            bias=np.asarray(raw["bias"], dtype=np.float32),
            calibration={k: (float(a), float(b)) for k, (a, b) in raw["calibration"].items()},
            add={k: float(v) for k, v in raw["add"].items()},
            veto={k: float(v) for k, v in raw["veto"].items()},
            judged=[str(r) for r in raw["judged"]],
            rules={str(k): int(v) for k, v in raw["rules"].items()},
            provenance=dict(raw.get("provenance", {})),
        )
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{where}: not a relation model of kg ({exc})",
                        hint="rebuild it with kg train, as docs/model.md shows") from None


def read(path: str | Path) -> RelationModel:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            raw = json.load(f)
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: cannot read the relation model ({exc})") from None
    return from_json(raw, str(path))


@cache
def load() -> RelationModel | None:
    """The model beside the ontology, or None where there is none (the rules work alone) or
    ``KG_RELATION_MODEL=off``."""
    if mode() == "off":
        return None
    path = ontology_file(FILE)
    return read(path) if path.is_file() else None
