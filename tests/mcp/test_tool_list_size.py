"""The size of ``tools/list``: context every agent pays for at the start of every session.

Measured as the compact UTF-8 JSON bytes of the whole ``tools/list`` result the real
executable sends, in both modes. The schemas come from the models through the registry,
which compacts them (molforma.mcp.registry.compact_schema) without changing what they
admit; these limits keep that from creeping back. Before the compaction the lists were
about 150 KB (``--mcp``) and 190 KB (``--mcp-gui``).
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}
# Raised by 2,500 bytes for the specialist calculations (set_nwchem's excited states,
# solvent, constraints and scan; get_results' scan section), each described in one line.
LIMITS = {"--mcp": 112_500, "--mcp-gui": 142_500}
COUNTS = {"--mcp": 27, "--mcp-gui": 40}


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


@pytest.mark.parametrize("flag", ["--mcp", "--mcp-gui"])
def test_tools_list_stays_within_its_size_budget_in_each_mode(spawn: Any, flag: str) -> None:
    server = spawn(env=GUI_ENV, flag=flag) if flag == "--mcp-gui" else spawn()
    result = server.result("tools/list")
    tools = result["tools"]
    assert len(tools) == COUNTS[flag]
    size = _size(result)
    assert size <= LIMITS[flag], f"tools/list of {flag} is {size:,} bytes"
    for t in tools:
        jsonschema.Draft202012Validator.check_schema(t["inputSchema"])
        jsonschema.Draft202012Validator.check_schema(t["outputSchema"])


@pytest.mark.parametrize("flag", ["--mcp", "--mcp-gui"])
def test_compaction_drops_only_generated_titles_and_keeps_every_description(
        spawn: Any, flag: str) -> None:
    from molforma.mcp.registry import tools_for

    server = spawn(env=GUI_ENV, flag=flag) if flag == "--mcp-gui" else spawn()
    sent = {t["name"]: t for t in server.result("tools/list")["tools"]}
    mode = "gui" if flag == "--mcp-gui" else "headless"
    for spec in tools_for(mode):
        tool = sent[spec.name]
        assert tool["title"] == tool["annotations"]["title"] == spec.title
        # Every field the model describes is described in what is sent (here or in the
        # field schema it shares through $defs); pydantic's generated titles are gone.
        for schema, model in ((tool["inputSchema"], spec.input),):
            for name, field in model.model_fields.items():
                prop = schema["properties"][name]
                if "$ref" in prop and "description" not in prop:
                    prop = schema["$defs"][prop["$ref"].rsplit("/", 1)[1]]
                assert prop.get("description") == field.description, (spec.name, name)
        text = json.dumps([tool["inputSchema"], tool["outputSchema"]])
        assert '"title": "' not in text.replace('"title": {', ""), spec.name
