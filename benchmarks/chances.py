"""Win chances: API latency for a four-player Rauf-Runter game, and the normal model's calibration.

Run: ``uv run python benchmarks/chances.py [--games N] [--variant V ...] [--seed S] [--family]
[--family-batch R] [--family-coverage R] [--family-chart]``.

1. **Latency.** Four seeded best-bot games of ``rauf-runter`` are interleaved into one
   four-player game; after every entry, ``forecast`` (what ``GET /api/games/{id}/chances``
   computes for a new version) is timed. Prints p50, p99, max.
2. **Calibration of the normal model** (the calibrated level and spread that the "Auf Sieg"
   Tipp uses far from the end; the forecast of the board used it before issue 20). Plays
   ``N`` seeded two-player and three-player games per variant with the
   best bot and records, after every entry, each player's predicted chance to finish first and
   who won (a tie shared). Prints the Brier score beside that of a logistic fit on the points
   lead alone (fitted on the same games, so it is flattered), and a reliability table: ten bins
   of predicted chance, with the mean prediction, the observed rate and the count.

3. **Jamb and Yams** (``--family``; issue 32): their chances are simulated games of the
   ``best`` family bot. A four-player Jamb and a three-player Yams game (with ``hand`` and
   ``announce``) of random legal moves are asked for their chances right after the entries at a
   quarter, half and three quarters of the game; each line prints the entries left to the sheet
   that changed, the games per sheet (the most of any player), the widest 95 % interval's
   half-width in percentage points, the seconds the forecast took **after that entry** (the
   other sheets' games kept from the position before, as on the board; also its CPU time, what
   the wall time would be on a quiet machine) and with **every sheet new** (a board that opens
   a game in mid-play), and the load average before and after. The issue's aim is ±3 points
   within 2 s. Beside them, the board's narrowing (:mod:`kniffel.solver.chances.refine`): the
   position before the entry narrowed first (untimed, as the board does while the player
   plays), then the seconds from the first answer after the entry until the chances are within
   ±3 points (or at the cap), the widest ± and the games per sheet (the most of any player) then.

   ``--family-batch R``: the games behind those forecasts, one sheet's games at a time, played
   one by one (``play_light``, as before) and in step (``play_light_batch``, as now), the same
   games (their points are checked equal): the CPU milliseconds a game each way, the best of
   ``R`` runs each (the machine is shared: the best run is the least disturbed one), and the
   ratio.

4. **Jamb's intervals** (``--family-coverage R``): two positions of two-player Jamb games,
   three quarters in; the chances from 4,000 bot games a player stand for the truth, and
   ``R`` seeds of 100 games a player are asked how often their 95 % interval holds it.

5. **Jamb's and Yams's end chart** (``--family-chart``; issue 32): the chart of the chances after
   every round of a finished four-player Jamb game and a three-player Yams game (with ``hand``
   and ``announce``) of random legal moves, as the board's worker draws it
   (:func:`~kniffel.solver.chances.rounds.chances_by_round`, the default budget). Prints the
   bound of work in units, the games per sheet and the widest 95 % interval at a quarter, half
   and three quarters of the rounds, the wall and CPU seconds, and the load average before and
   after.

The predictions come from the simulated games' own logs (each turn's bot expectation, the
totals so far). Seeds differ from those the calibration data were fitted on. How sure the
simulated chances of the forecast are: ``benchmarks/chances_intervals.py``.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.board.players.sample import random_game
from kniffel.rules import Enter, Game, get_variant
from kniffel.solver.chances.calibration import load_calibration
from kniffel.solver.chances.forecast import Chances, forecast
from kniffel.solver.chances.refine import settled
from kniffel.solver.chances.win import Pmf, win_chances
from kniffel.solver.play.simulate import Simulation, game_events, simulate

Array = npt.NDArray[np.float64]


#: The Jamb and Yams games the family tables ask: (preset, house rules, players).
FAMILY_GAMES: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("jamb", {}, 4),
    ("yams", {"hand": True, "announce": True}, 3),
)


def interleaved(sims: Simulation, first: int, players: int) -> Game:
    """Games ``first .. first + players - 1`` of ``sims`` as one game, turn by turn."""
    names = [f"P{k + 1}" for k in range(players)]
    per = [game_events(sims, first + k, names[k]) for k in range(players)]
    game = Game(sims.variant, names)
    turns = [_split(events) for events in per]
    for t in range(len(turns[0])):
        for k in range(players):
            game.extend(turns[k][t])
    return game


def _split(events: list) -> list[list]:  # type: ignore[type-arg]
    out: list[list] = [[]]  # type: ignore[type-arg]
    for event in events:
        out[-1].append(event)
        if isinstance(event, Enter):
            out.append([])
    return out[:-1]


def latency(seed: int) -> None:
    variant = get_variant("rauf-runter")
    sims = simulate(variant, "best", 4, seed, keep_logs=4)
    whole = interleaved(sims, 0, 4)
    game = Game(variant, whole.players)
    forecast(game)  # load the tables
    times = []
    for event in whole.log:
        game.push(event)
        if type(event).__name__ == "Enter":
            start = time.perf_counter()
            forecast(game)
            times.append(time.perf_counter() - start)
    ms = np.array(times) * 1000
    print("## Latency: a four-player Rauf-Runter game, after every entry\n")
    print("| positions | p50 | p99 | max |\n| ---: | ---: | ---: | ---: |")
    print(
        f"| {len(ms)} | {np.percentile(ms, 50):.1f} ms | {np.percentile(ms, 99):.1f} ms "
        f"| {ms.max():.1f} ms |\n",
        flush=True,
    )


def _family_positions(seed: int) -> Iterator[tuple[str, int, Game, list[int], int]]:
    """Each of :data:`FAMILY_GAMES` played by random legal moves (what the chances' cost and
    interval depend on is the entries left), a quarter, half and three quarters in: the game's
    name, its players, the whole game, the indexes of its entries in the log and the entries
    made."""
    for name, options, players in FAMILY_GAMES:
        whole = random_game(
            name, [f"P{k + 1}" for k in range(players)], random.Random(seed), options
        )
        entries = [i for i, e in enumerate(whole.log) if type(e).__name__ == "Enter"]
        for share in (0.25, 0.5, 0.75):
            yield name, players, whole, entries, int(len(entries) * share)


def _replayed(whole: Game, last: int) -> Game:
    """``whole``'s events up to index ``last`` of its log, on a new game."""
    game = Game(whole.variant, whole.players)
    for event in whole.log[: last + 1]:
        game.push(event)
    return game


