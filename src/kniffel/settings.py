"""Where the board keeps its games and where it listens.

Every field of :class:`Settings` comes from the environment as ``KNIFFEL_`` and its name in
capitals (``max_body``: ``KNIFFEL_MAX_BODY``); the ``kniffel serve`` options, where there is one,
win. docs/cli.md, "Settings", lists them all with their defaults (``tests/test_docs.py`` keeps
that table and this class in step); docs/deploy.md says which to set behind a proxy.

The settings (``tests/test_docs.py`` checks that this list names every field of
:class:`Settings`):

- ``db``: the database, an SQLAlchemy URL (an SQLite file in the user data directory);
- ``host``, ``port``: where ``kniffel serve`` listens;
- ``max_body``: the largest request body taken, in bytes;
- ``max_ws_message``: the largest message a live socket takes;
- ``header_timeout``: seconds a request's line and headers may take;
- ``body_timeout``, ``body_min_rate``: a request body's deadline and the rate that moves it on;
- ``max_active``: requests served at once, changes first;
- ``workers``: server processes (more than one needs PostgreSQL);
- ``metrics``: Prometheus metrics at ``/metrics``;
- ``public_url``: where phones reach the board, the start of every share link;
- ``cache_dir``, ``cache_max_bytes``: where the solved tables are kept and how much they may
  take (:class:`TableSettings`, all the solver reads);
- ``variant_memory_mb``: how much the solver's objects of house rules other than the presets'
  may take in memory;
- ``table_queue``, ``table_builds_per_client``: how many tables of new house rules may wait,
  and how many one client may have built an hour;
- ``prebuild_tables``: build the presets' tables in the background at start;
- ``tables_at_creation``: queue a new game's house rules' tables as it is created;
- ``exact_chances``: then the exact win-chance table of Kniffel too;
- ``tipp_work``: the bound of work behind the simulated Tipp reasons, process-wide;
- ``chart_work``: the bound of work behind one Jamb or Yams end chart of the chances;
- ``chances_refine``: how far the board narrows Jamb's and Yams's live win chances;
- ``background``: reviews and yardsticks in a background thread;
- ``background_nice``: how far below the requests the work no request does runs;
- ``gc_freeze``: keep what start-up made out of the collector's sight.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from platformdirs import user_cache_dir, user_data_dir
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from kniffel.priority import DEFAULT_NICE

__all__ = [
    "DEFAULT_HEADER_TIMEOUT",
    "DEFAULT_MAX_WS_MESSAGE",
    "Settings",
    "TableSettings",
    "default_db_url",
    "public_url_problem",
]

#: Seconds a request's line and headers may take to arrive (kniffel.web.serving).
DEFAULT_HEADER_TIMEOUT = 10.0
#: The largest WebSocket message taken: the live channel's client sends a few bytes.
DEFAULT_MAX_WS_MESSAGE = 4096


def default_db_url() -> str:
    """An SQLite file in the user's data directory (created when the store opens)."""
    return f"sqlite:///{Path(user_data_dir('kniffel')) / 'kniffel.db'}"


def public_url_problem(url: str) -> str | None:
    """Why ``url`` cannot start the board's links (``None``: it can).

    >>> public_url_problem("https://kniffel.example.org/tafel") is None
    True
    >>> public_url_problem("kniffel.example.org")
    'it must start with http:// or https:// and name a host, e.g. https://kniffel.example.org'
    """
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError:
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return (
            "it must start with http:// or https:// and name a host, "
            "e.g. https://kniffel.example.org"
        )
    if parts.query or parts.fragment:
        return "it may not carry a query (?…) or a fragment (#…)"
    return None


class TableSettings(BaseSettings):
    """Where the solved tables live: all the solver reads of the settings.

    Apart from :class:`Settings`, so that a command that only solves
    (``kniffel solve``) never fails on a board setting it does not use, such as a
    ``KNIFFEL_PORT`` that is no number; the board reads both through :class:`Settings`.
    """

    model_config = SettingsConfigDict(env_prefix="KNIFFEL_", extra="ignore")

    #: Where solved tables are kept (``None``: the user cache directory).
    cache_dir: str | None = None
    #: The most the solved tables on disk may take together; the least recently used go.
    cache_max_bytes: int = Field(default=500_000_000, ge=0)
    #: The most the solver's objects per set of house rules (best bot, late distributions,
    #: win bots) may take in memory, in MB; the least recently used go, the presets' never
    #: (kniffel.solver.per_variant).
    variant_memory_mb: int = Field(default=256, ge=1)

    @property
    def cache_folder(self) -> Path:
        """The folder of ``cache_dir``, or the user cache directory when none is set."""
        return Path(self.cache_dir or user_cache_dir("kniffel"))


