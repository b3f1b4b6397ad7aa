"""Rooms of a human size (issue 28 point 2) in the core packages this applies to so far:
no module of nwchem/, history/, results/, formats/ or catalog.py is over 700 lines."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "molforma"
MAX_LINES = 700
CHECKED = ("nwchem", "history", "results", "formats")


def _modules() -> list[Path]:
    return sorted(
        [p for name in CHECKED for p in (PACKAGE / name).rglob("*.py")] + [PACKAGE / "catalog.py"]
    )


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_700_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE)}: {lines} lines"
