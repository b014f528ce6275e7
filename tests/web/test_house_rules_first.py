"""A game's own tables first (issue 35 item 1), and one bound for every build a client starts
(issue 33 item 3): the Tipp of a house rule waits for its own table only, never for the presets'
background builds or other games' chance tables, and a bot seat's builds count against the
client that set it."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.priority import ENV, lower_this_process
from kniffel.rules import Discipline, get_variant
from kniffel.settings import Settings
from kniffel.solver import builds as builds_module
from kniffel.solver.builds import FIRST, GAME_WORKERS, Table, TableBuilds, _build_here, _Stop
from kniffel.web.app import create_app


def _down(**options: Any) -> Table:
    return Table(get_variant("kniffel", options).options, Discipline.DOWN)


class _Held(TableBuilds):
    """A builder whose builds wait for ``gate`` (no child process): the queue's order is seen."""

    def __init__(self) -> None:
        super().__init__(queue_limit=100, per_client=100)
        self.gate = threading.Event()
        self.started = threading.Event()

    def _build(self, table: Table) -> bool:
        self.built.append(table)
        self.started.set()
        self.gate.wait(30)
        return False


def test_a_games_own_table_goes_before_the_presets_and_other_games_chance_tables() -> None:
    builds = _Held()
    background = [_down(chance=False), _down(joker="none"), _down(pasch="matching_dice")]
    try:
        builds.enqueue(background)
        assert builds.started.wait(10)
        first = get_variant("kniffel", {"kniffel_bonus": 61})
        second = get_variant("kniffel", {"kniffel_bonus": 62})
        assert builds.request(first, "a").building
        assert builds.request(second, "b").building
        values = [Table(v.options, Discipline.FREE) for v in (first, second)]
        chances = [Table(v.options, Discipline.FREE, chances=True) for v in (first, second)]
        # Both games' exact values before either chance table, and all before the background.
        assert builds.queued() == (*values, *chances, *background[1:])
        # A game asking for a table queued at start (a preset's) moves it to the front too.
        builds.first(get_variant("kniffel", {"chance": False, "joker": "none"}))
        assert builds.queued()[0] == values[0]  # not queued: nothing moves, nothing is added
        plain = get_variant("kniffel")
        builds.enqueue([Table(plain.options, Discipline.FREE)])
        builds.first(plain)
        assert builds.queued()[:3] == (*values, Table(plain.options, Discipline.FREE))
        builds.gate.set()
        assert builds.wait(timeout=30)
    finally:
        builds.gate.set()
        builds.close()
    assert builds.built[:4] == [background[0], *values, Table(plain.options, Discipline.FREE)]


class _Stopping(TableBuilds):
    """A builder whose build processes are stand-ins: each runs until the worker stops it (the
    parent's half of a stop) or its ``finish`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.finish = threading.Event()

    def _run_child(self, table: Table) -> Any:
        stop = SimpleNamespace(value=0)
        with self._lock:
            self._stop = stop  # type: ignore[assignment]
            self.built.append(table)
            if self._tiers[FIRST] and self._running_tier > FIRST:
                stop.value = 1
        while not stop.value and not self.finish.is_set():
            self.finish.wait(0.01)
        if stop.value:
            raise _Stop()
        return None

    @staticmethod
    def _on_disk(table: Table) -> bool:
        return False


def test_a_games_table_stops_a_background_build_which_comes_again_after(
    fresh_cache: Path,
) -> None:
    builds = _Stopping()
    background, own = _down(chance=False), _down(joker="none")
    try:
        builds.enqueue([background])
        waited = threading.Event()
        while builds.running != background:
            waited.wait(0.01)
        builds.enqueue([own], FIRST)  # what request() does with a game's value tables
        while len(builds.built) < 2:
            waited.wait(0.01)
        assert builds.running == own and builds.queued() == (background,)
        builds.finish.set()
        assert builds.wait(timeout=30)
    finally:
        builds.close()
    assert builds.built == [background, own, background]


def test_a_real_background_build_ends_for_a_games_table_and_starts_again_after(
    fresh_cache: Path,
) -> None:
    """Real build processes: the background one (a free column, seconds) ends for the game's
    table (a ↓ table) before its first progress report or at it, writing nothing."""
    builds = TableBuilds()
    background, own = _down(chance=False), _down(joker="none")
    background = Table(background.options, Discipline.FREE)
    try:
        builds.enqueue([background])
        waited = threading.Event()
        while builds.running != background:
            waited.wait(0.02)
        builds.enqueue([own], FIRST)
        while len(builds.built) < 3:  # the background table's turn comes again
            waited.wait(0.02)
        assert builds.is_ready(own)
    finally:
        builds.close()
    assert builds.built == [background, own, background]
    assert not builds.is_ready(background)


def _between_reports(
    table: Table, progress: Any, results: Any, where: Any, stop: Any, workers: int, nice: int
) -> None:
    """A stand-in build process (in place of ``_build_in_child``) that has made its first
    progress report and computes a minute before its next one, where a stop would end it."""
    progress.value = 0.5
    time.sleep(60)


def test_a_background_build_between_its_reports_ends_at_once_for_a_games_table(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A value or chance table's process writes only after its last report: the worker ends
    it at once for a game's table, not at its next report (a chance table's came up to 1.2 s
    apart on a busy machine)."""
    monkeypatch.setattr(builds_module, "_build_in_child", _between_reports)
    _ended_at_once_for_a_games_table(_down(chance=False), lambda b: bool(b._current_progress()))


