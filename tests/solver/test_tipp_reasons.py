"""The Tipp's reasons are properties of the position (issue 20 item 3): exact in one column
against a brute-force count, the same on every request, settled figures exactly 0 or 1 and
open ones never shown as 0 % or 100 % (docs/solver.md, "The Tipp's reasons")."""

from __future__ import annotations

import itertools
import threading
import time
from fractions import Fraction
from typing import Any

import pytest

from kniffel.locales import Translator
from kniffel.rules import (
    UPPER_BONUS_THRESHOLD,
    Dice,
    Game,
    Roll,
    RollAction,
    Row,
    get_variant,
)
from kniffel.solver.advice import reasons as reasons_module
from kniffel.solver.advice import turn_ends
from kniffel.solver.advice.notation import parse_sheet
from kniffel.solver.advice.position import evaluate
from kniffel.solver.advice.reasons import HALF_WIDTH, Reasons, reasons
from kniffel.solver.exact.dice_tables import ROLL_INDEX
from kniffel.web.present.advice_words import AdviceWords

UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
LOWER = ["three_kind", "four_kind", "full_house", "small_straight", "large_straight"]


#: The no-break space between a figure and its percent sign (German).
NB = "\u00a0"


def _chain(keep_best: int, rolls: int = 3) -> list[Fraction]:
    """Brute force: the distribution of how many dice show the aimed-at value after
    ``rolls`` rolls, keeping those and rolling the rest (``keep_best`` 6: sixes; 0: the
    most common face, the Kniffel chase), by counting every outcome of five dice."""
    outcomes = list(itertools.product(range(1, 7), repeat=5))

    def first_count(faces: tuple[int, ...]) -> int:
        if keep_best:
            return faces.count(keep_best)
        return max(faces.count(f) for f in range(1, 7))

    dist = [Fraction(0)] * 6
    for faces in outcomes:
        dist[first_count(faces)] += Fraction(1, len(outcomes))
    for _ in range(rolls - 1):
        step = [Fraction(0)] * 6
        for held, p in enumerate(dist):
            if p == 0:
                continue
            free = 5 - held
            for faces in itertools.product(range(1, 7), repeat=free):
                if keep_best:
                    got = held + faces.count(keep_best)
                elif held == 0:
                    got = max(faces.count(f) for f in range(1, 7))
                else:  # the held face (say 1s) stays the aim, unless more of another fell
                    others = max((faces.count(f) for f in range(2, 7)), default=0)
                    got = max(held + faces.count(1), others)
                step[got] += p / 6**free
        dist = step
    return dist


@pytest.fixture(scope="module")
def kniffel_chances() -> None:
    from kniffel.solver.exact.chance_table import column_chances

    variant = get_variant("kniffel")
    column_chances(variant.options, variant.columns[0].discipline)


@pytest.mark.usefixtures("kniffel_chances")
def test_one_open_sixes_row_equals_the_brute_force_count() -> None:
    """Only the Sechser left, 45 in the upper rows: the bonus comes with three sixes or more."""
    done = [f"{r}={3 * (i + 1)}" for i, r in enumerate(UPPER[:5])]
    lower = ["three_kind=20", "four_kind=0", "full_house=25", "small_straight=30"]
    lower += ["large_straight=40", "kniffel=0", "chance=22"]
    game = parse_sheet(get_variant("kniffel"), ",".join(done + lower))
    assert game.column_totals(0, "main").upper == UPPER_BONUS_THRESHOLD - 18
    found = reasons(game, None, 1, [], exact=True)
    dist = _chain(6)
    assert found.method == "exact"
    assert found.now.bonus["main"] == pytest.approx(float(sum(dist[3:])), abs=1e-9)
    assert found.now.kniffel is None
    assert "main" not in found.now.decided


