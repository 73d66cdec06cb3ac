"""cardvec-campaign's command line (issue 27): Ctrl-C says how many shards are saved and
exits 130, a rerun resumes; a wrong ``--address`` fails within ``--connect-timeout`` with a
message; ``-o`` takes a value with commas and refuses a repeated name; every flag has help;
the summary and the shard log both say ``game_id``."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from cardvec import campaign


def cli(*args, **kw):
    # The default SIGINT handler first: a child inherits an ignored SIGINT from a
    # pytest-xdist worker, and Python then keeps ignoring it.
    return [sys.executable, "-c", "import signal, sys; "
            "signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from cardvec.campaign import main; sys.exit(main(sys.argv[1:]))", *args]


def test_ctrl_c_says_what_is_saved_exits_130_and_a_rerun_resumes(tmp_path):
    out = tmp_path / "run"
    args = cli("diff", "151", "--games", "400000", "--shard", "1000", "--quiet",
               "--threads", "1", "--out", str(out))
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log = out / "shards.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and log.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the campaign ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    saved = log.read_text().count("\n")
    assert f"interrupted: {saved}/400 shards saved in {out}; rerun the same command to resume" \
        in err, err
    # The log's records name the game as the summary does.
    rec = json.loads(log.read_text().splitlines()[0])
    assert rec["game_id"] == "151" and "game" not in rec
    assert json.loads((out / "campaign.json").read_text())["game_id"] == "151"


def test_interrupted_is_a_keyboard_interrupt_with_its_counts():
    e = campaign.Interrupted(3, 10, "/tmp/x")
    assert isinstance(e, KeyboardInterrupt)
    assert (e.saved, e.total, e.out) == (3, 10, "/tmp/x")
    assert "3/10 shards saved in /tmp/x" in str(e)
    assert "none kept" in str(campaign.Interrupted(0, 4, None))


# A refused port (a blackholed address would need a network that drops packets; this
# machine's sandbox answers every outside connection).
@pytest.mark.parametrize("address", ["127.0.0.1:1"])
def test_an_unreachable_address_fails_within_the_timeout(address):
    pytest.importorskip("ray")
    started = time.monotonic()
    out = subprocess.run(cli("diff", "kuhn", "--games", "10", "--quiet", "--address", address,
                             "--connect-timeout", "2"),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    assert f"no Ray cluster answers at {address} within 2 s" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr
    assert time.monotonic() - started < 60


def test_options_take_commas_and_refuse_repeats():
    assert campaign._parse_options(["bots=random,king-only"]) == {"bots": "random,king-only"}
    assert campaign._parse_options(["a=1,b=x", "c=[1, 2]"]) == {"a": 1, "b": "x", "c": [1, 2]}
    with pytest.raises(ValueError, match="given twice"):
        campaign._parse_options(["bots=random", "bots=king-only"])
    with pytest.raises(ValueError, match="expected name=value"):
        campaign._parse_options(["bots"])
    assert campaign.main(["match", "151", "--games", "8", "--quiet",
                          "-o", "bots=random", "-o", "bots=random"]) == 2
    with pytest.raises(ValueError, match="connect_timeout"):
        campaign.run("diff", "kuhn", games=4, connect_timeout=0)


def test_two_bots_in_one_option_run_a_match(capsys):
    assert campaign.main(["match", "151", "--games", "8", "--quiet",
                          "-o", "bots=random,random"]) == 0
    assert "game=151" in capsys.readouterr().out


def test_every_flag_has_help(capsys):
    with pytest.raises(SystemExit) as e:
        campaign.main(["--help"])
    assert e.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    # argparse's ArgumentDefaultsHelpFormatter adds "(default: ...)" to an argument's help
    # only when it has help text: every flag's block must carry it.
    blocks, current = {}, None
    for line in lines:
        if line.startswith("  -"):
            current = line.split()[0].rstrip(",")
            blocks[current] = line
        elif current and line.startswith("    "):
            blocks[current] += " " + line.strip()
        else:
            current = None
    flags = ["--games", "--shard", "--seed", "--first", "--address", "--connect-timeout",
             "--out", "--max-retries", "--threads", "--quiet", "--json", "-o"]
    for flag in flags:
        assert flag in blocks, (flag, sorted(blocks))
        assert "(default:" in blocks[flag], blocks[flag]
