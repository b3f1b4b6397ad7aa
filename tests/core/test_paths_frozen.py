"""molforma.paths in the frozen bundle: the data folders are the bundle's own."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from molforma import paths
from tests.paths import REPO


def test_checkout_data_beside_the_package() -> None:
    assert paths.bundle_dir() is None
    assert paths.data_dir("translations") == REPO / "translations"


def test_frozen_program_reads_its_bundle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert paths.bundle_dir() == tmp_path
    # Even where a checkout's folder would be found beside the package.
    assert paths.data_dir("resources") == tmp_path / "resources"
    assert paths.data_dir("translations") == tmp_path / "translations"
