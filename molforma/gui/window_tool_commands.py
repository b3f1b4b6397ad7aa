"""The window commands of the chemistry, history, view and results tools, run on the
GUI thread (Qt layer); each handler reads the checked input model of its tool."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from molforma.app.actor import Actor
from molforma.app.ops import use_results_structure
from molforma.errors import MolFormaError
from molforma.gui import outcome
from molforma.gui.command_work import CommandWork, Result
from molforma.mcp.window_commands import CommandRecord

if TYPE_CHECKING:
    from molforma.gui.main_window import MainWindow
    from molforma.mcp.tools.results import ResultsActionInput
    from molforma.mcp.tools.window import ChemistryInput, HistoryActionInput, ViewInput


log = logging.getLogger("molforma.mcp")


class WindowToolCommands:
    """Runs the ``chemistry``, ``history_action``, ``view`` and ``results_action`` commands."""

    def __init__(self, window: MainWindow, policy: Any, work: CommandWork) -> None:
        self.window = window
        self.policy = policy
        self.work = work

    def chemistry(self, rec: CommandRecord, a: ChemistryInput) -> Result:
        tab = self.window.molecule_tab
        action = a.action
        if action == "cancel":
            running = tab.worker_running
            tab.cancel_worker()
            return {"cancelled": running}, None
        if action == "smiles":
            tab.smiles_input.setText(str(a.smiles or ""))
            ok = tab.start_smiles(str(a.smiles or ""))
        else:
            ok = tab.start_cleanup()
        if not ok:
            raise outcome.first() or MolFormaError("window_refused", message=tab.message.text())
        return {"started": tab.worker_state()}, self.work.worker_work()

    def history_action(self, rec: CommandRecord, a: HistoryActionInput) -> Result:
        panel = self.window.panels.history()
        if panel is None:
            raise MolFormaError("window_refused", message="History tab missing")
        action = a.action
        if action == "scan":
            before = panel.scan_handle
            panel.scan()
            if panel.scan_handle is None or panel.scan_handle is before:
                raise outcome.first() or MolFormaError(
                    "window_refused", message=panel.status_label.text()
                )
            return {"scanning": True}, self.work.scan_work()
        if action == "select":
            index = a.index
            if index is None or not 0 <= int(index) < panel.table.rowCount():
                raise MolFormaError("ui_bad_index", index=index, count=panel.table.rowCount())
            panel.select_index(int(index))
            return {"selected": panel.selected_folder()}, None
        if action == "export_csv":
            path = a.path
            if not path:
                raise MolFormaError("path_required", action=action)
            checked = str(self.policy.check_path(str(path), for_write=True))
            out = panel.export_csv(checked)
            if out is None:
                raise outcome.first() or MolFormaError(
                    "window_refused", message=panel.status_label.text()
                )
            return {"path": out, "rows": len(panel.rows)}, None
        folder = panel.selected_folder()
        if folder is None:
            raise MolFormaError("history_nothing_selected")
        self.policy.check_path(folder, must_exist=True)
        fn = {
            "reuse": panel.reuse_selected,
            "open_results": panel.open_selected_in_results,
            "open_folder": panel.open_selected_folder,
            "trash": panel.trash_selected,
        }[action]
        ok = bool(fn())
        if not ok and action != "trash":
            raise outcome.first() or MolFormaError(
                "window_refused", message=panel.status_label.text()
            )
        return {"folder": folder, "done": ok}, None

    def view(self, rec: CommandRecord, a: ViewInput) -> Result:
        which = a.view or "molecule"
        view = (
            self.window.molecule_tab.view
            if which == "molecule"
            else self.window.panels.results().view
        )
        action = a.action
        if action == "fit":
            view.fit()
        elif action == "reset":
            view.reset_view()
        elif action == "rotate":
            view.rotate_by(float(a.dx or 0.0), float(a.dy or 0.0))
        elif action == "zoom":
            view.zoom_by(float(a.factor or 1.0))
        elif action == "style":
            view.set_style(str(a.style))
        return {"view": which, "style": view.style}, None

    def results_action(self, rec: CommandRecord, a: ResultsActionInput) -> Result:
        panel = self.window.panels.results()
        panel.catch_up()
        action = a.action
        if action == "use_structure":  # "Use this structure": the shown one unless index
            index = a.index
            edit = use_results_structure(
                self.window.ctx.document,
                panel.results,
                panel.trajectory_slider.value() if index is None else int(index),
                preview=bool(a.preview),
                actor=Actor.MCP_WINDOW,
            )
            self.window.show_tab("molecule")
            return {"edit": edit}, None
        if action == "stop":
            panel.stop()
        elif action == "play_mode":
            panel.play_mode(int(a.index or 0), a.amplitude)
        else:
            panel.show_structure(int(a.index or 0))
        self.window.show_tab("results")
        return {"playing": bool(panel.playing)}, None
