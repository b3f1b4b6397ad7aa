"""Safety rules through MCP (docs/reference/safety.md): allowed directories and protected settings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, McpProcess

XYZ = "3\nwater\nO 0 0 0.1173\nH 0 0.7572 -0.4692\nH 0 -0.7572 -0.4692\n"


@pytest.fixture
def jail(spawn: Any, tmp_path: Path, mcp_env: dict[str, str]) -> tuple[McpProcess, Path, Path]:
    allowed = tmp_path / "allowed"
    outside = tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    (allowed / "in.xyz").write_text(XYZ)
    (outside / "out.xyz").write_text(XYZ)
    (allowed / "link_out.xyz").symlink_to(outside / "out.xyz")
    (allowed / "dangling.xyz").symlink_to(allowed / "missing.xyz")
    (allowed / "dirlink").symlink_to(outside)
    server = spawn("--mcp-allow-dir", str(allowed))
    return server, allowed, outside


def _refused(server: McpProcess, name: str, args: dict[str, Any], code: str) -> dict[str, Any]:
    doc_id, _ = server.doc()
    before = server.ok("get_document", {"documentId": doc_id})
    err = server.err(name, {"documentId": doc_id, **args})
    assert err["code"] == code, err
    assert server.ok("get_document", {"documentId": doc_id}) == before
    return err


def test_open_file_inside_the_allowed_directory_works(jail):
    server, allowed, _ = jail
    doc_id, rev = server.doc()
    s = server.ok(
        "open_file",
        {"documentId": doc_id, "expectedRevision": rev, "path": str(allowed / "in.xyz")},
    )
    assert s["candidate"]["formula"] == "H2O"


@pytest.mark.parametrize("rel", ["../outside/out.xyz", "link_out.xyz", "dirlink/out.xyz"])
def test_escapes_by_dotdot_and_symlinks_are_refused(jail, rel: str):
    server, allowed, _ = jail
    _, rev = server.doc()
    _refused(
        server,
        "open_file",
        {"expectedRevision": rev, "path": f"{allowed}/{rel}"},
        "path_not_allowed",
    )


def test_dangling_link_is_refused(jail):
    server, allowed, _ = jail
    _, rev = server.doc()
    _refused(
        server,
        "open_file",
        {"expectedRevision": rev, "path": str(allowed / "dangling.xyz")},
        "dangling_link",
    )
    _refused(
        server,
        "save_file",
        {"path": str(allowed / "dangling.xyz"), "overwrite": True},
        "dangling_link",
    )
    assert not (allowed / "missing.xyz").exists()


def test_tilde_expands_to_home_which_is_outside(jail, mcp_env):
    server, _, _ = jail
    home = Path(mcp_env["HOME"])
    (home / "h.xyz").write_text(XYZ)
    _, rev = server.doc()
    _refused(server, "open_file", {"expectedRevision": rev, "path": "~/h.xyz"}, "path_not_allowed")


def test_tilde_inside_an_allowed_home_works(spawn, mcp_env):
    home = Path(mcp_env["HOME"])
    (home / "h.xyz").write_text(XYZ)
    server = spawn("--mcp-allow-dir", str(home))
    doc_id, rev = server.doc()
    s = server.ok("open_file", {"documentId": doc_id, "expectedRevision": rev, "path": "~/h.xyz"})
    assert s["candidate"]["atomCount"] == 3


def test_save_and_results_and_settings_paths_are_checked(jail):
    server, allowed, outside = jail
    doc_id, rev = server.water()
    _refused(server, "save_file", {"path": str(outside / "x.molforma.json")}, "path_not_allowed")
    _refused(
        server,
        "save_file",
        {"path": str(allowed / ".." / "outside" / "y.json")},
        "path_not_allowed",
    )
    assert list(outside.iterdir()) == [outside / "out.xyz"]
    assert server.ok("save_file", {"documentId": doc_id, "path": str(allowed / "ok.molforma.json")})
    _refused(
        server,
        "results_action",
        {
            "expectedRevision": rev,
            "action": "open_file",
            "path": str(FIXTURES / "water_scf_optfreq.out"),
        },
        "path_not_allowed",
    )
    _refused(
        server,
        "set_execution",
        {"expectedRevision": rev, "values": {"job_root": str(outside / "jobs")}},
        "path_not_allowed",
    )
    _refused(
        server,
        "set_execution",
        {"expectedRevision": rev, "values": {"reference_dir": str(outside)}},
        "path_not_allowed",
    )
    _refused(
        server,
        "set_advanced",
        {"expectedRevision": rev, "values": {"scratch_dir": str(outside)}},
        "path_not_allowed",
    )
    _refused(
        server,
        "set_advanced",
        {"expectedRevision": rev, "values": {"permanent_dir": "../../escape"}},
        "path_not_allowed",
    )
    # A new document's job root is inside the first allowed directory; a project that
    # brings one from outside (~/molforma-jobs) is refused at start, before running, and
    # the refusal names the setting to change, since the call itself gave no path.
    execution = server.ok("get_execution", {"documentId": doc_id})["execution"]
    assert execution["job_root"] == str(allowed.resolve() / "molforma-jobs")
    project = json.loads((allowed / "ok.molforma.json").read_text())
    project["execution"]["job_root"] = "~/molforma-jobs"
    (allowed / "away.molforma.json").write_text(json.dumps(project))
    rev = server.ok(
        "open_file",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "path": str(allowed / "away.molforma.json"),
            "preview": False,
        },
    )["revision"]
    err = _refused(
        server, "calculation", {"expectedRevision": rev, "action": "start"}, "job_root_not_allowed"
    )
    assert "set_execution" in err["message"] and "job_root" in err["message"]
    assert err["details"]["setting"] == "job_root"
    assert err["details"]["path"].endswith("molforma-jobs")
    _refused(
        server,
        "calculation",
        {"expectedRevision": rev, "action": "save_inputs"},
        "job_root_not_allowed",
    )
    s = server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "values": {"job_root": str(allowed / "jobs")},
            "preview": False,
        },
    )
    assert s["candidate"] is None
    policy = server.ok("get_execution", {"documentId": doc_id})["policy"]
    assert policy["allowedDirectories"] == [str(allowed.resolve())]


def test_document_starts_with_the_preferences_trusted_values(spawn, mcp_env):
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    (cfg / "preferences.json").write_text(
        json.dumps(
            {
                "executable": "/opt/nw/bin/nwchem",
                "launcher": "mpiexec",
                "environment": {"OMP_STACKSIZE": "64M"},
            }
        )
    )
    server = spawn()
    doc_id, _ = server.doc()
    ex = server.ok("get_execution", {"documentId": doc_id})
    assert ex["execution"]["executable"] == "/opt/nw/bin/nwchem"
    assert ex["execution"]["environment"] == {"OMP_STACKSIZE": "64M"}
    assert ex["trusted"] is True
    assert ex["policy"]["trusted"]["launcher"] == "mpiexec"


def test_a_loaded_project_with_other_protected_values_cannot_be_started(
    server: McpProcess, tmp_path: Path
):
    doc_id, rev = server.doc()
    proj = json.loads(
        server.ok("export_document", {"documentId": doc_id, "format": "project"})["text"]
    )
    proj["document"]["atoms"] = [{"id": "a1", "element": "He", "x": 0, "y": 0, "z": 0}]
    proj["document"]["nextAtomId"] = 2
    proj["execution"]["executable"] = "/tmp/evil-nwchem"
    proj["execution"]["job_root"] = str(tmp_path / "jobs")
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
    assert server.ok("get_execution", {"documentId": doc_id})["trusted"] is False
    err = server.err(
        "calculation", {"documentId": doc_id, "expectedRevision": s["revision"], "action": "start"}
    )
    assert err["code"] == "untrusted_execution"
    assert "executable" in err["details"]["differences"]
    assert not (tmp_path / "jobs").exists()


def test_execution_flag_lets_mcp_change_protected_settings(spawn, tmp_path: Path):
    server = spawn("--mcp-allow-execution-settings")
    doc_id, rev = server.doc()
    s = server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "values": {"executable": "/opt/x/nwchem", "environment": {"A": "1"}},
            "preview": False,
        },
    )
    s = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": s["revision"],
            "values": {"extra_input": "print low"},
            "preview": False,
        },
    )
    ex = server.ok("get_execution", {"documentId": doc_id})
    assert ex["execution"]["executable"] == "/opt/x/nwchem"
    assert ex["policy"]["executionSettingsAllowed"] is True
    # A shell task stays refused whatever the flag.
    err = server.err(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": s["revision"],
            "values": {"extra_tasks": ["task shell rm -rf /"]},
        },
    )
    assert err["code"] != "protected_setting"


def test_stray_output_of_children_never_reaches_stdout(spawn, mcp_env, tmp_path: Path):
    # A stand-in NWChem that writes to its fd 1 and prints: the job's stdout is its
    # output file, so nothing reaches the protocol stream.
    script = tmp_path / "noisy.py"
    script.write_text("import os, sys\nos.write(1, b'NOISE-ON-FD1\\n')\nprint('NOISE-PRINT')\n")
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    (cfg / "preferences.json").write_text(json.dumps({"executable": f"{sys.executable} {script}"}))
    server = spawn()
    doc_id, rev = server.water()
    server.ok("calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"})
    for _ in range(20):
        server.result("server/discover")  # every line read back parses as JSON-RPC
    server.close()
    while (line := server.lines.get(timeout=5)) is not None:
        assert b"NOISE" not in line
        json.loads(line)


def test_fd1_of_the_server_process_points_at_stderr_once_serving(tmp_path: Path):
    import subprocess

    code = (
        "import os\n"
        "from molforma.mcp.transport import StdioTransport\n"
        "t = StdioTransport(); t.start(lambda e: None)\n"
        "print('stray print'); os.write(1, b'raw fd1 write\\n')\n"
        "os.system('echo from a child shell')\n"
        "t.send({'jsonrpc': '2.0', 'id': 1, 'result': {}}); t.close()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], input=b"", capture_output=True, timeout=60, cwd=tmp_path
    )
    assert proc.stdout == b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
    for text in (b"stray print", b"raw fd1 write", b"from a child shell"):
        assert text in proc.stderr
