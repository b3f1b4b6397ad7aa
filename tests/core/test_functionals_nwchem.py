"""Every entry of the functional table, written by MolForma's own input writer, run by the
real NWChem (marked ``nwchem`` and ``slow``): water / STO-3G, one energy each, two at a time.

An entry must finish with a total DFT energy; a range-separated one must have NWChem echo
its range-separation parameters (the cam line was read, not ignored), and a -D one its
dispersion correction. An entry marked as needing a newer NWChem than the one installed
must make this NWChem stop on its xc keyword — so the release the table states is checked
too, whichever NWChem runs the tests.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from molforma.catalog import get_catalog
from molforma.nwchem.input import render_input
from tests.core.test_nwchem_input import water

pytestmark = [
    pytest.mark.nwchem,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("nwchem") is None, reason="NWChem is not installed"),
]

ENTRIES = get_catalog("functionals")["functionals"]


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("."))


def _run(folder: Path, text: str) -> tuple[int, str]:
    folder.mkdir(parents=True)
    (folder / "molforma.nw").write_text(text)
    done = subprocess.run(
        ["nwchem", "molforma.nw"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, int, str]]:
    """name -> (input, return code, output) for every table entry."""
    root = tmp_path_factory.mktemp("functionals")
    inputs = {}
    for entry in ENTRIES:
        project = water(theory="dft", functional=entry["name"], basis="sto-3g")
        project["advanced"].update(dft_iterations=40, dft_grid="coarse")
        inputs[entry["name"]] = render_input(project)
    # Two at a time: each run is about a second; the machine's cores are shared.
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = dict(
            zip(inputs, pool.map(lambda kv: _run(root / kv[0], kv[1]), inputs.items()), strict=True)
        )
    return {name: (inputs[name], *done[name]) for name in inputs}


def _installed(runs: dict[str, tuple[str, int, str]]) -> tuple[int, ...]:
    out = runs["b3lyp"][2]
    m = re.search(r"Northwest Computational Chemistry Package \(NWChem\) (\d+\.\d+(?:\.\d+)?)", out)
    assert m, "NWChem printed no version"
    return _version(m.group(1))


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["name"])
def test_nwchem_runs_every_table_functional_as_molforma_writes_it(
    entry: dict[str, Any], runs: dict[str, tuple[str, int, str]]
) -> None:
    text, rc, out = runs[entry["name"]]
    dft = text[text.index("\ndft\n") : text.index("\nend\n", text.index("\ndft\n"))]
    assert f"  xc {entry['xc']}\n" in dft + "\n"
    for line in entry.get("lines", ()):
        assert f"  {line}" in dft.splitlines()
    since = entry.get("nwchem")
    if since and _installed(runs) < _version(since):
        # The table says this NWChem is too old: it must indeed refuse the keyword.
        assert rc != 0 and "xc_input: invalid format" in out, out[-1500:]
        return
    assert rc == 0, out[-2000:]
    energies = re.findall(r"Total DFT energy =\s+(-?\d+\.\d+)", out)
    assert energies and -80.0 < float(energies[-1]) < -70.0, energies
    cam = next((x for x in entry.get("lines", ()) if x.startswith("cam ")), None)
    if cam is not None:
        words = cam.split()
        omega, alpha, beta = (float(words[i]) for i in (1, 3, 5))
        block = out[out.index("Range-Separation Parameters") :][:400]
        assert float(re.search(r"Alpha\s+:\s+(\S+)", block)[1]) == pytest.approx(alpha)
        assert float(re.search(r"Beta\s+:\s+(\S+)", block)[1]) == pytest.approx(beta)
        assert float(re.search(r"Gamma\s+:\s+(\S+)", block)[1]) == pytest.approx(omega)
    if any(x.startswith("disp ") for x in entry.get("lines", ())):
        assert "Dispersion Parameters" in out
        assert re.search(r"Dispersion correction =\s+-?\d", out), out[-1500:]


def test_a_hand_written_xc_without_its_cam_line_is_why_range_separation_is_refused(
    tmp_path: Path,
) -> None:
    """The fact behind functional_needs_range_separation: NWChem runs attenuated B88
    without a cam line and prints an energy nowhere near CAM-B3LYP's."""
    good = water(theory="dft", functional="cam-b3lyp", basis="sto-3g")
    text = render_input(good)
    bare = text.replace("  cam 0.33 cam_alpha 0.19 cam_beta 0.46\n", "")
    assert bare != text
    rc_good, out_good = _run(tmp_path / "good", text)
    rc_bare, out_bare = _run(tmp_path / "bare", bare)
    assert rc_good == 0 and rc_bare == 0
    e_good = float(re.findall(r"Total DFT energy =\s+(-?\d+\.\d+)", out_good)[-1])
    e_bare = float(re.findall(r"Total DFT energy =\s+(-?\d+\.\d+)", out_bare)[-1])
    assert abs(e_bare - e_good) > 1.0
