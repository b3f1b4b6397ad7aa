"""The code finds its data folders beside the package or under the prefix.

What the built wheel holds, installed and run, is tested in tests/install.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from molforma import paths

ROOT = Path(__file__).resolve().parents[2]


def test_data_folders_are_found_beside_the_package_or_under_the_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert paths.data_dir("resources") == ROOT / "resources"
    fake_pkg = tmp_path / "site" / "molforma"
    fake_pkg.mkdir(parents=True)
    monkeypatch.setattr(paths, "__file__", str(fake_pkg / "paths.py"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "prefix"))
    assert (
        paths.data_dir("translations")
        == tmp_path / "prefix" / "share" / "molforma" / "translations"
    )
