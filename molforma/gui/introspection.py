"""The window as data for MCP: widget ids, values, blocked widgets, pixels (Qt layer).

:class:`WindowIntrospection` lists the window's widgets and actions as plain nodes
with ``ui-N`` ids, resolves a target (``ui-N`` or a unique objectName), reads and
writes the values of a fixed set of widget kinds the way a person's typing does,
and grabs widgets as PNG. Ids keep the object; an id whose widget was deleted, or
whose dialog closed, is *expired* (a clear error rather than "not found").

What may be driven is declared in :mod:`molforma.gui.controls` (an allowlist); every
node says which tools drive it (``drivable``), protected controls (docs/reference/safety.md, Protected settings)
are listed under ``blocked`` with their reason, and everything else refuses every
``ui_*`` action. Widgets of private dialogs (the Run confirmation, Preferences, Qt's
own boxes) are never listed; of a file dialog only the dialog itself is (its folder
listing is reached through ``ui_file_dialog`` alone). Everything here runs on the GUI
thread.
"""

from __future__ import annotations

import difflib
import itertools
from typing import Any

import shiboken6
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, QRect, Qt
from PySide6.QtGui import QAction, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QPlainTextEdit,
    QProgressBar,
    QSpinBox,
    QTabBar,
    QTableView,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QWidget,
)

from molforma.errors import MolFormaError
from molforma.gui import dialogs
from molforma.gui.controls import CONTROLS, Control, Kind, check_tool, control_for
from molforma.gui.item_details import item_details
from molforma.gui.item_details import mol_view as mol_view  # ui_tool_commands imports it here
from molforma.gui.view3d.base import MoleculeView

MAX_SCREENSHOT_WIDTH = 4096
MAX_SCREENSHOT_BYTES = 8 * 1024 * 1024
SHORT_TEXT = 200
LONG_TEXT = 65_536
TAB_NAMES = ("molecule", "calculation", "execution", "results", "history")

# Controls that are not drivable for a reason worth naming (texts in
# molforma.mcp.tools.window); every other undeclared control is plainly ``ui_not_drivable``.
PRIVATE_NAMES = {
    "molforma.edit.preferences": "blocked_preferences",
    "preferencesDialog": "blocked_preferences",
}

# The Qt classes each kind of declared control binds to; a widget of another class with a
# declared name (a label matching ``advanced_*``) is not drivable.
KIND_CLASSES: dict[Kind, tuple[type, ...]] = {
    Kind.BUTTON: (QAbstractButton,),
    Kind.ACTION: (QAction,),
    Kind.LINE: (QLineEdit,),
    Kind.SPIN: (QAbstractSpinBox,),
    Kind.COMBO: (QComboBox,),
    Kind.CHECK: (QAbstractButton,),
    Kind.SLIDER: (QAbstractSlider,),
    Kind.TEXT: (QPlainTextEdit, QTextEdit),
    Kind.FIELD: (QLineEdit, QAbstractSpinBox, QComboBox, QAbstractButton),
    Kind.TABS: (QTabWidget,),
    Kind.TABLE: (QTableView,),
    Kind.LIST: (QListWidget,),
    Kind.TREE: (QTreeWidget,),
    Kind.VIEW: (MoleculeView, QWidget),  # the view or its canvas: checked by mol_view
    Kind.PAGE: (QWidget,),  # checked by tab_page
}

_INTERACTIVE = (
    QAbstractButton,
    QLineEdit,
    QAbstractSpinBox,
    QComboBox,
    QAbstractItemView,
    QAbstractSlider,
    QTabWidget,
    QPlainTextEdit,
    QTextEdit,
    QLabel,
    QTabBar,
    QProgressBar,
)


def _valid(obj: Any) -> bool:
    return obj is not None and shiboken6.isValid(obj)


