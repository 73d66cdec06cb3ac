"""The web table (``cardvec serve``) in headless Chromium, through Playwright: for every
game a full game played through its page (keyboard and clicks) against a bot to the end,
the final scores checked against the engine (the ``cardvec`` package replaying the same
seed and actions) and against the JSON API; a 151 replay and a PHH hand stepped to the end;
the ladder charts; the phone-width layout.

Needs the ``cardvec`` binary (``CARDVEC_BIN``, else ``target/ci/cardvec`` ...) and
Chromium (``CHROMIUM``, else ``/usr/bin/chromium``, Debian's package, which scripts/test.sh
installs); skipped with the reason when either is missing. ``CARDVEC_WEB_SCREENSHOTS=1``
writes the screenshots of docs/img/web/.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tomllib
import urllib.request
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "img" / "web"

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def _binary() -> Path | None:
    if os.environ.get("CARDVEC_BIN"):
        return Path(os.environ["CARDVEC_BIN"])
    for profile in ("ci", "release", "debug"):
        p = ROOT / "target" / profile / "cardvec"
        if p.exists():
            return p
    return None


def _chromium() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def server():
    binary = _binary()
    if binary is None or not binary.exists():
        pytest.skip("the cardvec binary is not built (cargo build --profile ci -p cardvec-cli)")
    proc = subprocess.Popen(
        [str(binary), "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        line = proc.stdout.readline()
        assert "http://" in line, line
        yield line.split("http://")[1].split("/")[0].join(["http://", ""])
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    exe = _chromium()
    if exe is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        yield b
        b.close()


def api(base: str, path: str, body: str | None = None):
    req = urllib.request.Request(base + path, data=body.encode() if body is not None else None)
    with urllib.request.urlopen(req) as r:
        text = r.read().decode()
    return json.loads(text) if text.lstrip().startswith(("{", "[")) else text


def engine_scores(game: str, options: dict, seed: int, actions: list[int]) -> list[float]:
    """The totals the engine pays for `actions` from the deal of `seed` (Python package)."""
    import cardvec

    env = cardvec.make(game, 1, **options)
    env.reset(seed)
    totals = np.array(env.rewards[0], dtype=np.float64)
    for a in actions:
        env.step(np.array([a], dtype=np.uint32))
        totals += env.rewards[0]
    assert env.terminated[0] or env.truncated[0]
    return totals.tolist()


GAMES = [
    ("lost-cities", {}, 0, 11),
    ("flip7", {"num_players": 5, "target_score": 60}, 3, 12),
    ("151", {"num_players": 3}, 1, 13),
    ("holdem", {"num_players": 6}, 2, 14),
    ("kuhn", {}, 1, 15),
    ("leduc", {}, 0, 16),
]


def _cardvec_available() -> bool:
    try:
        import cardvec  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize(("game", "options", "seat", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_a_full_game_through_the_page_matches_the_engine(server, browser, game, options, seat, seed):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/play/{game}?speed=0")
    page.wait_for_selector("#seat option", state="attached")
    page.fill("#seed", str(seed))
    for name, value in options.items():
        page.fill(f"#opt-{name}", str(value))
    page.select_option("#seat", str(seat))
    page.click("#start")
    rng = random.Random(seed)
    shot = False
    for _ in range(5000):
        page.wait_for_selector("body[data-state=playing], body[data-state=finished]")
        if page.get_attribute("body", "data-state") == "finished":
            break
        if not shot:
            if os.environ.get("CARDVEC_WEB_SCREENSHOTS") == "1":
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"{game}.png"))
            shot = True
        moves = page.query_selector_all("#moves button")
        assert moves, "no legal move shown while it is the human's turn"
        raise_box = page.query_selector("#raise:not([hidden])")
        before = page.evaluate("window.cardvecView.log_len")
        if raise_box is not None and rng.random() < 0.25:
            lo = int(page.get_attribute("#raise-to", "min"))
            hi = int(page.get_attribute("#raise-to", "max"))
            page.fill("#raise-to", str(rng.randint(lo, min(hi, lo + 40))))
            page.click("#raise-btn")
        else:
            k = rng.randrange(len(moves))
            if k < 9 and rng.random() < 0.5:
                page.keyboard.press(str(k + 1))  # the keyboard shortcut
            else:
                moves[k].focus()
                page.keyboard.press("Enter")
        page.wait_for_function(f"window.cardvecView.log_len > {before}")
    else:
        pytest.fail("the game did not end")
    assert page.get_attribute("body", "data-state") == "finished"
    scores = json.loads(page.get_attribute("#result", "data-scores"))
    actions = json.loads(page.get_attribute("#result", "data-actions"))
    table_id = page.evaluate("window.cardvecView.id")
    result = api(server, f"/api/tables/{table_id}")["result"]
    assert result["scores"] == scores
    assert "Game over" in page.inner_text("#result")
    # The game's own words for its end: the page shows the API's summary.
    assert result["summary"][1:] in page.inner_text("#result")
    assert len(page.query_selector_all("#log li")) == len(actions)
    # Move numbers are whole however many moves there were (100 and more not clipped).
    clipped = page.evaluate(
        """() => { const box = document.getElementById("log").getBoundingClientRect();
        return [...document.querySelectorAll("#log li .n")].filter((n, i) => {
          const r = n.getBoundingClientRect();
          return n.textContent !== (i + 1) + "." || n.scrollWidth > n.clientWidth || r.left < box.left; }).length; }"""
    )
    assert clipped == 0
    if game == "151":
        assert len(actions) >= 100, len(actions)  # the case the numbers are checked for
        # The end in the game's count, penalty points, not the rewards' sum.
        assert "penalty points" in page.inner_text("#result")
        assert "reward" not in page.inner_text("#result")
    # No card's words spill out of it (Flip 7's "Second Chance").
    spilled = page.evaluate(
        """() => [...document.querySelectorAll("#table .card")].filter((c) =>
          c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1).map((c) => c.textContent)"""
    )
    assert spilled == []
    if _cardvec_available():
        assert engine_scores(game, options, seed, actions) == pytest.approx(scores, abs=1e-4)
    assert errors == []
    page.close()


def _card_ids(text: str) -> list[int]:
    """Hold'em card ids of cards written as text ("Kh 2c"): suit (c d h s) * 13 + rank."""
    return [
        "cdhs".index(c[1]) * 13 + "23456789TJQKA".index(c[0]) for c in text.split()
    ]


