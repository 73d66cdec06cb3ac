"""Policy files (docs/policies.md) written from PyTorch by examples/export_policy.py and
played by the Rust bot `policy:<path>`: the greedy action equals PyTorch's masked argmax on
the same observations, for every game (and both Lost Cities layouts); sampled actions are
legal; a file for another game or configuration is refused. Skipped without PyTorch."""

import os
import sys

import numpy as np
import pytest

import cardvec
from cardvec import bots

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples"))
from export_policy import export_policy  # noqa: E402

CASES = [
    ("kuhn", {}, torch.nn.ReLU),
    ("leduc", {}, torch.nn.Tanh),
    ("lost-cities", {}, torch.nn.ReLU),
    ("lost-cities", {"obs_layout": "channel-major"}, torch.nn.Tanh),
    ("flip7", {}, torch.nn.ReLU),
    ("151", {}, torch.nn.Tanh),
    ("holdem", {}, torch.nn.ReLU),
]


def network(obs_dim, actions, activation, seed):
    torch.manual_seed(seed)
    return torch.nn.Sequential(
        torch.nn.Linear(obs_dim, 32), activation(),
        torch.nn.Linear(32, 16), activation(),
        torch.nn.Linear(16, actions),
    )


@pytest.mark.parametrize("game_id,options,activation", CASES)
def test_greedy_actions_equal_pytorchs_masked_argmax(tmp_path, game_id, options, activation):
    env = cardvec.make(game_id, 64, seed=5, autoreset=True, **options)
    net = network(env.obs_dim, env.num_actions, activation, seed=len(game_id))
    mean = torch.linspace(-0.1, 0.1, env.obs_dim)
    std = torch.linspace(0.5, 2.0, env.obs_dim)
    path = str(tmp_path / "p.safetensors")
    export_policy(net, path, game=game_id, options=options, obs_mean=mean, obs_std=std)
    compared = 0
    for t in range(20):
        obs = torch.from_numpy(np.asarray(env.obs, dtype=np.float32).copy())
        mask = torch.from_numpy(np.asarray(env.legal_mask).astype(bool))
        with torch.no_grad():
            logits = net((obs - mean) / std).masked_fill(~mask, float("-inf"))
        live = ~(env.terminated | env.truncated)
        got = bots.act(env, f"policy:{path}", seed=t)
        top2 = torch.topk(logits, 2, dim=1).values
        clear = (top2[:, 0] - top2[:, 1] > 1e-4) | torch.isinf(top2[:, 1])
        for lane in np.nonzero(live)[0]:
            if clear[lane]:
                assert got[lane] == int(torch.argmax(logits[lane])), (t, lane)
                compared += 1
        sampled = bots.act(env, f"policy:{path},sample=1", seed=t)
        rows = np.nonzero(live)[0]
        assert env.legal_mask[rows, sampled[rows]].all()
        env.step(np.where(sampled < 0, 0, sampled))
    assert compared > 300


def test_a_file_for_another_game_or_configuration_is_refused(tmp_path):
    env = cardvec.make("lost-cities", 4)
    path = str(tmp_path / "lc.safetensors")
    net = network(env.obs_dim, env.num_actions, torch.nn.ReLU, seed=1)
    export_policy(net, path, game="lost-cities", options={"obs_layout": "channel-major"})
    with pytest.raises(ValueError, match="trained with obs_layout=channel-major"):
        bots.act(env, f"policy:{path}")
    kuhn = cardvec.make("kuhn", 4)
    with pytest.raises(ValueError, match="trained on lost-cities, not kuhn"):
        bots.act(kuhn, f"policy:{path}")
    with pytest.raises(ValueError, match="cannot read"):
        bots.act(kuhn, f"policy:{tmp_path / 'missing'}")