def _ended_at_once_for_a_games_table(
    background: Table, under_way: Callable[[TableBuilds], bool]
) -> None:
    """``background``'s build process, once ``under_way``, is ended (SIGTERM) when a game's
    table is queued, and ``background`` waits again, first of its tier."""
    builds = TableBuilds()
    own = _down(joker="none")
    try:
        builds.enqueue([background])
        waited = threading.Event()
        while builds._child is None or not builds._child.is_alive() or not under_way(builds):
            waited.wait(0.01)
        child = builds._child
        builds.enqueue([own], FIRST)
        for _ in range(3000):  # the game's table starts: generous, the stand-in waits 60 s
            if len(builds.built) >= 2:
                break
            waited.wait(0.01)
        assert builds.built == [background, own]
        assert child.exitcode == -signal.SIGTERM
        assert builds.queued() == (background,)
    finally:
        builds.close()


def _computing_arrows(
    table: Table, progress: Any, results: Any, where: Any, stop: Any, workers: int, nice: int
) -> None:
    """A stand-in ↓↑ build process: it makes no progress reports and computes for a minute."""
    time.sleep(60)


def test_a_background_arrows_build_ends_at_once_for_a_games_table(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A presets' ↓↑ table being built (at a fresh board's start, or again after an upgrade
    changed its code) gives way to a game's table at once and comes again after it: it makes
    no progress reports, so it never stopped, and the game waited for it (about a second)."""
    monkeypatch.setattr(builds_module, "_build_in_child", _computing_arrows)
    arrows = Table(get_variant("rauf-runter").options, None)
    _ended_at_once_for_a_games_table(arrows, lambda _: True)


def test_a_stopped_build_process_ends_at_its_next_progress_report_writing_nothing(
    fresh_cache: Path,
) -> None:
    """The child's half: with the stop set, the build ends before it writes a table."""
    table = _down(joker="none")
    receiver, sender = multiprocessing.Pipe(duplex=False)
    progress = multiprocessing.Value("d", 0.0, lock=False)
    stop = multiprocessing.Value("b", 1, lock=False)
    with pytest.raises(_Stop):
        _build_here(table, progress, sender, stop)
    assert not fresh_cache.exists() or not list(fresh_cache.glob("*.npz"))
    receiver.close()
    sender.close()


def _client(tmp_path: Path, **settings: Any) -> TestClient:
    app = create_app(
        Settings(db=f"sqlite:///{tmp_path / 'k.db'}", background=False, **settings),
        bots=BotSeats(delay=0),
    )
    return TestClient(app)


def _builds(client: TestClient) -> TableBuilds:
    builds: TableBuilds = client.app.state.tables  # type: ignore[attr-defined]
    return builds


def _pending(builds: TableBuilds) -> set[Table]:
    return {t for t in (builds.running, *builds.queued(), *builds.built) if t is not None}


def test_a_fresh_boards_first_house_rule_is_built_before_the_presets(
    tmp_path: Path, fresh_cache: Path
) -> None:
    with _client(tmp_path, prebuild_tables=True) as client:
        body = {"variant": "kniffel", "players": ["Anna"], "options": {"kniffel_bonus": 60}}
        game = client.post("/api/games", json=body).json()
        advice = client.get(
            f"/api/games/{game['id']}/advice", headers={"X-Kniffel-Key": game["key"]}
        )
        assert advice.status_code == 202, advice.text
        own = Table(get_variant("kniffel", {"kniffel_bonus": 60}).options, Discipline.FREE)
        builds = _builds(client)
        # Running, or next: a preset's build that ran is stopped for it.
        assert own in (builds.running, *builds.queued()[:1])
        # Asked again while it is built: the progress, never "busy".
        again = client.get(
            f"/api/games/{game['id']}/advice", headers={"X-Kniffel-Key": game["key"]}
        )
        assert again.status_code == 202, again.text