@pytest.mark.usefixtures("kniffel_chances")
def test_one_open_kniffel_row_equals_the_brute_force_count() -> None:
    upper = [f"{r}={3 * (i + 1)}" for i, r in enumerate(UPPER)]
    lower = [f"{r}=0" for r in LOWER] + ["chance=22"]
    game = parse_sheet(get_variant("kniffel"), ",".join(upper + lower))
    found = reasons(game, None, 1, [], exact=True)
    assert found.now.kniffel == pytest.approx(float(_chain(0)[5]), abs=1e-9)
    # The bonus is settled (63 reached): exactly 1, and shown as 100 %.
    assert found.now.bonus["main"] == 1.0 and "main" in found.now.decided


@pytest.mark.usefixtures("kniffel_chances")
def test_settled_figures_are_exact_and_open_ones_are_never_0_or_100_percent() -> None:
    # Out of reach: nothing in the upper rows but the sixes, 5 of them make 30 < 63.
    sheet = ",".join([f"{r}=0" for r in UPPER[:5]] + ["three_kind=20"])
    game = parse_sheet(get_variant("kniffel"), sheet)
    position = evaluate(game, Dice.parse("66612"), 1)
    actions = [c.action for c in position.choices[:5]]
    found = reasons(game, ROLL_INDEX[Dice.parse("66612")], 1, actions, exact=True)
    assert found.now.bonus["main"] == 0.0 and "main" in found.now.decided
    words = AdviceWords(Translator("de"))
    assert words.chance(0.0, True) == f"0{NB}%" and words.chance(1.0, True) == f"100{NB}%"
    assert words.chance(0.0, False) == f"< 1{NB}%" and words.chance(1.0, False) == f"> 99{NB}%"
    assert words.chance(0.996, False) == f"> 99{NB}%" and words.chance(0.004, False) == f"< 1{NB}%"
    assert words.chance(0.995, False) == f"> 99{NB}%" and words.chance(0.005, False) == f"< 1{NB}%"


def _late_rauf_runter() -> str:
    """Three cells left: Runter's Chance (63 reached), Rauf's Einser (56: out of reach even
    with five ones), Frei's Sechser (57: one six gives the bonus)."""
    down = [f"down.{r}={3 * (i + 1)}" for i, r in enumerate(UPPER)]
    down += [f"down.{r}=0" for r in LOWER] + ["down.kniffel=0"]
    up = ["up.twos=2", "up.threes=9", "up.fours=12", "up.fives=15", "up.sixes=18"]
    up += [f"up.{r}=0" for r in LOWER] + ["up.kniffel=0", "up.chance=20"]
    free = ["free.ones=3", "free.twos=6", "free.threes=12", "free.fours=16", "free.fives=20"]
    free += [f"free.{r}=0" for r in LOWER] + ["free.kniffel=0", "free.chance=20"]
    return ",".join(down + up + free)


def test_simulated_reasons_are_the_same_on_every_request_and_within_their_interval() -> None:
    game = parse_sheet(get_variant("rauf-runter"), _late_rauf_runter())
    dice = Dice.parse("66612")
    position = evaluate(game, dice, 2)
    actions = [c.action for c in position.choices[:5]]
    first = reasons(game, ROLL_INDEX[dice], 2, actions, exact=False)
    # A new request, on a fresh server: the same streams give the same figures.
    reasons_module._CACHE = reasons_module._Cache()
    turn_ends.STREAMS = turn_ends._Streams()
    again = reasons(game, ROLL_INDEX[dice], 2, actions, exact=False)
    assert again == first
    assert first.method == "simulation" and 0 < first.half_width <= HALF_WIDTH
    # Runter's and Rauf's bonus are settled (reached: 63 each); Frei's is open.
    for chances in (first.now, *first.after):
        assert chances is not None
        assert chances.bonus["down"] == 1.0 and chances.bonus["up"] == 0.0
        assert "free" not in chances.decided or chances.bonus["free"] in (0.0, 1.0)
    # Frei's bonus is open: its figure is what the samples show (all of them may reach it),
    # and the board's words never call an open bonus certain (docs/solver.md).
    assert "free" not in first.now.decided and 0 < first.now.bonus["free"] <= 1
    shown = AdviceWords(Translator("de")).chance(first.now.bonus["free"], decided=False)
    assert shown not in (f"100{NB}%", f"0{NB}%")
    assert first.now.kniffel is None  # every Kniffel cell is filled


