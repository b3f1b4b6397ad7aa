"""The Execution tab with the SLURM scheduler: batch fields, confirmation, Run and Stop.

The runs go to the real single-node cluster the session starts (tests/slurm_cluster.py).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QSpinBox

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.jobs import TERMINAL
from tests.gui.helpers import WATER, execution_panel, type_into, water_context

FAKE_NWCHEM = Path(__file__).resolve().parents[1] / "stand_in" / "fake_nwchem.py"
BATCH_FIELDS = (
    "partitionEdit",
    "accountEdit",
    "qosEdit",
    "nodesSpin",
    "tasksPerNodeSpin",
    "batchDirectivesEdit",
)


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    yield from water_context(tmp_path / "jobs")


@pytest.fixture
def panel(qtbot: Any, ctx: Any) -> Any:
    return execution_panel(qtbot, ctx, (1100, 800))


def _choose_slurm(panel: Any) -> None:
    combo = panel.findChild(QComboBox, "schedulerCombo")
    combo.setCurrentIndex(combo.findData("slurm"))


def test_batch_fields_show_only_for_slurm_and_their_edits_reach_the_project(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    ex = lambda: ctx.document.project["execution"]  # noqa: E731
    assert not panel.findChild(object, "batchSettings").isVisible()
    assert panel.findChild(QSpinBox, "processesSpin").isVisible()
    _choose_slurm(panel)
    assert ex()["scheduler"] == "slurm"
    for name in BATCH_FIELDS:
        assert panel.findChild(object, name).isVisible(), name
    assert not panel.findChild(QSpinBox, "processesSpin").isVisible()
    type_into(qtbot, panel.findChild(QLineEdit, "partitionEdit"), "short")
    type_into(qtbot, panel.findChild(QLineEdit, "accountEdit"), "chem")
    type_into(qtbot, panel.findChild(QLineEdit, "qosEdit"), "normal")
    panel.findChild(QSpinBox, "nodesSpin").setValue(2)
    panel.findChild(QSpinBox, "tasksPerNodeSpin").setValue(4)
    type_into(qtbot, panel.findChild(QLineEdit, "batchDirectivesEdit"), "--mem=4G --constraint=cpu")
    assert {
        k: ex()[k]
        for k in ("partition", "account", "qos", "nodes", "tasksPerNode", "batch_directives")
    } == {
        "partition": "short",
        "account": "chem",
        "qos": "normal",
        "nodes": 2,
        "tasksPerNode": 4,
        "batch_directives": ["--mem=4G", "--constraint=cpu"],
    }
    assert ctx.document.is_trusted  # the person's own choice
    before = ctx.document.revision
    type_into(qtbot, panel.findChild(QLineEdit, "batchDirectivesEdit"), "mem")
    assert ctx.document.revision == before
    assert "--name=value" in panel.findChild(object, "batch_directivesMessage").text()
    combo = panel.findChild(QComboBox, "schedulerCombo")
    combo.setCurrentIndex(combo.findData("local"))
    assert not panel.findChild(object, "batchSettings").isVisible()


def test_the_run_confirmation_shows_an_untrusted_scheduler_account_and_directives(
    panel: Any, ctx: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    ops.set_execution(
        ctx.document,
        {"scheduler": "slurm", "account": "someone-else", "batch_directives": ["--uid=0"]},
        preview=False,
        actor=Actor.MCP_TOOL,
    )
    assert not ctx.document.is_trusted
    asked: list[str] = []
    monkeypatch.setattr(
        dialogs,
        "ask",
        lambda parent, title, text, buttons, **kw: (asked.append(text), buttons[-1])[1],
    )
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert len(asked) == 1
    assert "Scheduler: slurm" in asked[0]
    assert "Account: someone-else" in asked[0]
    assert "--uid=0" in asked[0]
    assert panel.job is None and ctx.jobs.jobs() == []


@pytest.mark.slurm
@pytest.mark.nwchem
@pytest.mark.slow
def test_water_scf_run_on_slurm_from_the_window_finishes_and_shows_results(
    panel: Any, ctx: Any, qtbot: Any, slurm_cluster: Any
) -> None:
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    from molforma.gui.widgets.results_panel import ResultsPanel

    results = ResultsPanel(ctx)
    qtbot.addWidget(results)
    _choose_slurm(panel)
    type_into(qtbot, panel.findChild(QLineEdit, "partitionEdit"), "debug")
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert panel.job is not None, panel.findChild(object, "jobStatusLabel").text()
    assert panel.job.is_batch and panel.job.native_id
    qtbot.waitUntil(lambda: panel.job.status in TERMINAL, timeout=120000)
    assert panel.job.status == "finished", panel.job.snapshot()
    qtbot.waitUntil(lambda: results.results is not None, timeout=20000)
    assert "Total SCF energy" in panel.findChild(object, "executionLog").toPlainText()
    assert -75.1 < results.results.summary.finalEnergy < -74.8
    assert slurm_cluster.job_state(panel.job.native_id) == "COMPLETED"


@pytest.mark.slurm
@pytest.mark.slow
def test_stop_cancels_the_batch_job_in_the_cluster_and_its_process_ends(
    panel: Any, ctx: Any, qtbot: Any, slurm_cluster: Any
) -> None:
    _choose_slurm(panel)
    exe = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_NWCHEM))}"
    type_into(qtbot, panel.findChild(QLineEdit, "executableEdit"), exe)
    ops.set_execution(ctx.document, {"environment": {"FAKE_NWCHEM_MODE": "hang"}}, preview=False)
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    job = panel.job
    assert job is not None, panel.findChild(object, "jobStatusLabel").text()
    info = job.folder / "fake_nwchem.info"
    qtbot.waitUntil(info.exists, timeout=30000)
    qtbot.waitUntil(
        lambda: "Batch job" in panel.findChild(object, "jobStatusLabel").text(), timeout=5000
    )
    pid = int(__import__("json").loads(info.read_text())["pid"])
    stop = panel.findChild(object, "stopButton")
    assert stop.isEnabled()
    qtbot.mouseClick(stop, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: job.status in TERMINAL, timeout=15000)
    assert job.status == "cancelled"
    assert slurm_cluster.job_state(job.native_id) == "CANCELLED"

    def gone() -> bool:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        return state == "Z"

    qtbot.waitUntil(gone, timeout=15000)
    qtbot.waitUntil(lambda: panel.findChild(object, "runButton").isEnabled(), timeout=5000)


def test_the_batch_fields_and_scheduler_names_are_japanese(
    make_main_window: Any, monkeypatch: pytest.MonkeyPatch, qtbot: Any
) -> None:
    from PySide6.QtWidgets import QTabWidget

    from molforma.gui.app import set_language
    from tests.gui.test_translations import _untranslated, _visible_texts

    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")
    win = make_main_window()
    set_language("ja", win.ctx)
    try:
        ops.set_execution(win.ctx.document, {"scheduler": "slurm"}, preview=False)
        tabs = win.findChild(QTabWidget, "mainTabs")
        tabs.setCurrentIndex(2)
        qtbot.waitUntil(lambda: tabs.tabText(2) == "3 実行")  # LanguageChange is posted
        group = win.findChild(object, "schedulerGroup")
        texts = _visible_texts(win, group)
        assert ("schedulerCombo", "SLURMクラスター（バッチジョブ）") in texts
        assert any(t == "パーティション:" for _n, t in texts)
        # SLURM, QoS, CPU and the sbatch option names stay as they are.
        kept = [(n, re.sub(r"SLURM|QoS|CPU|--[a-z]+=\w+", "", t)) for n, t in texts]
        assert _untranslated(kept) == []
    finally:
        set_language("en", win.ctx)


@pytest.mark.slurm
@pytest.mark.slow
def test_a_new_window_reattaches_to_a_running_batch_job_and_history_follows_it_to_its_end(
    make_main_window: Any, qtbot: Any, tmp_path: Path, slurm_cluster: Any
) -> None:
    from molforma.document.document import Document
    from molforma.document.envelope import new_project
    from molforma.jobs.manager import JobManager

    jobs = tmp_path / "jobs"
    exe = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_NWCHEM))}"
    project = new_project(
        job_root=str(jobs),
        scheduler="slurm",
        executable=exe,
        environment={"FAKE_NWCHEM_MODE": "converge", "FAKE_NWCHEM_DELAY": "0.25"},
    )
    ops.add_atoms(doc := Document(project), WATER, preview=False)
    ops.set_nwchem(doc, {"basis": "sto-3g", "task": "optimize"}, preview=False)
    # An earlier MolForma submitted it and then ended.
    earlier = JobManager()
    job = earlier.start(doc.project)
    qtbot.waitUntil(lambda: job.status == "running", timeout=30000)
    earlier.stop_all()
    assert slurm_cluster.job_state(job.native_id) == "RUNNING"

    win = make_main_window(Document(new_project(job_root=str(jobs))))
    execution = win.panels["execution"]
    qtbot.waitUntil(lambda: execution.job is not None, timeout=20000)
    assert execution.job.folder == job.folder and execution.job is not job
    assert execution.job.native_id == job.native_id
    history = win.panels["history"]
    win.tabs.setCurrentWidget(history)
    qtbot.waitUntil(lambda: any(r.folder == str(job.folder) for r in history.rows), timeout=20000)
    row = next(r for r in history.rows if r.folder == str(job.folder))
    assert row.status in ("running", "finished")
    qtbot.waitUntil(lambda: execution.job.status in TERMINAL, timeout=60000)
    assert execution.job.status == "finished", execution.job.snapshot()
    assert execution.job.snapshot()["optimizationConverged"] is True
    qtbot.waitUntil(
        lambda: any(r.folder == str(job.folder) and r.status == "finished" for r in history.rows),
        timeout=20000,
    )
