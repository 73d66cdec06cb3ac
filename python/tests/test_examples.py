"""The examples that learn (examples/ppo_*.py) run end to end at a tiny size and write their
outputs. Learning itself is not asserted (a threshold at this size would be noise); the
full-size figures are in docs/python.md. Skipped without PyTorch or matplotlib."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
pytest.importorskip("matplotlib", reason="matplotlib is not installed")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
TINY = ["--minutes", "30", "--max-updates", "2", "--envs", "12", "--steps", "8",
        "--eval-games", "24", "--curve-games", "6", "--eval-every-updates", "1", "--seed", "3"]


@pytest.mark.parametrize(
    "script,opponents,extra",
    [
        ("ppo_lost_cities.py", ["random", "safe-heuristic"], []),
        ("ppo_flip7.py", ["random+random", "threshold-27+expected-value",
                          "expected-value+expected-value"], ["--win-reward", "1"]),
    ],
)
def test_example_runs_and_writes_its_outputs(tmp_path, script, opponents, extra):
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, script), *TINY, *extra, "--out", str(out)],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "learner steps/s" in proc.stdout and "env share" in proc.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert list(summary["final"]) == opponents
    assert summary["config"]["win_reward"] == (1.0 if extra else 0.0)
    for name, r in summary["final"].items():
        assert r["games"] == 24, name
        assert 0.0 <= r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] <= 1.0, name
        assert f"vs {name}" in proc.stdout
    perf = summary["throughput"]
    assert perf["updates"] == 2 and perf["learner_steps"] == 2 * 12 * 8
    assert 0.0 < perf["env_share"] < 1.0 and perf["learner_steps_per_s"] > 0
    assert len(summary["history"]) == 2 and len(summary["evals"]) == 2
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    saved = torch.load(out / "model.pt", weights_only=False)
    assert saved["game_id"] == summary["game"] and "agent" in saved and "norm" in saved
    assert_policy_file_plays_as_the_agent(out, summary["game"], summary["options"])


def assert_policy_file_plays_as_the_agent(out, game_id, options):
    """The exported ``policy.safetensors`` (ppo_common.export) plays in Rust as the saved
    agent plays in PyTorch: its probabilities equal the agent's masked softmax (the
    observation normalization and its clip at 10 included)."""
    sys.path.insert(0, EXAMPLES)
    import ppo_common as kit

    import cardvec
    from cardvec import bots

    saved = torch.load(out / "model.pt", weights_only=False)
    cfg = saved["config"]
    env = cardvec.make(game_id, 32, seed=9, autoreset=True, **(options or {}))
    agent = kit.Agent(env.obs_dim, env.num_actions, cfg["hidden"], cfg["layers"])
    agent.load_state_dict(saved["agent"])
    norm = kit.ObsNorm(env.obs_dim)
    norm.mean, norm.var = saved["norm"]["mean"], saved["norm"]["var"]
    path = out / "policy.safetensors"
    for t in range(10):
        obs = torch.from_numpy(np.asarray(env.obs).copy())
        mask = torch.from_numpy(np.asarray(env.legal_mask).astype(bool))
        with torch.no_grad():
            logits, _ = agent(norm(obs), mask)
            want = torch.softmax(logits, 1).numpy()
        live = ~(env.terminated | env.truncated)
        got = bots.policy_probs(env, path)
        assert np.abs(got[live] - want[live]).max() < 1e-4, t
        actions = bots.act(env, f"policy:{path}")
        env.step(np.where(actions < 0, 0, actions))


def test_selfplay_example_runs_with_its_pool_and_ratings(tmp_path):
    out = tmp_path / "run"
    args = ["--minutes", "30", "--max-updates", "4", "--envs", "12", "--steps", "32",
            "--eval-games", "24", "--curve-games", "6", "--eval-every-updates", "2",
            "--snapshot-every", "2", "--ladder-games", "4", "--seed", "3"]
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "selfplay_lost_cities.py"), *args,
         "--out", str(out)],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert list(summary["final"]) == ["random", "safe-heuristic"]
    assert summary["throughput"]["updates"] == 4
    ckpts = sorted(os.listdir(out / "checkpoints"))
    assert ckpts == ["ckpt_00002.safetensors", "ckpt_00004.safetensors"]
    assert len(summary["checkpoints"]) == 2
    # The pool grew with the checkpoints; every weight positive.
    last = summary["pool_log"][-1]["pool"]
    assert set(last) == {"random", "discard-only", "safe-heuristic", *summary["checkpoints"]}
    assert all(w > 0 for w in last.values())
    # Whole games were played and tallied per opponent (12 lanes x 128 steps: a Lost
    # Cities game takes about 45 decisions).
    assert sum(summary["games_vs"].values()) >= 12
    assert set(summary["games_vs"]) <= set(last)
    report = json.loads((out / "ratings.json").read_text())
    assert len(report["bots"]) == 3 + 2 + 1
    assert "| bot | rating |" in (out / "ratings.txt").read_text()
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert_policy_file_plays_as_the_agent(out, "lost-cities", {})


def test_win_share_splits_ties_and_ignores_unfinished_lanes():
    sys.path.insert(0, EXAMPLES)
    try:
        import ppo_common
    finally:
        sys.path.remove(EXAMPLES)
    totals = torch.tensor([[200.0, 150.0, 90.0],    # seat 0 wins alone
                           [120.0, 210.0, 210.0],   # seats 1 and 2 tie
                           [120.0, 210.0, 210.0],
                           [5.0, 1.0, 0.0]])        # not finished
    seat = torch.tensor([0, 1, 0, 0], dtype=torch.int32)
    finished = torch.tensor([True, True, True, False])
    share = ppo_common.win_share(totals, seat, finished)
    assert share.tolist() == [1.0, 0.5, 0.0, 0.0]


@pytest.mark.parametrize("extra", [
    ["--head", "actions", "--teacher", ""],
    ["--teacher", "pimc:sims=2,playout=safe-heuristic,halving=1", "--soft", "0",
     "--search-share", "0.5"],
    ["--teacher", "pimc:sims=2,playout=safe-heuristic", "--soft", "2", "--search-share", "0.5"],
], ids=["actions-margin", "keys-teacher", "keys-soft"])
def test_imitation_example_runs_its_dagger_rounds(tmp_path, extra):
    """examples/imitate_lost_cities.py at a tiny size: round 0 labelled by safe-heuristic,
    one DAgger round (the network playing, the first round's network in the opponent pool)
    labelled by the heuristic and, on the searched states, the softmax of the teacher's
    action values (the default, with a key head: a network scoring cards), the teacher's
    moves, or the search-corrected heuristic (one output per action); the best round's file
    is the policy file, and it plays legal moves in Rust."""
    import cardvec

    out = tmp_path / "run"
    args = ["--envs", "8", "--warm-steps", "3", "--rounds", "1", "--steps", "3", "--sims", "1",
            "--hidden", "16", "--epochs", "1", "--batch", "8", "--select-games", "6",
            "--seed", "3", *extra]
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "imitate_lost_cities.py"), *args,
         "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    rounds = summary["rounds"]
    assert [r["round"] for r in rounds] == [0, 1]
    # No game ends within the first three decisions: every lane is labelled every step.
    assert [r["labels"] for r in rounds] == [24, 24]
    assert [r["dataset"] for r in rounds] == [24, 48]
    assert rounds[0]["corrected"] == 0 and 0 <= rounds[1]["corrected"] <= 24
    # With --soft 2 the searched states of round 1, and only they, have soft targets.
    soft = "--soft" in extra and extra[extra.index("--soft") + 1] != "0"
    assert rounds[0]["soft_targets"] == 0
    assert (0 < rounds[1]["soft_targets"] < 24) if soft else rounds[1]["soft_targets"] == 0
    assert all(r["select"]["games"] == 6 for r in rounds)
    best = out / f"round_{summary['best_round']}.safetensors"
    assert (out / "policy.safetensors").read_bytes() == best.read_bytes()
    raw = best.read_bytes()  # the safetensors header: its length, then JSON
    header = json.loads(raw[8:8 + int.from_bytes(raw[:8], "little")])
    keyed = "actions" not in extra
    assert header["__metadata__"].get("action_head", "actions") == ("keys" if keyed else "actions")
    assert header["layers.1.weight"]["shape"] == ([720, 16] if keyed else [96, 16])
    env = cardvec.LearnerEnv("lost-cities", 16, opponents="safe-heuristic", seat="rotate",
                             seed=5)
    env.reset()
    for _ in range(40):
        actions = cardvec.bots.act(env, f"policy:{out / 'policy.safetensors'}")
        live = ~(env.terminated | env.truncated)
        assert ((actions >= 0) == live).all()
        mask = env.legal_mask.astype(bool)
        assert mask[np.arange(16), actions][live].all()
        env.step(np.where(live, actions, 0))
        assert (env.illegal[live] == 0).all()


def test_the_imitation_labels_correct_the_heuristic_by_a_margin():
    """The corrected heuristic of examples/imitate_lost_cities.py: the heuristic's move
    unless the search's best beats it by more than the margin (NaN: illegal)."""
    sys.path.insert(0, EXAMPLES)
    import imitate_lost_cities as im

    nan = np.nan
    values = np.array([[1.0, 5.0, nan], [1.0, 3.9, nan], [nan, 2.0, 9.0], [4.0, nan, 4.0]],
                      dtype=np.float32)
    heuristic = np.array([0, 0, 1, 2])
    np.testing.assert_array_equal(im.expert_labels(values, heuristic, 3.0), [1, 0, 2, 2])
    np.testing.assert_array_equal(im.expert_labels(values, heuristic, 10.0), heuristic)


def test_flip7_imitation_example_runs_its_dagger_rounds(tmp_path):
    """examples/imitate_flip7.py at a tiny size (the loop of examples/dagger.py, shared with
    the Lost Cities example): round 0 played and labelled by the search, one DAgger round
    played by the network; the best round's file is the policy file, made for 3-seat Flip 7,
    and it plays legal moves in Rust against the two bots."""
    import cardvec

    out = tmp_path / "run"
    args = ["--envs", "9", "--warm-steps", "3", "--rounds", "1", "--steps", "3", "--sims", "2",
            "--hidden", "16", "--epochs", "1", "--batch", "8", "--select-games", "6",
            "--seed", "3"]
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "imitate_flip7.py"), *args,
         "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    rounds = summary["rounds"]
    assert [r["round"] for r in rounds] == [0, 1]
    assert summary["options"] == {"num_players": 3}
    assert summary["search"].startswith("pimc:sims=2,")
    # Every round labels at most one state per lane and step, and the aggregate grows.
    assert all(0 < r["labels"] <= 27 for r in rounds)
    assert rounds[1]["dataset"] == rounds[0]["labels"] + rounds[1]["labels"]
    assert all(r["select"]["games"] == 6 for r in rounds)
    assert all(0.0 <= r["select"]["win_rate"] <= 1.0 for r in rounds)
    best = out / f"round_{summary['best_round']}.safetensors"
    assert (out / "policy.safetensors").read_bytes() == best.read_bytes()
    env = cardvec.LearnerEnv("flip7", 12, opponents=["expected-value", "expected-value"],
                             seat="rotate", seed=5, num_players=3)
    env.reset()
    for _ in range(60):
        actions = cardvec.bots.act(env, f"policy:{out / 'policy.safetensors'}")
        live = ~(env.terminated | env.truncated)
        assert ((actions >= 0) == live).all()
        mask = env.legal_mask.astype(bool)
        assert mask[np.arange(12), actions][live].all()
        env.step(np.where(live, actions, 0))
        assert (env.illegal[live] == 0).all()


