"""The action table: the one definition of every menu command and shortcut (Qt layer).

Menus, shortcuts, the Molecule tab's Undo / Redo / Confirm / Cancel / Load buttons
(``QToolButton.setDefaultAction``) and the MCP ``ui_activate`` tool all reach a
command through the QAction built here, whose objectName is the action id
(``molforma.edit.undo``). A callback takes the application context and a small
window facade (:class:`WindowFacade`) for what only the window can do: dialogs,
tabs and the 3D view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QKeySequence

from molforma.app import ops
from molforma.app.actor import window_actor

if TYPE_CHECKING:
    from molforma.gui.context import AppContext
    from molforma.gui.widgets.molecule_tab import MoleculeTab


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for translation in ``context`` without translating it now."""
    return text


class WindowFacade(Protocol):
    """What actions ask of the window beyond the context (the main window is one).

    A protocol rather than an import: the main window imports this module.
    """

    molecule_tab: MoleculeTab  # the 3D view, the selection, the palette, the running work

    def run_action(self, action_id: str) -> None: ...
    def file_new(self) -> None: ...
    def file_open(self) -> None: ...
    def file_save(self) -> bool: ...
    def file_save_as(self) -> bool: ...
    def file_export(self) -> None: ...
    def close(self) -> bool: ...
    def open_preferences(self) -> None: ...
    def show_tab(self, name: str) -> None: ...
    def show_shortcuts(self) -> None: ...
    def show_about(self) -> None: ...


Callback = Callable[["AppContext", WindowFacade], object]
Enabled = Callable[["AppContext", WindowFacade], bool]


@dataclass(frozen=True)
class ActionSpec:
    """One command: id (also the QAction objectName), title, shortcut, menu, callback.

    ``tab_edit`` commands run like an edit of the Molecule tab: a refusal is shown
    under the 3D view rather than in a message box.
    """

    id: str
    title: str
    menu: str
    callback: Callback
    shortcut: str | QKeySequence.StandardKey | None = None
    enabled: Enabled | None = None
    tip: str = ""
    more_shortcuts: tuple[str, ...] = ()  # further keys for the same command (Ctrl+Y)
    tab_edit: bool = False


def _history(action: str) -> Callback:
    def run(ctx: AppContext, _w: WindowFacade) -> object:
        return ops.history(ctx.document, action, actor=window_actor())

    return run


def _idle(ctx: AppContext, w: WindowFacade) -> bool:
    """Neither the document nor the Molecule tab's SMILES / clean-up work is busy."""
    return not ctx.document.busy and not w.molecule_tab.worker_running


def _doc_free(ctx: AppContext, _w: WindowFacade) -> bool:
    return ctx.document.candidate is None and not ctx.document.busy


def _has_candidate(ctx: AppContext, w: WindowFacade) -> bool:
    return ctx.document.candidate is not None and _idle(ctx, w)


