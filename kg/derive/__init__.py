"""What kg derives from the documents' graphs after they are stored, a stage between extraction
and the store: the entity graph (:mod:`kg.derive.entities`), the events merged across documents
(:mod:`kg.derive.eventmerge`), both applying the curations a team keeps
(:mod:`kg.derive.curations`); :mod:`kg.derive.refresh` runs them after a build, a removal or a
curation, in child processes on a checkpoint where the store offers one (:mod:`kg.derive.offload`)."""