def test_the_flip7_imitation_labels_are_the_search_bots_moves():
    """The labels of examples/imitate_flip7.py are the moves `bots.act` plays with the same
    search bot and seed: the first legal action of highest value."""
    sys.path.insert(0, EXAMPLES)
    import imitate_flip7 as im

    import cardvec

    nan = np.nan
    values = np.array([[0.2, 0.3, nan], [0.5, 0.5, nan], [nan, nan, 0.1]], dtype=np.float32)
    np.testing.assert_array_equal(im.dagger.search_labels(values), [1, 0, 2])
    np.testing.assert_allclose(im.dagger.value_gaps(values), [0.1, 0.0, 0.0], atol=1e-7)
    with pytest.raises(ValueError, match="weighting"):
        im.search_expert("pimc:sims=1", "regret")
    env = cardvec.LearnerEnv("flip7", 6, opponents=["expected-value", "expected-value"],
                             seat="rotate", seed=2, num_players=3)
    env.reset()
    search = "pimc:sims=4,playout=expected-value,value=win,crn=1,horizon=1"
    for step in range(4):
        live = ~(env.terminated | env.truncated)
        labels, changed, weights, soft = im.search_expert(search)(env, live, 1, 40 + step)
        assert soft is None
        assert changed == 0 and weights is None
        played = cardvec.bots.act(env, search, seed=40 + step)
        np.testing.assert_array_equal(labels[live], played[live])
        _, _, gaps, _ = im.search_expert(search, "gap")(env, live, 1, 40 + step)
        values = cardvec.bots.action_values(env, search, lanes=live, seed=40 + step)
        best = np.nanmax(values[live], axis=1)
        assert (gaps[live] >= 0).all() and (gaps[live] <= best + 1e-6).all()
        env.step(np.where(live, played, 0))


