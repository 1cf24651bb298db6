"""``python -m kg.tools.petrarch``: regenerate ontology/petrarch/ from the PETRARCH2 dictionaries."""

import sys

from . import main

sys.exit(main())
