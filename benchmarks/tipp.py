"""The Tipp's latency: its panel, and the chances of bonus and Kniffel behind each choice.

Run: ``uv run python benchmarks/tipp.py [--variant V ...] [--positions N] [--seed S]
[--main DIR]``; every preset (``kniffel``, ``yahtzee``, ``rauf-runter``, ``dreifach``) unless
``--variant`` names some. With ``--main`` (a copy of main's tree, e.g. ``git archive main |
tar -x -C /tmp/main``) main's own benchmark runs on the same positions after each preset, and
one table at the end sets p50 and p95 of both side by side, with the ratios.

A seeded two-player game of the best bot is walked; at ``N`` positions spread over the game
(dice on the table after roll 1 or 2), what ``GET /g/{id}/tipp`` computes is timed:

- **panel**: the choices with their expected totals (``evaluate``), the "Auf Sieg" list
  (``win_choices``), and, in one-column presets, the exact chances (``reasons`` over the
  chance table);
- **chances** (Rauf-Runter, Dreifach): the simulated chances (``reasons``: this turn exactly,
  then the end states' streams to ±2 points or the bound of work), which the board works out
  in the background while the panel answers without them (after at most 0.3 s) and fills
  them in when they are ready (``?gruende=1``); **with reasons**: panel and chances together,
  how long until the Tipp shows its final reasons; **with a first answer**: panel and the
  first answer together (``reasons.first_reasons``: the figures within
  ``turn_ends.FIRST_WORK``, with their wider interval, which the board shows while the final
  ones are worked out; the final ones when those rounds were not cut short), how long until
  the Tipp shows figures; **chances again**: the same position asked
  again (kept); **after the work ahead**: the same position asked on fresh caches once the
  background has worked out the start of its turn (``reasons.ahead``, what the board does
  after the previous entry in a game that asks for the Tipp), and **work ahead**: how long
  that took in the background thread (``nice`` 10).

Each figure is a first computation (the caches are cleared); prints p50, p95 and max in ms.
The tables are built first (not timed).

**House rules** (``--house-rules [--main DIR] [--timeout S] [--rules N] [--warm-cache DIR]``,
issue 35): how long a game of
a house rule waits for its first Tipp on a real server (``kniffel serve`` on a loopback port).
For each of :data:`HOUSE_RULES` a game is created and ``GET /api/games/{id}/advice`` with its
key is asked every 0.25 s until it answers 200 (202 while the tables are built; a 503
``tables_busy`` is counted). Two servers, the rule sets asked one after the other as a family
would, each server with an empty database:

- **fresh**: an empty solver cache, default settings (the presets' tables, their chance tables
  and the finals queued at start, so every first Tipp meets that queue);
- **warm**: a cache that holds the presets' tables and chance tables (built first, not timed,
  or kept in ``--warm-cache DIR`` from an earlier run), ``KNIFFEL_EXACT_CHANCES=false`` (no
  finals build beside).

``--rules N`` asks the first N rule sets only; ``--timeout`` bounds each wait (240 s).
``--browser``: each rule set's game has four players and its Tipp is asked as on the board, in
Debian's chromium at phone size (``KNIFFEL_CHROMIUM`` overrides its path): the game is created
(``POST /api/games``, as the start page's form does), its board opened with the key, dice typed
(66612, roll 1) and the Tipp button tapped; the seconds run from the game's creation until the
panel shows its best choice (the page load included), a moment stamped in the page by a
``MutationObserver`` (Playwright's ``expect`` notices it up to a second later).

Both with ``KNIFFEL_TABLE_BUILDS_PER_CLIENT`` and ``KNIFFEL_TABLE_QUEUE`` at 100: all requests
come from one address, and the per-client bound (2 an hour) would refuse the third rule set.
With ``--main DIR`` (a checkout of main, e.g. ``git worktree add /tmp/main main``) the same
runs with DIR's ``src`` and one table sets the seconds side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from kniffel.rules import Dice, Enter, Game, get_variant
from kniffel.solver.advice import reasons as reasons_module
from kniffel.solver.advice import turn_ends
from kniffel.solver.advice.position import evaluate
from kniffel.solver.advice.reasons import reasons
from kniffel.solver.chances.winbot import win_choices
from kniffel.solver.exact.chance_table import column_chances
from kniffel.solver.exact.dice_tables import ROLL_INDEX
from kniffel.solver.play.simulate import game_events, simulate


def positions(variant: str, seed: int) -> list[tuple[Game, Dice, int]]:
    """Every position of a two-player game of the best bot with dice after roll 1 or 2."""
    sims = simulate(get_variant(variant), "best", games=2, seed=seed, keep_logs=2)
    names = ["Anna", "Ben"]
    per = [game_events(sims, k, names[k]) for k in range(2)]
    turns: list[list[list[object]]] = []
    for events in per:
        split: list[list[object]] = [[]]
        for event in events:
            split[-1].append(event)
            if isinstance(event, Enter):
                split.append([])
        turns.append(split[:-1])
    game = Game(get_variant(variant), names)
    found = []
    for t in range(len(turns[0])):
        for k in range(2):
            for event in turns[k][t]:
                game.push(event)  # type: ignore[arg-type]
                pending = game.pending(k) if game.current_player() == k else None
                if pending is not None and pending[1] < 3:
                    found.append((game.copy(), pending[0], pending[1]))
    return found


PRESETS = ["kniffel", "yahtzee", "rauf-runter", "dreifach"]
#: The figures set beside main's, in the order printed.
FIGURES = ["panel", "chances", "with a first answer", "with reasons", "after the work ahead"]


def _stats(times: list[float]) -> str:
    ms = np.array(times) * 1000
    return (
        f"p50 {np.percentile(ms, 50):7.1f} ms  p95 {np.percentile(ms, 95):7.1f} ms  "
        f"max {ms.max():7.1f} ms  (n = {len(ms)})"
    )


def _p50_p95(times: list[float]) -> tuple[float, float]:
    ms = np.array(times) * 1000
    return float(np.percentile(ms, 50)), float(np.percentile(ms, 95))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", default=None)
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--main", default=None, help="a checkout of main to compare with")
    parser.add_argument(
        "--house-rules", action="store_true", help="seconds to the first Tipp of house rules"
    )
    parser.add_argument(
        "--timeout", type=float, default=240.0, help="--house-rules: seconds a Tipp may wait"
    )
    parser.add_argument(
        "--rules", type=int, default=len(HOUSE_RULES), help="--house-rules: the first N rule sets"
    )
    parser.add_argument(
        "--warm-cache", default=None, help="--house-rules: the presets' tables, kept between runs"
    )
    parser.add_argument(
        "--browser",
        action="store_true",
        help="--house-rules: four players, the Tipp tapped on the board in chromium",
    )
    args = parser.parse_args()
    if args.house_rules:
        house_rules(args.main, args.timeout, args.rules, args.warm_cache, browser=args.browser)
        return
    rows: list[str] = []
    for name in args.variant or PRESETS:
        variant = get_variant(name)
        exact = len(variant.columns) == 1
        if exact:
            column_chances(variant.options, variant.columns[0].discipline)
        every = positions(name, args.seed)
        chosen = [every[int(i)] for i in np.linspace(0, len(every) - 1, args.positions)]
        game, dice, rolls = chosen[0]
        evaluate(game, None, 3)  # load the tables
        win_choices(game, dice, rolls)
        panel, chances, again, samples, first = [], [], [], [], []
        widths: list[float] = []
        first_widths: list[float] = []
        for game, dice, rolls in chosen:
            reasons_module._CACHE = reasons_module._Cache()
            turn_ends.STREAMS = turn_ends._Streams()
            start = time.perf_counter()
            position = evaluate(game)
            win_choices(game, position.dice, position.rolls)
            actions = [c.action for c in position.choices[:5]]
            index = ROLL_INDEX[dice]
            if exact:
                reasons(game, index, rolls, actions, exact=True)
            panel.append(time.perf_counter() - start)
            if not exact:
                start = time.perf_counter()
                quick = reasons_module.first_reasons(game, index, rolls, actions)
                first.append(time.perf_counter() - start)
                first_widths.append(quick.half_width)
                reasons_module._CACHE = reasons_module._Cache()  # the final ones from scratch
                turn_ends.STREAMS = turn_ends._Streams()
                start = time.perf_counter()
                found = reasons(game, index, rolls, actions, exact=False)
                chances.append(time.perf_counter() - start)
                samples.append(found.samples)
                widths.append(found.half_width)
                start = time.perf_counter()
                reasons(game, index, rolls, actions, exact=False)
                again.append(time.perf_counter() - start)
        figures = {"panel": panel}
        print(f"{name}: panel    {_stats(panel)}")
        if chances:
            games = f"games {min(samples)}..{max(samples)}"
            games += f", ±{100 * min(widths):.1f}..{100 * max(widths):.1f} points (95 %)"
            print(f"{name}: chances  {_stats(chances)}  {games}")
            both = [a + b for a, b in zip(panel, chances, strict=True)]
            quick = [a + b for a, b in zip(panel, first, strict=True)]
            wide = f"±{100 * min(first_widths):.1f}..{100 * max(first_widths):.1f} points (95 %)"
            print(f"{name}: with a first answer {_stats(quick)}  {wide}")
            print(f"{name}: with reasons {_stats(both)}")
            print(f"{name}: chances again (kept, as the panel's next request) {_stats(again)}")
            figures |= {"chances": chances, "with a first answer": quick, "with reasons": both}
            warm, worked = _after_the_work_ahead(chosen)
            print(f"{name}: after the work ahead {_stats(warm)}")
            print(f"{name}: work ahead (background) {_stats(worked)}")
            figures["after the work ahead"] = warm
        theirs = _main_figures(args, name) if args.main else {}
        for label in FIGURES:
            if label in figures:
                rows.append(_row(name, label, _p50_p95(figures[label]), theirs.get(label)))
        print(flush=True)
    print("| preset | what | p50 | p95 | main p50 | main p95 | ratio p50 | ratio p95 |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))


def _after_the_work_ahead(chosen: list[tuple[Game, Dice, int]]) -> tuple[list[float], list[float]]:
    """Per position: how long the background worked out the start of its turn, then how long
    the position's reasons took after it (fresh caches each time)."""
    warm, worked = [], []
    for game, dice, rolls in chosen:
        reasons_module._CACHE = reasons_module._Cache()
        turn_ends.STREAMS = turn_ends._Streams()
        start = game.copy()
        player = start.current_player()
        assert player is not None
        while start.pending(player) is not None:
            start.pop()  # back to the start of the turn, before its first roll
        began = time.perf_counter()
        reasons_module.ahead(start, player)
        assert reasons_module._BACKGROUND.wait_idle(3600)
        worked.append(time.perf_counter() - began)
        actions = [c.action for c in evaluate(game).choices[:5]]
        began = time.perf_counter()
        reasons(game, ROLL_INDEX[dice], rolls, actions, exact=False)
        warm.append(time.perf_counter() - began)
    return warm, worked


