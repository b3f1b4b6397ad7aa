"""Wire protocol of ``molforma --mcp`` in both eras, over raw JSON lines on stdio."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.mcp.conftest import LEGACY, MODERN, McpProcess, meta

CACHEABLE = [
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
]


def _legacy_init(server: McpProcess, version: str = LEGACY) -> dict[str, Any]:
    res = server.result(
        "initialize",
        {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
        modern=False,
    )
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return res


def test_discover_lists_both_versions_tasks_extension_and_caching_hints(server: McpProcess):
    res = server.result("server/discover")
    assert res["supportedVersions"] == [MODERN, LEGACY]
    assert res["resultType"] == "complete"
    assert res["capabilities"]["extensions"] == {"io.modelcontextprotocol/tasks": {}}
    assert {"tools", "resources", "prompts"} <= set(res["capabilities"])
    assert "logging" not in res["capabilities"] and "completions" not in res["capabilities"]
    assert res["ttlMs"] == 0 and res["cacheScope"] == "private"
    assert res["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "molforma"
    assert "serverInfo" not in res


@pytest.mark.parametrize("method", CACHEABLE)
def test_the_cacheable_results_carry_ttl_and_scope(server: McpProcess, method: str):
    res = server.result(method)
    assert res["ttlMs"] == 0 and res["cacheScope"] == "private"
    assert res["resultType"] == "complete"


def test_resources_read_carries_caching_hints_and_tool_results_do_not(server: McpProcess):
    res = server.result("resources/read", {"uri": "molforma://app/state"})
    assert res["ttlMs"] == 0 and res["cacheScope"] == "private"
    call = server.call("list_documents")
    assert "ttlMs" not in call and "cacheScope" not in call
    assert call["resultType"] == "complete"


@pytest.mark.parametrize("version", ["1900-01-01", LEGACY, "v999"])
def test_unknown_or_legacy_version_in_meta_is_32022_with_supported_and_requested(
    server: McpProcess, version: str
):
    msg = server.request("tools/list", {"_meta": meta(version=version)})
    assert msg["error"]["code"] == -32022
    assert msg["error"]["data"] == {"supported": [MODERN, LEGACY], "requested": version}


def test_version_is_checked_before_the_method_name(server: McpProcess):
    msg = server.request("no/such/method", {"_meta": meta(version="2000-01-01")})
    assert msg["error"]["code"] == -32022


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"_meta": {}},
        {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}},
        {"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}},
        {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": "all",
            }
        },
    ],
)
def test_missing_required_meta_is_32602(server: McpProcess, params: dict[str, Any]):
    server.send({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": params})
    msg = server.recv()
    assert msg["id"] == 5 and msg["error"]["code"] == -32602


def test_request_without_params_is_32602(server: McpProcess):
    server.send({"jsonrpc": "2.0", "id": "x", "method": "server/discover"})
    assert server.recv()["error"]["code"] == -32602


@pytest.mark.parametrize(
    "method",
    [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "tasks/list",
        "tasks/result",
        "completion/complete",
        "unknown/method",
    ],
)
def test_modern_removed_and_unknown_methods_are_32601(server: McpProcess, method: str):
    msg = server.request(method, {"protocolVersion": LEGACY, "capabilities": {}})
    assert msg["error"]["code"] == -32601


def test_legacy_initialize_answers_2025_11_25_and_enables_ping(server: McpProcess):
    res = _legacy_init(server, "2025-06-18")
    assert res["protocolVersion"] == LEGACY
    assert res["serverInfo"]["name"] == "molforma"
    assert "resultType" not in res
    assert set(res["capabilities"]) == {"tools", "resources", "prompts"}
    assert server.result("ping", {}, modern=False) == {}


def test_legacy_results_have_no_result_type_or_caching_hints(server: McpProcess):
    _legacy_init(server)
    tools = server.result("tools/list", {}, modern=False)
    assert "resultType" not in tools and "ttlMs" not in tools and "cacheScope" not in tools
    assert len(tools["tools"]) == 27
    call = server.call("list_documents", modern=False)
    assert "resultType" not in call and call["isError"] is False
    assert call["structuredContent"]["documents"]


def test_legacy_era_refuses_modern_only_methods_and_a_second_initialize(server: McpProcess):
    _legacy_init(server)
    assert server.request("server/discover", {}, modern=False)["error"]["code"] == -32601
    assert server.request("tasks/get", {"taskId": "x"}, modern=False)["error"]["code"] == -32601
    again = server.request(
        "initialize",
        {
            "protocolVersion": LEGACY,
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
        modern=False,
    )
    assert again["error"]["code"] == -32600


def test_modern_requests_stay_stateless_after_a_legacy_initialize(server: McpProcess):
    _legacy_init(server)
    res = server.result("server/discover")
    assert res["resultType"] == "complete" and res["ttlMs"] == 0
    assert server.request("ping")["error"]["code"] == -32601
    bad = server.request("tools/list", {"_meta": meta(version="1999-01-01")})
    assert bad["error"]["code"] == -32022


def test_without_legacy_session_a_request_without_meta_is_32602(server: McpProcess):
    assert server.request("tools/list", {}, modern=False)["error"]["code"] == -32602


def test_parse_error_has_no_id_and_the_connection_survives(server: McpProcess):
    server.write(b'{"jsonrpc":"2.0","id":1,"method":\n')
    msg = server.recv()
    assert msg["error"]["code"] == -32700 and "id" not in msg
    assert server.result("server/discover")["resultType"] == "complete"


def test_batches_are_refused_with_one_32600(server: McpProcess):
    server.send(
        [{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}}]
    )
    msg = server.recv()
    assert msg["error"]["code"] == -32600 and "id" not in msg
    assert server.no_message(0.3)


@pytest.mark.parametrize(
    "obj",
    [
        {"jsonrpc": "1.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 1, "method": 7},
        {"jsonrpc": "2.0", "id": 1, "method": {"name": "tools/list"}},  # unhashable
        {"jsonrpc": "2.0", "id": 1, "method": ["tools/list"]},
        {"jsonrpc": "2.0", "id": None, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": True, "method": "tools/list"},
        "just a string",
        42,
    ],
)
def test_invalid_request_objects_are_32600(server: McpProcess, obj: Any):
    server.send(obj)
    msg = server.recv()
    assert msg["error"]["code"] == -32600
    assert server.result("server/discover")["resultType"] == "complete"  # still serving


def test_notifications_are_never_answered(server: McpProcess):
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    server.send({"jsonrpc": "2.0", "method": "notifications/whatever", "params": {}})
    server.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999}}
    )
    assert server.no_message(0.5)
    assert server.result("server/discover")["resultType"] == "complete"


def test_utf8_split_across_reads_is_reassembled(server: McpProcess):
    doc_id, rev = server.doc()
    line = (
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 77,
                "method": "tools/call",
                "params": {
                    "name": "set_molecule",
                    "arguments": {
                        "documentId": doc_id,
                        "expectedRevision": rev,
                        "title": "水分子 – ü",
                        "preview": False,
                    },
                    "_meta": meta(),
                },
            },
            ensure_ascii=False,
        ).encode("utf-8")
        + b"\n"
    )
    cut = line.index("水".encode()) + 1  # inside the three bytes of one character
    server.write(line[:cut])
    time.sleep(0.2)
    server.write(line[cut:])
    msg = server.recv()
    assert msg["id"] == 77 and msg["result"]["isError"] is False
    assert server.ok("list_documents")["documents"][0]["title"] == "水分子 – ü"


def test_invalid_utf8_is_a_parse_error(server: McpProcess):
    server.write(b'{"jsonrpc":"2.0","id":1,"method":"\xff\xfe"}\n')
    msg = server.recv()
    assert msg["error"]["code"] == -32700 and "id" not in msg


def test_message_over_8_mib_is_an_error_and_the_connection_survives(server: McpProcess):
    big = (
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"pad":"'
        + b"x" * (8 * 1024 * 1024 + 10)
        + b'"}}\n'
    )
    server.write(big)
    msg = server.recv()
    # The id stands at the start of the message, so the error carries it.
    assert msg["error"]["code"] == -32600 and msg["id"] == 1
    server.write(
        b'{"jsonrpc":"2.0","method":"x","params":{"pad":"'
        + b"x" * (8 * 1024 * 1024)
        + b'"},"id":2}\n'
    )
    msg = server.recv()
    assert msg["error"]["code"] == -32600 and "id" not in msg  # past the bytes looked at
    assert server.result("server/discover")["resultType"] == "complete"


def test_message_just_under_8_mib_is_read(server: McpProcess):
    doc_id, rev = server.doc()
    head = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {
                "name": "import_document",
                "_meta": meta(),
                "arguments": {
                    "documentId": doc_id,
                    "expectedRevision": rev,
                    "format": "xyz",
                    "text": "@@",
                },
            },
        }
    ).encode()
    pad = 8 * 1024 * 1024 - len(head) - 100
    line = head.replace(b"@@", b"1\\nx\\nHe 0 0 0\\n" + b" " * pad) + b"\n"
    assert len(line) < 8 * 1024 * 1024
    server.write(line)
    msg = server.recv(30)
    assert msg["id"] == 3 and "result" in msg


def test_cancelled_request_gets_no_answer(server: McpProcess):
    doc_id, rev = server.doc()
    # Queue a slow request first, then one to cancel while it waits its turn.
    big = "3\nbig\n" + "".join(f"He {i * 3.0} 0 0\n" for i in range(3))
    server.send(
        {
            "jsonrpc": "2.0",
            "id": "slow",
            "method": "tools/call",
            "params": {"name": "get_catalog", "arguments": {}, "_meta": meta()},
        }
    )
    server.send(
        {
            "jsonrpc": "2.0",
            "id": "victim",
            "method": "tools/call",
            "params": {
                "name": "import_document",
                "_meta": meta(),
                "arguments": {
                    "documentId": doc_id,
                    "expectedRevision": rev,
                    "format": "xyz",
                    "text": big,
                    "preview": False,
                },
            },
        }
    )
    server.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": "victim", "reason": "test"},
        }
    )
    first = server.recv()
    assert first["id"] == "slow"
    assert server.no_message(1.0)
    # The cancelled import never ran or its answer was dropped; either way nothing more
    # is sent for it, and the server answers the next request normally.
    assert server.result("server/discover")["resultType"] == "complete"


def test_cancel_for_a_finished_request_is_ignored(server: McpProcess):
    server.result("server/discover")
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    assert server.no_message(0.3)
    assert server.result("tools/list")["tools"]


def test_stdout_carries_only_protocol_lines(server: McpProcess):
    for _ in range(3):
        server.result("server/discover")
    server.call("get_catalog")
    server.close()
    rest = []
    while True:
        line = server.lines.get(timeout=5)
        if line is None:
            break
        rest.append(line)
    for line in rest:
        json.loads(line)


def test_unknown_tool_is_32602_and_bad_arguments_are_is_error(server: McpProcess):
    msg = server.request("tools/call", {"name": "no_such_tool", "arguments": {}})
    assert msg["error"]["code"] == -32602
    msg = server.request("tools/call", {"name": "list_documents", "arguments": [1]})
    assert msg["error"]["code"] == -32602
    res = server.call("get_document", {"documentId": 5, "bogus": True})
    assert res["isError"] is True
    assert res["structuredContent"]["code"] == "invalid_arguments"
    assert json.loads(res["content"][0]["text"]) == res["structuredContent"]


def test_unknown_cursor_is_32602(server: McpProcess):
    assert server.request("tools/list", {"cursor": "abc"})["error"]["code"] == -32602


def test_eof_exits_promptly(server: McpProcess):
    server.result("server/discover")
    t0 = time.monotonic()
    assert server.close(5) == 0
    assert time.monotonic() - t0 < 2.0


def test_messages_follow_the_display_language(spawn: Any):
    ja = spawn(env={"MOLFORMA_LANGUAGE": "ja"})
    err = ja.err("get_document", {"documentId": "doc-nope"})
    assert err["code"] == "unknown_document"
    assert "文書" in err["message"]


def test_every_message_validates_against_the_official_wire_models(server: McpProcess):
    from mcp_types.methods import validate_server_result

    for method in CACHEABLE:
        validate_server_result(method, MODERN, server.result(method))
    validate_server_result(
        "resources/read", MODERN, server.result("resources/read", {"uri": "molforma://app/state"})
    )
    validate_server_result("tools/call", MODERN, server.call("list_documents"))
    validate_server_result(
        "prompts/get",
        MODERN,
        server.result(
            "prompts/get", {"name": "build_molecule", "arguments": {"molecule": "water"}}
        ),
    )


def test_protocol_constants_equal_the_official_package():
    import mcp_types.jsonrpc as J
    from mcp_types import (
        CLIENT_CAPABILITIES_META_KEY,
        PROTOCOL_VERSION_META_KEY,
        SERVER_INFO_META_KEY,
    )

    from molforma.mcp import protocol as P

    assert (
        P.PARSE_ERROR,
        P.INVALID_REQUEST,
        P.METHOD_NOT_FOUND,
        P.INVALID_PARAMS,
        P.INTERNAL_ERROR,
    ) == (J.PARSE_ERROR, J.INVALID_REQUEST, J.METHOD_NOT_FOUND, J.INVALID_PARAMS, J.INTERNAL_ERROR)
    assert P.MISSING_REQUIRED_CLIENT_CAPABILITY == J.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert P.UNSUPPORTED_PROTOCOL_VERSION == J.UNSUPPORTED_PROTOCOL_VERSION
    assert P.PROTOCOL_VERSION_KEY == PROTOCOL_VERSION_META_KEY
    assert P.CLIENT_CAPABILITIES_KEY == CLIENT_CAPABILITIES_META_KEY
    assert P.SERVER_INFO_KEY == SERVER_INFO_META_KEY


def test_lone_surrogates_and_non_finite_numbers_still_give_valid_json(server: McpProcess):
    server.write(
        b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"\\ud800x",'
        b'"arguments":{},"_meta":' + json.dumps(meta()).encode() + b"}}\n"
    )
    msg = server.recv()
    assert msg["id"] == 9 and msg["error"]["code"] == -32602
    server.write(
        b'{"jsonrpc":"2.0","id":10,"method":"\\udfff","params":{"_meta":'
        + json.dumps(meta()).encode()
        + b"}}\n"
    )
    assert server.recv()["error"]["code"] == -32601


def test_wire_encoder_never_emits_nan_or_raw_surrogates():
    from molforma.mcp.protocol import dumps, enable_fast_json

    enable_fast_json()
    assert json.loads(dumps({"x": float("nan"), "y": float("inf")})) == {"x": None, "y": None}
    out = dumps({"s": "\ud800", "t": "水"})
    assert json.loads(out.decode("utf-8")) == {"s": "\ud800", "t": "水"}


def test_headless_server_never_imports_qt(mcp_env: dict[str, str], tmp_path):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "molforma", "--mcp"],
        input=(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "tools/call",
                    "params": {"name": "get_app_state", "arguments": {}, "_meta": meta()},
                }
            )
            + "\n"
        ).encode(),
        capture_output=True,
        env=mcp_env,
        cwd=tmp_path,
        timeout=120,
    )
    assert b'"isError":false' in proc.stdout
    assert b"molforma.mcp.tools.document_tools" in proc.stderr  # the import log is there
    assert b"PySide6" not in proc.stderr and b"pyqtgraph" not in proc.stderr


def test_a_legacy_task_param_is_tolerated_and_never_turns_a_sync_tool_into_a_task(
    server: McpProcess,
):
    res = server.call(
        "list_documents",
        {},
        caps={"extensions": {"io.modelcontextprotocol/tasks": {}}},
        extra={"task": {"ttl": 1000}},
    )
    assert res["resultType"] == "complete" and res["isError"] is False


def test_malformed_initialize_is_32602_and_starts_no_session(server: McpProcess):
    bad = server.request("initialize", {"protocolVersion": 5, "capabilities": {}}, modern=False)
    assert bad["error"]["code"] == -32602
    assert server.request("tools/list", {}, modern=False)["error"]["code"] == -32602
    assert _legacy_init(server)["protocolVersion"] == LEGACY


def test_argument_errors_are_worded_in_japanese_when_that_is_the_display_language(spawn: Any):
    ja = spawn(env={"MOLFORMA_LANGUAGE": "ja"})
    doc = ja.ok("list_documents")["documents"][0]["documentId"]
    err = ja.err("get_results", {"documentId": doc, "section": "bogus"})
    assert err["code"] == "invalid_arguments"
    assert "次のいずれかを指定してください" in err["message"]
    assert "'summary', 'energies'" in err["message"] and "Input should be" not in err["message"]
    err = ja.err("measure", {"documentId": doc, "angles": [["a1", "a2"]]})
    assert "angles.0.2: 必須の引数がありません" in err["message"]
    err = ja.err("get_results", {"documentId": doc, "offset": -1})
    assert "offset: 0 以上にしてください" in err["message"]
    # The machine-readable details keep pydantic's own type and text.
    assert err["details"]["errors"][0]["type"] == "greater_than_equal"
    en = spawn()
    en_doc = en.ok("list_documents")["documents"][0]["documentId"]
    err = en.err("get_results", {"documentId": en_doc, "offset": -1})
    assert "greater than or equal to 0" in err["message"]
