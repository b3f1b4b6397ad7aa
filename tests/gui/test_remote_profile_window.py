"""Cluster profiles in the window: the Execution tab's "Run on" choice (local, the local
SLURM or a profile), the Run confirmation naming the profile and its host, and the
Preferences profile editor (grammar refusals as typed, "Test connection" against the real
sshd of tests/ssh_rig.py in front of the real single-node SLURM, saving keeps profiles
added to preferences.json by hand).

The window's process runs WITHOUT ``SLURM_CONF`` here: the rig's partitions and a job's
results can only come through ssh.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QListWidget, QPlainTextEdit

from molforma.app import ops
from molforma.app.actor import Actor
from tests.gui.helpers import execution_panel, water_context
from tests.slurm_cluster import PARTITION
from tests.ssh_rig import ALIAS, SshRig, started_rig

FAKE_NWCHEM = Path(__file__).resolve().parents[1] / "stand_in" / "fake_nwchem.py"


def _write_prefs(config: Path, profiles: list[dict[str, Any]], **more: Any) -> Path:
    config.mkdir(parents=True, exist_ok=True)
    path = config / "preferences.json"
    path.write_text(
        json.dumps({"format": "molforma-preferences", "version": 1, "profiles": profiles, **more})
    )
    return path


def _profile(name: str, host: str = "hpc-login", **more: Any) -> dict[str, Any]:
    return {"name": name, "host": host, "remote_folder": "/scratch/ada/jobs", **more}


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(folder))
    monkeypatch.delenv("SLURM_CONF", raising=False)  # the cluster only through ssh
    return folder


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path, config: Path) -> Any:
    _write_prefs(config, [_profile("hpc"), _profile("lab", "lab-login")])
    yield from water_context(tmp_path / "jobs")


# -- Execution tab --------------------------------------------------------------------------------
def test_run_on_offers_local_local_slurm_and_each_profile_and_a_profile_sets_both(
    qtbot: Any, ctx: Any
) -> None:
    panel = execution_panel(qtbot, ctx, (1100, 800))
    combo = panel.findChild(QComboBox, "schedulerCombo")
    texts = [combo.itemText(i) for i in range(combo.count())]
    assert texts == [
        "Local (this computer)",
        "SLURM cluster (batch job)",
        "Cluster profile hpc (hpc-login, over ssh)",
        "Cluster profile lab (lab-login, over ssh)",
    ]
    assert combo.toolTip()
    combo.setCurrentIndex(3)  # as a person's click does
    ex = ctx.document.project["execution"]
    assert (ex["scheduler"], ex["remote_profile"]) == ("slurm", "lab")
    assert panel.findChild(object, "batchSettings").isVisible()
    combo.setCurrentIndex(1)
    ex = ctx.document.project["execution"]
    assert (ex["scheduler"], ex["remote_profile"]) == ("slurm", None)
    combo.setCurrentIndex(2)
    combo.setCurrentIndex(0)
    ex = ctx.document.project["execution"]
    assert (ex["scheduler"], ex["remote_profile"]) == ("local", None)
    ctx.document.undo()  # one undo step per choice: back to the profile
    assert ctx.document.project["execution"]["remote_profile"] == "hpc"
    assert combo.currentIndex() == 2


def test_a_profile_the_preferences_lack_is_shown_as_such_and_a_hand_added_one_appears(
    qtbot: Any, ctx: Any, config: Path
) -> None:
    panel = execution_panel(qtbot, ctx)
    combo = panel.findChild(QComboBox, "schedulerCombo")
    ops.set_execution(ctx.document, {"scheduler": "slurm", "remote_profile": "gone"}, preview=False)
    assert combo.currentText() == "Cluster profile gone (not in Preferences)"
    _write_prefs(
        config, [_profile("hpc"), _profile("lab", "lab-login"), _profile("new", "new-login")]
    )
    ops.set_execution(ctx.document, {"remote_profile": "new"}, preview=False)
    assert combo.currentText() == "Cluster profile new (new-login, over ssh)"


def test_a_profile_saved_in_preferences_is_offered_when_the_tab_is_shown_again(
    qtbot: Any, ctx: Any, config: Path
) -> None:
    panel = execution_panel(qtbot, ctx)
    combo = panel.findChild(QComboBox, "schedulerCombo")
    combo.setCurrentIndex(3)  # lab
    panel.hide()
    _write_prefs(config, [_profile("campus", "campus-login"), _profile("lab", "lab-login")])
    panel.show()
    assert [combo.itemText(i) for i in range(2, combo.count())] == [
        "Cluster profile campus (campus-login, over ssh)",
        "Cluster profile lab (lab-login, over ssh)",
    ]
    assert combo.currentText() == "Cluster profile lab (lab-login, over ssh)"
    assert ctx.document.project["execution"]["remote_profile"] == "lab"


def test_the_batch_fields_say_the_chosen_profiles_defaults(
    qtbot: Any, ctx: Any, config: Path
) -> None:
    _write_prefs(config, [_profile("hpc", partition="standard", qos="long")])
    panel = execution_panel(qtbot, ctx)
    combo = panel.findChild(QComboBox, "schedulerCombo")
    partition = panel.findChild(QLineEdit, "partitionEdit")
    combo.setCurrentIndex(1)
    assert partition.placeholderText() == "(cluster default)"
    combo.setCurrentIndex(2)
    assert partition.placeholderText() == "(profile: standard)"
    assert panel.findChild(QLineEdit, "qosEdit").placeholderText() == "(profile: long)"
    assert panel.findChild(QLineEdit, "accountEdit").placeholderText() == "(default)"


def test_the_run_confirmation_lists_the_profile_and_its_host(
    qtbot: Any, ctx: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    panel = execution_panel(qtbot, ctx)
    ops.set_execution(
        ctx.document,
        {"scheduler": "slurm", "remote_profile": "lab"},
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
    assert "Cluster profile: lab" in lines and "Host (ssh): lab-login" in lines, asked[0]
    assert panel.job is None and ctx.jobs.jobs() == []  # No: nothing ran


def test_run_on_and_the_confirmation_in_japanese(
    make_main_window: Any, monkeypatch: pytest.MonkeyPatch, config: Path, qtbot: Any
) -> None:
    from molforma.gui.app import set_language

    _write_prefs(config, [_profile("hpc")])
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")
    win = make_main_window()
    set_language("ja", win.ctx)
    try:
        ops.set_execution(
            win.ctx.document, {"scheduler": "slurm", "remote_profile": "hpc"}, preview=False
        )
        panel = win.panels["execution"]
        combo = panel.findChild(QComboBox, "schedulerCombo")
        # LanguageChange is posted: the item texts follow once it is delivered.
        qtbot.waitUntil(
            lambda: combo.currentText() == ("クラスタープロファイル hpc（hpc-login、ssh 経由）")
        )
        text = panel._untrusted_text()
        assert "クラスタープロファイル: hpc" in text and "ホスト (ssh): hpc-login" in text
    finally:
        set_language("en", win.ctx)


def test_the_run_on_choice_is_a_declared_protected_control() -> None:
    from molforma.gui.controls import control_for

    row = control_for("schedulerCombo", None)
    assert row is not None and row.protected and "remote_profile" in str(row.edits)


# -- Preferences ----------------------------------------------------------------------------------
@pytest.fixture
def dialog(qtbot: Any, ctx: Any) -> Any:
    from molforma.gui.widgets.preferences_dialog import PreferencesDialog

    d = PreferencesDialog(ctx)
    qtbot.addWidget(d)
    d.show()
    d.tabs.setCurrentIndex(1)
    return d


def _type(qtbot: Any, edit: QLineEdit, text: str) -> None:
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    qtbot.keyClicks(edit, text)


@pytest.mark.parametrize(
    ("name", "typed", "words"),
    [
        ("prefProfileHost", "-oProxyCommand=touch", "host"),
        ("prefProfileName", "a b", "profile"),
        ("prefProfileRemoteFolder", "/scratch/$(id)", "folder"),
        ("prefProfilePartition", 'x" --chdir=/', "partition"),
        ("prefProfileNwchem", "nwchem; rm -rf ~", "nwchem_command"),
        ("prefProfileLauncher", "mpirun|sh", "launcher"),
        ("prefProfileSshConfig", "relative/config", "ssh_config"),
    ],
)
def test_a_profile_field_shows_the_grammar_refusal_as_check_profile_gives_it(
    dialog: Any, qtbot: Any, config: Path, name: str, typed: str, words: str
) -> None:
    from molforma.errors import MolFormaError
    from molforma.preferences import ClusterProfile, check_profile

    before = (config / "preferences.json").read_bytes()
    edit = dialog.findChild(QLineEdit, name)
    _type(qtbot, edit, typed)
    message = dialog.findChild(QLabel, f"{name}Message")
    assert message.isVisible()
    key = {
        "prefProfileHost": "host",
        "prefProfileName": "name",
        "prefProfileRemoteFolder": "remote_folder",
        "prefProfilePartition": "partition",
        "prefProfileNwchem": "nwchem_command",
        "prefProfileLauncher": "launcher",
        "prefProfileSshConfig": "ssh_config",
    }[name]
    bad = ClusterProfile.model_construct(
        **{
            **_profile("hpc"),
            "ssh_config": None,
            "partition": None,
            "account": None,
            "qos": None,
            "environment_lines": [],
            "scheduler": "slurm",
            "nwchem_command": "nwchem",
            "launcher": "mpirun",
            key: typed,
        }
    )
    with pytest.raises(MolFormaError) as info:
        check_profile(bad)
    assert message.text() == info.value.message()
    # OK refuses (the dialog stays open) and the file is as it was.
    qtbot.mouseClick(dialog.findChild(object, "preferencesOk"), Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    assert dialog.findChild(QLabel, "preferencesMessage").text() == info.value.message()
    assert (config / "preferences.json").read_bytes() == before
    _type(qtbot, edit, {"prefProfileName": "hpc2"}.get(name, ""))
    if name in (
        "prefProfileHost",
        "prefProfileRemoteFolder",
        "prefProfileNwchem",
        "prefProfileLauncher",
    ):
        _type(
            qtbot,
            edit,
            {
                "prefProfileHost": "hpc-login",
                "prefProfileRemoteFolder": "~/jobs",
                "prefProfileNwchem": "nwchem",
                "prefProfileLauncher": "srun",
            }[name],
        )
    assert not message.isVisible()


def test_an_environment_line_outside_its_grammar_is_refused_beside_the_field(
    dialog: Any, qtbot: Any
) -> None:
    edit = dialog.findChild(QPlainTextEdit, "prefProfileEnvironment")
    edit.setPlainText("module load nwchem\nexport X=$(touch /tmp/x)")
    message = dialog.findChild(QLabel, "prefProfileEnvironmentMessage")
    assert message.isVisible() and "$(touch /tmp/x)" in message.text()
    edit.setPlainText("module load nwchem\nexport OMP_STACKSIZE=64M")
    assert not message.isVisible()


def test_profiles_are_added_edited_removed_and_saved_keeping_one_added_by_hand(
    dialog: Any, qtbot: Any, config: Path, ctx: Any
) -> None:
    plist = dialog.findChild(QListWidget, "prefProfileList")
    assert [plist.item(i).text() for i in range(plist.count())] == ["hpc", "lab"]
    plist.setCurrentRow(1)
    qtbot.mouseClick(dialog.findChild(object, "prefProfileRemove"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.findChild(object, "prefProfileAdd"), Qt.MouseButton.LeftButton)
    _type(qtbot, dialog.findChild(QLineEdit, "prefProfileName"), "campus")
    _type(qtbot, dialog.findChild(QLineEdit, "prefProfileHost"), "ada@campus.example.org")
    _type(qtbot, dialog.findChild(QLineEdit, "prefProfilePartition"), "standard")
    dialog.findChild(QPlainTextEdit, "prefProfileEnvironment").setPlainText(
        "module purge\nmodule load nwchem/7.2.2"
    )
    assert plist.item(1).text() == "campus"
    # While the dialog is open, a profile is added to the file by hand.
    path = config / "preferences.json"
    data = json.loads(path.read_text())
    data["profiles"].append(_profile("byhand", "byhand-login"))
    path.write_text(json.dumps(data))
    qtbot.mouseClick(dialog.findChild(object, "preferencesOk"), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible(), dialog.findChild(QLabel, "preferencesMessage").text()
    saved = json.loads(path.read_text())
    assert [p["name"] for p in saved["profiles"]] == ["hpc", "campus", "byhand"]
    campus = saved["profiles"][1]
    assert campus["host"] == "ada@campus.example.org" and campus["partition"] == "standard"
    assert campus["environment_lines"] == ["module purge", "module load nwchem/7.2.2"]
    assert [p.name for p in ctx.preferences.profiles] == ["hpc", "campus", "byhand"]


def test_the_preferences_dialog_and_its_profile_editor_are_not_drivable_over_mcp() -> None:
    from molforma.gui.controls import control_for

    for name in (
        "prefProfileList",
        "prefProfileName",
        "prefProfileHost",
        "prefProfileAdd",
        "prefProfileTest",
        "prefProfileEnvironment",
        "preferencesOk",
    ):
        assert control_for(name, None) is None and control_for(name, "preferencesDialog") is None, (
            name
        )


# -- against the rig -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rig(slurm_cluster: Any) -> Iterator[SshRig]:
    yield from started_rig(slurm_cluster)


@pytest.mark.slurm
@pytest.mark.slow
def test_test_connection_lists_the_rigs_partitions_without_blocking_the_window(
    qtbot: Any, tmp_path: Path, config: Path, rig: SshRig
) -> None:
    from molforma.gui.context import AppContext
    from molforma.gui.widgets.preferences_dialog import PreferencesDialog

    _write_prefs(config, [rig.profile(), rig.profile("refused", host="molforma-rig-refused")])
    context = AppContext.create()
    try:
        d = PreferencesDialog(context)
        qtbot.addWidget(d)
        d.show()
        d.tabs.setCurrentIndex(1)
        result = d.findChild(QLabel, "prefProfileTestResult")
        qtbot.mouseClick(d.findChild(object, "prefProfileTest"), Qt.MouseButton.LeftButton)
        # The click returned before ssh answered: the worker thread does the asking.
        assert result.text().startswith("Connecting to " + ALIAS)
        qtbot.waitUntil(lambda: result.text().startswith("Reachable"), timeout=30000)
        assert PARTITION in result.text() and "(default)" in result.text()
        d.findChild(QListWidget, "prefProfileList").setCurrentRow(1)
        qtbot.mouseClick(d.findChild(object, "prefProfileTest"), Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: result.text().startswith("Not reachable"), timeout=30000)
        assert "refused" in result.text()
    finally:
        context.close()


@pytest.mark.slurm
@pytest.mark.slow
def test_a_job_run_on_a_profile_from_the_execution_tab_comes_home_and_history_says_where(
    qtbot: Any, tmp_path: Path, config: Path, rig: SshRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs
    from molforma.gui.widgets.history_panel import COLUMNS, HistoryPanel

    stand_in = f"{sys.executable} {FAKE_NWCHEM}"
    _write_prefs(
        config,
        [
            rig.profile(
                nwchem_command=stand_in, environment_lines=["export FAKE_NWCHEM_MODE=converge"]
            )
        ],
        scheduler="slurm",
    )
    monkeypatch.setattr(dialogs, "ask", lambda parent, title, text, buttons, **kw: buttons[0])
    gen = water_context(tmp_path / "jobs")
    ctx = next(gen)
    try:
        panel = execution_panel(qtbot, ctx)
        combo = panel.findChild(QComboBox, "schedulerCombo")
        combo.setCurrentIndex(combo.findData("rig", Qt.ItemDataRole.UserRole + 1))
        qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
        job = panel.job
        assert job is not None, panel.findChild(object, "jobStatusLabel").text()
        qtbot.waitUntil(lambda: job.status in ("finished", "failed", "cancelled"), timeout=90000)
        assert job.status == "finished"
        record = json.loads((job.folder / "job.json").read_text())
        assert record["remote"]["profile"] == "rig"
        assert (job.folder / "fake_nwchem.info").is_file()  # brought home
        history = HistoryPanel(ctx)
        qtbot.addWidget(history)
        with qtbot.waitSignal(history.scanFinished, timeout=20000):
            history.show()
        from PySide6.QtWidgets import QTableWidget

        table = history.findChild(QTableWidget, "historyTable")
        cells = [table.item(r, COLUMNS.index("where")).text() for r in range(table.rowCount())]
        assert cells == [f"rig ({ALIAS})"]
    finally:
        gen.close()
