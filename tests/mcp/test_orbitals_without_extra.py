"""Without the ``orbitals`` extra (PySCF, scikit-image) the program runs and says what to install.

The real ``molforma --mcp-gui`` runs offscreen with an import blocker on its path (a
``sitecustomize`` whose meta path finder makes ``import pyscf`` / ``import skimage`` fail
as on a platform where they are not installed). A MOLDEN file opens, its results read,
and asking for an orbital surface — the HOMO button, driven over MCP — fails with
``orbitals_unavailable`` in the display language, naming the command that installs the
extra: no traceback, no ``internal_error``, a server that goes on answering.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import (
    FIXTURES,
    GUI_ENV,
    TASK_CAPS,
    McpProcess,
    run_window_command,
    wait_until,
)

pytest.importorskip("PySide6")

METHANE = FIXTURES / "methane_b3lyp_molden.molden"
INSTALL = "pip install 'molforma[orbitals]'"

# Imported by the child's `site` at start-up (PYTHONPATH comes before site-packages).
BLOCKER = '''\
import sys


class _NotInstalled:
    """Makes the optional orbital packages look absent, as on a platform without them."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pyscf", "skimage"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NotInstalled())
'''


def _without_orbital_packages(spawn: Any, tmp_path: Path, lang: str) -> McpProcess:
    blocker = tmp_path / "no_orbital_packages"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    env = {
        **GUI_ENV,
        "MOLFORMA_LANGUAGE": lang,
        "PYTHONPATH": str(blocker) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    return spawn("--mcp-allow-dir", str(tmp_path), env=env, flag="--mcp-gui")


def _node(server: McpProcess, name: str) -> dict[str, Any]:
    nodes = server.ok("get_ui", {"query": name, "includeHidden": True})["nodes"]
    (found,) = [n for n in nodes if n["objectName"] == name]
    return found


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            (
                "Orbital surfaces need PySCF and scikit-image",
                "PySCF (pyscf)",
                "scikit-image (skimage)",
            ),
        ),
        ("ja", ("軌道の表示には PySCF と scikit-image が必要", "インストールしてください")),
    ],
)
def test_an_orbital_asked_for_without_pyscf_is_refused_naming_the_extra_and_the_rest_works(
    spawn: Any, tmp_path: Path, mcp_env: dict[str, str], lang: str, words: tuple[str, ...]
) -> None:
    # The blocker really hides the packages from a Python started like the server.
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    hidden = subprocess.run(
        [sys.executable, "-c", "import pyscf"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**mcp_env, "PYTHONPATH": str(probe) + os.pathsep + mcp_env["PYTHONPATH"]},
    )
    assert hidden.returncode != 0 and "ModuleNotFoundError" in hidden.stderr

    molden = tmp_path / "methane.molden"
    shutil.copy(METHANE, molden)
    server = _without_orbital_packages(spawn, tmp_path, lang)
    doc_id, rev = server.doc()
    server.ok(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": str(molden)},
    )

    def loaded() -> bool:
        res = server.ok("get_app_state", {"documentId": doc_id})["results"].get(doc_id) or {}
        return bool(res.get("source") == str(molden) and res.get("loading") is None)

    wait_until(loaded, 60)
    # The results themselves need neither package: the geometry comes from the text.
    res = server.ok("get_results", {"documentId": doc_id, "section": "structures"})
    assert res["source"] == str(molden) and res["kind"] == "molden" and res["total"] == 1
    assert res["items"][0]["symbols"] == ["C", "H", "H", "H", "H"]

    # The Orbitals tab says at once what is missing, and asking for the HOMO is refused
    # with that sentence (it is the record's error, with its code).
    wait_until(lambda: _node(server, "orbitalMessage").get("text"), 60)
    assert INSTALL in _node(server, "orbitalMessage")["text"]
    assert _node(server, "orbitalHomoButton")["enabled"] is True
    rec = run_window_command(server, "ui_activate", {"target": "orbitalHomoButton"})
    assert rec["status"] == "failed", rec
    error = rec["error"]
    assert error["code"] == "orbitals_unavailable", error
    assert INSTALL in error["message"]
    for word in words:
        assert word in error["message"], error["message"]
    # Asked as a task, the same refusal is the task's error result (isError, code, message).
    doc_id, rev = server.doc()
    task = server.call(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "orbitalLumoButton"},
        caps=TASK_CAPS,
    )
    done = wait_until(
        lambda: (
            (t := server.result("tasks/get", {"taskId": task["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and t
        ),
        60,
    )
    assert done["result"]["isError"] is True
    assert done["result"]["structuredContent"]["code"] == "orbitals_unavailable"
    assert INSTALL in done["result"]["structuredContent"]["message"]

    # Everything else goes on: another window command, a document tool, the results.
    rec = run_window_command(server, "ui_activate", {"target": "resultsTab"})
    assert rec["status"] == "done", rec
    doc_id, rev = server.doc()
    summary = server.ok(
        "add_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atoms": [{"element": "O", "position": [0, 0, 0]}],
            "preview": False,
        },
    )
    assert summary["revision"] != rev
    assert server.ok("get_results", {"documentId": doc_id})["source"] == str(molden)
    assert server.proc.poll() is None
    assert server.close() == 0
    assert "Traceback" not in server.stderr, server.stderr
    assert "internal_error" not in server.stderr
