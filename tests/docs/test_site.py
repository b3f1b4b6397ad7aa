"""The documentation site builds with no warning, and the README stays a front page.

CI runs the suite (``.ci/run`` is ``./test.sh``), so these tests are how the docs are
built in CI: ``mkdocs build --strict`` turns every warning (a broken link or anchor, a
page missing from the navigation) into a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.paths import REPO

README_LIMIT = 12 * 1024


def _build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_site_builds_strictly_with_no_warning(tmp_path: Path) -> None:
    done = _build(REPO, tmp_path / "site")
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-4000:]
    assert "WARNING" not in out, out[-4000:]
    for page in (
        "index.html",
        "reference/mcp/index.html",
        "benchmarks/index.html",
        "tools/index.html",
        "security/index.html",
    ):
        assert (tmp_path / "site" / page).is_file(), page


def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    # The same check on a copy with one bad link each: the strict build must refuse both.
    for link in ("[gone](no-such-page.md)", "[gone](reference/mcp.md#no-such-section)"):
        root = tmp_path / f"copy{len(link)}"
        shutil.copytree(REPO / "docs", root / "docs")
        shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
        index = root / "docs" / "index.md"
        index.write_text(index.read_text(encoding="utf-8") + f"\n{link}\n", encoding="utf-8")
        done = _build(root, root / "site")
        assert done.returncode != 0 and "WARNING" in done.stdout + done.stderr, link


def test_every_page_under_docs_is_in_the_navigation() -> None:
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    listed = set(re.findall(r"([\w/.-]+\.md)\s*$", nav, re.M))
    pages = {p.relative_to(REPO / "docs").as_posix() for p in (REPO / "docs").rglob("*.md")}
    assert pages == listed


def test_the_readme_is_a_front_page_of_about_ten_kilobytes() -> None:
    size = len((REPO / "README.md").read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes; move detail into docs/"


def test_no_page_states_a_count_of_tests() -> None:
    # A typed test count goes stale with the next test; the suite's own report is the truth.
    count = re.compile(r"\b\d[\d,]*\s+(?:tests|test cases)\b")
    pages = [REPO / "README.md", REPO / "CONTRIBUTING.md", *(REPO / "docs").rglob("*.md")]
    stale = [
        f"{p.relative_to(REPO)}: {m.group(0)}"
        for p in pages
        if p.exists()
        for m in count.finditer(p.read_text(encoding="utf-8"))
    ]
    assert stale == []


def test_the_links_of_readme_and_contributing_reach_files_of_the_repository() -> None:
    # mkdocs checks the links inside docs/; these two pages sit outside it.
    broken = []
    for name in ("README.md", "CONTRIBUTING.md"):
        text = (REPO / name).read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (REPO / target.split("#", 1)[0]).exists():
                broken.append(f"{name}: {target}")
    assert broken == []