def _ms(value: float) -> str:
    return f"{value:,.1f} ms" if value < 1000 else f"{value / 1000:,.1f} s"


def _row(
    name: str, label: str, ours: tuple[float, float], theirs: tuple[float, float] | None
) -> str:
    cells = [f"`{name}`", label, _ms(ours[0]), _ms(ours[1])]
    if theirs is None:
        cells += ["—"] * 4
    else:
        cells += [_ms(theirs[0]), _ms(theirs[1])]
        cells += [f"{ours[0] / theirs[0]:.2f}", f"{ours[1] / theirs[1]:.2f}"]
    return "| " + " | ".join(cells) + " |"


#: (preset, house rules) asked by ``--house-rules``: Kniffel, Yahtzee and Rauf-Runter.
HOUSE_RULES: list[tuple[str, dict[str, object]]] = [
    ("kniffel", {"kniffel_bonus": 60}),
    ("rauf-runter", {"pasch": "matching_dice"}),
    ("kniffel", {"zero_only_upper": True}),
    ("yahtzee", {"joker": "free"}),
    ("kniffel", {"chance": False}),
    ("yahtzee", {"kniffel_bonus": 50}),
    ("rauf-runter", {"kniffel_bonus": 50}),
]


def _rules_label(name: str, options: dict[str, object]) -> str:
    return name + " " + ", ".join(f"{k}={v}" for k, v in options.items())


