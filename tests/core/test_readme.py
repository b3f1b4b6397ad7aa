"""The generated tables of the docs (tools, window tools, formats) are the ones the code gives,
and README's Quick start is the two commands."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool_table() -> str:
    spec = importlib.util.spec_from_file_location(
        "update_readme", ROOT / "scripts" / "update_readme.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.tool_table()


def test_readme_tool_table_matches_the_tool_definitions() -> None:
    table = _tool_table()
    readme = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- tools:start -->\n(.*)\n<!-- tools:end -->", readme, re.S)
    assert m, "README lacks the tools section markers"
    assert m.group(1).strip() == table, "run: .venv/bin/python scripts/update_readme.py"


def test_readme_quick_start_has_exactly_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```bash", 1)[1].split("```", 1)[0]
    commands = [ln.split("#")[0].strip() for ln in block.strip().splitlines() if ln.strip()]
    assert commands == ["./run.sh", "./test.sh"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert [ln for ln in ci.splitlines() if ln and not ln.startswith(("#", "set ", "cd "))] == [
        "bash ./test.sh"
    ]


def test_readme_window_tool_table_matches_the_tool_definitions() -> None:
    spec = importlib.util.spec_from_file_location(
        "update_readme", ROOT / "scripts" / "update_readme.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    table = mod.window_tool_table()
    assert "offers 40 tools" in table and table.count("\n| `") == 13
    readme = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- window-tools:start -->\n(.*)\n<!-- window-tools:end -->", readme, re.S)
    assert m, "README lacks the window tools section markers"
    assert m.group(1).strip() == table, "run: .venv/bin/python scripts/update_readme.py"


def test_readme_format_table_is_the_one_generated_from_the_format_table() -> None:
    spec = importlib.util.spec_from_file_location(
        "update_readme", ROOT / "scripts" / "update_readme.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    table = mod.format_table()
    assert table.count("\n| ") == 9  # one row per format under the header and its rule
    readme = (ROOT / "docs" / "reference" / "files.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- formats:start -->\n(.*)\n<!-- formats:end -->", readme, re.S)
    assert m, "README lacks the formats section markers"
    assert m.group(1).strip() == table, "run: .venv/bin/python scripts/update_readme.py"
