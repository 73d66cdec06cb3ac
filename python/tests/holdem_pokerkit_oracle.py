"""The no-limit hold'em oracle (pokerkit 0.7), moved into the package as
``cardvec.oracles.holdem`` (``cardvec.campaign`` runs it too); this name stays for the
tests and the command line:

    python python/tests/holdem_pokerkit_oracle.py --hands 20000 --jobs 2
    python python/tests/holdem_pokerkit_oracle.py --deals 2000
"""
import sys

from cardvec.oracles.holdem import *  # noqa: F401,F403
from cardvec.oracles.holdem import main

if __name__ == "__main__":
    sys.exit(main())
