"""Results of a real NWChem run: a DFT optimisation + frequencies job folder."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from molforma.results import ResultsSession, get_section, read_results

pytestmark = pytest.mark.nwchem

INPUT = """start water
geometry units angstrom noautosym noautoz nocenter
 O  0.0  0.0   0.1173
 H  0.0  0.80 -0.4692
 H  0.0 -0.80 -0.4692
end
basis
 * library sto-3g
end
dft
 xc b3lyp
end
freq
 animate
end
task dft optimize
task dft freq
"""

UNCONVERGED = """start bad
geometry units angstrom
 O 0.0 0.0 0.1173
 H -0.7572 0.0 -0.4692
 H 0.7572 0.0 -0.4692
end
basis
 * library sto-3g
end
dft
 xc b3lyp
 iterations 3
end
task dft energy
"""


def _run(folder: Path, text: str) -> int:
    exe = shutil.which("nwchem")
    if exe is None:
        pytest.skip("nwchem is not installed")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "input.nw").write_text(text)
    with (folder / "output.out").open("w") as out:
        proc = subprocess.run(
            [exe, "input.nw"],
            cwd=folder,
            stdout=out,
            stderr=subprocess.DEVNULL,
            timeout=300,
            check=False,
        )
    return proc.returncode


def test_a_real_dft_optimisation_and_frequency_job_folder_reads_completely(
    tmp_path: Path,
) -> None:
    job = tmp_path / "job"
    assert _run(job, INPUT) == 0
    session = ResultsSession()
    h = session.open_directory(str(job))
    assert h.wait(60) and h.status == "completed", h.error
    res = session.current
    assert res.resolvedPath == str(job / "output.out")
    s = res.summary
    assert s.optimizationConverged is True
    assert s.scfConverged is True
    assert s.completed is True
    assert s.energiesByKind["dft"] < -74.0
    steps = [e for e in res.energies if e.kind == "optimization"]
    assert len(steps) == s.optimizationSteps >= 2
    assert steps[-1].energy == pytest.approx(s.finalEnergy, abs=1e-6)
    assert res.structures[-1].label == "final"
    assert s.modeCount == 9
    real = [m for m in res.modes if m.frequency > 100]
    assert len(real) == 3
    assert all(m.irIntensity is not None and m.hasDisplacements for m in real)
    assert s.significantImaginaryModes == 0
    # "freq; animate" wrote one group of step files per mode, listed once per mode.
    anims = [f for f in res.files if f.kind == "vibration-animation"]
    assert len(anims) == 9
    assert all(f.steps and f.steps > 1 for f in anims)
    last = anims[-1]
    anim = read_results(last.path)
    assert anim.kind == "animation"
    assert len(anim.structures) == last.steps
    assert anim.structures[0].symbols == ["O", "H", "H"]
    page = get_section(res, "mode_displacements", mode=real[0].index)
    assert len(page["items"]) == 3


def test_a_real_unconverged_dft_run_reports_the_failure(tmp_path: Path) -> None:
    job = tmp_path / "bad"
    assert _run(job, UNCONVERGED) != 0
    res = read_results(str(job))
    assert res.summary.scfConverged is False
    assert "dft energy failed" in [e.message for e in res.summary.errors]
    assert res.summary.errors[0].inputLine == "task dft energy"
