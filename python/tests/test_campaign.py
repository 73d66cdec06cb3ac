"""cardvec.campaign: shards merge exactly (any shard size, in one process or on a simulated
Ray cluster of several nodes, with a node killed mid-run), a planted mismatch is reported
with its game index and reproduction command, finished shards are skipped on a rerun, and
bad input is refused before anything runs. Small runs only (seconds each)."""

import importlib.util
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from cardvec import campaign
from cardvec._cardvec import campaign as native


def strip(summary):
    """Everything a run's games decide (all but the timing)."""
    return {k: v for k, v in summary.items() if k != campaign.TIMING}


def local(kind, game, games, shard, **kw):
    return campaign.run(kind, game, games=games, shard=shard, progress=False, **kw)


# ------------------------------------------------------------------ in one process


@pytest.mark.parametrize("game, games", [("151", 240), ("kuhn", 240), ("flip7", 120)])
def test_diff_merges_exactly_whatever_the_shard_size(game, games):
    whole = local("diff", game, games, games)
    assert whole["games"] == games and whole["actions"] > games and whole["mismatches"] == []
    for shard in (1 if game == "kuhn" else 17, 100):
        assert strip(local("diff", game, games, shard)) == strip(whole)
    # The shard of the Rust engine is a slice of the run: the two halves add up.
    a, b = native.diff_shard(game, 0, 0, 100), native.diff_shard(game, 0, 100, games - 100)
    assert a["actions"] + b["actions"] == whole["actions"]
    assert a["rejected"] + b["rejected"] == whole["rejected"]


def test_diff_summary_lines_are_cardvec_diffs():
    summary = local("diff", "kuhn", 300, 70, seed=3)
    line = campaign.KINDS["diff"].lines(summary)[0]
    binary = os.environ.get("CARDVEC_BIN") or shutil.which("cardvec")
    expected_prefix = (
        f"game=kuhn games=300 seed=3 actions={summary['actions']} "
        f"rejected_probes={summary['rejected']} mismatched_games=0 elapsed="
    )
    assert line.startswith(expected_prefix)
    if binary:
        out = subprocess.run([binary, "diff", "kuhn", "--games", "300", "--seed", "3", "--quiet"],
                             capture_output=True, text=True, check=True).stdout
        assert out.startswith(expected_prefix), out


def test_a_planted_mismatch_is_reported_with_its_game_and_reproduction():
    summary = local("diff", "151", 120, 25, seed=9, plant_mismatch_game=77)
    assert summary["failed_games"] == 1
    [m] = summary["mismatches"]
    assert (m["game"], m["step"], m["what"]) == (77, 0, native.PLANTED)
    assert m["reproduce"] == "cardvec diff 151 --seed 9 --first 77 --games 1"
    lines = campaign.KINDS["diff"].lines(summary)
    assert any(line.startswith("MISMATCH game=77 step=0") for line in lines)
    # The merged summary does not depend on the shard size with a mismatch either.
    assert strip(local("diff", "151", 120, 120, seed=9, plant_mismatch_game=77)) == strip(summary)


def test_match_merges_exactly_and_agrees_with_the_game_order():
    whole = local("match", "lost-cities", 120, 120, seed=2)
    assert strip(local("match", "lost-cities", 120, 13, seed=2)) == strip(whole)
    names = [s["bot"] for s in whole["standings"]]
    assert names == ["safe-heuristic", "random"]
    assert sum(s["seats"] for s in whole["standings"]) == 240
    three = local("match", "flip7", 60, 7, bots="random,expected-value", num_players=3)
    assert strip(three) == strip(local("match", "flip7", 60, 60, bots=["random", "expected-value"],
                                       num_players=3))
    assert three["tally"]["games"] == 60


def test_arena_ladder_merges_exactly():
    bots = ["builtin:random", "builtin:greedy", "builtin:medium"]
    whole = local("arena-ladder", "151", 6, 6, bots=bots)
    assert strip(local("arena-ladder", "151", 6, 4, bots=bots)) == strip(whole)
    assert [(p["a"], p["b"]) for p in whole["pairs"]] == [
        (bots[0], bots[1]), (bots[1], bots[2]), (bots[0], bots[2])]
    assert whole["elo"][bots[0]] == 1000.0


