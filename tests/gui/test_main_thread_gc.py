"""Garbage cycles holding Qt objects are collected in the window's thread, never a worker's."""

from __future__ import annotations

import gc
import threading
from typing import Any

from PySide6.QtCore import QObject, Qt


def _dropped_cycle(seen: list[str]) -> None:
    obj = QObject()
    obj.myself = obj  # type: ignore[attr-defined]  # a cycle: only the collector frees it
    obj.destroyed.connect(
        lambda *_: seen.append(threading.current_thread().name), Qt.ConnectionType.DirectConnection
    )


def test_a_worker_allocating_does_not_collect_a_cycle_holding_a_qt_object(qtbot: Any) -> None:
    assert not gc.isenabled()  # the window's tests run as the window does
    seen: list[str] = []
    _dropped_cycle(seen)

    kept: list[Any] = []

    def allocate() -> None:
        kept.append([[k] for k in range(200_000)])  # far past every collector threshold

    worker = threading.Thread(target=allocate, name="worker")
    worker.start()
    worker.join()
    assert seen == []  # the worker's allocations collected nothing
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)  # the timer in this thread did
    assert seen == [threading.main_thread().name]
    kept.clear()


def test_the_collector_collects_the_generations_the_counts_call_for() -> None:
    from molforma.gui.main_thread_gc import MainThreadCollector

    collector = MainThreadCollector()
    try:
        gc.collect()
        assert collector.collect() == 0  # nothing is due right after a full collection
        seen: list[str] = []
        for _ in range(3):
            _dropped_cycle(seen)
        keep = [[k] for k in range(gc.get_threshold()[0] + 10)]  # generation 0 is due
        assert collector.collect() >= 3 and len(seen) == 3
        del keep
    finally:
        collector.stop()
    assert not gc.isenabled()  # it was off when the collector was made: it stays off