def test_a_split_pot_is_shown_as_one_with_both_hands_named(server, browser):
    """Board Kh 2c 8s Jd 2s, 4s8h (you) against 8dTc: both 8-8-2-2-K. The big blind is all
    in for one chip, so an odd chip of the main pot goes to seat 1 and the totals differ;
    the page says "split pot" all the same and names both hands."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    deal = _card_ids("4s 8h 8d Tc 3c 4d Kh 2c 8s Jd 2s")

    def with_deal(route, request):
        body = json.loads(request.post_data)
        body["deal"] = deal
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/tables?frames=true", with_deal)
    page.goto(f"{server}/play/holdem?speed=0")
    page.wait_for_selector("#seat option", state="attached")
    page.fill("#opt-num_players", "3")
    page.fill("#opt-button", "0")
    page.fill("#opt-stacks", "[200,200,1]")
    page.fill("#bot", "call-station")
    page.select_option("#seat", "0")
    page.click("#start")
    for _ in range(10):
        page.wait_for_selector("body[data-state=playing], body[data-state=finished]")
        if page.get_attribute("body", "data-state") == "finished":
            break
        before = page.evaluate("window.cardvecView.log_len")
        moves = page.query_selector_all("#moves button")
        passive = [m for m in moves if "check" in m.inner_text() or "call " in m.inner_text()]
        assert passive, [m.inner_text() for m in moves]
        passive[0].click()
        page.wait_for_function(f"window.cardvecView.log_len > {before}")
    else:
        pytest.fail("the hand did not end")
    text = page.inner_text("#result")
    assert "you share the win" in text, text
    assert "Split pot" in text, text
    assert text.count("two pair, eights and twos") >= 3, text  # the summary and both seats
    result = api(server, f"/api/tables/{page.evaluate('window.cardvecView.id')}")["result"]
    assert result["winners"] == [0, 1] and result["tie"] is True
    assert result["scores"][0] != result["scores"][1]  # the odd chip
    assert errors == []
    page.close()


def test_a_151_replay_steps_to_its_end(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    replay = api(server, "/api/samples/151-replay?seed=5")
    page.goto(f"{server}/watch")
    page.fill("#replay-text", json.dumps(replay))
    page.click("#replay-load")
    page.wait_for_selector("#replay-stepper:not([hidden])")
    count = int(page.get_attribute("#replay-stepper", "data-count"))
    steps = sum(len(r["steps"]) for r in replay["rounds"])
    assert count == steps + 2
    page.focus("#replay-stepper button[data-step=next]")
    for i in range(1, count):
        page.keyboard.press("ArrowRight")
    assert int(page.get_attribute("#replay-stepper", "data-pos")) == count - 1
    text = page.inner_text("#replay-view")
    assert "result:" in text
    for pid, score in replay["result"]["final_scores"].items():
        assert f"score {score}" in text, (pid, score, text)
    if os.environ.get("CARDVEC_WEB_SCREENSHOTS") == "1":
        page.screenshot(path=str(SHOTS / "watch-151.png"))
    page.close()


def test_a_phh_hand_steps_to_its_end(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    phh = api(server, "/api/samples/phh?seed=8&players=4")
    hand = tomllib.loads(phh)
    net = [f - s for f, s in zip(hand["finishing_stacks"], hand["starting_stacks"])]
    page.goto(f"{server}/watch")
    page.fill("#phh-text", phh)
    page.click("#phh-load")
    page.wait_for_selector("#phh-stepper:not([hidden])")
    count = int(page.get_attribute("#phh-stepper", "data-count"))
    for _ in range(count - 1):
        page.click("#phh-stepper button[data-step=next]")
    assert int(page.get_attribute("#phh-stepper", "data-pos")) == count - 1
    text = page.inner_text("#phh-view")
    # PHH players p1..pn run from the seat left of the button; every result is shown.
    for n in net:
        assert f"net {'+' if n > 0 else ''}{n}" in text, (n, text)
    page.fill("#phh-text", "variant = 'FT'")
    page.click("#phh-load")
    page.wait_for_function("document.getElementById('watch-error').textContent.length > 0")
    page.close()


def test_the_ladder_is_charted(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/watch")
    page.wait_for_selector("#elo svg")
    ladder = api(server, "/api/ladder")
    n = len(ladder["ids"])
    cells = page.query_selector_all("#heatmap rect.cell")
    assert len(cells) == n * n
    assert len(page.query_selector_all("#elo rect.bar")) == n
    if os.environ.get("CARDVEC_WEB_SCREENSHOTS") == "1":
        page.screenshot(path=str(SHOTS / "watch-ladder.png"), full_page=True)
    page.close()


def test_a_game_ladder_log_is_charted_with_rating_intervals(server, browser, tmp_path):
    """A `cardvec ladder --jsonl` log (any game; here Leduc), pasted in the watch page, is
    charted: the score matrix, one rating bar and one interval whisker per bot."""
    log = tmp_path / "leduc.jsonl"
    bots = ["random", "always-call", "always-raise", "pimc:sims=2"]
    subprocess.run([str(_binary()), "ladder", "leduc", "--bots", ",".join(bots), "--games", "8",
                    "--jsonl", str(log), "-q"], check=True, capture_output=True)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/watch")
    page.wait_for_selector("#elo svg")
    page.click("#ladder-box summary")
    page.fill("#ladder-text", log.read_text())
    page.click("#ladder-load")
    page.wait_for_function("document.querySelectorAll('#elo line.ci').length > 0")
    n = len(bots)
    assert len(page.query_selector_all("#heatmap rect.cell")) == n * n
    assert len(page.query_selector_all("#elo rect.bar")) == n
    assert len(page.query_selector_all("#elo line.ci")) == n
    what = page.text_content("#ladder-what")
    assert what.startswith("leduc") and "Bradley-Terry" in what, what
    assert page.text_content("#watch-error") == ""
    if os.environ.get("CARDVEC_WEB_SCREENSHOTS") == "1":
        page.screenshot(path=str(SHOTS / "watch-game-ladder.png"), full_page=True)
    page.close()


def test_the_table_fits_a_phone_width_window(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server}/play/holdem?speed=0&seed=4")
    page.wait_for_selector("body[data-state=playing], body[data-state=finished]")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, width
    if os.environ.get("CARDVEC_WEB_SCREENSHOTS") == "1":
        page.screenshot(path=str(SHOTS / "holdem-phone.png"))
    page.close()


def test_a_page_opens_on_a_game_with_the_focus_off_fold_and_the_blinds_marked(server, browser):
    """No seed in the address: the page deals a game at once (the address then names its
    seed). The focus starts on a move that gives nothing up (check or call), never on fold;
    the small and big blinds are marked; the engine's options are folded away."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/play/holdem?speed=0")
    page.wait_for_selector("body[data-state=playing], body[data-state=finished]")
    assert "seed=" in page.url
    for seed in range(40):
        labels = [b.get_attribute("data-label") for b in page.query_selector_all("#moves button")]
        if "fold" in labels:
            break
        # A deal where the human does not face a bet: open another, as a fresh page.
        page.goto(f"{server}/play/holdem?speed=0&seed={seed}")
        page.wait_for_selector("body[data-state=playing], body[data-state=finished]")
    assert "fold" in labels, labels
    focused = page.evaluate("document.activeElement.dataset.label")
    assert focused is not None and not focused.startswith("fold"), (focused, labels)
    assert focused == "check" or focused.startswith("call"), focused
    marks = page.eval_on_selector_all("#table abbr.blind", "els => els.map((e) => e.textContent)")
    assert sorted(marks) == ["BB", "SB"], marks
    # hold'em's raise sizes are the engine's; the player's options are on the form.
    assert page.is_visible("#opt-num_players")
    assert not page.is_visible("#opt-raise_fractions")
    page.click("#engine summary")
    assert page.is_visible("#opt-raise_fractions")
    assert errors == []
    page.close()


