"""The residue names MolForma knows (no Qt, no numpy): one table for the PDB writer's
ATOM/HETATM choice and the QM region's charges."""

from __future__ import annotations

from typing import Final

# The 20 amino acids, their common protonation-state names (Amber, CHARMM) and the two
# genetically encoded extras.
AMINO_ACIDS: Final = frozenset(
    (
        *("ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE"),
        *("LEU", "LYS", "MET", "PHE", "PRO", "SER", "THR", "TRP", "TYR", "VAL"),
        *("HID", "HIE", "HIP", "HSD", "HSE", "HSP", "ASH", "GLH", "LYN", "CYX", "CYM"),
        *("SEC", "PYL"),
    )
)
# RNA and DNA nucleotides (and inosine).
NUCLEOTIDES: Final = frozenset(("A", "C", "G", "U", "I", "DA", "DC", "DG", "DT", "DI"))
# Residues of a polymer chain: written as ATOM records, any other residue as HETATM.
POLYMER: Final = AMINO_ACIDS | NUCLEOTIDES
