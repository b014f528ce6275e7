"""The rules in the page: what a phone downloads once, and how long the first offline sheet takes.

Run through ``uv run python benchmarks/offline_rules.py [--slowdown 4] [--runs 3]``. It prints the
bytes of Pyodide's files and of the rules' zip (as served, and gzipped as a proxy may send them),
then serves the board on loopback and opens a Rauf-Runter game in Debian's chromium at phone size
(390 × 844) with the CPU slowed ``--slowdown`` times (Chrome's CPU throttling; 4 is the usual
stand-in for a mid-range phone). Per run, in a fresh browser context:

- *first*: online, from the page's start to the first sheet drawn by the rules in Pyodide
  (``static/rules.js``: Pyodide's files fetched, compiled, the rules unpacked and imported, in
  the rules' Web Worker);
- *offline*: the same after the page was reloaded with the network off (every file from the
  service worker's cache): the time to the first entry offline.

Each with the page's longest main-thread task meanwhile (the browser's ``longtask`` entries):
how long a tap made during the start would have waited.

docs/decisions.md ("The board offline") has the figures.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from load import HOST, free_port, stop, wait_until_up  # benchmarks/load.py
from playwright.sync_api import sync_playwright

from kniffel.web.app import STATIC
from kniffel.web.offline import PYODIDE, rules_zip

CHROMIUM = Path(os.environ.get("KNIFFEL_CHROMIUM", "/usr/lib/chromium/chromium"))
PHONE = {"width": 390, "height": 844}

#: From the call to the first sheet, on the page's clock, and the longest main-thread task
#: meanwhile (ms).
FIRST_SHEET = """async ([record]) => {
  const tasks = [0];
  const durations = (entries) => entries.map((entry) => entry.duration);
  const observer = new PerformanceObserver((list) => tasks.push(...durations(list.getEntries())));
  observer.observe({ type: "longtask" });
  const start = performance.now();
  const { loadRules } = await import("/static/rules.js");
  const rules = await loadRules();
  await rules.sheet(record, [], { dice: "66655" });
  const took = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, 50));
  tasks.push(...durations(observer.takeRecords()));
  observer.disconnect();
  return [took, Math.max(...tasks)];
}"""


def _sizes() -> None:
    files = sorted(path for path in (STATIC / PYODIDE).iterdir() if path.suffix != ".md")
    total = zipped = 0
    for path in files:
        data = path.read_bytes()
        packed = len(gzip.compress(data, 6))
        total, zipped = total + len(data), zipped + packed
        print(f"{path.name:24} {len(data):>11,} B  gzip {packed:>11,} B")
    rules = rules_zip()
    total += len(rules)
    zipped += len(rules)
    print(f"{'kniffel.zip (the rules)':24} {len(rules):>11,} B")
    print(f"{'once per phone':24} {total:>11,} B  gzip {zipped:>11,} B")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slowdown", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    _sizes()
    port = free_port()
    url = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "KNIFFEL_DB": f"sqlite:///{folder}/k.db", "KNIFFEL_BACKGROUND": "0"}
        env.setdefault("KNIFFEL_PREBUILD_TABLES", "0")
        server = subprocess.Popen(
            [sys.executable, "-m", "kniffel", "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_until_up(url + "/healthz", server)
            body = json.dumps({"variant": "rauf-runter", "players": ["Anna", "Ben"]}).encode()
            request = urllib.request.Request(
                url + "/api/games", body, {"Content-Type": "application/json"}
            )
            with urllib.request.urlopen(request) as answer:
                game = json.load(answer)
            with urllib.request.urlopen(f"{url}/api/games/{game['id']}/record") as answer:
                record = json.load(answer)
            first, offline = _measure(url, game["url"], record, args.slowdown, args.runs)
        finally:
            stop(server)
    for name, runs in (("first (online)", first), ("offline (cached)", offline)):
        times = [took for took, _ in runs]
        blocked = [longest for _, longest in runs]
        print(
            f"{name:18} median {statistics.median(times) / 1000:5.1f} s  "
            f"max {max(times) / 1000:5.1f} s  longest main-thread task "
            f"median {statistics.median(blocked) / 1000:5.2f} s  max {max(blocked) / 1000:5.2f} s"
            f"  (CPU slowed {args.slowdown:g}x, {len(runs)} runs)"
        )


Run = tuple[float, float]  # (ms to the first sheet, ms of the longest main-thread task)


def _measure(
    url: str, game: str, record: object, slowdown: float, runs: int
) -> tuple[list[Run], list[Run]]:
    first: list[Run] = []
    offline: list[Run] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        for _ in range(runs):
            context = browser.new_context(viewport=PHONE, has_touch=True)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            page.goto(url + "/")
            deadline = time.monotonic() + 60
            while not page.evaluate("navigator.serviceWorker.controller !== null"):
                if time.monotonic() > deadline:
                    raise SystemExit("the service worker never took over")
                page.wait_for_timeout(50)
            page.goto(url + game)  # the creator's link: the key, then the game's own page
            page.wait_for_selector('.game[data-live="open"]')
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
            first.append(tuple(page.evaluate(FIRST_SHEET, [record])))
            context.set_offline(True)
            page.reload()
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
            offline.append(tuple(page.evaluate(FIRST_SHEET, [record])))
            context.close()
        browser.close()
    return first, offline


if __name__ == "__main__":
    main()