def test_flip7_action_cards_fit_and_the_log_names_the_card_a_hit_drew(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/play/flip7?speed=0&seed=3")
    page.wait_for_selector("body[data-state=playing], body[data-state=finished]")
    # Every card face Flip 7 prints, drawn as the table draws them, at both sizes.
    spilled = page.evaluate(
        """() => { const box = document.getElementById("table"); const out = [];
        const names = ["12", "+10", "x2", "Freeze", "Flip Three", "Second Chance"];
        names.forEach((text, i) => { for (const size of ["", "mini"]) {
          const c = cardEl({ id: [12, 17, 18, 19, 20, 21][i], text }, size); box.append(c);
          if (c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1) out.push(text + " " + size); } });
        return out; }"""
    )
    assert spilled == []
    for _ in range(200):
        if page.get_attribute("body", "data-state") == "finished":
            break
        before = page.evaluate("window.cardvecView.log_len")
        hit = page.query_selector("#moves button[data-label=hit]")
        (hit or page.query_selector("#moves button")).click()
        page.wait_for_function(f"window.cardvecView.log_len > {before}")
        page.wait_for_selector("body[data-state=playing], body[data-state=finished]")
    log = page.inner_text("#log")
    assert "You: hit: " in log, log
    assert "_" not in log and "FREEZE" not in log and "FLIP" not in log
    page.close()


def test_errors_on_the_page_speak_a_players_words(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/play/151?speed=0&seed=2")
    page.wait_for_selector("body[data-state=playing], body[data-state=finished]")
    page.fill("#opt-num_players", "9")
    page.click("#start")
    page.wait_for_selector("#status.error")
    text = page.inner_text("#status")
    assert "players must be a whole number between 2 and 4, got 9" in text, text
    assert "..=" not in text and "num_players" not in text
    page.close()


def test_every_web_error_is_json(server):
    """Query strings that do not parse, an unknown address, a method an address does not
    take, a body over the limit: each a JSON {"error": ...} with its status."""
    import urllib.error

    def status_and_error(method: str, path: str, body: bytes | None = None):
        req = urllib.request.Request(server + path, data=body, method=method)
        try:
            with urllib.request.urlopen(req) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    for method, path, body, want in [
        ("GET", "/api/samples/phh?players=x", None, 400),
        ("GET", "/no/such/page", None, 404),
        ("PUT", "/api/games", b"{}", 405),
        ("POST", "/api/ladder", b"x" * (2 * 1024 * 1024 + 1), 413),
    ]:
        status, err = status_and_error(method, path, body)
        assert status == want, (path, status, err)
        assert isinstance(err.get("error"), str) and err["error"], (path, err)


def test_a_river_spot_solved_through_the_spot_page_reads_as_the_api(server, browser, tmp_path):
    """/spot: a river spot typed into the form and solved with the progress shown; the
    node after OOP's check opened with its button; a grid cell's frequencies (the cell's
    bars, its data and the hands panel) equal to the API's node query and to ``cardvec
    spot show --json`` on the spot file the page offers for download."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/spot")
    # The form opens on the turn spot; the river example fills it, edited here.
    assert page.input_value("input[name=board]") == "Td9d6hQc"
    page.select_option("#example", "river")
    page.fill("input[name=board]", "Td9d6hQc2s")
    page.fill("input[name=oop_range]", "AQ,KJs,88,A5s:0.5,JTs,T9s")
    page.fill("input[name=ip_range]", "T9s,JTs,QQ,AK,KQs,A5s")
    page.fill("input[name=target]", "0.3")
    page.fill("input[name=iterations]", "400")
    page.click("#solve")
    page.wait_for_selector("#progress[data-status=done]", timeout=60_000)
    assert "Solved" in page.inner_text("#progress-text")
    page.wait_for_selector("#explorer:not([hidden]) #grid .cell")
    # The root: OOP to act, its buttons; a bad line never happened.
    actions = [b.get_attribute("data-word") for b in page.query_selector_all("#actions button")]
    assert actions[0] == "check", actions
    page.click("#actions button[data-word=check]")
    page.wait_for_selector("#line .crumb[data-depth='1'][aria-current]")
    assert page.get_attribute("#line .crumb[data-depth='1']", "aria-current") == "step"
    spot_id = page.eval_on_selector("#download", "a => a.getAttribute('href')").split("/")[3]
    node = api(server, f"/api/spot/{spot_id}/node?line=check")
    assert node["player"] == 1
    words = [a["word"] for a in node["actions"]]
    assert [b.get_attribute("data-word") for b in page.query_selector_all("#actions button")] == words
    ip = {c["name"]: c for c in node["players"][1]["classes"]}
    live = [n for n, c in ip.items() if c["combos"] > 0 and c["weight"] > 0]
    assert "QQ" in live and "AKo" in live
    # Every live cell's frequencies are the API's; the others are greyed.
    cells = page.query_selector_all("#grid .cell")
    assert len(cells) == 169
    for cell in cells:
        name = cell.get_attribute("data-class")
        if name in live:
            got = json.loads(cell.get_attribute("data-freq"))
            assert got == ip[name]["strategy"], name
        else:
            assert "out" in cell.get_attribute("class").split(), name
    # One cell read as a person reads it: its bar widths and the hands panel's row.
    name = "QQ"
    widths = page.eval_on_selector(
        f"#grid .cell[data-class={name}]",
        "c => [...c.querySelectorAll('.bars span')].map(s => parseFloat(s.style.width))",
    )
    want = [100 * f for f in ip[name]["strategy"] if f > 0]
    assert widths == pytest.approx(want, abs=1e-3)
    page.click(f"#grid .cell[data-class={name}]")
    page.wait_for_selector(f"#detail[data-class={name}]")
    shown = page.eval_on_selector_all(
        "#detail tr.sum td.freq", "tds => tds.map(t => parseFloat(t.textContent))"
    )
    assert shown == pytest.approx([100 * f for f in ip[name]["strategy"]], abs=0.051)
    hands = [h for h in node["players"][1]["hands"] if h[0] == "Q" and h[2] == "Q"]
    rows = page.query_selector_all("#detail tr[data-hand]:not(.sum)")
    assert sorted(r.get_attribute("data-hand") for r in rows) == sorted(hands)
    # The same node of the downloaded spot file, read by the CLI.
    req = urllib.request.Request(server + f"/api/spot/{spot_id}/file")
    with urllib.request.urlopen(req) as r:
        (tmp_path / "river.cvspot").write_bytes(r.read())
    shown_cli = subprocess.run(
        [str(_binary()), "spot", "show", str(tmp_path / "river.cvspot"), "--line", "check", "--json"],
        capture_output=True, text=True, check=True,
    )
    cli = json.loads(shown_cli.stdout)
    cli_ip = {c["name"]: c["strategy"] for c in cli["players"][1]["classes"]}
    assert cli_ip[name] == ip[name]["strategy"]
    assert cli["players"] == node["players"]
    if os.environ.get("CARDVEC_WEB_SCREENSHOTS") == "1":
        page.screenshot(path=str(SHOTS / "spot.png"), full_page=True)
    # The breadcrumbs lead back to the root; a chance-free river line ends at showdown.
    page.click("#actions button[data-word=check]")
    page.wait_for_function("document.getElementById('node-info').textContent.includes('showdown')")
    page.click("#line .crumb[data-depth='0']")
    page.wait_for_function("document.querySelectorAll('#line .crumb').length === 1")
    # The downloaded file opened through the page: the same cell after the same check.
    page.set_input_files("#spot-file", str(tmp_path / "river.cvspot"))
    page.click("#open-file")
    page.wait_for_function(
        f"!document.getElementById('download').getAttribute('href').includes('{spot_id}')"
    )
    page.wait_for_selector("#progress[data-status=done]")
    assert "file opened" in page.inner_text("#progress-text")
    page.wait_for_selector("#explorer:not([hidden]) #grid .cell")
    assert page.query_selector_all("#line .crumb") and not page.query_selector("#line .crumb[aria-current]")
    page.click("#actions button[data-word=check]")
    page.wait_for_selector("#line .crumb[data-depth='1'][aria-current]")
    got = json.loads(page.get_attribute(f"#grid .cell[data-class={name}]", "data-freq"))
    assert got == ip[name]["strategy"]
    # A bad spot: the server's words, nothing solved.
    page.fill("input[name=board]", "Td9d6hQcXx")
    page.click("#solve")
    page.wait_for_function("document.getElementById('spot-error').textContent.length > 0")
    assert not errors, errors
    page.close()


def test_the_spot_grid_works_by_keyboard_and_locks_come_from_the_form(server, browser):
    """/spot: node locks typed in the form (the syntax of ``--lock``, one per line) solve a
    locked spot (the locked node plays call with every hand; a bad lock is the server's
    400 message and creates nothing); the 13 x 13 grid is one tab stop whose cells the
    arrow keys move between and Enter or Space select, with grid, row and gridcell roles
    and labels."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/spot")
    page.select_option("#example", "river")
    page.fill("input[name=oop_range]", "AQ,KJs,88,A5s:0.5,JTs,T9s")
    page.fill("input[name=ip_range]", "T9s,JTs,QQ,AK,KQs,A5s")
    page.fill("input[name=iterations]", "200")
    before = len(api(server, "/api/spot")["spots"])
    # A bad lock: the server's words, nothing created.
    page.fill("textarea[name=locks]", "ip:bet:60%=call:1\nip:bet:999=call:1")
    page.click("#solve")
    page.wait_for_function("document.getElementById('spot-error').textContent.length > 0")
    assert "bet:999" in page.inner_text("#spot-error")
    assert len(api(server, "/api/spot")["spots"]) == before
    # A good one: IP always calls OOP's 60% bet.
    page.fill("textarea[name=locks]", "ip:bet:60%=call:1\n")
    page.click("#solve")
    page.wait_for_selector("#progress[data-status=done]", timeout=60_000)
    assert page.inner_text("#spot-error") == ""
    spot_id = page.eval_on_selector("#download", "a => a.getAttribute('href')").split("/")[3]
    assert api(server, f"/api/spot/{spot_id}")["locks"] == ["ip:bet:60%=call:1"]
    page.wait_for_selector("#explorer:not([hidden]) #grid .cell")
    page.click("#actions button[data-word='bet:60']")
    page.wait_for_selector("#line .crumb[data-depth='1'][aria-current]")
    words = [b.get_attribute("data-word") for b in page.query_selector_all("#actions button")]
    live = page.query_selector_all("#grid .cell[data-freq]")
    assert live
    for cell in live:
        freq = json.loads(cell.get_attribute("data-freq"))
        assert freq == [1.0 if w == "call" else 0.0 for w in words], cell.get_attribute("data-class")

    # The grid's roles: a grid of 13 rows of 13 gridcells, each labelled, one tab stop.
    assert page.get_attribute("#grid", "role") == "grid"
    assert len(page.query_selector_all("#grid > [role=row]")) == 13
    assert len(page.query_selector_all("#grid [role=row] > [role=gridcell]")) == 169
    assert all(c.get_attribute("aria-label") for c in page.query_selector_all("#grid .cell"))
    assert len(page.query_selector_all("#grid .cell[tabindex='0']")) == 1
    active = "() => document.activeElement.dataset.class || document.activeElement.id"
    # Tab from the IP button reaches the grid at its first cell.
    page.focus(".tab[data-player='1']")
    page.keyboard.press("Tab")
    assert page.evaluate(active) == "AA"
    for key, name in [("ArrowRight", "AKs"), ("ArrowDown", "KK"), ("ArrowDown", "KQo"),
                      ("ArrowRight", "QQ"), ("ArrowLeft", "KQo"), ("ArrowRight", "QQ"),
                      ("End", "Q2s"), ("Home", "AQo"), ("ArrowUp", "AKo"), ("ArrowRight", "KK")]:
        page.keyboard.press(key)
        assert page.evaluate(active) == name, key
    for _ in range(13):
        page.keyboard.press("ArrowLeft")
    assert page.evaluate(active) == "AKo"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(active) == "KQo"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(active) == "QQ"
    assert len(page.query_selector_all("#grid .cell[tabindex='0']")) == 1
    assert page.get_attribute("#grid .cell[data-class=QQ]", "tabindex") == "0"
    # Enter selects QQ and shows its hands; Space on it deselects, Enter again selects.
    page.keyboard.press("Enter")
    page.wait_for_selector("#detail[data-class=QQ]")
    assert page.get_attribute("#grid .cell[data-class=QQ]", "aria-selected") == "true"
    assert "sel" in page.get_attribute("#grid .cell[data-class=QQ]", "class").split()
    rows = page.query_selector_all("#detail tr[data-hand]:not(.sum)")
    assert rows and all(r.get_attribute("data-hand")[0] == "Q" for r in rows)
    page.keyboard.press("Space")
    assert page.get_attribute("#grid .cell[data-class=QQ]", "aria-selected") == "false"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    page.wait_for_selector("#detail[data-class=KQs]")
    assert page.get_attribute("#grid .cell[data-class=KQs]", "aria-selected") == "true"
    assert page.get_attribute("#grid .cell[data-class=QQ]", "aria-selected") == "false"
    # Tab leaves the grid: it is one tab stop.
    page.keyboard.press("Tab")
    assert page.evaluate("() => !document.activeElement.closest('#grid')")
    assert not errors, errors
    page.close()
