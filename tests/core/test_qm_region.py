"""A QM region cut out of a real small protein–ligand structure (core).

The structure is made by RDKit (tests/protein_ligand.py): a 15-residue peptide with
charged groups and an acetate ligand next to it, written as PDB. Opened through the
application's open, the ligand is selected by residue name, the region within R Å
(whole residues) is extracted, every cut bond is capped along the bond and the charge
is the one RDKit's formal charges give for the same atoms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from molforma.app import document_files
from molforma.app.actor import Actor
from molforma.app.qm_region import extract_qm_region, qm_region_document
from molforma.document.document import Document
from molforma.document.region_cut import LINK_LENGTH
from molforma.document.residues import residue_columns, select_residues, whole_residues, within
from molforma.errors import UnknownAtomError, ValidationError
from molforma.preferences import Preferences
from tests.protein_ligand import formal_charges, protein_ligand_pdb


@dataclass
class _App:
    document: Document = field(default_factory=Document)
    preferences: Preferences = field(default_factory=Preferences)
    policy: Any = None
    jobs: Any = None

    def set_document(self, document: Document) -> None:
        self.document = document


@pytest.fixture
def opened(tmp_path: Path) -> Document:
    path = tmp_path / "complex.pdb"
    path.write_text(protein_ligand_pdb())
    app = _App()
    document_files.open_file(app, str(path), actor=Actor.PERSON, preview=False)
    return app.document


def _atoms(doc: Document) -> Any:
    return doc.project["document"]["atoms"]


def test_residue_selection_and_within(opened: Document) -> None:
    atoms = _atoms(opened)
    cols = residue_columns(atoms)
    assert cols is not None and cols.count == 16  # 15 residues and the ligand
    lig = select_residues(cols, names=["lig"])
    assert lig.sum() == 7 and set(cols.chain[lig]) == {"B"}
    assert select_residues(cols, chains=["A"]).sum() == len(atoms) - 7
    assert select_residues(cols, names=["LYS"], numbers=[13]).sum() == 22
    near = within(atoms.xyz, lig, 4.0)
    # the same set measured the slow way
    d = np.linalg.norm(atoms.xyz[:, None] - atoms.xyz[lig][None], axis=2).min(axis=1)
    assert np.array_equal(near, d <= 4.0)
    grown = whole_residues(cols, near)
    assert grown.sum() > near.sum()
    assert set(np.unique(cols.index[grown])) == set(np.unique(cols.index[near]))


def test_extract_caps_and_charge(opened: Document) -> None:
    before = _atoms(opened)
    bonds = opened.project["document"]["bonds"]
    cols = residue_columns(before)
    out = extract_qm_region(opened, residue_names=["LIG"], within=4.0, preview=False)
    info = out["info"]
    region = _atoms(opened)
    kept = np.isin(before.ids, region.ids)
    assert kept.sum() + len(info["caps"]) == len(region) == info["atomCount"]
    assert 7 < kept.sum() < len(before)
    # whole residues: each residue touched is whole
    for r in np.unique(cols.index[kept]):
        assert kept[cols.index == r].all()
    # one cap per bond cut, on the line of the cut bond at the X-H length
    a, b = bonds.rows_in(before)
    cut = kept[a] != kept[b]
    assert cut.sum() == len(info["caps"]) > 0
    inside = np.where(kept[a[cut]], a[cut], b[cut])
    outside = np.where(kept[a[cut]], b[cut], a[cut])
    caps = region.take(region.rows_of(info["caps"]))
    for k, (i, o) in enumerate(zip(inside, outside, strict=True)):
        h = caps.xyz[k]
        x, y = before.xyz[i], before.xyz[o]
        assert np.linalg.norm(h - x) == pytest.approx(LINK_LENGTH[before.symbols[i]], abs=1e-9)
        # along the bond: the cap lies on the segment X-Y
        assert np.linalg.norm(np.cross(h - x, y - x)) < 1e-9
        assert caps.symbols[k] == "H"
    # the charge RDKit's formal charges give for the same atoms (no charge in the file's
    # ATOM records: it comes from the residues and the H atoms present)
    q = np.array(formal_charges())
    assert info["charge"] == int(q[kept].sum())
    assert opened.project["document"]["charge"] == info["charge"]
    assert any(c["residue"].startswith("LIG") and c["charge"] == -1 for c in info["charges"])
    # undo gives the whole protein back
    opened.undo()
    assert len(_atoms(opened)) == len(before)


def test_region_charges_of_every_residue(opened: Document) -> None:
    """The whole structure kept: the charges of all residues and termini add up."""
    out = extract_qm_region(opened, chains=["A", "B"], within=0.0, preview=False)
    assert out["info"]["caps"] == []
    assert out["info"]["charge"] == sum(formal_charges()) == 0
    assert len(out["info"]["charges"]) == 8


def test_fixed_caps_and_candidate(opened: Document) -> None:
    out = extract_qm_region(opened, residue_names=["LIG"], within=3.5, fix_caps=True)
    assert out["candidate"] is not None
    cand = opened.candidate["document"]["atoms"]
    caps = cand.take(cand.rows_of(out["info"]["caps"]))
    assert caps.fixed.all() and len(caps)


def test_bad_region_requests_change_nothing(opened: Document) -> None:
    rev = opened.revision
    with pytest.raises(ValidationError) as err:
        extract_qm_region(opened, residue_names=["XYZ"], within=5.0)
    assert err.value.code == "qm_region_empty"
    with pytest.raises(ValidationError):
        extract_qm_region(opened, within=5.0)
    with pytest.raises(ValidationError) as err:
        extract_qm_region(opened, residue_names=["LIG"], within=-1)
    assert err.value.code == "qm_region_radius"
    with pytest.raises(UnknownAtomError):
        extract_qm_region(opened, atom_ids=["a99999"], within=5.0)
    assert opened.revision == rev and opened.candidate is None


def test_an_applied_region_is_a_new_untitled_project(tmp_path: Path, opened: Document) -> None:
    """Saving the region never writes over the protein's file; undo gives both back."""
    opened.mark_saved(str(tmp_path / "complex.molforma.json"))
    title = opened.title
    extract_qm_region(opened, residue_names=["LIG"], within=4.0, preview=False)
    assert opened.path is None and opened.modified
    assert opened.title.endswith("QM region") and opened.title != title
    opened.undo()
    assert opened.path == str(tmp_path / "complex.molforma.json") and opened.title == title
    opened.redo()
    assert opened.path is None


def test_region_into_a_new_document_leaves_the_protein(opened: Document) -> None:
    rev, before = opened.revision, _atoms(opened)
    opened.trusted = {**opened.trusted, "executable": "nwchem-trusted"}
    new, out = qm_region_document(opened, residue_names=["LIG"], within=4.0, actor=Actor.MCP_TOOL)
    assert opened.revision == rev and _atoms(opened) is before and opened.candidate is None
    region = _atoms(new)
    assert len(region) == out["info"]["atomCount"] < len(before)
    assert new.id != opened.id and out["revision"] == new.revision
    assert new.project["document"]["charge"] == out["info"]["charge"]
    assert new.trusted["executable"] == "nwchem-trusted"
    assert new.path is None and new.modified and not new.can_undo
    # the settings came with it
    assert new.project["calculation"] == opened.project["calculation"]
    with pytest.raises(ValidationError):
        qm_region_document(opened, residue_names=["XYZ"], within=1.0)
    assert opened.revision == rev
