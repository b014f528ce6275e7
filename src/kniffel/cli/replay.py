"""``kniffel replay``: check every event of a game record and print the sheets."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from kniffel.cli.text import render_game
from kniffel.locales import DEFAULT_LANGUAGE, LANGUAGES, Translator
from kniffel.record import RecordError, loads, replay, state_dict

__all__ = ["replay_command"]


@click.command("replay")
@click.argument("file", type=click.File("rb"))
@click.option("--json", "as_json", is_flag=True, help="Print the state as one JSON object.")
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=DEFAULT_LANGUAGE,
    show_default=True,
    help="The language of the printed sheets.",
)
def replay_command(file: Any, as_json: bool, lang: str) -> None:
    """Check every event of a game record (FILE, or - for stdin) and print the sheets.

    An illegal event or a broken file exits with status 2 and one line on
    standard error (``event N: ...`` for events).
    """
    try:
        game = replay(loads(file.read()))
    except RecordError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(state_dict(game), ensure_ascii=False))
    else:
        click.echo(render_game(game, Translator(lang)))
