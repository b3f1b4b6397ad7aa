"""A panel's background call outlives its panel without an error in its thread."""

from __future__ import annotations

import threading
from typing import Any

import shiboken6
from PySide6.QtCore import QObject

from molforma.gui.widgets.panel_workers import BackgroundCall


def test_a_result_after_the_panel_is_gone_is_dropped(qtbot: Any, monkeypatch: Any) -> None:
    errors: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    release = threading.Event()
    owner = QObject()
    call = BackgroundCall(owner)
    got: list[object] = []
    call.done.connect(got.append)
    call.start(lambda: release.wait(5) and 42)
    worker = next(t for t in threading.enumerate() if t.name == "molforma-panel-worker")
    shiboken6.delete(owner)  # the window closed while the work ran
    release.set()
    worker.join(5)
    qtbot.wait(50)
    assert not worker.is_alive()
    assert errors == [] and got == []


def test_a_result_reaches_a_live_panel(qtbot: Any) -> None:
    call = BackgroundCall()
    with qtbot.waitSignal(call.done, timeout=5000) as blocker:
        call.start(lambda: 7)
    assert blocker.args == [7]
