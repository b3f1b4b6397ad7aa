"""The first answers of ``molforma --mcp`` import only what they need (SPEC.md section 9).

Clients time ``server/discover`` out early and the first tool call should come quickly,
so ``tools/list`` is answered from a generated index, a call imports only its tool's
module, plain request shapes skip the slow-to-import wire models, and nothing on that
path imports RDKit or numpy. (How fast it is, is measured in bench/scale_bench.py.)
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from molforma.mcp.registry import INDEX_PATH, build_index, tools_for
from tests.mcp.conftest import REPO

FIRST_ANSWERS = r'''
import json, sys
from molforma.mcp.server import Server, ServerState
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": CAPS,
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}}
s = Server(ServerState())
out = [s.handle({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                 "params": {"_meta": META}}),
       s.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": META}}),
       s.handle({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                 "params": {"name": "list_documents", "arguments": {}, "_meta": META}})]
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("rdkit", "numpy", "mcp_types")
                or m.startswith("molforma.mcp.tools."))
print(json.dumps({"answers": out, "loaded": loaded}))
'''


def _first_answers(caps: dict) -> dict:
    code = FIRST_ANSWERS.replace("CAPS", repr(caps))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, check=True, timeout=120)
    return json.loads(run.stdout)


def test_the_tool_index_file_is_what_the_registry_gives() -> None:
    on_disk = json.loads(INDEX_PATH.read_text(encoding="utf-8"))
    assert on_disk == json.loads(json.dumps(build_index())), \
        "run python scripts/gen_tool_index.py"


@pytest.mark.parametrize("allow", [False, True])
def test_tools_list_from_the_index_equals_the_definitions_of_the_models(allow: bool) -> None:
    from molforma.mcp.server import Server, ServerState

    state = ServerState(allow_execution_settings=allow)
    fast = Server(state).tool_definitions()
    assert fast == [t.definition(allow_execution_settings=allow) for t in tools_for("headless")]


@pytest.mark.parametrize("caps", [{}, {"elicitation": {"form": {}}},
                                  {"extensions": {"io.modelcontextprotocol/tasks": {}}}])
def test_the_first_answers_import_no_chemistry_no_wire_models_and_one_tool_module(
        caps: dict) -> None:
    got = _first_answers(caps)
    discover, tools, call = got["answers"]
    assert discover["result"]["supportedVersions"]
    assert len(tools["result"]["tools"]) == 27
    docs = call["result"]["structuredContent"]["documents"]
    assert len(docs) == 1 and docs[0]["atomCount"] == 0
    assert got["loaded"] == ["molforma.mcp.tools.document"]


def test_a_request_of_unusual_shape_is_still_checked_by_the_wire_models() -> None:
    from molforma.mcp.server import Server, ServerState

    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": 3}}}
    s = Server(ServerState())
    out = s.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "list_documents", "arguments": {}, "_meta": meta}})
    assert out["error"]["code"] == -32602
    ok = s.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": "list_documents", "arguments": {},
                              "_meta": {**meta, "io.modelcontextprotocol/clientCapabilities":
                                        {"elicitation": {"form": {}}}}}})
    assert ok["result"]["isError"] is False


def test_the_element_table_is_rdkits() -> None:
    from rdkit import Chem

    from molforma.document import elements

    pt = Chem.GetPeriodicTable()
    assert [elements.symbol_of(z) for z in range(1, 119)] == [
        pt.GetElementSymbol(z) for z in range(1, 119)]
    assert all(elements.atomic_number(pt.GetElementSymbol(z)) == z for z in range(1, 119))