def family(seed: int) -> None:
    """Interval and time of the simulated chances of Jamb and Yams (the ``--family`` table)."""
    from kniffel.solver.chances import family as sampled_family

    print("## Jamb and Yams: the simulated chances' interval and time\n")
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)\n")
    print(
        "| game | entries made | entries left to the sheet | games per sheet "
        "| widest ±, points (95 %) | after an entry | its CPU time | every sheet new "
        "| narrowed to ±3, seconds after the first answer | then: widest ± "
        "| then: games per sheet |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, players, whole, entries, made in _family_positions(seed):
        game = _replayed(whole, entries[made - 2])
        while sampled_family._kept.pop_newest() is not None:  # nothing kept: every sheet new
            pass
        start = time.perf_counter()
        forecast(game)
        cold = time.perf_counter() - start
        # The board narrowed the position before the entry while the player played (not
        # timed): its unchanged sheets keep those games.
        for _ in _narrowing(game):
            pass
        # The entry itself: only the sheet that changed is played again (the board's case).
        for event in whole.log[entries[made - 2] + 1 : entries[made - 1] + 1]:
            game.push(event)
        start, cpu = time.perf_counter(), time.process_time()
        found = forecast(game)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        widest = max((p.high - p.low) / 2 for p in found.players) * 100
        entered = whole.log[entries[made - 1]]
        assert isinstance(entered, Enter)
        left = game.cells_per_player - game.filled_count(entered.player)
        # The board's narrowing after its first answer (that of the forecast above, whose
        # games are kept), to ±3 or the cap.
        start = time.perf_counter()
        narrowed = list(_narrowing(game))[-1]
        narrowing = time.perf_counter() - start
        then = max((p.high - p.low) / 2 for p in narrowed.players) * 100
        capped = "" if settled(narrowed) else " (the cap)"
        print(
            f"| {name} ({players} players) | {made} of {len(entries)} | {left} "
            f"| {found.samples} | ±{widest:.1f} | {took:.2f} s | {cpu:.2f} s | {cold:.2f} s "
            f"| {narrowing:.1f} s | ±{then:.1f}{capped} | {narrowed.samples} |",
            flush=True,
        )
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}\n")


