"""The first answers of ``molforma --mcp`` import only what they need (docs/reference/mcp.md).

Clients time ``server/discover`` out early and the first tool call should come quickly,
so ``tools/list`` is answered from a generated index, the first ``list_documents`` from
the known entry of the initial empty document (no pydantic, no tool module), any other
call imports only its tool's module, plain request shapes skip the slow-to-import wire
models, and nothing on that path imports RDKit or numpy. Both quick answers must equal
what the loaded tools answer. (How fast it is, is measured in bench/scale_bench.py.)
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from molforma.mcp.tool_registry import INDEX_PATH, build_index, tools_for
from tests.mcp.conftest import REPO

FIRST_ANSWERS = r"""
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
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("rdkit", "numpy", "mcp_types",
                                                              "pydantic")
                or m.startswith("molforma.mcp.tools.") or m == "molforma.document.document")
EAGER
print(json.dumps({"answers": out, "loaded": loaded}))
"""


# After the first answers: the same requests once every tool module, the documents and
# the wire models are loaded, as a process long running answers them.
EAGER = r"""
_ = s.state.documents
_ = s.tools
s._tool_defs = None
out += [s.handle({"jsonrpc": "2.0", "id": 12, "method": "tools/list",
                  "params": {"_meta": META}}),
        s.handle({"jsonrpc": "2.0", "id": 13, "method": "tools/call",
                  "params": {"name": "list_documents", "arguments": {}, "_meta": META}})]
"""


def _first_answers(caps: dict, eager: bool = False) -> dict:
    code = FIRST_ANSWERS.replace("CAPS", repr(caps)).replace("EAGER", EAGER if eager else "")
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
        timeout=120,
    )
    return json.loads(run.stdout)


def test_the_tool_index_file_is_what_the_registry_gives() -> None:
    from molforma.mcp.tool_index import INDEX_FILE, read_index

    assert INDEX_PATH.samefile(INDEX_FILE)
    on_disk = json.loads(INDEX_PATH.read_text(encoding="utf-8"))
    assert read_index() == on_disk
    assert on_disk == json.loads(json.dumps(build_index())), "run python scripts/gen_tool_index.py"


@pytest.mark.parametrize("allow", [False, True])
def test_tools_list_from_the_index_equals_the_definitions_of_the_models(allow: bool) -> None:
    from molforma.mcp.server import Server, ServerState

    state = ServerState(allow_execution_settings=allow)
    fast = Server(state).tool_definitions()
    assert fast == [t.definition(allow_execution_settings=allow) for t in tools_for("headless")]


@pytest.mark.parametrize(
    "caps",
    [{}, {"elicitation": {"form": {}}}, {"extensions": {"io.modelcontextprotocol/tasks": {}}}],
)
def test_the_first_answers_import_no_chemistry_no_pydantic_and_no_tool_module(caps: dict) -> None:
    got = _first_answers(caps)
    discover, tools, call = got["answers"]
    assert discover["result"]["supportedVersions"]
    assert len(tools["result"]["tools"]) == 27
    docs = call["result"]["structuredContent"]["documents"]
    assert len(docs) == 1 and docs[0]["atomCount"] == 0
    assert got["loaded"] == []


def _without_json_text(result: dict) -> dict:
    # The text item is the structured content encoded; encoders may differ in spacing only.
    content = [
        {**c, "text": json.loads(c["text"])} if c["type"] == "text" else c
        for c in result["content"]
    ]
    return {**result, "content": content}


@pytest.mark.parametrize("caps", [{}, {"extensions": {"io.modelcontextprotocol/tasks": {}}}])
def test_the_first_tools_list_and_list_documents_equal_the_answers_of_the_loaded_tools(
    caps: dict,
) -> None:
    got = _first_answers(caps, eager=True)
    _, tools, call, tools_eager, call_eager = got["answers"]
    assert tools == {**tools_eager, "id": 2}
    assert _without_json_text(call["result"]) == _without_json_text(call_eager["result"])
    doc = call["result"]["structuredContent"]["documents"][0]
    assert doc["documentId"].startswith("doc-") and doc["revision"]


def test_list_documents_with_unknown_arguments_is_refused_by_the_tool_itself() -> None:
    from molforma.mcp.server import Server, ServerState

    code = (
        "import json\nfrom molforma.mcp.server import Server, ServerState\n"
        "s = Server(ServerState())\n"
        "print(json.dumps(s.handle({'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call', "
        "'params': {'name': 'list_documents', 'arguments': {'x': 1}, '_meta': "
        + repr(
            {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        )
        + "}})))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
        timeout=120,
    )
    fresh = json.loads(run.stdout)["result"]
    loaded = Server(ServerState()).handle(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": "list_documents",
                "arguments": {"x": 1},
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {},
                },
            },
        }
    )["result"]
    assert fresh["isError"] is True
    assert fresh["structuredContent"]["code"] == "invalid_arguments"
    assert fresh["structuredContent"] == loaded["structuredContent"]


def test_a_request_of_unusual_shape_is_still_checked_by_the_wire_models() -> None:
    from molforma.mcp.server import Server, ServerState

    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": 3}},
    }
    s = Server(ServerState())
    out = s.handle(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "list_documents", "arguments": {}, "_meta": meta},
        }
    )
    assert out["error"]["code"] == -32602
    ok = s.handle(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "list_documents",
                "arguments": {},
                "_meta": {
                    **meta,
                    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
                },
            },
        }
    )
    assert ok["result"]["isError"] is False


def test_the_element_table_is_rdkits() -> None:
    from rdkit import Chem

    from molforma.document import elements

    pt = Chem.GetPeriodicTable()
    assert [elements.symbol_of(z) for z in range(1, 119)] == [
        pt.GetElementSymbol(z) for z in range(1, 119)
    ]
    assert all(elements.atomic_number(pt.GetElementSymbol(z)) == z for z in range(1, 119))
