"""The generated tool table in docs/tools.md agrees with the tool registry."""

from __future__ import annotations

import subprocess
import sys

from tests.mcp.conftest import REPO


def test_docs_tool_table_matches_the_registry():
    proc = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "gen_tool_docs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr


def test_docs_name_every_tool_once():
    from molforma.mcp.tool_registry import tools_for

    text = (REPO / "docs" / "tools.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    names = [row.split("`")[1] for row in rows]
    headless = [t.name for t in tools_for("headless")]
    window = [t.name for t in tools_for("gui") if t.name not in headless]
    assert names == headless + window
    assert len(headless) == 27 and len(window) == 13 and len(tools_for("gui")) == 40
