"""What users do with a built graph: SPARQL (``sparql``), exports to RDF formats and networkx
(``export``), graph analysis (``analysis``), pictures (``viz``), counts (``stats``) and SHACL
validation (``shapes``). Everything here reads a store through :class:`kg.store.Store`."""
