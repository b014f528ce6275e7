"""The commands' tables (``kniffel.cli.tables``): plain columns in a pipe, rich's frame on a
terminal, cells shown as written."""

from __future__ import annotations

from kniffel.cli.tables import table


def test_plain_columns_are_two_spaces_apart_words_left_figures_right() -> None:
    drawn = table(("player", "loss"), [("Anna", "1.50"), ("Benedikt", "12.00")], right={1})
    assert drawn.splitlines() == [
        "player     loss",
        "Anna       1.50",
        "Benedikt  12.00",
    ]


def test_rules_minimum_widths_and_no_head() -> None:
    drawn = table(None, [("a", "1"), ("b", "2")], right={1}, rules={1: "="}, min_width={1: 5})
    assert drawn.splitlines() == ["a      1", "========", "b      2"]


def test_cells_are_shown_as_written_never_as_markup() -> None:
    drawn = table(("x",), [("[ ]",), ("[bold]B[/bold]",), (":smile:",)])
    assert drawn.splitlines()[1:] == ["[ ]", "[bold]B[/bold]", ":smile:"]


def test_a_wide_character_lines_up_by_what_the_terminal_shows() -> None:
    drawn = table(("name", "n"), [("東京", "1"), ("Bonn", "2")], right={1})
    assert drawn.splitlines()[1:] == ["東京  1", "Bonn  2"]


def test_on_a_terminal_the_table_is_framed_with_a_bold_head() -> None:
    drawn = table(("player", "loss"), [("Anna", "1.50")], right={1}, rules={1: "-"}, framed=True)
    assert "─" in drawn and "\x1b[1m" in drawn
    assert "Anna" in drawn and "1.50" in drawn


def test_not_a_terminal_means_plain() -> None:
    # pytest captures standard output: no terminal, so no escape codes and no frame.
    drawn = table(("player",), [("Anna",)])
    assert "\x1b" not in drawn and "─" not in drawn
