"""An NWChem output with more structures than the documented 2,000 (docs/reference/results.md, Limits) loads: its geometries
are kept as coordinate arrays (FrameStore) and made into models when asked for, so
memory stays bounded, and ``get_results`` pages through them."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest

from molforma.errors import ResultsError
from molforma.nwchem.parser import parse_nwchem_file
from molforma.results import read_results
from molforma.results.frames import FrameStore
from molforma.results.limits import Limits
from molforma.results.results_model import Structure
from molforma.results.sections import get_section
from tests.paths import REPO

FIXTURE = REPO / "tests" / "data" / "nwchem" / "water_scf_optfreq.out"
STEPS = 5_000


def _long_optimisation(path: Path, steps: int) -> list[list[list[float]]]:
    """A real output's head, then ``steps`` copies of its step-1 block (the geometry
    table and the step's ``@`` line), each with the O atom moved a little and its own
    step number, then the real tail; returns the coordinates written per step."""
    lines = FIXTURE.read_text().splitlines(keepends=True)
    start = next(i for i, ln in enumerate(lines) if "Step   1" in ln) - 1
    geo = next(i for i, ln in enumerate(lines) if i > start and 'Geometry "geometry"' in ln)
    table_end = next(i for i, ln in enumerate(lines) if i > geo and "Atomic Mass" in ln)
    at = next(i for i, ln in enumerate(lines) if i > table_end and ln.startswith("@    1"))
    tail = next(i for i, ln in enumerate(lines) if "Optimization converged" in ln) - 1
    head, geometry = lines[:start], lines[geo:table_end]
    step_head = lines[at - 2 : at]
    o_row = next(k for k, ln in enumerate(geometry) if ln.split()[:2] == ["1", "O"])
    written: list[list[list[float]]] = []
    with path.open("w") as out:
        out.writelines(head)
        for s in range(1, steps + 1):
            z = 0.11 + 1e-5 * s
            block = list(geometry)
            block[o_row] = (
                f"    1 O                    8.0000     0.00000000     0.00000000     {z:.8f}\n"
            )
            coords = []
            for ln in block:
                parts = ln.split()
                if len(parts) == 6 and parts[0].isdigit():
                    coords.append([float(v) for v in parts[3:]])
            written.append(coords)
            out.write(f"\n          --------\n          Step {s:3d}\n          --------\n\n")
            out.writelines(block)
            out.write("\n")
            out.writelines(step_head)
            out.write(
                f"@ {s:4d}     -76.{10000000 + s:08d} -2.3D-04  0.00094  0.00062  "
                "0.00724  0.01213      0.4\n\n"
            )
        out.writelines(lines[tail:])
    return written


@pytest.fixture(scope="module")
def long_output(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[list[float]]]]:
    path = tmp_path_factory.mktemp("long") / "long_opt.out"
    return path, _long_optimisation(path, STEPS)


def test_an_output_with_5000_structures_loads_with_every_step(
    long_output: tuple[Path, list[list[list[float]]]],
) -> None:
    path, written = long_output
    res = read_results(str(path))  # the public reader; 2,000 structures used to be refused
    assert isinstance(res.structures, FrameStore)
    assert len(res.structures) > STEPS
    steps = [s for s in res.structures if s.label.startswith("step ")]
    assert len(steps) >= STEPS
    # step k's geometry is the one written for step k (in the reader's frame, which maps
    # every geometry back to the input's orientation: compare distances, not positions)
    by_step = {s.step: s for s in steps}
    for k in (1, 2_000, 2_001, STEPS):
        got = by_step[k]
        assert got.energy == pytest.approx(-76.1 - k * 1e-8, abs=1e-10)  # its '@' line
        oh_written = (
            sum((a - b) ** 2 for a, b in zip(written[k - 1][0], written[k - 1][1], strict=True))
            ** 0.5
        )
        c = got.coordinates
        oh_read = sum((a - b) ** 2 for a, b in zip(c[0], c[1], strict=True)) ** 0.5
        assert oh_read == pytest.approx(oh_written, abs=1e-6)
        assert got.symbols == ["O", "H", "H"]
    assert res.summary.structureCount == len(res.structures)


def test_the_frames_of_a_long_output_are_kept_in_bounded_memory(
    long_output: tuple[Path, list[list[list[float]]]],
) -> None:
    path, _ = long_output
    gc.collect()
    tracemalloc.start()
    try:
        res = parse_nwchem_file(str(path))
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    n = len(res.structures)
    assert n > STEPS
    # Everything the results keep per optimisation step: as Structure models (lists of
    # Python floats) about 3.4 kB, with the geometries as coordinate arrays about 2 kB,
    # most of it the step's energy model, kept as before.
    per_frame = kept / n
    assert per_frame < 2_700, per_frame
    assert peak < kept + 8 * 1024 * 1024  # reading streams: no whole-file copies on top


def test_get_results_pages_through_the_structures_of_a_long_output(
    long_output: tuple[Path, list[list[list[float]]]],
) -> None:
    path, _ = long_output
    res = read_results(str(path))
    total = len(res.structures)
    first = get_section(res, "structures", offset=0, limit=100)
    assert first["total"] == total and len(first["items"]) == 100
    assert first["nextOffset"] == 100
    page = get_section(res, "structures", offset=4_990, limit=5)
    assert [i["index"] for i in page["items"]] == list(range(4_990, 4_995))
    assert page["nextOffset"] == 4_995
    last = get_section(res, "structures", offset=total - 2)
    assert [i["index"] for i in last["items"]] == [total - 2, total - 1]
    assert last["nextOffset"] is None


def test_a_structure_cap_set_by_the_caller_still_refuses(
    long_output: tuple[Path, list[list[list[float]]]],
) -> None:
    path, _ = long_output
    with pytest.raises(ResultsError) as err:
        parse_nwchem_file(str(path), limits=Limits(max_structures=3_000))
    assert err.value.code == "results_too_many_structures"


def test_a_frame_store_behaves_as_the_list_of_its_structures() -> None:
    made = [
        Structure(
            index=i,
            label=f"frame {i}",
            symbols=["O", "H"] if i % 2 else ["C"],
            coordinates=[[0.1 * i, 0.0, 1.0]] * (2 if i % 2 else 1),
        )
        for i in range(7)
    ]
    store = FrameStore(made)
    assert len(store) == 7 and list(store) == made and store == made
    assert store[-1] is made[-1]  # the newest stays live: a reader fills in its energy
    assert store[2:5] == made[2:5]
    moved = made[3].model_copy(update={"coordinates": [[9.0, 9.0, 9.0]] * 2})
    store[3] = moved
    assert store[3] == moved
    with pytest.raises(IndexError):
        store[7]


BOMD = REPO / "tests" / "data" / "nwchem" / "water_scf_bomd.out"


def _long_bomd(folder: Path, steps: int) -> None:
    """A real BOMD output with its 'QMD Run Information' block repeated ``steps`` times
    (the last real block's tail after it), and NWChem's trajectory beside it with
    ``steps + 1`` frames, as the qmd module writes them."""
    lines = BOMD.read_text().splitlines(keepends=True)
    first = next(i for i, ln in enumerate(lines) if "QMD Run Information" in ln)
    last = max(i for i, ln in enumerate(lines) if "QMD Run Information" in ln)
    end = next(i for i in range(last, len(lines)) if lines[i].strip() == "" and i > last + 3)
    with (folder / "water_scf_bomd.out").open("w") as out:
        out.writelines(lines[:first])
        for s in range(1, steps + 1):
            out.write(
                "            QMD Run Information\n            -------------------\n"
                f"  Time elapsed (fs) :                     {0.241888 * s:.6f}\n"
                f"  Kin. energy (a.u.):   {s:6d}            0.001514\n"
                f"  Pot. energy (a.u.):   {s:6d}          -74.963091\n"
                f"  Tot. energy (a.u.):   {s:6d}          -74.961577\n"
                f"  Target temp. (K)  :   {s:6d}              300.00\n"
                f"  Current temp. (K) :   {s:6d}              318.74\n\n\n"
            )
        out.writelines(lines[end:])
    frame = BOMD.with_suffix(".xyz").read_text().splitlines(keepends=True)[:5]
    with (folder / "water_scf_bomd.xyz").open("w") as traj:
        for s in range(steps + 1):
            traj.write(frame[0])
            traj.write(f"    {s:6d}      -74.9621689268   0.0   0.0   0.0\n")
            traj.writelines(frame[2:5])


def test_a_bomd_run_of_2500_steps_keeps_every_frame_of_its_trajectory(tmp_path: Path) -> None:
    _long_bomd(tmp_path, 2_500)
    res = read_results(str(tmp_path / "water_scf_bomd.out"))
    md = [s for s in res.structures if s.label.startswith("md step")]
    # the trajectory beside the output was refused past 2,000 frames before
    assert len(md) == 2_500
    assert md[-1].step == 2_500 and md[-1].symbols == ["O", "H", "H"]
