"""``kniffel solve``: the optimal expected score of a variant, and how long solving took."""

from __future__ import annotations

import json
import os
import time
from typing import Any

import click
import numpy as np

from kniffel.cli.output import options_line, plain, progress
from kniffel.cli.table_place import with_table_place
from kniffel.cli.tables import table
from kniffel.cli.variant_flags import variant_options
from kniffel.rules import Discipline, Variant, rows_for
from kniffel.solver.chances.finals_table import finals_for
from kniffel.solver.exact.column import solve_column
from kniffel.solver.exact.roll_scores import joker_matters, zero_array

__all__ = ["solve"]


@click.command("solve")
@variant_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--no-cache", is_flag=True, help="Build the table anew; neither read nor write it.")
@click.option(
    "--finals",
    is_flag=True,
    help="One-column variants: also build the exact win-chance table (minutes, 263 MB for "
    "kniffel, 1.16 GB for yahtzee); the board and kniffel chances read it from the cache.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=os.cpu_count() or 1,
    show_default="every core",
    help="Processes that share a table's build (the board builds in one, below the requests).",
)
@with_table_place
def solve(variant: Variant, as_json: bool, no_cache: bool, finals: bool, workers: int) -> None:
    """Solve VARIANT exactly and print the optimal expected final score.

    One-column variants (kniffel, yahtzee) are solved exactly; the table is
    cached on disk. Dreifach prints each column solved as a one-column game
    (a hint, not the three-column value). Variants with arrow columns
    (rauf-runter) print the bounds of kniffel.solver.raufrunter.bounds.
    """
    start = time.perf_counter()
    disciplines = {spec.discipline for spec in variant.columns}
    if finals and len(variant.columns) != 1:
        raise click.UsageError(
            f"--finals builds the exact win-chance table of a one-column variant (kniffel, "
            f"yahtzee and their house rules); {variant.name} has {len(variant.columns)} columns"
        )
    if len(variant.columns) == 1:
        result = _one_column(variant, no_cache, as_json, workers)
        if finals:
            result["finals"] = _finals(variant, no_cache, as_json)
    elif disciplines == {Discipline.FREE}:
        result = _free_columns(variant, no_cache, as_json, workers)
    else:
        from kniffel.solver.raufrunter.bounds import solve_bounds

        result = {"kind": "bounds", **solve_bounds(variant.options)}
    result["seconds"] = time.perf_counter() - start
    report = {"variant": variant.name, "options": variant.options.as_dict(), **result}
    if as_json:
        click.echo(json.dumps(report))
    else:
        _print(report)


def _one_column(variant: Variant, no_cache: bool, quiet: bool, workers: int) -> dict[str, Any]:
    with progress("solving", quiet=quiet) as bar:
        table = solve_column(
            variant.options,
            variant.columns[0].discipline,
            progress=bar.update if bar else None,
            use_cache=not no_cache,
            workers=workers,
        )
    return {"kind": "exact", "ev": table.ev, "cached": table.cached}


def _finals(variant: Variant, no_cache: bool, quiet: bool) -> dict[str, Any]:
    """The exact win-chance table (docs/solver.md, "Win chances"), read or built and stored."""
    with progress("win-chance table", quiet=quiet) as bar:
        table, path = finals_for(
            variant, progress=bar.update if bar else None, use_cache=not no_cache
        )
    return {
        "states": int(np.count_nonzero(np.diff(table.starts))),
        "values": int(table.values.size),
        "bytes": int(table.values.nbytes),
        "seconds": table.seconds,
        "cached": table.cached,
        "path": None if path is None else str(path),
    }


def _free_columns(variant: Variant, no_cache: bool, quiet: bool, workers: int) -> dict[str, Any]:
    with progress("solving", quiet=quiet) as bar:
        table = solve_column(
            variant.options,
            progress=bar.update if bar else None,
            use_cache=not no_cache,
            workers=workers,
        )
    columns = {spec.id: spec.factor * table.ev for spec in variant.columns}
    options = variant.options
    # Played one column after the other, each column is exactly a one-column game
    # unless a further Kniffel (joker, bonus) or zero_only_upper looks at all columns.
    independent = not joker_matters(options, rows_for(options)) and not zero_array(options).any()
    return {
        "kind": "columns",
        "columns": columns,
        "columns_sum": sum(columns.values()),
        "sum_is_lower_bound": independent,
        "cached": table.cached,
    }


def _print(report: dict[str, Any]) -> None:
    rows = [("variant", str(report["variant"])), ("options", options_line(report["options"]))]
    kind = report["kind"]
    if kind == "exact":
        rows.append(("ev", f"{report['ev']:.7f}"))
    elif kind == "columns":
        rows += [(column, f"{value:.7f}") for column, value in report["columns"].items()]
        rows.append(("sum", f"{report['columns_sum']:.7f}"))
        what = "a lower bound" if report["sum_is_lower_bound"] else "a guide, not a bound"
        rows.append(
            (
                "hint",
                f"each column solved alone as a one-column game, times its factor: {what} "
                "for the whole game (the joker and zero rules look at all columns)",
            )
        )
    else:
        rows += [
            (key, plain(value))
            for key, value in report.items()
            if key not in ("variant", "options", "kind", "seconds")
        ]
    source = " (table from the cache)" if report.get("cached") else ""
    rows.append(("seconds", f"{report['seconds']:.3f}{source}"))
    finals = report.get("finals")
    if finals is not None:
        where = finals["path"] or "not stored"
        size = (
            f"{finals['bytes'] / 1e6:,.0f} MB"
            if finals["bytes"] >= 1e6
            else f"{finals['bytes']:,} bytes"
        )
        built = "read from the cache" if finals["cached"] else f"built in {finals['seconds']:.1f} s"
        rows.append(("finals", f"{finals['states']:,} sheets, {size}, {built}: {where}"))
    click.echo(table(None, rows))