class WindowIntrospection:
    """Ids, nodes, targets, values and screenshots of one main window."""

    def __init__(self, window: QMainWindow, allow_execution_settings: bool = False) -> None:
        self.window = window
        self._objs: dict[int, QObject] = {}
        self._ids = itertools.count(1)
        self.allow_execution_settings = allow_execution_settings

    # -- ids -------------------------------------------------------------------------------
    def id_of(self, obj: QObject) -> str:
        """The ``ui-N`` id of ``obj`` (given on first sight, kept for its life)."""
        n = obj.property("molformaUiId")
        if not isinstance(n, int) or self._objs.get(n) is not obj:
            n = next(self._ids)
            obj.setProperty("molformaUiId", n)
            self._objs[n] = obj
        return f"ui-{n}"

    def _expired(self, obj: QObject) -> bool:
        if not _valid(obj):
            return True
        if isinstance(obj, QWidget):
            top = obj.window()
            return isinstance(top, QDialog) and not top.isVisible()
        return False

    # -- the tree --------------------------------------------------------------------------
    def _dialog_roots(self) -> list[QWidget]:
        """MolForma's own open dialogs that MCP may see (registered, not private)."""
        out: list[QWidget] = []
        for w in QApplication.topLevelWidgets():
            if w is self.window or not w.isVisible() or not isinstance(w, QDialog):
                continue
            if _public_dialog_id(w) is None:
                continue  # the person's own question, or a box of Qt's: never shown to MCP
            out.append(w)
        return out

    def _listed(self, w: QWidget, in_dialog: bool) -> bool:
        name = w.objectName()
        if name.startswith("qt_") or isinstance(w.parentWidget(), (QAbstractSpinBox, QComboBox)):
            return False
        if name:
            return True
        return in_dialog and isinstance(w, _INTERACTIVE)

    def objects(self, include_hidden: bool = True) -> list[tuple[QObject, str | None]]:
        """Every listed widget and action with the dialog id it belongs to."""
        out: list[tuple[QObject, str | None]] = [(self.window, None)]
        for w in self.window.findChildren(QWidget):
            if w.window() is not self.window:
                continue  # a dialog's widgets: walked below (never a private dialog's)
            if self._listed(w, False) and (include_hidden or w.isVisible()):
                out.append((w, None))
        for act in self.window.findChildren(QAction):
            if act.objectName().startswith("molforma."):
                out.append((act, None))
        for root in self._dialog_roots():
            did = _public_dialog_id(root)
            out.append((root, did))
            if isinstance(root, QFileDialog):
                continue  # its folder listing and buttons: ui_file_dialog only
            for w in root.findChildren(QWidget):
                if self._listed(w, True) and (include_hidden or w.isVisible()):
                    out.append((w, did))
        return out

    def tab_of(self, obj: QObject) -> str | None:
        """Main tab key a widget sits on, None outside the tabs."""
        tabs = getattr(self.window, "tabs", None)
        if not isinstance(obj, QWidget) or tabs is None:
            return None
        w: QWidget | None = obj
        while w is not None:
            idx = tabs.indexOf(w)
            if idx >= 0:
                return TAB_NAMES[idx] if idx < len(TAB_NAMES) else str(idx)
            w = w.parentWidget()
        return None

    def control(self, obj: QObject) -> Control | None:
        """The declared row of ``obj`` where it is now (None: not drivable there)."""
        row = self._row(obj)
        if row is None or not isinstance(obj, KIND_CLASSES[row.kind]):
            return None
        if row.kind is Kind.VIEW and mol_view(obj) is None:
            return None
        if row.kind is Kind.PAGE and tab_page(obj) is None:
            return None
        return row

    def _row(self, obj: QObject) -> Control | None:
        if isinstance(obj, QWidget):
            top = obj.window()
            if top is self.window:
                return control_for(obj.objectName(), None)
            if _public_dialog_id(top) is None or isinstance(top, QFileDialog):
                return None  # Qt's boxes, private dialogs, the insides of a file dialog
            return control_for(obj.objectName(), top.objectName())
        if isinstance(obj, QAction):
            owner = obj.parent()
            return control_for(obj.objectName(), None) if owner is self.window else None
        return None

    def standing(self, obj: QObject) -> tuple[Control | None, str | None]:
        """``obj``'s declared row and, when it is person-only or private, the reason."""
        cur: QObject | None = obj
        while cur is not None:
            code = PRIVATE_NAMES.get(cur.objectName())
            if code is not None:
                return None, code
            if isinstance(cur, QWidget) and cur.property("molformaPrivate"):
                return None, "blocked_private_dialog"
            cur = cur.parent()
        row = self.control(obj)
        if row is not None and row.protected and not self.allow_execution_settings:
            return row, row.protected
        return row, None

    def blocked_reason(self, obj: QObject) -> str | None:
        """Reason code when ``obj`` is declared but person-only, or private by name."""
        return self.standing(obj)[1]

    def drivable_tools(self, obj: QObject) -> list[str]:
        """The ``ui_*`` tools that may drive ``obj`` now (empty: none)."""
        row, reason = self.standing(obj)
        return [] if row is None or reason is not None else sorted(row.tools)

    def node(
        self,
        obj: QObject,
        dialog: str | None = None,
        *,
        full: bool = False,
    ) -> dict[str, Any]:
        """The plain description of one widget or action."""
        out: dict[str, Any] = {
            "id": self.id_of(obj),
            "objectName": obj.objectName(),
            "class": type(obj).__name__,
            "qtClass": obj.metaObject().className(),
        }
        text = _text(obj)
        if text is not None:
            out["text"] = text if full or len(text) <= SHORT_TEXT else text[:SHORT_TEXT] + "…"
        value = widget_value(obj, full=full)
        if value is not None:
            out["value"] = value
        if isinstance(obj, QWidget):
            out["enabled"] = obj.isEnabled()
            out["visible"] = obj.isVisible()
        elif isinstance(obj, QAction):
            out["enabled"] = obj.isEnabled()
            out["visible"] = obj.isVisible()
            if obj.shortcut().toString():
                out["shortcut"] = obj.shortcut().toString()
        tab = self.tab_of(obj)
        if tab is not None:
            out["tab"] = tab
        if dialog is not None:
            out["dialog"] = dialog
        row, reason = self.standing(obj)
        if reason is not None:
            out["blocked"] = reason
        out["drivable"] = [] if row is None or reason is not None else sorted(row.tools)
        return out

    # -- reads for the tools ---------------------------------------------------------------
    def catch_up(self) -> None:
        """Panels that defer work (a hidden tab's input preview after a drag, results
        followed on a timer) bring their widgets up to date before an agent reads them."""
        panels = getattr(self.window, "panels", None)
        for panel in dict.values(panels) if isinstance(panels, dict) else ():
            catch_up = getattr(panel, "catch_up", None)
            if callable(catch_up):
                catch_up()

    def get_ui(self, args: dict[str, Any]) -> dict[str, Any]:
        """Nodes (all, for the tool to filter and page), active modal and blocked list."""
        self.catch_up()
        include_hidden = bool(args.get("includeHidden"))
        query = str(args.get("query") or "").strip().lower()
        nodes = []
        by_name: dict[str, list[QObject]] = {}
        for obj, _did in self.objects(include_hidden=True):
            by_name.setdefault(obj.objectName(), []).append(obj)
        for obj, did in self.objects(include_hidden=include_hidden):
            n = self.node(obj, did)
            if query and not any(
                query in str(n.get(k, "")).lower()
                for k in ("text", "class", "objectName", "qtClass")
            ):
                continue
            nodes.append(n)
        blocked = []
        for name, code in self._blocked_names().items():
            found = by_name.get(name, [])
            blocked.append(
                {"objectName": name, "reason": code, "ids": [self.id_of(o) for o in found]}
            )
        tabs = getattr(self.window, "tabs", None)
        current = TAB_NAMES[tabs.currentIndex()] if isinstance(tabs, QTabWidget) else None
        return {
            "nodes": nodes,
            "activeModal": self.active_modal(),
            "blocked": blocked,
            "currentTab": current,
        }

    def _blocked_names(self) -> dict[str, str]:
        """The person-only controls by name (listed whether or not they exist now)."""
        out = {name: code for name, code in PRIVATE_NAMES.items() if name.startswith("molforma.")}
        if not self.allow_execution_settings:
            out.update({c.name: c.protected for c in CONTROLS if c.protected})
        return out

    def active_modal(self) -> dict[str, Any] | None:
        """The open modal dialog MCP may see, with its buttons' ids."""
        modal = QApplication.activeModalWidget()
        did = _public_dialog_id(modal) if modal is not None else None
        if modal is None or did is None:
            return None  # none, or the person's own (private dialogs, Qt's boxes)
        entry = dialogs.registry.find(did)
        out: dict[str, Any] = {
            "id": self.id_of(modal),
            "objectName": modal.objectName(),
            "class": type(modal).__name__,
            "title": modal.windowTitle(),
        }
        if entry is not None:
            out.update(entry.info.to_dict())
            buttons = {label: ref() for label, ref in entry.buttons.items()}
            out["buttonIds"] = {
                label: self.id_of(button)
                for label, button in buttons.items()
                if button is not None and _valid(button)
            }
        return out

    def get_ui_item(self, args: dict[str, Any]) -> dict[str, Any]:
        """One widget in full: value, geometry, items/rows (paged), cell rectangles."""
        self.catch_up()
        obj = self.resolve(str(args["target"]))
        did = obj.window().property("molformaDialogId") if isinstance(obj, QWidget) else None
        out = self.node(obj, did if isinstance(did, str) else None, full=True)
        if isinstance(obj, QWidget):
            g = obj.geometry()
            top = (
                obj.mapTo(obj.window(), obj.rect().topLeft())
                if obj.window() is not obj
                else g.topLeft()
            )
            out["rect"] = {"x": top.x(), "y": top.y(), "width": g.width(), "height": g.height()}
            if obj.toolTip():
                out["toolTip"] = obj.toolTip()
        offset = int(args.get("offset") or 0)
        limit = args.get("limit")
        details = item_details(obj, offset, limit, self.id_of)
        out.update(details)
        return out

    def app_part(self) -> dict[str, Any]:
        """Current tab and active modal (window part of get_app_state)."""
        tabs = getattr(self.window, "tabs", None)
        return {
            "currentTab": TAB_NAMES[tabs.currentIndex()] if tabs is not None else None,
            "activeModal": self.active_modal(),
        }

    # -- targets ---------------------------------------------------------------------------
    def _named(self, name: str) -> list[QObject]:
        return [o for o, _d in self.objects(include_hidden=True) if o.objectName() == name]

    def resolve(self, target: str) -> QObject:
        """The widget or action named by ``target``.

        Raises:
            MolFormaError: ``ui_expired``, ``ui_not_found`` or ``ui_ambiguous``.
        """
        if target.startswith("ui-") and target[3:].isdigit():
            obj = self._objs.get(int(target[3:]))
            if obj is None:
                raise MolFormaError("ui_not_found", target=target, similar=[])
            if self._expired(obj):
                raise MolFormaError("ui_expired", target=target)
            return obj
        if target == "mainWindow":
            return self.window
        found = self._named(target)
        if not found:
            names = sorted({o.objectName() for o, _d in self.objects(True) if o.objectName()})
            similar = difflib.get_close_matches(target, names, n=5, cutoff=0.5)
            raise MolFormaError("ui_not_found", target=target, similar=similar)
        if len(found) > 1:
            raise MolFormaError("ui_ambiguous", target=target, ids=[self.id_of(o) for o in found])
        return found[0]

    def check_drivable(self, obj: QObject, tool: str) -> Control:
        """The declared row of ``obj`` for ``tool``; refuse anything else.

        Raises:
            MolFormaError: a ``blocked_*`` reason (person-only), ``ui_not_drivable`` (not
                declared), ``ui_wrong_tool`` (declared for other tools) or ``ui_disabled``.
        """
        shown = obj.objectName() or self.id_of(obj)
        row, reason = self.standing(obj)
        if reason is not None:
            raise MolFormaError(reason, target=shown)
        check_tool(row, tool, shown)
        assert row is not None  # check_tool refused None
        if isinstance(obj, (QWidget, QAction)) and not obj.isEnabled():
            raise MolFormaError("ui_disabled", target=shown)
        return row

    # -- pixels ----------------------------------------------------------------------------
    def _paint_modal(self, pix: QPixmap) -> None:
        """Draw the open dialog MCP may see over the window's picture, where the person
        sees it (centred when it lies off the window, as offscreen it may). The person's
        own dialogs and file dialogs (a folder listing) are not drawn."""
        modal = QApplication.activeModalWidget()
        if modal is None or _public_dialog_id(modal) is None or isinstance(modal, QFileDialog):
            return
        shot = modal.grab()
        at = self.window.mapFromGlobal(modal.mapToGlobal(modal.rect().topLeft()))
        if not pix.rect().contains(QRect(at, shot.size())):
            at = pix.rect().center() - shot.rect().center()
        painter = QPainter(pix)
        painter.drawPixmap(at, shot)
        painter.end()

    def screenshot(self, target: str | None) -> tuple[bytes, int, int]:
        """PNG of a widget (default: the main window), at most 4,096 px wide and 8 MiB."""
        obj = self.window if not target or target == "mainWindow" else self.resolve(target)
        if not isinstance(obj, QWidget):
            raise MolFormaError("ui_not_a_widget", target=target)
        reason = self.blocked_reason(obj)
        if reason in ("blocked_private_dialog", "blocked_preferences"):
            raise MolFormaError(reason, target=target)
        if isinstance(obj.window(), QFileDialog):
            # Its folder listing would show what the allowed directories keep from MCP.
            raise MolFormaError("blocked_file_dialog", target=target)
        pix = obj.grab()
        if obj is self.window:
            self._paint_modal(pix)
        if pix.width() > MAX_SCREENSHOT_WIDTH:
            pix = pix.scaledToWidth(
                MAX_SCREENSHOT_WIDTH, Qt.TransformationMode.SmoothTransformation
            )
        data = QByteArray()
        buf = QBuffer(data)
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        pix.save(buf, "PNG")
        buf.close()
        png = bytes(data.data())
        if len(png) > MAX_SCREENSHOT_BYTES:
            raise MolFormaError("screenshot_too_large", size=len(png), limit=MAX_SCREENSHOT_BYTES)
        return png, pix.width(), pix.height()