def test_bot_seats_count_against_the_client_that_set_them(
    tmp_path: Path, fresh_cache: Path
) -> None:
    """A game per Kniffel bonus with a ``best`` bot to move queued a build per game through the
    bot seat, beyond the client's share (issue 33 item 3)."""
    with _client(tmp_path, prebuild_tables=False) as client:
        for bonus in (301, 302, 303):
            body = {
                "variant": "kniffel",
                "players": ["Robo", "Anna"],
                "dice_mode": "virtual",
                "bots": {"Robo": "best"},
                "options": {"kniffel_bonus": bonus},
            }
            response = client.post("/api/games", json=body)
            assert response.status_code == 201, response.text
        asked = {t.options.kniffel_bonus for t in _pending(_builds(client))}
        assert asked == {301, 302}
        # The same client's Tipp of a third house rule is refused as before.
        game = client.post(
            "/api/games",
            json={"variant": "kniffel", "players": ["Anna"], "options": {"kniffel_bonus": 304}},
        ).json()
        refused = client.get(
            f"/api/games/{game['id']}/advice", headers={"X-Kniffel-Key": game["key"]}
        )
        assert refused.status_code == 503 and refused.json()["params"]["reason"] == "client_limit"


def _telling_workers(
    table: Table, progress: Any, results: Any, where: Any, stop: Any, workers: int, nice: int
) -> None:
    """A stand-in build process that writes down how many processes would build ``table``, in
    the cache folder it is given (it is forked from a server started earlier, whose
    environment is not the test's)."""
    with (where.folder / "workers.txt").open("a") as written:
        written.write(f"{table.options.joker} {workers}\n")


def test_a_games_value_table_is_built_by_every_core_it_may_take_and_the_background_by_one(
    fresh_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A value table a game's Tipp waits for is built by :data:`GAME_WORKERS` processes (about
    half the time on two cores, docs/benchmarks.md); a background build takes one core."""
    told = fresh_cache / "workers.txt"
    fresh_cache.mkdir(parents=True, exist_ok=True)
    monkeypatch.setattr(builds_module, "_build_in_child", _telling_workers)
    builds = TableBuilds()
    try:
        builds.enqueue([_down(joker="none")], FIRST)
        builds.enqueue([_down(joker="forced")])
        assert builds.wait(120)
    finally:
        builds.close()
    assert told.read_text().splitlines() == [f"none {GAME_WORKERS}", "forced 1"]
    assert min(2, os.cpu_count() or 1) == GAME_WORKERS


def _telling_how_it_started(
    table: Table, progress: Any, results: Any, where: Any, stop: Any, workers: int, nice: int
) -> None:
    """A stand-in build process that writes down its parent, which of the build's modules it
    found imported before it imported any, and its priority once lowered as a build's is."""
    imported = [name for name in builds_module._PRELOAD if name in sys.modules]
    lower_this_process(nice)
    told = {
        "parent": os.getppid(),
        "imported": imported,
        "nice": os.getpriority(os.PRIO_PROCESS, 0),
    }
    (where.folder / "started.json").write_text(json.dumps(told))


@pytest.mark.skipif(
    "forkserver" not in multiprocessing.get_all_start_methods(), reason="no fork server here"
)
def test_a_build_process_is_forked_ready_to_compute_at_the_boards_priority(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each build is forked from the fork server, which imported numpy and the solvers once
    (a fresh interpreter took 0.4-0.8 s to import them: docs/benchmarks.md), and runs at the
    board's setting of the background's priority, passed in (the fork server's environment is
    the one it started with); a game's own table, which its players wait for, halfway up."""
    monkeypatch.setattr(builds_module, "_build_in_child", _telling_how_it_started)
    monkeypatch.setenv(ENV, "10")
    fresh_cache.mkdir(parents=True, exist_ok=True)
    builds = TableBuilds()
    try:
        builds.enqueue([_down(joker="none")], FIRST)
        assert builds.wait(120)
        game_table = json.loads((fresh_cache / "started.json").read_text())
        monkeypatch.setenv(ENV, "7")  # after the fork server started
        (fresh_cache / "started.json").unlink()
        builds.enqueue([_down(joker="forced")])
        assert builds.wait(120)
    finally:
        builds.close()
    told = json.loads((fresh_cache / "started.json").read_text())
    assert told["parent"] != os.getpid()  # the fork server's child, not this process's
    assert told["imported"] == list(builds_module._PRELOAD)
    assert told["nice"] == 7
    assert game_table["nice"] == 5