ACTIONS: list[ActionSpec] = [
    ActionSpec(
        "molforma.file.new",
        QT_TRANSLATE_NOOP("actions", "&New"),
        "file",
        lambda _c, w: w.file_new(),
        QKeySequence.StandardKey.New,
    ),
    ActionSpec(
        "molforma.file.open",
        QT_TRANSLATE_NOOP("actions", "&Open…"),
        "file",
        lambda _c, w: w.file_open(),
        QKeySequence.StandardKey.Open,
    ),
    ActionSpec(
        "molforma.file.save",
        QT_TRANSLATE_NOOP("actions", "&Save Project"),
        "file",
        lambda _c, w: w.file_save(),
        "Ctrl+S",
    ),
    ActionSpec(
        "molforma.file.save_as",
        QT_TRANSLATE_NOOP("actions", "Save &As…"),
        "file",
        lambda _c, w: w.file_save_as(),
        "Ctrl+Shift+S",
    ),
    ActionSpec(
        "molforma.file.load_structure",
        QT_TRANSLATE_NOOP("actions", "&Load structure…"),
        "file",
        lambda _c, w: w.molecule_tab.load_structure_file(),
        "Ctrl+L",
        lambda c, w: _doc_free(c, w) and _idle(c, w),
    ),
    ActionSpec(
        "molforma.file.export",
        QT_TRANSLATE_NOOP("actions", "&Export…"),
        "file",
        lambda _c, w: w.file_export(),
        "Ctrl+E",
    ),
    ActionSpec(
        "molforma.file.quit",
        QT_TRANSLATE_NOOP("actions", "&Quit"),
        "file",
        lambda _c, w: w.close(),
        "Ctrl+Q",
    ),
    ActionSpec(
        "molforma.edit.undo",
        QT_TRANSLATE_NOOP("actions", "&Undo"),
        "edit",
        _history("undo"),
        QKeySequence.StandardKey.Undo,
        lambda c, w: c.document.can_undo and _idle(c, w),
        tab_edit=True,
    ),
    ActionSpec(
        "molforma.edit.redo",
        QT_TRANSLATE_NOOP("actions", "&Redo"),
        "edit",
        _history("redo"),
        "Ctrl+Shift+Z",
        lambda c, w: c.document.can_redo and _idle(c, w),
        more_shortcuts=("Ctrl+Y",),
        tab_edit=True,
    ),
    ActionSpec(
        "molforma.edit.confirm",
        QT_TRANSLATE_NOOP("actions", "&Confirm Candidate"),
        "edit",
        _history("confirm"),
        "Ctrl+Return",
        _has_candidate,
        tab_edit=True,
    ),
    ActionSpec(
        "molforma.edit.cancel",
        QT_TRANSLATE_NOOP("actions", "C&ancel Candidate"),
        "edit",
        _history("cancel"),
        "Ctrl+Backspace",
        _has_candidate,
        tab_edit=True,
    ),
    ActionSpec(
        "molforma.edit.delete",
        QT_TRANSLATE_NOOP("actions", "&Delete Selected Atoms"),
        "edit",
        lambda _c, w: w.molecule_tab.delete_selection(),
        QKeySequence.StandardKey.Delete,
        _doc_free,
    ),
    ActionSpec(
        "molforma.edit.copy_xyz",
        QT_TRANSLATE_NOOP("actions", "&Copy Atoms as XYZ"),
        "edit",
        lambda _c, w: w.molecule_tab.copy_selection_xyz(),
        QKeySequence.StandardKey.Copy,
    ),
    ActionSpec(
        "molforma.edit.select_all",
        QT_TRANSLATE_NOOP("actions", "Select &All Atoms"),
        "edit",
        lambda _c, w: w.molecule_tab.select_all(),
        QKeySequence.StandardKey.SelectAll,
    ),
    ActionSpec(
        "molforma.edit.preferences",
        QT_TRANSLATE_NOOP("actions", "&Preferences…"),
        "edit",
        lambda _c, w: w.open_preferences(),
        "Ctrl+,",
    ),
    ActionSpec(
        "molforma.view.fit",
        QT_TRANSLATE_NOOP("actions", "&Fit to View"),
        "view",
        lambda _c, w: w.molecule_tab.view.fit(),
        "F",
    ),
    ActionSpec(
        "molforma.view.reset",
        QT_TRANSLATE_NOOP("actions", "&Reset Orientation"),
        "view",
        lambda _c, w: w.molecule_tab.view.reset_view(),
        "Ctrl+0",
    ),
    ActionSpec(
        "molforma.view.style_ball_and_stick",
        QT_TRANSLATE_NOOP("actions", "&Ball and Stick"),
        "view",
        lambda _c, w: w.molecule_tab.view.set_style("ball_and_stick"),
        "Alt+1",
    ),
    ActionSpec(
        "molforma.view.style_spacefill",
        QT_TRANSLATE_NOOP("actions", "&Space Filling"),
        "view",
        lambda _c, w: w.molecule_tab.view.set_style("spacefill"),
        "Alt+2",
    ),
    ActionSpec(
        "molforma.view.style_sticks",
        QT_TRANSLATE_NOOP("actions", "S&ticks"),
        "view",
        lambda _c, w: w.molecule_tab.view.set_style("sticks"),
        "Alt+3",
    ),
    ActionSpec(
        "molforma.view.palette",
        QT_TRANSLATE_NOOP("actions", "Show &Parts Palette"),
        "view",
        lambda _c, w: w.molecule_tab.toggle_palette(),
        "F9",
    ),
    ActionSpec(
        "molforma.view.tab_molecule",
        QT_TRANSLATE_NOOP("actions", "&1 Molecule"),
        "view",
        lambda _c, w: w.show_tab("molecule"),
        "Ctrl+1",
    ),
    ActionSpec(
        "molforma.view.tab_calculation",
        QT_TRANSLATE_NOOP("actions", "&2 Calculation"),
        "view",
        lambda _c, w: w.show_tab("calculation"),
        "Ctrl+2",
    ),
    ActionSpec(
        "molforma.view.tab_execution",
        QT_TRANSLATE_NOOP("actions", "&3 Execution"),
        "view",
        lambda _c, w: w.show_tab("execution"),
        "Ctrl+3",
    ),
    ActionSpec(
        "molforma.view.tab_results",
        QT_TRANSLATE_NOOP("actions", "&Results"),
        "view",
        lambda _c, w: w.show_tab("results"),
        "Ctrl+4",
    ),
    ActionSpec(
        "molforma.view.tab_history",
        QT_TRANSLATE_NOOP("actions", "&History"),
        "view",
        lambda _c, w: w.show_tab("history"),
        "Ctrl+5",
    ),
    ActionSpec(
        "molforma.help.shortcuts",
        QT_TRANSLATE_NOOP("actions", "&Keyboard Shortcuts"),
        "help",
        lambda _c, w: w.show_shortcuts(),
        QKeySequence.StandardKey.HelpContents,
    ),
    ActionSpec(
        "molforma.help.about",
        QT_TRANSLATE_NOOP("actions", "&About MolForma"),
        "help",
        lambda _c, w: w.show_about(),
    ),
]

ACTIONS_BY_ID: dict[str, ActionSpec] = {a.id: a for a in ACTIONS}
if len(ACTIONS_BY_ID) != len(ACTIONS):  # pragma: no cover - a programming error
    raise RuntimeError("duplicate action id")

MENUS: list[tuple[str, str]] = [
    ("file", QT_TRANSLATE_NOOP("menus", "&File")),
    ("edit", QT_TRANSLATE_NOOP("menus", "&Edit")),
    ("view", QT_TRANSLATE_NOOP("menus", "&View")),
    ("help", QT_TRANSLATE_NOOP("menus", "&Help")),
]


def action_title(spec: ActionSpec) -> str:
    """The translated title of an action."""
    return QCoreApplication.translate("actions", spec.title)


def build_qaction(spec: ActionSpec, window: WindowFacade, parent: QObject) -> QAction:
    """A QAction for ``spec`` whose objectName is the action id."""
    act = QAction(action_title(spec), parent)
    act.setObjectName(spec.id)
    if spec.shortcut is not None:
        act.setShortcuts(
            [QKeySequence(spec.shortcut), *(QKeySequence(k) for k in spec.more_shortcuts)]
        )
    act.triggered.connect(lambda _checked=False, s=spec: window.run_action(s.id))
    return act
