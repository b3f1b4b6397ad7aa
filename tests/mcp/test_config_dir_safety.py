"""MCP can never write the Preferences, and the Preferences reader trusts only its own format.

docs/reference/safety.md, Allowed directories: whatever ``--mcp-allow-dir`` says, nothing MCP asks for is written
inside the configuration directory, and a file there that is not a Preferences file
(a project carrying a top-level ``executable``, say) is refused and trusted in nothing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import McpProcess


def _canary_command(tmp_path: Path) -> str:
    return f"sh -c 'touch {tmp_path / 'canary'}' --"


def _project_with_top_level_executable(
    server: McpProcess, doc_id: str, command: str, jobs: Path
) -> dict[str, Any]:
    proj = json.loads(
        server.ok("export_document", {"documentId": doc_id, "format": "project"})["text"]
    )
    proj["executable"] = command  # unknown top-level keys are kept by the project reader
    proj["launcher"] = command
    proj["execution"]["executable"] = command
    proj["execution"]["job_root"] = str(jobs)
    return proj


def test_save_file_into_the_configuration_directory_is_refused_even_when_allowed(
    spawn: Any, tmp_path: Path, mcp_env: dict[str, str]
) -> None:
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    prefs = cfg / "preferences.json"
    prefs.write_text('{"format": "molforma-preferences", "version": 1}\n')
    before = prefs.read_bytes()
    (tmp_path / "cfglink").symlink_to(cfg)
    # The allowed directory contains the configuration directory.
    server = spawn("--mcp-allow-dir", str(tmp_path))
    doc_id, rev = server.water()
    proj = _project_with_top_level_executable(
        server, doc_id, _canary_command(tmp_path), tmp_path / "jobs"
    )
    s = server.ok(
        "import_document",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "format": "project",
            "text": json.dumps(proj),
            "preview": False,
        },
    )
    for target in (
        prefs,
        cfg / "other.molforma.json",
        tmp_path / "cfglink" / "preferences.json",
        cfg / "sub" / "x.molforma.json",
    ):
        err = server.err(
            "save_file", {"documentId": doc_id, "path": str(target), "overwrite": True}
        )
        assert err["code"] == "path_in_config_dir", err
        assert str(cfg.resolve()) in err["message"]
    assert prefs.read_bytes() == before
    assert sorted(p.name for p in cfg.iterdir()) == ["preferences.json"]
    # Job folders and input sets may not land there either.
    err = server.err(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": s["revision"],
            "values": {"job_root": str(cfg / "jobs")},
            "preview": False,
        },
    )
    assert err["code"] == "path_in_config_dir"
    err = server.err(
        "set_advanced",
        {
            "documentId": doc_id,
            "expectedRevision": s["revision"],
            "values": {"output_movecs": str(prefs)},
            "preview": False,
        },
    )
    assert err["code"] == "path_in_config_dir"
    assert prefs.read_bytes() == before


def test_without_allowed_directories_the_configuration_directory_is_still_refused(
    server: McpProcess, mcp_env: dict[str, str]
) -> None:
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    doc_id, _ = server.water()
    err = server.err(
        "save_file",
        {"documentId": doc_id, "path": str(cfg / "preferences.json"), "overwrite": True},
    )
    assert err["code"] == "path_in_config_dir"
    err = server.err(
        "open_file",
        {
            "documentId": doc_id,
            "expectedRevision": server.doc()[1],
            "path": str(cfg / "preferences.json"),
        },
    )
    assert err["code"] == "path_in_config_dir"
    assert not (cfg / "preferences.json").exists()


def test_a_project_written_as_preferences_by_hand_is_not_trusted_and_runs_nothing(
    spawn: Any, tmp_path: Path, mcp_env: dict[str, str]
) -> None:
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    command = _canary_command(tmp_path)
    first = spawn()
    doc_id, _ = first.water()
    proj = _project_with_top_level_executable(first, doc_id, command, tmp_path / "jobs")
    first.close()
    (cfg / "preferences.json").write_text(json.dumps(proj, indent=1))

    server = spawn("--mcp-allow-dir", str(tmp_path))
    doc_id, rev = server.doc()
    ex = server.ok("get_execution", {"documentId": doc_id})
    assert ex["execution"]["executable"] == "nwchem"
    assert ex["policy"]["trusted"]["executable"] == "nwchem"
    assert ex["policy"]["trusted"]["launcher"] == "mpirun"
    s = server.ok(
        "import_document",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "format": "project",
            "text": json.dumps(proj),
            "preview": False,
        },
    )
    err = server.err(
        "calculation", {"documentId": doc_id, "expectedRevision": s["revision"], "action": "start"}
    )
    assert err["code"] == "untrusted_execution"
    time.sleep(0.5)
    assert not (tmp_path / "canary").exists()
    assert not (tmp_path / "jobs").exists()
    server.close()
    assert "preferences" in server.stderr.lower() and "refused" in server.stderr.lower()
    assert not (tmp_path / "canary").exists()


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "molforma-preferences", "version": 1, "executable": "evil", "extra": 1}',
        '{"executable": "evil", "launcher": "evil", "document": {}}',
        '{"format": "molforma-project", "executable": "evil"}',
        '{"format": "molforma-preferences", "version": 2, "executable": "evil"}',
        '["executable", "evil"]',
    ],
)
def test_a_preferences_file_that_is_not_in_the_preferences_format_gives_the_defaults(
    spawn: Any, mcp_env: dict[str, str], text: str
) -> None:
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    (cfg / "preferences.json").write_text(text)
    server = spawn()
    doc_id, _ = server.doc()
    trusted = server.ok("get_execution", {"documentId": doc_id})["policy"]["trusted"]
    assert trusted["executable"] == "nwchem" and trusted["launcher"] == "mpirun"
    assert trusted["environment"] == {}
