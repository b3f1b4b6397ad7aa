"""Driving a widget as a person would: its value set and the signals of an edit and Enter
emitted, a key pressed on it alone, a point inside it (Qt layer). The window commands'
``ui_*`` tools use these."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QKeyCombination,
    QPoint,
    QPointF,
    Qt,
)
from PySide6.QtGui import QKeyEvent, QKeySequence, QMouseEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QTabWidget,
    QTextEdit,
    QTreeWidgetItem,
    QWidget,
)

from molforma.errors import MolFormaError


def value_kept(obj: Any, value: Any, shown: Any) -> bool:
    """True when the field shows what was set (allowing the panel's own spelling: the
    case of a basis name, a trimmed path, a spin box's rounding, a choice by index)."""
    if isinstance(obj, QLineEdit | QPlainTextEdit | QTextEdit):
        return str(shown).strip() == ("" if value is None else str(value)).strip()
    if isinstance(obj, QDoubleSpinBox):
        return abs(float(shown) - float(value)) <= 10.0 ** -obj.decimals()
    if isinstance(obj, QSpinBox | QAbstractSlider):
        return int(shown) == int(float(value))
    if isinstance(obj, QComboBox):
        if isinstance(value, int) and not isinstance(value, bool):
            return obj.currentIndex() == value
        return str(shown).casefold() == str(value).strip().casefold() or bool(
            obj.currentData() == value
        )
    if isinstance(obj, QAbstractButton):
        return bool(shown) == bool(value)
    return True


# -- input events ---------------------------------------------------------------------------------
MAX_COORDINATE = 100_000  # pixels; the largest window is a few thousand wide


def send_key(widget: QWidget, combo: QKeyCombination) -> None:
    """Press and release ``combo`` on ``widget`` alone.

    The event goes to the widget's own ``event()`` (and, when it ignores it, to its
    parents up to, not including, the window), never through ``QApplication.notify``:
    for a key press that is not spontaneous, notify first sends a ShortcutOverride and
    tries the shortcut map (as ``QTest.keyClick`` does), so Ctrl+, would open Preferences
    whatever widget was named. No application shortcut can fire this way.
    """
    key, mods = combo.key(), combo.keyboardModifiers()
    text = (
        QKeySequence(key).toString()
        if mods in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier)
        else ""
    )
    if len(text) != 1:
        text = {
            Qt.Key.Key_Return: "\r",
            Qt.Key.Key_Enter: "\r",
            Qt.Key.Key_Tab: "\t",
            Qt.Key.Key_Space: " ",
        }.get(key, "")
    elif mods == Qt.KeyboardModifier.NoModifier:
        text = text.lower()
    for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
        w: QWidget | None = widget
        while w is not None and (w is widget or not w.isWindow()):
            ev = QKeyEvent(kind, key, mods, text)
            w.event(ev)
            if ev.isAccepted() or w.isWindow():
                break
            w = w.parentWidget()


DRAG_STEPS = 8  # moves between press and release: a drag, not a click, to the view


def send_drag(widget: QWidget, start: QPoint, end: QPoint, mods: Qt.KeyboardModifier) -> None:
    """A left-button drag on ``widget`` from ``start`` to ``end``: press, moves with the
    button held, release (a person's drag: the 3D view's Add-atom tool draws a bond)."""
    left = Qt.MouseButton.LeftButton
    none = Qt.MouseButton.NoButton

    def send(kind: QEvent.Type, at: QPointF, button: Qt.MouseButton, held: Qt.MouseButton) -> None:
        glob = QPointF(widget.mapToGlobal(at.toPoint()))
        QCoreApplication.sendEvent(widget, QMouseEvent(kind, at, glob, button, held, mods))

    a, b = QPointF(start), QPointF(end)
    send(QEvent.Type.MouseButtonPress, a, left, left)
    for step in range(1, DRAG_STEPS + 1):
        send(QEvent.Type.MouseMove, a + (b - a) * (step / DRAG_STEPS), none, left)
    send(QEvent.Type.MouseButtonRelease, b, left, none)


def widget_point(x: Any, y: Any, widget: QWidget) -> QPoint:
    """The widget point (x, y); refused when missing, not finite or outside the widget."""
    try:
        fx, fy = float(x), float(y)
    except (TypeError, ValueError):
        raise MolFormaError(
            "ui_bad_point", x=x, y=y, width=widget.width(), height=widget.height()
        ) from None
    if not (abs(fx) <= MAX_COORDINATE and abs(fy) <= MAX_COORDINATE):  # also NaN
        raise MolFormaError("ui_bad_point", x=x, y=y, width=widget.width(), height=widget.height())
    pt = QPoint(round(fx), round(fy))
    if not widget.rect().contains(pt):
        raise MolFormaError("ui_bad_point", x=x, y=y, width=widget.width(), height=widget.height())
    return pt


