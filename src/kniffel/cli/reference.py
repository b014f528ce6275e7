"""docs/cli.md's generated parts, rendered from the commands themselves (as datasette renders its
CLI reference with cog): every command's ``--help`` and the table of the flags that every command
taking a variant shares.

The page keeps its prose; between a marker line ``<!-- [[[help NAME]]] -->`` (or
``<!-- [[[variant flags]]] -->``) and the next ``<!-- [[[end]]] -->`` stands what this module
renders. ``uv run python -m kniffel.cli.reference`` writes the rendered parts into docs/cli.md,
``… --check`` exits with status 1 when the page differs (``tests/test_docs.py`` fails then too).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import click

from kniffel.cli import cli
from kniffel.cli.variant_flags import family_variant_options

__all__ = ["WIDTH", "command_help", "render", "variant_flags_table"]

#: The width the help is wrapped to, whatever the terminal.
WIDTH = 100
_BLOCK = re.compile(
    r"(?P<start><!-- \[\[\[(?P<what>[^\]]+)\]\]\] -->\n)"
    r"(?P<body>.*?)"
    r"(?P<end><!-- \[\[\[end\]\]\] -->)",
    re.DOTALL,
)


def command_help(name: str) -> str:
    """``kniffel NAME --help`` as a fenced block, wrapped at :data:`WIDTH` columns."""
    command = cli.commands[name]
    settings = {**cli.context_settings, "terminal_width": WIDTH}
    parent = click.Context(cli, info_name="kniffel", **settings)
    text = command.get_help(click.Context(command, info_name=name, parent=parent))
    return f"```text\n$ kniffel {name} --help\n{text}\n```\n"


def _shared() -> click.Command:
    @click.command()
    @family_variant_options
    def shared(**_: Any) -> None:
        """The flags every command taking a variant shares."""

    return shared


def _values(option: click.Option) -> str:
    if isinstance(option.type, click.Choice):
        return ", ".join(f"`{choice}`" for choice in option.type.choices)
    if option.is_flag:
        return "a flag"
    if isinstance(option.type, click.IntRange) and option.type.min is not None:
        return f"a whole number, {option.type.min} or more"
    return f"`{option.metavar}`" if option.metavar else option.type.name


def variant_flags_table() -> str:
    """The table of the variant flags, one row per flag: its values and its help."""
    rows = ["| flag | values | meaning |", "| --- | --- | --- |"]
    for param in _shared().params:
        if not isinstance(param, click.Option) or "--help" in param.opts:
            continue
        flag = " / ".join(f"`{opt}`" for opt in param.opts + param.secondary_opts)
        meaning = (param.help or "").replace("|", "\\|")
        if param.show_default and param.default is not None:
            meaning += f" Default `{param.default}`."
        rows.append(f"| {flag} | {_values(param)} | {meaning} |")
    return "\n".join(rows) + "\n"


def _rendered(what: str) -> str:
    if what == "variant flags":
        return variant_flags_table()
    kind, _, name = what.partition(" ")
    if kind == "help" and name in cli.commands:
        return command_help(name)
    raise ValueError(f"docs/cli.md: unknown generated block {what!r}")


def render(page: str) -> str:
    """``page`` with every generated block rendered anew, the prose around them as it was."""
    return _BLOCK.sub(lambda m: m["start"] + _rendered(m["what"].strip()) + m["end"], page)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only say whether the page differs")
    parser.add_argument("--page", type=Path, default=Path("docs/cli.md"), help="the page")
    args = parser.parse_args(argv)
    page = args.page.read_text(encoding="utf-8")
    rendered = render(page)
    if args.check:
        if rendered != page:
            print(f"{args.page} differs from the commands: run python -m kniffel.cli.reference")
            return 1
        return 0
    args.page.write_text(rendered, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
