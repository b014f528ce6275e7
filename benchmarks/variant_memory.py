"""Memory per set of house rules (issue 33, item 4): flat once the bound is reached.

Run: ``uv run python benchmarks/variant_memory.py [--combinations 20] [--memory-mb 256 64]
[--tables DIR]``.

Each house-rule combination whose win chances are asked builds solver objects that the board
hands out again (the best bot with its solved tables, the late distributions, the score
tables). Before issue 33 they were kept for ever (``functools.cache``), about 8 MB of RSS per
combination. Now they share one store bounded by ``KNIFFEL_VARIANT_MEMORY_MB``
(``kniffel.solver.per_variant``; docs/deploy.md, "Limits").

For each bound named by ``--memory-mb`` (and once unbounded, ``100000`` MB, as every
combination was kept before), a fresh interpreter asks the win chances (``forecast``, what the
board's chances ask) of ``--combinations`` Kniffel games of two players with different house
rules (a Kniffel bonus of 10, 20, … points, ``zero_only_upper`` and ``pasch`` varied), each
twice: early (two entries each: simulated games of the best bot) and late (four cells left each:
the exact late distributions). After each combination it prints the process's RSS (``VmRSS``)
and the weight of the store. The solved one-column tables go to a throwaway cache folder shared
by the runs, so the first run solves them (seconds each) and the later ones read them.

The runs come one after the other, so their RSS are comparable and their times are not.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

UNBOUNDED_MB = 100_000


def combinations(n: int) -> list[dict[str, Any]]:
    """``n`` distinct house rules of Kniffel, none of them a preset's."""
    out: list[dict[str, Any]] = []
    for i in range(n):
        options: dict[str, Any] = {"kniffel_bonus": 10 * (i // 2 + 1) + (5 if i % 2 else 0)}
        if i % 3 == 1:
            options["zero_only_upper"] = True
        if i % 4 == 2:
            options["pasch"] = "matching_dice"
        out.append(options)
    return out


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def _played(options: dict[str, Any], cells: int, seed: int) -> Any:
    """A two-player Kniffel game under ``options``, random legal moves until each player
    has filled ``cells`` cells (a roll before every entry)."""
    from kniffel.board.players.sample import play_randomly
    from kniffel.rules import Game, get_variant

    game = Game(get_variant("kniffel", options), ["A", "B"])
    play_randomly(game, random.Random(seed), lambda g: min(map(g.filled_count, (0, 1))) >= cells)
    return game


def child(n: int) -> None:
    """One bound (``KNIFFEL_VARIANT_MEMORY_MB`` of the environment): a JSON line each."""
    from kniffel.board.players.sample import play_randomly  # noqa: F401 (in the start's RSS)
    from kniffel.solver.chances.forecast import forecast
    from kniffel.solver.per_variant import kept_variants

    print(json.dumps({"start": _rss_mb()}), flush=True)
    for i, options in enumerate(combinations(n)):
        started = time.monotonic()
        for cells in (2, 9):
            forecast(_played(options, cells, seed=i))
        store = kept_variants()
        line = {
            "i": i + 1,
            "options": options,
            "rss": round(_rss_mb(), 1),
            "kept_mb": round(store.weight / 2**20, 1),
            "kept": len(store),
            "seconds": round(time.monotonic() - started, 1),
        }
        print(json.dumps(line), flush=True)


def run(bound: int, n: int, cache: Path) -> list[dict[str, Any]]:
    env = os.environ | {
        "KNIFFEL_VARIANT_MEMORY_MB": str(bound),
        "KNIFFEL_CACHE_DIR": str(cache),
        "OPENBLAS_NUM_THREADS": "1",
    }
    label = "unbounded (before issue 33)" if bound == UNBOUNDED_MB else f"{bound} MB"
    print(f"--- {label}", flush=True)
    process = subprocess.Popen(
        [sys.executable, __file__, "--child", "--combinations", str(n)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    lines: list[dict[str, Any]] = []
    for raw in process.stdout:
        line = json.loads(raw)
        lines.append(line)
        if "i" in line:
            print(
                f"  {line['i']:>2}  RSS {line['rss']:7.1f} MB  kept {line['kept_mb']:6.1f} MB "
                f"({line['kept']} objects)  {line['seconds']:5.1f} s  {line['options']}",
                flush=True,
            )
        else:
            print(f"  before the first: RSS {line['start']:.1f} MB", flush=True)
    if process.wait() != 0:
        raise SystemExit(f"the run with {label} failed (exit {process.returncode})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--combinations", type=int, default=20)
    parser.add_argument("--memory-mb", type=int, nargs="+", default=[256, 64])
    parser.add_argument("--tables", type=Path, help="a cache folder to copy solved tables from")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.combinations)
        return
    with tempfile.TemporaryDirectory(prefix="variant-memory-") as folder:
        cache = Path(folder)
        if args.tables:
            for table in args.tables.iterdir():
                if table.is_file():
                    (cache / table.name).symlink_to(table.resolve())
        print(f"load average at the start: {os.getloadavg()[0]:.1f}")
        results = {b: run(b, args.combinations, cache) for b in [UNBOUNDED_MB, *args.memory_mb]}
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print()
    header = ["combination", *(_label(b) for b in results)]
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join(["---"] + ["---:"] * len(results)) + " |")
    for i in range(args.combinations):
        cells = [str(i + 1)]
        for lines in results.values():
            step = [line for line in lines if line.get("i") == i + 1]
            cells.append(f"{step[0]['rss']:.0f} MB" if step else "-")
        print("| " + " | ".join(cells) + " |")
    for bound, lines in results.items():
        steps = [line for line in lines if "i" in line]
        half = len(steps) // 2
        growth = steps[-1]["rss"] - steps[half - 1]["rss"] if half else 0.0
        print(
            f"{_label(bound)}: RSS after the first {steps[0]['rss']:.0f} MB, "
            f"after the last {steps[-1]['rss']:.0f} MB; the second half of the combinations "
            f"added {growth:+.0f} MB (store {steps[-1]['kept_mb']:.0f} MB)"
        )


def _label(bound: int) -> str:
    return "unbounded (before)" if bound == UNBOUNDED_MB else f"bound {bound} MB"


if __name__ == "__main__":
    main()
