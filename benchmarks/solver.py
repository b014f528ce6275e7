"""Solver figures: table build time (side by side with yatzy-solver), advice latency, games/s.

Run: ``uv run python benchmarks/solver.py [--games N] [--repeat N]``. Prints figures only;
the tables go to a temporary cache dir, so the user's cache is neither used nor changed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import yatzy_solver

from kniffel.rules import Dice, Game, RollAction, get_variant
from kniffel.solver.advice import advise, column_table
from kniffel.solver.exact import cache
from kniffel.solver.exact.column import solve_column


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that ended (our build's forked workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def timed(build: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds of this process and its workers, result)."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = build()
    return time.perf_counter() - wall, cpu_seconds() - cpu, result


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes): how busy it was."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def build_times(repeat: int, workers: int) -> None:
    options = get_variant("yahtzee").options
    reference = yatzy_solver.Variant("american+forced-joker")
    ours: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    for _ in range(repeat):  # alternated, so that both meet the same machine load
        wall, cpu, table = timed(lambda: solve_column(options, use_cache=False, workers=workers))
        ours.append((wall, cpu))
        wall, cpu, solver = timed(lambda: yatzy_solver.Solver.build(reference))
        theirs.append((wall, cpu))
    our_wall, our_cpu = min(ours)
    their_wall, their_cpu = min(theirs)
    print(
        f"one-column table, preset yahtzee (best of {repeat} runs each;"
        f" ours with {workers} process{'es' if workers > 1 else ''},"
        " yatzy-solver with all cores)"
    )
    print(
        f"  ours (numpy)           {our_wall:7.2f} s wall  {our_cpu:7.2f} s CPU   ev {table.ev:.7f}"
    )
    ev = solver.state_value("upper 0 | filled -")
    print(
        f"  yatzy-solver (Rust)    {their_wall:7.2f} s wall  {their_cpu:7.2f} s CPU   ev {ev:.7f}"
    )
    print(
        f"  ratio ours / Rust      {our_wall / their_wall:7.2f} wall"
        f"      {our_cpu / their_cpu:7.2f} CPU"
    )
    for (our_wall, our_cpu), (their_wall, their_cpu) in zip(ours, theirs, strict=True):
        print(
            f"    run: ours {our_wall:5.2f} s ({our_cpu:5.2f} CPU),"
            f" yatzy-solver {their_wall:5.2f} s ({their_cpu:5.2f} CPU),"
            f" ratio {our_wall / their_wall:.2f}"
        )
    states = int(np.isfinite(table.values).sum())
    space = table.space
    solved = sum(len(space.distinct(n)[0]) for n in range(space.n_rows))  # full sheets are 0
    print(
        f"  states                 {states}, {solved} of them solved"
        f" ({our_wall / solved * 1e6:.1f} µs each), the others copied (a settled upper sum)"
    )


def load_time() -> None:
    options = get_variant("yahtzee").options
    table = solve_column(options)  # builds and writes the cache file
    loads = [timed(lambda: solve_column(options))[0] for _ in range(5)]
    size = cache.path_for(table.space).stat().st_size
    print(
        f"cache load               {min(loads) * 1e3:7.1f} ms (best of 5), file {size / 1e6:.1f} MB"
    )


def play(rng: random.Random, latencies: list[float]) -> int:
    """One solitaire yahtzee game, every decision taken from :func:`advise`."""
    game = Game(get_variant("yahtzee"), ["Anna"])
    while not game.is_finished:
        start = time.perf_counter()
        action = advise(game).best
        latencies.append(time.perf_counter() - start)
        if isinstance(action, RollAction):
            rest = [rng.randint(1, 6) for _ in range(5 - len(action.keep))]
            game.apply(action, Dice.of([*action.keep, *rest]))
        else:
            game.apply(action)
    return game.total("Anna")


def advice_and_games(games: int) -> None:
    variant = get_variant("yahtzee")
    ev = column_table(variant.options, variant.columns[0].discipline).ev  # loaded once
    rng = random.Random(1)
    latencies: list[float] = []
    start = time.perf_counter()
    scores = [play(rng, latencies) for _ in range(games)]
    seconds = time.perf_counter() - start
    ms = np.array(latencies) * 1e3
    p50, p99 = np.percentile(ms, [50, 99])
    print(
        f"advice latency           p50 {p50:.2f} ms  p99 {p99:.2f} ms  max {ms.max():.2f} ms"
        f"  ({len(ms)} decisions; target p99 <= 10 ms)"
    )
    mean = statistics.fmean(scores)
    spread = statistics.stdev(scores) / games**0.5 if games > 1 else float("nan")
    print(f"simulated games          {games / seconds:7.1f} games/s  (advice-driven, rules engine)")
    print(f"  mean score             {mean:.1f} ± {spread:.1f}  (exact ev {ev:.4f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="advice-driven games to play")
    parser.add_argument("--repeat", type=int, default=3, help="builds of each table to time")
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes of our build (default: every core, as yatzy-solver uses)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        os.environ["KNIFFEL_CACHE_DIR"] = directory
        print(f"machine                  {os.cpu_count()} CPUs, numpy {np.__version__}")
        print(f"load average             {load()} (1, 5, 15 min) before the builds")
        build_times(args.repeat, args.workers)
        print(f"load average             {load()} after the builds")
        load_time()
        advice_and_games(args.games)


if __name__ == "__main__":
    main()