def test_the_learner_share_splits_ties():
    """examples/dagger.py's selection measure: the learner's share of the win from the
    learner view's seat totals (k tied leaders get 1/k each)."""
    sys.path.insert(0, EXAMPLES)
    import dagger

    class View:
        seat_returns = np.array([[5.0, 3.0, 1.0], [4.0, 4.0, 0.0], [1.0, 2.0, 2.0],
                                 [3.0, 3.0, 3.0]])
        seat = np.array([0, 1, 0, 2])

    shares = dagger.learner_share(View(), np.arange(4))  # type: ignore[arg-type]
    np.testing.assert_allclose(shares, [1.0, 0.5, 0.0, 1 / 3])


def test_soft_targets_are_the_softmax_of_the_legal_values():
    """examples/dagger.py's soft targets: ``exp((v - max v) / T)`` over the legal actions
    (NaN: illegal, probability 0), rows summing to 1, a row of NaN (not searched) kept NaN;
    a higher temperature spreads the mass."""
    sys.path.insert(0, EXAMPLES)
    import dagger

    nan = np.nan
    values = np.array([[1.0, 3.0, nan], [nan, nan, nan], [5.0, 5.0, 5.0]], dtype=np.float32)
    p = dagger.soft_targets(values, 2.0)
    e = np.exp(-1.0)
    np.testing.assert_allclose(p[0], [e / (1 + e), 1 / (1 + e), 0.0], rtol=1e-6)
    assert np.isnan(p[1]).all()
    np.testing.assert_allclose(p[2], [1 / 3] * 3, rtol=1e-6)
    assert dagger.soft_targets(values, 10.0)[0, 0] > p[0, 0]


