"""A QM region cut out of a protein: kept atoms, link-atom caps, total charge (no Qt).

The region is a set of atoms (a ligand and what lies within R Å of it, see
:mod:`molforma.document.residues`). Cutting it out breaks the covalent bonds that join a
kept atom to a dropped one; each is capped with a hydrogen (a link atom) on the line of
the cut bond, at the X–H length of the kept atom's element (C–H 1.09 Å, N–H 1.01 Å,
O–H 0.96 Å, S–H 1.34 Å, P–H 1.42 Å; else the sum of covalent radii), as QM/MM programs
place them. The caps may be fixed (their positions are then not optimised).

The total charge is summed per residue: amino acids by their standard charged groups
(ASP/GLU −1, LYS/ARG +1, HIS 0) or, when the residue has hydrogens, by the hydrogens
present on those groups (HIS with HD1 and HE2 is +1, ASP with HD2 is 0, ...), an
N-terminus +1 and a C-terminus (OXT) −1 likewise; any other residue (a ligand, an
ion) by its atoms' formal charges, a lone ion of no formal charge by its usual charge.
A group counts when its atoms are in the region.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from molforma.document import elements
from molforma.document.molecule import AtomTable, BondTable
from molforma.document.residue_names import AMINO_ACIDS
from molforma.document.residues import ResidueColumns, residue_columns

LINK_LENGTH: Final = {
    "C": 1.09,
    "N": 1.01,
    "O": 0.96,
    "S": 1.34,
    "P": 1.42,
    "Si": 1.48,
    "B": 1.19,
    "Se": 1.46,
}
_H = 1
# Usual charges of single-atom ions written without a formal charge.
ION_CHARGE: Final = {
    "NA": 1,
    "K": 1,
    "LI": 1,
    "MG": 2,
    "CA": 2,
    "ZN": 2,
    "MN": 2,
    "FE": 2,
    "CO": 2,
    "NI": 2,
    "CU": 2,
    "CD": 2,
    "CL": -1,
    "BR": -1,
    "IOD": -1,
    "F": -1,
}
# Charge of a residue named by its protonation state (no hydrogens needed to tell).
_NAMED: Final = {
    "HIP": 1,
    "HSP": 1,
    "HID": 0,
    "HIE": 0,
    "HSD": 0,
    "HSE": 0,
    "ASH": 0,
    "GLH": 0,
    "LYN": 0,
    "CYM": -1,
    "CYX": 0,
}
# Side-chain groups: (atoms of the group, charge without hydrogens, neutral hydrogens).
# With hydrogens present the charge is (hydrogens on the group) - (neutral hydrogens).
_GROUPS: Final = {
    "ASP": (("OD1", "OD2"), -1, 1),
    "GLU": (("OE1", "OE2"), -1, 1),
    "LYS": (("NZ",), 1, 2),
    "ARG": (("NE", "NH1", "NH2"), 1, 4),
    "HIS": (("ND1", "NE2"), 0, 1),
}


@dataclass
class Region:
    """What :func:`cut_region` made: the region's tables and how it was cut."""

    atoms: AtomTable
    bonds: BondTable
    cap_ids: list[str] = field(default_factory=list)
    charge: int = 0
    charges: list[dict[str, Any]] = field(default_factory=list)  # per charged residue


def _rows(atoms: AtomTable, bonds: BondTable) -> tuple[np.ndarray, np.ndarray]:
    return bonds.rows_in(atoms)


