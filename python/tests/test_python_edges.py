"""Small Python edges a new user tripped over (issue 27, item 7), each a clear error or
the documented behaviour."""

import numpy as np
import pytest

import cardvec
from cardvec import bots, holdem


@pytest.mark.parametrize("name", ["autoreset", "observe"])
@pytest.mark.parametrize("bad", ["yes", 1, 0.0])
def test_flag_arguments_name_themselves(name, bad):
    with pytest.raises(TypeError, match=f"{name} must be a bool"):
        cardvec.make("kuhn", 2, **{name: bad})
    env = cardvec.make("kuhn", 2, **{name: np.bool_(True)})
    assert env.autoreset if name == "autoreset" else env.observe_on_step


def test_flip7_v0_takes_numpy_integers():
    from cardvec.pettingzoo import flip7_v0

    env = flip7_v0.raw_env(num_players=np.int64(5), target_score=np.int32(60))
    env.reset(seed=1)
    assert env.num_agents == 5 and type(env.num_players) is int
    assert env.action_space(env.agent_selection).n == 2 + 5


def test_equity_refuses_a_single_string_saying_what_it_wants():
    with pytest.raises(TypeError, match=r'list of ranges.*\["AsKs", "QQ"\]'):
        holdem.equity("AsKs QQ")
    with pytest.raises(TypeError, match="list of ranges"):
        holdem.equity([1, 2])
    assert len(holdem.equity(["AsKs", "QQ"], exact=True)["equity"]) == 2


def test_flip7_threshold_bots_out_of_range_are_refused():
    env = cardvec.make("flip7", 2)
    with pytest.raises(ValueError, match=r"0\.\.=171"):
        bots.act(env, "threshold-999")
    assert bots.act(env, "threshold-27").shape == (2,)
