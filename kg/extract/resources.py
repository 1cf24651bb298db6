"""The data every extraction stage reads, loaded from kg's data files into one record that is
handed to the stages: :class:`Resources`.

Not :mod:`kg.resources`, which finds the data files (and page templates) on disk: this module
holds what the loaders make of them. The loaders stay beside the data they read (``words.py``,
``gazetteer.py``, ``lexicon.py``, ``eventrules.py``, ``geonames.py``, ``learned/model.py``), each
cached once per process; this is the one module that calls them all. A stage never calls a loader
itself: it takes what it reads from the record (or as an argument) from the
:class:`~kg.extract.relations.Extractor` that carries the record through a document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .eventrules import EventRules, load_rules
from .gazetteer import Gazetteer, load_gazetteer
from .geonames import Places, load_places
from .lexicon import Lexicon, load_lexicon
from .words import Words, load_fixed_tags, load_lemmas, load_words

if TYPE_CHECKING:
    from .learned.model import RelationModel


@dataclass(frozen=True)
class Resources:
    """The word lists, the gazetteer and GeoNames places, the relation lexicon, the event words,
    the lemmas the pipeline fixes and the learned relation model (None: the rules alone)."""

    words: Words
    gazetteer: Gazetteer
    places: Places
    lexicon: Lexicon
    event_rules: EventRules
    lemmas: dict[str, dict[str, str]]
    fixed_tags: dict[str, str]
    model: RelationModel | None

    @classmethod
    def load(cls, model: bool = True) -> Resources:
        """The record of kg's data files (of ``$KG_DATA`` where it is set). Each loader reads its
        file once per process, so a second record costs nothing; assembled afresh on each call, so
        that a test which clears a loader's cache (another ``KG_DATA``) gets the new data.
        ``model=False`` leaves the relation model out, unread."""
        from .learned import model as learned_model  # it reads the relation rules' modules

        return cls(words=load_words(), gazetteer=load_gazetteer(), places=load_places(), lexicon=load_lexicon(),
                   event_rules=load_rules(), lemmas=load_lemmas(), fixed_tags=load_fixed_tags(),
                   model=learned_model.load() if model else None)
