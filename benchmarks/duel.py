"""Duel figures: the win bot's speed beside the best bot's, and where the two disagree most.

Run: ``uv run python benchmarks/duel.py speed --variant kniffel --games 500``
prints games per second of ``best`` against ``best``'s own play (a solitaire
simulation of both seats) and of a ``win``-``best`` duel, measured side by side
in one run (the ratio is what counts on a busy machine).

``uv run python benchmarks/duel.py disagree --variant kniffel --games 400 --top 8``
plays seeded duels (the win bot in both seats, against the best bot) and, at
every decision of the win bot's late turns, compares its choice with the one
the best bot would make in the same position: the difference of the chance to
win (by the win bot's exact figures) between the two. Prints the largest ones
with the dice and both sheets (docs/solver.md, "The decisions where the two
disagree most"), and how often the two disagree at all.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from kniffel.rules import Variant, get_variant, rows_for
from kniffel.solver.chances.distribution import best_bot, roller
from kniffel.solver.chances.duel import duel
from kniffel.solver.chances.winbot import LATE, WinBot
from kniffel.solver.exact.dice_tables import KEEPS, ROLL_KEEPS, ROLLS
from kniffel.solver.play.bots import KEEP_SIZE, best_index, keep_worth_per_roll
from kniffel.solver.play.sheets import SheetBatch


def speed(variant: Variant, games: int, seed: int, late: int) -> None:
    start = time.perf_counter()
    duel(variant, ("best", "greedy"), games, seed)
    best_seconds = time.perf_counter() - start
    start = time.perf_counter()
    result = duel(variant, ("win", "best"), games, seed, late=late)
    win_seconds = time.perf_counter() - start
    print(f"{variant.name}: {games} games, seed {seed}, late {late}")
    print(f"  best-greedy duel: {games / best_seconds:8.1f} games/s")
    print(f"  win-best duel:    {games / win_seconds:8.1f} games/s")
    print(f"  ratio (time of win-best / best-greedy): {win_seconds / best_seconds:.2f}")
    print(f"  win rate of win: {result.win_rate['win']:.4f}, ci95 {result.ci95['win']}")


@dataclass(frozen=True)
class Disagreement:
    gap: float  # P(win) of the win bot's choice minus that of the best bot's choice
    stage: str
    dice: str
    win_choice: str
    best_choice: str
    win_value: float
    best_value: float
    sheet: str
    opponent: str


def _describe(sheets: SheetBatch, b: int) -> str:
    rows = sheets.rows
    parts = []
    for c, spec in enumerate(sheets.variant.columns):
        open_rows = [r.value for i, r in enumerate(rows) if not (sheets.filled[b, c] >> i) & 1]
        label = "" if len(sheets.variant.columns) == 1 else f"{spec.id}: "
        kniffel = " (Kniffel 50)" if sheets.fifty[b, c] else ""
        parts.append(
            f"{label}open {', '.join(open_rows) or 'none'}; upper {sheets.upper[b, c]}{kniffel}"
        )
    return f"total {sheets.totals()[b]}; " + "; ".join(parts)


def _keep_label(keep: int) -> str:
    if KEEP_SIZE[keep] == 5:
        return "stop (keep all)"
    return "keep " + (" ".join(map(str, KEEPS[keep])) or "nothing")


def _slot_label(sheets: SheetBatch, entries_row: int, slot: int) -> str:
    column = sheets.variant.columns[int(sheets.layout.column[slot])].id
    row = sheets.rows[entries_row].value
    return row if len(sheets.variant.columns) == 1 else f"{column}.{row}"


def disagree(variant: Variant, games: int, seed: int, late: int, top: int) -> None:
    win = WinBot(variant, late)
    best = best_bot(variant)
    turns = len(variant.columns) * len(rows_for(variant.options))
    found: list[Disagreement] = []
    decisions = differing = 0
    deals = games // 2
    faces = np.empty((2, deals, turns, 3, 5), dtype=np.int64)
    for i in range(deals):
        faces[:, i] = np.random.default_rng([seed, i]).integers(1, 7, size=(2, turns, 3, 5))
    for win_seat in (0, 1):
        sheets = [SheetBatch(variant, deals), SheetBatch(variant, deals)]
        choices = np.zeros((deals, 3))
        for turn in range(turns):
            for seat in (0, 1):
                roll = roller(faces[seat], turn)
                if seat != win_seat:
                    best.play_turns(sheets[seat], roll, choices)
                    continue
                mine, other = sheets[seat], sheets[1 - seat]
                win.against(other)
                late_now = win.is_late(mine)
                entries, worth = win.worth(mine)
                _, points = best.worth(mine)
                kw_win, kw_best = (
                    keep_worth_per_roll(worth.max(axis=1)),
                    keep_worth_per_roll(points.max(axis=1)),
                )
                for b in np.flatnonzero(late_now).tolist():
                    current = int(roll(0, np.zeros(deals, dtype=np.int64))[b])
                    for j in (0, 1, 2):
                        decisions += 1
                        if j < 2:
                            candidates = ROLL_KEEPS[current]
                            k_win = int(candidates[best_index(kw_win[j][b, candidates])])
                            k_best = int(candidates[best_index(kw_best[j][b, candidates])])
                            w_win, w_best = kw_win[j][b, k_win], kw_win[j][b, k_best]
                            labels = _keep_label(k_win), _keep_label(k_best)
                        else:
                            s_win = int(best_index(worth[b, :, current]))
                            s_best = int(best_index(points[b, :, current]))
                            w_win, w_best = worth[b, s_win, current], worth[b, s_best, current]
                            labels = (
                                _slot_label(mine, int(entries.row[b, s_win]), s_win),
                                _slot_label(mine, int(entries.row[b, s_best]), s_best),
                            )
                        if labels[0] != labels[1]:
                            differing += 1
                            found.append(
                                Disagreement(
                                    float(w_win - w_best),
                                    ("after roll 1", "after roll 2", "entry")[j],
                                    " ".join(map(str, ROLLS[current])),
                                    labels[0],
                                    labels[1],
                                    float(w_win),
                                    float(w_best),
                                    _describe(mine, b),
                                    _describe(other, b),
                                )
                            )
                        if j == 2:
                            break
                        keep = k_win
                        if KEEP_SIZE[keep] == 5:
                            break
                        # the dice the win bot then sees (the duel's roller, per sheet)
                        keeps = np.zeros(deals, dtype=np.int64)
                        keeps[b] = keep
                        current = int(roll(j + 1, keeps)[b])
                win.play_turns(mine, roll, choices)
    found.sort(key=lambda d: -d.gap)
    print(
        f"{variant.name}: {games} games (seed {seed}, late {late}): {decisions} late decisions "
        f"of the win bot, {differing} unlike the best bot's"
    )
    for d in found[:top]:
        print(
            f"- {d.stage}, dice {d.dice}: win bot {d.win_choice} ({d.win_value:.3f}), "
            f"best bot {d.best_choice} ({d.best_value:.3f}); gap {d.gap:.3f}\n"
            f"    own sheet: {d.sheet}\n    opponent:  {d.opponent}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=("speed", "disagree"))
    parser.add_argument("--variant", default="kniffel")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--late", type=int, default=LATE)
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    variant = get_variant(args.variant)
    if args.what == "speed":
        speed(variant, args.games, args.seed, args.late)
    else:
        disagree(variant, args.games, args.seed, args.late, args.top)


if __name__ == "__main__":
    main()
