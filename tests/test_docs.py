"""Docs that cannot rot: every command, option and setting is documented (as datasette does)."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from kniffel.cli import cli

ROOT = Path(__file__).parent.parent
CLI_DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
COMMANDS = sorted(cli.commands)


def test_the_main_commands_exist() -> None:
    assert {"serve", "replay", "solve", "simulate", "analyse"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_a_section(name: str) -> None:
    assert f"## `kniffel {name}`" in CLI_DOC, f"docs/cli.md has no section for kniffel {name}"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_is_documented(name: str) -> None:
    command = cli.commands[name]
    # The variant flags are documented once, in the table before the first section.
    shared = CLI_DOC.split("\n## ", 1)[0]
    section = shared + CLI_DOC.split(f"## `kniffel {name}`", 1)[1].split("\n## ", 1)[0]
    for param in command.params:
        if isinstance(param, click.Option):
            flags = [f for f in param.opts + param.secondary_opts if f.startswith("--")]
            if "--help" in flags:
                continue
            assert any(f"`{flag}" in section for flag in flags), (
                f"kniffel {name}: option {flags} is not documented in docs/cli.md"
            )


def test_every_setting_is_documented() -> None:
    from kniffel.settings import Settings

    for field in Settings.model_fields:
        variable = f"KNIFFEL_{field.upper()}"
        assert variable in CLI_DOC, f"setting {variable} is not documented in docs/cli.md"


def test_the_settings_module_names_every_setting() -> None:
    """kniffel/settings.py's docstring lists every setting (it had 8 of 13, issue 22)."""
    import kniffel.settings
    from kniffel.settings import Settings

    doc = kniffel.settings.__doc__ or ""
    missing = [field for field in Settings.model_fields if f"``{field}``" not in doc]
    assert missing == []


def test_the_readme_names_both_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "uv run kniffel serve" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # CI runs exactly the README's test command (two processes: docs/decisions.md)
    test_command = ci.rstrip().splitlines()[-1]
    assert test_command.startswith("uv run --frozen pytest -n 2")
    assert f"```sh\n{test_command}\n```" in readme


# --- Tables against code: defaults, help text, settings -----------------------------------------


def _tables(markdown: str) -> list[list[dict[str, str]]]:
    """Every pipe table of ``markdown`` as rows keyed by the header's words."""
    tables: list[list[dict[str, str]]] = []
    lines = markdown.splitlines()
    for i, line in enumerate(lines[:-1]):
        if not (line.startswith("|") and lines[i + 1].startswith("| ---")):
            continue
        header = [cell.strip() for cell in line.strip("|").split(" | ")]
        rows = []
        for row in lines[i + 2 :]:
            if not row.startswith("|"):
                break
            cells = [cell.strip() for cell in row.strip().strip("|").split(" | ")]
            rows.append(dict(zip(header, cells, strict=False)))
        tables.append(rows)
    return tables


def _section(name: str) -> str:
    return CLI_DOC.split(f"## `kniffel {name}`", 1)[1].split("\n## ", 1)[0]


def _option(command: click.Command, cell: str) -> click.Option:
    """The option a table cell names by its first backticked flag (`--plot FILE` names --plot)."""
    flag = cell.strip("`").split()[0].split("`")[0]
    for param in command.params:
        if isinstance(param, click.Option) and flag in param.opts + param.secondary_opts:
            return param
    raise AssertionError(f"kniffel {command.name}: docs/cli.md documents {flag}, which it lacks")


def _default(option: click.Option) -> object:
    """The option's default, ``None`` when it has none (click marks that with a sentinel)."""
    value = option.default
    return None if value is None or type(value).__name__ == "Sentinel" else value


def _said(value: object) -> set[str]:
    """The ways docs/cli.md may write a default: a value in backticks or plain, on/off."""
    if value is None:
        return {"none"}
    if isinstance(value, bool):
        word = "true" if value else "false"
        return {f"`{word}`", "on" if value else "off"}
    if isinstance(value, float) and value.is_integer():  # 10.0 s reads 10
        return {f"`{value}`", str(value), f"`{int(value)}`", str(int(value))}
    return {f"`{value}`", str(value)}


