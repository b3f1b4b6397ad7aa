"""Where the test data lives: inside the repository, never beside it."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
NWCHEM_DATA = DATA / "nwchem"