def test_reasons_of_the_rolls_of_one_turn_read_the_same_games() -> None:
    """Roll 1, 2 and 3 of one turn: each end state's games are the same stream."""
    game = parse_sheet(get_variant("rauf-runter"), _late_rauf_runter())
    dice = Dice.parse("66612")
    kept = []
    for rolls in (1, 2, 3):
        position = evaluate(game, dice, rolls)
        actions = [c.action for c in position.choices[:5]]
        kept.append(reasons(game, ROLL_INDEX[dice], rolls, actions, exact=False))
    assert all(0 < r.half_width <= HALF_WIDTH for r in kept)
    # Roll 2 alone, on a fresh server: what roll 1 played before it changes nothing.
    reasons_module._CACHE = reasons_module._Cache()
    turn_ends.STREAMS = turn_ends._Streams()
    position = evaluate(game, dice, 2)
    actions = [c.action for c in position.choices[:5]]
    assert reasons(game, ROLL_INDEX[dice], 2, actions, exact=False) == kept[1]
    assert {r.now.bonus["up"] for r in kept} == {0.0}
    assert Row.KNIFFEL.value in kept[0].now.decided


def test_each_simulated_figure_has_its_own_interval() -> None:
    """The calibration benchmark counts each figure against its own 95 % half-width: the
    widest of them is the one the Tipp states, a figure the end states settle has none."""
    game = parse_sheet(get_variant("rauf-runter"), _late_rauf_runter())
    dice = Dice.parse("66612")
    position = evaluate(game, dice, 2)
    actions = [c.action for c in position.choices[:5]]
    found = turn_ends.estimate(game, ROLL_INDEX[dice], 2, actions)
    assert len(found.half_widths) == 1 + len(actions)
    widths = [w for figure in found.half_widths for w in figure]
    assert max(widths) == pytest.approx(found.half_width, abs=1e-12)
    assert all(0 <= w <= HALF_WIDTH * (1 + 1e-6) for w in widths)
    for figure in found.half_widths:  # down, up (settled), free, then the Kniffel (none open)
        assert figure[0] == 0.0 and figure[1] == 0.0 and figure[3] == 0.0
    assert found.half_widths[0][2] > 0  # Frei's bonus is open now


def _fresh() -> None:
    """A fresh server's caches (after the background has finished what it had)."""
    assert reasons_module._BACKGROUND.wait_idle(1200)
    reasons_module._CACHE = reasons_module._Cache()
    turn_ends.STREAMS = turn_ends._Streams()


def _middle_rauf_runter() -> str:
    """The late sheet with five of Frei's cells open again: many end states this turn."""
    opened = ("free.fives", "free.chance", "free.kniffel", "free.full_house", "free.sixes")
    late = _late_rauf_runter().split(",")
    return ",".join(cell for cell in late if cell.split("=")[0] not in opened)


