"""The stages from a document's text to its assertions, in the order data flows through them:

``nlp`` (the spaCy pipeline with kg's registered ``components``) -> ``mentions`` (names, groups,
acronyms) -> ``resolve`` (entity keys) -> ``coref`` (pronouns and descriptions) -> ``relations``
(lexicon rules, structural rules, ``polarity``, attribution) -> ``pipeline`` (one document through
all of them; worker processes) / ``cluster`` (the same on Dask). Word lists, the gazetteer, the
lexicon and GeoNames places are data under ``ontology/``, read by ``words``, ``gazetteer``,
``lexicon`` and ``geonames`` into one record, ``resources.Resources``, which every stage is handed;
``parse`` holds the dependency helpers the stages share.
"""
