"""The Qt binding in use does not corrupt the interpreter (environment regression guard)."""

from __future__ import annotations

import sys
from typing import Any


def test_pyside_does_not_leak_none_refs(qapp: Any) -> None:
    from PySide6.QtWidgets import QLabel

    w = QLabel()
    before = sys.getrefcount(None)
    for _ in range(1000):
        w.setText("x")
    assert sys.getrefcount(None) >= before - 10