def test_ladder_merges_exactly_and_is_cardvec_ladders_report():
    bots = ["random", "pimc:sims=2", "ismcts:iters=4"]
    whole = local("ladder", "kuhn", 8, 1000, bots=bots, seed=5)
    report = whole["report"]
    assert whole["units"] == 3 * 4 and report["units_done"] == 12 and report["games"] == 24
    assert [b["bot"] for b in report["bots"]] == bots
    assert report["model"] == "Bradley-Terry" and report["bots"][0]["rating"]["rating"] == 1000
    assert "timing" not in report
    for shard in (1, 5):
        assert strip(local("ladder", "kuhn", 8, shard, bots=",".join(bots), seed=5)) == strip(whole)
    # Three seats: tables drawn from the pool, Plackett-Luce; the engine's own shard and
    # report give the same standings.
    three = local("ladder", "flip7", 9, 2, bots=["random", "threshold-20", "expected-value"],
                  num_players=3)
    assert three["units"] == 3 and three["report"]["model"] == "Plackett-Luce"
    spec, units = native.ladder_spec("flip7", ["random", "threshold-20", "expected-value"], 9,
                                     options={"num_players": 3})
    assert units == 3
    lines = native.ladder_shard(spec, 0, 3)
    assert json.loads(native.ladder_report(spec, lines[::-1])) == three["report"]
    binary = os.environ.get("CARDVEC_BIN") or shutil.which("cardvec")
    if binary:
        out = subprocess.run([binary, "ladder", "kuhn", "--bots", ",".join(bots), "--games", "8",
                              "--seed", "5", "--json", "-q"],
                             capture_output=True, text=True, check=True).stdout
        assert json.loads(out) == report
    assert campaign.KINDS["ladder"].lines(whole)[0].startswith("game=kuhn seed=5 deals=12/12")
    # A name with several options in a comma-separated list, as `cardvec ladder --bots`.
    two = local("ladder", "kuhn", 2, 1, bots="random,pimc:sims=2,playout=always-bet")
    assert two["report"]["spec"]["bots"] == ["random", "pimc:sims=2,playout=always-bet"]


@pytest.mark.parametrize("game, games, count", [
    ("151", 12, "matches"), ("holdem", 60, "hands"), ("flip7", 20, "games")])
def test_oracle_merges_exactly(game, games, count):
    whole = local("oracle", game, games, games)
    assert whole["mismatches"] == [] and whole["failed_shards"] == []
    assert whole[count] == games
    assert strip(local("oracle", game, games, 5)) == strip(whole)


@pytest.mark.parametrize("game, games", [("kuhn", 60), ("leduc", 40)])
def test_openspiel_oracle_merges_exactly_and_reports_a_planted_difference(game, games,
                                                                          monkeypatch):
    pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) is the oracle")
    from cardvec.oracles import openspiel

    whole = local("oracle", game, games, games, seed=3)
    assert whole["mismatches"] == [] and whole["failed_shards"] == []
    assert whole["games"] == games and whole["steps"] >= games and whole["dealt"] >= 2 * games
    assert sum(whole["endings"].values()) == games and len(whole["endings"]) >= 3
    assert strip(local("oracle", game, games, 7, seed=3)) == strip(whole)
    assert strip(local("oracle", game, games, games, seed=4)) != strip(whole)
    # A game depends on its seed and index only.
    assert openspiel.deal(game, 3, 17)[0] == openspiel.deal(game, 3, 17)[0]
    one, before, both = (openspiel.replay_range(game, 3, f, n) for f, n in
                         ((17, 1), (10, 7), (10, 8)))
    assert one.steps + before.steps == both.steps and one.games == 1

    # A wrong information-state string for one seat is reported with its game index.
    real = openspiel.info_state_string(game)
    monkeypatch.setattr(openspiel, "info_state_string",
                        lambda g: lambda obs, p, r: real(obs, p, r) + ("x" if obs[0] else ""))
    bad = local("oracle", game, 6, 4, seed=3)
    assert [m["game"] for m in bad["mismatches"]] == list(range(6))
    m = bad["mismatches"][0]
    assert "seat 0 information state" in m["what"] and "openspiel.replay_range" in m["reproduce"]


