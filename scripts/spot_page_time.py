"""Times the /spot page's default spot (the issue's turn spot; docs/web.md): `cardvec
serve`, Solve clicked with the form's defaults in headless Chromium, the time until the
page shows "Solved"; prints one JSON line per run with the solve's own seconds and
iterations from the API and the load average around the run.

    python scripts/spot_page_time.py target/ci/cardvec 5    # binary, runs

Needs playwright and Chromium (CHROMIUM, else /usr/bin/chromium)."""
import json, os, subprocess, sys, time, urllib.request
from playwright.sync_api import sync_playwright

binary = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
proc = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
line = proc.stdout.readline()
base = "http://" + line.split("http://")[1].split("/")[0]
try:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
        for _ in range(runs):
            page = b.new_page()
            page.goto(base + "/spot")
            load = os.getloadavg()[0]
            t0 = time.perf_counter()
            page.click("#solve")
            page.wait_for_selector("#progress[data-status=done]", timeout=600_000)
            wall = time.perf_counter() - t0
            sid = page.eval_on_selector("#download", "a => a.getAttribute('href')").split("/")[3]
            with urllib.request.urlopen(base + f"/api/spot/{sid}") as r:
                v = json.loads(r.read())
            s = v["summary"]
            print(json.dumps({"click_to_solved_s": round(wall, 2), "solve_s": round(s["seconds"], 2),
                              "iterations": s["iterations"], "exploitability_pct": s["exploitability_pct"],
                              "nodes": v["nodes"], "memory_bytes": v["memory_bytes"], "hands": v["hands"],
                              "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}), flush=True)
            page.close()
        b.close()
finally:
    proc.terminate(); proc.wait(timeout=10)
