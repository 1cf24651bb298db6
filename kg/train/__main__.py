"""``python -m kg.train GOLD...``: the same as ``kg train GOLD...``."""

import sys

from ..cli import main

if __name__ == "__main__":
    sys.argv = ["kg", "train", *sys.argv[1:]]
    main()