class Settings(TableSettings):
    """The board's settings: the database as an SQLAlchemy URL, where to listen, how to run."""

    model_config = SettingsConfigDict(env_prefix="KNIFFEL_", extra="ignore")

    db: str = Field(default_factory=default_db_url)
    host: str = "127.0.0.1"
    port: int = 8000
    max_body: int = Field(default=1024 * 1024, ge=1)
    #: The largest message a live socket takes; a larger one closes it with 1009.
    max_ws_message: int = Field(default=DEFAULT_MAX_WS_MESSAGE, ge=64, le=1024 * 1024)
    #: Seconds a request's line and headers may take; then the connection is closed.
    header_timeout: float = Field(default=DEFAULT_HEADER_TIMEOUT, gt=0, le=3600)
    #: Seconds a request body may take before it must arrive at ``body_min_rate``; then 408.
    body_timeout: float = Field(default=10.0, gt=0, le=3600)
    #: Bytes a second that move a body's deadline on (kniffel.web.middleware.body_deadline).
    body_min_rate: int = Field(default=1024, ge=1)
    #: Requests served at once; more wait for their turn, changes first (0: no bound).
    max_active: int = Field(default=4, ge=0, le=10_000)
    #: Server processes (uvicorn workers); more than one needs PostgreSQL.
    workers: int = Field(default=1, ge=1, le=64)
    #: Prometheus metrics at /metrics.
    metrics: bool = False
    #: Where phones reach the board (behind a proxy): the start of every share link.
    public_url: str | None = None
    #: Tables of new house rules that may wait to be built at once (the presets' never count).
    table_queue: int = Field(default=6, ge=0)
    #: New house-rule combinations one client may have built per hour.
    table_builds_per_client: int = Field(default=2, ge=0)
    #: Build the presets' tables in the background when the board starts.
    prebuild_tables: bool = True
    #: Queue the tables a new game's first Tipp reads when it is created (its creator's build,
    #: counted against the creating client: kniffel.board.tables).
    tables_at_creation: bool = True
    #: With ``prebuild_tables``: then build the exact win-chance table of Kniffel too (minutes
    #: of CPU, 263 MB on disk, docs/solver.md, "Win chances").
    exact_chances: bool = True
    #: The most games times turns simulated for one end state of the Tipp's reasons in
    #: Rauf-Runter and Dreifach (``kniffel.solver.advice.turn_ends.WORK``, 180,000 when unset),
    #: for the whole process: lower, the reasons come sooner and say they are less sure.
    tipp_work: int | None = Field(default=None, ge=1_000, le=10_000_000)
    #: The work of one Jamb or Yams end chart of the win chances, in units of a bot game's cost
    #: (``kniffel.solver.chances.rounds.CHART_BUDGET``, 8,000,000 when unset): lower, the
    #: chart comes sooner and its bands are wider.
    chart_work: int | None = Field(default=None, ge=10_000, le=1_000_000_000)
    #: Jamb's and Yams's live win chances are narrowed after their first answer until every
    #: range is within ±3 points, each sheet from at most this many times its first answer's
    #: games (``kniffel.solver.chances.refine.CAP``): 1, never narrowed.
    chances_refine: int = Field(default=16, ge=1, le=64)
    #: Compute finished games' reviews and the best bot's yardsticks in a background thread.
    background: bool = True
    #: The ``nice`` of the work no request does (the Tipp's reasons, the queues' workers, the
    #: background chores, the table builds): 10 below the requests; 0 on a machine that
    #: serves nothing else beside it (:mod:`kniffel.priority` reads it).
    background_nice: int = Field(default=DEFAULT_NICE, ge=0, le=19)
    #: After start, move every object alive then out of the collector's sight (``gc.freeze``)
    #: and collect the youngest generation less often (``kniffel.web.app.YOUNG_THRESHOLD``).
    gc_freeze: bool = True

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        if (problem := public_url_problem(value)) is not None:
            raise ValueError(f"KNIFFEL_PUBLIC_URL {value!r}: {problem}")
        return value.rstrip("/")
