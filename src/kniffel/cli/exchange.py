"""``kniffel export`` and ``kniffel import``: every game and every figure out, and back in.

- ``kniffel export --csv DIR``: ``games.csv`` (one line per seat of every
  finished game) and ``players.csv`` (one line per player and preset);
- ``kniffel export --records DIR``: every game as a ``kniffel-record/1`` file
  ``kniffel-<id>.json``;
- ``kniffel import DIR``: every ``*.json`` record of DIR stored as a new game;
  each refused file is named with its reason, the others are stored.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from kniffel.board.errors import BoardError
from kniffel.board.hub import LocalHub
from kniffel.board.players.exchange import games_csv, players_csv
from kniffel.board.service import GameService
from kniffel.cli.output import terminal_safe
from kniffel.record import RecordError
from kniffel.settings import Settings
from kniffel.store import GameStore, ResultStore

__all__ = ["export_command", "import_command"]

_DB = click.option("--db", metavar="URL", help="SQLAlchemy database URL (env KNIFFEL_DB).")


def _store(db: str | None) -> GameStore:
    from kniffel.store.database import DriverMissing, NewerSchema

    try:
        return GameStore.open(db or Settings().db)
    except (NewerSchema, DriverMissing) as error:
        click.echo(f"--db: {error}", err=True)
        raise SystemExit(2) from None


@click.command("export")
@click.option(
    "--csv",
    "csv_dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write games.csv and players.csv into DIR.",
)
@click.option(
    "--records",
    "records_dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write every game as a kniffel-record/1 file into DIR.",
)
@_DB
def export_command(csv_dir: Path | None, records_dir: Path | None, db: str | None) -> None:
    """Write the board's games and figures out (CSV and/or game records).

    DIR is created if needed; files of the same name are replaced.
    """
    if csv_dir is None and records_dir is None:
        raise click.UsageError("name --csv DIR, --records DIR or both")
    store = _store(db)
    try:
        if csv_dir is not None:
            csv_dir.mkdir(parents=True, exist_ok=True)
            results = ResultStore(store.engine)
            rows = results.rows()
            (csv_dir / "games.csv").write_text(games_csv(rows), encoding="utf-8")
            (csv_dir / "players.csv").write_text(players_csv(results), encoding="utf-8")
            games = len({r.game_id for r in rows})
            click.echo(
                f"{csv_dir}: games.csv ({len(rows)} seats of {games} finished games), players.csv"
            )
        if records_dir is not None:
            records_dir.mkdir(parents=True, exist_ok=True)
            service = GameService(store, LocalHub())
            count = 0
            for summary in store.summaries(limit=max(1, store.count())):
                document = service.export_record(summary.id)
                path = records_dir / f"kniffel-{summary.id}.json"
                path.write_text(
                    json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
                )
                count += 1
            click.echo(f"{records_dir}: {count} game records")
    finally:
        store.close()


@click.command("import")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_DB
def import_command(directory: Path, db: str | None) -> None:
    """Store every *.json game record of DIRECTORY as a new game.

    A file that is not a legal kniffel-record/1 is refused and named on
    standard error with its reason (``event N: ...``); the others are stored.
    Exits 1 when any file was refused, 0 otherwise.
    """
    store = _store(db)
    service = GameService(store, LocalHub())
    stored = refused = 0
    try:
        for path in sorted(directory.glob("*.json")):
            try:
                service.import_record(path.read_bytes())
            except (RecordError, BoardError) as exc:
                # One line each, whatever the file's name or a record's names hold.
                click.echo(terminal_safe(f"{path.name}: refused: {exc}", lines=False), err=True)
                refused += 1
            except (OSError, UnicodeDecodeError) as exc:
                line = f"{path.name}: refused: cannot read it ({exc})"
                click.echo(terminal_safe(line, lines=False), err=True)
                refused += 1
            else:
                stored += 1
    finally:
        store.close()
    click.echo(f"{stored} stored, {refused} refused")
    if refused:
        sys.exit(1)