def test_holdem_eval_oracle_merges_exactly_and_reports_a_planted_difference(monkeypatch):
    pytest.importorskip("phevaluator")
    from cardvec.oracles import holdem_eval

    whole = local("oracle", "holdem-eval", 3000, 3000, seed=2)
    assert whole["mismatches"] == [] and whole["failed_shards"] == []
    assert whole["hands"] == 3000 and whole["cards"] == {"5": 1000, "6": 1000, "7": 1000}
    assert sum(whole["categories"].values()) == 3000 and len(whole["categories"]) >= 7
    assert strip(local("oracle", "holdem-eval", 3000, 700, seed=2)) == strip(whole)
    assert len(set(map(tuple, (holdem_eval.hand(2, g) for g in range(3, 9))))) == 6
    assert [len(holdem_eval.hand(2, g)) for g in range(6)] == [5, 6, 7, 5, 6, 7]

    # phevaluator's rank of one hand off by one: reported with that hand's index.
    real = holdem_eval.phevaluator_rank
    planted = holdem_eval.hand(2, 1234)
    monkeypatch.setattr(holdem_eval, "phevaluator_rank",
                        lambda cards: real(cards) + (cards == planted))
    bad = local("oracle", "holdem-eval", 3000, 700, seed=2)
    assert [(m["game"], m["what"].split(" != ")[0]) for m in bad["mismatches"]] == [
        (1234, f"rank {real(planted)}")]
    assert "holdem_eval.replay_range(2, 1234, 1)" in bad["mismatches"][0]["reproduce"]


def test_rollouts_write_npz_shards_a_learner_reads(tmp_path):
    summary = local("rollouts", "kuhn", 48, 16, out=tmp_path, steps=20)
    assert summary["transitions"] == 48 * 20 and summary["episodes"] > 0
    shards = list(campaign.read_rollouts(tmp_path))
    assert len(shards) == 3
    s = shards[0]
    assert s["obs"].shape[:2] == (20, 16) and s["obs"].dtype == np.float32
    assert s["actions"].shape == (20, 16) and s["dones"].dtype == bool
    assert s["legal_mask"].shape[:2] == (20, 16) and s["rewards"].shape == (20, 16, 2)
    # Every action taken was legal where the game was live.
    t, n = np.nonzero(s["actions"] >= 0)
    assert s["legal_mask"][t, n, s["actions"][t, n]].all()