def _public_dialog_id(w: QWidget | None) -> str | None:
    """The registry id of a MolForma dialog MCP may see; None for anything else."""
    if w is None or w.property("molformaPrivate"):
        return None
    did = w.property("molformaDialogId")
    if not isinstance(did, str) or dialogs.registry.find(did) is None:
        return None
    return did


# -- values -----------------------------------------------------------------------------------
def _text(obj: QObject) -> str | None:
    if isinstance(obj, QAbstractButton | QLabel):
        return obj.text()
    if isinstance(obj, QAction):
        return obj.text().replace("&", "")
    if isinstance(obj, QGroupBox):
        return obj.title()
    if isinstance(obj, QWidget) and obj.isWindow():
        return obj.windowTitle()
    if isinstance(obj, QLineEdit):
        return obj.placeholderText() or None
    return None


def widget_value(obj: QObject, *, full: bool = False) -> Any:
    """What a widget shows as its value (what a person reads back from it)."""
    if isinstance(obj, QLineEdit):
        return obj.text()
    if isinstance(obj, QSpinBox | QDoubleSpinBox):
        return obj.value()
    if isinstance(obj, QComboBox):
        return obj.currentText()
    if isinstance(obj, QAbstractButton):
        return obj.isChecked() if obj.isCheckable() else None
    if isinstance(obj, QAction):
        return obj.isChecked() if obj.isCheckable() else None
    if isinstance(obj, QPlainTextEdit | QTextEdit):
        text = obj.toPlainText()
        limit = LONG_TEXT if full else SHORT_TEXT
        return text if len(text) <= limit else text[:limit] + "…"
    if isinstance(obj, QAbstractSlider | QProgressBar):
        return obj.value()
    if isinstance(obj, QTabWidget):
        return obj.currentIndex()
    if isinstance(obj, QTabBar):
        return obj.currentIndex()
    if isinstance(obj, QTableView):
        model = obj.model()
        return {"rows": model.rowCount(), "columns": model.columnCount()} if model else None
    if isinstance(obj, QListWidget):
        return {"count": obj.count(), "currentRow": obj.currentRow()}
    if isinstance(obj, QTreeWidget):
        return {"count": obj.topLevelItemCount()}
    view = mol_view(obj)
    if view is not None:
        return {"atoms": len(view.scene.ids), "selection": list(view.selection())}
    return None


def tab_page(obj: QObject) -> tuple[QTabWidget, int] | None:
    """The tab widget and index of which ``obj`` is a page, or None."""
    if not isinstance(obj, QWidget):
        return None
    holder = obj.parentWidget()
    tabs = holder.parentWidget() if holder is not None else None
    if isinstance(tabs, QTabWidget):
        index = tabs.indexOf(obj)
        if index >= 0:
            return tabs, index
    return None