def test_one_hot_soft_targets_train_as_the_hard_labels():
    """examples/dagger.py's training: a state whose soft target is its label's one-hot
    trains exactly as the hard label does (the same loss, the same weights after training),
    and a soft target elsewhere changes the result."""
    sys.path.insert(0, EXAMPLES)
    import argparse

    import dagger

    rng = np.random.default_rng(4)
    n, dim, acts = 64, 6, 5
    obs = rng.normal(size=(n, dim)).astype(np.float16)
    masks = rng.random((n, acts)) < 0.7
    masks[:, 0] = True
    labels = np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)
    weights = np.ones(n, np.float32)
    args = argparse.Namespace(lr=1e-2, weight_decay=0.0, epochs=2, batch=16, max_batches=100)
    rows = np.where(np.arange(n) % 3 == 0, np.arange(n) // 3, -1).astype(np.int32)
    one_hot = np.eye(acts, dtype=np.float16)[labels[::3]]
    other = np.where(masks[::3], 1.0, 0.0)
    other = (other / other.sum(1, keepdims=True)).astype(np.float16)

    def fit(soft_rows=None, soft=None):
        torch.manual_seed(0)
        net = dagger.make_net(dim, [8], acts)
        report = dagger.train(net, obs, masks, labels, weights, torch.zeros(dim),
                              torch.ones(dim), args, torch.Generator().manual_seed(1),
                              soft_rows=soft_rows, soft=soft)
        return report, torch.cat([q.detach().flatten() for q in net.parameters()])

    hard, w_hard = fit()
    same, w_same = fit(rows, one_hot)
    moved, w_moved = fit(rows, other)
    assert abs(hard["loss"] - same["loss"]) < 1e-5
    torch.testing.assert_close(w_hard, w_same, rtol=1e-5, atol=1e-6)
    assert not torch.allclose(w_hard, w_moved)


def test_teacher_noise_script_measures_two_seeds():
    """scripts/teacher_noise.py (the figures behind the soft targets of
    examples/imitate_lost_cities.py) at a tiny size: two seeds of a search's values on the
    same states, its agreement and total variations in range, a softmax's total variation
    never above the argmaxes' at the largest temperature, and the same figures again from
    the same seeds."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import teacher_noise

    args = ["--teacher", "pimc:sims=2,playout=safe-heuristic", "--lanes", "12", "--depth", "3",
            "--temperatures", "2", "1000", "--threads", "1"]
    out = teacher_noise.main(args)
    assert out["states"] == 12 and out["legal_actions_mean"] > 1
    assert 0 <= out["argmax_agreement"] <= 1
    assert out["argmax_tv"] == pytest.approx(1 - out["argmax_agreement"])
    assert out["value_noise"] > 0 and out["value_spread"] > 0
    assert all(0 <= v <= 1 for v in out["soft_tv"].values())
    assert out["soft_tv"][1000.0] <= out["argmax_tv"]
    assert teacher_noise.main(args) == out
