"""What a worker of the local pool needs, loaded once in the pool's fork server (see
:func:`kg.extract.pools.start_method`): importing this module loads spaCy with kg's components and
kg's data, and freezes them out of the garbage collector's view, so that every worker forked from
the server starts with them loaded and shares their pages until it writes to them. A load that
fails is kept and raised by each worker's first batch, as a spawned worker's would be."""

from .pools import _warm_up

_warm_up()
