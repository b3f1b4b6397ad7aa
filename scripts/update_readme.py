"""Copy the generated MCP tool table into README.md between its markers.

Run after changing a tool definition: ``.venv/bin/python scripts/update_readme.py``.
tests/core/test_readme.py fails while README and the definitions disagree.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tool_table() -> str:
    """The table part of the generated tool documentation."""
    spec = importlib.util.spec_from_file_location("gen_tool_docs", ROOT / "scripts" / "gen_tool_docs.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    text = mod.render()
    return text[text.index("`molforma --mcp` offers"):text.index(mod.WINDOW_HEADING)].strip()


def window_tool_table() -> str:
    """The generated table of the window tools."""
    spec = importlib.util.spec_from_file_location("gen_tool_docs", ROOT / "scripts" / "gen_tool_docs.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return str(mod.window_table()).strip()


def main() -> int:
    path = ROOT / "README.md"
    readme = path.read_text(encoding="utf-8")
    new = re.sub(r"<!-- tools:start -->.*<!-- tools:end -->",
                 lambda _m: "<!-- tools:start -->\n" + tool_table() + "\n<!-- tools:end -->",
                 readme, flags=re.S)
    new = re.sub(r"<!-- window-tools:start -->.*<!-- window-tools:end -->",
                 lambda _m: "<!-- window-tools:start -->\n" + window_tool_table()
                 + "\n<!-- window-tools:end -->", new, flags=re.S)
    if new != readme:
        path.write_text(new, encoding="utf-8")
        sys.stdout.write("README.md updated\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
