"""Code that cites the contract names a page and a section that exist.

Comments and docstrings cite the reference as "docs/reference/mcp.md, Errors"; a page
renamed or a heading reworded would leave them pointing nowhere. This reads every
citation in molforma/, tests/, scripts/ and bench/ and checks the page and each heading.
"""

from __future__ import annotations

import re
import subprocess
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


# The contract's pages live in docs/; a file kept outside the repository is no reference.
OUTSIDE_NAMES = re.compile(r"\b(?:SPEC|STYLE)\.md\b|spec/mcp-protocol\.md|\bseeds/\d")
# Names that path on purpose, as an example of what its own check must catch.
EXAMPLES = {"tests/core/test_self_contained.py", "tests/docs/test_citations.py"}


def test_the_pattern_catches_the_names_of_files_outside_the_repository() -> None:
    caught = ["(SPEC.md section 7)", "see STYLE.md section 6", "``spec/mcp-protocol.md``"]
    fine = ["docs/reference/safety.md, Trusted values", "a SPEC_TOOLS table", "specs.md"]
    assert [s for s in caught if not OUTSIDE_NAMES.search(s)] == []
    assert [s for s in fine if OUTSIDE_NAMES.search(s)] == []


def test_no_project_file_cites_a_file_kept_outside_the_repository() -> None:
    tracked = subprocess.run(
        [
            "git",
            "ls-files",
            "molforma",
            "tests",
            "scripts",
            "bench",
            "docs",
            "README.md",
            "CONTRIBUTING.md",
            "pyproject.toml",
            "mkdocs.yml",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    offenders = []
    for name in tracked:
        path = REPO / name
        if name in EXAMPLES or path.suffix in {".png", ".qm", ".molden"} or not path.is_file():
            continue
        for n, line in enumerate(
            path.read_text(encoding="utf-8", errors="replace").splitlines(), 1
        ):
            if OUTSIDE_NAMES.search(line):
                offenders.append(f"{name}:{n}")
    assert offenders == []
