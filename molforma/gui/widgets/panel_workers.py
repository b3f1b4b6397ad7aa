"""Helpers shared by the Calculation, Execution, Results and History panels (Qt layer).

- :func:`apply_edit` runs one document operation the way the window does it (applied
  directly as one undo step, told who acts) and turns a failure into a
  message.
- :func:`reports_errors` is the one error report of the panels' slots: a failure of the
  decorated method is shown the panel's way and the slot answers its fallback.
- :class:`BackgroundCall` runs a slow function (a history scan, a file preview) in a
  Python thread and delivers its result or its exception on the GUI thread, so no
  widget is ever touched from the worker.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QLabel, QPushButton, QTableWidget, QWidget

from molforma.app import ops
from molforma.app.actor import window_actor
from molforma.errors import MolFormaError
from molforma.gui import outcome

log = logging.getLogger(__name__)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for translation in ``context`` without translating it now (PySide6's
    own answers ``object`` to the type checker)."""
    return text


def error_text(exc: BaseException) -> str:
    """The sentence to show for ``exc`` in the display language."""
    if isinstance(exc, MolFormaError):
        return exc.message()
    return f"{type(exc).__name__}: {exc}"


S = TypeVar("S")
P = ParamSpec("P")
R = TypeVar("R")
D = TypeVar("D")


def failure_text(context: str, template: str | None, exc: BaseException) -> str:
    """``template`` (marked with QT_TRANSLATE_NOOP in ``context``, ``%1`` for the reason)
    in the display language with the reason of ``exc``; the reason alone without one."""
    reason = error_text(exc)
    if template is None:
        return reason
    return QCoreApplication.translate(context, template).replace("%1", reason)


