"""docs/rules.md and docs/regeln.md keep the same numbered sections, and the code cites them.

Code comments cite rules as ``docs/rules.md §N``; each cited section must exist. No file
of the project cites a rules or format text outside it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTION = re.compile(r"^#{2,3} (§\d+(?:\.\d+)?) ", re.MULTILINE)
CITED = re.compile(r"(?:docs/)?rules\.md\)? (§\d+(?:\.\d+)?)(?:\s*(?:-|–|to)\s*(§\d+(?:\.\d+)?))?")


def sections(name: str) -> list[str]:
    return SECTION.findall((ROOT / "docs" / name).read_text(encoding="utf-8"))


def project_texts() -> list[Path]:
    files = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    files += [p for p in (ROOT / "src").rglob("*") if p.suffix in {".py", ".html", ".md"}]
    return files


def test_english_and_german_rules_have_the_same_sections() -> None:
    english = sections("rules.md")
    assert english == sections("regeln.md")
    top = [section for section in english if "." not in section]
    assert top == [f"§{n}" for n in range(1, len(top) + 1)]


def test_every_cited_section_exists() -> None:
    known = set(sections("rules.md"))
    cited = {
        section
        for path in project_texts()
        for match in CITED.finditer(path.read_text(encoding="utf-8"))
        for section in match.groups()
        if section
    }
    assert cited, "no code or document cites docs/rules.md §N"
    assert cited <= known, f"cited sections that docs/rules.md lacks: {sorted(cited - known)}"


def test_nothing_cites_texts_outside_the_project() -> None:
    outside = re.compile(r"RULES\.md|RECORD-FORMAT\.md|\.\./shared")
    offenders = [
        str(path.relative_to(ROOT))
        for path in project_texts()
        if outside.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
