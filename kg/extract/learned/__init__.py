"""The learned relation model: a classifier over pairs of mentions that sits beside the rules.

The rules (:mod:`kg.extract.relations`) are precise where they were written and miss the ordinary
constructions of registers they were not written on. The model reads every ordered pair of
mentions in a sentence whose types fit a relation of ``ontology/kg.ttl`` (:mod:`.candidates`),
describes it by what the parse gives (:mod:`.features`: the dependency path, the words between,
the lexicon's and PETRARCH's trigger classes on it, the two types, which rule fired) and says which
relation holds, or none, with a calibrated probability (:mod:`.model`). :mod:`.combine` joins the
two: a rule's fact stands unless the model is confident it is wrong, the model adds the
relations between places, members and bases it is confident of (an event's fact only comes from a
trigger rule), and both go through the same polarity checks. ``kg train`` (:mod:`kg.train`) fits
it from annotated text; the shipped model is ``ontology/relations-model.json.gz``.
"""