def test_the_start_of_a_turn_worked_out_ahead_serves_the_turns_first_tipp(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the others play, the background plays the end states' games of the next turn
    (``ahead``); the Tipp after the first roll then reads mostly games already played, and its
    figures are the same as without the work ahead (a small bound of work: quicker,
    the same rules)."""
    monkeypatch.setattr(turn_ends, "WORK", 6_000)
    game = parse_sheet(get_variant("rauf-runter"), _middle_rauf_runter())
    dice = Dice.parse("66612")
    position = evaluate(game, dice, 1)
    actions = [c.action for c in position.choices[:5]]
    _fresh()
    cold = reasons(game, ROLL_INDEX[dice], 1, actions, exact=False)
    played_cold = turn_ends.STREAMS.played
    _fresh()
    worked = reasons_module._BACKGROUND.worked_ahead
    anna = game.current_player()
    assert anna is not None
    reasons_module.ahead(game, anna)
    assert reasons_module._BACKGROUND.wait_idle(1200)
    assert reasons_module._BACKGROUND.worked_ahead == worked + 1
    played_ahead = turn_ends.STREAMS.played
    assert played_ahead > 0
    reasons_module.ahead(game, anna)  # once is enough: played ahead already
    assert reasons_module._BACKGROUND.wait_idle(1200)
    assert reasons_module._BACKGROUND.worked_ahead == worked + 1
    # The Tipp before the first roll is the position worked out ahead: kept.
    start = evaluate(game)
    assert [c.action for c in start.choices] == [RollAction()]
    kept = reasons(game, None, 0, [RollAction()], exact=False, compute=False)
    assert kept is not None and kept.method == "simulation"
    warm = reasons(game, ROLL_INDEX[dice], 1, actions, exact=False)
    assert warm == cold
    assert turn_ends.STREAMS.played - played_ahead < played_cold
    # Nothing is worked ahead once the dice are rolled, nor in one column (exact there).
    _fresh()
    rolled = game.copy()
    rolled.push(Roll(game.current_name, dice, ()))
    reasons_module.ahead(rolled, anna)
    reasons_module.ahead(Game(get_variant("kniffel"), ["Anna", "Ben"]), 0)
    assert reasons_module._BACKGROUND.wait_idle(1200)
    assert reasons_module._BACKGROUND.worked_ahead == worked + 1
    assert turn_ends.STREAMS.played == 0


def test_a_tipp_asked_while_the_background_works_ahead_goes_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The work ahead stops at its next round of games when a Tipp is asked (the games it
    played stay for later); the asked Tipp is worked out at once."""
    game = parse_sheet(get_variant("rauf-runter"), _late_rauf_runter())
    dice = Dice.parse("66612")
    position = evaluate(game, dice, 2)
    actions = [c.action for c in position.choices[:5]]
    _fresh()
    started = threading.Event()
    estimate = reasons_module.estimate

    def rounds_until_asked(
        game: Game,
        dice_index: int | None,
        rolls: int,
        actions: Any,
        progress: Any = None,
        **deeper: Any,
    ) -> Any:
        if dice_index is None:  # the work ahead: round after round until a Tipp is asked
            started.set()
            for _ in range(60_000):
                progress(0.5)
                time.sleep(0.01)
            raise AssertionError("the work ahead was not stopped")
        return estimate(game, dice_index, rolls, actions, progress)

    monkeypatch.setattr(reasons_module, "estimate", rounds_until_asked)
    stopped = reasons_module._BACKGROUND.stopped_ahead
    reasons_module.ahead(game, 0)
    assert started.wait(600)
    found = reasons_module.pending(game, ROLL_INDEX[dice], 2, actions, exact=False, seconds=600)
    assert isinstance(found, reasons_module.Reasons) and found.method == "simulation"
    assert reasons_module._BACKGROUND.wait_idle(600)
    assert reasons_module._BACKGROUND.stopped_ahead == stopped + 1


def _early_rauf_runter(faces: str = "66612") -> tuple[Game, int, list[Any]]:
    """The first roll of a Rauf-Runter game: the position whose final figures take longest."""
    game = Game(get_variant("rauf-runter"), ["Anna", "Ben"])
    dice = Dice.parse(faces)
    game.push(Roll("Anna", dice, ()))
    position = evaluate(game)
    return game, ROLL_INDEX[dice], [c.action for c in position.choices[:5]]


def _figures(found: reasons_module.Reasons) -> list[float]:
    every = []
    for chances in (found.now, *found.after):
        assert chances is not None
        every += [*chances.bonus.values(), chances.kniffel or 0.0]
    return every


def test_a_first_answer_comes_from_a_small_bound_and_the_final_figures_read_its_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Early in a game the first answer is within ``FIRST_WORK`` (its interval wider), the
    same on every request; the final figures read its games (no game played twice or for
    nothing: as many chunks as the final figures alone) and lie within its interval."""
    monkeypatch.setattr(turn_ends, "WORK", 6_000)
    game, index, actions = _early_rauf_runter()
    _fresh()
    first = reasons_module.first_reasons(game, index, 1, actions)
    assert first.method == "simulation" and first.refining == 0.0
    assert first.half_width > HALF_WIDTH and first.samples > 0
    slots = 15  # Frei's 13 cells, the due cell of Runter and of Rauf
    assert first.samples * (39 - 1) <= turn_ends.FIRST_WORK // slots
    played_first = turn_ends.STREAMS.played
    assert reasons_module.first_reasons(game, index, 1, actions) == first  # kept
    final = reasons(game, index, 1, actions, exact=False)
    assert final.refining is None and final.samples > first.samples
    played_both = turn_ends.STREAMS.played
    assert reasons_module.first_reasons(game, index, 1, actions) == final  # the final, kept
    _fresh()
    assert reasons_module.first_reasons(game, index, 1, actions) == first  # the same again
    assert turn_ends.STREAMS.played == played_first
    _fresh()
    assert reasons(game, index, 1, actions, exact=False) == final
    assert turn_ends.STREAMS.played == played_both  # the first answer's games, all read
    for rough, sharp in zip(_figures(first), _figures(final), strict=True):
        assert abs(rough - sharp) <= first.half_width


def test_where_the_small_bound_suffices_the_first_answer_is_final() -> None:
    """Late in a game the first answer's rounds are not cut short: it is the final answer."""
    game = parse_sheet(get_variant("rauf-runter"), _late_rauf_runter())
    dice = Dice.parse("66612")
    actions = [c.action for c in evaluate(game, dice, 2).choices[:5]]
    _fresh()
    found = reasons_module.first_reasons(game, ROLL_INDEX[dice], 2, actions)
    assert found.refining is None
    assert reasons(game, ROLL_INDEX[dice], 2, actions, exact=False, compute=False) == found
    _fresh()
    assert reasons(game, ROLL_INDEX[dice], 2, actions, exact=False) == found


def test_a_position_asked_while_another_is_worked_out_gets_its_first_answer_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The background works out position A's final figures; B is asked (the player rolled
    again): A stops at its next round of games, B's first answer comes, and A asked again
    goes on to the same figures it has on a fresh server."""
    monkeypatch.setattr(turn_ends, "WORK", 6_000)
    game, index_a, actions_a = _early_rauf_runter("66612")
    other, index_b, actions_b = _early_rauf_runter("12345")
    _fresh()
    in_final, go_on = threading.Event(), threading.Event()
    estimate = reasons_module.estimate

    def held(*args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("first") and args[1] == index_a:  # A's final figures
            progress = args[4]

            def told(done: float) -> None:
                in_final.set()
                assert go_on.wait(600)
                progress(done)

            args = (*args[:4], told)
        return estimate(*args, **kwargs)

    monkeypatch.setattr(reasons_module, "estimate", held)
    stopped = reasons_module._BACKGROUND.stopped
    found_a = reasons_module.start(game, index_a, 1, actions_a, exact=False)
    assert in_final.wait(600)  # A's first answer is there, its final figures under way
    assert isinstance(reasons_module.start(game, index_a, 1, actions_a, exact=False), Reasons)
    assert reasons_module.start(other, index_b, 1, actions_b, exact=False) == 0.0
    go_on.set()
    found_b = reasons_module.pending(other, index_b, 1, actions_b, exact=False, seconds=600)
    assert isinstance(found_b, Reasons)
    assert reasons_module._BACKGROUND.stopped == stopped + 1
    found_a = reasons_module.pending(game, index_a, 1, actions_a, exact=False, seconds=0)
    assert isinstance(found_a, Reasons) and found_a.refining is not None  # stopped, first kept
    for _ in range(2000):
        found_a = reasons_module.pending(game, index_a, 1, actions_a, exact=False, seconds=1)
        if isinstance(found_a, Reasons) and found_a.refining is None:
            break
    assert reasons_module._BACKGROUND.wait_idle(1200)
    monkeypatch.setattr(reasons_module, "estimate", estimate)
    _fresh()
    assert reasons(game, index_a, 1, actions_a, exact=False) == found_a
