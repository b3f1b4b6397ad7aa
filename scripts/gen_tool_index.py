"""Generate ``molforma/mcp/tool_index.json`` (tools/list of ``--mcp``) from the tool registry.

Usage: ``python scripts/gen_tool_index.py`` writes the file; ``--check`` exits 1 when the
file on disk differs from what the registry gives (a test runs this check). Run it after
changing a tool's models, title, description or hints.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from molforma.mcp.tool_registry import INDEX_PATH, build_index  # noqa: E402


def render() -> str:
    """The index file's text."""
    return json.dumps(build_index(), ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="only compare with the file")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        current = INDEX_PATH.read_text(encoding="utf-8") if INDEX_PATH.exists() else ""
        if current != text:
            print(f"{INDEX_PATH} is out of date: run python scripts/gen_tool_index.py")
            return 1
        return 0
    INDEX_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {INDEX_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
