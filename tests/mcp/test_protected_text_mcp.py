"""Refused NWChem directives through the real ``molforma`` executable (docs/reference/safety.md, Protected text).

Even with ``--mcp-allow-execution-settings`` (which lets a client change the
protected text at all), text that NWChem would read as ``task shell`` or
``include`` is refused on every way in, and nothing changes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import McpProcess

PADDED = "task \\" + " " * 1018 + "JUNK\n" + 'shell "touch canary"\n'
WATER_NW = (
    "start w\ngeometry\n O 0 0 0.1173\n H 0 0.7572 -0.4692\n H 0 -0.7572 -0.4692\n"
    "end\nbasis\n * library sto-3g\nend\n"
)


@pytest.fixture
def open_server(spawn: Any, tmp_path: Path) -> McpProcess:
    return spawn("--mcp-allow-execution-settings", "--mcp-allow-dir", str(tmp_path))


def _unchanged(server: McpProcess, doc_id: str, name: str, args: dict[str, Any]) -> dict:
    before = server.ok("get_document", {"documentId": doc_id})
    err = server.err(name, {"documentId": doc_id, **args})
    assert server.ok("get_document", {"documentId": doc_id}) == before
    return err


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ({"extra_input": PADDED}, "task_shell"),
        ({"extra_input": "scf\nend\ninclude /etc/passwd"}, "include"),
        ({"extra_tasks": ["scf energy ; include other.nw"]}, "include"),
        ({"extra_input": "print low \\"}, "continuation"),
    ],
)
def test_set_nwchem_refuses_what_nwchem_would_run_or_include_even_with_the_flag(
    open_server: McpProcess, tmp_path: Path, values: dict[str, Any], reason: str
) -> None:
    doc_id, rev = open_server.water()
    err = _unchanged(
        open_server,
        doc_id,
        "set_nwchem",
        {"expectedRevision": rev, "values": values, "preview": False},
    )
    assert err["code"] == "forbidden_extra_input", err
    assert err["details"]["reason"] == reason
    assert err["details"]["lineno"] >= 1 and err["details"]["line"]
    assert "never lets NWChem run" in err["message"]
    # A harmless change of the same text is accepted: the flag itself works.
    open_server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "values": {"extra_input": "print low"},
            "preview": False,
        },
    )
    assert not (tmp_path / "canary").exists()


def test_open_file_of_a_nw_carrying_a_padded_shell_task_changes_nothing(
    open_server: McpProcess, tmp_path: Path
) -> None:
    nw = tmp_path / "trap.nw"
    nw.write_text(WATER_NW + PADDED + "task scf energy\n")
    doc_id, rev = open_server.water()
    err = _unchanged(open_server, doc_id, "open_file", {"expectedRevision": rev, "path": str(nw)})
    assert err["code"] == "format_error", err
    assert err["details"]["kind"] == "format_forbidden_directive"
    assert err["details"]["line"] == 10
    assert "(line 10)" in err["message"] and "shell command" in err["message"]

    err = _unchanged(
        open_server,
        doc_id,
        "import_document",
        {"expectedRevision": rev, "format": "nwchem", "text": WATER_NW + "include other.nw\n"},
    )
    assert err["details"]["kind"] == "format_forbidden_directive"
    assert not (tmp_path / "canary").exists()


def test_import_document_of_a_project_carrying_the_text_changes_nothing(
    open_server: McpProcess, tmp_path: Path
) -> None:
    doc_id, rev = open_server.water()
    project = open_server.project(doc_id)
    project["calculation"]["extra_input"] = PADDED
    err = _unchanged(
        open_server,
        doc_id,
        "import_document",
        {"expectedRevision": rev, "format": "project", "text": json.dumps(project)},
    )
    assert err["code"] == "forbidden_extra_input", err
    assert err["details"]["reason"] == "task_shell"

    saved = tmp_path / "trap.molforma.json"
    project["calculation"]["extra_input"] = ""
    project["calculation"]["extra_tasks"] = ["dft energy;include other.nw"]
    saved.write_text(json.dumps(project))
    err = _unchanged(
        open_server, doc_id, "open_file", {"expectedRevision": rev, "path": str(saved)}
    )
    assert (err["code"], err["details"]["reason"]) == ("forbidden_extra_input", "include")
    assert not (tmp_path / "canary").exists()


def test_convert_of_such_a_nw_gives_a_clear_error_and_writes_nothing(
    mcp_env: dict[str, str], tmp_path: Path
) -> None:
    nw = tmp_path / "trap.nw"
    nw.write_text(WATER_NW + PADDED + "task scf energy\n")
    out = tmp_path / "out.xyz"
    proc = subprocess.run(
        [sys.executable, "-m", "molforma", "convert", str(nw), "-o", str(out)],
        env=mcp_env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "line 10" in proc.stderr and "shell command" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()
    proc = subprocess.run(
        [sys.executable, "-m", "molforma", "convert", str(nw), "-o", str(out)],
        env={**mcp_env, "MOLFORMA_LANGUAGE": "ja"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "シェルコマンド" in proc.stderr and not out.exists()


@pytest.mark.parametrize(
    ("tail", "reason", "line"),
    [
        ('print low\rtask shell "touch canary"\n', "task_shell", 11),  # a lone CR ends a line
        ('task sh\\\nell "touch canary"\n', "split_directive", 10),
        ('ta\x0bsk shell "touch canary"\n', "line_separator", 10),
        ("task scf\u2028energy\n", "line_separator", 10),
    ],
)
def test_a_nw_file_read_differently_by_python_and_nwchem_is_not_opened(
    open_server: McpProcess, tmp_path: Path, tail: str, reason: str, line: int
) -> None:
    nw = tmp_path / "split.nw"
    nw.write_bytes((WATER_NW + tail).encode("utf-8"))
    doc_id, rev = open_server.water()
    err = _unchanged(open_server, doc_id, "open_file", {"expectedRevision": rev, "path": str(nw)})
    assert err["code"] == "format_error", err
    assert err["details"]["kind"] == "format_forbidden_directive"
    assert (err["details"]["reason"], err["details"]["line"]) == (reason, line)
    assert f"(line {line})" in err["message"]
    err = _unchanged(
        open_server,
        doc_id,
        "import_document",
        {"expectedRevision": rev, "format": "nwchem", "text": WATER_NW + tail},
    )
    assert err["details"]["reason"] == reason
    err = _unchanged(
        open_server,
        doc_id,
        "set_nwchem",
        {"expectedRevision": rev, "values": {"extra_input": tail}, "preview": False},
    )
    assert err["code"] == "forbidden_extra_input"
    assert not (tmp_path / "canary").exists()
