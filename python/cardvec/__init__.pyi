"""Types of the ``cardvec`` package (PEP 561: ``py.typed`` beside this file). Checked
against the runtime by ``python -m mypy.stubtest cardvec`` (scripts/test.sh)."""

from . import _games as _games
from . import arena as arena
from . import bots as bots
from . import flip7 as flip7
from . import holdem as holdem
from . import i151 as i151
from . import learner as learner
from . import lost_cities as lost_cities
from . import pushfold as pushfold
from . import errors as errors
from .errors import UnknownOptionError as UnknownOptionError
from . import solve as solve
from ._cardvec import ACTION_APPLIED as ACTION_APPLIED
from ._cardvec import MAX_THREADS as MAX_THREADS
from ._cardvec import IllegalActionError as IllegalActionError
from ._cardvec import ACTION_FINISHED as ACTION_FINISHED
from ._cardvec import ACTION_ILLEGAL as ACTION_ILLEGAL
from ._cardvec import ACTION_RESET as ACTION_RESET
from ._cardvec import BatchEnv as BatchEnv
from ._cardvec import Flip7Game as Flip7Game
from ._cardvec import GameInfo as GameInfo
from ._cardvec import LearnerEnv as LearnerEnv
from ._cardvec import OptionInfo as OptionInfo
from ._cardvec import __version__ as __version__
from ._games import Flip7 as Flip7
from ._games import KuhnPoker as KuhnPoker
from ._games import LeducHoldem as LeducHoldem
from ._games import LostCities as LostCities
from ._games import NoLimitHoldem as NoLimitHoldem
from ._games import game_class as game_class
from ._games import games as games
from ._games import make as make
from .i151 import I151 as I151
from .i151 import I151P2 as I151P2
from .i151 import I151P3 as I151P3
from .i151 import I151P4 as I151P4

__all__ = [
    "ACTION_APPLIED",
    "ACTION_FINISHED",
    "ACTION_ILLEGAL",
    "ACTION_RESET",
    "MAX_THREADS",
    "IllegalActionError",
    "UnknownOptionError",
    "errors",
    "BatchEnv",
    "Flip7Game",
    "LearnerEnv",
    "I151P2",
    "I151P3",
    "I151P4",
    "game_class",
    "games",
    "make",
    "arena",
    "bots",
    "flip7",
    "holdem",
    "i151",
    "learner",
    "lost_cities",
    "pushfold",
    "solve",
    "__version__",
    "LostCities",
    "Flip7",
    "I151",
    "NoLimitHoldem",
    "KuhnPoker",
    "LeducHoldem",
]