@pytest.mark.parametrize("obs_dtype", ["f32", "u8"])
@pytest.mark.parametrize("game_id,options,activation", CASES)
def test_probabilities_equal_pytorchs_masked_softmax(tmp_path, game_id, options, activation, obs_dtype):
    """cardvec.bots.policy_probs (the Rust forward pass and masked softmax that the
    policy bot plays) against PyTorch on the rows Python sees: the f32 rows, or the u8
    compact rows expanded (obs_f32), for each layout; to 1e-5."""
    env = cardvec.make(game_id, 48, seed=3, autoreset=True, obs_dtype=obs_dtype, **options)
    net = network(env.obs_dim, env.num_actions, activation, seed=7 + len(game_id))
    mean = torch.linspace(-0.2, 0.3, env.obs_dim)
    std = torch.linspace(0.4, 1.5, env.obs_dim)
    path = tmp_path / "p.safetensors"
    export_policy(net, str(path), game=game_id, options=options, obs_dtype=obs_dtype,
                  obs_mean=mean, obs_std=std)
    rng = np.random.default_rng(0)
    rows = 0
    for t in range(6):
        obs = env.obs_f32() if obs_dtype == "u8" else np.asarray(env.obs, dtype=np.float32)
        mask = torch.from_numpy(np.asarray(env.legal_mask).astype(bool))
        with torch.no_grad():
            logits = net((torch.from_numpy(obs.copy()) - mean) / std)
            want = torch.softmax(logits.masked_fill(~mask, float("-inf")), dim=1)
        got = bots.policy_probs(env, path)
        assert got.dtype == np.float32 and got.shape == (env.num_envs, env.num_actions)
        live = ~(np.asarray(env.terminated) | np.asarray(env.truncated))
        assert np.abs(got[live] - want.numpy()[live]).max() <= 1e-5, (game_id, t)
        assert not got[~live].any()
        assert not got[~mask.numpy()].any(), "an illegal action has probability"
        # Greedy is the argmax of the probabilities.
        greedy = bots.act(env, f"policy:{path}")
        top2 = np.sort(got, axis=1)[:, -2:]
        clear = live & (top2[:, 1] - top2[:, 0] > 1e-4)
        assert (greedy[clear] == got[clear].argmax(axis=1)).all()
        # A subset of lanes: the others all zero.
        lanes = rng.random(env.num_envs) < 0.5
        sub = bots.policy_probs(env, str(path), lanes=lanes)
        np.testing.assert_array_equal(sub[lanes], got[lanes])
        assert not sub[~lanes].any()
        rows += int(live.sum())
        actions = bots.act(env, "random", seed=t)
        env.step(np.where(actions < 0, 0, actions))
    assert rows > 100


def test_probabilities_of_the_learner_view_and_bad_files(tmp_path):
    env = cardvec.LearnerEnv("lost-cities", 16, opponents="random", seat="rotate", seed=2)
    net = network(env.obs_dim, env.num_actions, torch.nn.ReLU, seed=3)
    path = str(tmp_path / "lc.safetensors")
    export_policy(net, path, game="lost-cities")
    with torch.no_grad():
        logits = net(torch.from_numpy(np.asarray(env.obs).copy()))
        mask = torch.from_numpy(np.asarray(env.legal_mask).astype(bool))
        want = torch.softmax(logits.masked_fill(~mask, float("-inf")), dim=1).numpy()
    got = bots.policy_probs(env, path)
    assert np.abs(got - want).max() <= 1e-5
    kuhn = cardvec.make("kuhn", 4)
    with pytest.raises(ValueError, match="trained on lost-cities, not kuhn"):
        bots.policy_probs(kuhn, path)
    data = open(path, "rb").read()
    (tmp_path / "t.safetensors").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="truncated"):
        bots.policy_probs(env, tmp_path / "t.safetensors")
    with pytest.raises(ValueError, match="cannot read"):
        bots.policy_probs(env, tmp_path / "missing.safetensors")
    with pytest.raises(TypeError):
        bots.policy_probs(env, 3)  # type: ignore[arg-type]


