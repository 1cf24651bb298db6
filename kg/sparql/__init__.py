"""SPARQL text as kg handles it before any engine sees it, below both of its users (the stores
in :mod:`kg.store` and the query layer in :mod:`kg.graph`): the guard that reads a query's
structure and binds parameters (:mod:`~kg.sparql.guard`), the parameters a ready query declares
(:mod:`~kg.sparql.parameters`), VALUES blocks of IRIs (:mod:`~kg.sparql.values`) and the limits
of a query's time and memory (:mod:`~kg.sparql.limits`). It imports nothing of kg but its errors."""