def family_batch(seed: int, repeats: int) -> None:
    """A sheet's games one by one and in step (the ``--family-batch`` table): CPU per game."""
    from kniffel.rules import turns_of
    from kniffel.solver.chances.family import SEED, family_samples_for, sheet_key
    from kniffel.solver.play.family import make_family_bot
    from kniffel.solver.play.family_batch import play_light_batch
    from kniffel.solver.play.family_fast import play_light

    print("## Jamb and Yams: a sheet's games one by one and in step\n")
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)\n")
    print(
        "| game | entries made | entries left to the sheet | games | one by one, CPU ms a game "
        "| in step, CPU ms a game | ratio |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, players, whole, entries, made in _family_positions(seed):
        variant = whole.variant
        game = _replayed(whole, entries[made - 1])
        entered = whole.log[entries[made - 1]]
        assert isinstance(entered, Enter)
        player = game.players.index(entered.player)
        solo = game.alone(player)
        start = tuple(solo.column_points(0, spec.id) for spec in variant.columns)
        left = game.cells_per_player - game.filled_count(player)
        n, key = family_samples_for(left), sheet_key(game, player)
        faces = np.stack(
            [
                np.random.default_rng([SEED, key, i]).integers(1, 7, size=(turns_of(variant), 3, 5))
                for i in range(n)
            ]
        )
        alone, together = [], []
        for _ in range(repeats):
            bot, cpu = make_family_bot("best", variant), time.process_time()
            one = [play_light(bot, f, solo.players[0], start=start).cells for f in faces]
            alone.append((time.process_time() - cpu) / n * 1000)
            bot, cpu = make_family_bot("best", variant), time.process_time()
            many = play_light_batch(bot, faces, solo.players[0], start=start)
            together.append((time.process_time() - cpu) / n * 1000)
            assert [tuple(map(tuple, cells)) for cells in many.tolist()] == one
        print(
            f"| {name} ({players} players) | {made} of {len(entries)} | {left} | {n} "
            f"| {min(alone):.2f} | {min(together):.2f} | {min(alone) / min(together):.2f} |",
            flush=True,
        )
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}\n")


def _narrowing(game: Game) -> Iterator[Chances]:
    """The board's chances of ``game``: the first answer, then each narrower one
    (:mod:`kniffel.solver.chances.refine`, as the board's live worker runs it)."""
    from kniffel.solver.chances.forecast import family_forecast
    from kniffel.solver.chances.refine import first_counts, narrowed

    found = family_forecast(game, first_counts(game))
    yield found
    yield from narrowed(game, found)