def test_the_151_arena_plays_a_policy_file(tmp_path):
    """`policy:<path>` is an arena opponent: it plays whole matches from a seat's view (every
    action legal: no forfeit), and a file trained with other rules is refused."""
    from cardvec import arena

    env = cardvec.make("151", 4)
    net = network(env.obs_dim, env.num_actions, torch.nn.Tanh, seed=3)
    path = str(tmp_path / "net151.safetensors")
    export_policy(net, path, game="151", options={})
    for opponent in ("builtin:random", "builtin:greedy"):
        r = arena.play_catalog_match(f"policy:{path}", opponent, seed=11, bot_seed=2)
        assert r["reason"] != "forfeit", r
        assert r["steps_played"] > 0
    seven = str(tmp_path / "seven.safetensors")
    export_policy(net, seven, game="151", options={"cards_per_player": 7})
    with pytest.raises(ValueError, match="cards_per_player"):
        arena.play_catalog_match(f"policy:{seven}", "builtin:random", seed=1)


@pytest.mark.parametrize("options,obs_dtype", [({}, "f32"), ({"obs_layout": "channel-major"}, "u8")])
def test_a_key_head_equals_pytorchs_gather_by_the_action_keys(tmp_path, options, obs_dtype):
    """A Lost Cities network with a key head (one logit per card, placement and draw:
    `action_head="keys"`): the Rust probabilities equal PyTorch's masked softmax of the
    logits gathered by `env.action_keys()`, to 1e-5, in the batch and the learner view;
    the keys name the card in each hand slot (read here from the observation)."""
    env = cardvec.make("lost-cities", 32, seed=4, autoreset=True, obs_dtype=obs_dtype, **options)
    learner = cardvec.LearnerEnv("lost-cities", 16, opponents="random", seat="rotate", seed=6,
                                 **options)
    assert env.action_key_count == learner.action_key_count == 720
    net = network(env.obs_dim, env.action_key_count, torch.nn.ReLU, seed=11)
    mean = torch.linspace(-0.2, 0.3, env.obs_dim)
    std = torch.linspace(0.4, 1.5, env.obs_dim)
    path = tmp_path / "keys.safetensors"
    export_policy(net, str(path), game="lost-cities", options=options, obs_dtype=obs_dtype,
                  obs_mean=mean, obs_std=std, action_head="keys")
    rows = 0
    for t in range(6):
        for e in (env, learner):
            obs = e.obs_f32() if e is env and obs_dtype == "u8" else np.asarray(e.obs, np.float32)
            keys = e.action_keys()
            assert keys.dtype == np.int64 and keys.shape == (e.num_envs, 96)
            live = ~(np.asarray(e.terminated) | np.asarray(e.truncated))
            hand = obs[:, :420].reshape(-1, 60, 7)[:, :, 0] if not options \
                else obs[:, :60]
            for lane in np.nonzero(live)[0]:
                cards = np.flatnonzero(hand[lane] == 1.0)
                want = (cards[np.arange(96) // 12] * 12 + np.arange(96) % 12)
                np.testing.assert_array_equal(keys[lane], want)
            mask = torch.from_numpy(np.asarray(e.legal_mask).astype(bool))
            with torch.no_grad():
                logits = net((torch.from_numpy(obs.copy()) - mean) / std)
                logits = logits.gather(1, torch.from_numpy(keys))
                want_p = torch.softmax(logits.masked_fill(~mask, float("-inf")), dim=1)
            got = bots.policy_probs(e, path)
            assert np.abs(got[live] - want_p.numpy()[live]).max() <= 1e-5, t
            greedy = bots.act(e, f"policy:{path}")
            assert np.asarray(e.legal_mask)[live, greedy[live]].all()
            rows += int(live.sum())
            actions = bots.act(e, "random", seed=t)
            e.step(np.where(actions < 0, 0, actions))
    assert rows > 200
    # A game without keys: the action ids, a count of 0, and a key head refused.
    kuhn = cardvec.make("kuhn", 3)
    assert kuhn.action_key_count == 0
    np.testing.assert_array_equal(kuhn.action_keys(), np.tile(np.arange(2), (3, 1)))
    kpath = str(tmp_path / "kuhn.safetensors")
    export_policy(network(kuhn.obs_dim, 2, torch.nn.ReLU, seed=1), kpath, game="kuhn",
                  action_head="keys")
    with pytest.raises(ValueError, match="kuhn names no action keys"):
        bots.act(kuhn, f"policy:{kpath}")
    with pytest.raises(ValueError, match="action_head"):
        export_policy(net, kpath, game="kuhn", action_head="cards")