#: The players of a ``--browser`` game: a family of four.
FAMILY = ["Anna", "Ben", "Cem", "Dana"]


def _chromium() -> Iterator[Any]:
    """Debian's chromium, started before any game (a family's phone has its browser open)."""
    import os

    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("KNIFFEL_CHROMIUM", "/usr/lib/chromium/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            yield browser
        finally:
            browser.close()


#: Stamps the moment the Tipp panel shows its best choice, in the page (milliseconds since
#: the epoch, the machine's clock): Playwright's ``expect`` looks again after 0.1, 0.25, 0.5 s
#: and then once a second, so the moment it notices is up to a second late.
_STAMP_THE_TIPP = """
new MutationObserver(() => {
  if (window.tippShownAt) return;
  const best = document.querySelector("#tipp .tipp-choices li");
  if (best && best.textContent.includes("beste Wahl")) {
    window.tippShownAt = performance.timeOrigin + performance.now();
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def _tipp_in_chromium(browser: Any, url: str, game: dict[str, str], timeout: float) -> float | None:
    """Opens ``game``'s board at phone size, types a first roll and taps the Tipp; the clock
    (``perf_counter``) when the panel showed its best choice, stamped in the page (None: not
    within ``timeout``)."""
    from playwright.sync_api import Error, expect

    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", has_touch=True
    )
    context.add_init_script(_STAMP_THE_TIPP)
    try:
        page = context.new_page()
        page.goto(f"{url}/g/{game['id']}#key={game['key']}")
        expect(page.locator(".game")).to_have_attribute("data-live", "open", timeout=60_000)
        page.locator("#dice-input").focus()
        page.keyboard.type("66612")
        page.get_by_role("button", name="1. Wurf", exact=True).click()
        page.get_by_role("button", name="Tipp").click()
        choice = page.locator("#tipp .tipp-choices li").first
        try:
            expect(choice).to_contain_text("beste Wahl", timeout=timeout * 1000)
        except (AssertionError, Error):
            return None
        shown_ago = time.time() - page.evaluate("window.tippShownAt") / 1000
        return time.perf_counter() - shown_ago
    finally:
        context.close()


def _house_rules_server(
    src: str | None,
    folder: Path,
    fresh: bool,
    timeout: float,
    count: int,
    family: bool = False,
) -> list[tuple[float | None, int]]:
    """Starts a server of ``src`` (this checkout when None) on ``folder``; the seconds each of
    :data:`HOUSE_RULES` waited for its first Tipp (None: not within ``timeout``) and how often
    it was told ``tables_busy``."""
    import json
    import os
    import socket
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    from load import stop

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "KNIFFEL_DB": f"sqlite:///{folder / 'k.db'}",
        "KNIFFEL_CACHE_DIR": str(folder / "cache"),
        "KNIFFEL_TABLE_BUILDS_PER_CLIENT": "100",
        "KNIFFEL_TABLE_QUEUE": "100",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    if not fresh:
        env["KNIFFEL_EXACT_CHANCES"] = "false"
    if src is not None:
        env["PYTHONPATH"] = os.path.join(src, "src")
    serve = [sys.executable, "-m", "kniffel", "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(serve, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def call(method: str, path: str, body: object = None, key: str = "") -> tuple[int, object]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json", "X-Kniffel-Key": key}
        request = urllib.request.Request(url + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    found: list[tuple[float | None, int]] = []
    opened = contextlib.ExitStack()
    try:
        browser = opened.enter_context(contextlib.contextmanager(_chromium)()) if family else None
        while True:
            if server.poll() is not None:
                raise SystemExit(f"the server stopped at once (exit {server.returncode})")
            try:
                if call("GET", "/api/games")[0] == 200:
                    break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)
        for name, options in HOUSE_RULES[:count]:
            players = FAMILY if family else FAMILY[:2]
            body = {"variant": name, "players": players, "options": options}
            status, game = call("POST", "/api/games", body)
            assert status == 201 and isinstance(game, dict), (status, game)
            start = time.perf_counter()
            busy, waited = 0, None
            if browser is not None:
                clock = _tipp_in_chromium(browser, url, game, timeout)
                waited = None if clock is None else clock - start
            while waited is None and not family and time.perf_counter() - start < timeout:
                status, _ = call("GET", f"/api/games/{game['id']}/advice", key=game["key"])
                if status == 200:
                    waited = time.perf_counter() - start
                    break
                busy += status == 503
                time.sleep(0.25)
            found.append((waited, busy))
            shown = f"{waited:6.1f} s" if waited is not None else f"> {timeout:.0f} s"
            print(f"  {_rules_label(name, options):42} {shown}  (tables_busy {busy}×)", flush=True)
    finally:
        opened.close()
        stop(server)
    return found


def _warm_cache(folder: Path) -> None:
    """The presets' tables and chance tables, built into ``folder`` (not timed)."""
    import os

    from kniffel.solver.builds import preset_tables
    from kniffel.solver.exact.chance_table import column_chances as chances
    from kniffel.solver.exact.column import solve_column
    from kniffel.solver.raufrunter.bounds import arrow_table

    os.environ["KNIFFEL_CACHE_DIR"] = str(folder)
    for table in preset_tables():
        if table.discipline is None:
            arrow_table(table.options)
        elif table.chances:
            chances(table.options, table.discipline)
        else:
            solve_column(table.options, table.discipline)


def house_rules(
    main_dir: str | None,
    timeout: float,
    count: int,
    warm_dir: str | None = None,
    *,
    browser: bool = False,
) -> None:
    """The ``--house-rules`` mode: prints the seconds to each first Tipp, fresh and warm."""
    import os
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="tipp-house-rules-") as work:
        root = Path(work)
        warm = Path(warm_dir) if warm_dir else root / "warm-cache"
        if not warm.is_dir() or not any(warm.glob("chances-*.npz")):
            load = os.getloadavg()[0]
            print(f"building the presets' tables for the warm servers (load {load:.1f})")
            _warm_cache(warm)
        runs: dict[tuple[str, str], list[tuple[float | None, int]]] = {}
        checkouts = [("this", None)] + ([("main", main_dir)] if main_dir else [])
        for kind in ("fresh", "warm"):
            for label, src in checkouts:
                folder = root / f"{label}-{kind}"
                folder.mkdir()
                if kind == "warm":
                    shutil.copytree(warm, folder / "cache")
                load = os.getloadavg()[0]
                print(f"{label}, {kind} server (load average {load:.1f}):", flush=True)
                runs[label, kind] = _house_rules_server(
                    src, folder, kind == "fresh", timeout, count, browser
                )
        heads = [f"{label} {kind}" for label, _ in checkouts for kind in ("fresh", "warm")]
        print("\n| rule set | " + " | ".join(heads) + " |")
        print("| --- |" + " ---: |" * len(heads))
        for i, (name, options) in enumerate(HOUSE_RULES[:count]):
            cells = []
            for label, _ in checkouts:
                for kind in ("fresh", "warm"):
                    waited, busy = runs[label, kind][i]
                    cell = f"{waited:.1f} s" if waited is not None else f"> {timeout:.0f} s"
                    cells.append(cell + (f" ({busy}× busy)" if busy else ""))
            print(f"| {_rules_label(name, options)} | " + " | ".join(cells) + " |")


def _main_figures(args: argparse.Namespace, name: str) -> dict[str, tuple[float, float]]:
    """main's own benchmark of the same positions: its p50 and p95 per figure (ms)."""
    import os
    import re
    import subprocess
    import sys

    script = os.path.join(args.main, "benchmarks", "tipp.py")
    env = {**os.environ, "PYTHONPATH": os.path.join(args.main, "src")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # leave main's tree as it is
    command = [sys.executable, script, "--variant", name, "--positions", str(args.positions)]
    command += ["--seed", str(args.seed)]
    run = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    print(f"{name}: main\n{run.stdout.strip()}")
    found = {}
    for label in FIGURES:
        match = re.search(rf"{name}: {label}\s+p50\s+([\d.]+) ms\s+p95\s+([\d.]+) ms", run.stdout)
        if match is not None:
            found[label] = (float(match.group(1)), float(match.group(2)))
    return found


if __name__ == "__main__":
    main()