def family_coverage(repeats: int) -> None:
    """How often the Jamb chances' 95 % interval holds the chance of many more games (the
    ``--family-coverage`` table): two positions of two-player Jamb games of random legal moves,
    three quarters in; the "truth" from 4,000 games a player, then ``repeats`` seeds of 100."""
    from kniffel.solver.chances.family import family_finals
    from kniffel.solver.chances.interval import win_intervals

    variant = get_variant("jamb")
    print("## Jamb: the interval from 100 games a player against 4,000\n")
    print("| position | chances from 4,000 games | intervals | hold it |")
    print("| --- | --- | ---: | ---: |")
    held = total = 0
    for g in range(2):
        whole = random_game("jamb", ["P1", "P2"], random.Random(100 + g))
        entries = [i for i, e in enumerate(whole.log) if type(e).__name__ == "Enter"]
        game = Game(variant, whole.players)
        for event in whole.log[: entries[int(len(entries) * 0.75) - 1] + 1]:
            game.push(event)

        def pmf(p: int, n: int, seed: int, game: Game = game) -> Pmf:
            return Pmf.of_samples(game.total(p) + family_finals(game, p, n, seed=seed))

        truth = win_chances([pmf(p, 4000, 999) for p in (0, 1)])
        inside = 0
        for r in range(repeats):
            found = win_intervals([pmf(p, 100, 1000 + r) for p in (0, 1)], [100, 100])
            inside += sum(i.low <= t <= i.high for i, t in zip(found, truth, strict=True))
        held, total = held + inside, total + 2 * repeats
        shown = ", ".join(f"{t:.3f}" for t in truth)
        print(f"| {g + 1} | {shown} | {2 * repeats} | {inside / (2 * repeats):.1%} |", flush=True)
    print(f"\nAll: {held} of {total} ({held / total:.1%}).\n")


def family_chart(seed: int) -> None:
    """Work, time and intervals of Jamb's and Yams's end chart (the ``--family-chart`` table)."""
    from kniffel.solver.chances.rounds import CHART_BUDGET, chances_by_round, chart_bound

    print("## Jamb and Yams: the end chart of the chances, a point per round\n")
    print(f"Budget: {CHART_BUDGET:,} units of work a chart.\n")
    print(
        "| game | rounds | bound of work (units) | games a sheet, ¼ → ½ → ¾ of the rounds "
        "| widest ± (points, 95 %), ¼ → ½ → ¾ | wall | CPU | load average before → after |"
    )
    print("| --- | ---: | ---: | --- | --- | ---: | ---: | --- |")
    for name, options, players in FAMILY_GAMES:
        game = random_game(
            name, [f"P{k + 1}" for k in range(players)], random.Random(seed), options
        )
        rounds = game.cells_per_player
        load = os.getloadavg()[0]
        start, cpu = time.perf_counter(), time.process_time()
        series = chances_by_round(game)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        at = [series.turns[int(rounds * share) - 1].chances for share in (0.25, 0.5, 0.75)]
        games = " → ".join(str(c.samples) for c in at)
        widest = " → ".join(
            f"±{max((p.high - p.low) / 2 for p in c.players) * 100:.1f}" for c in at
        )
        print(
            f"| {name} ({players} players) | {rounds} | {chart_bound(rounds, players):,} "
            f"| {games} | {widest} | {took:.1f} s | {cpu:.1f} s "
            f"| {load:.1f} → {os.getloadavg()[0]:.1f} |",
            flush=True,
        )
    print()


def _logs(sims: Simulation) -> tuple[Array, Array]:
    gains = np.concatenate([np.stack([t.gain for t in b], axis=1) for b in sims.logs])
    expected = np.concatenate([np.stack([t.expected for t in b], axis=1) for b in sims.logs])
    return gains.astype(np.float64), expected