def test_resume_skips_finished_shards_and_refuses_another_campaign(tmp_path):
    first = local("diff", "kuhn", 200, 50, out=tmp_path)
    assert first["timing"]["shards_run"] == 4
    log = tmp_path / "shards.jsonl"
    lines = log.read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["kind"] == "diff"
    log.write_text("\n".join(lines[:2]) + "\n" + lines[2][:10])  # a crash cut line 3
    again = local("diff", "kuhn", 200, 50, out=tmp_path)
    assert again["timing"]["shards_skipped"] == 2 and again["timing"]["shards_run"] == 2
    assert strip(again) == strip(first)
    with pytest.raises(ValueError, match="another campaign.*seed"):
        local("diff", "kuhn", 200, 50, out=tmp_path, seed=1)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: local("nope", "kuhn", 10, 5), "unknown campaign kind 'nope'"),
        (lambda: local("diff", "nope", 10, 5), "unknown game 'nope'"),
        (lambda: local("diff", "kuhn", 0, 5), "games must be >= 1, got 0"),
        (lambda: local("diff", "kuhn", -3, 5), "games must be >= 1, got -3"),
        (lambda: local("diff", "kuhn", 10, 0), "shard must be >= 1, got 0"),
        (lambda: local("match", "kuhn", 10, 5, bots="nobot"), "nobot"),
        (lambda: local("diff", "flip7", 10, 5, num_players=99), "99"),
        (lambda: local("oracle", "lost-cities", 10, 5),
         "no oracle for game 'lost-cities'|unknown game 'lost-cities'"),
        (lambda: local("diff", "holdem-eval", 10, 5), "unknown game 'holdem-eval'"),
        (lambda: local("rollouts", "kuhn", 10, 5), "out="),
        (lambda: local("ladder", "kuhn", 10, 5), "bots"),
        (lambda: local("ladder", "kuhn", 10, 5, bots="random,nobot"), "nobot"),
        (lambda: local("ladder", "kuhn", 10, 5, bots="random,pimc:ms=0"), "ms must be"),
        (lambda: local("ladder", "kuhn", 10, 5, bots="random,random"), "random"),
        (lambda: local("ladder", "kuhn", 10, 5, bots="random,pimc", seats=2), "seats"),
        (lambda: local("ladder", "kuhn", 10, 5, bots="random,pimc", first=3), "first must be 0"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_value(call, match, tmp_path):
    with pytest.raises(ValueError, match=match):
        call()


def test_a_failing_shard_is_reported_with_its_range_not_retried(monkeypatch):
    real = campaign.KINDS["diff"].run_shard

    def failing(game_id, seed, label, first, count, options, threads, out):
        if first == 40:
            raise RuntimeError("engine error")
        return real(game_id, seed, label, first, count, options, threads, out)

    monkeypatch.setattr(campaign.KINDS["diff"], "run_shard", failing)
    summary = local("diff", "kuhn", 100, 20)
    [f] = summary["failed_shards"]
    assert (f["first"], f["count"]) == (40, 20) and "engine error" in f["error"]
    assert f["reproduce"] == "cardvec diff kuhn --seed 0 --first 40 --games 20"
    assert summary["games"] == 80
    assert campaign.main(["diff", "kuhn", "--games", "100", "--shard", "20", "--quiet"]) == 1


def test_the_console_script_prints_the_summary(capsys):
    assert campaign.main(["diff", "kuhn", "--games", "90", "--shard", "40", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("game=kuhn games=90 seed=0 actions=")
    assert campaign.main(["diff", "kuhn", "--games", "0", "--quiet"]) == 2
    assert "games must be >= 1, got 0" in capsys.readouterr().err


# ------------------------------------------------------------------ on a simulated Ray cluster

def on_ray(cluster, kind, game, games, shard, **kw):
    return campaign.run(kind, game, games=games, shard=shard, progress=False,
                        address=cluster.address, **kw)


def test_on_a_simulated_ray_cluster(monkeypatch):
    """One cluster for every check (pytest-xdist may run tests in two processes; one test
    keeps one cluster on the machine): 2 nodes of 1 CPU, then a third node removed after
    the first shard of a run finishes."""
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)

        # The merged results equal the single-process results, for any shard size.
        single = local("diff", "151", 200, 200, seed=5)
        for shard in (30, 200):
            summary = on_ray(cluster, "diff", "151", 200, shard, seed=5)
            assert strip(summary) == strip(single)
            assert summary["timing"]["nodes"] == 2 and summary["timing"]["cpus_per_shard"] == 1
        match = local("match", "lost-cities", 90, 90)
        assert strip(on_ray(cluster, "match", "lost-cities", 90, 11)) == strip(match)
        oracle = local("oracle", "151", 8, 8)
        assert strip(on_ray(cluster, "oracle", "151", 8, 3)) == strip(oracle)
        # The OpenSpiel and phevaluator oracles too (when installed, as on CI).
        for game, games, shard, engine in (("leduc", 30, 8, "pyspiel"),
                                           ("holdem-eval", 900, 250, "phevaluator")):
            if importlib.util.find_spec(engine) is not None:
                oracle = local("oracle", game, games, games, seed=1)
                assert oracle["mismatches"] == []
                assert strip(on_ray(cluster, "oracle", game, games, shard, seed=1)) == strip(oracle)

        # A planted mismatch comes back with its game index and command.
        summary = on_ray(cluster, "diff", "kuhn", 300, 40, seed=4, plant_mismatch_game=211)
        assert [(m["game"], m["what"]) for m in summary["mismatches"]] == [(211, native.PLANTED)]
        assert summary["mismatches"][0]["reproduce"] == (
            "cardvec diff kuhn --seed 4 --first 211 --games 1")

        # A node removed mid-run: its shards are run again elsewhere, the result is the same.
        single = local("diff", "151", 300, 300, seed=6)
        node = cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        update = campaign._Progress.update
        killed = []

        def kill_after_first_shard(self, games):
            update(self, games)
            if not killed:
                killed.append(True)
                cluster.remove_node(node)

        monkeypatch.setattr(campaign._Progress, "update", kill_after_first_shard)
        summary = on_ray(cluster, "diff", "151", 300, 20, seed=6)
        assert killed
        assert summary["failed_shards"] == []
        assert strip(summary) == strip(single)
        assert summary["timing"]["nodes"] == 2  # the third node is gone
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_importing_cardvec_and_running_in_process_need_no_ray():
    code = (
        "import sys, cardvec, cardvec.campaign as c\n"
        "s = c.run('diff', 'kuhn', games=10, shard=5, progress=False)\n"
        "assert s['games'] == 10 and 'ray' not in sys.modules, sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
