"""save_file onto an existing file: form elicitation through input_required (docs/reference/mcp.md, Elicitation)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from molforma.mcp.elicitation import StateSigner, save_state_payload, state_is_current
from tests.mcp.conftest import McpProcess

FORM = {"elicitation": {"form": {}}}


@pytest.fixture
def existing(server: McpProcess, tmp_path: Path) -> tuple[McpProcess, str, Path]:
    doc_id, _ = server.water()
    target = tmp_path / "water.molforma.json"
    target.write_text("old content\n")
    return server, doc_id, target


def _ask(server: McpProcess, doc_id: str, target: Path, caps: Any = FORM) -> dict[str, Any]:
    res = server.call("save_file", {"documentId": doc_id, "path": str(target)}, caps=caps)
    assert res["resultType"] == "input_required", res
    return res


def _retry(
    server: McpProcess, doc_id: str, target: Path, state: str, answer: dict[str, Any] | None
) -> dict[str, Any]:
    extra: dict[str, Any] = {"requestState": state}
    if answer is not None:
        extra["inputResponses"] = {"overwrite": answer}
    return server.call(
        "save_file", {"documentId": doc_id, "path": str(target)}, caps=FORM, extra=extra
    )


def test_existing_file_asks_with_a_form_and_accept_overwrites(existing):
    server, doc_id, target = existing
    res = _ask(server, doc_id, target)
    req = res["inputRequests"]["overwrite"]
    assert req["method"] == "elicitation/create"
    assert req["params"]["mode"] == "form"
    assert str(target) in req["params"]["message"]
    schema = req["params"]["requestedSchema"]
    assert schema["type"] == "object" and schema["properties"]["overwrite"]["type"] == "boolean"
    assert "ttlMs" not in res and "cacheScope" not in res
    assert target.read_text() == "old content\n"
    done = _retry(
        server,
        doc_id,
        target,
        res["requestState"],
        {"action": "accept", "content": {"overwrite": True}},
    )
    assert done["isError"] is False and done["structuredContent"]["overwritten"] is True
    assert '"molforma-project"' in target.read_text()


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_decline_or_cancel_fails_and_keeps_the_file(existing, action: str):
    server, doc_id, target = existing
    res = _ask(server, doc_id, target)
    done = _retry(server, doc_id, target, res["requestState"], {"action": action})
    assert done["isError"] is True
    assert done["structuredContent"]["code"] == "overwrite_declined"
    assert target.read_text() == "old content\n"


def test_accept_with_overwrite_false_counts_as_decline(existing):
    server, doc_id, target = existing
    res = _ask(server, doc_id, target)
    done = _retry(
        server,
        doc_id,
        target,
        res["requestState"],
        {"action": "accept", "content": {"overwrite": False}},
    )
    assert done["isError"] is True
    assert target.read_text() == "old content\n"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda s: s[:-2] + ("A" if s[-2] != "A" else "B") + s[-1],
        lambda s: "x" + s,
        lambda s: "not-a-state",
        lambda s: s.split(".")[0] + "." + s.split(".")[0],
    ],
)
def test_tampered_state_is_a_json_rpc_error(existing, tamper):
    server, doc_id, target = existing
    res = _ask(server, doc_id, target)
    msg = server.request(
        "tools/call",
        {
            "name": "save_file",
            "arguments": {"documentId": doc_id, "path": str(target)},
            "requestState": tamper(res["requestState"]),
            "inputResponses": {"overwrite": {"action": "accept", "content": {"overwrite": True}}},
        },
        caps=FORM,
    )
    assert msg["error"]["code"] == -32602
    assert target.read_text() == "old content\n"


def test_state_from_another_process_is_refused(existing, spawn):
    server, doc_id, target = existing
    res = _ask(server, doc_id, target)
    other = spawn()
    other_doc, _ = other.doc()
    msg = other.request(
        "tools/call",
        {
            "name": "save_file",
            "arguments": {"documentId": other_doc, "path": str(target)},
            "requestState": res["requestState"],
            "inputResponses": {"overwrite": {"action": "accept"}},
        },
        caps=FORM,
    )
    assert msg["error"]["code"] == -32602
    assert target.read_text() == "old content\n"


def test_stale_state_after_the_document_changed_asks_again(existing):
    server, doc_id, target = existing
    res = _ask(server, doc_id, target)
    _, rev = server.doc()
    server.ok(
        "set_molecule",
        {"documentId": doc_id, "expectedRevision": rev, "title": "changed", "preview": False},
    )
    again = _retry(
        server,
        doc_id,
        target,
        res["requestState"],
        {"action": "accept", "content": {"overwrite": True}},
    )
    assert again["resultType"] == "input_required"
    assert again["requestState"] != res["requestState"]
    assert target.read_text() == "old content\n"
    done = _retry(
        server,
        doc_id,
        target,
        again["requestState"],
        {"action": "accept", "content": {"overwrite": True}},
    )
    assert done["isError"] is False and "changed" in target.read_text()


def test_state_for_another_path_asks_again(existing, tmp_path: Path):
    server, doc_id, target = existing
    other = tmp_path / "other.molforma.json"
    other.write_text("other\n")
    res = _ask(server, doc_id, target)
    again = _retry(server, doc_id, other, res["requestState"], {"action": "accept"})
    assert again["resultType"] == "input_required"
    assert other.read_text() == "other\n"


def test_retry_without_an_answer_asks_again(existing):
    server, doc_id, target = existing
    res = _ask(server, doc_id, target)
    again = _retry(server, doc_id, target, res["requestState"], None)
    assert again["resultType"] == "input_required"


def test_without_declared_elicitation_an_existing_file_needs_overwrite(existing):
    server, doc_id, target = existing
    for caps in ({}, {"elicitation": {"url": {}}}, {"sampling": {}}):
        res = server.call("save_file", {"documentId": doc_id, "path": str(target)}, caps=caps)
        assert res["isError"] is True and res["structuredContent"]["code"] == "file_exists"
    assert target.read_text() == "old content\n"


def test_elicitation_counts_per_request_not_per_process(existing):
    server, doc_id, target = existing
    _ask(server, doc_id, target)  # one request declared it
    res = server.call("save_file", {"documentId": doc_id, "path": str(target)}, caps={})
    assert res["isError"] is True and res["structuredContent"]["code"] == "file_exists"


def test_legacy_connection_without_elicitation_needs_overwrite_true(
    server: McpProcess, tmp_path: Path
):
    # A legacy client that declared elicitation is asked instead: test_legacy_elicitation.py.
    server.result(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
        modern=False,
    )
    doc_id, _ = server.doc()
    target = tmp_path / "legacy.molforma.json"
    target.write_text("old\n")
    res = server.call("save_file", {"documentId": doc_id, "path": str(target)}, modern=False)
    assert res["isError"] is True and res["structuredContent"]["code"] == "file_exists"
    res = server.call(
        "save_file", {"documentId": doc_id, "path": str(target), "overwrite": True}, modern=False
    )
    assert res["isError"] is False and target.read_text() != "old\n"


def test_signed_state_expires_after_its_lifetime():
    signer = StateSigner()
    bound = save_state_payload("doc-1", "/tmp/a.json", "r5")
    fresh = signer.verify(signer.sign(bound))
    assert state_is_current(fresh, bound)
    expired = signer.verify(signer.sign(bound, ttl=-1.0))
    assert not state_is_current(expired, bound)
    assert not state_is_current(fresh, save_state_payload("doc-1", "/tmp/a.json", "r6"))


@pytest.mark.parametrize(
    "content",
    [
        {"overwrite": "true"},
        {"overwrite": 1},
        {"overwrite": "yes"},
        {},
        None,
    ],
)
def test_an_accept_without_a_real_boolean_true_does_not_overwrite(existing, content: Any):
    server, doc_id, target = existing
    res = _ask(server, doc_id, target)
    answer: dict[str, Any] = {"action": "accept"}
    if content is not None:
        answer["content"] = content
    done = _retry(server, doc_id, target, res["requestState"], answer)
    assert done["isError"] is True, done
    assert done["structuredContent"]["code"] == "overwrite_declined"
    assert target.read_text() == "old content\n"
