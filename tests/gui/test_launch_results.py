"""An NWChem output, MOLDEN file or job folder given at launch opens in the Results tab."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from molforma.gui import launch
from molforma.gui.main_window import MainWindow
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("nh3_planar_scf_freq.out", "nwchem"),
        ("nh3_planar_scf_freq_vib.molden", "molden"),
    ],
)
def test_a_results_file_at_launch_fills_the_results_tab_not_the_molecule(
    name: str, expected: str, qapp: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, Any] = {}

    def capture(self: MainWindow, path: str, tab: str | None = None) -> int:
        seen["tab"] = tab
        seen["results"] = self.ctx.results.current
        seen["atoms"] = len(self.ctx.document.project["document"]["atoms"])
        self.ctx.document.modified = False
        self.close()
        return 0

    monkeypatch.setattr(MainWindow, "save_screenshot", capture)
    status = launch.launch_window(
        str(FIXTURES / name), False, None, False, str(tmp_path / "shot.png"), None
    )
    assert status == 0
    assert seen["tab"] == "results"
    assert seen["results"] is not None and seen["results"].kind == expected
    assert any(m.imaginary for m in seen["results"].modes)
    assert seen["atoms"] == 0  # the edited document is untouched


def test_structure_files_are_not_results_sources(tmp_path: Path) -> None:
    xyz = tmp_path / "w.xyz"
    xyz.write_text("1\nx\nHe 0 0 0\n")
    assert not launch.is_results_source(str(xyz))
    assert launch.is_results_source(str(tmp_path))
    assert launch.is_results_source(str(FIXTURES / "water_scf_optfreq.out"))
