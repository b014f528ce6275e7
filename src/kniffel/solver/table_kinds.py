"""Which solved tables there are, and which the board builds for the presets.

A :class:`Table` names one solved table; :func:`tables_for` and :func:`chance_tables_for` say
which a variant reads, :func:`preset_tables` which the board builds at start (and the disk cache
never evicts: :func:`kniffel.solver.exact.cache.preset_files`). Built by
:mod:`kniffel.solver.builds`; kept apart from it, with the rules as its only import, so that the
cache and the solvers below the builds can name tables without importing them.
"""

from __future__ import annotations

from dataclasses import dataclass

from kniffel.rules import PRESETS, Discipline, Options, Sheet, Variant

__all__ = [
    "FINALS_PRESETS",
    "TABLE_PRESETS",
    "Table",
    "chance_tables_for",
    "finals_tables",
    "preset_tables",
    "solvable",
    "tables_for",
]


@dataclass(frozen=True, slots=True)
class Table:
    """One solved table: a column table, or (``discipline`` None) the ↓↑ table of Rauf-Runter;
    with ``chances``, the chance table over a column table; with ``finals``, the exact
    distributions of the points still to come (:mod:`kniffel.solver.chances.finals_table`)."""

    options: Options
    discipline: Discipline | None
    chances: bool = False
    finals: bool = False


#: The disciplines the solver's tables know (docs/solver.md); Jamb's sheet and the announce,
#: first-roll and from-the-middle columns (docs/rules.md, "Jamb") have no tables yet.
_SOLVED = (Discipline.DOWN, Discipline.UP, Discipline.FREE)
#: The presets whose tables the board builds at start.
TABLE_PRESETS = ("kniffel", "yahtzee", "rauf-runter", "dreifach")


def solvable(variant: Variant) -> bool:
    """Whether the solver has tables for ``variant``: a Kniffel sheet with ↓, ↑ and free columns."""
    return variant.options.sheet is Sheet.KNIFFEL and all(
        spec.discipline in _SOLVED for spec in variant.columns
    )


def tables_for(variant: Variant) -> tuple[Table, ...]:
    """The tables that the advice, the analysis and the best bot of ``variant`` read
    (none where the solver has none: :func:`solvable`)."""
    if not solvable(variant):
        return ()
    disciplines = tuple(spec.discipline for spec in variant.columns)
    if disciplines == (Discipline.DOWN, Discipline.UP, Discipline.FREE):
        # Rauf-Runter: the ↓↑ table plus the free column's (kniffel.solver.rr_value).
        return (Table(variant.options, Discipline.FREE), Table(variant.options, None))
    return tuple(Table(variant.options, d) for d in dict.fromkeys(disciplines))


def chance_tables_for(variant: Variant) -> tuple[Table, ...]:
    """The chance table the Tipp of ``variant`` reads (one-column variants only)."""
    if len(variant.columns) != 1:
        return ()
    return (Table(variant.options, variant.columns[0].discipline, chances=True),)


def preset_tables() -> tuple[Table, ...]:
    """The tables of the four presets with their default options (each once), then the
    presets' chance tables."""
    presets = [PRESETS[name] for name in TABLE_PRESETS]
    values = [t for variant in presets for t in tables_for(variant)]
    chances = [t for variant in presets for t in chance_tables_for(variant)]
    return tuple(dict.fromkeys([*values, *chances]))


#: The one-column presets whose exact finals tables the board builds (after the others, when
#: the setting ``exact_chances`` is on): 263 MB on disk, outside the cache's size bound, and
#: minutes of CPU. Not ``yahtzee``: 1.16 GB (docs/solver.md, "Win chances").
FINALS_PRESETS = ("kniffel",)


def finals_tables() -> tuple[Table, ...]:
    """The finals tables of the one-column presets with their default options."""
    return tuple(
        Table(PRESETS[name].options, PRESETS[name].columns[0].discipline, finals=True)
        for name in FINALS_PRESETS
    )
