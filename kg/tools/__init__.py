"""Tools that make kg's data files, which a build never runs: the generator of
``ontology/petrarch/`` from PETRARCH2's dictionaries (``python -m kg.tools.petrarch``)."""