def reports_errors(
    show: Callable[[S, BaseException], object], *, returns: D
) -> Callable[[Callable[Concatenate[S, P], R]], Callable[Concatenate[S, P], R | D]]:
    """The one error report of the panels' slots: a failure of the decorated method is
    shown by ``show(self, exc)`` (a status line, a refusal beside a field, the preview)
    and the method answers ``returns``; nothing reaches Qt's event loop as a traceback.

    The method holds what may fail and nothing else, so what follows a success stays in
    its caller (the decorated part is the ``try`` body the panels used to copy).
    """

    def decorate(fn: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R | D]:
        @functools.wraps(fn)
        def slot(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R | D:
            try:
                return fn(self, *args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - every failure is shown, none raised
                show(self, exc)
                return returns

        return slot

    return decorate


def apply_edit(ctx: Any, op: str, *args: Any, **kwargs: Any) -> str | None:
    """Call ``molforma.app.ops.<op>(ctx.document, ...)`` as a window edit.

    Returns None on success or the error sentence (the document is unchanged then).
    """
    fn = getattr(ops, op)
    actor = window_actor()
    if actor.is_mcp and op in ("set_execution", "set_nwchem"):
        # The protected fields are blocked for window commands; should one get through
        # anyway, the application layer refuses it like the set_execution tool.
        policy = getattr(ctx, "policy", None)
        kwargs.setdefault(
            "allow_protected", bool(policy is not None and policy.allow_execution_settings)
        )
    try:
        fn(ctx.document, *args, preview=False, actor=actor, **kwargs)
    except MolFormaError as exc:
        outcome.refused(exc)  # the record of a window command carries the tool's own code
        return exc.message()
    return None


class _Relay(QObject):
    """Lives on the GUI thread; worker threads emit into it with queued delivery."""

    done = Signal(object)
    failed = Signal(object)
    _result = Signal(object, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._result.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    @Slot(object, object)
    def _deliver(self, ok: object, value: object) -> None:
        if ok:
            self.done.emit(value)
        else:
            self.failed.emit(value)


def _relay_result(relay: _Relay, ok: bool, value: object) -> None:
    """Hand a worker's result to the GUI thread. When the panel (and its relay) was closed
    while the work ran, nobody waits for the result: it is dropped, not raised in the
    worker thread."""
    with contextlib.suppress(RuntimeError):  # "Signal source has been deleted"
        relay._result.emit(ok, value)


class BackgroundCall(QObject):
    """Run ``fn()`` in a daemon thread; ``done(result)`` / ``failed(exc)`` on the GUI thread.

    The object must be created on the GUI thread. ``running`` is True until the
    result has been delivered; a result that arrives after :meth:`discard` is dropped,
    so a panel can start a new call without waiting for a stale one.
    """

    done = Signal(object)
    failed = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._relay.failed.connect(self._on_failed)
        self._generation = 0
        self.running = False

    def start(self, fn: Callable[[], Any]) -> None:
        """Start ``fn`` in a new thread (a previous call's result will be ignored)."""
        self._generation += 1
        gen = self._generation
        self.running = True
        relay = self._relay

        def work() -> None:
            try:
                value = fn()
            except BaseException as exc:  # noqa: BLE001 - forwarded to the GUI thread
                _relay_result(relay, False, (gen, exc))
                return
            _relay_result(relay, True, (gen, value))

        threading.Thread(target=work, name="molforma-panel-worker", daemon=True).start()

    def discard(self) -> None:
        """Ignore the result of the call in progress."""
        self._generation += 1
        self.running = False

    def _on_done(self, payload: object) -> None:
        gen, value = cast("tuple[int, object]", payload)  # what work() emitted
        if gen != self._generation:
            return
        self.running = False
        self.done.emit(value)

    def _on_failed(self, payload: object) -> None:
        gen, exc = cast("tuple[int, BaseException]", payload)  # what work() emitted
        if gen != self._generation:
            return
        self.running = False
        if not isinstance(exc, MolFormaError):
            log.warning("background call failed", exc_info=exc)
        self.failed.emit(exc)


def watch_load(
    owner: QObject, handle: Any, on_end: Callable[..., None], interval_ms: int = 50
) -> QTimer:
    """Poll a background handle (``.done``, ``.status``, ``.exception``) on the GUI thread.

    ``on_end(ok, error)`` runs once when the handle is done: ``ok`` is True for a
    completed/finished load, ``error`` the MolFormaError of a failed one (or None).
    """
    timer = QTimer(owner)
    timer.setInterval(interval_ms)

    def check() -> None:
        if not handle.done:
            return
        timer.stop()
        timer.deleteLater()
        status = str(getattr(handle, "status", ""))
        ok = status in ("completed", "finished")
        err = getattr(handle, "exception", None) or getattr(handle, "error", None)
        on_end(ok, None if ok else err)

    timer.timeout.connect(check)
    timer.start()
    return timer


class Retranslatable:
    """Mixin for panels whose texts follow a language switch made at run time.

    Each visible text is set through :meth:`bind_text` with a function that calls
    ``self.tr(...)``; when Qt sends a LanguageChange event (a translator was
    installed or removed) every bound function runs again and :meth:`retranslate_dynamic`
    re-renders texts built from data (status lines, summaries). The mixin must come
    before the Qt class in the bases.
    """

    def _widget(self) -> QWidget:
        """The panel itself as the widget it is (the Qt class after the mixin)."""
        assert isinstance(self, QWidget), "Retranslatable comes before a Qt widget class"
        return self

    def bind_text(self, fn: Callable[[], Any]) -> None:
        """Run ``fn`` now and again after every language change."""
        binders: list[Callable[[], Any]] = self.__dict__.setdefault("_text_binders", [])
        binders.append(fn)
        fn()

    def label(self, text: Callable[[], str], parent: QWidget | None = None) -> QLabel:
        """A QLabel whose text is ``text()``, kept translated."""
        lab = QLabel(parent if parent is not None else self._widget())
        self.bind_text(lambda: lab.setText(text()))
        return lab

    def button(
        self, text: Callable[[], str], name: str, parent: QWidget | None = None
    ) -> QPushButton:
        """A QPushButton named ``name`` whose text is ``text()``, kept translated."""
        b = QPushButton(parent if parent is not None else self._widget())
        b.setObjectName(name)
        self.bind_text(lambda: b.setText(text()))
        return b

    def retranslate(self) -> None:
        """Set every bound text again in the current language."""
        for fn in self.__dict__.get("_text_binders", []):
            fn()
        self.retranslate_dynamic()

    def retranslate_dynamic(self) -> None:
        """Re-render texts made from data; panels override it."""

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        """React to LanguageChange by retranslating."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)  # type: ignore[misc]  # the Qt class after the mixin has it


def message_label(name: str, parent: QWidget) -> QLabel:
    """A hidden, word-wrapped red label for a field's or a panel's refusal message."""
    label = QLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setStyleSheet("color: #b00020;")
    label.setVisible(False)
    return label


def rows_to_remove(table: QTableWidget) -> list[int]:
    """The selected rows of ``table`` (else its current row), last first so removal is safe."""
    rows = sorted({i.row() for i in table.selectedIndexes()}, reverse=True)
    if not rows and table.currentRow() >= 0:
        rows = [table.currentRow()]
    return rows


def unique_internal_names(container: QWidget) -> None:
    """Prefix Qt's own child names (tab scroll buttons) with the container's objectName.

    Qt names both scroll buttons of every QTabBar the same; the window's widget
    introspection needs names that are unique in the whole window.
    """
    prefix = container.objectName()
    for child in container.findChildren(QWidget):
        name = child.objectName()
        if name in ("ScrollLeftButton", "ScrollRightButton"):
            child.setObjectName(prefix + name)
