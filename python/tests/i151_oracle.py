"""The 151 oracle (i151-engine 0.2.4), moved into the package as ``cardvec.oracles.i151``
(``cardvec.campaign`` runs it too); this name stays for the tests and the command line:

    python python/tests/i151_oracle.py --matches 100000 --jobs 2 [--bin target/release/cardvec]
"""
import sys

from cardvec.oracles.i151 import *  # noqa: F401,F403
from cardvec.oracles.i151 import main

if __name__ == "__main__":
    sys.exit(main())
