"""``kniffel replay``: check every event of a game record and print the sheets."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from kniffel.cli.output import terminal_safe
from kniffel.cli.text import render_game
from kniffel.locales import DEFAULT_LANGUAGE, LANGUAGES, Translator, language_of, page_tag
from kniffel.record import RecordError, loads, replay, state_dict

__all__ = ["replay_command"]


@click.command("replay")
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the state as one JSON object.")
@click.option(
    "--lang",
    type=click.Choice([page_tag(lang) for lang in LANGUAGES]),
    default=DEFAULT_LANGUAGE,
    show_default=True,
    help="The language of the printed sheets.",
)
def replay_command(file: str, as_json: bool, lang: str) -> None:
    """Check every event of a game record (FILE, or - for stdin) and print the sheets.

    An illegal event or a broken file exits with status 2 and one line on
    standard error (``event N: ...`` for events).
    """
    try:
        game = replay(loads(_read(file)))
    except RecordError as exc:
        click.echo(terminal_safe(str(exc)), err=True)
        sys.exit(2)
    # Names are any text in a record: nothing a terminal acts on is printed raw.
    if as_json:
        click.echo(terminal_safe(json.dumps(state_dict(game), ensure_ascii=False), json=True))
    else:
        words = Translator(language_of(lang) or DEFAULT_LANGUAGE)
        click.echo(terminal_safe(render_game(game, words)))


def _read(file: str) -> bytes:
    """The file's bytes (``-``: standard input); a file that cannot be read is one line."""
    if file == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(file).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {file}: {exc.strerror or exc}") from None
