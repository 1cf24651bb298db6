"""What kg derives from the documents' graphs after they are stored: the curations a team
keeps (:mod:`kg.derive.curations`), which the entity graph and the merged events apply."""