def predictions(name: str, games: int, players: int, seed: int) -> tuple[Array, Array, Array]:
    """Per (game, entry, player): predicted chance, lead over the best other, outcome."""
    variant = get_variant(name)
    calibration = load_calibration(variant)
    assert calibration is not None
    offsets = np.zeros(len(calibration.offset)) if len(variant.columns) == 1 else calibration.offset
    sims = simulate(variant, "best", games * players, seed, keep_logs=games * players)
    gains, expected = _logs(sims)
    turns = gains.shape[1]
    done = np.concatenate([np.zeros((len(gains), 1)), np.cumsum(gains, axis=1)], axis=1)
    finals = done[:, -1].reshape(games, players)
    best = finals.max(axis=1, keepdims=True)
    share = (finals == best) / (finals == best).sum(axis=1, keepdims=True)
    predicted, leads, outcomes = [], [], []
    for g in range(games):
        rows = slice(g * players, (g + 1) * players)
        for t in range(turns):
            for k in range(players):
                made = np.array([t + 1 if j <= k else t for j in range(players)])
                pmfs = []
                totals = done[rows][np.arange(players), made]
                for j in range(players):
                    left = turns - made[j]
                    if left == 0:
                        pmfs.append(Pmf(int(totals[j]), np.ones(1)))
                        continue
                    mean = totals[j] + expected[rows][j, made[j]] + offsets[left]
                    pmfs.append(Pmf.normal(mean, calibration.std[left]))
                chances = win_chances(pmfs)
                for j in range(players):
                    others = np.delete(totals, j)
                    predicted.append(chances[j])
                    leads.append(totals[j] - others.max())
                    outcomes.append(share[g, j])
    return np.array(predicted), np.array(leads), np.array(outcomes)


def logistic_brier(leads: Array, outcomes: Array) -> float:
    """Brier score of a logistic fit of the outcome on the lead (Newton's method)."""
    x = np.stack([np.ones_like(leads), leads / 100], axis=1)
    w = np.zeros(2)
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (outcomes - p)
        hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-9 * np.eye(2)
        w += np.linalg.solve(hess, grad)
    p = 1 / (1 + np.exp(-x @ w))
    return float(np.mean((p - outcomes) ** 2))


def calibration_table(name: str, games: int, players: int, seed: int) -> None:
    start = time.perf_counter()
    predicted, leads, outcomes = predictions(name, games, players, seed)
    brier = float(np.mean((predicted - outcomes) ** 2))
    print(f"## {name}, {players} players, {games} games (seed {seed})\n")
    baseline = logistic_brier(leads, outcomes)
    print(
        f"Brier score {brier:.4f}; logistic fit on the lead alone {baseline:.4f}"
        f" ({len(predicted)} predictions, {time.perf_counter() - start:.0f} s)\n"
    )
    print("| bin | predicted mean | observed rate | count | within ±0.03 |")
    print("| --- | ---: | ---: | ---: | --- |")
    bins = np.minimum((predicted * 10).astype(int), 9)
    for b in range(10):
        inside = bins == b
        n = int(inside.sum())
        if n == 0:
            print(f"| {b / 10:.1f}–{(b + 1) / 10:.1f} | | | 0 | |")
            continue
        mean, rate = predicted[inside].mean(), outcomes[inside].mean()
        ok = "yes" if abs(mean - rate) <= 0.03 else ("no" if n >= 200 else "(few)")
        print(f"| {b / 10:.1f}–{(b + 1) / 10:.1f} | {mean:.3f} | {rate:.3f} | {n} | {ok} |")
    print(flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--variant", action="append")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, action="append", help="2 and 3 unless given")
    parser.add_argument("--no-latency", action="store_true")
    parser.add_argument("--family", action="store_true", help="only Jamb's and Yams's chances")
    parser.add_argument(
        "--family-batch",
        type=int,
        metavar="R",
        help="only a sheet's games one by one and in step, the best of R runs",
    )
    parser.add_argument(
        "--family-coverage", type=int, metavar="R", help="only Jamb's intervals, R seeds each"
    )
    parser.add_argument(
        "--family-chart", action="store_true", help="only Jamb's and Yams's end chart"
    )
    args = parser.parse_args()
    os.environ.setdefault("KNIFFEL_CACHE_DIR", tempfile.mkdtemp(prefix="kniffel-bench-"))
    if args.family:
        family(args.seed)
        return
    if args.family_chart:
        family_chart(args.seed)
        return
    if args.family_batch:
        family_batch(args.seed, args.family_batch)
        return
    if args.family_coverage:
        family_coverage(args.family_coverage)
    if not args.no_latency:
        latency(args.seed)
    for name in args.variant or ["kniffel", "rauf-runter"]:
        for players in args.players or [2, 3]:
            calibration_table(name, args.games, players, args.seed)


if __name__ == "__main__":
    main()
