"""Tripos Mol2 files, read with RDKit (no Qt).

A line checker reads the ``@<TRIPOS>MOLECULE``, ``ATOM`` and ``BOND`` sections
first (so a broken file is reported with its line), then RDKit builds the
molecule: SYBYL atom types give formal charges (``N.4`` is N+), aromatic
(``ar``) bonds are kekulized. When RDKit refuses the typing (unusual valences),
the checked sections are used directly with ``ar`` bonds kekulized where
possible. Atom names are kept (at most 16 characters); ids, partial charges and
substructures are not. A file with several molecules gives the one chosen by
``frame`` (0-based, the first when None).
"""

from __future__ import annotations

from typing import Any

from rdkit import Chem

from molforma.document.envelope import new_atom
from molforma.formats.common import (
    Structure,
    clean_name,
    element_from_label,
    fail,
    make_atom,
    numbered_lines,
    pick_frame,
    syntax,
    to_float,
    to_int,
)
from molforma.formats.rdkit_bridge import bonds_with_aromatic, document_from_mol, quiet

FMT = "mol2"
_BOND_TYPES = {"1": 1, "2": 2, "3": 3, "am": 1, "ar": 4, "du": 1, "un": 1}


def _molecules(lines: list[str]) -> list[int]:
    """Indices of the ``@<TRIPOS>MOLECULE`` lines."""
    return [i for i, line in enumerate(lines) if line.strip().upper() == "@<TRIPOS>MOLECULE"]


def _parse(
    lines: list[str], start: int, stop: int
) -> tuple[str, list[dict[str, Any]], list[tuple[int, int, int]]]:
    """Title, atoms (a1..) and bonds (index pairs, order; 4 = aromatic) of one molecule."""
    if start + 2 >= stop:
        fail(
            "format_truncated",
            FMT,
            stop + 1,
            reason="MOLECULE section too short",
            expected="name and counts lines",
        )
    title = lines[start + 1].strip()
    counts = lines[start + 2].split()
    if not counts:
        syntax(FMT, start + 3, "the counts line is empty")
    natoms = to_int(counts[0], FMT, start + 3, "atom count")
    nbonds = to_int(counts[1], FMT, start + 3, "bond count") if len(counts) > 1 else 0
    sections: dict[str, int] = {}
    for i in range(start + 1, stop):
        s = lines[i].strip().upper()
        if s.startswith("@<TRIPOS>"):
            sections.setdefault(s[9:], i)
    if "ATOM" not in sections:
        fail(
            "format_truncated",
            FMT,
            stop + 1,
            reason="no @<TRIPOS>ATOM section",
            expected="an @<TRIPOS>ATOM section",
        )
    atoms: list[dict[str, Any]] = []
    serials: dict[int, int] = {}
    i = sections["ATOM"] + 1
    while len(atoms) < natoms:
        if i >= stop or lines[i].strip().startswith("@<TRIPOS>"):
            fail(
                "format_atom_count",
                FMT,
                i + 1,
                reason="fewer atom lines than announced",
                expected=natoms,
                found=len(atoms),
            )
        parts = lines[i].split()
        if not parts:
            i += 1
            continue
        if len(parts) < 6:
            syntax(FMT, i + 1, "an atom line needs id, name, x, y, z and type")
        serial = to_int(parts[0], FMT, i + 1, "atom id")
        x, y, z = (to_float(p, FMT, i + 1) for p in parts[2:5])
        el = element_from_label(parts[5].split(".")[0], FMT, i + 1)
        serials[serial] = len(atoms)
        atoms.append(make_atom(len(atoms) + 1, el, x, y, z, name=clean_name(parts[1])))
        i += 1
    bonds: list[tuple[int, int, int]] = []
    if nbonds:
        if "BOND" not in sections:
            fail(
                "format_truncated",
                FMT,
                stop + 1,
                reason="no @<TRIPOS>BOND section",
                expected="an @<TRIPOS>BOND section",
            )
        i = sections["BOND"] + 1
        while len(bonds) < nbonds:
            if i >= stop or lines[i].strip().startswith("@<TRIPOS>"):
                fail(
                    "format_truncated",
                    FMT,
                    i + 1,
                    reason="fewer bond lines than announced",
                    expected=f"{nbonds} bond lines",
                )
            parts = lines[i].split()
            if not parts:
                i += 1
                continue
            if len(parts) < 4:
                syntax(FMT, i + 1, "a bond line needs id, two atoms and a type")
            a1 = to_int(parts[1], FMT, i + 1, "atom id")
            a2 = to_int(parts[2], FMT, i + 1, "atom id")
            if a1 not in serials or a2 not in serials or a1 == a2:
                syntax(FMT, i + 1, f"bond between atoms {a1} and {a2}: no such atom pair")
            kind = parts[3].lower()
            if kind == "nc":
                i += 1
                continue  # "not connected": no bond
            if kind not in _BOND_TYPES:
                syntax(FMT, i + 1, f"unknown bond type '{parts[3]}'")
            bonds.append((serials[a1], serials[a2], _BOND_TYPES[kind]))
            i += 1
    return title, atoms, bonds


def read_mol2(text: str, frame: int | None = None) -> Structure:
    """One molecule of a Mol2 file.

    Raises:
        FormatError: a broken line (named), no MOLECULE section.
    """
    lines = numbered_lines(text)
    starts = _molecules(lines)
    if not starts:
        fail("format_no_atoms", FMT, None, reason="no @<TRIPOS>MOLECULE section")
    bounds = [*starts[1:], len(lines)]
    parsed = [_parse(lines, s, e) for s, e in zip(starts, bounds, strict=True)]
    chosen = pick_frame(FMT, len(starts), frame, required=False)
    title, atoms, raw_bonds = parsed[chosen]
    block = "\n".join(lines[starts[chosen] : bounds[chosen]]) + "\n"
    mol = None
    with quiet():
        for sanitize in (True, False):
            mol = Chem.MolFromMol2Block(block, sanitize=sanitize, removeHs=False)
            if mol is not None:
                break
    if mol is not None and mol.GetNumAtoms() == len(atoms):
        names = [a["name"] for a in atoms]
        new_atoms, bonds = document_from_mol(mol, names=names)
        # RDKit's coordinates and elements come from the same columns; keep ours for names.
        atoms = [
            new_atom(
                a["id"],
                a["element"],
                a["x"],
                a["y"],
                a["z"],
                name=a["name"],
                formalCharge=n["formalCharge"],
            )
            for a, n in zip(atoms, new_atoms, strict=True)
        ]
    else:
        bonds = bonds_with_aromatic(atoms, raw_bonds)
    charge = sum(a["formalCharge"] for a in atoms)
    return Structure(
        atoms=atoms, bonds=bonds, title=title or None, charge=charge, frame_count=len(starts)
    )
