"""PHH hand histories written by cardvec (`cardvec trace holdem --phh-dir`) load in pokerkit
0.7 (`HandHistory.load`) and replay, state by state, to the finishing stacks cardvec wrote,
hands decided at the deal (no player action but the showdown) included.
"""
import os
import subprocess
import warnings

import pytest
from pokerkit import HandHistory

import holdem_pokerkit_oracle as oracle

HANDS = int(os.environ.get("HOLDEM_PHH_HANDS", "2000"))


@pytest.fixture(scope="module")
def phh_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("phh")
    subprocess.run([oracle.cardvec_bin(), "trace", "holdem", "--hands", str(HANDS), "--seed", "3",
                    "--phh-dir", str(out)], check=True, capture_output=True)
    return out


def test_cardvec_phh_files_replay_in_pokerkit_to_the_same_stacks(phh_dir):
    """Every file replays to cardvec's finishing stacks, except where pokerkit's own payout
    merges pots after killing hands and moves an odd chip (see holdem_pokerkit_oracle.py):
    there the stacks before the payout must still agree, and the count stays small."""
    files = sorted(phh_dir.glob("*.phh"))
    assert len(files) == HANDS
    seats = set()
    merged_odd_chip = 0
    decided_at_deal = 0
    for path in files:
        with open(path, "rb") as f, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pokerkit warns on user-defined fields of other tools
            hh = HandHistory.load(f)
            # pokerkit yields one State object, mutated: keep the pots of the last live step.
            live_pots = None
            for state in hh:
                if state.status:
                    live_pots = list(state.pots)
        assert not state.status, path.name
        assert sum(hh.finishing_stacks) == sum(hh.starting_stacks)
        # Hands decided at the deal: nobody folds, checks, calls or bets.
        decided_at_deal += not any(a.split()[1] in ("f", "cc", "cbr") for a in hh.actions
                                   if a.startswith("p"))
        seats.add(len(hh.starting_stacks))
        if list(state.stacks) == list(hh.finishing_stacks):
            continue
        # Explain the difference from the pots once betting was over (the state before the
        # last deal or show) and the hands.
        n = len(hh.starting_stacks)
        pots = live_pots
        holes = [None] * n
        for a in hh.actions:
            w = a.split()
            if w[:2] == ["d", "dh"]:
                holes[int(w[2][1:]) - 1] = w[3]
        board = hh.user_defined_fields["_cardvec_board"]
        separate, merged = oracle.settlements(holes, board, pots, n)
        assert [hh.finishing_stacks[i] - separate[i] for i in range(n)] == \
            [state.stacks[i] - merged[i] for i in range(n)], path.name
        assert separate != merged, path.name
        merged_odd_chip += 1
    assert seats == {2, 3, 6, 10}
    assert merged_odd_chip < HANDS // 100
    assert decided_at_deal > HANDS // 100  # played out at the deal, in pokerkit as well


def test_a_wrong_finishing_stack_would_be_caught(phh_dir):
    path = sorted(phh_dir.glob("*.phh"))[0]
    text = path.read_text()
    line = next(x for x in text.splitlines() if x.startswith("finishing_stacks"))
    values = [int(v) for v in line.split("=")[1].strip(" []").split(",")]
    values[0] += 1
    bad = text.replace(line, f"finishing_stacks = {values}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hh = HandHistory.loads(bad)
        state = None
        for state in hh:
            pass
    assert list(state.stacks) != list(hh.finishing_stacks)
