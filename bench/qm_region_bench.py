"""A QM region cut from a 50,000-atom protein: time from open to a runnable NWChem input.

Usage::

    .venv/bin/python bench/qm_region_bench.py [--atoms 50000] [--radius 6] [--repeat 5]
        [--out bench/results]

The protein is generated: the 15-residue peptide of ``tests/protein_ligand.py`` (charged
side chains, hydrogens, 3D coordinates from RDKit) repeated on a grid in a box, each copy
its own chain and residue numbers, and one acetate ligand (LIG) in the middle of the box,
written as one PDB file with CONECT records. Each repeat runs the application path the
window and MCP run, on a fresh document:

1. open the PDB (``app.document_files.open_file``);
2. select the ligand by residue name, take everything within R Å (whole residues),
   extract it, cap every cut bond with a hydrogen and set the charge
   (``app.qm_region.extract_qm_region``, one undo step);
3. generate the NWChem input of the region (``app.document_files.export_document``).

Stages are timed within each repeat (the three stages interleaved, repeat after repeat)
and reported as medians with min/max through ``bench/harness.py``, with the region's
atom count, caps and charge, to ``bench/results/qm_region_bench.json``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from harness import Report, Side, add_output_argument  # noqa: E402

from molforma.app import document_files  # noqa: E402
from molforma.app.actor import Actor  # noqa: E402
from molforma.app.qm_region import extract_qm_region  # noqa: E402
from molforma.document.document import Document  # noqa: E402
from molforma.preferences import Preferences  # noqa: E402
from tests.protein_ligand import protein_ligand_pdb  # noqa: E402

CHAINS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class _App:
    document: Document = field(default_factory=Document)
    preferences: Preferences = field(default_factory=Preferences)
    policy: Any = None
    jobs: Any = None

    def set_document(self, document: Document) -> None:
        self.document = document


def protein_pdb(atoms: int) -> str:
    """A PDB of about ``atoms`` atoms: peptide copies on a grid, the ligand in the middle."""
    lines = protein_ligand_pdb().splitlines()
    records = [ln for ln in lines if ln.startswith(("ATOM", "HETATM"))]
    conect = [ln for ln in lines if ln.startswith("CONECT")]
    peptide = [ln for ln in records if ln.startswith("ATOM")]
    ligand = [ln for ln in records if ln.startswith("HETATM")]
    n_pep = len(peptide)
    xyz = np.array([[float(ln[30:38]), float(ln[38:46]), float(ln[46:54])] for ln in peptide])
    centre = xyz.mean(axis=0)
    size = xyz.max(axis=0) - xyz.min(axis=0) + 1.5  # copies packed about as tight as a protein
    copies = max(1, atoms // n_pep)
    side = int(np.ceil(copies ** (1 / 3)))
    out: list[str] = []
    bonds: list[str] = []
    serial = 0
    for k in range(copies):
        cell = np.array([k % side, (k // side) % side, k // (side * side)])
        shift = cell * size - centre
        base = serial
        chain = CHAINS[k % 26]
        offset = 15 * (k // 26)
        for ln in peptide:
            serial += 1
            x, y, z = np.array([float(ln[30:38]), float(ln[38:46]), float(ln[46:54])]) + shift
            number = int(ln[22:26]) + offset
            out.append(
                f"{ln[:6]}{serial:>5}{ln[11:21]}{chain}{number:>4}{ln[26:30]}"
                f"{x:8.3f}{y:8.3f}{z:8.3f}{ln[54:]}"
            )
        for ln in conect:
            nums = [int(ln[i : i + 5]) for i in range(6, len(ln.rstrip()), 5)]
            if nums[0] <= n_pep:
                bonds.append("CONECT" + "".join(f"{v + base:>5}" for v in nums))
    # the ligand in the middle of the box, in a gap between copies (>= 2.5 Å from them)
    every = np.array([[float(ln[30:38]), float(ln[38:46]), float(ln[46:54])] for ln in out])
    lig = np.array([[float(ln[30:38]), float(ln[38:46]), float(ln[46:54])] for ln in ligand])
    lig -= lig.mean(axis=0)
    rng = np.random.default_rng(1)
    middle = every.mean(axis=0)
    for _ in range(10_000):
        spot = middle + rng.normal(scale=4.0, size=3)
        if np.min(np.linalg.norm(every[:, None] - (lig + spot)[None], axis=2)) >= 2.5:
            break
    ligand_shift = spot - np.array(
        [[float(ln[30:38]), float(ln[38:46]), float(ln[46:54])] for ln in ligand]
    ).mean(axis=0)
    base = serial
    for ln in ligand:
        serial += 1
        x, y, z = np.array([float(ln[30:38]), float(ln[38:46]), float(ln[46:54])]) + ligand_shift
        out.append(
            f"{ln[:6]}{serial:>5}{ln[11:21]}Z9999{ln[26:30]}{x:8.3f}{y:8.3f}{z:8.3f}{ln[54:]}"
        )
    for ln in conect:
        nums = [int(ln[i : i + 5]) for i in range(6, len(ln.rstrip()), 5)]
        if nums[0] > n_pep:
            bonds.append("CONECT" + "".join(f"{v - n_pep + base:>5}" for v in nums))
    return "\n".join([*out, *bonds, "END"]) + "\n"


def run_once(path: Path, radius: float) -> dict[str, Any]:
    app = _App()
    t0 = time.perf_counter()
    document_files.open_file(app, str(path), actor=Actor.PERSON, preview=False)
    t1 = time.perf_counter()
    out = extract_qm_region(app.document, residue_names=["LIG"], within=radius, preview=False)
    t2 = time.perf_counter()
    text = document_files.export_document(app.document, "nwchem")
    t3 = time.perf_counter()
    assert "task" in text and f"charge {out['info']['charge']}" in text
    return {
        "open": t1 - t0,
        "extract": t2 - t1,
        "input": t3 - t2,
        "total": t3 - t0,
        "atoms": out["info"]["atomCount"],
        "caps": len(out["info"]["caps"]),
        "charge": out["info"]["charge"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--atoms", type=int, default=50_000)
    ap.add_argument("--radius", type=float, default=6.0)
    ap.add_argument("--repeat", type=int, default=5)
    add_output_argument(ap)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "protein.pdb"
        path.write_text(protein_pdb(args.atoms))
        count = sum(1 for ln in path.read_text().splitlines() if ln.startswith(("ATOM", "HETATM")))
        run_once(path, args.radius)  # warm-up (imports, RDKit)
        runs = [run_once(path, args.radius) for _ in range(args.repeat)]
    first = runs[0]
    region = f"region {first['atoms']} atoms ({first['caps']} link H, charge {first['charge']})"
    report = Report(
        "qm_region_bench",
        f"python bench/qm_region_bench.py --atoms {args.atoms} "
        f"--radius {args.radius:g} --repeat {args.repeat}",
    )
    for key, what in (
        ("open", f"QM region: open a {count:,}-atom protein PDB"),
        (
            "extract",
            f"QM region: ligand + within {args.radius:g} Å (whole residues), extract, cap, charge",
        ),
        ("input", "QM region: NWChem input of the region"),
        ("total", "QM region: open → runnable NWChem input"),
    ):
        side = Side(seconds=[r[key] for r in runs])
        report.add_single(key, what, side, label="MolForma", note=region if key == "total" else "")
    report.write(args.out)


if __name__ == "__main__":
    main()