def _setting_default(variable: str) -> object:
    from kniffel.settings import Settings

    field = Settings.model_fields[variable.removeprefix("KNIFFEL_").lower()]
    return None if field.default_factory is not None else field.default


OPTION_ROWS = [
    (name, row)
    for name in COMMANDS
    for table in _tables(_section(name))
    for row in table
    if "option" in table[0]
]


@pytest.mark.parametrize(
    ("name", "row"), OPTION_ROWS, ids=[f"{n}-{r['option']}" for n, r in OPTION_ROWS]
)
def test_every_documented_default_is_the_commands(name: str, row: dict[str, str]) -> None:
    """A `default` column, a `default N` in the meaning, or the setting's default for serve."""
    option = _option(cli.commands[name], row["option"])
    documented = row.get("default")
    if documented is not None and documented.startswith("`"):
        documented = "`" + documented.split("`")[1] + "`"  # `1048576` (1 MiB): the value
    if documented is None:
        found = re.search(r"default (`[^`]+`|[^\s;),]+)", row.get("meaning", ""))
        if found is None:
            assert _default(option) in (None, False), (
                f"kniffel {name} {row['option']}: its default {_default(option)!r} is undocumented"
            )
            return
        documented = found.group(1)
    if row.get("setting", "").startswith("`KNIFFEL_"):
        # The option defaults to its setting, whose default this column states.
        expected = _setting_default(row["setting"].strip("`"))
    elif documented.startswith("`KNIFFEL_"):
        assert f"env {documented.strip('`')}" in (option.help or ""), (
            f"kniffel {name} {row['option']}: documented to default to {documented}"
        )
        return
    else:
        expected = _default(option)
    if expected is None and documented not in _said(None):
        # A default computed at run time (the SQLite file, the cache directory) is said in words.
        assert documented and not documented.startswith("`"), (
            f"kniffel {name} {row['option']}: documented default {documented} but it has none"
        )
        return
    assert documented in _said(expected), (
        f"kniffel {name} {row['option']}: docs/cli.md says {documented}, the command {expected!r}"
    )


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_has_help_text_that_agrees_with_the_settings(name: str) -> None:
    """`kniffel NAME --help` explains every option; an `env KNIFFEL_X; default V` in it is true."""
    from kniffel.settings import Settings

    for param in cli.commands[name].params:
        if not isinstance(param, click.Option) or "--help" in param.opts:
            continue
        assert param.help, f"kniffel {name} {param.opts}: no help text"
        for variable in re.findall(r"env (KNIFFEL_\w+)", param.help):
            assert variable.removeprefix("KNIFFEL_").lower() in Settings.model_fields, variable
            said = re.search(rf"env {variable}; default ([^\s;),]+)", param.help)
            if said is not None and not said.group(1).endswith(":"):
                expected = _setting_default(variable)
                assert said.group(1) in {s.strip("`") for s in _said(expected)}, (
                    f"kniffel {name} {param.opts}: --help says default {said.group(1)}, "
                    f"the setting {expected!r}"
                )


def _terms(help_text: str) -> set[str]:
    """What a table row must say as ``--help`` does: numbers, names with dots, slashes or ``=``
    (files, formats, paths, examples) and capitalised names (``PostgreSQL``, ``JSON``); the
    ``(env …; default …)`` part is checked against the settings above."""
    text = re.sub(r"\(env KNIFFEL_\w+[^)]*\)", "", help_text).replace("e.g.", "")
    words = [word.rstrip(".:,;") for word in re.findall(r"[\w./:=,-]+", text)]
    return {
        word
        for i, word in enumerate(words)
        if re.search(r"\d|[./=]\w", word) or (i > 0 and re.search(r"[A-Z]", word))
    }


