"""Who acts in the window: a window command driven by MCP is held to the allowed
directories and its edits are MCP's, the person's own clicks are not limited
(docs/reference/safety.md, Allowed directories and Trusted values)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtGui import QAction

from molforma.app import ops
from molforma.app.actor import acting_for_mcp
from molforma.app.policy import Policy
from molforma.document.document import Document
from tests.gui.helpers import WATER

XYZ = "3\nwater\nO 0 0 0.1173\nH 0 0.7572 -0.4692\nH 0 -0.7572 -0.4692\n"


def _open(win: Any, dialog_log: Any, path: Path) -> None:
    dialog_log.answers.append(str(path))
    win.findChild(QAction, "molforma.file.open").trigger()


def test_an_mcp_driven_open_outside_the_allowed_dirs_is_refused_and_the_persons_is_not(
    make_main_window: Any, dialog_log: Any, tmp_path: Path
) -> None:
    (tmp_path / "allowed").mkdir()
    outside = tmp_path / "water.xyz"
    outside.write_text(XYZ, encoding="utf-8")
    win = make_main_window(mcp_mode=True)
    win.ctx.policy = Policy(allow_dirs=(str(tmp_path / "allowed"),))
    doc = win.ctx.document
    before = doc.revision
    with acting_for_mcp():  # as the command runner runs ui_activate
        _open(win, dialog_log, outside)
    assert doc.revision == before
    kind, (_title, text) = dialog_log.calls[-1]
    assert kind == "error" and str(outside) in text
    # The same file, opened by the person: allowed.
    _open(win, dialog_log, outside)
    assert [a["element"] for a in doc.project["document"]["atoms"]] == ["O", "H", "H"]
    assert doc._undo[-1].origin == "user"
    assert win.windowTitle().startswith("water.xyz")


def test_a_project_opened_by_an_mcp_window_command_is_recorded_as_mcp_and_stays_untrusted(
    make_main_window: Any, dialog_log: Any, tmp_path: Path
) -> None:
    other = Document()
    ops.add_atoms(other, WATER, preview=False)
    ops.set_execution(other, {"executable": "/opt/other/nwchem"}, preview=False)
    path = tmp_path / "allowed" / "other.molforma.json"
    path.parent.mkdir()
    path.write_text(json.dumps(other.project), encoding="utf-8")
    win = make_main_window(mcp_mode=True)
    win.ctx.policy = Policy(allow_dirs=(str(tmp_path / "allowed"),))
    doc = win.ctx.document
    trusted = dict(doc.trusted)
    with acting_for_mcp():
        _open(win, dialog_log, path)
    assert doc.project["execution"]["executable"] == "/opt/other/nwchem"
    assert doc._undo[-1].origin == "mcp"
    assert doc.trusted == trusted and not doc.is_trusted
    # An atom added by a window command is MCP's too; the person's is theirs.
    with acting_for_mcp():
        assert win.molecule_tab.add_atom_at((3.0, 0.0, 0.0))
    assert doc._undo[-1].origin == "mcp"
    assert doc.trusted == trusted
    assert win.molecule_tab.add_atom_at((-3.0, 0.0, 0.0))
    assert doc._undo[-1].origin == "user"
    # The person's unrelated edit vouches for the atom, not for MCP's executable.
    assert doc.trusted["executable"] == trusted["executable"] and not doc.is_trusted
    # Their own setting of it does.
    ops.set_execution(doc, {"executable": "/opt/mine/nwchem"}, preview=False)
    assert doc.trusted["executable"] == "/opt/mine/nwchem" and doc.is_trusted


def test_a_protected_setting_changed_by_a_window_command_is_refused_by_the_app_layer(
    make_main_window: Any,
) -> None:
    from molforma.gui.widgets.panel_workers import apply_edit

    win = make_main_window(mcp_mode=True)
    win.ctx.policy = Policy()
    doc = win.ctx.document
    before = doc.project["execution"]["executable"]
    with acting_for_mcp():
        message = apply_edit(win.ctx, "set_execution", {"executable": "/tmp/other-nwchem"})
    assert message and doc.project["execution"]["executable"] == before
    assert apply_edit(win.ctx, "set_execution", {"executable": "/tmp/other-nwchem"}) is None
    assert doc.project["execution"]["executable"] == "/tmp/other-nwchem"
    assert doc.is_trusted  # the person's own change is trusted