def h_counts(atoms: AtomTable, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hydrogens bonded to each atom row."""
    is_h = atoms.z == _H
    n = len(atoms)
    return np.bincount(a[is_h[b]], minlength=n) + np.bincount(b[is_h[a]], minlength=n)


def link_length(symbol: str) -> float:
    """The X–H length of a cap on an atom of element ``symbol``."""
    if symbol in LINK_LENGTH:
        return LINK_LENGTH[symbol]
    return elements.covalent_radius(symbol) + elements.covalent_radius("H")


def region_charge(
    atoms: AtomTable, a: np.ndarray, b: np.ndarray, keep: np.ndarray, columns: ResidueColumns | None
) -> tuple[int, list[dict[str, Any]]]:
    """The total charge of the atoms ``keep`` (mask) and the charged residues' share."""
    charges = atoms.charge.astype(np.int64)
    if columns is None:
        total = int(charges[keep].sum())
        return total, []
    hcount = h_counts(atoms, a, b)
    heavy = np.bincount(a[atoms.z[b] != _H], minlength=len(atoms)) + np.bincount(
        b[atoms.z[a] != _H], minlength=len(atoms)
    )
    # an N bonded to a C of another residue is in a peptide bond (not a terminus)
    res = columns.index
    peptide = np.zeros(len(atoms), bool)
    cross = res[a] != res[b]
    peptide[a[cross]] = True
    peptide[b[cross]] = True
    atom_names = atoms.names if atoms.names is not None else np.full(len(atoms), "", dtype=object)
    total = 0
    out: list[dict[str, Any]] = []
    loose = (res < 0) & keep
    total += int(charges[loose].sum())
    for r in np.unique(res[keep & (res >= 0)]).tolist():
        rows = np.flatnonzero(res == r)
        inside = rows[keep[rows]]
        name = str(columns.name[rows[0]]).upper()
        by_name = {str(atom_names[k]).upper(): int(k) for k in rows.tolist()}
        kept_names = {str(atom_names[k]).upper() for k in inside.tolist()}
        has_h = bool((atoms.z[rows] == _H).any())
        q = 0
        if name in AMINO_ACIDS:
            group = _GROUPS.get(
                "HIS" if name in ("HID", "HIE", "HIP", "HSD", "HSE", "HSP") else name
            )
            if group is not None and kept_names & set(group[0]):
                atoms_of = [by_name[g] for g in group[0] if g in by_name]
                if name in _NAMED and not has_h:
                    q += _NAMED[name]
                elif has_h:
                    q += int(hcount[atoms_of].sum()) - group[2]
                else:
                    q += group[1]
            elif name in _NAMED and name not in ("HID", "HIE", "HIP", "HSD", "HSE", "HSP"):
                q += _NAMED[name]
            n_row = by_name.get("N")
            if n_row is not None and "N" in kept_names and not peptide[n_row]:
                # an N-terminus: NH3+ (+1), NH2 (0) as its hydrogens say
                q += int(hcount[n_row] + heavy[n_row]) - 3 if has_h else 1
            oxt = by_name.get("OXT")
            if oxt is not None and "OXT" in kept_names:
                o = by_name.get("O")
                held = int(hcount[oxt]) + (int(hcount[o]) if o is not None else 0)
                q += held - 1 if has_h else -1
        else:
            q = int(charges[inside].sum())
            if not q and len(rows) == 1 and name in ION_CHARGE:
                q = ION_CHARGE[name]
        if q:
            out.append({"residue": columns.label(int(rows[0])), "charge": q})
        total += q
    return total, out


def cut_region(
    atoms: AtomTable,
    bonds: BondTable,
    keep: np.ndarray,
    next_id: int,
    *,
    cap: bool = True,
    fix_caps: bool = False,
    set_charge: bool = True,
) -> Region:
    """The atoms ``keep`` (a mask over the rows) with their bonds, each cut bond capped
    with a hydrogen numbered from ``next_id`` on; the region's charge when asked."""
    a, b = _rows(atoms, bonds)
    keep = np.asarray(keep, dtype=bool)
    columns = residue_columns(atoms)
    charge, charges = region_charge(atoms, a, b, keep, columns) if set_charge else (0, [])
    inner = keep[a] & keep[b]
    kept_rows = np.flatnonzero(keep)
    region = atoms.take(kept_rows)
    region_bonds = bonds.take(np.flatnonzero(inner))
    cap_ids: list[str] = []
    if cap:
        cut = keep[a] != keep[b]
        inside = np.where(keep[a[cut]], a[cut], b[cut])
        outside = np.where(keep[a[cut]], b[cut], a[cut])
        if len(inside):
            symbols = atoms.symbols[inside].tolist()
            length = np.array([link_length(s) for s in symbols])
            d = atoms.xyz[outside] - atoms.xyz[inside]
            unit = d / np.linalg.norm(d, axis=1)[:, None]
            xyz = atoms.xyz[inside] + unit * length[:, None]
            ids = np.arange(next_id, next_id + len(inside), dtype=np.int64)
            cap_ids = [f"a{i}" for i in ids.tolist()]
            records = region.to_records()
            parent = {int(i): k for k, i in enumerate(region.ids.tolist())}
            for cid, p, (x, y, z) in zip(
                cap_ids, atoms.ids[inside].tolist(), xyz.tolist(), strict=True
            ):
                rec = {
                    "id": cid,
                    "element": "H",
                    "x": x,
                    "y": y,
                    "z": z,
                    "name": "HL",
                    "formalCharge": 0,
                    "unpairedElectrons": 0,
                    "massNumber": None,
                    "mass": None,
                    "fixed": bool(fix_caps),
                }
                # the cap belongs to its atom's residue (written back into it in a PDB)
                src = records[parent[int(p)]]
                for key in ("residueName", "residueNumber", "chain", "insertionCode"):
                    if key in src:
                        rec[key] = src[key]
                records.append(rec)
            region = AtomTable.from_records(records)
            cap_bonds = BondTable.from_records(
                [
                    {"a": f"a{p}", "b": cid, "order": 1}
                    for p, cid in zip(atoms.ids[inside].tolist(), cap_ids, strict=True)
                ]
            )
            region_bonds = BondTable(
                np.concatenate([region_bonds.a, cap_bonds.a]),
                np.concatenate([region_bonds.b, cap_bonds.b]),
                np.concatenate([region_bonds.order, cap_bonds.order]),
            )
    return Region(region, region_bonds, cap_ids, charge, charges)


def region_mask(
    atoms: AtomTable,
    *,
    atom_ids: Sequence[str] = (),
    names: Sequence[str] = (),
    numbers: Sequence[int] = (),
    chains: Sequence[str] = (),
    radius: float = 0.0,
    whole: bool = True,
) -> np.ndarray:
    """The mask of a region: the atoms named (by id, and/or by residue name, number and
    chain) and, with ``radius``, all within ``radius`` Å of them (grown to whole
    residues when ``whole``)."""
    from molforma.document.residues import select_residues, whole_residues, within

    seeds = np.zeros(len(atoms), bool)
    if atom_ids:
        rows = atoms.rows_of(list(atom_ids))
        seeds[rows[rows >= 0]] = True
    columns = residue_columns(atoms)
    if (names or numbers or chains) and columns is not None:
        seeds |= select_residues(columns, names=names, numbers=numbers, chains=chains)
    mask = within(atoms.xyz, seeds, radius) if radius > 0 else seeds
    if whole and columns is not None and radius > 0:
        mask = whole_residues(columns, mask)
    return mask
