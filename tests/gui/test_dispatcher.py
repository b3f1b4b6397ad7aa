"""GuiDispatcher: MCP-thread work runs on the GUI thread and results or errors come back."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QThread


def test_a_call_from_another_thread_runs_on_the_gui_thread(qtbot: Any) -> None:
    from molforma.gui.dispatcher import GuiDispatcher

    d = GuiDispatcher()
    gui = QThread.currentThread()
    out: dict[str, Any] = {}

    def worker() -> None:
        out["value"] = d.call(lambda: (QThread.currentThread() == gui, 42))
        try:
            d.call(lambda: 1 / 0)
        except ZeroDivisionError as exc:
            out["error"] = exc

    t = threading.Thread(target=worker)
    t.start()
    qtbot.waitUntil(lambda: not t.is_alive(), timeout=5000)
    assert out["value"] == (True, 42)
    assert isinstance(out["error"], ZeroDivisionError)


def test_a_call_on_the_gui_thread_runs_directly(qtbot: Any) -> None:
    from molforma.gui.dispatcher import GuiDispatcher

    assert GuiDispatcher().call(lambda: "here") == "here"


def test_a_call_times_out_when_the_gui_thread_is_blocked(qtbot: Any) -> None:
    from molforma.gui.dispatcher import GuiDispatcher

    d = GuiDispatcher()
    ran: list[bool] = []
    result: dict[str, Any] = {}

    def worker() -> None:
        try:
            d.call(lambda: ran.append(True), timeout=0.2)
        except TimeoutError as exc:
            result["timeout"] = exc

    t = threading.Thread(target=worker)
    t.start()
    t.join()  # the GUI thread is blocked here, so the call cannot run
    assert "timeout" in result
    qtbot.wait(50)  # the queued job is dropped once the event loop runs again
    assert ran == []


def test_the_window_offers_the_bridge(make_main_window: Any) -> None:
    win = make_main_window()
    assert win.mcp_bridge.call(lambda: win.objectName()) == "mainWindow"
    assert callable(win.mcp_client_closed)