# -- values -------------------------------------------------------------------------------------
def pick_index(index: Any, text: Any, labels: list[str]) -> int:
    if text is not None:
        for i, lab in enumerate(labels):
            if lab == str(text):
                return i
        raise MolFormaError("ui_bad_choice", value=text, choices=labels)
    if index is None or not 0 <= int(index) < len(labels):
        raise MolFormaError("ui_bad_index", index=index, count=len(labels))
    return int(index)


def set_value(obj: Any, value: Any) -> None:
    """Set a widget's value and emit what a person's edit and Enter emit.

    Raises:
        MolFormaError: ``ui_wrong_kind`` / ``ui_bad_value`` / ``ui_bad_choice``.
    """
    if isinstance(obj, QLineEdit):
        if obj.isReadOnly():
            raise MolFormaError("ui_read_only", target=obj.objectName())
        obj.setFocus()
        obj.setText("" if value is None else str(value))
        obj.textEdited.emit(obj.text())
        # The panels commit on editingFinished (what Enter or leaving the field emits).
        obj.editingFinished.emit()
    elif isinstance(obj, QSpinBox | QDoubleSpinBox):
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise MolFormaError("ui_bad_value", value=value, expected="a number")
        try:
            num = float(value)
        except ValueError:
            raise MolFormaError("ui_bad_value", value=value, expected="a number") from None
        if not obj.minimum() <= num <= obj.maximum():
            raise MolFormaError(
                "ui_bad_value", value=value, expected=f"{obj.minimum()} … {obj.maximum()}"
            )
        if isinstance(obj, QSpinBox):
            obj.setValue(int(num))
        else:
            obj.setValue(num)
        obj.editingFinished.emit()
    elif isinstance(obj, QComboBox):
        labels = [obj.itemText(i) for i in range(obj.count())]
        if isinstance(value, int) and not isinstance(value, bool):
            i = pick_index(value, None, labels)
        else:
            i = obj.findText(str(value), Qt.MatchFlag.MatchFixedString)
            if i < 0:
                i = obj.findData(value)
            line = obj.lineEdit() if obj.isEditable() else None
            if i < 0 and line is not None:
                # A name typed into an editable combo box, committed with Enter.
                line.setText(str(value))
                line.editingFinished.emit()
                return
            if i < 0:
                raise MolFormaError("ui_bad_choice", value=value, choices=labels)
        obj.setCurrentIndex(i)
        obj.activated.emit(i)
        obj.textActivated.emit(obj.itemText(i))
    elif isinstance(obj, QCheckBox) or (isinstance(obj, QAbstractButton) and obj.isCheckable()):
        if not isinstance(value, bool):
            raise MolFormaError("ui_bad_value", value=value, expected="true or false")
        if obj.isChecked() != value:
            obj.click()  # toggled and clicked, as a person's click
    elif isinstance(obj, QPlainTextEdit | QTextEdit):
        if obj.isReadOnly():
            raise MolFormaError("ui_read_only", target=obj.objectName())
        obj.setPlainText("" if value is None else str(value))
    elif isinstance(obj, QAbstractSlider):
        if isinstance(value, bool) or not isinstance(value, int):
            raise MolFormaError("ui_bad_value", value=value, expected="an integer")
        if not obj.minimum() <= value <= obj.maximum():
            raise MolFormaError(
                "ui_bad_value", value=value, expected=f"{obj.minimum()} … {obj.maximum()}"
            )
        obj.setValue(value)
        obj.sliderReleased.emit()
    elif isinstance(obj, QTabWidget):
        obj.setCurrentIndex(
            pick_index(
                value if isinstance(value, int) else None,
                value if isinstance(value, str) else None,
                [obj.tabText(i).replace("&", "") for i in range(obj.count())],
            )
        )
    else:
        raise MolFormaError(
            "ui_wrong_kind",
            target=getattr(obj, "objectName", lambda: "")(),
            kind=type(obj).__name__,
            accepted="line edits, spin boxes, combo boxes, check boxes, "
            "text editors, sliders, tabs",
        )


def children_last_first(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    """The children of a tree item, last first (a stack pops them in order)."""
    found = (item.child(k) for k in range(item.childCount() - 1, -1, -1))
    return [c for c in found if c is not None]
