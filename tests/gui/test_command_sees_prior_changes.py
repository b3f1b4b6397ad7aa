"""A window command sees every document change made before it was queued (pytest-qt).

An MCP tool edits the document on the server's thread; the change reaches the window as an
event posted to its GUI thread. The command runner also drains its queue from a timer,
which Qt may run before that event: a ui_select of atoms just added then found an empty
view. Here the edit is made on another thread and the command drained before Qt
delivers anything, as the timer did.
"""

from __future__ import annotations

import threading
from typing import Any

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.mcp.window_commands import WindowCommand
from tests.gui.helpers import WATER


def _runner(win: Any) -> Any:
    from molforma.app.policy import Policy
    from molforma.gui.commands import CommandRunner
    from molforma.gui.introspection import WindowIntrospection

    return CommandRunner(win, WindowIntrospection(win), win.mcp_bridge, Policy())


def test_ui_select_of_atoms_a_tool_just_added(make_main_window: Any) -> None:
    win = make_main_window(mcp_mode=True)
    doc = win.ctx.document
    runner = _runner(win)
    edit = threading.Thread(
        target=lambda: ops.add_atoms(doc, WATER, preview=False, actor=Actor.MCP_TOOL)
    )
    edit.start()
    edit.join()
    ids = [f"a{k}" for k in range(1, len(WATER) + 1)]
    assert win.molecule_tab.view.scene.count == 0  # the change is posted, not delivered
    rec = runner.store.add(
        WindowCommand(
            tool="ui_select",
            args={"target": "moleculeView", "atomIds": ids},
            document_id=doc.id,
            expected_revision=doc.revision,
        ),
        wake=False,
    )
    runner.drain()
    assert rec.status == "done", rec.error
    assert win.molecule_tab.view.selection() == ids
