"""Code that cites the contract names a page and a section that exist.

Comments and docstrings cite the reference as "docs/reference/mcp.md, Errors"; a page
renamed or a heading reworded would leave them pointing nowhere. This reads every
citation in molforma/, tests/, scripts/ and bench/ and checks the page and each heading.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.paths import REPO

PAGE = re.compile(r"docs/([\w/-]+\.md)(?:, ([^,;:.()\n\"`]+))?")


def _headings(page: Path) -> list[str]:
    return [
        line.lstrip("#").strip()
        for line in page.read_text(encoding="utf-8").splitlines()
        if re.match(r"#{1,6} ", line)
    ]


def _citations() -> list[tuple[str, str, str]]:
    found = []
    for top in ("molforma", "tests", "scripts", "bench"):
        for path in (REPO / top).rglob("*"):
            if path.suffix not in {".py", ".sh", ".spec"} or not path.is_file():
                continue
            for m in PAGE.finditer(path.read_text(encoding="utf-8", errors="replace")):
                found.append((str(path.relative_to(REPO)), m.group(1), m.group(2) or ""))
    return found


def _bad(citations: list[tuple[str, str, str]]) -> list[str]:
    bad = []
    for where, page, sections in citations:
        target = REPO / "docs" / page
        if not target.is_file():
            bad.append(f"{where}: docs/{page} does not exist")
            continue
        heads = _headings(target)

        def known(part: str, heads: list[str] = heads) -> bool:
            # The section may run on into the sentence ("..., Atoms spells them"), in words
            # that are not another section's (no capital letter).
            return any(
                part == h or (part.startswith(h + " ") and part[len(h) :] == part[len(h) :].lower())
                for h in heads
            )

        if not sections.strip() or known(sections.strip()):
            continue
        for part in filter(None, (s.strip() for s in sections.split(" and "))):
            if not part.startswith("docs/") and not known(part):
                bad.append(f"{where}: docs/{page} has no section {part!r}")
    return bad


def test_every_cited_docs_page_and_section_exists() -> None:
    citations = _citations()
    assert len(citations) >= 20  # the reference is cited throughout the code
    assert _bad(citations) == []


def test_a_citation_of_a_missing_section_or_page_is_caught() -> None:
    wrong = [
        ("x.py", "reference/mcp.md", "Erors"),
        ("x.py", "reference/nope.md", ""),
        ("x.py", "reference/safety.md", "Allowed directories and Trusted value"),
    ]
    right = [
        ("x.py", "reference/mcp.md", "Errors"),
        ("x.py", "reference/cli.md", "stdio in the MCP modes requires"),
        ("x.py", "reference/safety.md", "Allowed directories and Trusted values"),
        ("x.py", "reference/window.md", "Paging and indices"),
    ]
    assert len(_bad(wrong)) == 3 and _bad(right) == []
