"""Results loading stays inside the allowed directories file by file (docs/reference/safety.md, Allowed directories).

An allowed folder may hold links to files elsewhere: ``output.out``, a MOLDEN file or
the step files of a vibration animation. The loader checks every file it opens (after
resolving links), so such a file is refused and the previous results stay.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, TASKS, McpProcess, wait_until

TASK_CAPS = {"extensions": {TASKS: {}}}
SECRET = "SECRET-LINE-OUTSIDE-THE-ALLOWED-DIRECTORY"


def _load(server: McpProcess, doc_id: str, action: str, path: str | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {
        "documentId": doc_id,
        "expectedRevision": server.doc()[1],
        "action": action,
    }
    if path is not None:
        args["path"] = path
    res = server.call("results_action", args, caps=TASK_CAPS)
    assert res.get("resultType") == "task", res

    def done() -> dict[str, Any] | None:
        t = server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS)
        return t if t["status"] in ("completed", "failed", "cancelled") else None

    task = wait_until(done, 60, 0.2)
    return task["result"]["structuredContent"]  # type: ignore[no-any-return]


@pytest.fixture
def folders(spawn: Any, tmp_path: Path) -> tuple[McpProcess, Path, Path]:
    allowed = tmp_path / "allowed"
    outside = tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    # The outside output carries a marker line that must never reach the client.
    text = (FIXTURES / "water_scf_optfreq.out").read_text(encoding="utf-8")
    (outside / "real.out").write_text(text + f"\n{SECRET}\n", encoding="utf-8")
    shutil.copy(FIXTURES / "nh3_planar_scf_freq.molden", outside / "real.molden")
    return spawn("--mcp-allow-dir", str(allowed)), allowed, outside


def _assert_nothing_leaked(server: McpProcess, doc_id: str) -> None:
    results = server.ok("get_app_state", {})["results"].get(doc_id) or {}
    assert results.get("source") is None or "outside" not in str(results.get("source"))
    log = server.request("resources/read", {"uri": f"molforma://documents/{doc_id}/results/log"})
    assert SECRET not in str(log)


@pytest.mark.parametrize(
    "link_name,target",
    [
        ("output.out", "real.out"),
        ("result.molden", "real.molden"),
    ],
)
def test_open_directory_refuses_a_result_file_linked_from_outside(
    folders: tuple[McpProcess, Path, Path], link_name: str, target: str
) -> None:
    server, allowed, outside = folders
    job = allowed / "job"
    job.mkdir()
    (job / link_name).symlink_to(outside / target)
    doc_id, _ = server.doc()
    out = _load(server, doc_id, "open_directory", str(job))
    assert out["status"] == "failed", out
    assert out["error"]["code"] == "path_not_allowed", out
    _assert_nothing_leaked(server, doc_id)
    err = server.err(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": server.doc()[1],
            "action": "open_file",
            "path": str(job / link_name),
        },
    )
    assert err["code"] == "path_not_allowed"


def test_an_animation_with_one_step_file_linked_from_outside_is_refused(
    folders: tuple[McpProcess, Path, Path],
) -> None:
    server, allowed, outside = folders
    anim = allowed / "anim"
    anim.mkdir()
    steps = sorted((FIXTURES / "nh3_planar_scf_freq_anim").glob("freq.m-001.s-*.xyz"))
    for f in steps[:-1]:
        shutil.copy(f, anim / f.name)
    shutil.copy(steps[-1], outside / steps[-1].name)
    (anim / steps[-1].name).symlink_to(outside / steps[-1].name)
    doc_id, _ = server.doc()
    for action, path in (
        ("open_file", str(anim / "freq.m-001.s-*.xyz")),
        ("open_directory", str(anim)),
    ):
        out = _load(server, doc_id, action, path)
        assert out["status"] == "failed", out
        assert out["error"]["code"] == "path_not_allowed", out


def test_reload_refuses_a_file_replaced_by_a_link_to_outside(
    folders: tuple[McpProcess, Path, Path],
) -> None:
    server, allowed, outside = folders
    job = allowed / "job"
    job.mkdir()
    shutil.copy(FIXTURES / "water_scf_optfreq.out", job / "output.out")
    doc_id, _ = server.doc()
    assert _load(server, doc_id, "open_directory", str(job))["status"] == "completed"
    (job / "output.out").unlink()
    (job / "output.out").symlink_to(outside / "real.out")
    out = _load(server, doc_id, "reload")
    assert out["status"] == "failed", out
    assert out["error"]["code"] == "path_not_allowed", out
    _assert_nothing_leaked(server, doc_id)
    state = server.ok("get_app_state", {})["results"][doc_id]
    assert state["source"] == str(job) and state["counts"]["modes"] > 0
