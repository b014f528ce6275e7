"""CPU per request after a keyless attack: what one visitor's data makes every read cost.

Run with ``uv run python benchmarks/cost.py [--baseline PATH | --baseline-ref REF]
[--players 1000] [--rules 20] [--requests 10] [--seconds 20] [--timeout 60] [--drain 30]
[--chart]``. For this checkout (and for another one: ``--baseline`` a checkout with its own
``.venv``, or ``--baseline-ref main``, which exports that commit of this repository with ``git
archive`` to a throwaway folder and runs ``uv sync --frozen`` there) it starts ``kniffel serve``
on loopback with a throwaway SQLite file and cache directory (the presets' tables linked in
from the user cache when they are there; no background thread, no prebuild), then, without
any key but those of the games it creates:

- imports ``--players / 8`` finished eight-player games (new names each),
- creates ``--rules`` games with house rules of their own (a Kniffel bonus each) and asks for
  each one's advice with its key: the table builds anybody can queue (counted: queued 202,
  refused 503),
- imports ``--requests + 2`` eight-player games played half-way (positions whose chances
  nobody asked for yet),

and then measures each route: one request not counted (the first of a route imports modules
and fills templates), then ``--requests`` requests one after the other (fewer when a route
has taken ``--seconds``). Each thread's CPU time (user + system, ``/proc/PID/task/*/stat``)
counts either for the requests (the threads at the server's own priority) or for the
board's background workers (its queues of work no request does, at ``nice`` 10): the table
gives the requests' CPU milliseconds per request and the background CPU-seconds the route
set going, until the workers were idle again (at most ``--drain`` seconds; "≥" when they were
still busy). A request that takes longer than ``--timeout`` marks its route "timed out" and
restarts the server on the same database (its thread would spend on into the next routes).
"distinct" routes ask for a different game each time (nothing kept helps). The server's
table-build children are not counted (they run at a lower priority, one at a time, and stop
with the server).

``--cold`` measures the keyless reads of issue 33 instead, each COLD after a change: the
database is filled directly through the store's tables before the server starts (``--players``
names, up to 10,000, over ``--games`` finished two-player games, each summarised as the board
would: its ``games`` row and its two ``player_results`` rows; no events, no pairs of seats, so
no game of them is opened), then for each keyless read (``/export/spieler.csv``,
``/export/spiele.csv``, ``/``, ``/api/players``, ``/spieler``) ``--requests`` times: one
finished two-player game imported with new names (what anyone can do, no key needed) and then
the route's one request, counted alone. The table gives the mean CPU-ms of these first reads
after a change and the largest. ``uv run python benchmarks/cost.py --cold --players 10000
--games 100000 --requests 3 --baseline-ref main``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import platformdirs

from kniffel.board.players.sample import random_record

HERE = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of process ``pid`` (all its threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def cpu_split(pid: int) -> tuple[float, float]:
    """CPU seconds of process ``pid``'s threads that answer requests, and of those that work
    in the background: the board runs its workers (the queues of work no request does, the
    background thread) at a lower priority (``nice`` 10), the requests at the process's own."""
    answering = background = 0.0
    own = os.getpriority(os.PRIO_PROCESS, pid)
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        spent = (int(fields[11]) + int(fields[12])) / TICK
        if int(fields[16]) > own:
            background += spent
        else:
            answering += spent
    # Threads that ended count where their CPU went: the process's total minus the living.
    gone = cpu_seconds(pid) - answering - background
    return answering + max(gone, 0.0), background


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    tree: Path
    folder: Path
    timeout: float
    process: subprocess.Popen[bytes]
    client: httpx.Client

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        """Ends the server and its table-build children (its own process group)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.client.close()

    def restart(self) -> None:
        """A new process on the same database and cache (after a request that timed out: its
        thread would go on spending CPU into the next routes' figures)."""
        self.stop()
        fresh = start(self.tree, self.folder, self.timeout, fresh=False)
        self.process, self.client = fresh.process, fresh.client


def start(tree: Path, folder: Path, timeout: float, *, fresh: bool = True) -> Server:
    """``kniffel serve`` of ``tree`` on a free loopback port, its own database and cache."""
    cache = folder / "cache"
    if fresh:
        cache.mkdir(parents=True)
        user_cache = Path(platformdirs.user_cache_dir("kniffel"))
        found = ("column-*.npz", "chances-column-*.npz", "arrows-*.npz")
        for table in (t for pattern in found for t in user_cache.glob(pattern)):
            if "bonus0-joker_free" in table.name or table.name.startswith("arrows-"):
                (cache / table.name).symlink_to(table)
    port = free_port()
    env = {
        **os.environ,
        "KNIFFEL_CACHE_DIR": str(cache),
        "KNIFFEL_BACKGROUND": "false",
        "KNIFFEL_PREBUILD_TABLES": "false",
    }
    process = subprocess.Popen(
        [
            str(tree / ".venv" / "bin" / "kniffel"),
            "serve",
            "--db",
            f"sqlite:///{folder / 'kniffel.db'}",
            "--port",
            str(port),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its table builds stop with it
    )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=timeout)
    for _ in range(600):
        try:
            if client.get("/healthz").status_code < 500:
                break
        except httpx.TransportError:
            time.sleep(0.2)
    else:
        process.kill()
        raise SystemExit(f"the server of {tree} did not start")
    return Server(tree, folder, timeout, process, client)


def attack(client: httpx.Client, players: int, rules: int, positions: int = 0) -> dict[str, Any]:
    """The keyless attack: imports of eight-player games, then house-rule table builds (with
    ``rules`` 0 none, and no house-rule game to measure: asking it would start a build), and
    ``positions`` eight-player games half played (each a position nobody asked about yet)."""
    draw = random.Random(21)
    games = []
    for g in range(players // 8):
        names = [f"Gast {g:03d}-{s}" for s in range(8)]
        answer = client.post("/api/records", json=random_record("kniffel", names, draw))
        answer.raise_for_status()
        games.append(answer.json()["id"])
    asked: dict[int, int] = {}
    ruled = None
    for r in range(rules):
        body = {"variant": "kniffel", "players": ["Anna"], "options": {"kniffel_bonus": 300 + r}}
        ruled = client.post("/api/games", json=body).json()
        status = client.get(
            f"/api/games/{ruled['id']}/advice", headers={"X-Kniffel-Key": ruled["key"]}
        ).status_code
        asked[status] = asked.get(status, 0) + 1
    plain = client.post("/api/games", json={"variant": "kniffel", "players": ["Anna", "Ben"]})
    halves = []
    for g in range(positions):
        record = random_record("kniffel", [f"Mitte {g:03d}-{s}" for s in range(8)], draw)
        record["events"] = record["events"][: len(record["events"]) // 2]
        answer = client.post("/api/records", json=record)
        answer.raise_for_status()
        halves.append(answer.json()["id"])
    return {
        "games": games,
        "asked": asked,
        "plain": plain.json(),
        "ruled": ruled,
        "positions": halves,
    }


@dataclass(frozen=True)
class Figures:
    """One route: CPU-ms per request in the threads that answer, the requests made, the last
    status (``timeout`` when one took longer than ``--timeout``), the CPU-s the route set the
    board's background workers to (from its first request until they were idle again), and
    whether they were idle within ``--drain`` seconds (if not, the figure is a lower bound)."""

    ms: float
    requests: int
    status: str
    background: float
    idle: bool


Request = Callable[[int], httpx.Response]


def drain(server: Server, seconds: float) -> bool:
    """Waits until the background workers spend no more CPU (two quiet seconds), at most
    ``seconds``; whether they were idle by then."""
    began = time.monotonic()
    last = cpu_split(server.pid)[1]
    quiet = 0
    while quiet < 2:
        if time.monotonic() - began >= seconds:
            return False
        time.sleep(1)
        now = cpu_split(server.pid)[1]
        quiet = quiet + 1 if now - last < 0.02 else 0
        last = now
    return True


def measure(server: Server, request: Request, args: argparse.Namespace) -> Figures:
    """The route's figures (after one request not counted: the first of a route imports its
    modules and fills its templates)."""
    try:
        background = cpu_split(server.pid)[1]
        request(0)
        before = cpu_split(server.pid)[0]
        began = time.monotonic()
        done = 0
        status = ""
        while done < args.requests and (done == 0 or time.monotonic() - began < args.seconds):
            status = str(request(done + 1).status_code)
            done += 1
        after = cpu_split(server.pid)[0]
        idle = drain(server, args.drain)
        spent = cpu_split(server.pid)[1] - background
    except httpx.TimeoutException:
        server.restart()
        return Figures(float("nan"), 0, "timeout", 0.0, True)
    return Figures((after - before) * 1000 / done, done, status, spent, idle)


def routes(at: Callable[[], httpx.Client], made: dict[str, Any]) -> dict[str, Request]:
    """Each route measured, by name: a request given its number (0 for the one not counted);
    ``at`` gives the client of the server now (a new one after a restart)."""

    def get(url: str, **kwargs: Any) -> httpx.Response:
        return at().get(url, **kwargs)

    games: list[str] = made["games"]
    positions: list[str] = made["positions"]
    one = games[0]
    plain, ruled = made["plain"], made["ruled"]
    rows = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind"]
    rows += ["full_house", "small_straight", "large_straight", "kniffel", "chance"]
    turns = iter([(player, row) for row in rows for player in ("Anna", "Ben")])

    def entry(_: int) -> httpx.Response:
        player, cell = next(turns)
        return at().post(
            f"/api/games/{plain['id']}/events",
            json={"event": {"type": "enter", "player": player, "cell": cell, "points": 0}},
            headers={"X-Kniffel-Key": plain["key"]},
        )

    def other(i: int, share: int) -> str:
        """Another finished game for each request of a route (``share``: where it starts)."""
        return games[(len(games) * share // 8 + i) % len(games)]

    measured: dict[str, Request] = {
        "GET /export/spieler.csv": lambda _: get("/export/spieler.csv"),
        "GET /export/spiele.csv": lambda _: get("/export/spiele.csv"),
        "GET /spieler": lambda _: get("/spieler"),
        "GET /spieler/NAME": lambda i: get(f"/spieler/gast {i:03d}-0"),
        "GET /spieler/NAME/verteilung.svg (distinct players)": lambda i: get(
            f"/spieler/gast {i:03d}-1/verteilung.svg"
        ),
        "GET /spieler/NAME/punkte.svg (distinct players)": lambda i: get(
            f"/spieler/gast {i:03d}-2/punkte.svg"
        ),
        "GET /": lambda _: get("/"),
        "GET /api/games": lambda _: get("/api/games"),
        "GET /g/ID": lambda _: get(f"/g/{one}"),
        "GET /api/games/ID": lambda _: get(f"/api/games/{one}"),
        "GET /g/ID/chart.svg (one game)": lambda _: get(f"/g/{one}/chart.svg"),
        "GET /g/ID/chart.svg (distinct games)": lambda i: get(f"/g/{other(i, 7)}/chart.svg"),
        "GET /api/games/ID/chances (half-played, distinct)": lambda i: get(
            f"/api/games/{positions[i % len(positions)]}/chances"
        ),
        "GET /g/ID/analyse/verlauf.svg (distinct games)": lambda i: get(
            f"/g/{other(i, 2)}/analyse/verlauf.svg"
        ),
        "GET /g/ID/analyse (distinct games)": lambda i: get(f"/g/{other(i, 3)}/analyse"),
        "GET /g/ID/analyse/alle (distinct games)": lambda i: get(f"/g/{other(i, 5)}/analyse/alle"),
        "GET /api/games/ID/review (distinct games)": lambda i: get(
            f"/api/games/{other(i, 6)}/review"
        ),
        "GET /api/games/ID/analysis (distinct games)": lambda i: get(
            f"/api/games/{other(i, 1)}/analysis"
        ),
        "GET /api/games/ID/advice/win (half-played, distinct)": lambda i: get(
            f"/api/games/{positions[(i + len(positions) // 2) % len(positions)]}/advice/win"
        ),
        "GET /api/games/ID/advice (plain, no key)": lambda _: get(
            f"/api/games/{plain['id']}/advice"
        ),
        "POST /api/games/ID/events (entry)": entry,
    }
    if ruled is not None:
        measured["GET /api/games/ID/advice (house rules, key)"] = lambda _: get(
            f"/api/games/{ruled['id']}/advice", headers={"X-Kniffel-Key": ruled["key"]}
        )
    # Last: an eight-player game's series values every position (minutes of CPU in the
    # background, or in the request where the chart is drawn there), and it stops with the
    # server, which ends after these.
    measured["GET /g/ID/chancen.svg (one game)"] = lambda _: get(f"/g/{one}/chancen.svg")
    measured["GET /g/ID/chancen.svg (distinct games)"] = lambda i: get(
        f"/g/{other(i, 4)}/chancen.svg"
    )
    return measured


def chart_cost(server: Server) -> str:
    """The end chart of a new two-player Rauf-Runter game (imported, nobody asked for it
    before, nothing else queued): how long its request took and with what status, and the
    CPU until the chart is there (asked again every half second, as the end screen does; the
    work of a chart drawn off the request counts here)."""
    record = random_record("rauf-runter", ["Anna", "Ben"], random.Random(22))
    answer = server.client.post("/api/records", json=record)
    answer.raise_for_status()
    game = answer.json()["id"]
    before = cpu_seconds(server.pid)
    began = time.monotonic()
    first = server.client.get(f"/g/{game}/chancen.svg")
    answered = time.monotonic() - began
    status = first.status_code
    while status in (202, 503) and time.monotonic() - began < 900:
        time.sleep(0.5)
        status = server.client.get(f"/g/{game}/chancen.svg").status_code
    drawn = time.monotonic() - began
    spent = cpu_seconds(server.pid) - before
    return (
        f"first chancen.svg request answered {first.status_code} in {answered * 1000:,.0f} ms; "
        f"chart there ({status}) after {drawn:,.1f} s, {spent:,.1f} CPU-s in the server"
    )


#: The keyless reads that read every player or every finished game (issue 33).
KEYLESS = ("/export/spieler.csv", "/export/spiele.csv", "/", "/api/players", "/spieler")


def seed(url: str, players: int, games: int) -> None:
    """Fills the database at ``url`` with ``games`` finished two-player Kniffel games among
    ``players`` names, written as the board's sync writes them (a ``games`` row with its
    summary columns, one ``player_results`` row per seat at the game's version), in batches.
    Runs in the measured tree's own environment (``--seed``): its store makes the schema."""
    from datetime import UTC, datetime, timedelta

    from kniffel.store.database import migrate, open_engine
    from kniffel.store.models import GAMES, PLAYER_RESULTS

    engine = open_engine(url)
    migrate(engine)
    draw = random.Random(33)
    start_at = datetime(2025, 1, 1, tzinfo=UTC)
    batch = 5000
    for first in range(0, games, batch):
        game_rows, result_rows = [], []
        for g in range(first, min(games, first + batch)):
            a, b = draw.sample(range(players), 2) if players > 1 else (0, 0)
            names = [f"Spieler {a:05d}", f"Spieler {b:05d}"]
            totals = [draw.randint(120, 320), draw.randint(120, 320)]
            at = start_at + timedelta(minutes=g)
            game_id = f"seed{g:08d}"
            winners = [n for n, t in zip(names, totals, strict=True) if t == max(totals)]
            game_rows.append(
                {
                    "id": game_id,
                    "key": f"k{g:08d}",
                    "variant": "kniffel",
                    "options": {},
                    "players": names,
                    "dice_mode": "real",
                    "bots": {},
                    "created_at": at,
                    "updated_at": at,
                    "finished": True,
                    "version": 26,
                    "turns": 26,
                    "totals": totals,
                    "winners": winners,
                }
            )
            for seat, (name, total) in enumerate(zip(names, totals, strict=True)):
                result_rows.append(
                    {
                        "game_id": game_id,
                        "seat": seat,
                        "version": 26,
                        "name": name,
                        "linked": None,
                        "player": name.casefold(),
                        "variant": "kniffel",
                        "options": "{}",
                        "seats": 2,
                        "total": total,
                        "place": 1 + sum(1 for t in totals if t > total),
                        "bonus": "1" if total > 250 else "0",
                        "kniffels": int(total > 280),
                        "finished_at": at,
                        "accuracy": None,
                        "loss": None,
                        "decisions": None,
                        "bot": False,
                    }
                )
        with engine.begin() as connection:
            connection.execute(GAMES.insert(), game_rows)
            connection.execute(PLAYER_RESULTS.insert(), result_rows)
    try:  # the players' sums kept on write, where the tree keeps them (issue 33)
        from kniffel.store import player_totals  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        pass
    else:
        with engine.begin() as connection:
            player_totals.refresh(connection)
    engine.dispose()


def run_cold(tree: Path, args: argparse.Namespace) -> tuple[dict[str, Figures], str]:
    """Each keyless read's first request after a finished game, ``--requests`` times."""
    folder = Path(tempfile.mkdtemp(prefix="kniffel-cost-"))
    url = f"sqlite:///{folder / 'kniffel.db'}"
    began = time.monotonic()
    subprocess.run(
        [
            str(tree / ".venv" / "bin" / "python"),
            str(Path(__file__).resolve()),
            *("--seed", url, "--players", str(args.players), "--games", str(args.games)),
        ],
        check=True,
    )
    seeded = time.monotonic() - began
    server = start(tree, folder, args.timeout)
    draw = random.Random(34)
    figures: dict[str, Figures] = {}
    try:
        for route in KEYLESS:  # each once, not counted: a route's first imports its modules
            server.client.get(route)
        for route in KEYLESS:
            spent: list[float] = []
            status = ""
            for i in range(args.requests):
                names = [f"Neu {route} {i}-{s}" for s in range(2)]
                answer = server.client.post(
                    "/api/records", json=random_record("kniffel", names, draw)
                )
                answer.raise_for_status()
                before = cpu_split(server.pid)[0]
                try:
                    status = str(server.client.get(route).status_code)
                except httpx.TimeoutException:
                    server.restart()
                    status = "timeout"
                    break
                spent.append((cpu_split(server.pid)[0] - before) * 1000)
            if status == "timeout" or not spent:
                figures[route] = Figures(float("nan"), 0, "timeout", 0.0, True)
            else:
                figures[route] = Figures(
                    sum(spent) / len(spent), len(spent), status, max(spent), True
                )
            print(f"  GET {route}: {figures[route]}", file=sys.stderr, flush=True)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    note = f"{args.players} players, {args.games} games written in {seeded:.0f} s"
    return {f"GET {route}": found for route, found in figures.items()}, note


def run(tree: Path, args: argparse.Namespace) -> tuple[dict[str, Figures], str]:
    if args.cold:
        return run_cold(tree, args)
    folder = Path(tempfile.mkdtemp(prefix="kniffel-cost-"))
    server = start(tree, folder, args.timeout)
    try:
        before = cpu_seconds(server.pid)
        made = attack(server.client, args.players, args.rules, args.requests + 2)
        spent = cpu_seconds(server.pid) - before
        asked = ", ".join(f"{n}× {status}" for status, n in sorted(made["asked"].items()))
        note = (
            f"{len(made['games'])} imports ({spent:.1f} CPU-s in the server with the "
            f"{args.rules} house-rule requests); house-rule advice answered {asked or 'nothing'}"
        )
        if args.chart:  # first: nothing else is queued
            note += "; " + chart_cost(server)
        figures = {}
        for name, request in routes(lambda: server.client, made).items():
            figures[name] = measure(server, request, args)
            print(f"  {name}: {figures[name]}", file=sys.stderr, flush=True)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return figures, note


@contextlib.contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """The tree of ``ref`` of this repository in a throwaway folder with its own ``.venv``
    (``git archive`` and ``uv sync --frozen``: no worktree, nothing changed here)."""
    folder = Path(tempfile.mkdtemp(prefix="kniffel-cost-ref-"))
    try:
        archive = subprocess.run(
            ["git", "-C", str(HERE), "archive", ref], check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
        env.pop("VIRTUAL_ENV", None)
        subprocess.run(["uv", "sync", "--frozen", "--quiet"], cwd=folder, env=env, check=True)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="another checkout (with its .venv)")
    parser.add_argument(
        "--baseline-ref",
        help="a commit or branch of this repository to compare with (e.g. main): "
        "exported to a throwaway folder with its own .venv",
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rules", type=int, default=20)
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="seconds a request may take; beyond, the route is marked and the server restarted",
    )
    parser.add_argument(
        "--drain",
        type=float,
        default=30.0,
        help="seconds to wait at most for the background workers to go idle after a route",
    )
    parser.add_argument(
        "--chart",
        action="store_true",
        help="also time the end chart of a new two-player Rauf-Runter game, until it is drawn",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="each keyless read's first request after a finished game, over a database "
        "filled directly with --players names and --games two-player games",
    )
    parser.add_argument("--games", type=int, default=5000, help="games written with --cold")
    parser.add_argument("--seed", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed is not None:  # the measured tree's own environment fills its database
        seed(args.seed, args.players, args.games)
        return
    most = 10_000 if args.cold else 4000
    if not 8 <= args.players <= most or not 0 <= args.rules <= 50:
        parser.error(f"--players 8 to {most} ({'with' if args.cold else 'without'} --cold)")
    if not 1 <= args.games <= 200_000:
        parser.error("--games 1 to 200,000")
    if args.baseline is not None and args.baseline_ref is not None:
        parser.error("--baseline or --baseline-ref, not both")
    with contextlib.ExitStack() as stack:
        trees = {"this": HERE}
        if args.baseline is not None:
            trees["baseline"] = args.baseline.resolve()
        if args.baseline_ref is not None:
            trees[args.baseline_ref] = stack.enter_context(checkout(args.baseline_ref))
        results = {}
        if args.baseline_ref is not None:
            commit = subprocess.run(
                ["git", "-C", str(HERE), "rev-parse", "--short", args.baseline_ref],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
            print(f"{args.baseline_ref} is {commit}", flush=True)
        for label, tree in trees.items():
            print(f"{label}: {tree}", file=sys.stderr, flush=True)
            results[label] = run(tree, args)
            print(f"{label}: {results[label][1]}", flush=True)
    print(cold_table(results) if args.cold else table(results))


def cold_table(results: dict[str, tuple[dict[str, Figures], str]]) -> str:
    """The cold figures side by side: per tree the mean and the largest request CPU-ms of a
    route's first read after a finished game (reads, last status)."""
    labels = list(results)
    head = " | ".join(f"{label}: CPU-ms mean (n, status) | largest" for label in labels)
    lines = [f"| route | {head} |", "| --- |" + " ---: | ---: |" * len(labels)]
    for name in results[labels[0]][0]:
        cells = []
        for label in labels:
            found = results[label][0].get(name)
            if found is None or found.status == "timeout":
                cells += ["timed out" if found else "—", "—"]
            else:
                cells += [f"{found.ms:,.1f} ({found.requests}, {found.status})"]
                cells += [f"{found.background:,.1f}"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def table(results: dict[str, tuple[dict[str, Figures], str]]) -> str:
    """The figures side by side: per tree the request CPU-ms (requests, last status) and the
    background CPU-s the route set going."""
    labels = list(results)
    lines = [
        "| route | "
        + " | ".join(
            f"{label}: CPU-ms a request (n, status) | background CPU-s" for label in labels
        )
        + " |",
        "| --- |" + " ---: | ---: |" * len(labels),
    ]
    names = list(results[labels[0]][0])
    for name in names:
        cells = []
        for label in labels:
            found = results[label][0].get(name)
            if found is None:
                cells += ["—", "—"]
            elif found.status == "timeout":
                cells += ["timed out", "—"]
            else:
                cells.append(f"{found.ms:,.1f} ({found.requests}, {found.status})")
                cells.append(("" if found.idle else "≥ ") + f"{found.background:,.1f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