@pytest.mark.parametrize(
    ("name", "row"), OPTION_ROWS, ids=[f"{n}-{r['option']}" for n, r in OPTION_ROWS]
)
def test_every_documented_option_says_what_its_help_says(name: str, row: dict[str, str]) -> None:
    """docs/cli.md's row and ``--help`` agree: the row names every figure, file, format and
    choice the help text names (the row may say more; issue 22)."""
    option = _option(cli.commands[name], row["option"])
    documented = " ".join(row.values())
    named = _terms(option.help or "")
    if isinstance(option.type, click.Choice):
        named |= {str(choice) for choice in option.type.choices}
    assert sorted(t for t in named if t not in documented) == [], (
        f"kniffel {name} {row['option']}: --help says {option.help!r}"
    )


def test_the_settings_table_lists_every_setting_with_its_default() -> None:
    from kniffel.settings import Settings

    settings = CLI_DOC.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows = {row["variable"].strip("`"): row for table in _tables(settings) for row in table}
    variables = {f"KNIFFEL_{field.upper()}" for field in Settings.model_fields}
    assert set(rows) == variables, "docs/cli.md, Settings, lists other settings than Settings"
    for variable, row in rows.items():
        expected = _setting_default(variable)
        if expected is None:
            assert row["default"] and not row["default"].startswith("`"), variable
        else:
            assert row["default"] in _said(expected), (
                f"{variable}: docs/cli.md says {row['default']}, Settings {expected!r}"
            )


# --- Links ---------------------------------------------------------------------------------------

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _anchors(markdown: str) -> set[str]:
    """GitHub's anchors for the headings: lower case, punctuation dropped, spaces as hyphens."""
    anchors: set[str] = set()
    text = re.sub(r"^```.*?^```", "", markdown, flags=re.DOTALL | re.MULTILINE)
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", text, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchor, n = slug, 0
        while anchor in anchors:
            n += 1
            anchor = f"{slug}-{n}"
        anchors.add(anchor)
    return anchors


def _links(markdown: str) -> list[str]:
    text = re.sub(r"^```.*?^```", "", markdown, flags=re.DOTALL | re.MULTILINE)
    text = re.sub(r"`[^`\n]*`", "", text)
    return [
        target
        for target in re.findall(r"\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)", text)
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)
    ]


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_relative_link_resolves(doc: Path) -> None:
    for target in _links(doc.read_text(encoding="utf-8")):
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        assert file.exists(), f"{doc.name}: the link {target} leads to no file"
        if anchor and file.suffix == ".md":
            assert anchor in _anchors(file.read_text(encoding="utf-8")), (
                f"{doc.name}: the link {target} names no heading of {file.name}"
            )


def test_every_api_route_is_in_docs_api() -> None:
    """docs/api.md lists every route of the spec (`POST /api/games`), and no route it lacks."""
    from kniffel.web.app import create_app

    api_doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    spec = create_app().openapi()["paths"]
    routes = {
        f"{method.upper()} {path}"
        for path, operations in spec.items()
        if path.startswith("/api/")
        for method in operations
    }
    for route in routes:
        assert f"`{route}" in api_doc, f"docs/api.md does not list {route}"
    documented = set(re.findall(r"^\| `((?:GET|POST|PUT|PATCH|DELETE) /api/[^`?]+)", api_doc, re.M))
    assert documented <= routes, f"docs/api.md lists routes the board lacks: {documented - routes}"


# --- Generated parts of docs/cli.md --------------------------------------------------------------


def test_the_generated_parts_of_the_cli_page_are_the_commands_own() -> None:
    """Every ``--help`` block and the variant flags' table are what the commands print now
    (``uv run python -m kniffel.cli.reference`` renders them; the prose stays as written)."""
    from kniffel.cli.reference import render

    assert render(CLI_DOC) == CLI_DOC, "docs/cli.md: run uv run python -m kniffel.cli.reference"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_its_help_block(name: str) -> None:
    assert f"<!-- [[[help {name}]]] -->" in _section(name)


def test_the_variant_flags_table_names_every_preset() -> None:
    from kniffel.rules import PRESETS

    shared = CLI_DOC.split("<!-- [[[variant flags]]] -->", 1)[1].split("<!-- [[[end]]] -->")[0]
    assert len(PRESETS) == 6
    assert all(f"`{name}`" in shared for name in PRESETS)
