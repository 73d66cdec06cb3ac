"""One rule for unknown keyword arguments and options (issue 27): everywhere they are
``cardvec.UnknownOptionError``, a ``ValueError`` and a ``TypeError`` at once, naming the
accepted names; nothing is built."""

import re

import pytest

import cardvec
from cardvec import UnknownOptionError


def test_it_is_both_a_value_error_and_a_type_error():
    assert issubclass(UnknownOptionError, ValueError)
    assert issubclass(UnknownOptionError, TypeError)


@pytest.mark.parametrize("build", [
    lambda: cardvec.make("kuhn", 2, bogus=1),
    lambda: cardvec.Flip7(2, bogus=1),
    lambda: cardvec.LearnerEnv("kuhn", 2, opponents="random", bogus=1),
    lambda: cardvec.Flip7Game(bogus=1),
], ids=["make", "registry-class", "learner", "Flip7Game"])
def test_unknown_keywords_raise_unknown_option_error(build):
    with pytest.raises(UnknownOptionError, match="bogus") as e:
        build()
    # The message names what is accepted (or that nothing is).
    assert re.search("accepted options|takes no options|expected one of", str(e.value)), e.value


def test_flip7_game_still_takes_its_arguments():
    g = cardvec.Flip7Game(num_players=4, target_score=100, max_rounds=None, seed=3)
    assert g is not None
