"""Opening a file is one application function for the window and for MCP.

The window's Open (:func:`molforma.app.files.open_path`) and the ``open_file`` tool both
run :func:`molforma.app.document_files.open_file`: the same results sniffing, revision
check, trust rule and atom numbering, so the same file gives the same document.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from molforma.app import document_files, files, ops
from molforma.app.actor import Actor
from molforma.app.policy import Policy
from molforma.document.document import Document, protected_values
from molforma.mcp.server import Server
from molforma.mcp.state import HeadlessServices
from molforma.preferences import Preferences
from tests.core.conftest import WATER
from tests.paths import NWCHEM_DATA

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "pytest", "version": "1"},
}
XYZ = "3\nwater\nO 0 0 0.1173\nH 0 0.7572 -0.4692\nH 0 -0.7572 -0.4692\n"


@dataclass
class _App:
    """The members of the window's context the application layer uses."""

    document: Document = field(default_factory=Document)
    preferences: Preferences = field(default_factory=Preferences)
    policy: Policy | None = None
    jobs: Any = None

    def set_document(self, document: Document) -> None:
        self.document = document


def _tool(server: Server, name: str, args: dict[str, Any]) -> dict[str, Any]:
    msg = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": args, "_meta": META},
    }
    out = server.handle(msg)
    assert out is not None and "result" in out, out
    return out["result"]  # type: ignore[no-any-return]


def _mcp_open(server: Server, path: Path) -> tuple[dict[str, Any], Document]:
    listed = _tool(server, "list_documents", {})["structuredContent"]["documents"][0]
    res = _tool(
        server,
        "open_file",
        {
            "documentId": listed["documentId"],
            "expectedRevision": listed["revision"],
            "path": str(path),
            "preview": False,
        },
    )
    return res, server.state.document(listed["documentId"])


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[Actor]:
    """The actor of every call of the one open function."""
    seen: list[Actor] = []
    real = document_files.open_file

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["actor"])
        return real(*args, **kwargs)

    monkeypatch.setattr(document_files, "open_file", spy)
    return seen


def _project_file(path: Path) -> Path:
    doc = Document()
    ops.add_atoms(doc, WATER, preview=False)
    ops.set_molecule(doc, title="from a file", preview=False)
    ops.set_execution(doc, {"executable": "/opt/other/nwchem"}, preview=False)
    path.write_text(json.dumps(doc.project), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["structure", "project"])
def test_the_window_and_the_open_file_tool_run_one_open_and_make_the_same_document(
    tmp_path: Path, calls: list[Actor], kind: str
) -> None:
    if kind == "structure":
        path = tmp_path / "water.xyz"
        path.write_text(XYZ)
    else:
        path = _project_file(tmp_path / "water.molforma.json")

    app = _App()
    trusted = dict(app.document.trusted)
    opened = files.open_path(app, str(path), actor=Actor.PERSON)
    res, mcp_doc = _mcp_open(Server(HeadlessServices(allow_dirs=(tmp_path,))), path)

    assert calls == [Actor.PERSON, Actor.MCP_TOOL]  # both routes, one function
    assert opened is not None and opened.kind == kind
    assert res["isError"] is False, res
    window_doc = app.document
    # The same atoms with the same ids, bonds, title, charge and conditions.
    assert json.loads(json.dumps(window_doc.project["document"])) == json.loads(
        json.dumps(mcp_doc.project["document"])
    )
    assert window_doc.project["calculation"] == mcp_doc.project["calculation"]
    assert [a["id"] for a in window_doc.project["document"]["atoms"]] == ["a1", "a2", "a3"]
    # Neither route makes a file's protected values trusted (docs/reference/safety.md, Trusted values).
    assert window_doc.trusted == trusted
    if kind == "project":
        assert protected_values(window_doc.project) != window_doc.trusted
        assert not mcp_doc.is_trusted
        # The window's own Open names its file; a tool call leaves the window's name alone.
        assert window_doc.path == str(path.resolve()) and mcp_doc.path is None


def test_a_results_file_is_recognised_by_the_one_open_for_both_routes(
    tmp_path: Path, calls: list[Actor]
) -> None:
    out = tmp_path / "water.out"
    out.write_bytes((NWCHEM_DATA / "water_scf_optfreq.out").read_bytes())
    app = _App()
    before = app.document.revision
    opened = files.open_path(app, str(out), actor=Actor.PERSON)
    assert opened is not None and opened.kind == "results" and opened.edit is None
    assert app.document.revision == before  # the Results tab opens it; nothing is loaded

    res, doc = _mcp_open(Server(HeadlessServices(allow_dirs=(tmp_path,))), out)
    assert calls == [Actor.PERSON, Actor.MCP_TOOL]
    assert res["isError"] is True
    assert res["structuredContent"]["code"] == "open_file_results"
    assert res["structuredContent"]["details"]["kind"] == "NWChem output"
    assert doc.project["document"]["atoms"] == []
