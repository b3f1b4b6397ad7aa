"""Reading the generated tool index, ``tool_index.json`` (no pydantic, no Qt).

The index holds every headless tool's ``tools/list`` entry and the module defining it;
``scripts/gen_tool_index.py`` writes it from the models (``registry.build_index``) and a
test checks it is fresh. The server answers ``tools/list`` from it and imports a tool's
module on that tool's first call, so the first answers wait for neither pydantic nor
the tool modules (docs/reference/mcp.md, Protocol eras: clients time ``server/discover`` out early).
"""

from __future__ import annotations

import json
import os
from typing import Any

INDEX_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tool_index.json")


def read_index() -> dict[str, Any] | None:
    """The tool index file, or None when it is missing or unreadable (then load all tools)."""
    try:
        with open(INDEX_FILE, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("tools"), list) else None


def index_definition(entry: dict[str, Any], *, allow_execution_settings: bool) -> dict[str, Any]:
    """The ``tools/list`` entry of one index entry for this launch (as ``ToolSpec.definition``)."""
    out = dict(entry["definition"])
    if allow_execution_settings and entry.get("needsInteractionWhenExecAllowed"):
        out["_meta"] = {**out.get("_meta", {}), "anthropic/requiresUserInteraction": True}
    return out
