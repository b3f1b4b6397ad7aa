"""The job root the person set in the window is the job root of a headless new document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.mcp.test_exit_signals import write_preferences


def test_a_headless_document_starts_with_the_remembered_job_root(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path
) -> None:
    chosen = str(tmp_path / "my-jobs")
    write_preferences(mcp_env, job_root=chosen)
    server = spawn()
    doc_id, _rev = server.doc()
    execution = server.ok("get_execution", {"documentId": doc_id})["execution"]
    assert execution["job_root"] == chosen


def test_without_one_the_default_job_root_stays(server: Any) -> None:
    doc_id, _rev = server.doc()
    execution = server.ok("get_execution", {"documentId": doc_id})["execution"]
    assert execution["job_root"] == "~/molforma-jobs"


def test_a_relative_job_root_is_refused_by_set_execution(server: Any) -> None:
    doc_id, rev = server.doc()
    err = server.err(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "values": {"job_root": "jobs"},
            "preview": False,
        },
    )
    assert err["code"] == "job_root_relative"
    assert "jobs" in err["message"]
