"""The window refuses batch values outside their grammar, whoever types them, and the
person's Run confirmation lists every value that reaches the command line or the batch
script (security issue, finding 1)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.errors import ValidationError
from molforma.jobs import TERMINAL
from tests.gui.helpers import execution_panel, type_into, water_context

FAKE_NWCHEM = Path(__file__).resolve().parents[1] / "stand_in" / "fake_nwchem.py"
OPTION_QOS = 'x" --chdir=/elsewhere --comment="y'


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    yield from water_context(tmp_path / "jobs")


@pytest.fixture
def panel(qtbot: Any, ctx: Any) -> Any:
    w = execution_panel(qtbot, ctx, (1100, 800))
    combo = w.findChild(QComboBox, "schedulerCombo")
    combo.setCurrentIndex(combo.findData("slurm"))  # the person's own choice
    return w


@pytest.mark.parametrize("name", ["qosEdit", "partitionEdit", "accountEdit"])
def test_a_quote_typed_into_a_batch_name_field_is_refused_with_the_reason_and_not_stored(
    panel: Any, ctx: Any, qtbot: Any, name: str
) -> None:
    key = {"qosEdit": "qos", "partitionEdit": "partition", "accountEdit": "account"}[name]
    edit = panel.findChild(QLineEdit, name)
    before = (ctx.document.revision, dict(ctx.document.project["execution"]))
    type_into(qtbot, edit, OPTION_QOS)
    assert (ctx.document.revision, dict(ctx.document.project["execution"])) == before
    message = panel.findChild(object, f"{key}Message")
    assert message.isVisible() and key in message.text() and "letters, digits" in message.text()
    assert edit.text() == ""  # the field shows the stored value again
    type_into(qtbot, edit, "normal")  # an ordinary name is stored, and the reason goes
    assert ctx.document.project["execution"][key] == "normal"
    assert not message.isVisible()


def test_a_line_break_set_into_the_qos_field_as_a_window_command_would_is_refused(
    panel: Any, ctx: Any, qtbot: Any, tmp_path: Path
) -> None:
    edit = panel.findChild(QLineEdit, "qosEdit")
    rev = ctx.document.revision
    edit.setText(f'x"\ntouch {tmp_path / "CANARY"} #')
    edit.editingFinished.emit()
    assert ctx.document.revision == rev and ctx.document.project["execution"]["qos"] is None
    assert "qos" in panel.findChild(object, "qosMessage").text()


@pytest.mark.parametrize("typed", ["--chdir=/elsewhere", '--comment="a b"', "--mem=4G;id"])
def test_a_batch_option_outside_the_grammar_is_refused_in_the_window(
    panel: Any, ctx: Any, qtbot: Any, typed: str
) -> None:
    rev = ctx.document.revision
    type_into(qtbot, panel.findChild(QLineEdit, "batchDirectivesEdit"), typed)
    assert ctx.document.revision == rev
    assert ctx.document.project["execution"]["batch_directives"] == []
    assert "batch_directives" in panel.findChild(object, "batch_directivesMessage").text()


def test_the_run_confirmation_lists_every_value_that_reaches_the_batch_script(
    panel: Any, ctx: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    exe = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_NWCHEM))}"
    ops.set_execution(
        ctx.document,
        {
            "executable": exe,
            "launcher": "srun",
            "environment": {"OMP_STACKSIZE": "64M"},
            "partition": "short",
            "qos": "high",
            "account": "chem",
            "nodes": 2,
            "tasksPerNode": 4,
            "threads": 3,
            "time_limit": 600,
            "batch_directives": ["--mem=4G", "--constraint=cpu"],
        },
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
    lines = asked[0].splitlines()
    for expected in (
        f"Executable: {exe}",
        "Launcher: srun",
        "Environment: OMP_STACKSIZE=64M",
        "Scheduler: slurm",
        "Partition: short",
        "QoS: high",
        "Account: chem",
        "Nodes: 2",
        "MPI processes per node: 4",
        "Threads (OMP_NUM_THREADS): 3",
        "Time limit: 600 s",
        "Extra batch options: --mem=4G --constraint=cpu",
        f"Job root: {ctx.document.project['execution']['job_root']}",
    ):
        assert expected in lines, asked[0]
    assert any(
        line.startswith("Job name: molforma-") and line.endswith("-H2O-energy") for line in lines
    ), asked[0]
    assert panel.job is None and ctx.jobs.jobs() == []  # No: nothing ran


def test_the_confirmation_writes_out_control_characters_of_free_text_values(
    panel: Any, ctx: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    ops.set_execution(
        ctx.document,
        {"environment": {"A": "x\ntouch /tmp/PWNED"}},
        preview=False,
        actor=Actor.MCP_TOOL,
    )
    asked: list[str] = []
    monkeypatch.setattr(
        dialogs,
        "ask",
        lambda parent, title, text, buttons, **kw: (asked.append(text), buttons[-1])[1],
    )
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert "Environment: A=x\\ntouch /tmp/PWNED" in asked[0].splitlines()


def test_the_confirmation_is_japanese_in_japanese(
    make_main_window: Any, monkeypatch: pytest.MonkeyPatch, qtbot: Any
) -> None:
    from molforma.gui.app import set_language

    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")
    win = make_main_window()
    set_language("ja", win.ctx)
    try:
        ops.set_execution(win.ctx.document, {"scheduler": "slurm", "qos": "high"}, preview=False)
        text = win.panels["execution"]._untrusted_text()
        assert "QoS: high" in text and "パーティション:" in text and "ジョブ名: molforma-" in text
    finally:
        set_language("en", win.ctx)


@pytest.mark.slurm
@pytest.mark.slow
def test_an_mcp_qos_injection_is_refused_and_the_persons_run_makes_no_canary(
    panel: Any, ctx: Any, qtbot: Any, tmp_path: Path, slurm_cluster: Any
) -> None:
    canary = tmp_path / "CANARY"
    # What an MCP client did before the person pressed Run (QoS is not a protected value,
    # so no confirmation would have shown it).
    with pytest.raises(ValidationError) as info:
        ops.set_execution(
            ctx.document, {"qos": f'x"\ntouch {canary} #'}, preview=False, actor=Actor.MCP_TOOL
        )
    assert info.value.code == "bad_slurm_name"
    exe = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_NWCHEM))}"
    type_into(qtbot, panel.findChild(QLineEdit, "executableEdit"), exe)
    type_into(qtbot, panel.findChild(QLineEdit, "partitionEdit"), "debug")
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    job = panel.job
    assert job is not None, panel.findChild(object, "jobStatusLabel").text()
    qtbot.waitUntil(lambda: job.status in TERMINAL, timeout=120000)
    assert job.status == "finished", job.snapshot()
    assert not canary.exists()


@pytest.mark.parametrize(
    ("name", "typed", "key"),
    [
        ("basisCombo", "6-31g* file /etc/passwd", "basis"),
        ("basisCombo", "file", "basis"),
        ("functionalCombo", "b3lyp end", "functional"),
    ],
)
def test_a_basis_or_functional_typed_in_the_calculation_tab_is_refused_with_the_reason(
    ctx: Any, qtbot: Any, name: str, typed: str, key: str
) -> None:
    from molforma.gui.widgets.calculation_panel import CalculationPanel

    panel = CalculationPanel(ctx)
    qtbot.addWidget(panel)
    panel.resize(1000, 700)
    panel.show()
    ops.set_nwchem(ctx.document, {"theory": "dft"}, preview=False)
    before = (ctx.document.revision, dict(ctx.document.project["calculation"]))
    combo = panel.findChild(QComboBox, name)
    combo.lineEdit().clear()
    qtbot.keyClicks(combo.lineEdit(), typed)
    qtbot.keyClick(combo.lineEdit(), Qt.Key.Key_Return)
    assert (ctx.document.revision, dict(ctx.document.project["calculation"])) == before
    message = panel.findChild(object, f"calculation_{key}Message")
    assert message.isVisible() and f"calculation setting {key}" in message.text()
    assert typed not in panel.findChild(object, "inputPreview").toPlainText()
