"""Hostile input over the real ``molforma --mcp`` gets a clear answer, never internal_error.

A CML file nested 50,000 elements deep used to end in a RecursionError reported as
``internal_error``; it is a format error naming the nesting. A 9 MiB message got an
error with no id, so the client could not tell which request failed; the error now
carries the id found at the start of the message, and the connection goes on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.mcp.conftest import McpProcess, meta

DEPTH = 50_000


def _deep_cml() -> str:
    atom = '<atom id="a1" elementType="C" x3="0" y3="0" z3="0"/>'
    return (
        f"<cml><molecule><atomArray>{atom}</atomArray></molecule>"
        + "<g>" * DEPTH
        + "</g>" * DEPTH
        + "</cml>\n"
    )


def test_a_cml_text_nested_fifty_thousand_deep_is_a_format_error(server: McpProcess) -> None:
    doc_id, rev = server.doc()
    err = server.err(
        "import_document",
        {"documentId": doc_id, "expectedRevision": rev, "format": "cml", "text": _deep_cml()},
    )
    assert err["code"] == "format_error"
    assert "nested more than 256 deep" in err["message"]
    assert server.ok("list_documents")["documents"][0]["revision"] == rev


def test_a_cml_file_nested_fifty_thousand_deep_is_a_format_error(
    server: McpProcess, tmp_path: Path
) -> None:
    path = tmp_path / "deep.cml"
    path.write_text(_deep_cml())
    doc_id, rev = server.doc()
    err = server.err(
        "open_file", {"documentId": doc_id, "expectedRevision": rev, "path": str(path)}
    )
    assert err["code"] == "format_error" and "CML" in err["message"]
    assert "nested" in err["details"]["reason"]


@pytest.mark.parametrize("rid", [77, "req-9-mib"])
def test_a_nine_mib_request_is_refused_with_its_id_and_the_connection_goes_on(
    server: McpProcess, rid: int | str
) -> None:
    head = {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {
            "_meta": meta(),
            "name": "import_document",
            "arguments": {"format": "xyz", "text": "@"},
        },
    }
    text = json.dumps(head).replace('"@"', json.dumps("C 0 0 0\n" * (9 * 2**20 // 8)))
    server.write(text.encode() + b"\n")
    msg = server.recv(30)
    assert msg["id"] == rid
    assert msg["error"]["code"] == -32600 and "8 MiB" in msg["error"]["message"]
    assert server.ok("list_documents")["documents"]
