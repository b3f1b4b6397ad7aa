"""Values that reach the SLURM batch script or the NWChem input are refused when they are
set, through the real ``molforma --mcp`` over stdio (security issue, findings 1, 8, 10).

The proof of a batch-script injection is a canary file that ``touch`` would make: it must
not appear. The SLURM tests run against the real single-node cluster the session starts
(tests/slurm_cluster.py); the scheduler is the person's trusted choice from Preferences,
as in headless use.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import STAND_IN, McpProcess, wait_until

STAND_IN_EXE = f"{sys.executable} {STAND_IN / 'fake_nwchem.py'}"


def _prefs(env: dict[str, str], **prefs: Any) -> None:
    cfg = Path(env["MOLFORMA_CONFIG_DIR"])
    (cfg / "preferences.json").write_text(json.dumps(prefs))


def _revision(server: McpProcess, doc_id: str) -> str:
    return next(
        d["revision"] for d in server.ok("list_documents")["documents"] if d["documentId"] == doc_id
    )


def _refused(
    server: McpProcess, tool: str, doc_id: str, args: dict[str, Any], code: str
) -> dict[str, Any]:
    """Call ``tool``; it must fail with ``code`` and leave the document as it was."""
    rev = _revision(server, doc_id)
    before = server.ok("get_document", {"documentId": doc_id})
    err = server.err(tool, {"documentId": doc_id, "expectedRevision": rev, **args})
    assert err["code"] == code, err
    assert err["code"] != "internal_error"
    after = server.ok("get_document", {"documentId": doc_id})
    assert after == before  # revision, project and (no) candidate unchanged
    assert after["candidate"] is None
    return err


def _hostile(canary: Path, elsewhere: Path) -> list[tuple[str, str]]:
    return [
        ("qos", f'x"\ntouch {canary} #'),
        ("qos", f'x" --chdir={elsewhere} --comment="y'),
        ("partition", f'debug"\ntouch {canary} #'),
        ("partition", f'debug" --chdir={elsewhere} --comment="y'),
    ]


@pytest.mark.slurm
@pytest.mark.slow
def test_a_hostile_qos_or_partition_is_refused_at_set_execution_and_no_canary_appears(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    canary = tmp_path / "CANARY"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "input.nw").write_text(f"start x\ntask shell touch {canary}\n")
    _prefs(mcp_env, scheduler="slurm", executable=STAND_IN_EXE)
    server = spawn()
    jobs = tmp_path / "jobs"
    doc_id, rev = server.water()
    server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"basis": "sto-3g"},
        },
    )
    rev = _revision(server, doc_id)
    server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"job_root": str(jobs)},
        },
    )
    for key, value in _hostile(canary, elsewhere):
        for preview in (False, True):
            err = _refused(
                server,
                "set_execution",
                doc_id,
                {"preview": preview, "values": {key: value}},
                "bad_slurm_name",
            )
            assert err["details"]["setting"] == key
            assert key in err["message"]
    ex = server.ok("get_execution", {"documentId": doc_id})["execution"]
    assert ex["qos"] is None and ex["partition"] is None
    # What the attack went on to do: start the calculation. It runs with the settings
    # that were accepted, to its end, and nothing of the refused values runs.
    rev = _revision(server, doc_id)
    server.ok("calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"})
    final = wait_until(
        lambda: (
            (c := server.ok("get_app_state", {})["calculation"])
            and c["status"] in ("finished", "failed", "cancelled")
            and c
        ),
        120,
        0.2,
    )
    assert final["status"] == "finished", final["record"]
    assert final["record"]["qos"] is None
    # PSI/J keeps the script it wrote: no line of it came from a refused value.
    script = next((Path(final["jobDirectory"]) / ".psij").rglob("*.job"))
    assert str(canary) not in script.read_text() and "elsewhere" not in script.read_text()
    assert not canary.exists()
    assert sorted(p.name for p in elsewhere.iterdir()) == ["input.nw"]


@pytest.mark.parametrize("key", ["qos", "partition"])
def test_a_project_file_or_string_carrying_a_hostile_batch_value_does_not_load(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, key: str
) -> None:
    canary = tmp_path / "CANARY"
    _prefs(mcp_env, scheduler="slurm", executable=STAND_IN_EXE)
    server = spawn("--mcp-allow-dir", str(tmp_path))
    doc_id, _rev = server.water()
    project = server.ok("get_document", {"documentId": doc_id})["project"]
    project["execution"][key] = f'x"\ntouch {canary} #'
    path = tmp_path / "hostile.molforma.json"
    path.write_text(json.dumps(project))
    err = _refused(
        server, "open_file", doc_id, {"path": str(path), "preview": False}, "bad_slurm_name"
    )
    assert err["details"]["setting"] == key
    _refused(
        server,
        "import_document",
        doc_id,
        {"format": "project", "text": json.dumps(project), "preview": False},
        "bad_slurm_name",
    )
    assert not canary.exists()


# Finding 8: each of these used to answer success and change the document.
BAD_VALUES = [
    ("set_nwchem", {"basis": "6-31g* file /etc/passwd"}, "bad_basis_name"),
    ("set_nwchem", {"basis": "file"}, "bad_basis_name"),
    ("set_nwchem", {"theory": "dft", "functional": "b3lyp end"}, "bad_functional"),
    ("set_nwchem", {"theory": "dft", "functional": "b3lyp\nend"}, "bad_functional"),
    ("set_nwchem", {"functional": "b3lyp\ttask shell ls"}, "bad_functional"),
    ("set_execution", {"partition": "debug\nshort"}, "bad_slurm_name"),
    ("set_execution", {"qos": "normal\nhigh"}, "bad_slurm_name"),
    ("set_execution", {"time_limit": 1e300}, "bad_time_limit"),
    ("set_molecule", {"title": "water\u0000"}, "bad_title"),
    ("set_molecule", {"title": "water\nend"}, "bad_title"),
]


@pytest.mark.parametrize(
    ("tool", "values", "code"),
    BAD_VALUES,
    ids=[f"{t}-{list(v.values())[-1]!r}" for t, v, _c in BAD_VALUES],
)
def test_each_bad_value_is_refused_with_its_code_and_nothing_changes(
    server: McpProcess, tool: str, values: dict[str, Any], code: str
) -> None:
    doc_id, _rev = server.water()
    args = dict(values) if tool == "set_molecule" else {"values": values}
    for preview in (False, True):
        err = _refused(server, tool, doc_id, {"preview": preview, **args}, code)
        assert err["message"] and "{" not in err["message"]


def test_a_bad_value_is_refused_in_japanese_too(spawn: Any) -> None:
    server = spawn(env={"MOLFORMA_LANGUAGE": "ja"})
    doc_id, _rev = server.water()
    err = _refused(
        server,
        "set_execution",
        doc_id,
        {"preview": False, "values": {"qos": "a\nb"}},
        "bad_slurm_name",
    )
    assert "SLURM" in err["message"]
    assert any("\u3040" <= c <= "\u30ff" for c in err["message"]), err["message"]


def test_a_time_limit_of_1e300_with_slurm_is_a_clear_error_not_an_internal_one(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path
) -> None:
    _prefs(mcp_env, scheduler="slurm", executable=STAND_IN_EXE)
    server = spawn("--mcp-allow-dir", str(tmp_path))
    doc_id, _rev = server.water()
    err = _refused(
        server,
        "set_execution",
        doc_id,
        {"preview": False, "values": {"time_limit": 1e300}},
        "bad_time_limit",
    )
    assert "time_limit" in err["message"] and "366" in err["message"]
    # Nor can a project file bring it in.
    project = server.ok("get_document", {"documentId": doc_id})["project"]
    project["execution"]["time_limit"] = 1e300
    path = tmp_path / "long.molforma.json"
    path.write_text(json.dumps(project))
    _refused(server, "open_file", doc_id, {"path": str(path), "preview": False}, "bad_time_limit")
    # The largest allowed limit is accepted.
    rev = _revision(server, doc_id)
    server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"time_limit": 366 * 86400},
        },
    )
