"""A built wheel carries the resources and translations, and the code finds them there."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from molforma import __version__, paths

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_ships_every_catalogue_and_compiled_translation(tmp_path: Path) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=600,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    (wheel,) = tmp_path.glob("molforma-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    data = f"molforma-{__version__}.data/data/share/molforma/"
    for f in sorted((ROOT / "resources").glob("*.json")):
        assert data + "resources/" + f.name in names
    for f in sorted((ROOT / "translations").glob("*.qm")):
        assert data + "translations/" + f.name in names
    assert "molforma/cli.py" in names


def test_data_folders_are_found_beside_the_package_or_under_the_prefix(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert paths.data_dir("resources") == ROOT / "resources"
    fake_pkg = tmp_path / "site" / "molforma"
    fake_pkg.mkdir(parents=True)
    monkeypatch.setattr(paths, "__file__", str(fake_pkg / "paths.py"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "prefix"))
    assert paths.data_dir("translations") == tmp_path / "prefix" / "share" / "molforma" / "translations"
